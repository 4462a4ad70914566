package dev.ufunc4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The machine's memory-bandwidth limit, measured in the same run as the op benchmarks: STREAM's
 * copy ({@code c = a}) and add ({@code c = a + b}) over native float arrays of 16M and 64M
 * elements, on 1 and 2 threads, with hand-written Vector API loops (the best a kernel can do).
 * Bytes counted the STREAM way: copy moves 8 bytes per element, add 12 (write-allocate traffic
 * is not counted).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class StreamBench {
  private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
  private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

  @Param({"16777216", "67108864"})
  public long elements;

  @Param({"1", "2"})
  public int threads;

  private Arena arena;
  private MemorySegment a;
  private MemorySegment b;
  private MemorySegment c;
  private ExecutorService pool;

  @Setup(Level.Trial)
  public void setUp() {
    arena = Arena.ofShared();
    a = arena.allocate(elements * 4, 64);
    b = arena.allocate(elements * 4, 64);
    c = arena.allocate(elements * 4, 64);
    for (long i = 0; i < elements; i++) {
      a.setAtIndex(FLOAT, i, i * 0.5f);
      b.setAtIndex(FLOAT, i, 1.0f);
    }
    c.fill((byte) 0);
    pool = Executors.newFixedThreadPool(threads);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pool.shutdownNow();
    arena.close();
  }

  private static void copy(MemorySegment src, MemorySegment dst, long from, long to) {
    long i = from;
    long bound = from + F.loopBound(to - from);
    for (; i < bound; i += F.length()) {
      FloatVector.fromMemorySegment(F, src, i * 4, ByteOrder.nativeOrder())
          .intoMemorySegment(dst, i * 4, ByteOrder.nativeOrder());
    }
    for (; i < to; i++) {
      dst.setAtIndex(FLOAT, i, src.getAtIndex(FLOAT, i));
    }
  }

  private static void add(
      MemorySegment x, MemorySegment y, MemorySegment dst, long from, long to) {
    long i = from;
    long bound = from + F.loopBound(to - from);
    for (; i < bound; i += F.length()) {
      FloatVector.fromMemorySegment(F, x, i * 4, ByteOrder.nativeOrder())
          .add(FloatVector.fromMemorySegment(F, y, i * 4, ByteOrder.nativeOrder()))
          .intoMemorySegment(dst, i * 4, ByteOrder.nativeOrder());
    }
    for (; i < to; i++) {
      dst.setAtIndex(FLOAT, i, x.getAtIndex(FLOAT, i) + y.getAtIndex(FLOAT, i));
    }
  }

  private interface Range {
    void run(long from, long to);
  }

  private void split(Range r) throws Exception {
    if (threads == 1) {
      r.run(0, elements);
      return;
    }
    long share = elements / threads;
    Future<?>[] fs = new Future<?>[threads - 1];
    for (int t = 0; t < threads - 1; t++) {
      long from = t * share;
      fs[t] = pool.submit(() -> r.run(from, from + share));
    }
    r.run((threads - 1) * share, elements);
    for (Future<?> f : fs) {
      f.get();
    }
  }

  @Benchmark
  public MemorySegment copy() throws Exception {
    split((from, to) -> copy(a, c, from, to));
    return c;
  }

  @Benchmark
  public MemorySegment add() throws Exception {
    split((from, to) -> add(a, b, c, from, to));
    return c;
  }
}
