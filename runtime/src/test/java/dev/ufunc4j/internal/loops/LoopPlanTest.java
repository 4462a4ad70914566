package dev.ufunc4j.internal.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LoopPlanTest {

  /** Every element's offsets, as the naive odometer over the original shape visits them. */
  private static List<long[]> naive(long[] shape, long[][] strides) {
    List<long[]> out = new ArrayList<>();
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    long[] idx = new long[shape.length];
    for (long e = 0; e < n; e++) {
      long[] offs = new long[strides.length];
      for (int k = 0; k < strides.length; k++) {
        for (int d = 0; d < shape.length; d++) {
          offs[k] += idx[d] * strides[k][d];
        }
      }
      out.add(offs);
      for (int d = shape.length - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) {
          break;
        }
        idx[d] = 0;
      }
    }
    return out;
  }

  private static List<long[]> planned(LoopPlan p) {
    List<long[]> out = new ArrayList<>();
    long[] idx = new long[p.rank];
    long n = p.numel();
    for (long e = 0; e < n; e++) {
      long[] offs = new long[p.operands];
      for (int k = 0; k < p.operands; k++) {
        for (int d = 0; d < p.rank; d++) {
          offs[k] += idx[d] * p.strides[k * p.rank + d];
        }
      }
      out.add(offs);
      for (int d = p.rank - 1; d >= 0; d--) {
        if (++idx[d] < p.shape[d]) {
          break;
        }
        idx[d] = 0;
      }
    }
    return out;
  }

  private static List<long[]> sorted(List<long[]> l) {
    List<long[]> c = new ArrayList<>(l);
    c.sort(Comparator.comparing(a -> Arrays.toString(a)));
    return c;
  }

  private static long[] contiguous(long[] shape, int[] order) {
    long[] st = new long[shape.length];
    long step = 1;
    for (int i = order.length - 1; i >= 0; i--) {
      st[order[i]] = step;
      step *= shape[order[i]];
    }
    return st;
  }

  @Test
  void visitsExactlyTheNaiveElementsForRandomLayouts() {
    for (int pass = 0; pass < 2; pass++) { // the second pass meets plans cached by the first
      visitsExactlyTheNaiveElements(new Random(42));
    }
  }

  private static void visitsExactlyTheNaiveElements(Random rnd) {
    for (int iter = 0; iter < 2000; iter++) {
      int ndim = rnd.nextInt(6);
      long[] shape = new long[ndim];
      for (int d = 0; d < ndim; d++) {
        shape[d] = rnd.nextInt(10) == 0 ? 1 : 1 + rnd.nextInt(4);
      }
      int ops = 1 + rnd.nextInt(3);
      long[][] strides = new long[ops][];
      for (int k = 0; k < ops; k++) {
        int[] order = new int[ndim];
        for (int d = 0; d < ndim; d++) {
          order[d] = d;
        }
        if (rnd.nextBoolean()) {
          for (int d = ndim - 1; d > 0; d--) {
            int j = rnd.nextInt(d + 1);
            int t = order[d];
            order[d] = order[j];
            order[j] = t;
          }
        }
        strides[k] = contiguous(shape, order);
        if (k > 0) {
          for (int d = 0; d < ndim; d++) {
            if (rnd.nextInt(4) == 0) {
              strides[k][d] = 0; // broadcast
            } else if (rnd.nextInt(6) == 0) {
              strides[k][d] *= 3; // a gap, as a slice with step leaves
            }
          }
        }
      }
      LoopPlan p = LoopPlan.of(shape, strides);
      List<long[]> want = sorted(naive(shape, strides));
      List<long[]> got = sorted(planned(p));
      assertEquals(want.size(), got.size(), p.toString());
      for (int i = 0; i < want.size(); i++) {
        assertArrayEquals(want.get(i), got.get(i), p + " for " + Arrays.toString(shape));
      }
    }
  }

  /**
   * Plans are cached by their arguments: a repeated call gets the same plan, a call whose
   * arguments differ in one stride or element size does not, and changing the caller's arrays
   * after a call does not change what the cache answers.
   */
  @Test
  void aRepeatedLoopGetsTheCachedPlanAndOnlyForEqualArguments() {
    long[] shape = {4, 4};
    long[][] strides = {{4, 1}, {4, 1}, {0, 1}};
    int[] bytes = {4, 4, 4};
    LoopPlan first = LoopPlan.of(shape, strides, bytes);
    strides[2][0] = 4; // the caller reuses its arrays for another call
    LoopPlan other = LoopPlan.of(shape, strides, bytes);
    assertNotSame(first, other);
    assertEquals(1, other.rank); // now all contiguous: one dimension
    LoopPlan again = LoopPlan.of(new long[] {4, 4},
        new long[][] {{4, 1}, {4, 1}, {0, 1}}, new int[] {4, 4, 4});
    assertSame(first, again);
    assertEquals(2, again.rank);
    assertArrayEquals(new long[] {4, 1, 4, 1, 0, 1}, again.strides);
    assertNotSame(first, LoopPlan.of(new long[] {4, 4},
        new long[][] {{4, 1}, {4, 1}, {0, 1}}, new int[] {4, 4, 8}));
  }

  @Test
  void contiguousOperandsCoalesceToOneDimension() {
    long[] shape = {4, 5, 6};
    long[] c = {30, 6, 1};
    LoopPlan p = LoopPlan.of(shape, new long[][] {c, c, c});
    assertEquals(1, p.rank);
    assertArrayEquals(new long[] {120}, p.shape);
    assertArrayEquals(new long[] {1, 1, 1}, p.strides);
  }

  @Test
  void rowBroadcastKeepsTwoDimensionsWithAStrideZeroOuter() {
    // (4096, 4096) + (4096,): the row operand repeats along dim 0.
    LoopPlan p =
        LoopPlan.of(new long[] {8, 16}, new long[][] {{16, 1}, {16, 1}, {0, 1}});
    assertEquals(2, p.rank);
    assertArrayEquals(new long[] {8, 16}, p.shape);
    assertArrayEquals(new long[] {16, 1, 16, 1, 0, 1}, p.strides);
  }

  @Test
  void transposedOutputIsWalkedInItsMemoryOrder() {
    // out and a are transposed (column-major); the loop's inner dimension must be their dim 0.
    LoopPlan p = LoopPlan.of(new long[] {3, 5}, new long[][] {{1, 3}, {1, 3}, {5, 1}});
    assertArrayEquals(new long[] {5, 3}, p.shape);
    assertArrayEquals(new long[] {3, 1, 3, 1, 1, 5}, p.strides);
  }

  @Test
  void newOutputFollowsTheInputsLayout() {
    long[] shape = {3, 5};
    assertArrayEquals(
        new long[] {1, 3}, LoopPlan.outputStrides(shape, new long[][] {{1, 3}, {1, 3}}));
    assertArrayEquals(
        new long[] {5, 1}, LoopPlan.outputStrides(shape, new long[][] {{5, 1}, {0, 1}}));
    assertArrayEquals(new long[] {}, LoopPlan.outputStrides(new long[] {}, new long[][] {{}}));
  }

  @Test
  void zeroDimAndSizeOneLoopsAreRankOneOfSizeOne() {
    LoopPlan p = LoopPlan.of(new long[] {}, new long[][] {{}, {}});
    assertEquals(1, p.rank);
    assertEquals(1, p.numel());
    LoopPlan q = LoopPlan.of(new long[] {1, 1}, new long[][] {{1, 1}, {0, 0}});
    assertEquals(1, q.numel());
  }
}
