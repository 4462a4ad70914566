package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.dtype.TensorLike;
import java.util.Arrays;

/**
 * The README's main job until the benchmark runner exists: broadcasting and type promotion
 * examples, computed by ufunc4j's own {@link Broadcast} and {@link Promotion}.
 */
public final class Demo {
  private Demo() {}

  /** A tensor as promotion sees it, until the runtime's Tensor exists. */
  private record Operand(DType dtype, int ndim) implements TensorLike {
    @Override
    public String toString() {
      return ndim == 0 ? dtype + " 0-dim tensor" : dtype + " tensor";
    }
  }

  public static void main(String[] args) {
    System.out.println("Broadcasting:");
    broadcast(new long[] {3, 1}, new long[] {1, 4});
    broadcast(new long[] {8, 1, 6, 1}, new long[] {7, 1, 5});
    broadcast(new long[] {2, 0}, new long[] {2, 1});
    broadcast(new long[] {2, 5}, new long[] {4});

    System.out.println("Type promotion:");
    promote(new Operand(DType.INT32, 1), 2.5);
    promote(new Operand(DType.UINT8, 1), new Operand(DType.INT8, 0));
    promote(new Operand(DType.FLOAT16, 1), new Operand(DType.FLOAT64, 0));
    promote(
        new Operand(DType.INT32, 1), new Operand(DType.FLOAT32, 0), new Operand(DType.FLOAT64, 0));
    System.out.printf(
        "  promoteTypes(uint16, int8) = %s (PyTorch refuses: %s)%n",
        Promotion.promoteTypes(DType.UINT16, DType.INT8),
        refusal(() -> Promotion.TORCH.promote(DType.UINT16, DType.INT8)));
  }

  private static void broadcast(long[]... shapes) {
    String in = String.join(" with ", Arrays.stream(shapes).map(Arrays::toString).toList());
    try {
      System.out.printf("  %s -> %s%n", in, Arrays.toString(Broadcast.shapes(shapes)));
    } catch (BroadcastException e) {
      System.out.printf("  %s -> error: %s%n", in, e.getMessage());
    }
  }

  private static void promote(Object... operands) {
    String in = String.join(" + ", Arrays.stream(operands).map(String::valueOf).toList());
    System.out.printf("  %s -> %s%n", in, Promotion.resultType(operands));
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
