package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The pointwise ops of issue 27, item 1, beyond what their PyTorch goldens ({@code
 * ElementwiseGoldenTest}) show: gradients through autograd ({@link GradCheck}), the defaulted
 * forms of the activations against their explicit ones, and the refusals that leave a target
 * untouched.
 */
class PointwiseOpsTest {

  /** A float64 leaf with values in {@code [lo, hi)}. */
  private static Tensor leaf(long seed, double lo, double hi, long... shape) {
    return Tensor.rand(seed, DType.FLOAT64, shape).mul(hi - lo).add(lo).detach()
        .requiresGrad(true);
  }

  private static final Map<String, Function<Tensor[], Tensor>> OPS = Map.ofEntries(
      Map.entry("asinh", t -> t[0].asinh()),
      Map.entry("atanh", t -> t[0].mul(0.3).atanh()),
      Map.entry("acosh", t -> t[0].add(3).acosh()),
      Map.entry("log2", t -> t[0].add(3).log2()),
      Map.entry("sinc", t -> t[0].sinc()),
      Map.entry("atan2", t -> t[0].atan2(t[1])),
      Map.entry("hypot", t -> t[0].hypot(t[1])),
      Map.entry("logaddexp", t -> t[0].logaddexp(t[1])),
      Map.entry("logaddexp2", t -> t[0].logaddexp2(t[1])),
      Map.entry("xlogy", t -> t[0].xlogy(t[1].add(3))),
      Map.entry("lerp", t -> t[0].lerp(t[1], t[1].mul(0.25).add(0.5))),
      Map.entry("silu", t -> t[0].silu()),
      Map.entry("mish", t -> t[0].mish()),
      Map.entry("elu alpha", t -> Ops.elu(t[0], 0.5)),
      Map.entry("softplus beta", t -> Ops.softplus(t[0], 2.0, 20.0)),
      Map.entry("geluTanh", t -> t[0].geluTanh()),
      Map.entry("leakyRelu", t -> Ops.leakyRelu(t[0], 0.2)));

  /**
   * PyTorch's {@code F.gelu(x, approximate=...)} spelling reaches the two declared forms (whose
   * values the PyTorch goldens check), bit for bit; any other value is refused before anything is
   * computed, with PyTorch's message and the value.
   */
  @Test
  void geluApproximateNamesTheTwoForms() {
    Tensor x = Tensor.randn(5, DType.FLOAT32, 64).mul(4);
    assertTrue(Ops.gelu(x, "none").equal(Ops.gelu(x)));
    assertTrue(Ops.gelu(x, "tanh").equal(Ops.geluTanh(x)));
    assertTrue(!Ops.gelu(x, "tanh").equal(Ops.gelu(x)));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Ops.gelu(x, "erf"));
    assertEquals("approximate argument must be either none or tanh. (got erf)", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Ops.gelu(x, (String) null));
  }

  @TestFactory
  Stream<DynamicTest> gradientsMatchCentralDifferences() {
    return OPS.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      Tensor a = leaf(1, -2, 2, 3, 4);
      Tensor b = leaf(2, -2, 2, 4);
      assertTrue(GradCheck.check(e.getValue(), a, b));
    }));
  }

  @Test
  void defaultedActivationsEqualTheirExplicitForms() {
    Tensor x = Tensor.of(new float[] {-30, -2.5f, -1e-3f, -0f, 0, 1e-3f, 2.5f, 19.5f, 20.5f, 30});
    assertArrayEquals(Ops.elu(x, 1.0).toFloatArray(), Ops.elu(x).toFloatArray());
    assertArrayEquals(Ops.leakyRelu(x, 0.01).toFloatArray(), Ops.leakyRelu(x).toFloatArray());
    assertArrayEquals(Ops.softplus(x, 1.0, 20.0).toFloatArray(), Ops.softplus(x).toFloatArray());
  }

  @Test
  void instanceAndInPlaceForms() {
    Tensor x = Tensor.of(new float[] {-2, -0.5f, 0, 0.5f, 2});
    float[] expected = Ops.silu(x).toFloatArray();
    assertArrayEquals(expected, x.silu().toFloatArray());
    Tensor y = x.copy();
    y.siluInPlace();
    assertArrayEquals(expected, y.toFloatArray());
    assertEquals(DType.BOOL, x.isnan().dtype());
    assertEquals(DType.FLOAT32, Tensor.of(new int[] {1, 2}).atan2(Tensor.of(new int[] {3, 4})).dtype());
  }

  @Test
  void refusalsNameTheProblemAndWriteNothing() {
    Tensor out = Tensor.of(new int[] {7, 7, 7});
    Tensor a = Tensor.of(new int[] {5, 6, 7});
    ArithmeticException zero = assertThrows(ArithmeticException.class,
        () -> Ops.fmod(a, Tensor.of(new int[] {2, 0, 3}), out));
    assertArrayEquals(new int[] {7, 7, 7}, out.toIntArray(), "nothing written: " + zero);
    IllegalArgumentException relu = assertThrows(IllegalArgumentException.class,
        () -> Ops.relu(Tensor.of(new boolean[] {true, false})));
    assertEquals("relu: Boolean inputs not supported for relu", relu.getMessage());
    IllegalArgumentException heaviside = assertThrows(IllegalArgumentException.class,
        () -> Ops.heaviside(a, Tensor.of(new float[] {0.5f})));
    assertEquals("heaviside: heaviside is not yet implemented for tensors with different dtypes.",
        heaviside.getMessage());
    Tensor f = Tensor.of(new float[] {1, 2});
    IllegalArgumentException lerp = assertThrows(IllegalArgumentException.class,
        () -> Ops.lerp(f, f, Tensor.of(new double[] {0.5, 0.5})));
    assertEquals("lerp: expected dtype float32 for `weight` but got dtype float64",
        lerp.getMessage());
    IllegalArgumentException frac = assertThrows(IllegalArgumentException.class, () -> a.frac());
    assertTrue(frac.getMessage().startsWith("frac has no kernel for operand dtypes [int32]"),
        frac.getMessage());
  }
}
