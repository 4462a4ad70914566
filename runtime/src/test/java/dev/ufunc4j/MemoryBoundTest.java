package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Tag;

/**
 * A loop that allocates fresh results and never frees them explicitly keeps its memory bounded
 * (docs/runtime.md, "Bound"): {@link MemoryBoundProbe} allocates 6 GiB of results of four sizes,
 * keeping about 66 MB of them live, in a JVM of its own. Issue 23, item 11: the process's
 * resident set stays under 256 MiB plus the live set whatever the heap's size, the default heap
 * of the machine included (before, the same loop reached 1.5 GiB there: a 1 GiB collection
 * threshold, 1.25 GiB of pools and heap ballast). Asserted on memory only: NativeMemory's own
 * count of outstanding GC-managed bytes, and the resident set.
 */
@Tag("slow") // child JVMs
class MemoryBoundTest {
  private static final long MIB = 1L << 20;

  /** The largest result of the probe: 3M float32. */
  private static final long LARGEST_BLOCK = 12 * MIB;

  /**
   * A 128 MiB heap with heap pressure on and off (the backstop alone must bound memory), and the
   * default heap of whatever machine runs the test (a quarter of its memory).
   */
  @ParameterizedTest
  @CsvSource({"-Xmx128m, 0.25", "-Xmx128m, 0", "default, 0"})
  void freshResultsInALoopStayBounded(String heap, String heapPressure) throws Exception {
    List<String> flags = new ArrayList<>(List.of(
        "-Dufunc4j.heapPressure=" + heapPressure, "-Dufunc4j.threads=1"));
    if (!heap.equals("default")) {
      flags.add(heap);
    }
    String out = ChildJvm.run(flags, MemoryBoundProbe.class, Long.toString(6 * 1024));
    Map<String, Long> r = ChildJvm.records(out, "allocated").get(0);
    System.out.println("MemoryBoundProbe (" + heap + ", heapPressure " + heapPressure + "): " + r);
    long live = r.get("live");
    // An allocation that would take the held bytes past the live set and the slack (or two blocks
    // of its size, when larger) collects first, so the outstanding bytes pass that by at most one
    // block.
    long outstandingBound = live + Math.max(r.get("slack"), 2 * LARGEST_BLOCK) + LARGEST_BLOCK;
    assertTrue(r.get("peakOutstanding") <= outstandingBound,
        "outstanding GC-managed bytes peaked at " + r.get("peakOutstanding") + " > " + outstandingBound + ": " + r);
    if (r.get("startRss") > 0) {
      long rssBound = 256 * MIB + live;
      assertTrue(r.get("peakRss") <= rssBound,
          "resident set peaked at " + r.get("peakRss") + " > 256 MiB + live = " + rssBound + ": " + r);
    }
    assertTrue(r.get("allocated") >= 6 * 1024 * MIB, r.toString());
    // Bounded and reused: the pools supply most blocks (measured: 10% fresh at the default heap).
    // At a 128 MiB heap the slack is 32 MiB, under three of the probe's 12 MiB blocks, and the
    // pools keep fewer of them (measured: 35% fresh).
    long freshBound = r.get("slack") >= 4 * LARGEST_BLOCK ? r.get("blocks") / 3 : r.get("blocks") / 2;
    assertTrue(r.get("freshBlocks") <= freshBound,
        "fresh blocks " + r.get("freshBlocks") + " of " + r.get("blocks") + ": " + r);
  }
}
