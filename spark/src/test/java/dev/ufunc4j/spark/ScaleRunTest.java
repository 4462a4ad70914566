package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import org.junit.jupiter.api.Test;

/**
 * The scale harness ({@link ScaleRun}, docs/scale-out.md's scale test) at 2 MiB, so that it keeps
 * working: the table from Spark SQL in several blocks per partition, every step's stages seen by
 * the listener, and the distributed results equal to the one-JVM ones (the table's first values
 * checked against the formula too, so that both sides cannot drift together).
 */
class ScaleRunTest extends SparkTestSession {
  @Test
  void theScaleHarnessRunsAtASmallSize() {
    ScaleRun.Distributed d = ScaleRun.distributed(2, 2, "128k");
    assertEquals(8192, d.rows());
    assertEquals(2, d.partitions());
    assertEquals(16, d.blockRows().length); // 4096 rows of 256 B per partition, 512 per block
    assertEquals(4, d.steps().size());
    for (ScaleRun.Step s : d.steps()) {
      assertTrue(!s.stages().isEmpty(), s.name() + " ran no stage");
    }
    // mean(0)'s tree shuffles the partials, nothing else does
    assertTrue(d.steps().get(2).shuffleWritten() > 0);
    ScaleRun.Local l = ScaleRun.local(d.rows(), d.blockRows());
    assertNull(ScaleRun.check(d, l));
    String table = ScaleRun.table(2, d, l, 2);
    assertTrue(table.contains("| **data-parallel gradient"), table);
    // the table's values are the formula's: row 3 of the Spark SQL column
    Tensor row3 = DistTensor.fromColumn(spark.range(0, 4, 1, 1)
        .selectExpr(ScaleRun.arrayExpression()), "x").toTensor().select(0, 3);
    for (int i = 0; i < ScaleRun.LENGTH; i++) {
      assertEquals(ScaleRun.value(3, i), row3.toFloatArray()[i], "element " + i);
    }
  }
}
