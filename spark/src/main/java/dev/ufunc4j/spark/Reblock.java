package dev.ufunc4j.spark;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * Moves the rows of a {@link DistTensor} into other row blocks: a shuffle of row ranges. Each
 * source block sends every target block the rows it holds of it (a {@code narrow} of the block, no
 * copy before serialization), and each target block concatenates the pieces it receives in row
 * order. The result is the same tensor, bit for bit, with the target's blocks; it moves (nearly)
 * every byte once through Spark's shuffle, which is what re-blocking costs over a zip of equally
 * blocked operands (docs/scale-out.md, "Operands with different blockings").
 */
final class Reblock {
  private Reblock() {}

  /** Sends the piece with key {@code j} to partition {@code j}. */
  private static final class ByIndex extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int n;

    ByIndex(int n) {
      this.n = n;
    }

    @Override
    public int numPartitions() {
      return n;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ByIndex b && b.n == n;
    }

    @Override
    public int hashCode() {
      return n;
    }
  }

  /**
   * {@code d}'s rows in blocks of {@code to[i]} rows (which must sum to {@code d}'s rows), one
   * block per partition.
   */
  static DistTensor to(DistTensor d, long[] to) {
    long[] starts = new long[to.length];
    for (int i = 1; i < to.length; i++) {
      starts[i] = starts[i - 1] + to[i - 1];
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
        .partitionBy(new ByIndex(to.length))
        .mapPartitionsWithIndex((j, it) -> {
          List<Block> pieces = new ArrayList<>();
          it.forEachRemaining(t -> pieces.add(t._2()));
          pieces.sort(Comparator.comparingLong(p -> p.startRow));
          Tensor block;
          if (pieces.isEmpty()) {
            long[] s = shape.clone();
            s[0] = 0;
            block = Tensor.empty(dtype, s);
          } else if (pieces.size() == 1) {
            block = pieces.get(0).tensor;
          } else {
            block = Ops.cat(pieces.stream().map(p -> p.tensor).toList(), 0);
          }
          return List.of(new Block(starts[j], block)).iterator();
        }, true);
    return DistTensor.ofBlocks(d.sparkContext(), moved, dtype, shape, to);
  }
}
