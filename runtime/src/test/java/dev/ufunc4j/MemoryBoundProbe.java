package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A naive loop that allocates fresh results and never frees anything explicitly, for {@link
 * MemoryBoundTest}, which runs it in a JVM of its own (fixed heap and limits). It keeps the last
 * {@link #KEEP} results of each size alive (the live set), allocates {@code args[0]} MiB of results
 * in all, and prints one line of {@code key=value} pairs: the live set, the peak of NativeMemory's
 * outstanding GC-managed bytes, the resident set before and at its peak, the slack and the
 * backstop collections.
 */
public final class MemoryBoundProbe {
  private MemoryBoundProbe() {}

  /** Results of each size kept alive at any time. */
  static final int KEEP = 4;

  /** Result sizes in float32 elements: a slab slice, size-class blocks, mapped blocks. */
  static final int[] SIZES = {1 << 10, 1 << 16, 1 << 20, 3 << 20};

  public static void main(String[] args) throws IOException {
    long totalBytes = Long.parseLong(args[0]) << 20;
    Tensor[] inputs = new Tensor[SIZES.length];
    Tensor[][] kept = new Tensor[SIZES.length][KEEP];
    long live = 0;
    for (int s = 0; s < SIZES.length; s++) {
      inputs[s] = Tensor.randn(s, DType.FLOAT32, SIZES[s]);
      live += 4L * SIZES[s] * (KEEP + 1); // the kept results and the input
    }
    long startRss = rssBytes();
    NativeMemory.resetPeak();
    long peakRss = startRss;
    long allocated = 0;
    long checksum = 0;
    long blocks = 0; // blocks and slabs handed out: one per result past the slab size, 1/64 slab
    for (long step = 0; allocated < totalBytes; step++) {
      for (int s = 0; s < SIZES.length; s++) {
        Tensor r = inputs[s].add(inputs[s]); // a fresh result, never freed explicitly
        kept[s][(int) (step % KEEP)] = r;
        allocated += 4L * SIZES[s];
        blocks += s == 0 ? 0 : 1;
        checksum += (long) r.getDouble(SIZES[s] - 1);
      }
      for (int k = 0; k < 64; k++) { // many small results: slab slices
        Tensor r = inputs[0].mul(inputs[0]);
        allocated += 4L * SIZES[0];
        checksum += (long) r.getDouble(k);
      }
      blocks += 1; // the 65 small results of a step fill about one 256 KiB slab
      if (step % 4 == 0) {
        peakRss = Math.max(peakRss, rssBytes());
      }
    }
    System.out.printf(
        Locale.ROOT,
        "allocated=%d live=%d peakOutstanding=%d startRss=%d peakRss=%d heapMax=%d"
            + " slack=%d backstops=%d freshBlocks=%d blocks=%d checksum=%d%n",
        allocated, live, NativeMemory.peakOutstandingBytes(), startRss, peakRss,
        Runtime.getRuntime().maxMemory(), NativeMemory.slackBytes(),
        NativeMemory.backstopCollections(), NativeMemory.freshBlocks(), blocks, checksum);
  }

  /** The resident set (VmRSS of /proc/self/status), or -1 where there is no such file. */
  static long rssBytes() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return -1;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", "")) << 10;
      }
    }
    return -1;
  }
}
