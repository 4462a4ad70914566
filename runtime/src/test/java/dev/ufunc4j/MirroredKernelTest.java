package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mirrored kernels (docs/processor.md, "Kernel shape"): the built-ins whose bodies are symmetric
 * compute half of their mixed dtype pairs with the rows of the other order, the operands swapped.
 * Every mixed pair of every such op, both ways round, must give the bits the other order gives
 * (whose kernel is generated in full and checked against PyTorch by the golden and fuzz tests):
 * contiguous, broadcast along a row (the splat loops, which trade places), broadcast across rows,
 * strided (a transposed view), zero-dim and wrapped-number operands, into {@code out=} and in
 * place where the order makes it legal.
 */
class MirroredKernelTest {

  /** The built-ins that mirror (all of their entries, or, for maximum and minimum, integral). */
  private static final List<String> OPS = List.of("add", "mul", "eq", "ne", "logicalAnd",
      "logicalOr", "logicalXor", "bitwiseAnd", "bitwiseOr", "bitwiseXor", "maximum", "minimum");

  private static final double[] FLOATS = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, -7.25, 300.0, 65504.0,
      1e30, -1e-40, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2.5e-3, 100.0,
      -128.0, 255.0, 1e-7, 7.0, -0.5};

  private static List<DType> dtypes() {
    return Arrays.stream(DType.values()).filter(d -> !d.isFloat8()).toList();
  }

  /** Values of {@code dtype} in {@code shape}: edge values for floating dtypes. */
  private static Tensor values(DType dtype, long seed, long... shape) {
    long n = Arrays.stream(shape).reduce(1, (x, y) -> x * y);
    if (dtype.isFloatingPoint() || dtype.isComplex()) {
      double[] v = new double[(int) n];
      for (int i = 0; i < v.length; i++) {
        v[i] = FLOATS[(int) ((i * 7 + seed * 5) % FLOATS.length)];
      }
      return Tensor.of(v, dtype, shape);
    }
    long low = dtype == DType.BOOL ? 0 : -300;
    long high = dtype == DType.BOOL ? 2 : 300;
    return Tensor.randint(seed, low, high, DType.INT64, shape).to(dtype);
  }

  /** A result's elements as bits to compare: NaNs canonical; for maximum/minimum, -0.0 as 0.0. */
  private static long[] bits(Tensor t, boolean signlessZero) {
    double[] d;
    if (t.dtype().isComplex()) {
      d = t.toComplexArray();
    } else if (t.dtype().isFloatingPoint()) {
      d = t.toDoubleArray();
    } else {
      return t.toLongArray();
    }
    long[] out = new long[d.length];
    for (int i = 0; i < d.length; i++) {
      out[i] = Double.doubleToLongBits(signlessZero && d[i] == 0 ? 0.0 : d[i]);
    }
    return out;
  }

  private static Object call(Method m, Object... args) {
    return callOn(m, null, args);
  }

  /** {@code m} on {@code target} (null: a static method), its exception unwrapped. */
  private static Object callOn(Method m, Object target, Object... args) {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** op(a, b), or the refusal's class name. */
  private static Object apply(Method m, Object a, Object b) {
    try {
      return call(m, a, b);
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName();
    }
  }

  private static void same(String what, Object expected, Object actual, boolean signlessZero) {
    if (expected instanceof Tensor e && actual instanceof Tensor a) {
      assertEquals(e.dtype(), a.dtype(), what);
      assertArrayEquals(e.shape(), a.shape(), what);
      assertArrayEquals(bits(e, signlessZero), bits(a, signlessZero), what);
    } else {
      assertEquals(expected, actual, what);
    }
  }

  @Test
  void everyMixedPairGivesTheOtherOrdersBits() throws NoSuchMethodException {
    long[][][] shapes = {
        {{3, 9}, {3, 9}}, // contiguous
        {{3, 9}, {3, 1}}, // b stride 0 along the row: the splat loops
        {{3, 9}, {9}}, // b broadcast across rows
        {{3, 9}, {}}, // zero-dim b
    };
    int checked = 0;
    for (String name : OPS) {
      Method op = Ops.class.getMethod(name, Tensor.class, Tensor.class);
      Method out = Ops.class.getMethod(name, Tensor.class, Tensor.class, Tensor.class);
      Method inPlace = Tensor.class.getMethod(name + "InPlace", Tensor.class);
      Method withNumber = Ops.class.getMethod(name, Tensor.class, Number.class);
      Method numberWith = Ops.class.getMethod(name, Number.class, Tensor.class);
      boolean signlessZero = name.equals("maximum") || name.equals("minimum");
      for (DType x : dtypes()) {
        for (DType y : dtypes()) {
          if (x == y) {
            continue;
          }
          for (long[][] s : shapes) {
            Tensor a = values(x, 1, s[0]);
            Tensor b = values(y, 2, s[1]);
            String what = name + "(" + x + " " + Arrays.toString(s[0]) + ", " + y + " "
                + Arrays.toString(s[1]) + ")";
            Object ab = apply(op, a, b);
            Object ba = apply(op, b, a);
            same(what + " against the other order", ba, ab, signlessZero);
            checked++;
            if (!(ab instanceof Tensor r)) {
              continue;
            }
            // out=: into a fresh tensor of the result dtype, both orders.
            Tensor target = Tensor.zeros(r.dtype(), r.shape());
            call(out, a, b, target);
            same(what + " into out=", r, target, false);
            Tensor target2 = Tensor.zeros(r.dtype(), r.shape());
            call(out, b, a, target2);
            same(what + " reversed into out=", ba, target2, false);
            // In place, where the result dtype is the left operand's own (one order only).
            if (r.dtype() == x && Arrays.equals(r.shape(), a.shape())) {
              Tensor left = a.copy();
              try {
                callOn(inPlace, left, b);
              } catch (RuntimeException e) {
                fail(what + " in place refused: " + e.getMessage());
              }
              same(what + " in place", r, left, false);
            }
          }
          // A strided (transposed) left operand against a contiguous right one.
          Tensor t = values(x, 3, 9, 4).transpose(0, 1);
          Tensor c = values(y, 4, 4, 9);
          same(name + "(" + x + " transposed, " + y + ")", apply(op, c, t), apply(op, t, c),
              signlessZero);
        }
        // Wrapped numbers on either side.
        Tensor a = values(x, 5, 2, 9);
        for (Number n : new Number[] {3, -2.5, 0}) {
          same(name + "(" + x + ", " + n + ")", apply(numberWith, n, a), apply(withNumber, a, n),
              signlessZero);
        }
      }
    }
    assertTrue(checked >= OPS.size() * 16 * 15, "pairs checked: " + checked);
  }

  /**
   * {@code lt} and {@code le} run the rows of {@code gt} and {@code ge} with the operands swapped
   * (docs/processor.md): every pair, same dtypes included, gives the other comparison's bits.
   */
  @Test
  void gtAndGeAreLtAndLeSwapped() throws NoSuchMethodException {
    int checked = 0;
    for (String[] pair : new String[][] {{"gt", "lt"}, {"ge", "le"}}) {
      Method op = Ops.class.getMethod(pair[0], Tensor.class, Tensor.class);
      Method swapped = Ops.class.getMethod(pair[1], Tensor.class, Tensor.class);
      Method out = Ops.class.getMethod(pair[0], Tensor.class, Tensor.class, Tensor.class);
      Method inPlace = Tensor.class.getMethod(pair[0] + "InPlace", Tensor.class);
      for (DType x : dtypes()) {
        for (DType y : dtypes()) {
          for (long[][] s : new long[][][] {{{3, 9}, {3, 9}}, {{3, 9}, {3, 1}}, {{3, 9}, {}}}) {
            Tensor a = values(x, 1, s[0]);
            Tensor b = values(y, 2, s[1]);
            String what = pair[0] + "(" + x + " " + Arrays.toString(s[0]) + ", " + y + " "
                + Arrays.toString(s[1]) + ")";
            Object expected = apply(swapped, b, a);
            same(what + " against " + pair[1] + " swapped", expected, apply(op, a, b), false);
            checked++;
            if (expected instanceof Tensor r) {
              Tensor target = Tensor.zeros(DType.BOOL, r.shape());
              call(out, a, b, target);
              same(what + " into out=", r, target, false);
              if (!x.isComplex()) {
                Tensor left = a.copy();
                callOn(inPlace, left, b);
                same(what + " in place", r.to(x), left, false);
              }
            }
          }
        }
      }
    }
    assertEquals(2 * 16 * 16 * 3, checked);
  }

  /** A test of this test: an op that is not symmetric differs between the orders. */
  @Test
  void theComparisonSeesAnAsymmetricOp() {
    Tensor a = values(DType.FLOAT32, 1, 3, 9);
    Tensor b = values(DType.INT16, 2, 3, 9);
    List<String> differ = new ArrayList<>();
    try {
      same("sub", Ops.sub(b, a), Ops.sub(a, b), false);
    } catch (AssertionError e) {
      differ.add("sub");
    }
    assertEquals(List.of("sub"), differ);
  }
}
