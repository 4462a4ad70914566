package dev.ufunc4j.internal.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.kernel.ElementwiseKernel;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Loops} hands a kernel that implements only {@link ElementwiseKernel#box} every element of
 * a loop nest of rank 1 to 5 exactly once, with the offsets the naive odometer over the whole
 * shape computes, and boxes of at least one row and one column; what a kernel throws reaches the
 * caller unchanged through the indirect call {@link Loops#box} makes.
 */
class LoopsTest {

  /** Records, per element a box covers, every operand's offset. */
  private static final class Recorder implements ElementwiseKernel {
    final List<long[]> visited = new ArrayList<>();

    @Override
    public void box(
        long rows,
        long cols,
        MemorySegment[] segments,
        long[] offsets,
        long[] strides,
        double[] floatScalars,
        long[] intScalars) {
      assertTrue(rows >= 1 && cols >= 1, rows + " x " + cols);
      int ops = offsets.length;
      for (long r = 0; r < rows; r++) {
        for (long c = 0; c < cols; c++) {
          long[] at = new long[ops];
          for (int k = 0; k < ops; k++) {
            at[k] = offsets[k] + r * strides[2 * k] + c * strides[2 * k + 1];
          }
          visited.add(at);
        }
      }
    }
  }

  private static List<long[]> naive(long[] shape, long[] offsets, long[] strides) {
    int rank = shape.length;
    int ops = offsets.length;
    List<long[]> out = new ArrayList<>();
    long n = Arrays.stream(shape).reduce(1, (p, q) -> p * q);
    long[] index = new long[rank];
    for (long e = 0; e < n; e++) {
      long[] at = offsets.clone();
      for (int k = 0; k < ops; k++) {
        for (int d = 0; d < rank; d++) {
          at[k] += index[d] * strides[k * rank + d];
        }
      }
      out.add(at);
      for (int d = rank - 1; d >= 0; d--) {
        if (++index[d] < shape[d]) {
          break;
        }
        index[d] = 0;
      }
    }
    return out;
  }

  @Test
  void everyElementOnceAtEveryRank() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      int rank = 1 + trial % 5;
      int ops = 1 + rnd.nextInt(3);
      long[] shape = new long[rank];
      for (int d = 0; d < rank; d++) {
        shape[d] = 1 + rnd.nextInt(4);
      }
      long[] strides = new long[ops * rank];
      for (int i = 0; i < strides.length; i++) {
        strides[i] = rnd.nextInt(7) - 2;
      }
      long[] offsets = new long[ops];
      for (int k = 0; k < ops; k++) {
        offsets[k] = 100 + rnd.nextInt(10);
      }
      Recorder kernel = new Recorder();
      kernel.run(rank, shape, new MemorySegment[ops], offsets, strides, new double[0],
          new long[0]);
      List<long[]> want = naive(shape, offsets, strides);
      String what = Arrays.toString(shape) + " strides " + Arrays.toString(strides);
      assertTrue(want.size() == kernel.visited.size(), what);
      for (int e = 0; e < want.size(); e++) {
        assertArrayEquals(want.get(e), kernel.visited.get(e), what + ", element " + e);
      }
    }
  }

  @Test
  void emptyLoopsRunNoBox() {
    Recorder kernel = new Recorder();
    kernel.run(3, new long[] {2, 0, 3}, new MemorySegment[1], new long[1], new long[3],
        new double[0], new long[0]);
    assertTrue(kernel.visited.isEmpty());
  }

  /** Throws the given exception from every box. */
  private record Throwing(RuntimeException exception, Error error) implements StridedBox {
    @Override
    public void box(
        long rows,
        long cols,
        MemorySegment[] segments,
        long[] offsets,
        long[] strides,
        double[] floatScalars,
        long[] intScalars) {
      if (exception != null) {
        throw exception;
      }
      throw error;
    }
  }

  @Test
  void whatAKernelThrowsReachesTheCallerUnchanged() {
    // An integral kernel's division by zero: ElementwiseCall catches this very class to name it.
    ArithmeticException division = new ArithmeticException("/ by zero");
    MemorySegment[] segments = new MemorySegment[2];
    long[] offsets = new long[2];
    ArithmeticException thrown =
        assertThrows(
            ArithmeticException.class,
            () ->
                Loops.contiguous(
                    new Throwing(division, null), 8, segments, offsets, new double[0],
                    new long[0]));
    assertSame(division, thrown);
    StackOverflowError overflow = new StackOverflowError();
    StackOverflowError thrownError =
        assertThrows(
            StackOverflowError.class,
            () ->
                Loops.run(
                    new Throwing(null, overflow), 3, new long[] {2, 2, 2}, segments, offsets,
                    new long[6], new double[0], new long[0]));
    assertSame(overflow, thrownError);
  }
}
