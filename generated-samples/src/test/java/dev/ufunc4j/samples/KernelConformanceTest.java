package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every generated kernel of the sample ops and of the runtime's built-in ops ({@code
 * dev.ufunc4j.Builtins}, found like the samples through the {@link OpLibrary} SPI) against its own
 * declared scalar method: for every table entry (dtype combination, the unsigned and 16-bit
 * floating dtypes included), on edge values (all pairs: NaN, ±0, ±inf, subnormals, integer min
 * and max) and random values, through the kernel SPI in rank 1, 2, 3 and 5 layouts with
 * contiguous, stride-0 and strided operands. Where the method throws {@link
 * ArithmeticException} (integer division by zero) the kernel must throw too. Complex entries:
 * {@link ComplexKernelTest}.
 *
 * <p>Integral and bool results must match exactly ({@code narrow(method((long) a, (long) b))},
 * wrapping at the result's width). Floating results: the reference casts each operand to the
 * promoted dtype as PyTorch does, rounds it to the compute dtype, runs the {@code double} method
 * and rounds the result to the compute dtype, then once to the result dtype. float16 and bfloat16
 * compute in float32, so their reference is the body in double rounded to float32, then to the
 * 16-bit dtype; a kernel rounds every intermediate in float32 and the result once on store. They
 * match exactly where the body is one correctly rounded operation, else within the op's stated
 * ulp bound (scaled by the operands' magnitude, since a float32 kernel computes in float32 while
 * the reference computes in double). UINT64 values above 2^31 are used only for ops whose long
 * reading equals the unsigned one. The fmod-based built-ins (Java's {@code %}, exact at any
 * quotient) are bit-exact but for floorDivide's float32 rounding of {@code (a - fmod) / b}
 * ({@link #floorStep}, {@link #hugeFloorQuotient}).
 */
class KernelConformanceTest {

  /**
   * Ulp bounds for ops whose lanewise functions are not correctly rounded or chain roundings, by
   * {@link #id}. Ops not named here: 0 for float64 compute, 1 for float32 compute (the reference
   * computes a float32 entry's body in double on float32 operands and rounds once to float32, the
   * kernel rounds each intermediate in float32: equal for a body of one correctly rounded
   * operation, within 1 ulp for {@code Math.fma}, whose double result rounds twice).
   */
  private static final Map<String, Long> ULPS = Map.ofEntries(
      Map.entry("Samples.add", 0L),
      Map.entry("Samples.silu", 4L),
      Map.entry("Samples.axpy", 2L),
      Map.entry("Samples.wave", 8L),
      Map.entry("Samples.clamp", 0L),
      // Activations, Blends, Fused: float32 kernels round every intermediate in float32.
      Map.entry("Activations.silu", 4L),
      Map.entry("Activations.gelu", 4L),
      Map.entry("Activations.softplus", 4L),
      Map.entry("Activations.leakyRelu", 1L),
      Map.entry("Activations.hardtanh", 0L),
      Map.entry("Blends.axpby", 2L),
      Map.entry("Blends.lerp", 2L),
      Map.entry("Blends.hypot", 2L),
      Map.entry("Fused.biasRelu", 1L),
      // Composition: the same bodies through inlined calls (issue 26), the same bounds.
      Map.entry("Composition.sigmoid", 4L),
      Map.entry("Composition.silu", 4L),
      Map.entry("Composition.shiftedSilu", 4L),
      Map.entry("Composition.geluTanh", 4L),
      Map.entry("Composition.softSign2", 2L),
      // Reducers: logAddExp is softplus's kind of body (log1p of exp); ema two products and a sum.
      Map.entry("Reducers.logAddExp", 4L),
      Map.entry("Reducers.ema", 2L),
      // One correctly rounded operation (or none) in every compute dtype: bit-exact, the sign of
      // a zero included (double has more than twice float32's precision, so rounding the double
      // result of + - * / sqrt on float32 operands to float32 rounds once).
      Map.entry("Builtins.add", 0L),
      Map.entry("Builtins.sub", 0L),
      Map.entry("Builtins.mul", 0L),
      Map.entry("Builtins.div", 0L),
      Map.entry("Builtins.sqrt", 0L),
      Map.entry("Builtins.neg", 0L),
      Map.entry("Builtins.abs", 0L),
      Map.entry("Builtins.sign", 0L),
      Map.entry("Builtins.maximum", 0L),
      Map.entry("Builtins.minimum", 0L),
      Map.entry("Builtins.clamp", 0L),
      Map.entry("Builtins.where", 0L),
      // Exact fmod, then one rounding; see floorStep and hugeFloorQuotient for float32.
      Map.entry("Builtins.remainder", 0L),
      Map.entry("Builtins.floorDivide", 0L),
      // The kernels' transcendental functions (docs/vector-math.md) are within 1 ulp of the exact
      // result, not bit-equal to Math, which is within 1 ulp too: 2 ulps.
      Map.entry("MathFunctions.exp", 2L),
      Map.entry("MathFunctions.expm1", 2L),
      Map.entry("MathFunctions.log", 2L),
      Map.entry("MathFunctions.log1p", 2L),
      Map.entry("MathFunctions.log10", 2L),
      Map.entry("MathFunctions.sin", 2L),
      Map.entry("MathFunctions.cos", 2L),
      Map.entry("MathFunctions.tan", 2L),
      Map.entry("MathFunctions.asin", 2L),
      Map.entry("MathFunctions.acos", 2L),
      Map.entry("MathFunctions.atan", 2L),
      Map.entry("MathFunctions.sinh", 2L),
      Map.entry("MathFunctions.cosh", 2L),
      Map.entry("MathFunctions.tanh", 2L),
      Map.entry("MathFunctions.cbrt", 2L),
      Map.entry("MathFunctions.pow", 2L),
      Map.entry("MathFunctions.hypot", 2L),
      Map.entry("MathFunctions.atan2", 2L),
      Map.entry("Builtins.exp", 2L),
      Map.entry("Builtins.log", 2L),
      Map.entry("Builtins.sin", 2L),
      Map.entry("Builtins.cos", 2L),
      Map.entry("Builtins.tanh", 2L),
      Map.entry("Builtins.pow", 2L),
      // 1 / (1 + exp(-x)): exp's ulp, then an add and a divide rounded in the compute dtype.
      Map.entry("Builtins.sigmoid", 3L),
      // The pointwise ops of issue 27: one transcendental function, as above ...
      Map.entry("Builtins.acos", 2L),
      Map.entry("Builtins.asin", 2L),
      Map.entry("Builtins.atan", 2L),
      Map.entry("Builtins.tan", 2L),
      Map.entry("Builtins.sinh", 2L),
      Map.entry("Builtins.cosh", 2L),
      Map.entry("Builtins.expm1", 2L),
      Map.entry("Builtins.log10", 2L),
      Map.entry("Builtins.log1p", 2L),
      Map.entry("Builtins.exp2", 2L),
      Map.entry("Builtins.atan2", 2L),
      Map.entry("Builtins.hypot", 2L),
      // ... or a function and a few roundings; a fused multiply-add rounds twice in float32
      // (lerp); logaddexp's sum cancels near 0, so its bound is in ulps of the operands.
      Map.entry("Builtins.log2", 3L),
      Map.entry("Builtins.sinc", 3L),
      Map.entry("Builtins.xlogy", 3L),
      Map.entry("Builtins.elu", 3L),
      Map.entry("Builtins.eluAlpha", 3L),
      Map.entry("Builtins.lerp", 2L),
      Map.entry("Builtins.asinh", 4L),
      Map.entry("Builtins.acosh", 4L),
      Map.entry("Builtins.atanh", 4L),
      Map.entry("Builtins.logit", 4L),
      Map.entry("Builtins.logaddexp", 4L),
      Map.entry("Builtins.logaddexp2", 4L),
      Map.entry("Builtins.silu", 4L),
      Map.entry("Builtins.mish", 4L),
      Map.entry("Builtins.softplus", 4L),
      Map.entry("Builtins.softplusBeta", 4L),
      Map.entry("Builtins.geluTanh", 4L));

  /**
   * Ops whose bodies only add, multiply, negate, combine bits, test equality and select: on UINT64
   * their long-semantics reference agrees with the kernel's unsigned semantics for every bit
   * pattern. (The left shift's {@code b < 0 || b >= 64} is true for a count with the top bit set
   * in either reading.) Other ops are checked on UINT64 values below 2^31, where signed and
   * unsigned readings agree; {@link UnsignedSemanticsTest} (samples) and the runtime's
   * ElementwiseGoldenTest (NumPy's uint64 results for the built-ins) cover the rest.
   */
  private static final java.util.Set<String> UNSIGNED_SAFE = java.util.Set.of(
      "Samples.add", "Samples.axpy", "Samples.where", "Samples.logicalXor",
      "Builtins.add", "Builtins.addScaled", "Builtins.sub", "Builtins.subScaled", "Builtins.mul",
      "Builtins.neg", "Builtins.bitwiseAnd", "Builtins.bitwiseOr", "Builtins.bitwiseXor",
      "Builtins.bitwiseNot", "Builtins.bitwiseLeftShift", "Builtins.eq", "Builtins.ne",
      "Builtins.logicalAnd", "Builtins.logicalOr", "Builtins.logicalXor", "Builtins.logicalNot",
      "Builtins.where",
      // The JDK's bit functions (processor JdkFunctions): bits combined, shifted left or
      // logically right, counted by adding and multiplying.
      "JdkMath.bitCount", "JdkMath.leadingZeros", "JdkMath.trailingZeros",
      "JdkMath.rotateLeft13", "JdkMath.rotateRight70", "JdkMath.reverse");

  /**
   * {@code @Scalar} values per op where the generic ones (2.5, -0.75, 3 for every scalar) would
   * miss a branch: PyTorch's defaults, lerp's small-weight side, isclose's zero tolerances and
   * both equal_nan settings, softplus's threshold side.
   */
  private static final Map<String, double[][]> SCALAR_SETS = Map.of(
      "Activations.softplus", new double[][] {{1, 20}, {0.5, 3}, {-1, 20}, {2, 0}},
      "Activations.leakyRelu", new double[][] {{0.01}, {-2.5}},
      "Activations.hardtanh", new double[][] {{-1, 1}, {-2, 3}, {0, 6}, {3, -2}},
      "Blends.lerp", new double[][] {{0.25}, {-0.25}, {0.5}, {1}, {-0.75}, {2.5}},
      "Predicates.isclose",
      new double[][] {{1e-5, 1e-8, 0}, {0.1, 0, 1}, {0, 0.5, 0}, {0, 0, 1}, {2.5, 2.5, 1}},
      "Blends.axpby", new double[][] {{2.5, -0.75}, {3, 1}, {-2, 0}});

  /**
   * The float32 references of the ops calling the JDK's functions of a float's bits: a float32
   * kernel computes {@code Math.nextUp(x)} as the float overload (processor FloatBitsEmitter),
   * as it computes the rest of a body in float32, so its reference is the float overload, not the
   * double method rounded. ({@code Math.scalb} needs none: both round {@code x * 2^n} once.)
   * Also {@code Builtins.roundDecimals}, PyTorch's round_decimals, whose float32 kernel is float32
   * arithmetic where a product rounded to float can cross a half that the double one does not.
   */
  private static final Map<String, java.util.function.Function<double[], Float>> FLOAT_OVERLOADS =
      Map.of(
          "JdkMath.nextUp", a -> Math.nextUp((float) a[0]),
          "JdkMath.nextDown", a -> Math.nextDown((float) a[0]),
          "JdkMath.nextAfter", a -> Math.nextAfter((float) a[0], a[1]),
          "JdkMath.ulp", a -> Math.ulp((float) a[0]),
          "JdkMath.getExponent", a -> (float) Math.getExponent((float) a[0]),
          "Builtins.nextafter", a -> Math.nextAfter((float) a[0], a[1]),
          // rint(x * scale) / scale in float32 arithmetic (PyTorch's round_decimals in float32):
          // the product rounded to float can cross a half where the double one does not.
          "Builtins.roundDecimals", a -> {
            float x = (float) a[0];
            float scale = (float) a[1];
            return scale < 0 ? (float) Math.rint(x / -scale) * -scale
                : (float) Math.rint(x * scale) / scale;
          });

  private static long ulpBound(ElementwiseOp op, int entry) {
    Long declared = ULPS.get(id(op));
    if (declared != null) {
      return declared;
    }
    return op.entryCompute(entry) == DType.FLOAT64 ? 0 : 1;
  }

  /**
   * The ops of the libraries (found through the {@link OpLibrary} SPI) in one package, but those
   * with several results (their kernels write one tensor per component: {@link
   * SeveralResultsTest} checks them against their scalar methods).
   */
  private static List<ElementwiseOp> opsIn(String packageName) {
    List<ElementwiseOp> ops = new ArrayList<>();
    for (OpLibrary lib : ServiceLoader.load(OpLibrary.class)) {
      if (lib.getClass().getPackageName().equals(packageName)) {
        lib.ops().stream().filter(op -> op.resultNames().isEmpty()).forEach(ops::add);
      }
    }
    return ops;
  }

  static List<ElementwiseOp> sampleOps() {
    return opsIn("dev.ufunc4j.samples");
  }

  /** The runtime's built-in ops, declared in {@code dev.ufunc4j.Builtins}. */
  static List<ElementwiseOp> builtinOps() {
    return opsIn("dev.ufunc4j");
  }

  /** Every op whose kernels these tests check: the sample ops, then the built-ins. */
  static List<ElementwiseOp> checkedOps() {
    return Stream.concat(sampleOps().stream(), builtinOps().stream()).toList();
  }

  /**
   * An op's name qualified by its declaring class's simple binary name ({@code Builtins.add},
   * {@code Samples.add}): op names alone repeat across libraries.
   */
  static String id(ElementwiseOp op) {
    String declaring = op.declaringClass();
    return declaring.substring(declaring.lastIndexOf('.') + 1) + "." + op.name();
  }

  @Test
  void librariesAreRegistered() {
    List<String> ids = checkedOps().stream().map(KernelConformanceTest::id).toList();
    assertTrue(ids.containsAll(List.of("Samples.add", "Activations.silu", "Builtins.add",
        "Builtins.pow", "Builtins.where")), ids.toString());
  }

  @TestFactory
  Stream<DynamicNode> everyKernelMatchesItsScalarMethod() {
    // Complex kernels compute the body in complex arithmetic: ComplexKernelTest checks them.
    return checkedOps().stream().map(op -> DynamicContainer.dynamicContainer(id(op),
        java.util.stream.IntStream.range(0, op.entryCount())
            .filter(i -> !op.entryCompute(i).isComplex()).mapToObj(i ->
            DynamicTest.dynamicTest(id(op) + op.entryInputs(i) + " -> " + op.entryPromoted(i),
                () -> checkEntry(op, i)))));
  }

  // ----------------------------------------------------------------------------- reference

  private enum Body {
    DOUBLE,
    LONG,
    BOOLEAN
  }

  private record Reference(Method method, Body body, int[] tensorPosition, int[] scalarPosition) {}

  private static Reference reference(ElementwiseOp op, int entry) throws Exception {
    DType compute = op.entryCompute(entry);
    Class<?> declaring = Class.forName(op.declaringClass());
    Method doubleM = null;
    Method longM = null;
    Method boolM = null;
    for (Method m : declaring.getDeclaredMethods()) {
      if (!m.getName().equals(op.name())
          || m.getParameterCount() != op.arity() + op.scalarParams().size()) {
        continue;
      }
      List<Class<?>> types = new ArrayList<>(Arrays.asList(m.getParameterTypes()));
      types.add(m.getReturnType());
      if (types.contains(double.class)) {
        doubleM = m;
      } else if (types.contains(long.class)) {
        longM = m;
      } else {
        boolM = m;
      }
    }
    Body body;
    Method m;
    if (compute.isFloatingPoint()) {
      body = Body.DOUBLE;
      m = doubleM;
    } else if (compute == DType.BOOL && boolM != null) {
      body = Body.BOOLEAN;
      m = boolM;
    } else {
      body = Body.LONG;
      m = longM;
    }
    if (m == null) {
      throw new AssertionError("no " + body + " overload of " + id(op));
    }
    m.setAccessible(true);
    Parameter[] params = m.getParameters();
    int[] tensorPos = new int[op.arity()];
    int[] scalarPos = new int[op.scalarParams().size()];
    for (int p = 0; p < params.length; p++) {
      String name = params[p].getName();
      int t = op.tensorParams().indexOf(name);
      int s = op.scalarParams().indexOf(name);
      if (t >= 0) {
        tensorPos[t] = p;
      } else if (s >= 0) {
        scalarPos[s] = p;
      } else {
        throw new AssertionError("parameter " + name + " unknown (compile with -parameters)");
      }
    }
    return new Reference(m, body, tensorPos, scalarPos);
  }

  /** Floating tensor operand {@code t} as the kernel computes with it: promoted, then rounded to
   * the compute dtype. */
  private static double floatingOperand(ElementwiseOp op, int entry, int t, long raw) {
    double d = Scalars.toFloating(op.entryInputs(entry).get(t), raw, op.entryPromoted(entry));
    return op.entryCompute(entry) == DType.FLOAT32 ? (double) (float) d : d;
  }

  /** The expected raw result for one element, or null when the method throws. */
  private static Long expected(ElementwiseOp op, int entry, Reference ref, long[] raws,
      double[] floatScalars, long[] intScalars) throws Exception {
    DType compute = op.entryCompute(entry);
    DType result = op.entryResult(entry);
    List<DType> inputs = op.entryInputs(entry);
    Object[] args = new Object[raws.length + floatScalars.length];
    for (int t = 0; t < raws.length; t++) {
      Object v;
      if (op.isConditionOperand(t) || ref.body() == Body.BOOLEAN) {
        v = raws[t] != 0;
      } else if (ref.body() == Body.DOUBLE) {
        v = floatingOperand(op, entry, t, raws[t]);
      } else {
        v = Scalars.integral(inputs.get(t), raws[t]);
      }
      args[ref.tensorPosition()[t]] = v;
    }
    for (int s = 0; s < floatScalars.length; s++) {
      Object v = switch (op.scalarKinds().get(s)) {
        case BOOLEAN -> intScalars[s] != 0;
        default -> ref.body() == Body.DOUBLE
            ? (compute == DType.FLOAT32 ? (double) (float) floatScalars[s] : floatScalars[s])
            : (Object) Scalars.integral(compute, Scalars.narrow(compute, intScalars[s]));
      };
      args[ref.scalarPosition()[s]] = v;
    }
    var floatOverload = FLOAT_OVERLOADS.get(id(op));
    if (floatOverload != null && compute == DType.FLOAT32) {
      double[] operands = Arrays.stream(args).mapToDouble(a -> (Double) a).toArray();
      return Scalars.storeFloating(result, floatOverload.apply(operands));
    }
    Object r;
    try {
      r = ref.method().invoke(null, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof ArithmeticException) {
        return null;
      }
      throw e;
    }
    if (r instanceof Boolean b) {
      return b ? 1L : 0L;
    }
    if (r instanceof Long l) {
      return Scalars.narrow(result, l);
    }
    double d = (Double) r;
    return Scalars.storeFloating(result, compute == DType.FLOAT32 ? (float) d : d);
  }

  // ----------------------------------------------------------------------------- layouts

  /** One operand's view: element offset and strides over the logical shape. */
  record View(long offset, long[] strides) {
    long size(long[] shape) {
      long max = offset;
      for (int d = 0; d < shape.length; d++) {
        max += (shape[d] - 1) * strides[d];
      }
      return max + 1;
    }

    long at(long[] index) {
      long off = offset;
      for (int d = 0; d < index.length; d++) {
        off += index[d] * strides[d];
      }
      return off;
    }
  }

  record Layout(String name, long[] shape, View[] views, boolean allPairs) {}

  private static long[] contiguous(long[] shape) {
    long[] s = new long[shape.length];
    long stride = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      s[d] = stride;
      stride *= shape[d];
    }
    return s;
  }

  /** Operand layouts over ranks 1, 2, 3 and 5; the first holds {@code pairs} rank-1 elements. */
  static List<Layout> layouts(int arity, int pairs) {
    List<Layout> layouts = new ArrayList<>();
    int ops = arity + 1;
    // 1. Rank 1, everything contiguous: every combination of edge values (up to pairs).
    long n = pairs + 67;
    View[] v = new View[ops];
    Arrays.fill(v, new View(0, new long[] {1}));
    layouts.add(new Layout("rank1 contiguous", new long[] {n}, v, true));
    // 2. Rank 1 with one input broadcast (stride 0).
    for (int k = 1; k <= arity; k++) {
      View[] w = new View[ops];
      Arrays.fill(w, new View(2, new long[] {1}));
      w[k] = new View(k, new long[] {0});
      layouts.add(new Layout("rank1 input " + k + " stride 0", new long[] {61}, w, false));
    }
    // 2b. Every input broadcast.
    View[] all0 = new View[ops];
    Arrays.fill(all0, new View(1, new long[] {0}));
    all0[0] = new View(0, new long[] {1});
    layouts.add(new Layout("rank1 all inputs stride 0", new long[] {35}, all0, false));
    // 3. Rank 1 strided: inputs stride 2, output stride 3.
    View[] s = new View[ops];
    Arrays.fill(s, new View(3, new long[] {2}));
    s[0] = new View(1, new long[] {3});
    layouts.add(new Layout("rank1 strided", new long[] {45}, s, false));
    // 4. Rank 2: row and column broadcast.
    long[] shape2 = {5, 19};
    View[] r2 = new View[ops];
    r2[0] = new View(0, contiguous(shape2));
    for (int k = 1; k <= arity; k++) {
      r2[k] = switch (k % 3) {
        case 1 -> new View(0, contiguous(shape2));
        case 2 -> new View(4, new long[] {0, 1});
        default -> new View(0, new long[] {1, 0});
      };
    }
    layouts.add(new Layout("rank2 broadcast", shape2, r2, false));
    // 5. Rank 3: one input transposed.
    long[] shape3 = {3, 4, 10};
    View[] r3 = new View[ops];
    Arrays.fill(r3, new View(0, contiguous(shape3)));
    r3[1] = new View(0, new long[] {1, 3, 12});
    layouts.add(new Layout("rank3 transposed", shape3, r3, false));
    // 6. Rank 5: odometer, with a broadcast dim.
    long[] shape5 = {2, 3, 1, 2, 9};
    View[] r5 = new View[ops];
    Arrays.fill(r5, new View(0, contiguous(shape5)));
    if (arity >= 2) {
      long[] st = contiguous(shape5);
      st[1] = 0;
      r5[2] = new View(1, st);
    }
    layouts.add(new Layout("rank5", shape5, r5, false));
    return layouts;
  }

  // ----------------------------------------------------------------------------- checking

  /**
   * Ops whose UINT64 kernels read an intermediate that wraps below zero ({@code Math.abs(a - b)}):
   * the kernel reads it as unsigned, the long reference as negative. Covered by {@link
   * UnsignedSemanticsTest} instead.
   */
  private static final java.util.Set<String> UNSIGNED_DIVERGENT = java.util.Set.of(
      "Samples.shifts",
      // A negative bound of Math.min/max reads as 2^64 - |bound| on UINT64: Math.max(a + b, -128L)
      // (Saturating.addInt8), hardtanh's minVal -1. Documented on those ops.
      "Saturating.addInt8", "Activations.hardtanh", "JdkMath.clampInt8");

  private static void checkEntry(ElementwiseOp op, int entry) throws Exception {
    if (op.entryCompute(entry) == DType.UINT64 && UNSIGNED_DIVERGENT.contains(id(op))) {
      org.junit.jupiter.api.Assumptions.abort("unsigned 64-bit reading differs by design");
    }
    Reference ref = reference(op, entry);
    ElementwiseKernel kernel = op.kernel(entry);
    List<DType> inputs = op.entryInputs(entry);
    boolean[] noZeroVariants = op.mayThrow() ? new boolean[] {false, true} : new boolean[] {false};
    List<double[]> floatScalarSets = new ArrayList<>();
    List<long[]> intScalarSets = new ArrayList<>();
    scalarSets(op, entry, floatScalarSets, intScalarSets);
    for (boolean noZeros : noZeroVariants) {
      long[][] pools = new long[inputs.size()][];
      boolean smallUnsigned =
          op.entryCompute(entry) == DType.UINT64 && !UNSIGNED_SAFE.contains(id(op));
      for (int k = 0; k < pools.length; k++) {
        DType d = inputs.get(k);
        long[] edges = Scalars.edges(d);
        if (smallUnsigned) {
          edges = Arrays.stream(edges).map(x -> x & 0x7FFF_FFFFL).distinct().toArray();
        }
        pools[k] = noZeros && !d.isFloatingPoint()
            ? Arrays.stream(edges).filter(x -> Scalars.integral(d, x) != 0).toArray()
            : edges;
      }
      int pairs = 1;
      for (int k = 0; k < Math.min(2, pools.length); k++) {
        pairs *= pools[k].length;
      }
      for (int sc = 0; sc < floatScalarSets.size(); sc++) {
        for (Layout layout : layouts(inputs.size(), pairs)) {
          checkLayout(op, entry, ref, kernel, layout, pools, noZeros, smallUnsigned,
              floatScalarSets.get(sc), intScalarSets.get(sc));
        }
      }
    }
  }

  private static void scalarSets(ElementwiseOp op, int entry, List<double[]> fs, List<long[]> is) {
    int n = op.scalarParams().size();
    if (n == 0) {
      fs.add(new double[0]);
      is.add(new long[0]);
      return;
    }
    boolean floating = op.entryCompute(entry).isFloatingPoint();
    boolean boolCompute = op.entryCompute(entry) == DType.BOOL;
    double[][] chosen = SCALAR_SETS.get(id(op));
    if (chosen != null) {
      for (double[] row : chosen) {
        long[] l = new long[n];
        for (int s = 0; s < n; s++) {
          boolean bool = op.scalarKinds().get(s) == ElementwiseOp.ScalarKind.BOOLEAN;
          l[s] = bool || boolCompute ? (row[s] != 0 ? 1 : 0) : (long) row[s];
        }
        fs.add(row.clone());
        is.add(l);
      }
      return;
    }
    double[][] floatValues = floating
        ? new double[][] {{2.5}, {-0.75}, {3}}
        : new double[][] {{3}, {-2}, {1}};
    for (double[] base : floatValues) {
      double[] f = new double[n];
      long[] l = new long[n];
      for (int s = 0; s < n; s++) {
        boolean bool = op.scalarKinds().get(s) == ElementwiseOp.ScalarKind.BOOLEAN;
        f[s] = bool ? (base[0] > 0 ? 1 : 0) : base[0];
        l[s] = bool || boolCompute ? (base[0] > 0 ? 1 : 0) : (long) base[0];
      }
      fs.add(f);
      is.add(l);
    }
  }

  private static void checkLayout(ElementwiseOp op, int entry, Reference ref,
      ElementwiseKernel kernel, Layout layout, long[][] pools, boolean noZeros,
      boolean smallUnsigned, double[] floatScalars, long[] intScalars) throws Exception {
    List<DType> inputs = op.entryInputs(entry);
    DType result = op.entryResult(entry);
    long[] shape = layout.shape();
    int rank = shape.length;
    Random random = new Random(42 + entry);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment[] segs = new MemorySegment[inputs.size() + 1];
      long[] offsets = new long[segs.length];
      long[] strides = new long[segs.length * rank];
      for (int k = 0; k < segs.length; k++) {
        View v = layout.views()[k];
        DType d = k == 0 ? result : inputs.get(k - 1);
        long size = v.size(shape);
        segs[k] = arena.allocate(size * d.byteSize(), 64);
        offsets[k] = v.offset();
        System.arraycopy(v.strides(), 0, strides, k * rank, rank);
        for (long j = 0; j < size; j++) {
          long raw;
          if (k == 0) {
            raw = 0x5A5A5A5A5A5A5A5AL;
          } else {
            long[] pool = pools[k - 1];
            if (layout.allPairs() && j < pairsOf(pools)) {
              long div = 1;
              for (int q = 0; q < k - 1 && q < 2; q++) {
                div *= pools[q].length;
              }
              raw = k <= 2 ? pool[(int) ((j / div) % pool.length)] : pool[(int) (j % pool.length)];
            } else if (j % 3 == 0) {
              raw = pool[(int) ((j * 5 + k) % pool.length)];
            } else {
              raw = Scalars.random(inputs.get(k - 1), random);
              if (smallUnsigned) {
                raw &= 0x7FFF_FFFFL;
              }
              if (noZeros && !inputs.get(k - 1).isFloatingPoint()
                  && Scalars.integral(inputs.get(k - 1), raw) == 0) {
                raw = pool[0];
              }
            }
          }
          Scalars.write(segs[k], d, j, raw);
        }
      }
      // Expected values per logical element, before running (the output may alias nothing).
      long total = 1;
      for (long s : shape) {
        total *= s;
      }
      Long[] expected = new Long[(int) total];
      long[][] raws = new long[(int) total][];
      boolean throwsSomewhere = false;
      long[] index = new long[rank];
      for (int e = 0; e < total; e++) {
        long[] r = new long[inputs.size()];
        for (int k = 0; k < r.length; k++) {
          r[k] = Scalars.read(segs[k + 1], inputs.get(k), layout.views()[k + 1].at(index));
        }
        raws[e] = r;
        expected[e] = expected(op, entry, ref, r, floatScalars, intScalars);
        throwsSomewhere |= expected[e] == null;
        increment(index, shape);
      }
      String where = id(op) + inputs + " " + layout.name() + " scalars "
          + Arrays.toString(floatScalars) + "/" + Arrays.toString(intScalars);
      if (throwsSomewhere) {
        assertThrows(ArithmeticException.class,
            () -> kernel.run(rank, shape, segs, offsets, strides, floatScalars, intScalars), where);
        return;
      }
      kernel.run(rank, shape, segs, offsets, strides, floatScalars, intScalars);
      Arrays.fill(index, 0);
      long bound = ulpBound(op, entry);
      boolean[] written = new boolean[(int) layout.views()[0].size(shape)];
      for (int e = 0; e < total; e++) {
        long at = layout.views()[0].at(index);
        written[(int) at] = true;
        long actual = Scalars.read(segs[0], result, at);
        long want = expected[e];
        if (result.isFloatingPoint()) {
          long ulps = Scalars.ulps(result, want, actual);
          if (hugeFloorQuotient(op, entry, raws[e]) && ulps <= 1) {
            increment(index, shape);
            continue;
          }
          boolean ok = (bound == 0
              ? sameBits(result, want, actual) || ulps == 0 && isNaN(result, want)
              : ulps <= bound || closeForMagnitude(op, entry, result, want, actual, raws[e],
                  floatScalars, bound)) || floorStep(op, entry, result, want, actual);
          if (!ok) {
            fail(where + " at " + Arrays.toString(index) + ": inputs "
                + describe(inputs, raws[e]) + " expected " + Scalars.floating(result, want)
                + " got " + Scalars.floating(result, actual) + " (" + ulps + " ulps, bound "
                + bound + ")");
          }
        } else {
          String at2 = where + " at " + Arrays.toString(index) + ": inputs "
              + describe(inputs, raws[e]);
          if (result == DType.BOOL && want != actual
              && overflowsFloat32(op, entry, raws[e], floatScalars)) {
            increment(index, shape);
            continue;
          }
          assertEquals(Scalars.integral(result, want), Scalars.integral(result, actual), at2);
        }
        increment(index, shape);
      }
      for (int j = 0; j < written.length; j++) {
        if (!written[j]) {
          assertEquals(Scalars.narrow(result == DType.BOOL ? DType.UINT8 : DType.INT64,
                  Scalars.read(segs[0], result, j)) & 0xFF, 0x5AL,
              where + ": wrote outside the output view at " + j);
        }
      }
    }
  }

  /**
   * True for an element of a float32-compute floorDivide whose float32 quotient {@code |a / b|} is
   * finite and 2^24 or more. Its {@code (a - fmod(a, b)) / b} rounds in float32, as PyTorch's float32
   * kernel does, where the reference rounds it in double: there the float32 ulp is 2 or more and
   * the two may differ by one ulp (the remainder itself is exact in both and compared everywhere).
   */
  private static boolean hugeFloorQuotient(ElementwiseOp op, int entry, long[] raws) {
    if (!id(op).equals("Builtins.floorDivide") || op.entryCompute(entry) != DType.FLOAT32) {
      return false;
    }
    float quotient = (float) (floatingOperand(op, entry, 0, raws[0])
        / floatingOperand(op, entry, 1, raws[1]));
    return Math.abs(quotient) >= 0x1p24 && !Float.isInfinite(quotient);
  }

  /**
   * Below 2^24 the float32 remainder is exact, but floorDivide then rounds {@code (a - mod) / b}
   * in float32, as PyTorch's float32 kernel does, where the reference rounds it in double: the
   * floor may differ by one step ({@code 1131 // -1.7321976e-4} is -6529280 in float32 and in
   * PyTorch, -6529279 in double).
   */
  private static boolean floorStep(ElementwiseOp op, int entry, DType result, long want,
      long actual) {
    return id(op).equals("Builtins.floorDivide") && op.entryCompute(entry) == DType.FLOAT32
        && Math.abs(Scalars.floating(result, want) - Scalars.floating(result, actual)) == 1;
  }

  private static long pairsOf(long[][] pools) {
    long p = 1;
    for (int k = 0; k < Math.min(2, pools.length); k++) {
      p *= pools[k].length;
    }
    return p;
  }

  private static boolean sameBits(DType d, long a, long b) {
    long mask = d.byteSize() == 8 ? -1L : (1L << (8 * d.byteSize())) - 1;
    return (a & mask) == (b & mask);
  }

  private static boolean isNaN(DType d, long raw) {
    return Double.isNaN(Scalars.floating(d, raw));
  }

  /**
   * A float32 kernel computes in float32, the reference in double: where an intermediate
   * over/underflows or cancels, they may differ by more ulps of the result than of the operands.
   */
  private static boolean closeForMagnitude(ElementwiseOp op, int entry, DType result, long want,
      long actual, long[] raws, double[] floatScalars, long bound) {
    double x = Scalars.floating(result, want);
    double y = Scalars.floating(result, actual);
    double scale = Math.max(Math.abs(x), operandScale(op, entry, raws, floatScalars));
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      // An intermediate that overflows float32 (2.5 * 3e38) gives inf or NaN in a float32
      // kernel, as in PyTorch, where the double reference stays finite.
      return op.entryCompute(entry) == DType.FLOAT32 && scale > 1e30;
    }
    double ulp = switch (result) {
      case FLOAT64 -> Math.ulp(scale);
      case FLOAT32 -> Math.ulp((float) scale);
      case FLOAT16 -> Math.ulp((float) scale) * 8192;
      default -> Math.ulp((float) scale) * 65536;
    };
    return Math.abs(x - y) <= bound * ulp;
  }

  /**
   * The largest magnitude an intermediate reaches, roughly: the largest operand, times the largest
   * {@code @Scalar} when that exceeds 1 ({@code alpha * a + beta * b} rounds at {@code |alpha a|}).
   */
  private static double operandScale(ElementwiseOp op, int entry, long[] raws,
      double[] floatScalars) {
    double scale = 0;
    List<DType> inputs = op.entryInputs(entry);
    for (int k = 0; k < raws.length; k++) {
      if (!op.isConditionOperand(k)) {
        scale = Math.max(scale,
            Math.abs(Scalars.toFloating(inputs.get(k), raws[k], DType.FLOAT64)));
      }
    }
    double factor = 1;
    for (double s : floatScalars) {
      factor = Math.max(factor, Math.abs(s));
    }
    return scale * factor;
  }

  /**
   * A predicate computed in float32 may see an intermediate overflow to infinity where the double
   * reference does not ({@code |a - b|} for {@code a, b} near the float32 maximum), as in PyTorch.
   */
  private static boolean overflowsFloat32(ElementwiseOp op, int entry, long[] raws,
      double[] floatScalars) {
    return op.entryCompute(entry) == DType.FLOAT32
        && operandScale(op, entry, raws, floatScalars) > 1e30;
  }

  private static String describe(List<DType> inputs, long[] raws) {
    StringBuilder sb = new StringBuilder("(");
    for (int k = 0; k < raws.length; k++) {
      DType d = inputs.get(k);
      sb.append(k > 0 ? ", " : "").append(d.isFloatingPoint()
          ? String.valueOf(Scalars.floating(d, raws[k]))
          : String.valueOf(Scalars.integral(d, raws[k])));
    }
    return sb.append(')').toString();
  }

  static void increment(long[] index, long[] shape) {
    for (int d = index.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) {
        return;
      }
      index[d] = 0;
    }
  }
}
