package dev.ufunc4j.samples;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.lang.foreign.MemorySegment;
import java.util.Locale;

/**
 * A hand timing, not a test: ns per element of the contiguous rank-1 add kernels for float32,
 * float16 and bfloat16 (and float16 + float32 mixed, float16 silu), called directly so the
 * dispatcher's per-call cost does not count. Operands fit in L2, one thread.
 *
 * <p>Run after {@code mvn -pl generated-samples -am test-compile}:
 * {@code java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp
 * generated-samples/target/test-classes:generated-samples/target/classes:runtime/target/classes:annotations/target/classes
 * dev.ufunc4j.samples.HalfTiming [elements]}
 */
public final class HalfTiming {

  private HalfTiming() {}

  private static String only = "";

  /** @param args [elements [label filter]] */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 16384;
    only = args.length > 1 ? args[1] : "";
    for (int round = 0; round < 3; round++) {
      System.out.println("round " + round + ", " + n + " elements:");
      time("add float32", Samples_add.OP, n, DType.FLOAT32, DType.FLOAT32,
          DType.FLOAT32);
      time("add float16", Samples_add.OP, n, DType.FLOAT16, DType.FLOAT16,
          DType.FLOAT16);
      time("add bfloat16", Samples_add.OP, n, DType.BFLOAT16,
          DType.BFLOAT16, DType.BFLOAT16);
      time("add float16+float32", Samples_add.OP, n, DType.FLOAT32,
          DType.FLOAT16, DType.FLOAT32);
      time("silu float32", Samples_silu.OP, n, DType.FLOAT32, DType.FLOAT32);
      time("silu float16", Samples_silu.OP, n, DType.FLOAT16, DType.FLOAT16);
    }
  }

  private static void time(String label, ElementwiseOp op, int n, DType out, DType... inputs) {
    if (!label.contains(only)) {
      return;
    }
    ElementwiseKernel kernel = op.kernel(op.entry(inputs));
    MemorySegment[] segments = new MemorySegment[inputs.length + 1];
    segments[0] = Tensor.zeros(out, n).segment();
    for (int i = 0; i < inputs.length; i++) {
      segments[i + 1] = Tensor.rand(i + 1, DType.FLOAT32, n).to(inputs[i]).segment();
    }
    long[] shape = {n};
    long[] offsets = new long[segments.length];
    long[] strides = new long[segments.length];
    java.util.Arrays.fill(strides, 1);
    double[] fs = {};
    long[] is = {};
    int reps = Math.max(1, 200_000_000 / n);
    for (int r = 0; r < reps / 4; r++) {
      kernel.run(1, shape, segments, offsets, strides, fs, is);
    }
    double best = Double.MAX_VALUE;
    for (int trial = 0; trial < 5; trial++) {
      long t0 = System.nanoTime();
      for (int r = 0; r < reps / 5; r++) {
        kernel.run(1, shape, segments, offsets, strides, fs, is);
      }
      best = Math.min(best, (System.nanoTime() - t0) / ((double) (reps / 5) * n));
    }
    System.out.printf(Locale.ROOT, "  %-22s %.3f ns/element%n", label, best);
  }
}
