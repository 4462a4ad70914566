package dev.ufunc4j.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The lane analysis ({@link LaneAnalysis}) against the code the emitters write: {@link
 * KernelGenerator#generate} refuses a kernel whose code touches a wider lane than the analysis
 * found, so generating every entry of a few ops over every dtype checks the two agree; a few
 * widths are pinned where a conversion, not the compute lane, decides them.
 */
class LaneAnalysisTest {

  private static final Set<DType> ALL = EnumSet.complementOf(
      EnumSet.of(DType.FLOAT8_E4M3FN, DType.FLOAT8_E5M2));

  private static OpModel op(String name, Promote promote, int tensors,
      List<OpModel.Overload> overloads) {
    List<OpModel.TensorParam> params = new java.util.ArrayList<>();
    for (int i = 0; i < tensors; i++) {
      params.add(new OpModel.TensorParam("p" + i, false));
    }
    return new OpModel(name, new OpModel.DeclaringClass("p", "D", "p.D", "p.D"), promote,
        params, List.of(), false, overloads, false);
  }

  private static Expr operand(int i, ValueType t) {
    return new Expr.Operand(i, "p" + i, t);
  }

  private static OpModel.Overload overload(ValueType t, String signature, Expr result) {
    return new OpModel.Overload(t, signature, new Body(List.of(), result));
  }

  /** {@code add}: a double and a long body, so entries of every dtype pair, complex ones too. */
  private static OpModel add() {
    return op("add", Promote.PROMOTE, 2, List.of(
        overload(ValueType.DOUBLE, "add(double, double)", new Expr.Binary(BinaryOp.ADD,
            operand(0, ValueType.DOUBLE), operand(1, ValueType.DOUBLE), ValueType.DOUBLE)),
        overload(ValueType.LONG, "add(long, long)", new Expr.Binary(BinaryOp.ADD,
            operand(0, ValueType.LONG), operand(1, ValueType.LONG), ValueType.LONG))));
  }

  /**
   * {@code exp}: a transcendental, whose vector code uses the integer lanes of the bits; integral
   * operands compute in float32 (PyTorch's int-to-float promotion).
   */
  private static OpModel exp() {
    return op("exp", Promote.INT_TO_FLOAT, 1, List.of(overload(ValueType.DOUBLE, "exp(double)",
        new Expr.Call(MathFunction.EXP, List.of(operand(0, ValueType.DOUBLE)),
            ValueType.DOUBLE))));
  }

  /** Generates every entry (the analysis is checked there) and returns the widest lane of each. */
  private static java.util.Map<String, Integer> widest(OpModel op) {
    java.util.Map<String, Integer> widest = new java.util.TreeMap<>();
    for (KernelEntry entry : new EntryPlanner(ALL).plan(op)) {
      KernelGenerator.Kernel kernel = new KernelGenerator(op, entry, true).generate();
      widest.put(entry.kernelName(), kernel.lanes().widestBytes());
    }
    return widest;
  }

  @Test
  void analysisAgreesWithTheCodeOfEveryEntry() {
    java.util.Map<String, Integer> add = widest(add());
    // float16 + float16 is one fused scalar loop: no lanes, LANES as for float.
    assertEquals(4, add.get("float16_float16"));
    // uint32 widens to long lanes on its way to float lanes.
    assertEquals(8, add.get("uint32_float32"));
    assertEquals(4, add.get("int32_float32"));
    // int8 + int8 computes in byte lanes; complex128 steps (re, im) pairs of doubles.
    assertEquals(1, add.get("int8_int8"));
    assertEquals(16, add.get("complex128_complex128"));
    java.util.Map<String, Integer> exp = widest(exp());
    assertEquals(4, exp.get("float32"));
    assertEquals(8, exp.get("float64"));
    assertEquals(8, exp.get("uint32"));
  }
}
