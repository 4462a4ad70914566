package com.example.train;

import dev.ufunc4j.Autograd;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.util.Locale;

/**
 * Logistic regression by gradient descent: 512 points in the plane, labelled by which side of a
 * line they fall on; a weight vector and a bias learn the line. The loss is {@link Losses#logLoss},
 * a user-declared op whose gradient the processor derived.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    // The data: x ~ N(0, 1)^2, label 1 where 2 x0 - x1 + 0.5 > 0.
    Tensor x = Tensor.randn(7, DType.FLOAT32, 512, 2);
    Tensor trueW = Tensor.of(new float[] {2, -1});
    Tensor labels = x.mul(trueW).sum(1).add(0.5).gt(0.0).to(DType.FLOAT32);

    Tensor w = Tensor.zeros(DType.FLOAT32, 2).requiresGrad(true);
    Tensor b = Tensor.zeros(DType.FLOAT32).requiresGrad(true);
    double learningRate = 0.5;
    double first = Double.NaN;
    double last = Double.NaN;
    for (int step = 0; step <= 200; step++) {
      Tensor logits = x.mul(w).sum(1).add(b);                   // (512, 2) * (2) -> (512)
      Tensor loss = LossesOps.logLoss(logits, labels).mean();   // records how it was made
      loss.backward();                                          // w.grad(), b.grad()
      last = loss.getDouble();
      if (step == 0) {
        first = last;
      }
      if (step % 40 == 0) {
        System.out.printf(Locale.ROOT, "step %3d  loss %.6f%n", step, last);
      }
      try (var _ = Autograd.noGrad()) {        // plain updates, not recorded
        w.subInPlace(w.grad().mul(learningRate));
        b.subInPlace(b.grad().mul(learningRate));
      }
      w.setGrad(null);
      b.setGrad(null);
    }
    Tensor predicted = x.mul(w).sum(1).add(b).gt(0.0).to(DType.FLOAT32);
    double accuracy = predicted.eq(labels).to(DType.FLOAT32).mean().getDouble();
    System.out.printf(Locale.ROOT, "w = %s, b = %.3f, accuracy %.3f%n",
        w.detach(), b.getDouble(), accuracy);
    if (!(last < first)) {
      System.out.printf(Locale.ROOT, "loss did not decrease: %.6f -> %.6f%n", first, last);
      System.exit(1);
    }
    System.out.printf(Locale.ROOT, "loss decreased from %.6f to %.6f%n", first, last);
  }
}
