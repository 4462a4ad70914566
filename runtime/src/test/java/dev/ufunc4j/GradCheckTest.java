package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link GradCheck} over every built-in differentiable op, the reductions, {@code sumToShape} and
 * the views, on broadcast float64 operands (PyTorch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3);
 * and GradCheck's own refusals and failure report.
 */
class GradCheckTest {

  /** A float64 leaf with values in {@code [lo, hi)} (away from the ops' kinks). */
  private static Tensor leaf(long seed, double lo, double hi, long... shape) {
    return Tensor.rand(seed, DType.FLOAT64, shape).mul(hi - lo).add(lo).detach()
        .requiresGrad(true);
  }

  private static final Map<String, Function<Tensor[], Tensor>> BINARY = Map.ofEntries(
      Map.entry("add", t -> t[0].add(t[1])),
      Map.entry("add alpha", t -> t[0].add(t[1], 2.5)),
      Map.entry("sub", t -> t[0].sub(t[1])),
      Map.entry("sub alpha", t -> t[0].sub(t[1], -0.5)),
      Map.entry("mul", t -> t[0].mul(t[1])),
      Map.entry("div", t -> t[0].div(t[1])),
      Map.entry("floorDivide", t -> t[0].floorDivide(t[1])),
      Map.entry("remainder", t -> t[0].remainder(t[1])),
      Map.entry("maximum", t -> t[0].maximum(t[1])),
      Map.entry("minimum", t -> t[0].minimum(t[1])),
      Map.entry("pow", t -> t[0].pow(t[1])));

  private static final Map<String, Function<Tensor[], Tensor>> UNARY = Map.ofEntries(
      Map.entry("neg", t -> t[0].neg()),
      Map.entry("abs", t -> t[0].abs()),
      Map.entry("sign", t -> t[0].sign()),
      Map.entry("exp", t -> t[0].exp()),
      Map.entry("log", t -> t[0].log()),
      Map.entry("sqrt", t -> t[0].sqrt()),
      Map.entry("sin", t -> t[0].sin()),
      Map.entry("cos", t -> t[0].cos()),
      Map.entry("tanh", t -> t[0].tanh()),
      Map.entry("sigmoid", t -> t[0].sigmoid()),
      Map.entry("sum dims", t -> t[0].sum(new int[] {0}, true)),
      Map.entry("mean", t -> t[0].mean(1)),
      Map.entry("amax", t -> t[0].amax(1)),
      Map.entry("amin", t -> t[0].amin()),
      Map.entry("sumToShape", t -> t[0].sumToShape(1, 3)),
      Map.entry("views", t -> t[0].t().reshape(3, 2).unsqueeze(0).expand(2, 3, 2).permute(2, 1, 0)
          .slice(1, 0, 3, 2).narrow(2, 1, 1).select(0, 1).squeeze().mul(t[0].transpose(0, 1)
              .reshape(6).narrow(0, 0, 2))),
      Map.entry("copy and flatten", t -> t[0].copy().flatten().mul(t[0].flatten())));

  /** Every built-in op with a gradient, through its descriptor (no op can be left out). */
  @TestFactory
  List<DynamicTest> everyBuiltinDifferentiableOp() {
    List<DynamicTest> tests = DerivativeOracle.gradChecks(new BuiltinsOpLibrary().ops());
    assertTrue(tests.size() >= 20, "only " + tests.size() + " differentiable built-ins");
    return tests;
  }

  @TestFactory
  Stream<DynamicTest> binaryOpsOnBroadcastOperands() {
    return BINARY.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e ->
        DynamicTest.dynamicTest(e.getKey(), () -> {
          // (2, 3) against (3): positive operands apart (no ties; pow's base positive).
          Tensor a = leaf(1, 0.5, 1.5, 2, 3);
          Tensor b = leaf(2, 1.6, 2.6, 3);
          assertTrue(GradCheck.check(e.getValue(), a, b));
          assertTrue(GradCheck.check(e.getValue(), b, a));
          // A zero-dim operand and one that does not require grad.
          Tensor s = leaf(3, 1.6, 2.6);
          assertTrue(GradCheck.check(e.getValue(), a, s));
          assertTrue(GradCheck.check(e.getValue(), a, b.detach()));
        }));
  }

  @TestFactory
  Stream<DynamicTest> unaryOpsReductionsAndViews() {
    return UNARY.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e ->
        DynamicTest.dynamicTest(e.getKey(), () -> {
          Tensor x = leaf(4, 0.2, 2.0, 2, 3);
          assertTrue(GradCheck.check(e.getValue(), x));
          Tensor y = leaf(5, -2.0, -0.2, 2, 3);
          if (!List.of("log", "sqrt").contains(e.getKey())) {
            assertTrue(GradCheck.check(e.getValue(), y));
          }
        }));
  }

  @Test
  void whereAndClamp() {
    Tensor c = Tensor.of(new boolean[] {true, false, true, false, false, true}, 2, 3);
    Tensor a = leaf(6, -1, 1, 2, 3);
    Tensor b = leaf(7, -1, 1, 3);
    assertTrue(GradCheck.check(t -> Ops.where(c, t[0], t[1]), a, b));
    Tensor lo = leaf(8, -0.5, -0.3, 3);
    Tensor hi = leaf(9, 0.3, 0.5, 2, 1);
    assertTrue(GradCheck.check(t -> t[0].clamp(t[1], t[2]), a, lo, hi));
    assertTrue(GradCheck.check(t -> t[0].clamp(-0.4, 0.4), a));
  }

  @Test
  void reportsAWrongGradientAndRefusesBadInput() {
    Tensor x = leaf(10, 0.5, 1.5, 3);
    // detach() hides one factor from autograd: the analytical Jacobian misses half.
    GradCheck.GradCheckException e = assertThrows(GradCheck.GradCheckException.class,
        () -> GradCheck.check(t -> t[0].mul(t[0].detach()), x));
    assertTrue(e.getMessage().startsWith("Jacobian mismatch for output 0 with respect to input 0"),
        e.getMessage());
    Tensor f = Tensor.of(new float[] {1, 2}).requiresGrad(true);
    IllegalArgumentException single = assertThrows(IllegalArgumentException.class,
        () -> GradCheck.check(t -> t[0].exp(), f));
    assertTrue(single.getMessage().contains("is float32; central differences need float64"));
    assertThrows(IllegalArgumentException.class,
        () -> GradCheck.check(t -> t[0].exp(), Tensor.of(new double[] {1})));
    assertThrows(IllegalArgumentException.class,
        () -> GradCheck.check(t -> t[0].exp(), 0, 1e-5, 1e-3, x));
  }
}
