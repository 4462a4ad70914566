package com.example.quickstart;

import dev.ufunc4j.Tensor;

public final class Main {

  private Main() {}

  public static void main(String[] args) {
    Tensor predictions = Tensor.of(new int[] {0, 1, 4}, 3, 1);               // int32, shape [3, 1]
    Tensor targets = Tensor.of(new float[] {0.5f, 1f, 2f, 3.5f}, 4);         // float32, shape [4]
    Tensor loss = LossOps.huber(predictions, targets, 1.0);                  // broadcast to [3, 4]
    System.out.println(loss.dtype() + " " + java.util.Arrays.toString(loss.shape()));
    System.out.println(loss);
  }
}
