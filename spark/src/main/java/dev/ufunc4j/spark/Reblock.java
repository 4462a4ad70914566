package dev.ufunc4j.spark;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * Moves the rows of a {@link DistTensor} into other row blocks: a shuffle of row ranges. Each
 * source block sends every target block the rows it holds of it (a {@code narrow} of the block, no
 * copy before serialization), and each target block concatenates the pieces it receives in row
 * order. The result is the same tensor, bit for bit, with the target's blocks in the target's
 * partitions (several blocks per partition where the target has them); it moves (nearly)
 * every byte once through Spark's shuffle, which is what re-blocking costs over a zip of equally
 * blocked operands (docs/scale-out.md, "Operands with different blockings").
 */
final class Reblock {
  private Reblock() {}

  /** Sends the piece with key {@code j} (a target block) to the partition holding block j. */
  private static final class ByBlock extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int[] partitionOf;
    private final int partitions;

    ByBlock(int[] partitionOf, int partitions) {
      this.partitionOf = partitionOf;
      this.partitions = partitions;
    }

    @Override
    public int numPartitions() {
      return partitions;
    }

    @Override
    public int getPartition(Object key) {
      return partitionOf[(Integer) key];
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ByBlock b && b.partitions == partitions
          && Arrays.equals(b.partitionOf, partitionOf);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(partitionOf);
    }
  }

  /**
   * {@code d}'s rows in blocks of {@code to[j]} rows (which must sum to {@code d}'s rows),
   * partition {@code p} holding {@code partitionBlocks[p]} consecutive blocks.
   */
  static DistTensor to(DistTensor d, long[] to, int[] partitionBlocks) {
    long[] starts = new long[to.length];
    for (int i = 1; i < to.length; i++) {
      starts[i] = starts[i - 1] + to[i - 1];
    }
    int[] partitionOf = new int[to.length];
    int[] first = new int[partitionBlocks.length + 1];
    for (int p = 0; p < partitionBlocks.length; p++) {
      first[p + 1] = first[p] + partitionBlocks[p];
      Arrays.fill(partitionOf, first[p], first[p + 1], p);
    }
    DType dtype = d.dtype();
    long[] shape = d.shape();
    JavaRDD<Block> moved = d.blocks()
        .flatMapToPair(b -> {
          List<Tuple2<Integer, Block>> pieces = new ArrayList<>();
          long from = b.startRow;
          long end = from + b.rows();
          for (int j = 0; j < to.length; j++) {
            long lo = Math.max(from, starts[j]);
            long hi = Math.min(end, starts[j] + to[j]);
            if (hi > lo) {
              pieces.add(new Tuple2<>(j, new Block(lo, b.tensor.narrow(0, lo - from, hi - lo))));
            }
          }
          return pieces.iterator();
        })
        .partitionBy(new ByBlock(partitionOf, partitionBlocks.length))
        .mapPartitionsWithIndex((p, it) -> {
          // the partition's pieces, by target block, each block's in row order
          List<List<Block>> byBlock = new ArrayList<>();
          for (int j = first[p]; j < first[p + 1]; j++) {
            byBlock.add(new ArrayList<>());
          }
          it.forEachRemaining(t -> byBlock.get(t._1() - first[p]).add(t._2()));
          List<Block> out = new ArrayList<>(byBlock.size());
          for (int k = 0; k < byBlock.size(); k++) {
            List<Block> pieces = byBlock.get(k);
            pieces.sort(Comparator.comparingLong(piece -> piece.startRow));
            Tensor block;
            if (pieces.isEmpty()) {
              long[] s = shape.clone();
              s[0] = 0;
              block = Tensor.empty(dtype, s);
            } else if (pieces.size() == 1) {
              block = pieces.get(0).tensor;
            } else {
              block = Ops.cat(pieces.stream().map(piece -> piece.tensor).toList(), 0);
            }
            out.add(new Block(starts[first[p] + k], block));
          }
          return out.iterator();
        }, true);
    return DistTensor.ofBlocks(d.sparkContext(), moved, dtype, shape, to, partitionBlocks);
  }
}
