package dev.ufunc4j.spark;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Every reduction of {@link DistReduceTest} again with several blocks per partition (a largest
 * block size of 1 KiB): the tree combines the partials in global block order, across and inside
 * partitions, and the results are the local ones (exactly, or within the documented tolerance).
 */
class DistReduceSmallBlocksTest extends DistReduceTest {
  @BeforeEach
  void smallBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, DistTensorSmallBlocksTest.SMALL);
  }

  @AfterEach
  void defaultBlocks() {
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, null);
  }
}
