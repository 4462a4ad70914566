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
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The built-in transcendental ops on 1M contiguous elements into a preallocated result, one
 * thread: the speed of the kernels' vector functions (docs/vector-math.md compares them with the
 * Vector API's lanewise operations they replaced).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar TranscendentalBench (flags: ufunc4j.jvmFlags)
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
public class TranscendentalBench {
  @Param({"exp", "sin", "tanh", "log", "pow"})
  public String function;

  @Param({"float32", "float64"})
  public String dtype;

  @Param({"1048576"})
  public int size;

  private Tensor x;
  private Tensor y;
  private Tensor out;

  @Setup(Level.Trial)
  public void setUp() {
    Parallel.setThreads(1);
    DType d = DType.fromName(dtype);
    // log and pow's base: positive values; the others: a normal sample of spread 3.
    Tensor normal = Tensor.randn(7, DType.FLOAT64, size).mul(3);
    Tensor positive = Tensor.rand(8, DType.FLOAT64, size).mul(10).add(0.01);
    x = (function.equals("log") || function.equals("pow") ? positive : normal).to(d);
    y = Tensor.randn(9, DType.FLOAT64, size).to(d);
    out = call(null);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    Parallel.setThreads(Runtime.getRuntime().availableProcessors());
  }

  private Tensor call(Tensor target) {
    return switch (function) {
      case "exp" -> target == null ? Ops.exp(x) : Ops.exp(x, target);
      case "sin" -> target == null ? Ops.sin(x) : Ops.sin(x, target);
      case "tanh" -> target == null ? Ops.tanh(x) : Ops.tanh(x, target);
      case "log" -> target == null ? Ops.log(x) : Ops.log(x, target);
      case "pow" -> target == null ? Ops.pow(x, y) : Ops.pow(x, y, target);
      default -> throw new IllegalArgumentException("function " + function);
    };
  }

  @Benchmark
  public Tensor run() {
    return call(out);
  }
}
