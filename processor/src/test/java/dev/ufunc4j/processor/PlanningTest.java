package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the model side: entry planning and the choice of integral lanes. (The promotion
 * matrix itself is tested against PyTorch in the annotations module.)
 */
class PlanningTest {

  private static final Set<DType> REAL = EnumSet.complementOf(EnumSet.of(DType.COMPLEX32,
      DType.COMPLEX64, DType.COMPLEX128, DType.FLOAT8_E4M3FN, DType.FLOAT8_E5M2));

  private static OpModel op(Promote promote, boolean predicate, List<OpModel.Overload> overloads,
      int tensors) {
    List<OpModel.TensorParam> params = new java.util.ArrayList<>();
    for (int i = 0; i < tensors; i++) {
      params.add(new OpModel.TensorParam("p" + i, false));
    }
    return new OpModel("op", new OpModel.DeclaringClass("p", "D", "p.D", "p.D"), promote,
        params, List.of(), predicate, overloads);
  }

  private static Body body(Expr result) {
    return new Body(List.of(), result);
  }

  private static Expr.Operand operand(int i, ValueType t) {
    return new Expr.Operand(i, "p" + i, t);
  }

  @Test
  void binaryDoubleOpCoversFloatingPairsOnly() {
    Body add = body(new Expr.Binary(BinaryOp.ADD, operand(0, ValueType.DOUBLE),
        operand(1, ValueType.DOUBLE), ValueType.DOUBLE));
    OpModel op = op(Promote.PROMOTE, false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, "op(double, double)", add)), 2);
    List<KernelEntry> entries = new EntryPlanner(REAL).plan(op);
    // Every pair whose promotion is floating: 13*13 minus the 9*9 integral/bool pairs, plus
    // uint64 with a signed integer (-> float64) both ways.
    assertEquals(169 - 81 + 8, entries.size());
    KernelEntry half = entries.stream().filter(e -> e.operands().equals(List.of(DType.FLOAT16,
        DType.INT32))).findFirst().orElseThrow();
    assertEquals(DType.FLOAT16, half.promoted());
    assertEquals(DType.FLOAT32, half.compute());
    assertEquals(Lane.FLOAT, half.lanes());
    assertEquals("float16_int32", half.kernelName());
  }

  @Test
  void intToFloatSendsIntegralInputsToFloat32() {
    Body id = body(operand(0, ValueType.DOUBLE));
    OpModel op = op(Promote.INT_TO_FLOAT, false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, "op(double)", id)), 1);
    List<KernelEntry> entries = new EntryPlanner(REAL).plan(op);
    assertEquals(13, entries.size());
    assertThat(entries.stream().filter(e -> e.operands().get(0) == DType.INT8)
        .map(KernelEntry::promoted).toList()).containsExactly(DType.FLOAT32);
  }

  @Test
  void ringBodiesComputeInNarrowLanes() {
    Body mul = body(new Expr.Binary(BinaryOp.MUL, operand(0, ValueType.LONG),
        new Expr.Literal(3L, ValueType.LONG), ValueType.LONG));
    assertEquals(Lane.BYTE, IntegerLanes.choose(mul, DType.INT8, false).orElseThrow());
    assertEquals(Lane.SHORT, IntegerLanes.choose(mul, DType.UINT16, false).orElseThrow());
  }

  @Test
  void comparisonOfASumComputesInLongLanes() {
    Expr sum = new Expr.Binary(BinaryOp.ADD, operand(0, ValueType.LONG),
        operand(1, ValueType.LONG), ValueType.LONG);
    Body half = body(new Expr.Binary(BinaryOp.SHR, sum, new Expr.Literal(1L, ValueType.LONG),
        ValueType.LONG));
    assertEquals(Lane.LONG, IntegerLanes.choose(half, DType.INT8, false).orElseThrow());
    Body cmp = body(new Expr.Binary(BinaryOp.LT, operand(0, ValueType.LONG),
        operand(1, ValueType.LONG), ValueType.BOOLEAN));
    assertEquals(Lane.INT, IntegerLanes.choose(cmp, DType.INT32, false).orElseThrow());
  }

  @Test
  void outOfRangeLiteralsAndUnsignedDivisionWiden() {
    Body lt = body(new Expr.Binary(BinaryOp.LT, operand(0, ValueType.LONG),
        new Expr.Literal(1000L, ValueType.LONG), ValueType.BOOLEAN));
    assertEquals(Lane.LONG, IntegerLanes.choose(lt, DType.INT8, false).orElseThrow());
    assertEquals(Lane.SHORT, IntegerLanes.choose(lt, DType.INT16, false).orElseThrow());
    Body div = body(new Expr.Binary(BinaryOp.DIV, operand(0, ValueType.LONG),
        operand(1, ValueType.LONG), ValueType.LONG));
    assertEquals(Lane.BYTE, IntegerLanes.choose(div, DType.INT8, false).orElseThrow());
    assertEquals(Lane.LONG, IntegerLanes.choose(div, DType.UINT8, false).orElseThrow());
    assertThat(IntegerLanes.choose(div, DType.UINT64, false)).isEmpty();
  }

  @Test
  void messagesHaveUniqueFormatsAndStableTags() {
    for (Message m : Message.values()) {
      assertThat(m.tag()).matches("\\[Elementwise/[A-Za-z]+\\]");
    }
  }
}
