package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import java.nio.file.*;
import java.util.*;

/**
 * Where a fresh result's time goes (issue 28, item 1; docs/runtime.md, "What a fresh result costs
 * in the steady state"): {@code exp} or {@code add} on float32 tensors of {@code n} elements into
 * {@code out=}, as a fresh result, and in a {@code TensorScope}, in interleaved blocks of {@code
 * calls} calls for {@code rounds} rounds. Per block: median, mean and 90th percentile per call,
 * backstop collections (how many were full ones; the pauses: {@code -Xlog:gc}), minor page faults per call ({@code
 * /proc/self/stat}) and blocks taken from fresh memory. Run with {@code -Xlog:gc} for the pauses:
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xlog:gc \
 *     -cp runtime/target/classes:runtime/target/test-classes:annotations/target/classes \
 *     dev.ufunc4j.FreshCostProbe exp 65536 2000 4
 * </pre>
 */
public final class FreshCostProbe {
  private FreshCostProbe() {}

  static long minflt() throws Exception {
    String s = Files.readString(Path.of("/proc/self/stat"));
    String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[7]); // field 10 overall: minflt
  }
  public static void main(String[] a) throws Exception {
    String op = a[0]; int n = Integer.parseInt(a[1]); int calls = Integer.parseInt(a[2]); int rounds = Integer.parseInt(a[3]);
    Tensor x = Tensor.rand(1, DType.FLOAT32, n), y = Tensor.rand(2, DType.FLOAT32, n), out = Tensor.empty(DType.FLOAT32, n);
    String[] modes = {"out", "fresh", "scope"};
    Map<String, List<Double>> med = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      for (String m : modes) {
        double[] t = new double[calls];
        long f0 = minflt(); long fb0 = NativeMemory.freshBlocks(); long bc0 = NativeMemory.backstopCollections();
        long fc0 = NativeMemory.fullCollections();
        long tot = System.nanoTime();
        for (int i = 0; i < calls; i++) {
          long s = System.nanoTime();
          switch (m) {
            case "out" -> { if (op.equals("exp")) Ops.exp(x, out); else Ops.add(x, y, out); }
            case "fresh" -> { Tensor c = op.equals("exp") ? x.exp() : x.add(y); }
            default -> { try (var _ = TensorScope.open()) { Tensor c = op.equals("exp") ? x.exp() : x.add(y); } }
          }
          t[i] = (System.nanoTime() - s) / 1e3;
        }
        double mean = (System.nanoTime() - tot) / 1e3 / calls;
        Arrays.sort(t);
        if (r > 0) med.computeIfAbsent(m, k -> new ArrayList<>()).add(mean);
        System.out.printf("r%d %-5s %s_%d median %.1f us mean %.1f us p90 %.1f | backstops %d (full %d) faults/call %.1f freshBlocks %d%n",
            r, m, op, n, t[calls / 2], mean, t[calls * 9 / 10], NativeMemory.backstopCollections() - bc0,
            NativeMemory.fullCollections() - fc0,
            (minflt() - f0) / (double) calls, NativeMemory.freshBlocks() - fb0);
      }
    }
    med.forEach((k, v) -> { Collections.sort(v); System.out.printf("%s mean-per-call medians over rounds: %s%n", k, v); });
  }
}
