package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code @Elementwise(dtypes = "float32")} at run time: one kernel, float32 calls and mixed calls
 * that promote to float32 work (values from the op's scalar method), and calls computing in another
 * dtype are refused naming the op, the dtypes and the set, before anything is written.
 */
class RestrictedTest {

  private static final ElementwiseOp OP = Restricted_twiceLess.OP;

  @Test
  void descriptorHoldsTheSetAndOneKernel() {
    assertEquals(List.of(DType.FLOAT32), OP.dtypes());
    assertEquals(1, OP.entryCount());
    assertEquals(List.of(DType.FLOAT32, DType.FLOAT32), OP.entryInputs(0));
  }

  @Test
  void float32CallsAndMixedCallsPromotingToFloat32Work() {
    Tensor a = Tensor.of(new float[] {1.5f, -2f, 3f}, 3);
    Tensor b = Tensor.of(new float[] {0.25f, 4f, -1f}, 3);
    Tensor r = RestrictedOps.twiceLess(a, b);
    assertEquals(DType.FLOAT32, r.dtype());
    float[] expected = new float[3];
    for (int i = 0; i < 3; i++) {
      expected[i] = (float) Restricted.twiceLess(a.getDouble(i), b.getDouble(i));
    }
    assertArrayEquals(expected, r.toFloatArray());
    // int32 beside float32 promotes to float32: the int32 operand is converted first.
    Tensor ints = Tensor.of(new int[] {1, -2, 3}, 3);
    Tensor mixed = RestrictedOps.twiceLess(ints, b);
    assertEquals(DType.FLOAT32, mixed.dtype());
    for (int i = 0; i < 3; i++) {
      expected[i] = (float) Restricted.twiceLess(ints.getDouble(i), b.getDouble(i));
    }
    assertArrayEquals(expected, mixed.toFloatArray());
    // A Java number is a wrapped scalar: float32 stays float32.
    assertEquals(DType.FLOAT32, RestrictedOps.twiceLess(a, 2.0).dtype());
  }

  @Test
  void callsComputingInAnotherDtypeAreRefusedNamingTheSet() {
    Tensor d = Tensor.of(new double[] {1, 2}, 2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RestrictedOps.twiceLess(d, d));
    assertEquals("twiceLess has no kernel for operand dtypes [float64, float64] (computing in"
        + " float64): it is generated for [float32] only (@Elementwise(dtypes) on its"
        + " declaration); convert the operands to one of those with .to(dtype), or add the dtype"
        + " there", e.getMessage());
    Tensor f16 = Tensor.of(new float[] {1, 2}, 2).to(DType.FLOAT16);
    e = assertThrows(IllegalArgumentException.class, () -> RestrictedOps.twiceLess(f16, f16));
    assertEquals("twiceLess has no kernel for operand dtypes [float16, float16] (computing in"
        + " float16): it is generated for [float32] only (@Elementwise(dtypes) on its"
        + " declaration); convert the operands to one of those with .to(dtype), or add the dtype"
        + " there", e.getMessage());
    // Refused before writing: out= keeps its values.
    Tensor out = Tensor.of(new double[] {7, 7}, 2);
    assertThrows(IllegalArgumentException.class, () -> RestrictedOps.twiceLess(d, d, out));
    assertArrayEquals(new double[] {7, 7}, out.toDoubleArray());
  }
}
