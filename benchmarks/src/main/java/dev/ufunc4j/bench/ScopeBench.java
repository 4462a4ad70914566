package dev.ufunc4j.bench;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.TensorScope;
import dev.ufunc4j.dtype.DType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What a {@link TensorScope} costs: opening and closing an empty one, and one holding a zeroed
 * 1K-element float32 tensor. (OpsBench's {@code scope} mode times whole calls in a scope.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class ScopeBench {

  @Benchmark
  public TensorScope openClose() {
    try (TensorScope s = TensorScope.open()) {
      return s;
    }
  }

  @Benchmark
  public Tensor openAllocateSmallClose() {
    try (var _ = TensorScope.open()) {
      return Tensor.empty(DType.FLOAT32, 1024);
    }
  }
}
