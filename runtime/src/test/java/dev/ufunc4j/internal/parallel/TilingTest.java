package dev.ufunc4j.internal.parallel;

import dev.ufunc4j.internal.RuntimeContext;
import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.loops.Tiling;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.kernel.ElementwiseKernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Tiled plans (transposed operands) run through {@link Parallel} and {@link Tiling} visit every
 * output element exactly once and hand the kernel, for it, exactly the input elements the naive
 * loop over the original shape would: checked with a recording kernel over random bytes, for
 * every element size the copy handles (1, 2, 4, 8, 16 bytes), shapes that tiles, strips and 8×8
 * blocks do not divide, broadcast and permuted operands, and split across threads.
 */
class TilingTest {

  /**
   * A kernel that, for each element it is given, writes into the output (8-byte elements) a hash of
   * the raw bytes of every input element, and counts the visit per output element.
   */
  private static final class Recorder implements ElementwiseKernel {
    final int[] inputBytes;
    final AtomicIntegerArray visits;

    Recorder(int[] inputBytes, long outputElements) {
      this.inputBytes = inputBytes;
      this.visits = new AtomicIntegerArray(Math.toIntExact(outputElements));
    }

    @Override
    public void run(
        int rank,
        long[] shape,
        MemorySegment[] segments,
        long[] offsets,
        long[] strides,
        double[] floatScalars,
        long[] intScalars) {
      long n = 1;
      for (int d = 0; d < rank; d++) {
        n *= shape[d];
      }
      long[] index = new long[rank];
      for (long e = 0; e < n; e++) {
        long out = offsets[0];
        for (int d = 0; d < rank; d++) {
          out += index[d] * strides[d];
        }
        long hash = 17;
        for (int k = 1; k < segments.length; k++) {
          long at = offsets[k];
          for (int d = 0; d < rank; d++) {
            at += index[d] * strides[k * rank + d];
          }
          hash = hash * 1_000_003 + raw(segments[k], at, inputBytes[k - 1]);
        }
        segments[0].setAtIndex(JAVA_LONG_UNALIGNED, out, hash);
        visits.incrementAndGet(Math.toIntExact(out));
        for (int d = rank - 1; d >= 0; d--) {
          if (++index[d] < shape[d]) {
            break;
          }
          index[d] = 0;
        }
      }
    }
  }

  private static long raw(MemorySegment s, long element, int bytes) {
    long h = 0;
    for (int b = 0; b < bytes; b++) {
      h = h * 257 + (s.get(JAVA_BYTE, element * bytes + b) & 0xFF) + 1;
    }
    return h;
  }

  /** Strides of a dense layout of {@code shape} whose dimensions, innermost first, are {@code order}. */
  private static long[] dense(long[] shape, int... innermostFirst) {
    long[] st = new long[shape.length];
    long step = 1;
    for (int d : innermostFirst) {
      st[d] = step;
      step *= shape[d];
    }
    return st;
  }

  private static long span(long[] shape, long[] strides) {
    long max = 0;
    for (int d = 0; d < shape.length; d++) {
      max += (shape[d] - 1) * strides[d];
    }
    return max + 1;
  }

  /**
   * Runs the recorder over {@code shape} with a C-contiguous 8-byte output and the given inputs,
   * checks the plan is tiled (with the expected operands staged) and every output element.
   */
  private static void check(
      long[] shape, long[][] inputStrides, int[] inputBytes, boolean[] expectStaged, int threads) {
    int inputs = inputStrides.length;
    long[] outStrides = dense(shape, descending(shape.length));
    long[][] strides = new long[inputs + 1][];
    strides[0] = outStrides;
    System.arraycopy(inputStrides, 0, strides, 1, inputs);
    int[] bytes = new int[inputs + 1];
    bytes[0] = 8;
    System.arraycopy(inputBytes, 0, bytes, 1, inputs);

    LoopPlan plan = LoopPlan.of(shape, strides, bytes);
    assertTrue(plan.tiled(), "not tiled: " + plan);
    for (int k = 1; k <= inputs; k++) {
      assertEquals(expectStaged[k - 1], plan.staged(k), "operand " + k + " in " + plan);
    }

    Random rnd = new Random(Arrays.hashCode(shape) * 31L + threads);
    Arena arena = Arena.ofAuto();
    long outElements = span(shape, outStrides);
    MemorySegment[] segments = new MemorySegment[inputs + 1];
    long[] offsets = new long[inputs + 1];
    segments[0] = arena.allocate(outElements * 8, 64);
    for (int k = 0; k < inputs; k++) {
      long span = span(shape, inputStrides[k]);
      offsets[k + 1] = 3; // not at the block's start
      byte[] fill = new byte[Math.toIntExact((span + 3) * inputBytes[k])];
      rnd.nextBytes(fill);
      segments[k + 1] = arena.allocate(fill.length, 64);
      MemorySegment.copy(MemorySegment.ofArray(fill), 0, segments[k + 1], 0, fill.length);
    }
    Recorder recorder = new Recorder(inputBytes, outElements);
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(threads).grain(64).build())) {
      Parallel.run(recorder::box, plan, segments, offsets, new double[0], new long[0]);
    }

    // The naive walk over the original shape.
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    long[] index = new long[shape.length];
    for (long e = 0; e < n; e++) {
      long out = 0;
      long hash = 17;
      for (int d = 0; d < shape.length; d++) {
        out += index[d] * outStrides[d];
      }
      for (int k = 0; k < inputs; k++) {
        long at = offsets[k + 1];
        for (int d = 0; d < shape.length; d++) {
          at += index[d] * inputStrides[k][d];
        }
        hash = hash * 1_000_003 + raw(segments[k + 1], at, inputBytes[k]);
      }
      int o = Math.toIntExact(out);
      if (recorder.visits.get(o) != 1
          || segments[0].getAtIndex(JAVA_LONG_UNALIGNED, out) != hash) {
        throw new AssertionError(
            "element " + Arrays.toString(index) + " of " + Arrays.toString(shape) + ": visited "
                + recorder.visits.get(o) + " times, operands "
                + (segments[0].getAtIndex(JAVA_LONG_UNALIGNED, out) == hash ? "right" : "wrong")
                + "; " + plan + ", " + threads + " threads");
      }
      for (int d = shape.length - 1; d >= 0; d--) {
        if (++index[d] < shape[d]) {
          break;
        }
        index[d] = 0;
      }
    }
  }

  private static int[] descending(int ndim) {
    int[] order = new int[ndim];
    for (int i = 0; i < ndim; i++) {
      order[i] = ndim - 1 - i;
    }
    return order;
  }

  @Test
  void transposedOperandOfEveryElementSize() {
    // 300 x 1100: neither tiles (1024 columns, 1 KiB of rows) nor strips nor 8x8 blocks divide it.
    long[] shape = {300, 1100};
    for (int bytes : new int[] {1, 2, 4, 8, 16}) {
      for (int threads : new int[] {1, 2, 3}) {
        check(shape, new long[][] {dense(shape, 1, 0), dense(shape, 0, 1)},
            new int[] {bytes, bytes}, new boolean[] {false, true}, threads);
      }
    }
  }

  @Test
  void mixedElementSizesAndTwoTransposedInputs() {
    long[] shape = {77, 523};
    check(shape, new long[][] {dense(shape, 0, 1), dense(shape, 0, 1)},
        new int[] {2, 4}, new boolean[] {true, true}, 2);
    check(shape, new long[][] {dense(shape, 0, 1), dense(shape, 1, 0)},
        new int[] {4, 2}, new boolean[] {true, false}, 1);
  }

  @Test
  void broadcastOperandsBesideATransposedOne() {
    long[] shape = {129, 70};
    long[] row = {0, 1}; // (70,) broadcast along rows
    long[] column = {1, 0}; // (129, 1) broadcast along columns
    check(shape, new long[][] {dense(shape, 0, 1), row, column},
        new int[] {4, 4, 4}, new boolean[] {true, false, false}, 2);
    // A transposed operand broadcast along a third dimension: its near dimension (0) is moved
    // next to the innermost one, outside the broadcast one.
    long[] shape3 = {40, 3, 33};
    check(shape3, new long[][] {{1, 0, 40}}, new int[] {8}, new boolean[] {true}, 2);
  }

  @Test
  void permutedOperandsKeepOuterDimensions() {
    // NCHW output, input stored NHWC: (N, C, H, W) with strides (HWC, 1, WC, C).
    long[] shape = {3, 19, 5, 7};
    long[] nhwc = dense(shape, 1, 3, 2, 0);
    check(shape, new long[][] {nhwc}, new int[] {4}, new boolean[] {true}, 2);
    check(shape, new long[][] {nhwc, dense(shape, 3, 2, 1, 0)},
        new int[] {2, 2}, new boolean[] {true, false}, 1);
  }

  @Test
  void nearStrideAboveOneUsesTheScalarCopy() {
    // x[:, ::2].T: near stride 2, far stride 2 * 301.
    long[] shape = {150, 41};
    check(shape, new long[][] {{2, 602}}, new int[] {4}, new boolean[] {true}, 2);
  }

  @Test
  void plansThatNeedNoTilingAreUnchanged() {
    int[] four = {4, 4, 4};
    // All contiguous, a broadcast row, a transposed output with transposed inputs.
    assertFalse(LoopPlan.of(new long[] {64, 64}, new long[][] {{64, 1}, {64, 1}, {0, 1}}, four)
        .tiled());
    assertFalse(LoopPlan.of(new long[] {64, 64}, new long[][] {{1, 64}, {1, 64}, {1, 64}}, four)
        .tiled());
    // Too few columns to vectorize, or no element sizes given.
    assertFalse(LoopPlan.of(new long[] {64, 3}, new long[][] {{3, 1}, {3, 1}, {1, 64}}, four)
        .tiled());
    assertFalse(LoopPlan.of(new long[] {64, 64}, new long[][] {{64, 1}, {64, 1}, {1, 64}})
        .tiled());
    // A transposed operand is tiled, rows and columns as its near and far dimensions.
    LoopPlan t = LoopPlan.of(new long[] {64, 64}, new long[][] {{64, 1}, {64, 1}, {1, 64}}, four);
    assertTrue(t.tiled());
    assertArrayEquals(new long[] {64, 1, 64, 1, 1, 64}, t.strides);
    assertEquals(256, t.tileRows);
  }

  @Test
  void sharesSplitInWholeStrips() {
    LoopPlan t =
        LoopPlan.of(new long[] {100, 64}, new long[][] {{64, 1}, {1, 100}}, new int[] {4, 4});
    long total = 0;
    for (int c = 0; c < 3; c++) {
      long len = Parallel.shareLength(t, 100, 3, c);
      total += len;
      if (c < 2) {
        assertEquals(0, len % Tiling.STRIP, "share " + c);
      }
    }
    assertEquals(100, total);
  }
}
