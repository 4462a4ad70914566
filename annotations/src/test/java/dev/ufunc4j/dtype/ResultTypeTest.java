package dev.ufunc4j.dtype;

import static dev.ufunc4j.dtype.DType.BOOL;
import static dev.ufunc4j.dtype.DType.COMPLEX128;
import static dev.ufunc4j.dtype.DType.COMPLEX64;
import static dev.ufunc4j.dtype.DType.FLOAT16;
import static dev.ufunc4j.dtype.DType.FLOAT32;
import static dev.ufunc4j.dtype.DType.FLOAT64;
import static dev.ufunc4j.dtype.DType.FLOAT8_E4M3FN;
import static dev.ufunc4j.dtype.DType.INT32;
import static dev.ufunc4j.dtype.DType.INT64;
import static dev.ufunc4j.dtype.DType.INT8;
import static dev.ufunc4j.dtype.DType.UINT16;
import static dev.ufunc4j.dtype.DType.UINT8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.PromotionGolden.Desc;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The design's worked examples of resultType and its refusals of bad operands. */
class ResultTypeTest {
  private static Desc tensor(DType t) {
    return new Desc(t, 1, false);
  }

  private static Desc zeroDim(DType t) {
    return new Desc(t, 0, false);
  }

  @Test
  void designExamples() {
    assertEquals(FLOAT32, Promotion.resultType(tensor(INT32), 2.5));
    assertEquals(FLOAT32, Promotion.resultType(2.5f, tensor(INT32)));
    assertEquals(UINT8, Promotion.resultType(tensor(UINT8), zeroDim(INT8)));
    assertEquals(FLOAT16, Promotion.resultType(tensor(FLOAT16), zeroDim(FLOAT64)));
    assertEquals(INT32, Promotion.resultType(tensor(INT32), 7L));
    assertEquals(INT64, Promotion.resultType(tensor(BOOL), (byte) 1));
    assertEquals(BOOL, Promotion.resultType(tensor(BOOL), true));
    assertEquals(DType.INT16, Promotion.resultType(tensor(UINT8), tensor(INT8)));
  }


  @Test
  void multiOperandRuleIsNotAPairwiseFold() {
    Object[] ops = {tensor(INT32), zeroDim(FLOAT32), zeroDim(FLOAT64)};
    assertEquals(FLOAT64, Promotion.resultType(ops));
    // folding pairwise would give float32: int32[] + float32 0-dim is a float32 tensor, which a
    // float64 0-dim does not promote.
    assertEquals(FLOAT32, Promotion.resultType(tensor(INT32), zeroDim(FLOAT32)));
    assertEquals(FLOAT32, Promotion.resultType(tensor(FLOAT32), zeroDim(FLOAT64)));
  }

  @Test
  void complexZeroDimKeepsTheFloatPrecisionOfTheDimensionedTensor() {
    assertEquals(COMPLEX128, Promotion.resultType(tensor(FLOAT64), zeroDim(COMPLEX64)));
    assertEquals(COMPLEX64, Promotion.resultType(tensor(DType.BFLOAT16), zeroDim(COMPLEX128)));
  }

  @Test
  void wrappedNumberTensorsPromoteLikeJavaScalars() {
    // a wrapped float64 counts as float32; the int64 0-dim does not outrank the int32 tensor
    assertEquals(FLOAT32, Promotion.resultType(tensor(INT32), new Desc(FLOAT64, 0, true), zeroDim(INT64)));
    assertEquals(FLOAT16, Promotion.resultType(tensor(FLOAT16), new Desc(FLOAT64, 0, true)));
    assertEquals(COMPLEX64, Promotion.resultType(tensor(INT8), new Desc(COMPLEX128, 0, true)));
  }

  @Test
  void uintExtensionInResultType() {
    assertEquals(DType.INT32, Promotion.resultType(tensor(UINT16), tensor(INT8)));
    PromotionException e =
        assertThrows(PromotionException.class, () -> Promotion.TORCH.resultType(tensor(UINT16), tensor(INT8)));
    assertEquals(
        "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote UInt16 and Char",
        e.getMessage());
  }

  @Test
  void float8MixedWithAnythingIsRefusedByDefaultButNotByTorch() {
    assertEquals(FLOAT8_E4M3FN, Promotion.TORCH.resultType(tensor(FLOAT8_E4M3FN), 2.5));
    PromotionException e =
        assertThrows(PromotionException.class, () -> Promotion.resultType(tensor(FLOAT8_E4M3FN), 2.5));
    assertTrue(e.getMessage().contains("float8_e4m3fn") && e.getMessage().contains("2.5"), e.getMessage());
    assertEquals(FLOAT8_E4M3FN, Promotion.resultType(tensor(FLOAT8_E4M3FN), zeroDim(FLOAT8_E4M3FN)));
  }

  @Test
  void badOperandsAreRefusedByValueAndClass() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Promotion.resultType(tensor(INT8), "x"));
    assertEquals(
        "resultType operand 1 is 'x' of class java.lang.String; expected a TensorLike, Boolean, Byte,"
            + " Short, Integer, Long, Float or Double",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Promotion.resultType(tensor(INT8), null));
    assertTrue(e.getMessage().startsWith("resultType operand 1 is null"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Promotion.resultType(BigDecimal.ONE));
    assertTrue(e.getMessage().contains("java.math.BigDecimal"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Promotion.resultType(new Desc(null, 1, false)));
    assertTrue(e.getMessage().contains("dtype null"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Promotion.resultType(new Desc(INT8, -1, false)));
    assertTrue(e.getMessage().contains("ndim -1"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Promotion.resultType());
    assertThrows(IllegalArgumentException.class, () -> Promotion.resultType((Object[]) null));
  }
}
