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
          "sin", "cos", "tanh", "sigmoid", "where", "clamp",
          // issue 27, item 1
          "atan2", "copysign", "fmod", "hypot", "logaddexp", "logaddexp2", "xlogy", "heaviside",
          "acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "deg2rad",
          "rad2deg", "exp2", "expm1", "log10", "log1p", "log2", "logit", "reciprocal", "rsqrt",
          "sinc", "square", "relu", "floor", "ceil", "round", "trunc", "frac", "isnan", "isinf",
          "isfinite", "isposinf", "isneginf", "signbit", "silu", "mish", "hardswish",
          "hardsigmoid", "elu", "leaky_relu", "softplus", "gelu_tanh", "lerp",
          // issue 27's leftovers, through SpecialMath
          "erf", "erfc", "lgamma", "digamma", "gelu", "nan_to_num",
          // the last ones: nextafter, and round's decimals (kwargs cases of round)
          "nextafter");

  /** Ops whose floating results depend on the vector math library in the last bits. */
  private static final Set<String> TRANSCENDENTAL =
      Set.of("exp", "log", "sin", "cos", "tanh", "sigmoid", "pow",
          "acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2",
          "expm1", "log10", "log1p", "log2", "logit", "sinc", "atan2", "hypot", "logaddexp",
          "logaddexp2", "xlogy", "silu", "mish", "elu", "softplus", "gelu_tanh",
          "erf", "erfc", "lgamma", "digamma", "gelu");

  /**
   * Ops Java computes correctly rounded where PyTorch's vector code is within one unit in the
   * last place (its float32 sqrt is not always the nearest float).
   */
  private static final Set<String> ONE_ULP = Set.of("sqrt", "rsqrt", "lerp");

  private static final Set<String> UNARY_FLOAT =
      Set.of("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
          "acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "deg2rad",
          "rad2deg", "exp2", "expm1", "log10", "log1p", "log2", "logit", "reciprocal", "rsqrt",
          "sinc", "silu", "mish", "hardswish", "hardsigmoid", "elu", "leaky_relu", "softplus",
          "gelu_tanh", "frac", "erf", "erfc", "lgamma", "digamma", "gelu");

  /** Binary float ops: as {@link #UNARY_FLOAT} for a wider {@code out=}. */
  private static final Set<String> BINARY_FLOAT =
      Set.of("atan2", "copysign", "hypot", "logaddexp", "logaddexp2", "xlogy");

  /**
   * The keyword arguments a golden case may carry, in the order the Java forms take them (after
   * the tensors): {@code add(a, b, alpha)}, {@code elu(x, alpha)}, {@code leakyRelu(x,
   * negativeSlope)}, {@code softplus(x, beta, threshold)}.
   */
  private static final List<String> KWARGS = List.of("alpha", "negative_slope", "beta", "threshold",
      "eps", "nan", "posinf", "neginf", "decimals");

  /**
   * PyTorch's refusal for a dtype its CPU kernel lacks ({@code "frac_cpu" not implemented for
   * 'Int'}): ufunc4j has no kernel there either and refuses naming the op and the dtypes.
   */
  private static final java.util.regex.Pattern NO_KERNEL =
      java.util.regex.Pattern.compile("\"\\w+\" not implemented for '\\w+'");

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
  static String checkCase(String op, Map<String, Object> kase) {
    List<Object> args = list(kase.get("args"));
    for (Object a : args) {
      if (GoldenTensors.isScalar(a) && GoldenTensors.isHugeInt(a)) {
        return "skipped: integer beyond a Java long";
      }
    }
    if (kase.containsKey("kwargs") && map(kase.get("kwargs")).containsKey("alpha")
        && map(map(kase.get("kwargs")).get("alpha")).containsKey("bool")) {
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
      if (error == null && e.getMessage() != null
          && e.getMessage().contains("it is generated for [float16, bfloat16, float32, float64] only")
          && usesDtype(kase, "complex32", "complex64", "complex128")) {
        // logaddexp, logaddexp2, hypot: kernels for the floating dtypes only; PyTorch has
        // complex logaddexp (docs/ops.md).
        return "refused: complex (floating kernels only)";
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
          || error.endsWith("implemented for complex tensors.")
          || error.endsWith("is not supported for complex inputs")
          || NO_KERNEL.matcher(error).matches()
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
        : 0;
    try {
      GoldenTensors.assertMatches(
          kase.get("result"), result, ulps, op + " " + kase.get("id"),
          overflowingQuotient(op, operands, result).or(exactTie(op, operands, result))
              .or(moreAccurateSpecial(op, kase, operands, result))
              .or(finiteWherePyTorchOverflows(op, kase, result)));
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
      if (kase.get("out") != null && (UNARY_FLOAT.contains(op) || BINARY_FLOAT.contains(op))) {
        // PyTorch computes a unary float op in a wider out= dtype; we compute in the inputs'
        // promoted dtype and cast on store (docs/ops.md).
        return "extension: float op into a wider out= computes in the inputs' dtype";
      }
      if (op.equals("logit") && kwargs.containsKey("eps")
          && dtype.componentType().byteSize() == 2) {
        // PyTorch rounds eps and 1 - eps to float16/bfloat16 before clamping (1 - 1e-6 is 1
        // there, so +inf stays +inf); ufunc4j clamps in the float32 compute dtype (docs/ops.md).
        return "deviation: logit(eps) clamps in float32 for 16-bit floats";
      }
      if (op.equals("square") && dtype.isComplex()) {
        // x * x, componentwise; PyTorch's complex square is pow(x, 2) (its own complex pow),
        // an ulp apart and different at overflow (docs/ops.md).
        return "deviation: complex square is x * x";
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
    boolean fmod = op.equals("fmod");
    if (!(op.equals("remainder") || fmod)
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
      double exact = !fmod && mod != 0 && (y < 0) != (mod < 0) ? mod + y : mod;
      double got = result.getDouble(index);
      return overflows && Double.compare(got, float64 ? exact : (double) (float) exact) == 0;
    };
  }

  /**
   * An element of {@code logaddexp2(a, a)} that is exactly {@code a + 1} in the result dtype.
   * PyTorch's {@code a + log1p(2^0) / ln 2} cancels to a few 1e-17 off 0 at a = -1; ufunc4j's
   * product rounds to 1, so the result is exact there (docs/ops.md).
   */
  private static java.util.function.Predicate<long[]> exactTie(
      String op, List<Object> operands, Tensor result) {
    if (!op.equals("logaddexp2") || !result.dtype().isFloatingPoint()
        || !(operands.get(0) instanceof Tensor && operands.get(1) instanceof Tensor)) {
      return index -> false;
    }
    long[] shape = result.shape();
    Tensor a = ((Tensor) operands.get(0)).expand(shape);
    Tensor b = ((Tensor) operands.get(1)).expand(shape);
    return index -> {
      double x = a.getDouble(index);
      return x == b.getDouble(index) && Double.isFinite(x)
          && result.getDouble(index) == Tensor.scalar(x + 1).to(result.dtype()).getDouble(new long[0]);
    };
  }

  /**
   * An element of float64 {@code sinh} or {@code cosh} just below the overflow threshold (|x| in
   * (709.78, 710.48]), where the exact value is finite but PyTorch's AVX2 kernel, which the
   * goldens are pinned to (docs/golden-format.md), computes {@code exp(|x|) / 2} and overflows to
   * infinity; its AVX-512 kernel and {@code StrictMath} give the finite value. Excused where
   * PyTorch's element is infinite and ufunc4j's is within 4 ulps of {@code StrictMath}'s finite
   * one (docs/ops.md, "Deliberate differences").
   */
  private static java.util.function.Predicate<long[]> finiteWherePyTorchOverflows(
      String op, Map<String, Object> kase, Tensor result) {
    if (!(op.equals("sinh") || op.equals("cosh")) || result.dtype() != DType.FLOAT64) {
      return index -> false;
    }
    Tensor x = GoldenTensors.tensor(list(kase.get("args")).get(0)).expand(result.shape());
    Tensor torch = GoldenTensors.tensor(kase.get("result"));
    return index -> {
      double arg = x.getDouble(index);
      double exact = op.equals("sinh") ? StrictMath.sinh(arg) : StrictMath.cosh(arg);
      double got = result.getDouble(index);
      return Double.isInfinite(torch.getDouble(index)) && Double.isFinite(exact)
          && Math.abs(got - exact) <= 4 * Math.ulp(exact);
    };
  }

  /**
   * The ops computed through {@code SpecialMath} (docs/vector-math.md, "Special functions"), and
   * sigmoid, whose fused float32 core is within 1 ulp where PyTorch's {@code 1 / (1 + exp(-x))}
   * is 2.3 ulp off and 0 for the subnormal results below -88.72 (docs/vector-math.md, "A fused
   * float32 sigmoid").
   */
  private static final Set<String> SPECIAL =
      Set.of("erf", "erfc", "lgamma", "digamma", "gelu", "sigmoid");

  /**
   * An element of an op computed through {@code SpecialMath} where PyTorch's own result is less
   * accurate: its float32 digamma and erf are float computations several ulps off, its float32
   * gelu's {@code 1 + erf(x/√2)} cancels for negative x (ours is {@code x/2 erfc(-x/√2)}), its
   * vectorised erf gives 0 for bfloat16 subnormals and NaN for gelu(+inf). Excused where ufunc4j's
   * element is within 2 ulps of the op's double value (the {@code SpecialMath} method, whose error
   * against exact values {@code SpecialMathTest} bounds) rounded to the result's dtype, or at least
   * as close to it as PyTorch's; for float64,
   * where PyTorch and ufunc4j differ by at most 16 ulps of max(1, |value|) (lgamma and digamma near
   * their zeros and on the negative axis, where both lose relative accuracy).
   */
  private static java.util.function.Predicate<long[]> moreAccurateSpecial(
      String op, Map<String, Object> kase, List<Object> operands, Tensor result) {
    if (!SPECIAL.contains(op) || !result.dtype().isFloatingPoint()
        || !(operands.get(0) instanceof Tensor)) {
      return index -> false;
    }
    // The input as recorded (an in-place case has overwritten the operand).
    Tensor x = GoldenTensors.tensor(list(kase.get("args")).get(0)).expand(result.shape());
    Tensor torch = GoldenTensors.tensor(kase.get("result"));
    DType dtype = result.dtype();
    return index -> {
      double got = result.getDouble(index);
      if (dtype == DType.FLOAT64) {
        double want = torch.getDouble(index);
        return Math.abs(got - want) <= 16 * Math.ulp(Math.max(1, Math.abs(want)));
      }
      double exact = switch (op) {
        case "erf" -> dev.ufunc4j.math.SpecialMath.erf(x.getDouble(index));
        case "erfc" -> dev.ufunc4j.math.SpecialMath.erfc(x.getDouble(index));
        case "lgamma" -> dev.ufunc4j.math.SpecialMath.lgamma(x.getDouble(index));
        case "digamma" -> dev.ufunc4j.math.SpecialMath.digamma(x.getDouble(index));
        case "sigmoid" -> Builtins.sigmoid(x.getDouble(index)); // double: no underflow here
        default -> Builtins.gelu(x.getDouble(index));
      };
      double rounded = Tensor.scalar(exact).to(dtype).getDouble(new long[0]);
      if (Double.isNaN(rounded) || Double.isInfinite(rounded)) {
        return Double.compare(rounded, got) == 0;
      }
      // The dtype's ulp at the value: 2^(exponent - mantissa bits), at least its smallest
      // subnormal.
      int mantissa = switch (dtype) {
        case FLOAT32 -> 23;
        case FLOAT16 -> 10;
        default -> 7; // bfloat16
      };
      double tiny = switch (dtype) {
        case FLOAT32 -> Float.MIN_VALUE;
        case FLOAT16 -> 0x1p-24;
        default -> 0x1p-133;
      };
      double ulp = Math.max(Math.ulp(rounded) * Math.scalb(1.0, 52 - mantissa), tiny);
      // Within 2 ulps, or at least as close as PyTorch's (a float32 gelu's argument x/√2 is
      // rounded before erfc, which costs a few ulps for large |x| in both).
      return Math.abs(got - rounded) <= 2 * ulp
          || Math.abs(got - rounded) <= Math.abs(torch.getDouble(index) - rounded);
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
    // A Python bool is a Java boolean (the ops' boolean forms), a Python int or float a Number.
    return GoldenTensors.scalar(arg);
  }

  /** Calls {@code Ops.<javaName>} with these operands, alpha when given, and out when given. */
  private static Tensor invoke(String op, List<Object> operands, Map<String, Object> kwargs, Tensor out) {
    List<Object> values = new ArrayList<>(operands);
    for (String k : KWARGS) {
      if (kwargs.containsKey(k)) {
        values.add(GoldenTensors.scalar(Map.of("scalar", kwargs.get(k))));
      }
    }
    if (out != null) {
      values.add(out);
    }
    Class<?>[] types = new Class<?>[values.size()];
    for (int i = 0; i < types.length; i++) {
      Object v = values.get(i);
      types[i] = v instanceof Tensor ? Tensor.class : v instanceof Boolean ? boolean.class
          : Number.class;
    }
    Method m;
    Object receiver = null;
    Object[] arguments = values.toArray();
    try {
      if (out != null && out == operands.get(0)) {
        // In place: the instance form a.<op>InPlace(b), PyTorch's a.<op>_(b).
        m = Tensor.class.getMethod(javaName(op) + "InPlace",
            java.util.Arrays.copyOfRange(types, 1, types.length - 1));
        receiver = out;
        arguments = java.util.Arrays.copyOfRange(arguments, 1, arguments.length - 1);
      } else {
        m = Ops.class.getMethod(javaName(op), types);
      }
    } catch (NoSuchMethodException e) {
      throw new UnsupportedOperationException("no " + (receiver == null ? "Ops." : "Tensor.")
          + javaName(op) + (receiver == null ? "" : "InPlace") + java.util.Arrays.toString(types));
    }
    try {
      return (Tensor) m.invoke(receiver, arguments);
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
      if (torchError.startsWith("Found dtype") || torchError.startsWith("Expected out type")
          || torchError.endsWith("does not support non-boolean outputs.")) {
        return "extension: out= casts the result for every op";
      }
      if (torchError.startsWith("where expected condition")) {
        return null;
      }
      if (torchError.contains("must be Tensor, not")
          || torchError.matches("(?s)\\w+\\(\\) received an invalid combination of arguments - got"
              + " \\([^)]*\\b(bool|int|float)\\b.*")) {
        // PyTorch's Python binding has no overload with a number there (a number first with
        // out=, a number beside maximum or a logical op); the Java forms take one everywhere.
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
    if (torchError == null && op.equals("nextafter") && usesDtype(kase, "float16", "bfloat16")) {
      // A float16/bfloat16 kernel computes in float32, where the step would round away; PyTorch
      // steps in the 16-bit dtype (docs/ops.md).
      return "deviation: nextafter has float32 and float64 kernels only";
    }
    if (torchError == null && usesDtype(kase, "float8_e4m3fn", "float8_e5m2")) {
      return "refused: float8 is storage-only (DESIGN.md), though PyTorch runs a few ops on it";
    }
    if (torchError == null && op.equals("where") && conditionDtype(kase).equals("uint8")) {
      return "refused: where's condition must be BOOL (PyTorch still accepts a deprecated uint8 one)";
    }
    if (torchError == null
        && "numpy".equals(kase.get("source"))
        && (op.equals("floor_divide") || op.equals("remainder") || op.equals("fmod"))) {
      return "refused: no uint64 division kernels (the Vector API has no unsigned division)";
    }
    return null;
  }
}
