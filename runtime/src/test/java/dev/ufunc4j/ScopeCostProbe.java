package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link TensorScope} costs on small ops (issue 28, item 6; the figures in README and
 * TensorScope's javadoc): {@code tiny_4x4} ({@code [4,4] + [4]}) and {@code tiny_8} ({@code [8] +
 * [8]}) float32 adds into {@code out=}, fresh, and in a scope opened and closed around each call,
 * and an empty scope's open and close, in interleaved rounds of {@code calls} calls. Times are
 * the thread's CPU time per call (the first field of {@code /proc/thread-self/schedstat}, Linux), so that on a shared machine the time the
 * thread waits for a core is not counted; the later half of the rounds is reported (the first
 * half warms the JIT up).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp runtime/target/classes:runtime/target/test-classes:annotations/target/classes \
 *     dev.ufunc4j.ScopeCostProbe 100000 8
 * </pre>
 */
public final class ScopeCostProbe {
  private ScopeCostProbe() {}

  /** Where results go, so that the JIT cannot drop the calls. */
  static Object sink;

  /** This thread's time on a CPU so far, in nanoseconds. */
  static long cpuNanos() {
    try {
      String s = Files.readString(Path.of("/proc/thread-self/schedstat"));
      return Long.parseLong(s.substring(0, s.indexOf(' ')));
    } catch (IOException e) {
      throw new IllegalStateException("needs Linux's /proc/thread-self/schedstat", e);
    }
  }

  public static void main(String[] args) {
    int calls = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Tensor x44 = Tensor.rand(1, DType.FLOAT32, 4, 4);
    Tensor b4 = Tensor.rand(2, DType.FLOAT32, 4);
    Tensor out44 = Tensor.empty(DType.FLOAT32, 4, 4);
    Tensor x8 = Tensor.rand(1, DType.FLOAT32, 8);
    Tensor y8 = Tensor.rand(2, DType.FLOAT32, 8);
    Tensor out8 = Tensor.empty(DType.FLOAT32, 8);
    String[] modes = {"tiny_4x4 out", "tiny_4x4 fresh", "tiny_4x4 scope", "tiny_8 out",
        "tiny_8 fresh", "tiny_8 scope", "open+close"};
    Map<String, List<Double>> ns = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      for (String m : modes) {
        long start = cpuNanos();
        for (int i = 0; i < calls; i++) {
          switch (m) {
            case "tiny_4x4 out" -> sink = Ops.add(x44, b4, out44);
            case "tiny_4x4 fresh" -> sink = x44.add(b4);
            case "tiny_4x4 scope" -> {
              try (var _ = TensorScope.open()) {
                sink = x44.add(b4);
              }
            }
            case "tiny_8 out" -> sink = Ops.add(x8, y8, out8);
            case "tiny_8 fresh" -> sink = x8.add(y8);
            case "tiny_8 scope" -> {
              try (var _ = TensorScope.open()) {
                sink = x8.add(y8);
              }
            }
            default -> {
              try (var s = TensorScope.open()) {
                sink = s;
              }
            }
          }
        }
        if (r >= rounds / 2) {
          ns.computeIfAbsent(m, k -> new ArrayList<>())
              .add((cpuNanos() - start) / (double) calls);
        }
      }
    }
    ns.forEach((m, v) -> {
      Collections.sort(v);
      System.out.printf("%-15s best %4.0f ns, median %4.0f ns of CPU time per call%n", m, v.get(0),
          v.get(v.size() / 2));
    });
  }
}
