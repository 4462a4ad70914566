package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * UINT64 kernels read the bit pattern as unsigned (comparisons, min/max, {@code >>}, abs), as
 * NumPy and PyTorch do; a long reference method cannot express that, so these cases are explicit.
 */
class UnsignedSemanticsTest {

  private static ElementwiseOp op(String name) {
    return KernelConformanceTest.sampleOps().stream()
        .filter(o -> o.name().equals(name)).findFirst().orElseThrow();
  }

  private static long[] run(String name, DType result, long[]... inputs) {
    ElementwiseOp op = op(name);
    DType[] dtypes = new DType[inputs.length];
    java.util.Arrays.fill(dtypes, DType.UINT64);
    int entry = op.entry(dtypes);
    int n = inputs[0].length;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment[] segs = new MemorySegment[inputs.length + 1];
      segs[0] = arena.allocate((long) n * result.byteSize(), 64);
      for (int k = 0; k < inputs.length; k++) {
        segs[k + 1] = arena.allocate(n * 8L, 64);
        for (int i = 0; i < n; i++) {
          Scalars.write(segs[k + 1], DType.UINT64, i, inputs[k][i]);
        }
      }
      long[] strides = new long[inputs.length + 1];
      java.util.Arrays.fill(strides, 1);
      op.kernel(entry).run(1, new long[] {n}, segs, new long[inputs.length + 1], strides,
          new double[0], new long[0]);
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        out[i] = Scalars.integral(result, Scalars.read(segs[0], result, i));
      }
      return out;
    }
  }

  @Test
  void comparisonsAreUnsigned() {
    long big = Long.MIN_VALUE; // 2^63
    long[] a = {0, big, -1L, 5, big, 1, 2, 3, 4};
    long[] b = {big, 0, big, -1L, big, 1, 3, 2, 9};
    assertArrayEquals(new long[] {1, 0, 0, 1, 0, 0, 1, 0, 1}, run("less", DType.BOOL, a, b));
  }

  @Test
  void clampIsUnsigned() {
    long[] x = {-1L, 5, Long.MIN_VALUE, 0, 7, 8, 9, 10};
    long[] lo = {1, 6, 1, 1, 1, 1, 1, 1};
    long[] hi = {100, 100, 100, 100, 100, 100, 100, 100};
    assertArrayEquals(new long[] {100, 6, 100, 1, 7, 8, 9, 10}, run("clamp", DType.UINT64, x, lo,
        hi));
  }
}
