package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Every test of {@link DistTensorTest} again with a largest block size of 1 KiB ({@link
 * DistTensor#MAX_BLOCK_BYTES} as a Spark local property of the test's thread), so that most
 * partitions hold several blocks: apply with broadcasting, zipped and re-blocked operands, the
 * sums and the data-parallel gradient must give the local results as with one block per
 * partition, and every block must stay within the size ({@code assertPartitionRows}).
 */
class DistTensorSmallBlocksTest extends DistTensorTest {
  /**
   * In one JVM only: on the cluster each of the hundreds of 1 KiB blocks of {@code DistTensor.of}
   * is a broadcast variable fetched by an executor (minutes at this machine's load);
   * SeveralBlocksTest covers several blocks per partition across JVMs.
   */
  @BeforeAll
  static void inOneJvm() {
    assumeFalse(clusterMode(), "local[2] only (SeveralBlocksTest runs on the cluster)");
  }

  /** 1 KiB: a [1001, 64] float32 tensor in 3 partitions is 251 blocks of at most 4 rows. */
  static final String SMALL = "1k";

  @BeforeEach
  void smallBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, SMALL);
  }

  @AfterEach
  void defaultBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, null);
  }
}
