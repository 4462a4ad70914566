package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Facade;
import dev.ufunc4j.annotation.Identity;

/**
 * Sample ops made for the ufunc methods: the generated facade {@code ReducerOps} holds a {@code
 * BinaryUfunc} field per op ({@code ReducerOps.logAddExp.reduce(x, 1)}), whose reductions and
 * scans are tested against folds of these scalar methods.
 */
@Facade("ReducerOps")
public final class Reducers {
  private Reducers() {}

  static final double LN2 = 0.6931471805599453;

  /**
   * {@code log(exp(a) + exp(b))} without overflow (NumPy's {@code logaddexp}); its identity is
   * {@code -inf}, and it is associative, so {@code logAddExp.reduce} is a {@code logsumexp}.
   */
  @Elementwise(identity = Identity.LOWEST, associative = true, dtypes = {"float32", "float64"})
  public static double logAddExp(double a, double b) {
    final double m = Math.max(a, b);
    return a == b ? a + LN2 : m + Math.log1p(Math.exp(-Math.abs(a - b)));
  }

  /**
   * {@code a + b + a * b}, that is {@code (1 + a)(1 + b) - 1}: a product in disguise, so
   * associative exactly in wrapping integer arithmetic, with identity 0. An integral user op:
   * its reductions and scans run its generated integral fold loops.
   */
  @Elementwise(identity = Identity.ZERO, associative = true, dtypes = {"int8", "int32", "int64"})
  public static long shiftedProduct(long a, long b) {
    return a + b + a * b;
  }

  /**
   * One step of an exponential moving average with weight 0.25 for the new value: not
   * associative and without identity, so {@code ema.accumulate(x, 0)} is the running average
   * along dim 0 and {@code ema.reduce(x, 0)} its last value.
   */
  @Elementwise(dtypes = {"float32", "float64"})
  public static double ema(double average, double value) {
    return 0.75 * average + 0.25 * value;
  }
}
