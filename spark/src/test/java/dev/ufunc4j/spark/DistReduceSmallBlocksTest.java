package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Every reduction of {@link DistReduceTest} again with several blocks per partition (a largest
 * block size of 1 KiB): the tree combines the partials in global block order, across and inside
 * partitions, and the results are the local ones (exactly, or within the documented tolerance).
 */
class DistReduceSmallBlocksTest extends DistReduceTest {
  /**
   * In one JVM only: on the cluster each of the hundreds of 1 KiB blocks of {@code DistTensor.of}
   * is a broadcast variable fetched by an executor (minutes at this machine's load);
   * SeveralBlocksTest covers several blocks per partition across JVMs.
   */
  @BeforeAll
  static void inOneJvm() {
    assumeFalse(clusterMode(), "local[2] only (SeveralBlocksTest runs on the cluster)");
  }

  @BeforeEach
  void smallBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, DistTensorSmallBlocksTest.SMALL);
  }

  @AfterEach
  void defaultBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, null);
  }
}
