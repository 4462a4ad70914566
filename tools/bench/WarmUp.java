import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.TensorScope;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.samples.ActivationsOps;
import java.util.function.UnaryOperator;

/**
 * Warm-up in a new JVM (issue 28, item 5): the time of the first 10,000 scoped calls of a
 * 1K-element float32 op, then of the next 10,000, and when the op reaches its steady state (the
 * first block of 1,000 calls within 20% of the last block's time, of 30 blocks). Run it once per
 * op in a fresh JVM: {@code add} (Ops.add) or {@code silu} (a user's op: generated-samples'
 * Activations.silu).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp runtime/target/classes:generated-samples/target/classes tools/bench/WarmUp.java add
 * </pre>
 */
public final class WarmUp {

  public static void main(String[] args) {
    String op = args.length > 0 ? args[0] : "add";
    Tensor a = Tensor.randn(1, DType.FLOAT32, 1024);
    Tensor b = Tensor.randn(2, DType.FLOAT32, 1024);
    UnaryOperator<Tensor> call = switch (op) {
      case "add" -> x -> Ops.add(x, b);
      case "silu" -> ActivationsOps::silu;
      default -> throw new IllegalArgumentException("op must be add or silu, got " + op);
    };
    long start = System.nanoTime();
    long[] blocks = new long[30];
    double sink = 0;
    for (int blk = 0; blk < blocks.length; blk++) {
      long t = System.nanoTime();
      for (int i = 0; i < 1000; i++) {
        try (var _ = TensorScope.open()) {
          sink += call.apply(a).numel();
        }
      }
      blocks[blk] = System.nanoTime() - t;
    }
    long first = 0;
    long next = 0;
    for (int i = 0; i < 10; i++) {
      first += blocks[i];
      next += blocks[10 + i];
    }
    long last = blocks[blocks.length - 1];
    int steady = 0;
    long steadyNanos = 0;
    for (int i = 0; i < blocks.length; i++) {
      steadyNanos += blocks[i];
      if (blocks[i] <= last * 1.2) {
        steady = i;
        break;
      }
    }
    System.out.printf(
        "%s 1K scoped: first 10,000 calls %.3f s, next 10,000 %.3f s; steady (block within 20%% of"
            + " the last's %.1f us/call) after %,d calls, %.3f s%n",
        op, first / 1e9, next / 1e9, last / 1e3 / 1000, (steady + 1) * 1000, steadyNanos / 1e9);
    if (sink < 0) {
      System.out.println(start);
    }
  }
}
