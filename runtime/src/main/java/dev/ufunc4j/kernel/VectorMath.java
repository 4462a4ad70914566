package dev.ufunc4j.kernel;

import java.util.Objects;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;

/**
 * The slow paths of the transcendental functions and the floating remainder in generated kernels:
 * lanes computed one by one with {@link StrictMath} and Java's {@code %}, whose results their
 * specifications fix (fdlibm's algorithms; C's exact {@code fmod}) in every JIT tier and on every
 * machine.
 *
 * <p>The fast path is not here. The processor writes each function's vector arithmetic (exact
 * operations only: add, multiply, fused multiply-add, divide, square root, compare, blend, bit
 * operations) straight into the kernel's loop, because C2 does not inline a static method of that
 * size into a loop once it has compiled the method on its own, and a call that is not inlined boxes
 * every vector (docs/vector-math.md). A kernel calls this class only for the lanes the fast path
 * cannot reduce exactly: sin, cos and tan of arguments of magnitude at least 2^18 (float) or 2^28
 * (double), and the floating remainder {@code a % b} where the quotient {@code a / b} reaches 2^24
 * (float) or 2^53 (double).
 */
public final class VectorMath {

  private VectorMath() {}

  /** The functions with a slow path. */
  public enum Function {
    /** {@code Math.sin}. */
    SIN,
    /** {@code Math.cos}. */
    COS,
    /** {@code Math.tan}. */
    TAN;

    /** This function of {@code x} by {@link StrictMath}. */
    double strict(double x) {
      return switch (this) {
        case SIN -> StrictMath.sin(x);
        case COS -> StrictMath.cos(x);
        case TAN -> StrictMath.tan(x);
      };
    }
  }

  /**
   * {@code fast} with the lanes set in {@code use} replaced by {@code function} of the same lanes
   * of {@code x}, each computed by {@link StrictMath} in double and rounded once to float.
   *
   * @param x the function's argument
   * @param fast the fast path's result, kept in the lanes not in {@code use}
   * @param use the lanes to recompute
   * @param function the function
   * @return the merged result, of {@code x}'s species
   */
  public static FloatVector strictLanes(FloatVector x, FloatVector fast, VectorMask<Float> use,
      Function function) {
    Objects.requireNonNull(function, "function");
    checkLanes("strictLanes", x.length(), fast.length(), use.length(), x.length());
    float[] args = x.toArray();
    float[] result = fast.toArray();
    boolean[] lanes = use.toArray();
    for (int i = 0; i < args.length; i++) {
      if (lanes[i]) {
        result[i] = (float) function.strict(args[i]);
      }
    }
    return FloatVector.fromArray(x.species(), result, 0);
  }

  /**
   * {@code fast} with the lanes set in {@code use} replaced by {@code function} of the same lanes
   * of {@code x}, each computed by {@link StrictMath}.
   *
   * @param x the function's argument
   * @param fast the fast path's result, kept in the lanes not in {@code use}
   * @param use the lanes to recompute
   * @param function the function
   * @return the merged result, of {@code x}'s species
   */
  public static DoubleVector strictLanes(DoubleVector x, DoubleVector fast,
      VectorMask<Double> use, Function function) {
    Objects.requireNonNull(function, "function");
    checkLanes("strictLanes", x.length(), fast.length(), use.length(), x.length());
    double[] args = x.toArray();
    double[] result = fast.toArray();
    boolean[] lanes = use.toArray();
    for (int i = 0; i < args.length; i++) {
      if (lanes[i]) {
        result[i] = function.strict(args[i]);
      }
    }
    return DoubleVector.fromArray(x.species(), result, 0);
  }

  /**
   * {@code fast} with the lanes set in {@code use} replaced by Java's {@code a % b} of the same
   * lanes: C's {@code fmod}, exact at any quotient. Kernels call it for the lanes whose quotient
   * {@code a / b} reaches 2^24, where their vector remainder is no longer exact.
   *
   * @param a the dividends
   * @param b the divisors
   * @param fast the vector path's result, kept in the lanes not in {@code use}
   * @param use the lanes to recompute
   * @return the merged result, of {@code a}'s species
   */
  public static FloatVector remainderLanes(FloatVector a, FloatVector b, FloatVector fast,
      VectorMask<Float> use) {
    checkLanes("remainderLanes", a.length(), b.length(), fast.length(), use.length());
    float[] dividends = a.toArray();
    float[] divisors = b.toArray();
    float[] result = fast.toArray();
    boolean[] lanes = use.toArray();
    for (int i = 0; i < dividends.length; i++) {
      if (lanes[i]) {
        result[i] = dividends[i] % divisors[i];
      }
    }
    return FloatVector.fromArray(a.species(), result, 0);
  }

  /**
   * {@code fast} with the lanes set in {@code use} replaced by Java's {@code a % b} of the same
   * lanes: C's {@code fmod}, exact at any quotient. Kernels call it for the lanes whose quotient
   * {@code a / b} reaches 2^53, where their vector remainder is no longer exact.
   *
   * @param a the dividends
   * @param b the divisors
   * @param fast the vector path's result, kept in the lanes not in {@code use}
   * @param use the lanes to recompute
   * @return the merged result, of {@code a}'s species
   */
  public static DoubleVector remainderLanes(DoubleVector a, DoubleVector b, DoubleVector fast,
      VectorMask<Double> use) {
    checkLanes("remainderLanes", a.length(), b.length(), fast.length(), use.length());
    double[] dividends = a.toArray();
    double[] divisors = b.toArray();
    double[] result = fast.toArray();
    boolean[] lanes = use.toArray();
    for (int i = 0; i < dividends.length; i++) {
      if (lanes[i]) {
        result[i] = dividends[i] % divisors[i];
      }
    }
    return DoubleVector.fromArray(a.species(), result, 0);
  }

  private static void checkLanes(String method, int a, int b, int c, int d) {
    if (a != b || a != c || a != d) {
      throw new IllegalArgumentException(method + ": vectors of " + a + ", " + b + ", " + c
          + " and " + d + " lanes; they must have one lane count");
    }
  }
}
