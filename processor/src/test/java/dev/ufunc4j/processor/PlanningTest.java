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
        params, List.of(), predicate, overloads, false);
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

  private static Expr bin(BinaryOp op, Expr l, Expr r, ValueType t) {
    return new Expr.Binary(op, l, r, t);
  }

  @Test
  void symmetricBodiesAreThoseThatReadTheSameWithOperandsSwapped() {
    Expr a = operand(0, ValueType.DOUBLE);
    Expr b = operand(1, ValueType.DOUBLE);
    Expr zero = new Expr.Literal(0.0, ValueType.DOUBLE);
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.ADD, a, b, ValueType.DOUBLE)))).isTrue();
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.EQ, a, b, ValueType.BOOLEAN)))).isTrue();
    // logicalAnd: a != 0 && b != 0.
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.AND, bin(BinaryOp.NE, a, zero,
        ValueType.BOOLEAN), bin(BinaryOp.NE, b, zero, ValueType.BOOLEAN),
        ValueType.BOOLEAN)))).isTrue();
    assertThat(Mirrors.symmetric(body(new Expr.Call(MathFunction.MAX, List.of(a, b),
        ValueType.DOUBLE)))).isTrue();
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.SUB, a, b, ValueType.DOUBLE)))).isFalse();
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.LT, a, b, ValueType.BOOLEAN)))).isFalse();
    assertThat(Mirrors.symmetric(body(new Expr.Call(MathFunction.POW, List.of(a, b),
        ValueType.DOUBLE)))).isFalse();
    // PyTorch's maximum keeps the first of -0.0 and 0.0: a >= b ? a : b is not symmetric.
    assertThat(Mirrors.symmetric(body(new Expr.Conditional(bin(BinaryOp.GE, a, b,
        ValueType.BOOLEAN), a, b, ValueType.DOUBLE)))).isFalse();
    // a + alpha * b (addScaled) is not; a * b + a * b is.
    Expr alpha = new Expr.ScalarRef(0, "alpha", ValueType.DOUBLE);
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.ADD, a, bin(BinaryOp.MUL, alpha, b,
        ValueType.DOUBLE), ValueType.DOUBLE)))).isFalse();
    Expr ab = bin(BinaryOp.MUL, a, b, ValueType.DOUBLE);
    Expr ba = bin(BinaryOp.MUL, b, a, ValueType.DOUBLE);
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.ADD, ab, ba, ValueType.DOUBLE)))).isTrue();
    // An integer division is never mirrored (which operand throws would change).
    Expr la = operand(0, ValueType.LONG);
    Expr lb = operand(1, ValueType.LONG);
    assertThat(Mirrors.symmetric(body(bin(BinaryOp.ADD, bin(BinaryOp.DIV, la, lb,
        ValueType.LONG), bin(BinaryOp.DIV, lb, la, ValueType.LONG), ValueType.LONG)))).isFalse();
  }

  @Test
  void mirroredEntriesAreTheLaterOfEachMixedPair() {
    Body add = body(bin(BinaryOp.ADD, operand(0, ValueType.DOUBLE), operand(1, ValueType.DOUBLE),
        ValueType.DOUBLE));
    OpModel op = op(Promote.PROMOTE, false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, "op(double, double)", add)), 2);
    List<KernelEntry> entries = new EntryPlanner(REAL).plan(op);
    java.util.Map<KernelEntry, KernelEntry> mirrors = Mirrors.sources(op, entries, op, entries);
    long mixed = entries.stream().filter(e -> e.operands().get(0) != e.operands().get(1)).count();
    assertEquals(mixed / 2, mirrors.size());
    mirrors.forEach((mirror, source) -> {
      assertEquals(List.of(mirror.operands().get(1), mirror.operands().get(0)),
          source.operands());
      assertThat(source.operands().get(0).compareTo(source.operands().get(1))).isLessThan(0);
      assertThat(mirrors).doesNotContainKey(source);
    });
    Body sub = body(bin(BinaryOp.SUB, operand(0, ValueType.DOUBLE), operand(1, ValueType.DOUBLE),
        ValueType.DOUBLE));
    OpModel minus = op(Promote.PROMOTE, false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, "op(double, double)", sub)), 2);
    List<KernelEntry> minusTable = new EntryPlanner(REAL).plan(minus);
    assertThat(Mirrors.sources(minus, minusTable, minus, minusTable)).isEmpty();
  }

  private static OpModel named(String name, BinaryOp op) {
    Body body = body(bin(op, operand(0, ValueType.DOUBLE), operand(1, ValueType.DOUBLE),
        ValueType.BOOLEAN));
    return new OpModel(name, new OpModel.DeclaringClass("p", "D", "p.D", "p.D"),
        Promote.PROMOTE, List.of(new OpModel.TensorParam("a", false),
            new OpModel.TensorParam("b", false)), List.of(), true,
        List.of(new OpModel.Overload(ValueType.DOUBLE, name + "(double, double)", body)), false);
  }

  @Test
  void anOpThatIsAnEarlierOpSwappedRunsItsRows() {
    OpModel lt = named("lt", BinaryOp.LT);
    OpModel le = named("le", BinaryOp.LE);
    OpModel gt = named("gt", BinaryOp.GT);
    OpModel ge = named("ge", BinaryOp.GE);
    OpModel eq = named("eq", BinaryOp.EQ);
    List<OpModel> models = List.of(lt, le, gt, ge, eq);
    assertThat(Mirrors.across(lt, models)).isEmpty(); // declared first: generated
    assertThat(Mirrors.across(gt, models)).hasValue(lt);
    assertThat(Mirrors.across(ge, models)).hasValue(le);
    assertThat(Mirrors.across(le, models)).isEmpty();
    assertThat(Mirrors.across(eq, models)).isEmpty(); // symmetric: mirrors within itself
    List<KernelEntry> ltTable = new EntryPlanner(REAL).plan(lt);
    List<KernelEntry> gtTable = new EntryPlanner(REAL).plan(gt);
    java.util.Map<KernelEntry, KernelEntry> sources = Mirrors.sources(gt, gtTable, lt, ltTable);
    assertEquals(gtTable.size(), sources.size());
    sources.forEach((mirror, source) -> assertEquals(
        List.of(mirror.operands().get(1), mirror.operands().get(0)), source.operands()));
  }

  /** The functions of a float's bits cost an add's; exp is costly (issue 25's mend). */
  @Test
  void floatBitFunctionsAreCheap() {
    Expr a = operand(0, ValueType.DOUBLE);
    Expr b = operand(1, ValueType.DOUBLE);
    for (MathFunction fn : List.of(MathFunction.NEXT_UP, MathFunction.NEXT_DOWN,
        MathFunction.ULP, MathFunction.GET_EXPONENT)) {
      assertEquals(1, DescriptorGenerator.perElementCost(binary(body(new Expr.Call(fn,
          List.of(a), ValueType.DOUBLE)))), fn.name());
    }
    assertEquals(1, DescriptorGenerator.perElementCost(binary(body(new Expr.Call(
        MathFunction.NEXT_AFTER, List.of(a, b), ValueType.DOUBLE)))));
    assertEquals(1, DescriptorGenerator.perElementCost(binary(body(new Expr.Call(
        MathFunction.SCALB, List.of(a, new Expr.Literal(3.0, ValueType.DOUBLE)),
        ValueType.DOUBLE)))));
    assertEquals(4, DescriptorGenerator.perElementCost(binary(body(new Expr.Call(
        MathFunction.EXP, List.of(a), ValueType.DOUBLE)))));
  }

  private static OpModel binary(Body body) {
    return op(Promote.PROMOTE, false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, "op(double, double)", body)), 2);
  }

  @Test
  void messagesHaveUniqueFormatsAndStableTags() {
    for (Message m : Message.values()) {
      assertThat(m.tag()).matches("\\[Elementwise/[A-Za-z]+\\]");
    }
  }
}
