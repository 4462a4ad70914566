package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Autograd of the ufunc methods ({@link UfuncGrad}): {@link GradCheck} (float64 central
 * differences) over {@code reduce}, {@code accumulate} and {@code outer} of the built-in binary
 * ops, on extents that exercise the tree's set-aside elements (5, 7) and the left fold; zeros of
 * {@code prod}/{@code cumprod}; {@code add.at}'s gradient and the other ops' refusal. The values
 * PyTorch gives are checked by {@code AutogradGoldenTest}'s {@code ufuncs} group.
 */
class UfuncGradTest {

  /** A float64 leaf with values in {@code [lo, hi)}. */
  private static Tensor leaf(long seed, double lo, double hi, long... shape) {
    return Tensor.rand(seed, DType.FLOAT64, shape).mul(hi - lo).add(lo).detach()
        .requiresGrad(true);
  }

  /** The ops whose ufunc methods are checked, with operands kept in their smooth domain. */
  private static final Map<String, BinaryUfunc> OPS = Map.of(
      "add", Ops.add, "sub", Ops.sub, "mul", Ops.mul, "div", Ops.div, "maximum", Ops.maximum,
      "minimum", Ops.minimum, "pow", Ops.pow, "hypot", Ops.hypot, "atan2", Ops.atan2,
      "logaddexp", Ops.logaddexp);

  @TestFactory
  Stream<DynamicTest> gradCheckOfReduceAccumulateAndOuter() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, BinaryUfunc> e : OPS.entrySet()) {
      BinaryUfunc u = e.getValue();
      // pow and div stay away from zero and overflow: values in [0.5, 1.5)
      Tensor x = leaf(3, 0.5, 1.5, 5, 7);
      Tensor a = leaf(4, 0.5, 1.5, 3);
      Tensor b = leaf(5, 0.5, 1.5, 2, 2);
      Map<String, Function<Tensor[], Tensor>> calls = new java.util.LinkedHashMap<>();
      calls.put("reduce dim 1", t -> u.reduce(t[0], 1));
      calls.put("reduce dim 0 keepDim", t -> u.reduce(t[0], new int[] {0}, true));
      calls.put("accumulate dim 0", t -> u.accumulate(t[0], 0));
      calls.put("accumulate dim -1", t -> u.accumulate(t[0], -1));
      if (u.isAssociative()) {
        calls.put("reduce all", t -> u.reduce(t[0]));
        calls.put("reduce dims [0, 1] of a view", t -> u.reduce(t[0].t(), new int[] {0, 1}, false));
      }
      for (Map.Entry<String, Function<Tensor[], Tensor>> c : calls.entrySet()) {
        tests.add(DynamicTest.dynamicTest(e.getKey() + "." + c.getKey(),
            () -> assertTrue(GradCheck.check(c.getValue(), x))));
      }
      tests.add(DynamicTest.dynamicTest(e.getKey() + ".outer",
          () -> assertTrue(GradCheck.check(t -> u.outer(t[0], t[1]), a, b))));
    }
    return tests.stream();
  }

  @Test
  void prodAndCumprodThroughZerosAreTheProductsOfTheOthers() {
    // One zero: its gradient is the product of the others, every other one is 0; two zeros: all 0.
    Tensor one = Tensor.of(new double[] {2, 0, 3, 5}).requiresGrad(true);
    one.prod().backward();
    assertArrayEquals(new double[] {0, 30, 0, 0}, one.grad().toDoubleArray(), 0.0);
    Tensor two = Tensor.of(new double[] {2, 0, 3, 0, 5}).requiresGrad(true);
    two.prod().backward();
    assertArrayEquals(new double[] {0, 0, 0, 0, 0}, two.grad().toDoubleArray(), 0.0);
    // cumprod [2, 0, 3]: y = [2, 0, 0]; dy/dx summed over the outputs: x0: 1, x1: 2 + 2*3, x2: 0
    Tensor c = Tensor.of(new double[] {2, 0, 3}).requiresGrad(true);
    c.cumprod(0).sum().backward();
    assertArrayEquals(new double[] {1, 8, 0}, c.grad().toDoubleArray(), 0.0);
    assertTrue(GradCheck.check(t -> t[0].cumprod(1),
        Tensor.of(new double[] {2, 0, 3, 1.5, 0, 0, 4, 2}, 2, 4).requiresGrad(true)));
    assertTrue(GradCheck.check(t -> t[0].prod(1, false),
        Tensor.of(new double[] {2, 0, 3, 1.5, 0, 0, 4, 2, 1, 1.5, 2, 3}, 3, 4)
            .requiresGrad(true)));
  }

  @Test
  void maximumReduceSplitsTiesEvenlyAsAmax() {
    Tensor x = Tensor.of(new double[] {3, 1, 3, 3, 2}).requiresGrad(true);
    Ops.maximum.reduce(x).backward();
    double third = 1.0 / 3;
    assertArrayEquals(new double[] {third, 0, third, third, 0}, x.grad().toDoubleArray(), 0.0);
  }

  @Test
  void oneNodePerCall() {
    Tensor x = leaf(6, 0.5, 1.5, 9, 4);
    assertEquals("mul.reduce", GradGraph.edge(Ops.mul.reduce(x, 0)).name());
    assertEquals("sub.reduce", GradGraph.edge(Ops.sub.reduce(x, 0)).name());
    assertEquals("add.accumulate", GradGraph.edge(x.cumsum(0)).name());
    assertEquals("logsumexp", GradGraph.edge(x.logsumexp(new int[] {1}, false)).name());
  }

  @Test
  void cumsumCumprodProdAndLogsumexpOfFloat32AndFloat16() {
    for (DType d : new DType[] {DType.FLOAT32, DType.FLOAT16}) {
      Tensor x = Tensor.of(new double[] {0.5, 1.5, -1, 2, 0.25, 1}, 2, 3).to(d).requiresGrad(true);
      x.cumsum(1).sum().backward();
      assertArrayEquals(new double[] {3, 2, 1, 3, 2, 1},
          x.grad().to(DType.FLOAT64).toDoubleArray(), 0.0);
      assertEquals(d, x.grad().dtype());
    }
  }

  @Test
  void addAtPassesTheTargetsGradientAndGathersTheValues() {
    Tensor base = leaf(7, -1, 1, 4, 3);
    Tensor v = leaf(8, -1, 1, 5, 3);
    Tensor idx = Tensor.of(new long[] {0, 2, 0, -1, 2});
    assertTrue(GradCheck.check(t -> {
      Tensor target = t[0].mul(1.0);
      Ops.add.at(target, idx, t[1]);
      return target.mul(target);
    }, base, v));
    // Along dim 1, values broadcast from one row, a zero-dim index.
    Tensor w = leaf(9, -1, 1, 4);
    assertTrue(GradCheck.check(t -> {
      Tensor target = t[0].mul(2.0);
      Ops.add.at(target, 1, Tensor.wrap(1L), t[1]);
      return target.sin();
    }, base, w));
    // A plain target joins the graph, as index_add_ makes it.
    Tensor plain = Tensor.zeros(DType.FLOAT64, 4, 3);
    Tensor fresh = leaf(12, -1, 1, 5, 3);
    Ops.add.at(plain, idx, fresh);
    plain.sum().backward();
    assertArrayEquals(new double[15], fresh.grad().sub(1.0).toDoubleArray(), 0.0);
  }

  @Test
  void atOfOtherOpsAndOfALeafIsRefusedBeforeAnythingIsWritten() {
    Tensor target = Tensor.ones(DType.FLOAT64, 3);
    Tensor v = leaf(10, 1, 2, 2);
    Tensor idx = Tensor.of(new long[] {0, 2});
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> Ops.mul.at(target, idx, v));
    assertTrue(e.getMessage().startsWith("mul.at: the in-place mul at indices is not"
        + " differentiable"), e.getMessage());
    assertArrayEquals(new double[] {1, 1, 1}, target.toDoubleArray(), 0.0);
    assertNull(GradGraph.edge(target));
    Tensor leafTarget = leaf(11, 0, 1, 3);
    Tensor before = leafTarget.detach().copy();
    IllegalStateException leafError = assertThrows(IllegalStateException.class,
        () -> Ops.add.at(leafTarget, idx, v));
    assertTrue(leafError.getMessage().contains("a leaf tensor that requires grad"));
    assertArrayEquals(before.toDoubleArray(), leafTarget.detach().toDoubleArray(), 0.0);
    IllegalArgumentException outError = assertThrows(IllegalArgumentException.class,
        () -> Ops.mul.reduce(v, 0, Tensor.zeros(DType.FLOAT64)));
    assertTrue(outError.getMessage().startsWith("mul.reduce(): functions with out=..."));
  }
}
