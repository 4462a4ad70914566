package com.example.quickstart;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Facade;
import dev.ufunc4j.annotation.Scalar;

/** Ops of this project. The processor generates the facade {@code LossOps} from them. */
@Facade("LossOps")
public final class Losses {

  private Losses() {}

  /** Huber loss of {@code prediction - target}: quadratic within {@code delta}, linear beyond. */
  @Elementwise
  public static double huber(double prediction, double target, @Scalar double delta) {
    final double error = Math.abs(prediction - target);
    return error <= delta ? 0.5 * error * error : delta * (error - 0.5 * delta);
  }
}
