package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.samples.BlendsOps;
import dev.ufunc4j.samples.SamplesOps;
import java.util.Arrays;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every distributed op against the same op on the local tensors (the oracle is ufunc4j's local
 * call, itself checked against PyTorch by the runtime's golden tests): bit for bit for elementwise
 * ops, within the reassociation bound of docs/scale-out.md for sums. Runs Spark in local[2].
 */
class DistTensorTest extends SparkTestSession {
  static Tensor x(long seed, long... shape) {
    return Tensor.randn(seed, DType.FLOAT32, shape);
  }

  @Test
  void broadcastOperandAgainstEveryBlock() {
    Tensor x = x(1, 1001, 64);
    Tensor bias = x(2, 64);
    DistTensor d = DistTensor.of(sc, x, 3);
    assertPartitionRows(new long[] {334, 334, 333}, d);
    DistTensor r = d.apply(Ops::add, bias);
    assertEquals(DType.FLOAT32, r.dtype());
    assertArrayEquals(new long[] {1001, 64}, r.shape());
    assertTrue(r.toTensor().equal(Ops.add(x, bias)));
    // the local operand on the left, and a [1, 64] operand broadcast along the sharded dimension
    assertTrue(DistTensor.apply(Ops::sub, bias.view(1, 64), d).toTensor()
        .equal(Ops.sub(bias.view(1, 64), x)));
  }

  @Test
  void fullSizeLocalOperandIsSlicedPerBlock() {
    Tensor x = x(3, 257, 5);
    Tensor y = x(4, 257, 5);
    DistTensor r = DistTensor.of(sc, x, 4).apply(Ops::mul, y);
    assertTrue(r.toTensor().equal(Ops.mul(x, y)));
    // a column [257, 1]: sliced too, broadcast inside each block
    Tensor col = x(5, 257, 1);
    assertTrue(DistTensor.of(sc, x, 4).apply(Ops::div, col).toTensor().equal(Ops.div(x, col)));
  }

  @Test
  void twoDistributedOperandsAreZipped() {
    Tensor x = x(6, 300, 7);
    Tensor y = Tensor.randint(7, -50, 50, DType.INT32, 300, 7);
    DistTensor r = DistTensor.of(sc, x, 3).apply(Ops::add, DistTensor.of(sc, y, 3));
    assertEquals(DType.FLOAT32, r.dtype());
    assertTrue(r.toTensor().equal(Ops.add(x, y)));
  }

  /**
   * Distributed operands with different row blocks: the others are re-blocked to the first one's
   * blocks (a shuffle of row ranges), and the result is the local one bit for bit, with the first
   * operand's blocks. Blockings chosen so that source blocks straddle several target blocks, a
   * target block gathers rows from several sources, and one operand is a single block.
   */
  @Test
  void differentlyBlockedOperandsAreReblocked() {
    Tensor x = x(30, 40, 3);
    Tensor y = Tensor.randint(31, -50, 50, DType.INT32, 40, 3);
    DistTensor three = DistTensor.of(sc, x, 3);
    DistTensor four = DistTensor.of(sc, y, 4);
    DistTensor r = three.apply(Ops::add, four);
    assertPartitionRows(new long[] {14, 13, 13}, r);
    assertTrue(r.toTensor().equal(Ops.add(x, y)));
    DistTensor s = four.apply(Ops::sub, three);
    assertPartitionRows(new long[] {10, 10, 10, 10}, s);
    assertTrue(s.toTensor().equal(Ops.sub(y, x)));
    // three operands in three blockings (7 blocks, 1 block, 3 blocks), and a re-blocked result
    // used again with its source
    Tensor z = x(32, 40, 1);
    DistTensor seven = DistTensor.of(sc, z, 7);
    DistTensor t = DistTensor.apply((a, b, c) -> Ops.add(Ops.mul(a, b), c), seven,
        DistTensor.of(sc, x, 1), three);
    assertArrayEquals(seven.blockRows(), t.blockRows());
    assertTrue(t.toTensor().equal(Ops.add(Ops.mul(z, x), x)));
    assertTrue(t.apply(Ops::mul, r).toTensor().equal(Ops.mul(t.toTensor(), Ops.add(x, y))));
    // a sum over differently blocked operands (sumBlocks zips them the same way)
    Tensor g = DistTensor.sumBlocks(a -> Ops.mul(a[0], a[1]).sum(0), three, four);
    assertTrue(g.allClose(Ops.mul(x, y).sum(0), 1e-5, 1e-5, false));
  }

  @Test
  void promotionIsLocal() {
    Tensor ints = Tensor.randint(8, -1000, 1000, DType.INT32, 100, 3);
    Tensor f64 = Tensor.randn(9, DType.FLOAT64, 3);
    DistTensor r = DistTensor.of(sc, ints, 2).apply(Ops::mul, f64);
    assertEquals(Ops.mul(ints, f64).dtype(), r.dtype());
    assertTrue(r.toTensor().equal(Ops.mul(ints, f64)));
    // a Java scalar through a lambda: int32 * 2.5 is float32, as in PyTorch
    DistTensor s = DistTensor.of(sc, ints, 2).map(t -> Ops.mul(t, 2.5));
    assertEquals(DType.FLOAT32, s.dtype());
    assertTrue(s.toTensor().equal(Ops.mul(ints, 2.5)));
  }

  @Test
  void javaNumbersPromoteAsPythonScalars() {
    // typed overloads: a Number goes through the op's own (Tensor, Number) form, so it promotes
    // as the local call's wrapped number (int32 * 2.5 is float32, not the float64 of a zero-dim
    // tensor)
    Tensor ints = Tensor.randint(40, -100, 100, DType.INT32, 50, 3);
    DistTensor d = DistTensor.of(sc, ints, 2);
    DistTensor half = d.apply(Ops::mul, 2.5);
    assertEquals(DType.FLOAT32, half.dtype());
    assertTrue(half.toTensor().equal(Ops.mul(ints, 2.5)));
    Tensor bytes = Tensor.randint(41, -100, 100, DType.INT8, 50, 3);
    DistTensor plus = DistTensor.of(sc, bytes, 2).apply(Ops::add, 3);
    assertEquals(DType.INT8, plus.dtype());
    assertTrue(plus.toTensor().equal(Ops.add(bytes, 3)));
    // a Number type the facade refuses: the local message, before any job
    RuntimeException e = refusedBeforeAnyJob(RuntimeException.class,
        () -> d.apply(Ops::add, new java.math.BigDecimal("1.5")));
    assertEquals(localMessage(() -> Ops.add(ints, new java.math.BigDecimal("1.5"))),
        e.getClass().getName() + ": " + e.getMessage());
    IllegalArgumentException none = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> d.apply(Ops::add, (Number) null));
    assertEquals("DistTensor.apply: other must not be null", none.getMessage());
  }

  @Test
  void usersOpsFromAnotherModule() {
    Tensor a = x(10, 120, 6);
    Tensor b = x(11, 6);
    assertTrue(DistTensor.of(sc, a, 3).apply(BlendsOps::hypot, b).toTensor()
        .equal(BlendsOps.hypot(a, b)));
    Tensor lo = Tensor.full(DType.FLOAT32, -0.5, 6);
    Tensor hi = x(12, 120, 1).abs();
    DistTensor c = DistTensor.apply(SamplesOps::clamp, DistTensor.of(sc, a, 3), lo, hi);
    assertTrue(c.toTensor().equal(SamplesOps.clamp(a, lo, hi)));
  }

  @Test
  void ternaryBuiltinWithBooleanBlocks() {
    Tensor a = x(13, 90, 4);
    DistTensor d = DistTensor.of(sc, a, 2);
    DistTensor mask = d.map(t -> Ops.gt(t, 0.0));
    assertEquals(DType.BOOL, mask.dtype());
    Tensor zero = Tensor.scalar(0.0f);
    assertTrue(DistTensor.apply(Ops::where, mask, d, zero).toTensor()
        .equal(Ops.where(Ops.gt(a, 0.0), a, zero)));
  }

  /**
   * The rows of each partition are {@code expected}, and each block stays within the largest
   * block size in force ({@link DistTensor#maxBlockBytes}: one block per partition by default,
   * several under {@link DistTensorSmallBlocksTest}'s).
   */
  static void assertPartitionRows(long[] expected, DistTensor d) {
    long[] rows = d.blockRows();
    int[] perPartition = d.partitionBlocks();
    long[] got = new long[perPartition.length];
    int block = 0;
    for (int p = 0; p < perPartition.length; p++) {
      for (int k = 0; k < perPartition[p]; k++) {
        got[p] += rows[block++];
      }
    }
    assertEquals(rows.length, block, "partitionBlocks " + Arrays.toString(perPartition)
        + " do not add up to the " + rows.length + " blocks");
    assertArrayEquals(expected, got, "rows per partition of " + d);
    long rowBytes = d.numel() / Math.max(1, d.shape()[0]) * d.dtype().byteSize();
    long max = DistTensor.maxBlockBytes(sc);
    for (long r : rows) {
      assertTrue(r <= 1 || r * rowBytes <= max, "a block of " + r + " rows of " + rowBytes
          + " bytes exceeds the largest block size " + max + ": " + Arrays.toString(rows));
    }
  }

  /** Runs {@code call} and asserts that no Spark job ran meanwhile. */
  static <T extends Throwable> T refusedBeforeAnyJob(Class<T> type, Executable call) {
    String group = "refusal-" + System.nanoTime();
    sc.setJobGroup(group, "must stay empty", false);
    try {
      T e = assertThrows(type, call);
      assertEquals(0, spark.sparkContext().statusTracker().getJobIdsForGroup(group).length,
          "a job ran before the refusal");
      return e;
    } finally {
      sc.clearJobGroup();
    }
  }

  static String localMessage(Supplier<?> call) {
    try {
      call.get();
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
    throw new AssertionError("the local call did not refuse");
  }

  @Test
  void broadcastMismatchIsRefusedWithTheLocalMessage() {
    Tensor x = x(14, 50, 64);
    Tensor bad = x(15, 63);
    DistTensor d = DistTensor.of(sc, x, 2);
    RuntimeException e = refusedBeforeAnyJob(RuntimeException.class, () -> d.apply(Ops::add, bad));
    assertEquals(localMessage(() -> Ops.add(x, bad)), e.getClass().getName() + ": " + e.getMessage());
    // the sharded dimension itself: 50 rows against a local [49, 64]
    Tensor rows = x(16, 49, 64);
    e = refusedBeforeAnyJob(RuntimeException.class, () -> d.apply(Ops::add, rows));
    assertEquals(localMessage(() -> Ops.add(x, rows)), e.getClass().getName() + ": " + e.getMessage());
  }

  @Test
  void promotionAndKernelRefusalsAreLocal() {
    Tensor x = x(17, 20, 3);
    Tensor ints = Tensor.randint(18, 0, 9, DType.INT32, 3);
    DistTensor d = DistTensor.of(sc, x, 2);
    RuntimeException e =
        refusedBeforeAnyJob(RuntimeException.class, () -> d.apply(Ops::bitwiseAnd, ints));
    assertEquals(localMessage(() -> Ops.bitwiseAnd(x, ints)),
        e.getClass().getName() + ": " + e.getMessage());
  }

  @Test
  void badLayoutsAndOperandsAreRefused() {
    Tensor x = x(19, 40, 3);
    DistTensor three = DistTensor.of(sc, x, 3);
    // other rows, not other blocks: re-blocking cannot make 39 rows into 40
    DistTensor fewer = DistTensor.of(sc, x(22, 39, 3), 3);
    IllegalArgumentException e =
        refusedBeforeAnyJob(IllegalArgumentException.class, () -> three.apply(Ops::add, fewer));
    assertTrue(e.getMessage().contains("same rank and number of rows"), e.getMessage());
    assertTrue(e.getMessage().contains("[13, 13, 13]"), e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> three.apply(Ops::add, x(20, 2, 40, 3)));
    assertTrue(e.getMessage().contains("more dimensions than the distributed operands"),
        e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> DistTensor.apply(Ops::add, three, "3"));
    assertEquals("DistTensor.apply: operand 1 must be a DistTensor or a Tensor, got"
        + " java.lang.String", e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> DistTensor.apply(Ops::add, three, 3));
    assertTrue(e.getMessage().startsWith("DistTensor.apply: operand 1 must be a DistTensor or a"
        + " Tensor, got java.lang.Integer; for a Java number, use x.apply(op, number)"),
        e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> three.apply(Ops::add, (Tensor) null));
    assertEquals("DistTensor.apply: other must not be null", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> DistTensor.of(sc, x, 0));
    assertEquals("DistTensor.of: numBlocks must be at least 1, got 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> DistTensor.of(sc, Tensor.scalar(1.0), 2));
    assertTrue(e.getMessage().contains("zero-dim"), e.getMessage());
    // more blocks than rows: one block per row, as torch.chunk
    assertPartitionRows(new long[] {1, 1}, DistTensor.of(sc, x(21, 2, 3), 5));
  }

  @Test
  void sumsMatchTheLocalSums() {
    Tensor ints = Tensor.randint(22, -1000, 1000, DType.INT32, 333, 8);
    DistTensor di = DistTensor.of(sc, ints, 3);
    // integral sums are exact whatever the order
    assertTrue(di.sum().equal(ints.sum()));
    assertTrue(di.sum(new int[] {0}, false).equal(ints.sum(new int[] {0}, false)));
    assertTrue(di.sum(new int[] {0, 1}, true).equal(ints.sum(new int[] {0, 1}, true)));
    // float sums: reassociated across blocks (docs/scale-out.md's bound)
    Tensor x = x(23, 333, 8);
    DistTensor d = DistTensor.of(sc, x, 3);
    assertTrue(d.sum().allClose(x.sum(), 1e-5, 1e-5, false));
    assertTrue(d.sum(new int[] {-2}, true).allClose(x.sum(new int[] {-2}, true), 1e-5, 1e-5, false));
    // inner sums stay inside the blocks: the same computation as the local one, row by row
    DistTensor inner = d.sumWithinRows(new int[] {1}, false);
    assertArrayEquals(new long[] {333}, inner.shape());
    assertTrue(inner.toTensor().equal(x.sum(new int[] {1}, false)));
    IllegalArgumentException e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> d.sum(new int[] {1}, false));
    assertTrue(e.getMessage().contains("use sumWithinRows"), e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> d.sumWithinRows(new int[] {0}, false));
    assertTrue(e.getMessage().contains("sharded dimension 0"), e.getMessage());
    RuntimeException range = refusedBeforeAnyJob(RuntimeException.class,
        () -> d.sum(new int[] {2}, false));
    assertEquals(localMessage(() -> x.sum(new int[] {2}, false)),
        range.getClass().getName() + ": " + range.getMessage());
  }

  @Test
  void sumToShapeIsTheGradientOfABroadcastParameter() {
    Tensor g = x(24, 500, 16);
    DistTensor d = DistTensor.of(sc, g, 4);
    assertTrue(d.sumToShape(16).allClose(g.sumToShape(16), 1e-5, 1e-5, false));
    assertTrue(d.sumToShape(1, 16).allClose(g.sumToShape(1, 16), 1e-5, 1e-5, false));
    assertTrue(d.sumToShape(1, 1).allClose(g.sumToShape(1, 1), 1e-4, 1e-4, false));
    RuntimeException e = refusedBeforeAnyJob(RuntimeException.class, () -> d.sumToShape(15));
    assertEquals(localMessage(() -> g.sumToShape(15)), e.getClass().getName() + ": " + e.getMessage());
    IllegalArgumentException keeps =
        refusedBeforeAnyJob(IllegalArgumentException.class, () -> d.sumToShape(500, 1));
    assertTrue(keeps.getMessage().contains("keeps the sharded dimension"), keeps.getMessage());
  }

  @Test
  void dataParallelGradientStep() {
    // logistic regression's gradient of w, computed per block by reverse mode and summed across
    // partitions, against the same computation on the whole data
    Tensor xs = x(25, 400, 8);
    Tensor ys = Ops.gt(x(26, 400), 0.0).to(DType.FLOAT32);
    Tensor w = x(27, 8);
    DistTensor.BlockFn step = args -> {
      Tensor wb = args[2].detach().requiresGrad(true);
      Tensor z = Ops.mul(args[0], wb).sum(new int[] {1}, false);
      // -(y log s + (1 - y) log(1 - s)) with s = sigmoid(z)
      Tensor s = Ops.sigmoid(z);
      Tensor loss = Ops.neg(Ops.add(Ops.mul(args[1], Ops.log(s)),
          Ops.mul(Ops.sub(1.0, args[1]), Ops.log(Ops.sub(1.0, s))))).sum();
      loss.backward();
      return wb.grad();
    };
    Tensor local = step.apply(new Tensor[] {xs, ys, w});
    Tensor dist = DistTensor.sumBlocks(step, DistTensor.of(sc, xs, 4), DistTensor.of(sc, ys, 4), w);
    assertArrayEquals(new long[] {8}, dist.shape());
    assertTrue(dist.allClose(local, 1e-4, 1e-4, false), dist + " vs " + local);
  }
}
