package dev.ufunc4j.demo;

import dev.ufunc4j.Broadcast;
import dev.ufunc4j.BroadcastException;
import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import java.util.Arrays;

/**
 * The README's main job: broadcasting, type promotion and elementwise ops on real tensors, all
 * computed by ufunc4j (the README's examples, printed). It uses only the public API, as a user's
 * program would; its package is not exported by the module.
 */
public final class Demo {
  private Demo() {}

  /** Prints the examples; takes no arguments. */
  public static void main(String[] args) {
    System.out.println("Broadcasting:");
    broadcast(new long[] {3, 1}, new long[] {1, 4});
    broadcast(new long[] {8, 1, 6, 1}, new long[] {7, 1, 5});
    broadcast(new long[] {2, 0}, new long[] {2, 1});
    broadcast(new long[] {2, 5}, new long[] {4});

    System.out.println("Type promotion:");
    Tensor int32 = Tensor.of(new int[] {1, 2}, 2);
    System.out.println("  int32 tensor + 2.5 -> " + Promotion.resultType(int32, 2.5));
    System.out.println(
        "  uint8 tensor + int8 0-dim -> "
            + Promotion.resultType(Tensor.zeros(DType.UINT8, 3), Tensor.scalar(1).to(DType.INT8)));
    System.out.println(
        "  float16 tensor + float64 0-dim -> "
            + Promotion.resultType(Tensor.zeros(DType.FLOAT16, 3), Tensor.scalar(1.0)));
    System.out.println(
        "  int32 tensor + float32 0-dim + float64 0-dim -> "
            + Promotion.resultType(
                int32, Tensor.scalar(1.0f), Tensor.scalar(1.0)));
    System.out.printf(
        "  promoteTypes(uint16, int8) = %s (PyTorch refuses: %s)%n",
        Promotion.promoteTypes(DType.UINT16, DType.INT8),
        refusal(() -> Promotion.TORCH.promote(DType.UINT16, DType.INT8)));

    System.out.println("Elementwise ops:");
    Tensor x = Tensor.of(new int[] {1, 2, 3}, 3, 1);
    Tensor y = Tensor.of(new float[] {0.5f, 1.5f}, 2);
    System.out.println("  x = " + x.toString().replace("\n", "\n      "));
    System.out.println("  y = " + y);
    System.out.println("  x.add(y) = " + x.add(y).toString().replace("\n", "\n             "));
    System.out.println("  x.add(2.5) = " + x.add(2.5).toString().replace("\n", "\n               "));
    System.out.println("  Ops.div(x, 2) = " + Ops.div(x, 2).toString().replace("\n", "\n                  "));
    System.out.println("  Ops.lt(x, y) = " + Ops.lt(x, y).toString().replace("\n", "\n                 "));
    Tensor v = Tensor.of(new int[] {1, 2, 3}, 3);
    v.addInPlace(1);
    System.out.println("  v.addInPlace(1) -> v = " + v);
    System.out.println(
        "  v.addInPlace(float32 tensor) -> refused: "
            + refusal(() -> v.addInPlace(Tensor.of(new float[] {1, 2, 3}, 3))) + "; v = " + v);
  }

  private static void broadcast(long[]... shapes) {
    String in = String.join(" with ", Arrays.stream(shapes).map(Arrays::toString).toList());
    try {
      System.out.printf("  %s -> %s%n", in, Arrays.toString(Broadcast.shapes(shapes)));
    } catch (BroadcastException e) {
      System.out.printf("  %s -> error: %s%n", in, e.getMessage());
    }
  }

  private static String refusal(Runnable call) {
    try {
      call.run();
      return "no error";
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }
}
