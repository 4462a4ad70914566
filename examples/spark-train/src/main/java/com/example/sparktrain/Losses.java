package com.example.sparktrain;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Promote;

public final class Losses {
  private Losses() {}

  /**
   * Binary cross-entropy of a logit against a 0/1 label, in the stable form that never takes the
   * log of 0 ({@code F.binary_cross_entropy_with_logits}). The processor derives its gradient,
   * {@code sigmoid(logit) - label}, from this body.
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double logLoss(double logit, double label) {
    return Math.max(logit, 0) - logit * label + Math.log1p(Math.exp(-Math.abs(logit)));
  }
}
