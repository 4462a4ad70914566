package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A loop that allocates fresh results and never frees them explicitly keeps its memory bounded
 * (docs/runtime.md, "Bound"): {@link MemoryBoundProbe} allocates 6 GiB of results in a JVM with a
 * 128 MiB heap, a 256 MiB collection threshold and small pools, keeping about 66 MB of them live.
 * Asserted on memory only: NativeMemory's own count of outstanding GC-managed bytes, and the
 * process's resident set.
 */
class MemoryBoundTest {
  private static final long MIB = 1L << 20;
  private static final long TRIGGER = 256 * MIB;
  private static final long BLOCK_CACHE = 128 * MIB;
  private static final long CLASS_CACHE = 64 * MIB;
  private static final long HEAP = 128 * MIB;

  /** Heap pressure on (the default) and off: the backstop alone must bound memory too. */
  @ParameterizedTest
  @ValueSource(strings = {"0.25", "0"})
  void freshResultsInALoopStayBounded(String heapPressure) throws Exception {
    Map<String, Long> r = runProbe(heapPressure, 6 * 1024);
    long live = r.get("live");
    long largestBlock = 12 * MIB;
    // The backstop collects when outstanding bytes pass max(trigger, 2 x what stayed live), so the
    // count never exceeds that by more than one block.
    long outstandingBound = Math.max(TRIGGER, 3 * live) + largestBlock;
    assertTrue(r.get("peakOutstanding") <= outstandingBound,
        "outstanding GC-managed bytes peaked at " + r.get("peakOutstanding") + " > " + outstandingBound + ": " + r);
    if (r.get("startRss") > 0) {
      // Resident growth: the heap, the outstanding blocks and the two pools of free blocks, plus
      // 96 MiB for the JIT's code and data, thread stacks and the allocator's slack.
      long rssBound = HEAP + outstandingBound + BLOCK_CACHE + CLASS_CACHE + 96 * MIB;
      long growth = r.get("peakRss") - r.get("startRss");
      assertTrue(growth <= rssBound, "resident set grew by " + growth + " > " + rssBound + ": " + r);
    }
    assertTrue(r.get("allocated") >= 6 * 1024 * MIB, r.toString());
    // Bounded and reused: the pools supply most blocks (a pool that runs dry past the dry
    // threshold collects rather than take fresh memory). Measured: 4-13% fresh.
    assertTrue(r.get("freshBlocks") <= r.get("blocks") / 3,
        "fresh blocks " + r.get("freshBlocks") + " of " + r.get("blocks") + ": " + r);
  }

  private static Map<String, Long> runProbe(String heapPressure, long mib)
      throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(
        java, "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
        "-Xmx" + (HEAP / MIB) + "m",
        "-Dufunc4j.gcTriggerBytes=" + TRIGGER,
        "-Dufunc4j.blockCacheBytes=" + BLOCK_CACHE,
        "-Dufunc4j.classCacheBytes=" + CLASS_CACHE,
        "-Dufunc4j.heapPressure=" + heapPressure,
        "-Dufunc4j.threads=1",
        "-cp", System.getProperty("java.class.path"),
        MemoryBoundProbe.class.getName(), Long.toString(mib)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "probe failed:\n" + out);
    String line = out.lines().filter(l -> l.startsWith("allocated=")).findFirst()
        .orElseThrow(() -> new AssertionError("no result line from the probe:\n" + out));
    Map<String, Long> values = new HashMap<>();
    for (String kv : line.trim().split(" ")) {
      String[] parts = kv.split("=");
      values.put(parts[0], Long.parseLong(parts[1]));
    }
    System.out.println("MemoryBoundProbe (heapPressure " + heapPressure + "): " + line);
    return values;
  }
}
