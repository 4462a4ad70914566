package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import org.junit.jupiter.api.Test;

/**
 * The sample ops as a user calls them, through the generated facades: the dtype each produces,
 * the decisions documented on the declarations, and refusals. Element values are checked
 * exhaustively by {@link KernelConformanceTest} and {@link TorchGoldenTest}.
 */
class SampleOpsTest {

  @Test
  void siluComputesIntegralInputsInFloat32AndWritesOut() {
    Tensor x = Tensor.of(new int[] {-2, 0, 3}, 3);
    Tensor r = ActivationsOps.silu(x);
    assertEquals(DType.FLOAT32, r.dtype());
    // exp is not correctly rounded lanewise: within the 2 ulps KernelConformanceTest allows.
    assertEquals(Activations.silu(3), r.getDouble(2), 2 * Math.ulp(3f));
    Tensor out = Tensor.zeros(DType.FLOAT64, 3);
    assertSame(out, ActivationsOps.silu(x, out));
    assertEquals(Activations.silu(-2), out.getDouble(0), 2 * Math.ulp(0.3f));
  }

  @Test
  void hardtanhStaysIntegralWithIntegralLimitsOnly() {
    Tensor x = Tensor.of(new int[] {-5, 0, 5}, 3);
    Tensor ints = ActivationsOps.hardtanh(x, -2L, 3L);
    assertEquals(DType.INT32, ints.dtype());
    assertArrayEquals(new int[] {-2, 0, 3}, ints.toIntArray());
    // Floating limits join promotion, as in torch.clamp (F.hardtanh would stay int32).
    assertEquals(DType.FLOAT32, ActivationsOps.hardtanh(x, -2.0, 3.0).dtype());
    // bool with integral limits computes in int64, as bool + int does.
    Tensor b = ActivationsOps.hardtanh(Tensor.of(new boolean[] {true, false}, 2), 0L, 0L);
    assertEquals(DType.INT64, b.dtype());
    assertArrayEquals(new long[] {0, 0}, b.toLongArray());
  }

  @Test
  void hardtanhKeepsNegativeZeroAndNaNAsTorchClamp() {
    Tensor x = Tensor.of(new float[] {-0.0f, Float.NaN, 7f}, 3);
    Tensor r = ActivationsOps.hardtanh(x, 0.0, 6.0);
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits((float) r.getDouble(0)));
    assertTrue(Double.isNaN(r.getDouble(1)));
    assertEquals(6.0, r.getDouble(2), 0.0);
  }

  @Test
  void saturatingAddsClampInsteadOfWrapping() {
    Tensor a = Tensor.of(new byte[] {100, -100, 5}, 3);
    Tensor b = Tensor.of(new byte[] {100, -100, 3}, 3);
    Tensor s = SaturatingOps.addInt8(a, b);
    assertEquals(DType.INT8, s.dtype());
    assertArrayEquals(new byte[] {127, -128, 8}, s.toByteArray());
    Tensor u = Tensor.of(new byte[] {(byte) 200, 10}, DType.UINT8, 2);
    Tensor v = Tensor.of(new byte[] {(byte) 100, 5}, DType.UINT8, 2);
    Tensor w = SaturatingOps.addUint8(u, v);
    assertEquals(DType.UINT8, w.dtype());
    assertEquals(255, w.getLong(0));
    assertEquals(15, w.getLong(1));
    // Mixed: uint8 + int8 -> int16 (PyTorch's promotion), still clamped to the op's range.
    Tensor m = SaturatingOps.addInt8(u, Tensor.of(new byte[] {100, -20}, 2));
    assertEquals(DType.INT16, m.dtype());
    assertArrayEquals(new short[] {127, -10}, m.toShortArray());
  }

  @Test
  void saturatingAddsRefuseFloatingInputs() {
    Tensor f = Tensor.of(new float[] {1}, 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SaturatingOps.addInt8(f, f));
    assertTrue(e.getMessage().contains("addInt8"), e.getMessage());
  }

  @Test
  void iscloseIsBoolAndTreatsInfinitiesAsTorch() {
    double inf = Double.POSITIVE_INFINITY;
    Tensor a = Tensor.of(new double[] {inf, inf, 1.0, Double.NaN, 1e10}, 5);
    Tensor b = Tensor.of(new double[] {inf, -inf, 1.0 + 1e-9, Double.NaN, inf}, 5);
    Tensor r = PredicatesOps.isclose(a, b, 1e-5, 1e-8, false);
    assertEquals(DType.BOOL, r.dtype());
    assertArrayEquals(new boolean[] {true, false, true, false, false}, r.toBooleanArray());
    Tensor n = PredicatesOps.isclose(a, b, 1e-5, 1e-8, true);
    assertArrayEquals(new boolean[] {true, false, true, true, false}, n.toBooleanArray());
  }

  @Test
  void biasReluBroadcastsARowOfBiases() {
    Tensor x = Tensor.of(new float[] {1, -2, 3, -4, 5, -6}, 2, 3);
    Tensor bias = Tensor.of(new float[] {0.5f, 1f, -10f}, 3);
    Tensor r = FusedOps.biasRelu(x, bias);
    assertArrayEquals(new long[] {2, 3}, r.shape());
    assertArrayEquals(new float[] {1.5f, 0, 0, 0, 6, 0}, r.toFloatArray());
  }

  @Test
  void axpbyScalarsDecideIntegralOrFloating() {
    Tensor a = Tensor.of(new int[] {1, 2}, 2);
    Tensor b = Tensor.of(new int[] {10, 20}, 2);
    Tensor i = BlendsOps.axpby(a, b, 2L, 3L);
    assertEquals(DType.INT32, i.dtype());
    assertArrayEquals(new int[] {32, 64}, i.toIntArray());
    Tensor f = BlendsOps.axpby(a, b, 0.5, 3L);
    assertEquals(DType.FLOAT32, f.dtype());
    assertArrayEquals(new float[] {30.5f, 61f}, f.toFloatArray());
  }

  @Test
  void lerpReachesEndExactlyAtWeightOne() {
    Tensor start = Tensor.of(new float[] {0.1f, -3f, 1e30f}, 3);
    Tensor end = Tensor.of(new float[] {0.3f, 7f, -1e30f}, 3);
    assertArrayEquals(end.toFloatArray(), BlendsOps.lerp(start, end, 1.0).toFloatArray());
    assertArrayEquals(start.toFloatArray(), BlendsOps.lerp(start, end, 0.0).toFloatArray());
  }
}
