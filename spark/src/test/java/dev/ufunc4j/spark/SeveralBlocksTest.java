package dev.ufunc4j.spark;

import static dev.ufunc4j.spark.DistTensorTest.assertPartitionRows;
import static dev.ufunc4j.spark.DistTensorTest.refusedBeforeAnyJob;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several blocks per partition (issue 31 item 3): a partition larger than the largest block size
 * ({@link DistTensor#MAX_BLOCK_BYTES}) is held as several blocks within it — from a Spark SQL
 * table as from a local tensor — checked on the executors, block by block, and every op on such
 * blocks gives the local result.
 */
class SeveralBlocksTest extends SparkTestSession {
  @AfterEach
  void defaultBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, null);
  }

  /**
   * Counted on the executors, over the real blocks (the driver's zero-row proxy gives zeros):
   * {@code [blocks larger than max bytes, blocks, rows]}.
   */
  static long[] blocksSeen(DistTensor d, long max) {
    long elementBytes = d.dtype().byteSize();
    Tensor seen = DistTensor.sumBlocks(a -> {
      long rows = a[0].shape()[0];
      double over = rows > 1 && a[0].numel() * elementBytes > max ? 1 : 0;
      return Tensor.of(new double[] {over, rows > 0 ? 1 : 0, rows}, 3);
    }, d);
    return new long[] {(long) seen.getDouble(0), (long) seen.getDouble(1),
        (long) seen.getDouble(2)};
  }

  @Test
  void aLargeLocalTensorIsSplitWithinEachPartition() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, "4k");
    Tensor x = Tensor.randn(41, DType.FLOAT32, 2000, 16); // 64 B rows, 64 KiB per partition
    DistTensor d = DistTensor.of(sc, x, 2);
    assertEquals(2, d.numPartitions());
    assertEquals(32, d.numBlocks()); // 1000 rows in 16 blocks of 62-63 rows (<= 64 rows = 4 KiB)
    assertPartitionRows(new long[] {1000, 1000}, d);
    assertArrayEquals(new long[] {0, 32, 2000}, blocksSeen(d, 4096));
    assertTrue(d.toTensor().equal(x));
    assertTrue(d.toString().contains("32 blocks in 2 partitions"), d.toString());
  }

  @Test
  void aTablesPartitionsAreReadInBlocksWithinTheSize(@TempDir Path dir) throws Exception {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, "4k");
    // a numeric column: 5000 float32 values in 2 partitions, 10 KB each, 1024 values per block
    Dataset<Row> numbers = spark.range(0, 5000, 1, 2).selectExpr("cast(id AS float) AS v");
    DistTensor v = DistTensor.fromColumn(numbers, "v");
    assertEquals(2, v.numPartitions());
    assertArrayEquals(new int[] {3, 3}, v.partitionBlocks());
    assertArrayEquals(new long[] {1024, 1024, 452, 1024, 1024, 452}, v.blockRows());
    assertArrayEquals(new long[] {0, 6, 5000}, blocksSeen(v, 4096));
    Tensor local = Tensor.arange(5000).to(DType.FLOAT32);
    assertTrue(v.toTensor().equal(local));
    assertTrue(v.sum().equal(local.sum())); // integers below 2^24: exact in any order

    // an array column of 16 floats per row (64 B): 500 rows in 3 partitions, 64 rows per block
    Tensor x = Tensor.randn(42, DType.FLOAT32, 500, 16);
    float[][] rows = new float[500][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = x.select(0, i).toFloatArray();
    }
    DistTensor t = DistTensor.fromColumn(SparkTensorsTest.featureTable(rows, 3), "features");
    assertEquals(3, t.numPartitions());
    assertEquals(9, t.numBlocks());
    assertPartitionRows(new long[] {166, 167, 167}, t);
    assertArrayEquals(new long[] {0, 9, 500}, blocksSeen(t, 4096));
    assertTrue(t.toTensor().equal(x));

    // apply with a broadcast operand and with a full-size local operand sliced per block
    Tensor bias = Tensor.randn(43, DType.FLOAT32, 1, 16);
    Tensor scale = Tensor.randn(44, DType.FLOAT32, 500, 1);
    assertTrue(DistTensor.apply((a, b, c) -> Ops.add(Ops.mul(a, c), b), t, bias, scale)
        .toTensor().equal(Ops.add(Ops.mul(x, scale), bias)));
    // a distributed operand in other blocks (of(…, 4): 125 rows, 2 blocks each) re-blocked to
    // the table's several blocks per partition, and back
    Tensor y = Tensor.randn(45, DType.FLOAT32, 500, 16);
    DistTensor dy = DistTensor.of(sc, y, 4);
    assertEquals(8, dy.numBlocks());
    DistTensor sum = t.apply(Ops::add, dy);
    assertArrayEquals(t.blockRows(), sum.blockRows());
    assertArrayEquals(t.partitionBlocks(), sum.partitionBlocks());
    assertTrue(sum.toTensor().equal(Ops.add(x, y)));
    DistTensor diff = dy.apply(Ops::sub, t);
    assertArrayEquals(dy.partitionBlocks(), diff.partitionBlocks());
    assertTrue(diff.toTensor().equal(Ops.sub(y, x)));
    // the same blocks of a derived tensor are zipped as they are
    DistTensor twice = t.map(a -> Ops.mul(a, 2.0f));
    assertTrue(DistTensor.apply(Ops::sub, twice, t).toTensor().equal(Ops.sub(Ops.mul(x, 2.0f), x)));

    // reductions: exact ones bit for bit, floating sums within docs/scale-out.md's tolerance
    assertTrue(t.amax(0).equal(x.amax(0)));
    assertTrue(t.reduce(Ops.minimum).equal(Ops.minimum.reduce(x)));
    assertTrue(t.mean(0).allClose(x.mean(0), 1e-5, 1e-5, false));
    assertTrue(t.var(new int[] {0}, 1, false).allClose(x.var(new int[] {0}, 1, false),
        1e-5, 1e-5, false));
    assertTrue(t.sumToShape(16).allClose(x.sumToShape(16), 1e-5, 1e-5, false));
    // the data-parallel gradient of w in sum((x·w - y0)²), per block, summed
    Tensor w = Tensor.randn(46, DType.FLOAT32, 16);
    Tensor target = Tensor.randn(47, DType.FLOAT32, 500);
    DistTensor.BlockFn grad = a -> {
      Tensor wb = a[2].detach().requiresGrad(true);
      Tensor r = Ops.sub(Ops.mul(a[0], wb).sum(new int[] {1}, false), a[1]);
      Ops.mul(r, r).sum().backward();
      return wb.grad();
    };
    Tensor dist = DistTensor.sumBlocks(grad, t, DistTensor.of(sc, target, 2), w);
    Tensor whole = grad.apply(new Tensor[] {x, target, w});
    assertTrue(dist.allClose(whole, 1e-4, 1e-4, false), dist + " vs " + whole);

    // out again: a shard per block (not one per partition, which would overwrite its blocks),
    // and a DataFrame of every row in order
    Path out = dir.resolve("shards");
    t.writeNpy(out);
    try (Stream<Path> s = Files.list(out)) {
      assertEquals(9, s.count());
    }
    assertTrue(DistTensor.readNpy(sc, out).toTensor().equal(x));
    assertTrue(DistTensor.fromColumn(t.toDataFrame(spark, "f"), "f").toTensor().equal(x));
  }

  @Test
  void theSizeIsRefusedWhenNotASaneNumberOfBytes() {
    assertEquals(DistTensor.DEFAULT_MAX_BLOCK_BYTES, DistTensor.maxBlockBytes(sc));
    assertEquals(128L << 20, DistTensor.DEFAULT_MAX_BLOCK_BYTES);
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, "64m");
    assertEquals(64L << 20, DistTensor.maxBlockBytes(sc));
    Tensor x = Tensor.randn(48, DType.FLOAT32, 10, 2);
    Dataset<Row> df = spark.range(0, 10, 1, 2).selectExpr("cast(id AS float) AS v");
    String[][] cases = {
        {"0", "must be more than 0 and at most 2g", "= 0 bytes"},
        {"-5", "must be more than 0 and at most 2g", "got '-5'"},
        {"3g", "must be more than 0 and at most 2g", "= 3221225472 bytes"},
        {"lots", "must be a size in bytes", "got 'lots'"},
    };
    for (String[] c : cases) {
      sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, c[0]);
      for (IllegalArgumentException e : new IllegalArgumentException[] {
          refusedBeforeAnyJob(IllegalArgumentException.class, () -> DistTensor.of(sc, x, 2)),
          refusedBeforeAnyJob(IllegalArgumentException.class,
              () -> DistTensor.fromColumn(df, "v"))}) {
        assertTrue(e.getMessage().startsWith("spark.ufunc4j.maxBlockBytes " + c[1]),
            e.getMessage());
        assertTrue(e.getMessage().contains(c[2]), e.getMessage());
      }
    }
  }
}
