package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.RuntimeContext;
import dev.ufunc4j.kernel.FoldKernel;
import dev.ufunc4j.kernel.reduce.ReduceLoops;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * How a reduction shares its work between threads (docs/reductions.md, "How it runs"): in pieces
 * that the caller and the workers claim as they come free, so that a worker that starts late (a
 * core another process holds) does not leave the caller waiting with half of the work undone.
 * A sum's top node used to go to two threads, a half each, and row sums to one share of the rows
 * per thread: the caller then waited for the late worker's whole half.
 */
class ReductionSplitTest {
  /** How long the worker is held up on its first leaf: far longer than the caller's whole work. */
  private static final long LATE_MILLIS = 1000;

  /**
   * {@code add}'s float32 fold kernel, counting the leaves each side computes, whose worker
   * side is held up on its first leaf (as if its core were taken).
   */
  private static final class LateWorker implements FoldKernel {
    final FoldKernel add = Builtins_add.OP.foldKernel(DType.FLOAT32);
    final Thread caller = Thread.currentThread();
    final AtomicBoolean held = new AtomicBoolean();
    final AtomicLong callerLeaves = new AtomicLong();
    final AtomicLong workerLeaves = new AtomicLong();

    @Override
    public boolean leaf(MemorySegment in, long off, int n, int k, MemorySegment park) {
      if (Thread.currentThread() == caller) {
        callerLeaves.incrementAndGet();
      } else {
        workerLeaves.incrementAndGet();
        if (held.compareAndSet(false, true)) {
          try {
            Thread.sleep(LATE_MILLIS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
      return add.leaf(in, off, n, k, park);
    }

    @Override
    public void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride,
        long rows, int cols) {
      add.fold(acc, accOff, in, off, rowStride, rows, cols);
    }

    @Override
    public void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff,
        long outRow, long rows, int cols) {
      add.scan(in, off, inRow, out, outOff, outRow, rows, cols);
    }

    @Override
    public double pair(double a, double b) {
      return add.pair(a, b);
    }
  }

  private static float[] sum(FoldKernel fold, MemorySegment x, long[] shape, boolean[] reduce,
      int outputs) {
    try (Arena arena = Arena.ofShared()) {
      MemorySegment out = arena.allocate(4L * outputs, 64);
      long[] strides = shape.length == 1 ? new long[] {1} : new long[] {shape[1], 1};
      ReduceLoops.reduce(ReduceLoops.Op.SUM, fold, ReduceLoops.Kind.F32, x, 0, shape, strides,
          reduce, out);
      return out.toArray(ValueLayout.JAVA_FLOAT);
    }
  }

  private static void check(long[] shape, boolean[] reduce, int outputs) {
    long n = shape.length == 1 ? shape[0] : shape[0] * shape[1];
    try (Arena arena = Arena.ofShared();
        var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build())) {
      MemorySegment x = arena.allocate(4 * n, 64);
      SplittableRandom random = new SplittableRandom(5);
      for (long i = 0; i < n; i++) {
        x.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) random.nextDouble(-1, 1));
      }
      float[] expected = sum(Builtins_add.OP.foldKernel(DType.FLOAT32), x, shape, reduce, outputs);
      // A worker that wakes after the caller has claimed every piece takes none, and the call
      // then says nothing about the split: try again (the sum just before keeps it spinning).
      for (int attempt = 0; ; attempt++) {
        LateWorker late = new LateWorker();
        float[] got = sum(late, x, shape, reduce, outputs);
        assertArrayEquals(expected, got, "the same tree, so the same bits");
        long caller = late.callerLeaves.get();
        long total = caller + late.workerLeaves.get();
        if (late.workerLeaves.get() == 0 && attempt < 20) {
          sum(Builtins_add.OP.foldKernel(DType.FLOAT32), x, shape, reduce, outputs);
          continue;
        }
        assertTrue(4 * caller >= 3 * total, "the caller computed " + caller + " of " + total
            + " leaves while the worker was held up " + LATE_MILLIS + " ms; at least 3/4 expected");
        return;
      }
    }
  }

  /** {@code sum()} of 4M floats: one output, its tree cut into pieces. */
  @Test
  void aLateWorkerLeavesTheRestOfOneSumToTheCaller() {
    check(new long[] {1 << 22}, new boolean[] {true}, 1);
  }

  /** Row sums of [3, 1M]: fewer outputs than pieces, each output's tree cut. */
  @Test
  void aLateWorkerLeavesTheRestOfAFewRowSumsToTheCaller() {
    check(new long[] {3, 1 << 20}, new boolean[] {false, true}, 3);
  }

  /** Row sums of [256, 16384]: pieces of whole rows. */
  @Test
  void aLateWorkerLeavesTheRestOfManyRowSumsToTheCaller() {
    check(new long[] {256, 1 << 14}, new boolean[] {false, true}, 256);
  }
}
