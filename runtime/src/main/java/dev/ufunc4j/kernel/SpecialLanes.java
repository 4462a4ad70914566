package dev.ufunc4j.kernel;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;

/**
 * {@code dev.ufunc4j.math.SpecialMath} functions applied lane by lane, for generated kernels: a
 * kernel's {@code SpecialMath.erf(x)} gives the Java method's bits in every lane, in every JIT tier
 * (docs/vector-math.md, "Special functions"). Float lanes widen to double and round the result
 * once, so they equal {@code (float) SpecialMath.erf(x)}.
 */
public final class SpecialLanes {

  private SpecialLanes() {}

  /**
   * {@code function} of each lane.
   *
   * @param x the argument lanes
   * @param function a {@code SpecialMath} method
   * @return the results, of {@code x}'s species
   */
  public static DoubleVector lanes(DoubleVector x, DoubleUnaryOperator function) {
    double[] a = x.toArray();
    for (int i = 0; i < a.length; i++) {
      a[i] = function.applyAsDouble(a[i]);
    }
    return DoubleVector.fromArray(x.species(), a, 0);
  }

  /**
   * {@code function} of each lane, computed in double and rounded to float once.
   *
   * @param x the argument lanes
   * @param function a {@code SpecialMath} method
   * @return the results, of {@code x}'s species
   */
  public static FloatVector lanes(FloatVector x, DoubleUnaryOperator function) {
    float[] a = x.toArray();
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) function.applyAsDouble(a[i]);
    }
    return FloatVector.fromArray(x.species(), a, 0);
  }

  /**
   * {@code function} of each pair of lanes.
   *
   * @param x the first argument's lanes
   * @param y the second argument's lanes, of {@code x}'s species
   * @param function a {@code SpecialMath} method
   * @return the results, of {@code x}'s species
   */
  public static DoubleVector lanes(DoubleVector x, DoubleVector y,
      DoubleBinaryOperator function) {
    double[] a = x.toArray();
    double[] b = y.toArray();
    for (int i = 0; i < a.length; i++) {
      a[i] = function.applyAsDouble(a[i], b[i]);
    }
    return DoubleVector.fromArray(x.species(), a, 0);
  }

  /**
   * {@code function} of each pair of lanes, computed in double and rounded to float once.
   *
   * @param x the first argument's lanes
   * @param y the second argument's lanes, of {@code x}'s species
   * @param function a {@code SpecialMath} method
   * @return the results, of {@code x}'s species
   */
  public static FloatVector lanes(FloatVector x, FloatVector y, DoubleBinaryOperator function) {
    float[] a = x.toArray();
    float[] b = y.toArray();
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) function.applyAsDouble(a[i], b[i]);
    }
    return FloatVector.fromArray(x.species(), a, 0);
  }
}
