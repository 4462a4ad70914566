package dev.ufunc4j.kernel;

import java.util.Objects;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;

/**
 * The slow path of the transcendental functions in generated kernels: lanes computed one by one
 * with {@link StrictMath}, whose results its specification fixes (fdlibm's algorithms) in every
 * JIT tier and on every machine.
 *
 * <p>The fast path is not here. The processor writes each function's vector arithmetic (exact
 * operations only: add, multiply, fused multiply-add, divide, square root, compare, blend, bit
 * operations) straight into the kernel's loop, because C2 does not inline a static method of that
 * size into a loop once it has compiled the method on its own, and a call that is not inlined boxes
 * every vector (docs/vector-math.md). A kernel calls this class only for the lanes the fast path
 * cannot reduce exactly: sin, cos and tan of arguments of magnitude at least 2^18 (float) or 2^28
 * (double).
 */
public final class VectorMath {

  private VectorMath() {}

  /** The functions with a slow path. */
  public enum Function {
    SIN,
    COS,
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
    check(x.length(), fast.length(), use.length(), function);
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
    check(x.length(), fast.length(), use.length(), function);
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

  private static void check(int x, int fast, int use, Function function) {
    Objects.requireNonNull(function, "function");
    if (x != fast || x != use) {
      throw new IllegalArgumentException("strictLanes: the argument has " + x
          + " lanes, the fast result " + fast + " and the mask " + use + "; they must agree");
    }
  }
}
