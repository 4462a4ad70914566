package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.RuntimeContext;
import dev.ufunc4j.internal.memory.NativeMemory;
import dev.ufunc4j.internal.parallel.Parallel;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The paths issue 24's speed cases take through {@code accumulate} and {@code at} (docs/ufuncs.md,
 * "Speed against the peers"): an {@code out=} scan written straight into its target, the scalar
 * scan's blocks, and {@code at} shared across the team. Expected values are {@code add}'s declared
 * scalar method ({@code a + b} in float) applied in the documented order.
 */
class UfuncScanAtPathsTest {

  /** {@code y[i] = y[i - 1] + x[i]} in float, in order (NumPy's cumsum of float32). */
  private static float[] runningSum(float[] x) {
    float[] y = new float[x.length];
    float acc = 0;
    for (int i = 0; i < x.length; i++) {
      acc = i == 0 ? x[0] : acc + x[i];
      y[i] = acc;
    }
    return y;
  }

  private static void assertSameBits(float[] want, float[] got, String what) {
    assertEquals(want.length, got.length, what);
    for (int i = 0; i < want.length; i++) {
      if (Float.floatToIntBits(want[i]) != Float.floatToIntBits(got[i])) {
        assertEquals(want[i], got[i], what + ": element " + i);
      }
    }
  }

  /**
   * An out= target of the result's dtype, contiguous and apart from the input, receives the scan
   * directly: no result of the input's size is allocated beside it (before: a new result, then a
   * copy into out, which cost {@code cumsum_16M} a third more time).
   */
  @Test
  void accumulateIntoOutAllocatesNoTemporary() {
    int n = 1 << 20; // 4 MiB of float32
    Tensor x = Tensor.randn(5, DType.FLOAT32, n);
    Tensor out = Tensor.zeros(DType.FLOAT32, n);
    Ops.add.accumulate(x, 0, out); // any first-call allocation (scratch, class loading) done
    long before = NativeMemory.outstandingBytes();
    NativeMemory.resetPeak();
    assertSame(out, Ops.add.accumulate(x, 0, out));
    long extra = NativeMemory.peakOutstandingBytes() - before;
    assertTrue(extra < 4L * n / 2,
        "accumulate into out allocated " + extra + " bytes beside it (the input is " + 4L * n + ")");
    assertSameBits(runningSum(x.toFloatArray()), out.toFloatArray(), "cumsum into out");
  }

  /**
   * Written in place, an out= view with an offset gets the scan at its own elements and nothing
   * around it changes; an out= that is the input itself (a shared buffer) still gives the running
   * sum of the values as they were.
   */
  @Test
  void accumulateIntoAViewOrIntoItsInput() {
    Tensor x = Tensor.randn(6, DType.FLOAT32, 1, 4, 1500); // inner 1500: a full column block and a rest
    Tensor fresh = Ops.add.accumulate(x, 1);
    Tensor big = Tensor.zeros(DType.FLOAT32, 3, 4, 1500);
    Tensor view = big.narrow(0, 1, 1); // contiguous, 6000 elements in
    assertSame(view, Ops.add.accumulate(x, 1, view));
    assertSameBits(fresh.toFloatArray(), view.toFloatArray(), "into a view");
    assertTrue(big.narrow(0, 0, 1).equal(Tensor.zeros(DType.FLOAT32, 1, 4, 1500)), "before it");
    assertTrue(big.narrow(0, 2, 1).equal(Tensor.zeros(DType.FLOAT32, 1, 4, 1500)), "after it");

    Tensor v = Tensor.randn(7, DType.FLOAT32, 3000);
    float[] want = runningSum(v.toFloatArray());
    assertSame(v, Ops.add.accumulate(v, 0, v));
    assertSameBits(want, v.toFloatArray(), "into its own input");
  }

  /**
   * One contiguous column longer than the scalar scan's block of 2^20 elements (the running value
   * carried across blocks), and a one-wide column with a row stride (the last column of [n, 1025]
   * along dim 0: the vector loop under a one-lane mask): the order's bits either way.
   */
  @Test
  void scalarScanCarriesAcrossBlocksAndStridedColumnsKeepTheirBits() {
    int n = (1 << 20) + 3;
    Tensor x = Tensor.randn(8, DType.FLOAT32, n);
    assertSameBits(runningSum(x.toFloatArray()), Ops.add.accumulate(x, 0).toFloatArray(),
        "cumsum across blocks");

    Tensor m = Tensor.randn(9, DType.FLOAT32, 50, 1025);
    Tensor scanned = Ops.add.accumulate(m, 0);
    for (int c : new int[] {0, 1023, 1024}) {
      float[] column = m.select(1, c).contiguous().toFloatArray();
      assertSameBits(runningSum(column), scanned.select(1, c).contiguous().toFloatArray(),
          "column " + c);
    }
  }

  /**
   * On two threads, {@code add.at} shares the target's rows across the team (one split), and
   * every row still takes its values in index order, repeated indices every time: the bits of a
   * sequential loop of {@code a + b}. Before, {@code at} ran on the caller's thread only.
   */
  @Test
  void atSharesRowsAcrossThreadsInIndexOrder() {
    atOnThreads(2, 1000);
  }

  /**
   * On eight threads (more than this machine's cores, so shares wait for workers), with a row
   * count that eight does not divide, so the shares differ in size: still one thread's bits.
   */
  @Test
  void atOnEightThreadsHasOneThreadsBits() {
    atOnThreads(8, 1003);
  }

  /** {@code add.at} on {@code threads} threads against the sequential loop, along dims 0 and 1. */
  private static void atOnThreads(int threads, int rows) {
    int inner = 24;
    int count = 20_000;
    Random random = new Random(11);
    long[] index = new long[count];
    for (int i = 0; i < count; i++) {
      // Repeats everywhere, a negative index now and then, and a crowd on the first rows.
      index[i] = i % 5 == 0 ? random.nextInt(3) : random.nextInt(rows) - (i % 7 == 0 ? rows : 0);
    }
    Tensor target = Tensor.randn(12, DType.FLOAT32, rows, inner);
    Tensor values = Tensor.randn(13, DType.FLOAT32, count, inner);
    float[] want = target.toFloatArray();
    float[] v = values.toFloatArray();
    for (int i = 0; i < count; i++) {
      long row = index[i] < 0 ? index[i] + rows : index[i];
      for (int j = 0; j < inner; j++) {
        int at = (int) row * inner + j;
        want[at] = want[at] + v[i * inner + j];
      }
    }
    RuntimeContext team = RuntimeContext.builder().threads(threads).grain(4096).build();
    try (var _ = RuntimeContext.use(team)) {
      long splits = Parallel.splits();
      Ops.add.at(target, Tensor.of(index, count), values);
      assertEquals(splits + 1, Parallel.splits(), "add.at of 480,000 values splits once");
    }
    assertSameBits(want, target.toFloatArray(), "add.at on " + threads + " threads");

    // Along dim 1 of [2, rows, 3]: the shares cut dim 1, each of the two outer blocks in order.
    Tensor t3 = Tensor.randn(14, DType.FLOAT32, 2, rows, 3);
    Tensor v3 = Tensor.randn(15, DType.FLOAT32, 2, count, 3);
    Tensor seq = t3.copy();
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(1).build())) {
      Ops.add.at(seq, 1, Tensor.of(index, count), v3); // one thread: the sequential order
    }
    try (var _ = RuntimeContext.use(team)) {
      Ops.add.at(t3, 1, Tensor.of(index, count), v3);
    }
    assertArrayEquals(seq.toFloatArray(), t3.toFloatArray(), "along dim 1");
  }
}
