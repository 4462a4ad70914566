package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import java.io.IOException;
import java.util.Locale;

/**
 * The loop of issue 23, item 7, for {@link DirectMemoryLimitTest}, which runs it in a small JVM of
 * its own: {@code r = x.exp()} on a float32 tensor, the result dropped at once, while another
 * thread spins (the issue saw the failure only on a busy machine). Each argument {@code
 * bytes:iterations} runs one such loop with results of {@code bytes} bytes; each loop prints one
 * line of {@code key=value} pairs.
 */
public final class FreshResultsProbe {
  private FreshResultsProbe() {}

  public static void main(String[] args) throws IOException {
    Thread busy = Thread.ofPlatform().daemon().start(() -> {
      long spin = 0;
      while (!Thread.currentThread().isInterrupted()) {
        spin++;
      }
      System.out.print(spin == 42 ? "" : "");
    });
    for (String arg : args) {
      String[] parts = arg.split(":");
      long bytes = Long.parseLong(parts[0]);
      long iterations = Long.parseLong(parts[1]);
      Tensor x = Tensor.randn(7, DType.FLOAT32, bytes / 4);
      long startRss = MemoryBoundProbe.rssBytes();
      long peakRss = startRss;
      long t0 = System.nanoTime();
      long collections = NativeMemory.backstopCollections();
      double checksum = 0;
      for (long i = 0; i < iterations; i++) {
        Tensor r = x.exp(); // a fresh result, never freed explicitly
        checksum += r.getDouble(i % (bytes / 4));
        if (i % 64 == 0) {
          peakRss = Math.max(peakRss, MemoryBoundProbe.rssBytes());
        }
      }
      System.out.printf(
          Locale.ROOT,
          "bytes=%d iterations=%d ms=%d startRss=%d peakRss=%d heapMax=%d slack=%d collections=%d"
              + " finite=%d%n",
          bytes, iterations, (System.nanoTime() - t0) / 1_000_000, startRss, peakRss,
          Runtime.getRuntime().maxMemory(), NativeMemory.slackBytes(),
          NativeMemory.backstopCollections() - collections, Double.isFinite(checksum) ? 1 : 0);
    }
    busy.interrupt();
  }
}
