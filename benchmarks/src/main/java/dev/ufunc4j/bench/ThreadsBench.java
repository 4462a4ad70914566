package dev.ufunc4j.bench;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.parallel.Parallel;
import java.util.concurrent.TimeUnit;
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
 * What splitting an op across threads costs and buys ({@code docs/runtime.md}, "Threads"):
 * {@code handoffTeam} is one empty job of two pieces through {@code Parallel}'s team (the
 * hand-off elementwise ops use), {@code handoffPool} the same through the executor that the
 * reductions' nested pairwise tree keeps; {@code add} is {@code Ops.add(a, b, out)} on float32
 * vectors of {@code elements}, for finding the size at which two threads start to pay (an op splits
 * at twice {@code grain} elements).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class ThreadsBench {
  @Param({"32768", "65536", "131072", "262144", "1048576"})
  public long elements;

  @Param({"1", "2"})
  public int threads;

  /** The split threshold is twice this: PyTorch's GRAIN_SIZE, and ufunc4j's default since. */
  @Param({"32768", "65536"})
  public long grain;

  private Tensor a;
  private Tensor b;
  private Tensor out;

  @Setup(Level.Trial)
  public void setUp() {
    Parallel.setThreads(threads);
    Parallel.setGrainSize(grain);
    a = Tensor.randn(1, DType.FLOAT32, elements);
    b = Tensor.randn(2, DType.FLOAT32, elements);
    out = Tensor.empty(DType.FLOAT32, elements);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    Parallel.setThreads(Runtime.getRuntime().availableProcessors());
  }

  @Benchmark
  public Tensor add() {
    return Ops.add(a, b, out);
  }

  @Benchmark
  public void handoffTeam() {
    Parallel.forEachShare(threads, 2, (from, to) -> { });
  }

  @Benchmark
  public double[] handoffPool() {
    return Parallel.both(() -> 0, () -> 1);
  }
}
