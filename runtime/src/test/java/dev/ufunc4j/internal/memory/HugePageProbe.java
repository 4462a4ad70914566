package dev.ufunc4j.internal.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The measurement behind docs/runtime.md: fresh 64 MB allocate + fill, three ways. Not a test; run
 * {@code java --enable-native-access=ALL-UNNAMED -cp runtime/target/classes:runtime/target/test-classes
 * dev.ufunc4j.internal.memory.HugePageProbe}.
 */
public final class HugePageProbe {
  private HugePageProbe() {}

  private static final long BYTES = 64L << 20;

  public static void main(String[] args) {
    int rounds = 30;
    for (int warm = 0; warm < 2; warm++) {
      double arena = 0;
      double plain = 0;
      double huge = 0;
      for (int r = 0; r < rounds; r++) {
        arena += time(() -> {
          try (Arena a = Arena.ofConfined()) {
            fill(a.allocate(BYTES, 64));
          }
        });
        plain += time(() -> {
          try (Arena a = Arena.ofConfined()) {
            fill(NativeMemory.allocateFresh(BYTES, a, false));
          }
        });
        huge += time(() -> {
          try (Arena a = Arena.ofConfined()) {
            fill(NativeMemory.allocateFresh(BYTES, a, true));
          }
        });
      }
      if (warm == 1) {
        System.out.printf("64 MB allocate+fill, mean of %d (ms): Arena.allocate %.2f, mmap %.2f,"
            + " mmap+MADV_HUGEPAGE %.2f%n", rounds, arena / rounds, plain / rounds, huge / rounds);
      }
    }
  }

  private static double time(Runnable r) {
    long t0 = System.nanoTime();
    r.run();
    return (System.nanoTime() - t0) / 1e6;
  }

  private static void fill(MemorySegment s) {
    long n = s.byteSize() / 4;
    for (long i = 0; i < n; i++) {
      s.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1.0f);
    }
  }
}
