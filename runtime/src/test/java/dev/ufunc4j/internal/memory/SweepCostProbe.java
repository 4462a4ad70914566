package dev.ufunc4j.internal.memory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Reclamation}'s sweep costs, the walk of every tracked block under the {@code live}
 * lock that a backstop collection runs (Task B of session 12, docs/runtime.md): {@code blocks}
 * 64-byte blocks tracked and kept alive, the sweep timed {@code rounds} times (wall time, and the
 * thread's CPU time; nothing is found dead, so this is the walk alone).
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp runtime/target/classes:runtime/target/test-classes \
 *     dev.ufunc4j.internal.memory.SweepCostProbe 100000 20
 * </pre>
 */
public final class SweepCostProbe {
  private SweepCostProbe() {}

  /** This thread's time on a CPU so far, in nanoseconds (Linux; as ScopeCostProbe). */
  static long cpuNanos() {
    try {
      String s = Files.readString(Path.of("/proc/thread-self/schedstat"));
      return Long.parseLong(s.substring(0, s.indexOf(' ')));
    } catch (IOException e) {
      throw new IllegalStateException("needs Linux's /proc/thread-self/schedstat", e);
    }
  }

  public static void main(String[] args) {
    int blocks = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    ArenaBlocks arena = new ArenaBlocks();
    Reclamation own = new Reclamation(1L << 40, 1L << 20, 0, () -> {}, 0, List.of(arena));
    MemorySegment slab = Arena.global().allocate(64L * blocks, 64);
    List<MemorySegment> kept = new ArrayList<>(blocks);
    for (int i = 0; i < blocks; i++) {
      kept.add(own.track(slab.asSlice(64L * i, 64), arena, 64));
    }
    List<Double> wall = new ArrayList<>();
    long c0 = cpuNanos();
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      own.sweep();
      wall.add((System.nanoTime() - t0) / 1e3);
    }
    double cpu = (cpuNanos() - c0) / 1e3 / rounds;
    wall.sort(null);
    System.out.printf("%d live blocks: sweep %.0f µs (median of %d; min %.0f, max %.0f), CPU %.0f µs"
        + " (mean); %d kept%n", blocks, wall.get(rounds / 2), rounds, wall.get(0),
        wall.get(rounds - 1), cpu, kept.size());
  }
}
