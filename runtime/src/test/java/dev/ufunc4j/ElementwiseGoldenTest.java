package dev.ufunc4j;

import static dev.ufunc4j.GoldenTensors.list;
import static dev.ufunc4j.GoldenTensors.map;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every built-in op against real PyTorch: the golden cases of {@code
 * tools/oracle/gen_elementwise.py} (format: {@code docs/golden-format.md}) — every dtype, mixed
 * pairs, broadcasting, Java scalars in both positions, zero-dim operands, edge values, in-place
 * and {@code out=} cases with their errors. Results must match bit for bit (NaN as NaN), except
 * the transcendental functions, within a few units in the last place. Where PyTorch refuses, we
 * must refuse too, with PyTorch's text — except the deliberate differences listed in {@link
 * #extension}, each documented in {@code docs/ops.md}.
 */
class ElementwiseGoldenTest {

  private static final List<String> OPS =
      List.of(
          "add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum", "pow",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
          "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
          "bitwise_left_shift", "bitwise_right_shift", "neg", "abs", "sign", "exp", "log", "sqrt",
          "sin", "cos", "tanh", "sigmoid", "where", "clamp");

  /** Ops whose floating results depend on the vector math library in the last bits. */
  private static final Set<String> TRANSCENDENTAL =
      Set.of("exp", "log", "sin", "cos", "tanh", "sigmoid", "pow");

  /**
   * Ops Java computes correctly rounded where PyTorch's vector code is within one unit in the
   * last place (its float32 sqrt is not always the nearest float).
   */
  private static final Set<String> ONE_ULP = Set.of("sqrt");

  /**
   * PyTorch's mul and div read a second scalar operand at float32 precision beside float16 and
   * bfloat16 tensors (a special path in their kernels); ufunc4j rounds every scalar to the common
   * dtype first, as TensorIterator does for every other op: one unit in the last place apart.
   */
  private static final Set<String> HALF_SCALAR_OPMATH = Set.of("mul", "div", "floor_divide");

  private static boolean scalarBeyondHalf(Object arg) {
    if (GoldenTensors.isScalar(arg)) {
      Object v = GoldenTensors.scalar(arg);
      return v instanceof Number n && Math.abs(n.doubleValue()) > 65504;
    }
    return Math.abs(GoldenTensors.tensor(arg).getDouble()) > 65504;
  }

  private static boolean isScalarOperand(Object arg) {
    return GoldenTensors.isScalar(arg) || GoldenTensors.longs(map(arg).get("shape")).length == 0;
  }

  private static final Set<String> UNARY_FLOAT =
      Set.of("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid");

  @TestFactory
  Stream<DynamicTest> everyOpMatchesPyTorch() {
    return OPS.stream().map(op -> DynamicTest.dynamicTest(op, () -> checkOp(op)));
  }

  private static String javaName(String torchName) {
    StringBuilder sb = new StringBuilder();
    boolean upper = false;
    for (char c : torchName.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        sb.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return sb.toString();
  }

  private static void checkOp(String op) {
    Map<String, Object> file = map(Json.resource("/golden/elementwise/" + op + ".json"));
    List<String> failures = new ArrayList<>();
    Map<String, Integer> tally = new TreeMap<>();
    for (Object c : list(file.get("cases"))) {
      Map<String, Object> kase = map(c);
      String id = (String) kase.get("id");
      try {
        String outcome = checkCase(op, kase);
        tally.merge(outcome, 1, Integer::sum);
      } catch (AssertionError | RuntimeException e) {
        failures.add(id + ": " + e.getMessage());
      }
    }
    System.out.println("[golden] " + op + " " + tally + (failures.isEmpty() ? "" : " FAILED " + failures.size()));
    if (!failures.isEmpty()) {
      try {
        java.nio.file.Files.write(
            java.nio.file.Path.of("target", "golden-failures-" + op + ".txt"), failures);
      } catch (java.io.IOException e) {
        // the report file is a convenience; the assertion below is the result
      }
      fail(op + ": " + failures.size() + " golden cases fail; first ones:\n  "
          + String.join("\n  ", failures.subList(0, Math.min(15, failures.size()))));
    }
    assertTrue(tally.getOrDefault("match", 0) > 0, op + ": no golden case compared a result");
  }

  /** Runs one case; returns how it ended ("match", "refused", or an extension's name). */
  private static String checkCase(String op, Map<String, Object> kase) {
    List<Object> args = list(kase.get("args"));
    for (Object a : args) {
      if (GoldenTensors.isScalar(a) && GoldenTensors.isHugeInt(a)) {
        return "skipped: integer beyond a Java long";
      }
    }
    if (kase.containsKey("kwargs") && map(map(kase.get("kwargs")).get("alpha")).containsKey("bool")) {
      return "skipped: Ops takes alpha as a Java number, not a boolean";
    }
    List<Object> operands = new ArrayList<>();
    for (Object a : args) {
      operands.add(operand(a));
    }
    Map<String, Object> kwargs = kase.containsKey("kwargs") ? map(kase.get("kwargs")) : Map.of();
    Tensor out = null;
    if (Boolean.TRUE.equals(kase.get("inplace"))) {
      out = (Tensor) operands.get(0);
    } else if (kase.get("out") != null) {
      Map<String, Object> spec = map(kase.get("out"));
      out = Tensor.zeros(DType.fromName((String) spec.get("dtype")), GoldenTensors.longs(spec.get("shape")));
    }
    String error = (String) kase.get("error");
    Tensor result;
    try {
      result = invoke(op, operands, kwargs, out);
    } catch (RuntimeException e) {
      if (error == null && op.equals("abs") && usesDtype(kase, "complex32", "complex64", "complex128")) {
        return "refused: body not liftable to complex";
      }
      if (error == null && e.getMessage() != null && e.getMessage().contains("not lifted to complex")) {
        // DESIGN.md: only bodies of + - * / and ==, != are lifted to complex (exp, abs, ?:, &&
        // are not); PyTorch has hand-written complex kernels for those.
        return "refused: body not liftable to complex";
      }
      if (error == null) {
        String why = extension(op, kase, null);
        if (why != null) {
          return why;
        }
        throw new AssertionError("PyTorch gives a result, ufunc4j refuses: " + e);
      }
      // PyTorch's text, in Java words (JavaWords: one table, docs/ops.md).
      if (e.getMessage() != null && e.getMessage().contains(JavaWords.translate(error))) {
        return "refused";
      }
      if ("NotImplementedError".equals(kase.get("error_type"))
          || error.endsWith("not implemented for complex tensors.")
          || error.endsWith("is not supported for complex types")
          || error.startsWith("In-place abs is not supported for complex tensors")) {
        // PyTorch has no kernel for these dtypes, nor do we; our text names the op and dtypes.
        return "refused (no kernel)";
      }
      String why = extension(op, kase, error);
      if (why != null) {
        return why;
      }
      throw new AssertionError("refused with another text: want [" + JavaWords.translate(error)
          + "] (PyTorch: [" + error + "]), got [" + e.getMessage() + "]");
    }
    if (error != null) {
      String why = extension(op, kase, error);
      if (why != null) {
        return why;
      }
      throw new AssertionError("PyTorch refuses [" + error + "] but ufunc4j gave " + result.dtype()
          + java.util.Arrays.toString(result.shape()));
    }
    DType dtype = result.dtype();
    boolean floating = dtype.isFloatingPoint() || dtype.isComplex();
    int ulps = !floating ? 0
        : TRANSCENDENTAL.contains(op) ? (dtype.componentType().byteSize() == 2 ? 1 : 4)
        : ONE_ULP.contains(op) ? 1
        : (op.equals("maximum") || op.equals("minimum") || op.equals("clamp")) ? -1
        : (op.equals("neg") && dtype.isComplex()) ? -1
        : ((op.equals("mul") || op.equals("div")) && dtype.isComplex()) ? 2
        : (kwargs.containsKey("alpha") && dtype.componentType().byteSize() == 2) ? 2
        : (HALF_SCALAR_OPMATH.contains(op) && dtype.byteSize() == 2 && isScalarOperand(args.get(1))) ? 1
        : 0;
    try {
      GoldenTensors.assertMatches(
          kase.get("result"), result, ulps, op + " " + kase.get("id"),
          overflowingQuotient(op, operands, result));
    } catch (AssertionError e) {
      if ((op.equals("add") || op.equals("sub")) && dtype.isComplex()
          && e.getMessage().contains("(NaN), got")) {
        // PyTorch computes complex a + b as a + alpha * b with alpha = 1 + 0i even when alpha
        // is 1, so an infinite component of b makes inf * 0 = NaN; we add componentwise (NumPy).
        return "deviation: complex add/sub of infinite components stays finite-imaginary";
      }
      if (op.equals("mul") && dtype.isComplex() && e.getMessage().contains("Infinity)")) {
        // a.re * b.im + a.im * b.re overflows before the sum without a fused multiply-add;
        // PyTorch's scalar path fuses it (its vector path does not).
        return "deviation: complex mul overflows in an intermediate product";
      }
      if (HALF_SCALAR_OPMATH.contains(op) && dtype.byteSize() == 2 && isScalarOperand(args.get(1))
          && (op.equals("floor_divide") || scalarBeyondHalf(args.get(1)))) {
        // See HALF_SCALAR_OPMATH: a float16-rounded scalar moves a floor, or overflows.
        return "deviation: scalar read at the tensor's 16-bit precision";
      }
      if (kase.get("out") != null && UNARY_FLOAT.contains(op)) {
        // PyTorch computes a unary float op in a wider out= dtype; we compute in the inputs'
        // promoted dtype and cast on store (docs/ops.md).
        return "extension: unary float op into a wider out= computes in the inputs' dtype";
      }
      throw e;
    }
    return "match";
  }

  /**
   * An element of a floating {@code remainder} whose quotient {@code a / b} overflows the compute
   * dtype (float32 for the 16-bit floats) and whose result is the exact one (C's {@code fmod},
   * then moved into b's sign, computed here in double). PyTorch's vectorised fmod gives NaN there
   * (its scalar tail gives the exact remainder); ufunc4j's is exact everywhere (docs/ops.md).
   */
  private static java.util.function.Predicate<long[]> overflowingQuotient(
      String op, List<Object> operands, Tensor result) {
    if (!op.equals("remainder")
        || !result.dtype().isFloatingPoint()
        || !(operands.get(0) instanceof Tensor && operands.get(1) instanceof Tensor)) {
      return index -> false;
    }
    long[] shape = result.shape();
    Tensor a = ((Tensor) operands.get(0)).expand(shape);
    Tensor b = ((Tensor) operands.get(1)).expand(shape);
    boolean float64 = result.dtype() == DType.FLOAT64;
    return index -> {
      double x = a.getDouble(index);
      double y = b.getDouble(index);
      double quotient = x / y;
      boolean overflows = Double.isFinite(x) && y != 0
          && (float64 ? Double.isInfinite(quotient) : Float.isInfinite((float) quotient));
      double mod = x % y;
      double exact = mod != 0 && (y < 0) != (mod < 0) ? mod + y : mod;
      double got = result.getDouble(index);
      return overflows && Double.compare(got, float64 ? exact : (double) (float) exact) == 0;
    };
  }

  private static boolean usesDtype(Map<String, Object> kase, String... names) {
    for (Object a : list(kase.get("args"))) {
      if (!GoldenTensors.isScalar(a) && List.of(names).contains(map(a).get("dtype"))) {
        return true;
      }
    }
    return false;
  }

  private static String conditionDtype(Map<String, Object> kase) {
    Object c = list(kase.get("args")).get(0);
    return GoldenTensors.isScalar(c) ? "" : (String) map(c).get("dtype");
  }

  private static Object operand(Object arg) {
    if (!GoldenTensors.isScalar(arg)) {
      return GoldenTensors.tensor(arg);
    }
    Object v = GoldenTensors.scalar(arg);
    // Ops take Java numbers; a Python bool scalar is a wrapped BOOL tensor.
    return v instanceof Boolean b ? Tensor.wrap(b) : v;
  }

  /** Calls {@code Ops.<javaName>} with these operands, alpha when given, and out when given. */
  private static Tensor invoke(String op, List<Object> operands, Map<String, Object> kwargs, Tensor out) {
    List<Object> values = new ArrayList<>(operands);
    if (kwargs.containsKey("alpha")) {
      values.add(GoldenTensors.scalar(Map.of("scalar", kwargs.get("alpha"))));
    }
    if (out != null) {
      values.add(out);
    }
    Class<?>[] types = new Class<?>[values.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = values.get(i) instanceof Tensor ? Tensor.class : Number.class;
    }
    Method m;
    try {
      m = Ops.class.getMethod(javaName(op), types);
    } catch (NoSuchMethodException e) {
      throw new UnsupportedOperationException("no Ops." + javaName(op) + java.util.Arrays.toString(types));
    }
    try {
      return (Tensor) m.invoke(null, values.toArray());
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The deliberate differences from PyTorch (docs/ops.md), by PyTorch's error or the case: a
   * reason string when this case is one of them, else null.
   */
  static String extension(String op, Map<String, Object> kase, String torchError) {
    if (torchError != null) {
      if (torchError.startsWith("Promotion for uint16, uint32, uint64 types is not supported")
          || torchError.contains("not implemented for 'UInt16'")
          || torchError.contains("not implemented for 'UInt32'")
          || torchError.contains("not implemented for 'UInt64'")) {
        return "extension: uint16/32/64 arithmetic";
      }
      if (torchError.startsWith("Found dtype") || torchError.startsWith("Expected out type")) {
        return "extension: out= casts the result for every op";
      }
      if (torchError.startsWith("where expected condition")) {
        return null;
      }
      if (torchError.contains("must be Tensor, not")) {
        return "extension: every binary op takes Java numbers";
      }
      if (torchError.startsWith("value cannot be converted to type")) {
        return "extension: a scalar out of the common dtype's range wraps or rounds as a cast";
      }
      if (torchError.contains("not implemented for 'Bool'")
          || torchError.contains("not implemented for 'ComplexHalf'")) {
        return "extension: kernel PyTorch lacks on CPU";
      }
    }
    if (torchError == null && usesDtype(kase, "float8_e4m3fn", "float8_e5m2")) {
      return "refused: float8 is storage-only (DESIGN.md), though PyTorch runs a few ops on it";
    }
    if (torchError == null && op.equals("where") && conditionDtype(kase).equals("uint8")) {
      return "refused: where's condition must be BOOL (PyTorch still accepts a deprecated uint8 one)";
    }
    if (torchError == null
        && "numpy".equals(kase.get("source"))
        && (op.equals("floor_divide") || op.equals("remainder"))) {
      return "refused: no uint64 division kernels (the Vector API has no unsigned division)";
    }
    return null;
  }
}
