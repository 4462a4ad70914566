package dev.ufunc4j.spark;

import dev.ufunc4j.BinaryUfunc;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * The reductions of a {@link DistTensor} across the cluster (docs/scale-out.md, "Reductions"):
 * every non-empty block reduces its own rows to a partial result that keeps every dim (dim 0 of
 * size 1), and the partials are combined in a two-level tree in block order — groups of about
 * {@code sqrt(blocks)} consecutive blocks on the executors, then the groups on the driver — so the
 * result does not depend on the order in which tasks finish: a rerun (or a recomputed lost block)
 * gives the same bits. Each reduction first runs the local call on a one-row proxy on the driver,
 * so a mistake is refused with the local message before any job, and the result's dtype and shape
 * are the local call's.
 */
final class DistReductions {
  private DistReductions() {}

  /** A block's partial result: its reduction over the dims, every dim kept. */
  @FunctionalInterface
  interface Partial extends Serializable {
    Tensor apply(Tensor block);
  }

  /** Partials in block order combined into one of the same form. */
  @FunctionalInterface
  interface Combine extends Serializable {
    Tensor apply(List<Tensor> ordered);
  }

  // ---- the reductions ---------------------------------------------------------------------------

  /** {@link DistTensor#reduce(BinaryUfunc, int[], boolean)}. */
  static Tensor reduce(DistTensor x, BinaryUfunc op, int[] dims, boolean keepDim) {
    if (op == null) {
      throw new IllegalArgumentException("DistTensor.reduce: op must not be null");
    }
    if (!op.isAssociative()) {
      throw new IllegalArgumentException("DistTensor.reduce: " + op.name() + " is not declared"
          + " associative (@Elementwise(associative = true)), so its fold cannot be split into"
          + " blocks and combined across the cluster; reduce it within the rows"
          + " (x.map(t -> op.reduce(t, dim)) for a dim other than 0), or gather it (toTensor())"
          + " and reduce locally");
    }
    int[] d = dims(dims);
    Tensor want = op.reduce(rowProxy(x), d, keepDim); // the local checks, dtype and shape
    requireRows(x, d, "reduce");
    DType work = foldDtype(op, x.dtype(), want.dtype());
    int[] first = {0};
    Tensor total = tree(x, b -> op.reduce(b.dtype() == work ? b : b.to(work), d, true),
        parts -> op.reduce(Tensor.cat(parts, 0), first, true));
    if (total == null) {
      return op.reduce(x.emptyRows(), d, keepDim); // the identity, or the local refusal
    }
    return finish(total, want);
  }

  /** {@link DistTensor#mean(int[], boolean)}: the sums, divided once by the count. */
  static Tensor mean(DistTensor x, int[] dims, boolean keepDim) {
    int[] d = dims(dims);
    Tensor want = rowProxy(x).mean(d, keepDim);
    requireRows(x, d, "mean");
    DType work = x.dtype() == DType.FLOAT16 || x.dtype() == DType.BFLOAT16 ? DType.FLOAT32
        : x.dtype(); // the local mean's accumulator
    int[] first = {0};
    Tensor total = tree(x, b -> b.to(work).sum(d, true),
        parts -> Tensor.cat(parts, 0).sum(first, true));
    if (total == null) {
      return x.emptyRows().mean(d, keepDim);
    }
    return finish(total.div(count(x, d)), want);
  }

  /** {@link DistTensor#amax(int[], boolean)} and {@code amin}: exact in any order. */
  static Tensor extreme(DistTensor x, int[] dims, boolean keepDim, boolean max) {
    int[] d = dims(dims);
    Tensor want = max ? rowProxy(x).amax(d, keepDim) : rowProxy(x).amin(d, keepDim);
    requireRows(x, d, max ? "amax" : "amin");
    if (x.shape()[0] == 0) {
      return max ? x.emptyRows().amax(d, keepDim) : x.emptyRows().amin(d, keepDim); // refused
    }
    int[] first = {0};
    Tensor total = tree(x, b -> max ? b.amax(d, true) : b.amin(d, true),
        parts -> max ? Tensor.cat(parts, 0).amax(first, true)
            : Tensor.cat(parts, 0).amin(first, true));
    return finish(total, want);
  }

  /**
   * {@link DistTensor#logsumexp(int[], boolean)}: each block's {@code logsumexp}, then the {@code
   * logsumexp} of those ({@code log Σ e^x = log Σ_blocks e^(log Σ_block e^x)}), each with the
   * local call's shift by the maximum.
   */
  static Tensor logsumexp(DistTensor x, int[] dims, boolean keepDim) {
    int[] d = dims(dims);
    Tensor want = rowProxy(x).logsumexp(d, keepDim);
    requireRows(x, d, "logsumexp");
    if (x.shape()[0] == 0) {
      return x.emptyRows().logsumexp(d, keepDim); // refused, as the local call
    }
    int[] first = {0};
    Tensor total = tree(x, b -> b.logsumexp(d, true),
        parts -> Tensor.cat(parts, 0).logsumexp(first, true));
    return finish(total, want);
  }

  /**
   * {@link DistTensor#var(int[], double, boolean)} and {@code std}: Chan, Golub and LeVeque's
   * parallel combination. Each block computes, in float64, its count {@code n}, mean and {@code
   * M2 = Σ (x - mean)²} (two passes over its own rows, in memory); two partials combine as {@code
   * n = nA + nB}, {@code δ = meanB - meanA}, {@code mean = meanA + δ·nB/n}, {@code M2 = M2A + M2B
   * + δ²·nA·nB/n}. One pass over the data (a two-pass scheme would read every block twice, or need
   * it cached, and ship the global mean back), and no cancellation of {@code Σx² - n·mean²}.
   */
  static Tensor var(DistTensor x, int[] dims, double correction, boolean keepDim, boolean std) {
    int[] d = dims(dims);
    int[] over = d.length == 0 ? null : d; // the local var's "all dims"
    Tensor proxy = rowProxy(x);
    Tensor want = std ? proxy.std(over, correction, keepDim)
        : proxy.var(over, correction, keepDim);
    requireRows(x, d, std ? "std" : "var");
    long perRow = count(x, d) / Math.max(1, x.shape()[0]);
    long n = count(x, d);
    Tensor total = tree(x, b -> {
      Tensor v = b.to(DType.FLOAT64);
      Tensor mean = v.mean(over, true);
      Tensor centred = v.sub(mean);
      Tensor m2 = centred.mul(centred).sum(over, true);
      Tensor count = Tensor.full(DType.FLOAT64, (double) (b.shape()[0] * perRow), mean.shape());
      return Tensor.cat(List.of(count, mean, m2), 0);
    }, DistReductions::chan);
    if (total == null) {
      Tensor empty = x.emptyRows();
      return std ? empty.std(over, correction, keepDim) : empty.var(over, correction, keepDim);
    }
    Tensor variance = total.narrow(0, 2, 1).div(Math.max(0.0, n - correction)).to(x.dtype());
    return finish(std ? variance.sqrt() : variance, want);
  }

  /** Chan's combination of {@code [n, mean, M2]} partials, in block order. */
  private static Tensor chan(List<Tensor> parts) {
    Tensor acc = parts.get(0);
    for (int i = 1; i < parts.size(); i++) {
      Tensor p = parts.get(i);
      Tensor nA = acc.narrow(0, 0, 1);
      Tensor nB = p.narrow(0, 0, 1);
      Tensor n = nA.add(nB);
      Tensor delta = p.narrow(0, 1, 1).sub(acc.narrow(0, 1, 1));
      Tensor mean = acc.narrow(0, 1, 1).add(delta.mul(nB).div(n));
      Tensor m2 = acc.narrow(0, 2, 1).add(p.narrow(0, 2, 1))
          .add(delta.mul(delta).mul(nA).mul(nB).div(n));
      acc = Tensor.cat(List.of(n, mean, m2), 0);
    }
    return acc;
  }

  // ---- the tree ---------------------------------------------------------------------------------

  /**
   * The partials of every non-empty block combined in block order, in two levels: groups of
   * {@code ceil(sqrt(blocks))} consecutive blocks on the executors (a shuffle of partials the
   * size of the result), the groups on the driver. Null when every block is empty.
   */
  static Tensor tree(DistTensor x, Partial partial, Combine combine) {
    int fanIn = Math.max(2, (int) Math.ceil(Math.sqrt(x.numBlocks())));
    int[] first = x.firstBlocks();
    JavaRDD<Block> partials = x.blocks().mapPartitionsWithIndex((partition, it) -> {
      List<Block> out = new ArrayList<>();
      int index = first[partition]; // the global index of the partition's first block
      while (it.hasNext()) {
        Block b = it.next();
        if (b.tensor.shape()[0] > 0) {
          out.add(new Block(index, partial.apply(b.tensor))); // startRow: the block's index
        }
        index++;
      }
      return out.iterator();
    }, true);
    List<Tuple2<Integer, Block>> groups = SparkJobs.run(() -> partials
        .mapToPair(b -> new Tuple2<>((int) (b.startRow / fanIn), b))
        .groupByKey()
        .mapValues(blocks -> {
          List<Block> ordered = new ArrayList<>();
          blocks.forEach(ordered::add);
          ordered.sort(Comparator.comparingLong(b -> b.startRow));
          return new Block(-1, combine.apply(ordered.stream().map(b -> b.tensor).toList()));
        })
        .collect());
    if (groups.isEmpty()) {
      return null;
    }
    List<Tuple2<Integer, Block>> sorted = new ArrayList<>(groups);
    sorted.sort(Comparator.comparingInt(Tuple2::_1));
    return sorted.size() == 1 ? sorted.get(0)._2().tensor
        : combine.apply(sorted.stream().map(g -> g._2().tensor).toList());
  }

  // ---- shared -----------------------------------------------------------------------------------

  private static int[] dims(int[] dims) {
    return dims == null ? new int[0] : dims.clone();
  }

  /**
   * One row of zeros with the trailing shape, as a stride-0 view (no element memory): the local
   * call on it checks dims, dtypes and options and gives the result's dtype and shape (which do
   * not depend on the number of rows once dim 0 is reduced).
   */
  private static Tensor rowProxy(DistTensor x) {
    long[] shape = x.shape();
    shape[0] = 1;
    return Tensor.zeros(x.dtype()).expand(shape);
  }

  /** Refuses dims that leave the sharded dim 0: the result would stay distributed. */
  private static void requireRows(DistTensor x, int[] dims, String method) {
    if (dims.length == 0) {
      return;
    }
    for (int d : dims) {
      if (d == 0 || d == -x.ndim()) {
        return;
      }
    }
    throw new IllegalArgumentException("DistTensor." + method + ": dims " + Arrays.toString(dims)
        + " do not include the sharded dimension 0, so the result would stay distributed:"
        + " reduce within each block's rows with map(t -> ...), which keeps the row blocks");
  }

  /** The number of elements each result element reduces over. */
  private static long count(DistTensor x, int[] dims) {
    long[] shape = x.shape();
    boolean[] reduced = new boolean[shape.length];
    Arrays.fill(reduced, dims.length == 0);
    for (int d : dims) {
      reduced[d < 0 ? d + shape.length : d] = true;
    }
    long n = 1;
    for (int i = 0; i < shape.length; i++) {
      if (reduced[i]) {
        n *= shape[i];
      }
    }
    return n;
  }

  /**
   * The dtype blocks fold in: float32 for a 16-bit result the op also computes in float32 (the
   * local fold carries it so and rounds once), else the input's own.
   */
  private static DType foldDtype(BinaryUfunc op, DType input, DType result) {
    if ((result == DType.FLOAT16 || result == DType.BFLOAT16) && input == result) {
      try {
        if (op.reduce(Tensor.zeros(DType.FLOAT32, 1)).dtype() == DType.FLOAT32) {
          return DType.FLOAT32;
        }
      } catch (IllegalArgumentException noFloat32Kernel) {
        // an op generated for the 16-bit dtype only folds in it
      }
    }
    return input;
  }

  /** The combined partial as the local call's result: its dtype, its shape. */
  private static Tensor finish(Tensor total, Tensor want) {
    Tensor t = total.dtype() == want.dtype() ? total : total.to(want.dtype());
    return t.reshape(want.shape()).contiguous();
  }
}
