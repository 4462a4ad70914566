package dev.ufunc4j.bench;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
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

/**
 * What a naive user loop sees: {@code c = a.add(b)} called over and over with the defaults (no
 * thread setting, no scope, the JVM's default collector), each fresh result escaping to JMH's
 * blackhole. {@link Mode#SampleTime} times single calls, so the distribution's median and 90th
 * percentile include the calls that pay for a collection; JMH starts no collection of its own
 * between them. {@code empty} is the timer's own cost per sample, for reading the small cases.
 * NumPy and PyTorch run the same loop in {@code tools/bench/peers.py --loop}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class LoopBench {
  /** The cases of the loop table (ids of {@code cases.json}). */
  static final String[] CASES = {"add_1K", "add_1M", "complex64_add_1M", "tiny_8", "tiny_4x4"};

  @Param({"add_1K", "add_1M", "complex64_add_1M", "tiny_8", "tiny_4x4"})
  public String caseId;

  private Tensor a;
  private Tensor b;

  @Setup(Level.Trial)
  public void setUp() {
    BenchCase bench = BenchCase.byId(caseId);
    if (!bench.op().equals("add") || bench.b() == null) {
      throw new IllegalArgumentException("the loop cases are tensor + tensor adds, not " + caseId);
    }
    a = operand(bench.a(), 1);
    b = operand(bench.b(), 2);
  }

  private static Tensor operand(BenchCase.Operand spec, long seed) {
    DType dtype = DType.fromName(spec.dtype());
    if (dtype.isComplex()) {
      long n = spec.numel();
      return Tensor.ofComplex(Tensor.randn(seed, DType.FLOAT64, 2 * n).toDoubleArray(), dtype, spec.shape());
    }
    return Tensor.randn(seed, DType.FLOAT32, spec.shape()).to(dtype);
  }

  @Benchmark
  public Tensor add() {
    return Ops.add(a, b);
  }

  /** The sampling timer alone: what every sample of {@link #add} includes besides the call. */
  @Benchmark
  public Object empty() {
    return a;
  }
}
