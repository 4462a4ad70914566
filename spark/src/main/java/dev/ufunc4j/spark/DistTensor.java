package dev.ufunc4j.spark;

import dev.ufunc4j.BinaryUfunc;
import dev.ufunc4j.Broadcast;
import dev.ufunc4j.BroadcastException;
import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.nio.file.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * A tensor sharded along its first dimension into row blocks, each block a local {@link Tensor}
 * in an executor: one block per Spark partition, or several where a partition would exceed the
 * largest block size ({@link #MAX_BLOCK_BYTES}). The driver knows the global shape and dtype, the
 * number of rows in each block and how many blocks each partition holds; the elements stay on the
 * executors until {@link #toTensor()} (or a reduction) brings a result back.
 *
 * <p><b>Every op, local semantics.</b> {@link #apply(Op2, Object, Object)} and its one- and
 * three-operand forms take any ufunc4j op — a built-in ({@code Ops::add}) or a user's generated
 * facade method ({@code LossesOps::huber}) — and run it once per block, never once per row, with
 * exactly the local promotion and broadcasting rules:
 *
 * <ul>
 *   <li>a local {@link Tensor} operand is shipped once per executor as a Spark broadcast variable
 *       (broadcasting in both senses); when it has the distributed operand's rank and its first
 *       dimension is the sharded one (not 1), each block gets its own rows of it;
 *   <li>two or more distributed operands must have the same number of rows; their blocks are
 *       zipped, partition by partition, with no shuffle when their row blocks are the same, and
 *       the other operands are first re-blocked to the first distributed operand's blocks (a
 *       shuffle of row ranges) when they differ: the result has the first one's blocks;
 *   <li>the result keeps the sharded dimension first, so a local operand of higher rank than the
 *       distributed ones is refused.
 * </ul>
 *
 * <p>Before any job runs, the driver calls the op on proxies (distributed operands as zero-row
 * tensors of their dtype and trailing shape): a promotion or broadcasting mistake is refused there
 * with the very message the local call gives, and the result's dtype and shape come from the op
 * itself. Ops, results and blocks are deterministic, so Spark may recompute a lost block from its
 * lineage (docs/scale-out.md).
 *
 * <p><b>Every block is checked.</b> On the executor, right after the op, each block's result is
 * checked against that prediction: the block's own rows, the trailing shape and dtype of the op's
 * result on zero rows. An op that changes a block's rows, trailing shape or dtype, or returns
 * null, fails the job with an {@link IllegalArgumentException} naming the block, its rows and
 * both shapes; nothing is gathered, summed or written from it.
 *
 * <p><b>Failures keep their type.</b> An action whose job fails in a task ({@link #toTensor()},
 * the sums, {@link #sumBlocks}, {@link #materialize()}, {@link #writeNpy}, the readers' first job)
 * throws the task's own exception — the type and message the local call gives ({@link
 * IllegalArgumentException}, {@link BroadcastException}, {@link ArithmeticException} for an
 * integral division by zero, ...) or {@link IOException} from the shard readers and writers —
 * with Spark's {@code SparkException} attached as suppressed; any other failure (a lost executor
 * beyond retries, a cancelled job) stays Spark's {@code SparkException}.
 *
 * <p>Instances are immutable and live on the driver; they are not serializable.
 */
public final class DistTensor {

  /** A one-operand op, {@code Ops::neg} or {@code t -> Ops.mul(t, 2.0)}; serializable for Spark. */
  @FunctionalInterface
  public interface Op1 extends Serializable {
    /**
     * The op on one block.
     *
     * @param a the block
     * @return the result's block
     */
    Tensor apply(Tensor a);
  }

  /** A two-operand op, {@code Ops::add} or a user's {@code LossesOps::huber}. */
  @FunctionalInterface
  public interface Op2 extends Serializable {
    /**
     * The op on one block of each operand.
     *
     * @param a the first operand's block
     * @param b the second operand's block
     * @return the result's block
     */
    Tensor apply(Tensor a, Tensor b);
  }

  /**
   * A two-operand op whose second operand is a Java number, {@code Ops::add} as {@code
   * Ops.add(Tensor, Number)} (every generated facade has this form); serializable for Spark.
   */
  @FunctionalInterface
  public interface OpNumber extends Serializable {
    /**
     * The op on one block and the number.
     *
     * @param a the block
     * @param b the number
     * @return the result's block
     */
    Tensor apply(Tensor a, Number b);
  }

  /** A three-operand op, {@code Ops::where} or a user's three-operand op. */
  @FunctionalInterface
  public interface Op3 extends Serializable {
    /**
     * The op on one block of each operand.
     *
     * @param a the first operand's block
     * @param b the second operand's block
     * @param c the third operand's block
     * @return the result's block
     */
    Tensor apply(Tensor a, Tensor b, Tensor c);
  }

  /**
   * A computation on one row block of each operand (distributed operands' blocks, local operands
   * whole or sliced to the block's rows, in the order given) returning a tensor whose shape does
   * not depend on the block: {@link #sumBlocks} adds these up across the cluster. A data-parallel
   * training step is one: the block's loss, backward, the parameter's gradient.
   */
  @FunctionalInterface
  public interface BlockFn extends Serializable {
    /**
     * The computation on one block of each operand.
     *
     * @param operands the operands' blocks, in the order the operands were given
     * @return the block's tensor, of the same shape for every block
     */
    Tensor apply(Tensor[] operands);
  }

  /**
   * The Spark configuration key of the largest block, in bytes of elements: a partition whose
   * rows would make a larger block (a DataFrame partition read by {@link #fromColumn}, a
   * partition of {@link #of}) is held as several blocks of at most this size, so that a kernel
   * call's input and result, a serialized block and a cached one stay within executor memory
   * whatever the partitioning. Spark's size syntax ({@code 128m}, {@code 1g}, {@code 4k}; a plain
   * number is bytes); default {@value #DEFAULT_MAX_BLOCK_BYTES} bytes (128 MiB). Set it in the
   * Spark configuration ({@code --conf spark.ufunc4j.maxBlockBytes=64m}) or, for one thread's
   * calls, as a Spark local property ({@code sc.setLocalProperty(MAX_BLOCK_BYTES, "64m")}), which
   * wins. A single row larger than it makes a block of one row (rows are never split).
   */
  public static final String MAX_BLOCK_BYTES = "spark.ufunc4j.maxBlockBytes";

  /** The default of {@link #MAX_BLOCK_BYTES}: 128 MiB, the middle of docs/scale-out.md's range. */
  public static final long DEFAULT_MAX_BLOCK_BYTES = 128L << 20;

  /**
   * The largest {@link #MAX_BLOCK_BYTES} accepted, 2 GiB: a block, its result and a serialization
   * buffer must fit in an executor several times over, and a table's partition is read through
   * Java arrays (at most 2^31 - 1 elements).
   */
  static final long MAX_BLOCK_BYTES_LIMIT = 2L << 30;

  private final JavaSparkContext sc;
  private final JavaRDD<Block> blocks;
  private final DType dtype;
  private final long[] shape;
  private final long[] blockRows;
  /** How many consecutive blocks each partition holds, in partition order (sums to blocks). */
  private final int[] partitionBlocks;

  private DistTensor(JavaSparkContext sc, JavaRDD<Block> blocks, DType dtype, long[] shape,
      long[] blockRows, int[] partitionBlocks) {
    this.sc = sc;
    this.blocks = blocks;
    this.dtype = dtype;
    this.shape = shape;
    this.blockRows = blockRows;
    this.partitionBlocks = partitionBlocks;
  }

  /**
   * For the readers in {@link SparkTensors} and {@link Reblock}: blocks already carry their start
   * rows; partition {@code p} yields {@code partitionBlocks[p]} consecutive blocks.
   */
  static DistTensor ofBlocks(JavaSparkContext sc, JavaRDD<Block> blocks, DType dtype,
      long[] shape, long[] blockRows, int[] partitionBlocks) {
    return new DistTensor(
        sc, blocks, dtype, shape.clone(), blockRows.clone(), partitionBlocks.clone());
  }

  /**
   * {@return the largest block in bytes for calls on this thread: the local property {@link
   * #MAX_BLOCK_BYTES}, else the Spark configuration's, else {@link #DEFAULT_MAX_BLOCK_BYTES}}
   *
   * @param sc the Spark context
   * @throws IllegalArgumentException when the value is not a size, is at most 0 or above 2 GiB
   *     (naming the value)
   */
  public static long maxBlockBytes(JavaSparkContext sc) {
    if (sc == null) {
      throw new IllegalArgumentException("DistTensor.maxBlockBytes: sc must not be null");
    }
    String value = sc.getLocalProperty(MAX_BLOCK_BYTES);
    if (value == null) {
      value = sc.getConf().get(MAX_BLOCK_BYTES, null);
    }
    if (value == null) {
      return DEFAULT_MAX_BLOCK_BYTES;
    }
    long bytes;
    try {
      // a plain (possibly negative) number is bytes; else Spark's size syntax (128m, 1g)
      bytes = value.trim().matches("-?[0-9]+") ? Long.parseLong(value.trim())
          : org.apache.spark.network.util.JavaUtils.byteStringAsBytes(value.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(MAX_BLOCK_BYTES + " must be a size in bytes (128m, 1g,"
          + " 4096), got '" + value + "'", e);
    }
    if (bytes <= 0 || bytes > MAX_BLOCK_BYTES_LIMIT) {
      throw new IllegalArgumentException(MAX_BLOCK_BYTES + " must be more than 0 and at most 2g"
          + " (a block must fit in an executor's memory several times over), got '" + value
          + "' = " + bytes + " bytes");
    }
    return bytes;
  }

  /**
   * {@code rows} rows of {@code rowBytes} bytes each split into the fewest near-equal blocks of at
   * most {@code maxBytes} bytes (the first ones one row longer), at least one row per block
   * (a row is never split) and at least one block (of zero rows when {@code rows} is 0).
   */
  static long[] splitRows(long rows, long rowBytes, long maxBytes) {
    long perBlock = rowBytes == 0 ? Math.max(1, rows) : Math.max(1, maxBytes / rowBytes);
    int k = (int) Math.max(1, Math.ceilDiv(rows, perBlock));
    long[] out = new long[k];
    for (int i = 0; i < k; i++) {
      out[i] = rows / k + (i < rows % k ? 1 : 0);
    }
    return out;
  }

  /** Bytes of one row of a tensor of {@code shape} (dim 0 is the rows). */
  static long rowBytes(DType dtype, long[] shape) {
    long n = dtype.byteSize();
    for (int i = 1; i < shape.length; i++) {
      n *= shape[i];
    }
    return n;
  }

  /** One block per partition. */
  static int[] onePerPartition(int partitions) {
    int[] out = new int[partitions];
    Arrays.fill(out, 1);
    return out;
  }

  /** The global index of partition {@code p}'s first block, for each p, and the total last. */
  int[] firstBlocks() {
    int[] first = new int[partitionBlocks.length + 1];
    for (int p = 0; p < partitionBlocks.length; p++) {
      first[p + 1] = first[p] + partitionBlocks[p];
    }
    return first;
  }

  /** {@code f} over {@code it}, one element at a time (a partition's blocks are not all held). */
  static <A, B> Iterator<B> lazily(Iterator<A> it, java.util.function.Function<A, B> f) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public B next() {
        return f.apply(it.next());
      }
    };
  }

  // ============================================================================================
  // From and to a local tensor
  // ============================================================================================

  /**
   * Shards {@code tensor} along its first dimension into {@code numBlocks} Spark partitions of
   * near-equal rows (the first {@code rows % numBlocks} get one row more), one row block each;
   * fewer when the tensor has fewer rows ({@code torch.chunk} does the same), but always at least
   * one. A partition larger than {@link #maxBlockBytes} holds several near-equal blocks of at
   * most that size. The blocks are copied out of {@code tensor} now, each into a Spark
   * broadcast variable that the driver keeps (so a lost block is fetched again) and an executor
   * fetches once; for data larger than the driver's memory, read {@code .npy} shards or a
   * DataFrame column on the executors instead ({@link SparkTensors}).
   *
   * @param sc the Spark context
   * @param tensor the local tensor
   * @param numBlocks the number of partitions (row blocks, when each fits the largest block size)
   * @return the distributed tensor
   * @throws IllegalArgumentException when an argument is null, {@code tensor} is zero-dim,
   *     {@code numBlocks < 1} or {@link #MAX_BLOCK_BYTES} is refused
   */
  public static DistTensor of(JavaSparkContext sc, Tensor tensor, int numBlocks) {
    if (sc == null || tensor == null) {
      throw new IllegalArgumentException(
          "DistTensor.of: " + (sc == null ? "sc" : "tensor") + " must not be null");
    }
    if (tensor.ndim() == 0) {
      throw new IllegalArgumentException(
          "DistTensor.of: a zero-dim tensor has no rows to shard; give it a first dimension"
              + " (tensor.unsqueeze(0))");
    }
    if (numBlocks < 1) {
      throw new IllegalArgumentException(
          "DistTensor.of: numBlocks must be at least 1, got " + numBlocks);
    }
    long maxBytes = maxBlockBytes(sc);
    long rows = tensor.shape()[0];
    long rowBytes = rowBytes(tensor.dtype(), tensor.shape());
    int n = (int) Math.max(1, Math.min(numBlocks, rows));
    int[] partitionBlocks = new int[n];
    List<Long> blockRows = new ArrayList<>();
    List<org.apache.spark.broadcast.Broadcast<Block>> shipped = new ArrayList<>();
    List<Integer> indices = new ArrayList<>(n);
    long start = 0;
    for (int i = 0; i < n; i++) {
      long[] split = splitRows(rows / n + (i < rows % n ? 1 : 0), rowBytes, maxBytes);
      partitionBlocks[i] = split.length;
      for (long r : split) {
        blockRows.add(r);
        shipped.add(sc.broadcast(new Block(start, tensor.detach().narrow(0, start, r).copy())));
        start += r;
      }
      indices.add(i);
    }
    // Each block travels as a broadcast variable of its own, fetched once by the executor that
    // runs its partition, one block at a time. Parallelizing the blocks themselves would put them
    // inside the RDD's partitions, which Spark serializes into every task of every later job.
    DistTensor layout = new DistTensor(sc, null, tensor.dtype(), tensor.shape(),
        blockRows.stream().mapToLong(Long::longValue).toArray(), partitionBlocks);
    int[] first = layout.firstBlocks();
    JavaRDD<Block> blocks = sc.parallelize(indices, n).mapPartitions(it -> {
      List<Integer> mine = new ArrayList<>();
      it.forEachRemaining(p -> {
        for (int j = first[p]; j < first[p + 1]; j++) {
          mine.add(j);
        }
      });
      return lazily(mine.iterator(), j -> shipped.get(j).value());
    });
    return new DistTensor(sc, blocks, layout.dtype, layout.shape, layout.blockRows,
        partitionBlocks);
  }

  /**
   * {@return the column {@code column} of {@code df}, one block per partition (several where a
   * partition exceeds {@link #maxBlockBytes}): rank 1 for a numeric column, {@code [rows, length]}
   * for an {@code array<...>} column whose arrays all have the same length (bool, int8/16/32/64,
   * float32/64 element types)} Reads the column once (a job that counts each block's rows) and
   * keeps the blocks cached in executor memory.
   *
   * @param df the data frame
   * @param column the column's name
   * @throws IllegalArgumentException when an argument is null, the column does not exist or its
   *     type has no dtype or {@link #MAX_BLOCK_BYTES} is refused; on that first job, when a value
   *     is null or the arrays' lengths differ (the message names the partition and the row)
   */
  public static DistTensor fromColumn(Dataset<Row> df, String column) {
    return SparkTensors.fromColumn(df, column);
  }

  /**
   * {@return the {@code .npy} files in {@code dir}, in file-name order, each file one block read by
   * an executor ({@code dir} must be visible to every executor)} The files must agree in dtype and
   * in every dimension but the first; the blocks are cached in executor memory.
   *
   * @param sc the Spark context
   * @param dir the directory of shards
   * @throws IllegalArgumentException when an argument is null, {@code dir} holds no {@code .npy}
   *     file, or the files disagree (naming the blocks)
   * @throws IOException when {@code dir} cannot be listed or a file cannot be read ({@link
   *     dev.ufunc4j.Npy#read}'s message, naming the file)
   */
  public static DistTensor readNpy(JavaSparkContext sc, Path dir) throws IOException {
    return SparkTensors.readShards(sc, dir, SparkTensors.ShardFormat.NPY);
  }

  /**
   * {@return the Arrow IPC files ({@code .arrow}, Feather v2) in {@code dir}, in file-name order,
   * each file one block read by an executor, memory-mapped without a copy ({@code dir} must be
   * visible to every executor)} Each file holds one column (as {@link #writeArrow} writes them,
   * or pyarrow, Polars or DuckDB wrote them: a primitive column is a rank-1 block, an {@code
   * arrow.fixed_shape_tensor} or fixed-size-list column a block of rank 2 or more; types as in
   * docs/arrow.md). The files must agree in dtype and in every dimension but the first; the
   * blocks are cached in executor memory.
   *
   * @param sc the Spark context
   * @param dir the directory of shards
   * @throws IllegalArgumentException when an argument is null, {@code dir} holds no {@code
   *     .arrow} file, the files disagree (naming the blocks), or a file is refused ({@code
   *     ArrowIpc.read}'s message, naming the file: several columns, a null, compression, ...)
   * @throws IOException when {@code dir} cannot be listed or a file cannot be opened
   */
  public static DistTensor readArrow(JavaSparkContext sc, Path dir) throws IOException {
    return SparkTensors.readShards(sc, dir, SparkTensors.ShardFormat.ARROW);
  }

  /**
   * {@return a DataFrame of one column named {@code column}, one row per row of this tensor (a
   * numeric column for rank 1, an array column for rank 2), one partition per partition of this
   * tensor} The DataFrame
   * is lazy: a block that fails (an op that broke its shape, a value an op refused) fails the
   * caller's own action on it, with Spark's exception as any DataFrame action.
   *
   * @param spark the Spark session
   * @param column the column's name
   * @throws IllegalArgumentException when the rank is not 1 or 2 or the dtype has no Spark SQL type
   */
  public Dataset<Row> toDataFrame(SparkSession spark, String column) {
    return SparkTensors.toDataFrame(spark, this, column);
  }

  /**
   * Writes each block to {@code dir} as {@code part-00000.npy}, {@code part-00001.npy}, ...,
   * each atomically ({@link dev.ufunc4j.Npy#write}); refused when {@code dir} already holds
   * {@code .npy} files. The shards appear only once every block is written: a failed block leaves
   * none behind (docs/scale-out.md).
   *
   * @param dir the directory of shards
   * @throws IllegalArgumentException when {@code dir} already holds {@code .npy} files, the dtype
   *     has no {@code .npy} form, or an op broke a block (naming it)
   * @throws IOException when a shard cannot be written
   */
  public void writeNpy(Path dir) throws IOException {
    SparkTensors.writeShards(this, dir, SparkTensors.ShardFormat.NPY);
  }

  /**
   * Writes each block to {@code dir} as an Arrow IPC file, {@code part-00000.arrow}, {@code
   * part-00001.arrow}, ..., of one column named {@code tensor} (rank 1: a primitive column; rank
   * 2 or more: an {@code arrow.fixed_shape_tensor} column), which pyarrow ({@code
   * pyarrow.dataset.dataset(dir, format="arrow")}), Polars and DuckDB read; refused when {@code
   * dir} already holds {@code .arrow} files. As {@link #writeNpy}, the shards appear only once
   * every block is written.
   *
   * @param dir the directory of shards
   * @throws IllegalArgumentException when {@code dir} already holds {@code .arrow} files, the
   *     dtype has no Arrow type (bfloat16, complex, float8), or an op broke a block (naming it)
   * @throws IOException when a shard cannot be written
   */
  public void writeArrow(Path dir) throws IOException {
    SparkTensors.writeShards(this, dir, SparkTensors.ShardFormat.ARROW);
  }

  /**
   * {@return the whole tensor on the driver: the blocks collected in order into one contiguous
   * tensor} Mind its size: the driver must hold it.
   *
   * @throws IllegalArgumentException when an op broke a block's shape or dtype (naming the block),
   *     or the exception an op threw on a block (the class comment)
   */
  public Tensor toTensor() {
    List<Block> collected = SparkJobs.run(blocks::collect);
    Tensor out = Tensor.empty(dtype, shape);
    long rowBytes = out.numel() == 0 ? 0 : out.numel() / Math.max(1, shape[0]) * dtype.byteSize();
    for (Block b : collected) {
      Tensor t = b.tensor;
      MemorySegment.copy(
          t.segment(), t.offset() * dtype.byteSize(),
          out.segment(), b.startRow * rowBytes,
          b.dataBytes());
    }
    return out;
  }

  // ============================================================================================
  // What the driver knows
  // ============================================================================================

  /** {@return the global shape (a copy); dimension 0 is the sharded one} */
  public long[] shape() {
    return shape.clone();
  }

  /** {@return the dtype of every block} */
  public DType dtype() {
    return dtype;
  }

  /** {@return the number of dimensions (at least 1: dimension 0 is the sharded one)} */
  public int ndim() {
    return shape.length;
  }

  /** {@return number of elements of the global tensor} */
  public long numel() {
    long n = 1;
    for (long s : shape) {
      n = Math.multiplyExact(n, s);
    }
    return n;
  }

  /** {@return number of row blocks (the Spark partitions' blocks, all together)} */
  public int numBlocks() {
    return blockRows.length;
  }

  /** {@return number of Spark partitions (at most {@link #numBlocks()})} */
  public int numPartitions() {
    return partitionBlocks.length;
  }

  /**
   * Rows in each block, in order (a copy). Distributed operands with the same blocks in the same
   * partitions are zipped; others are re-blocked to the first one's.
   *
   * @return the result
   */
  public long[] blockRows() {
    return blockRows.clone();
  }

  /**
   * How many consecutive blocks each partition holds, in partition order (a copy): all 1 unless
   * a partition would exceed {@link #maxBlockBytes}.
   *
   * @return the result
   */
  public int[] partitionBlocks() {
    return partitionBlocks.clone();
  }

  /** Whether {@code other} has the same blocks in the same partitions (zipped as they are). */
  private boolean sameLayout(DistTensor other) {
    return Arrays.equals(blockRows, other.blockRows)
        && Arrays.equals(partitionBlocks, other.partitionBlocks);
  }

  /** {@return the Spark context the blocks belong to} */
  public JavaSparkContext sparkContext() {
    return sc;
  }

  /**
   * Keeps the blocks in executor memory once computed ({@code MEMORY_ONLY}, as {@code
   * RDD.cache}), so that iterating over the same data (training epochs) does not recompute or
   * re-read it. Returns this tensor.
   *
   * @return the result
   */
  public DistTensor cache() {
    blocks.persist(StorageLevel.MEMORY_ONLY());
    return this;
  }

  /**
   * Computes every block now and keeps them in executor memory ({@link #cache()} plus a Spark
   * action that ships nothing back): the next ops start from computed blocks, and the time of
   * this call is the time of the work so far. Returns this tensor.
   *
   * @return the result
   */
  public DistTensor materialize() {
    cache();
    SparkJobs.run(() -> {
      blocks.foreach(b -> { });
      return null;
    });
    return this;
  }

  /** The blocks, for {@link SparkTensors}' writers. */
  JavaRDD<Block> blocks() {
    return blocks;
  }

  @Override
  public String toString() {
    return "DistTensor(" + dtype.torchName() + " " + Arrays.toString(shape) + ", "
        + blockRows.length + " blocks"
        + (partitionBlocks.length == blockRows.length ? ""
            : " in " + partitionBlocks.length + " partitions") + ")";
  }

  // ============================================================================================
  // Elementwise ops
  // ============================================================================================

  /**
   * {@code op(this)} block by block: {@code x.map(Ops::exp)}, {@code x.map(t -> Ops.mul(t, 2.0))}.
   * The result has this tensor's row blocks; its dtype and trailing shape are those of the op's
   * result on zero rows, and every block's result is checked against them (the class comment).
   *
   * @param op the op, applied block by block
   * @return the result
   */
  public DistTensor map(Op1 op) {
    requireOp(op, "map");
    return applyBlocks("map", args -> op.apply(args[0]), this);
  }

  /**
   * {@code op(this, other)} block by block, {@code other} a local tensor broadcast to every block
   * (or sliced to each block's rows): {@code x.apply(Ops::add, bias)}.
   *
   * @param op the op, applied block by block
   * @param other the other operand
   * @return the result
   * @throws IllegalArgumentException (or the op's own exception, such as {@link
   *     BroadcastException} or a promotion error, with the local message) before any job runs
   */
  public DistTensor apply(Op2 op, Tensor other) {
    return apply(op, this, requireOperand(other, "apply"));
  }

  /**
   * {@code op(this, other)} block by block, {@code other} distributed with the same number of
   * rows: {@code x.apply(Ops::mul, y)}. The blocks are zipped (no shuffle) when {@code other} has
   * this tensor's row blocks; otherwise {@code other} is first re-blocked to them (a shuffle of
   * row ranges), and the result has this tensor's blocks.
   *
   * @param op the op, applied block by block
   * @param other the other operand
   * @return the result
   * @throws IllegalArgumentException (or the op's own exception, with the local message) before
   *     any job runs
   */
  public DistTensor apply(Op2 op, DistTensor other) {
    return apply(op, this, requireOperand(other, "apply"));
  }

  /**
   * {@code op(this, other)} block by block with a Java number, through the op's own {@code
   * (Tensor, Number)} form: {@code x.apply(Ops::add, 2)} is {@code Ops.add(block, 2)} on every
   * block, so the number promotes as a Python scalar does in PyTorch ({@code int32 + 2.5} is
   * float32, {@code float16 + 2.5} stays float16), exactly as the local call.
   *
   * @param op the op, applied block by block
   * @param other the other operand
   * @return the result
   * @throws IllegalArgumentException when {@code other} is null, or the op's own exception (an
   *     unsupported {@link Number} type, a promotion error) with the local message, before any job
   *     runs
   */
  public DistTensor apply(OpNumber op, Number other) {
    requireOp(op, "apply");
    requireOperand(other, "apply");
    return applyBlocks("apply", args -> op.apply(args[0], other), this);
  }

  private static <T> T requireOperand(T other, String method) {
    if (other == null) {
      throw new IllegalArgumentException("DistTensor." + method + ": other must not be null");
    }
    return other;
  }

  /**
   * {@code op(a, b)} block by block, each of {@code a} and {@code b} a {@link DistTensor} or a
   * local {@link Tensor}, at least one distributed: {@code DistTensor.apply(Ops::sub, bias, x)}.
   *
   * @param op the op, applied block by block
   * @param a the first operand: a distributed tensor, a local tensor or a Java number
   * @param b the second operand: a distributed tensor, a local tensor or a Java number
   * @return the result
   * @throws IllegalArgumentException (or the op's own exception, such as {@link
   *     BroadcastException} or a promotion error, with the local message) before any job runs
   */
  public static DistTensor apply(Op2 op, Object a, Object b) {
    requireOp(op, "apply");
    return applyBlocks("apply", args -> op.apply(args[0], args[1]), a, b);
  }

  /**
   * {@code op(a, b, c)} block by block; see {@link #apply(Op2, Object, Object)}.
   *
   * @param op the op, applied block by block
   * @param a the first operand: a distributed tensor, a local tensor or a Java number
   * @param b the second operand: a distributed tensor, a local tensor or a Java number
   * @param c the third operand: a distributed tensor, a local tensor or a Java number
   * @return the result
   */
  public static DistTensor apply(Op3 op, Object a, Object b, Object c) {
    requireOp(op, "apply");
    return applyBlocks("apply", args -> op.apply(args[0], args[1], args[2]), a, b, c);
  }

  private static void requireOp(Object op, String method) {
    if (op == null) {
      throw new IllegalArgumentException("DistTensor." + method + ": op must not be null");
    }
  }

  /** The operands of one call, checked, with what each block needs. */
  private record Plan(
      DistTensor lead, List<DistTensor> distributed, Object[] operands, boolean[] sliced) {}

  private static Plan plan(String method, boolean elementwise, Object... operands) {
    DistTensor lead = null;
    List<DistTensor> distributed = new ArrayList<>();
    for (int i = 0; i < operands.length; i++) {
      Object o = operands[i];
      if (o instanceof DistTensor d) {
        if (lead == null) {
          lead = d;
        } else if (d.sc.sc() != lead.sc.sc()) {
          throw new IllegalArgumentException("DistTensor." + method + ": operand " + i
              + " belongs to another SparkContext");
        }
        distributed.add(d);
      } else if (!(o instanceof Tensor)) {
        throw new IllegalArgumentException("DistTensor." + method + ": operand " + i
            + " must be a DistTensor or a Tensor, got "
            + (o == null ? "null" : o.getClass().getName())
            + (o instanceof Number ? "; for a Java number, use x.apply(op, number) or a lambda"
                + " that passes it to the op (t -> Ops.add(t, 2))" : ""));
      }
    }
    if (lead == null) {
      throw new IllegalArgumentException("DistTensor." + method
          + ": no operand is distributed; call the op on the local tensors directly");
    }
    int rank = lead.shape.length;
    operands = operands.clone();
    for (int i = 0; i < operands.length; i++) {
      if (operands[i] instanceof DistTensor d) {
        if ((elementwise && d.shape.length != rank) || d.shape[0] != lead.shape[0]) {
          throw new IllegalArgumentException("DistTensor." + method + ": distributed operands"
              + " must have the same " + (elementwise ? "rank and " : "") + "number of rows, to be"
              + " zipped block by block (re-blocking moves rows, it does not broadcast them):"
              + " operand " + i + " is " + d + " with blocks of " + Arrays.toString(d.blockRows)
              + " rows, the first distributed operand " + lead + " with "
              + Arrays.toString(lead.blockRows));
        }
        if (!d.sameLayout(lead)) {
          // other row blocks: a shuffle of row ranges moves this operand's rows into the first
          // distributed operand's blocks (docs/scale-out.md, "Operands with different blockings")
          DistTensor moved = Reblock.to(d, lead.blockRows, lead.partitionBlocks);
          distributed.set(distributed.indexOf(d), moved);
          operands[i] = moved;
        }
      } else if (elementwise && ((Tensor) operands[i]).ndim() > rank) {
        throw new IllegalArgumentException("DistTensor." + method + ": operand " + i
            + " (local, shape " + Arrays.toString(((Tensor) operands[i]).shape())
            + ") has more dimensions than the distributed operands (shape "
            + Arrays.toString(lead.shape) + "): the result would not be sharded along its"
            + " first dimension");
      }
    }
    long rows = lead.shape[0];
    boolean[] sliced = new boolean[operands.length];
    for (int i = 0; i < operands.length; i++) {
      sliced[i] = operands[i] instanceof Tensor t && t.ndim() == rank && rank > 0
          && t.shape()[0] == rows && rows != 1;
    }
    return new Plan(lead, distributed, operands, sliced);
  }

  /**
   * Calls {@code fn} on the driver on proxies that cost nothing: distributed operands as zero-row
   * tensors of their dtype and trailing shape, local operands that are sliced per block as zero
   * rows of themselves. The op's own checks run (promotion, broadcasting of the trailing shape,
   * dtype support); the result tells the dtype and trailing shape of every block's result. When
   * the full shapes do not broadcast, the op is called on full-shape stride-0 views instead
   * (no element memory), so the message names the real sizes, as the local call's would.
   */
  private static Tensor dryRun(String method, Plan p, BlockFn fn, boolean elementwise) {
    int n = p.operands.length;
    long[][] shapes = new long[n][];
    for (int i = 0; i < n; i++) {
      shapes[i] = p.operands[i] instanceof DistTensor d ? d.shape : ((Tensor) p.operands[i]).shape();
    }
    try {
      if (elementwise) {
        Broadcast.shapes(shapes);
      }
    } catch (BroadcastException e) {
      Tensor[] full = new Tensor[n];
      for (int i = 0; i < n; i++) {
        full[i] = p.operands[i] instanceof DistTensor d
            ? Tensor.zeros(d.dtype).expand(d.shape)
            : (Tensor) p.operands[i];
      }
      fn.apply(full); // throws the op's own message
      throw e;
    }
    Tensor[] proxies = new Tensor[n];
    for (int i = 0; i < n; i++) {
      if (p.operands[i] instanceof DistTensor d) {
        long[] s = d.shape.clone();
        s[0] = 0;
        proxies[i] = Tensor.empty(d.dtype, s);
      } else {
        Tensor t = (Tensor) p.operands[i];
        proxies[i] = p.sliced[i] ? t.narrow(0, 0, 0) : t;
      }
    }
    Tensor result = fn.apply(proxies);
    if (result == null) {
      throw new IllegalArgumentException("DistTensor." + method
          + ": the op returned null on zero rows; an op must return a tensor");
    }
    return result;
  }

  /**
   * The blocks of every distributed operand, zipped partition by partition and, inside a
   * partition, block by block (the operands have the same layout), as arrays in operand order with
   * {@code null} at the local operands' places.
   */
  private static JavaRDD<Block[]> zipped(Plan p) {
    int n = p.operands.length;
    JavaRDD<Block[]> rdd = null;
    for (int i = 0; i < n; i++) {
      if (!(p.operands[i] instanceof DistTensor d)) {
        continue;
      }
      final int at = i;
      if (rdd == null) {
        rdd = d.blocks.map(b -> {
          Block[] slots = new Block[n];
          slots[at] = b;
          return slots;
        });
      } else {
        rdd = rdd.zipPartitions(d.blocks, (Iterator<Block[]> left, Iterator<Block> right) ->
            lazily(left, slots -> {
              slots[at] = right.next();
              return slots;
            }));
      }
    }
    return rdd;
  }

  /** The local operands as one broadcast variable (null when there are none). */
  private static org.apache.spark.broadcast.Broadcast<Block[]> shipLocals(Plan p) {
    Block[] locals = new Block[p.operands.length];
    boolean any = false;
    for (int i = 0; i < locals.length; i++) {
      if (p.operands[i] instanceof Tensor t) {
        locals[i] = new Block(-1, t);
        any = true;
      }
    }
    return any ? p.lead.sc.broadcast(locals) : null;
  }

  /** One block's arguments: its own blocks, and the local operands (sliced to its rows). */
  private static Tensor[] arguments(Block[] slots, Block[] locals, boolean[] sliced) {
    Tensor[] args = new Tensor[slots.length];
    Block lead = firstBlock(slots);
    long start = lead.startRow;
    long rows = lead.rows();
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] != null) {
        args[i] = slots[i].tensor;
      } else {
        Tensor t = locals[i].tensor;
        args[i] = sliced[i] ? t.narrow(0, start, rows) : t;
      }
    }
    return args;
  }

  /**
   * {@code fn} block by block, the result distributed with the same row blocks. What each block's
   * result must be is known on the driver before any job runs: the op's result on zero rows (the
   * dry run) gives its dtype and trailing shape, and block {@code i} keeps its {@code
   * blockRows[i]} rows. Every block's result is checked against that on the executor, right after
   * the op (see {@link #perBlock}).
   */
  private static DistTensor applyBlocks(String method, BlockFn fn, Object... operands) {
    Plan p = plan(method, true, operands);
    Tensor proxy = dryRun(method, p, fn, true);
    if (proxy.ndim() == 0 || proxy.shape()[0] != 0) {
      throw new IllegalArgumentException("DistTensor." + method + ": the op's result on a"
          + " zero-row block has shape " + Arrays.toString(proxy.shape())
          + "; a block-wise op must keep the rows as its first dimension");
    }
    long[] shape = proxy.shape();
    shape[0] = p.lead.shape[0];
    JavaRDD<Block> out = perBlock(p, fn, "DistTensor." + method + ": the op's result",
        "as the op's result on zero rows predicted: an op applied block by block must keep each"
            + " block's rows and give every block the same trailing shape and dtype (a result of"
            + " another shape per block is DistTensor.sumBlocks' business)",
        proxy.dtype(), proxy.shape(), true);
    return new DistTensor(
        p.lead.sc, out, proxy.dtype(), shape, p.lead.blockRows, p.lead.partitionBlocks);
  }

  /**
   * Runs {@code fn} on every row block — the distributed operands' blocks zipped, the local ones
   * shipped once and sliced to the block's rows where planned — and checks each result on the
   * executor, right after {@code fn}, against the dtype and shape the driver predicted: {@code
   * shape} with dimension 0 replaced by the block's rows when {@code keepsRows}, else {@code shape}
   * itself. A result that breaks it (null, other rows, another trailing shape or dtype) fails the
   * task with an {@link IllegalArgumentException} naming the block, its rows and both shapes
   * ({@code what} starts the message, {@code rule} ends it), so nothing is collected, summed or
   * written from it: a block that lost rows would otherwise gather as zero-filled rows, broadcast
   * silently in a sum, or drop rows from a DataFrame.
   */
  private static JavaRDD<Block> perBlock(Plan p, BlockFn fn, String what, String rule,
      DType dtype, long[] shape, boolean keepsRows) {
    org.apache.spark.broadcast.Broadcast<Block[]> shipped = shipLocals(p);
    boolean[] sliced = p.sliced;
    long totalRows = p.lead.shape[0];
    int[] first = p.lead.firstBlocks();
    return zipped(p).mapPartitionsWithIndex((partition, it) -> {
      int[] index = {first[partition]}; // the global index of the partition's next block
      // one block at a time: the partition's results are not all held at once
      return lazily(it, slots -> {
        int block = index[0]++;
        Block[] locals = shipped == null ? new Block[slots.length] : shipped.value();
        Block lead = firstBlock(slots);
        Tensor result = fn.apply(arguments(slots, locals, sliced));
        long[] expected = shape.clone();
        if (keepsRows) {
          expected[0] = lead.rows();
        }
        if (result == null || result.dtype() != dtype || !Arrays.equals(result.shape(), expected)) {
          throw new IllegalArgumentException(what + " on block " + block + " (rows ["
              + lead.startRow + ", " + (lead.startRow + lead.rows()) + ") of " + totalRows + ") is "
              + (result == null ? "null" : describe(result.dtype(), result.shape())) + ", not "
              + describe(dtype, expected) + " " + rule);
        }
        return new Block(keepsRows ? lead.startRow : -1, result);
      });
    }, true);
  }

  private static String describe(DType dtype, long[] shape) {
    return dtype.torchName() + " " + Arrays.toString(shape);
  }

  private static Block firstBlock(Block[] slots) {
    for (Block b : slots) {
      if (b != null) {
        return b;
      }
    }
    throw new IllegalStateException("no distributed block");
  }

  // ============================================================================================
  // Reductions
  // ============================================================================================

  /**
   * {@return the sum of all elements, a local zero-dim tensor (int64 for bool and integral dtypes,
   * as the local {@link Tensor#sum()}): each block sums its own elements, then the partial sums are
   * added in a tree ({@code treeReduce})} Floating sums are reassociated relative to the local sum;
   * the difference is bounded as docs/scale-out.md says.
   */
  public Tensor sum() {
    empty().sum(); // the local refusals, if any, on the driver
    return treeSum(blocks.map(b -> new Block(-1, b.tensor.sum())));
  }

  /**
   * {@return the sum over {@code dims}, which must include the sharded dimension 0 (or {@code
   * -ndim}): a local tensor, as the local {@code sum(dims, keepDim)} would give} Sums over inner
   * dimensions only stay distributed: {@link #sumWithinRows}.
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @throws IllegalArgumentException when {@code dims} is null or omits dimension 0, or with the
   *     local message for a dimension out of range
   */
  public Tensor sum(int[] dims, boolean keepDim) {
    if (dims == null) {
      throw new IllegalArgumentException("DistTensor.sum: dims must not be null");
    }
    empty().sum(dims, keepDim); // the local checks: range, repeats
    if (!reducesRows(dims)) {
      throw new IllegalArgumentException("DistTensor.sum: dims " + Arrays.toString(dims)
          + " do not include the sharded dimension 0, so the result stays distributed: use"
          + " sumWithinRows(dims, keepDim)");
    }
    int[] d = dims.clone();
    return treeSum(blocks.map(b -> new Block(-1, b.tensor.sum(d, keepDim))));
  }

  /**
   * {@return the sum over {@code dims}, none of which may be the sharded dimension 0: computed
   * inside each block, the result stays distributed with the same row blocks}
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public DistTensor sumWithinRows(int[] dims, boolean keepDim) {
    if (dims == null) {
      throw new IllegalArgumentException("DistTensor.sumWithinRows: dims must not be null");
    }
    empty().sum(dims, keepDim);
    if (reducesRows(dims)) {
      throw new IllegalArgumentException("DistTensor.sumWithinRows: dims "
          + Arrays.toString(dims) + " include the sharded dimension 0: use sum(dims, keepDim),"
          + " which returns a local tensor");
    }
    int[] d = dims.clone();
    return applyBlocks("sumWithinRows", args -> args[0].sum(d, keepDim), this);
  }

  /**
   * {@return this tensor summed to {@code target} ({@code torch.Tensor.sum_to_size}, the local
   * {@link Tensor#sumToShape}) where that sums over the sharded dimension — the gradient of a
   * parameter that was broadcast along the rows: each block sums to {@code target}, then the
   * blocks' sums are added in a tree} The result is local.
   *
   * @param target the shape to sum to
   * @throws dev.ufunc4j.BroadcastException with the local message when {@code target} does not
   *     expand to this tensor's shape
   * @throws IllegalArgumentException when {@code target} keeps the sharded dimension (the sum
   *     would stay distributed: use {@link #sumWithinRows})
   */
  public Tensor sumToShape(long... target) {
    if (target == null) {
      throw new IllegalArgumentException("DistTensor.sumToShape: shape must not be null");
    }
    long[] expanded;
    try {
      expanded = Broadcast.shapes(target, shape);
    } catch (BroadcastException e) {
      expanded = null;
    }
    if (expanded == null || !Arrays.equals(expanded, shape)) {
      // The local call on a stride-0 view (no element memory) refuses with its own message.
      Tensor.zeros(dtype).expand(shape).sumToShape(target);
      throw new IllegalStateException("sumToShape accepted " + Arrays.toString(target));
    }
    if (target.length == shape.length && target[0] != 1 && shape[0] != 1) {
      throw new IllegalArgumentException("DistTensor.sumToShape: target "
          + Arrays.toString(target) + " keeps the sharded dimension of " + this
          + ", so the result would stay distributed: use sumWithinRows");
    }
    long[] t = target.clone();
    return treeSum(blocks.map(b -> new Block(-1, b.tensor.sumToShape(t))));
  }

  /**
   * Runs {@code fn} on every row block — the blocks of the distributed operands, zipped, and the
   * local operands, whole or sliced to the block's rows as in {@link #apply(Op2, Object,
   * Object)} — and adds the results up across the cluster in a tree: the data-parallel step, where
   * each block computes its gradient of a broadcast parameter and the gradients are summed. {@code
   * fn} is first called on the driver with zero-row proxies, so that a mistake in it is refused
   * before any job runs; every block's result must have the shape and dtype of that first result,
   * which each executor checks before the sum.
   *
   * @param fn the computation on one block of each operand
   * @param operands the operands: distributed tensors, local tensors
   * @return the result
   * @throws IllegalArgumentException when a block's result has another shape or dtype, or is null
   *     (naming the block), or the exception {@code fn} threw on a block
   */
  public static Tensor sumBlocks(BlockFn fn, Object... operands) {
    if (fn == null || operands == null) {
      throw new IllegalArgumentException("DistTensor.sumBlocks: "
          + (fn == null ? "fn" : "operands") + " must not be null");
    }
    Plan p = plan("sumBlocks", false, operands);
    Tensor proxy = dryRun("sumBlocks", p, fn, false);
    return treeSum(perBlock(p, fn, "DistTensor.sumBlocks: fn's result",
        "as fn's result on zero rows predicted: sumBlocks adds the blocks' results up, which"
            + " must all have the same shape and dtype (a shape that depends on the block would"
            + " broadcast silently in the sum)",
        proxy.dtype(), proxy.shape(), false));
  }

  // ---- reductions of any associative op, and the statistics on them ----------------------------

  /**
   * {@code op} folded over {@code dims} (none: every dim), which must include the sharded dim 0,
   * across the cluster: {@code Ops.maximum}, {@code Ops.logicalOr}, a user's associative op ({@code
   * LossOps.logAddExp}). Each block reduces its rows with the local {@code op.reduce} (its
   * kernels, its dtype rules), and the partial results are combined with {@code op} in a tree in
   * block order (docs/scale-out.md, "Reductions"). The result is local and has the local call's
   * dtype and shape. Exactly the local result for ops that are associative in floating point too
   * ({@code maximum}, {@code minimum}, the logical and bitwise ops, integral {@code add} and {@code
   * mul}); a reassociation of it otherwise (floating {@code add}, {@code mul}, {@code logAddExp}),
   * within docs/scale-out.md's bound.
   *
   * @param op the associative ufunc, as {@code Ops.maximum}
   * @param dims the dims to reduce (dim 0 among them; null or none: all)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   * @throws IllegalArgumentException for an op not declared associative (its left fold cannot be
   *     split into blocks), dims that leave dim 0, or with the local message (a dim out of range,
   *     a dtype the op refuses, an empty extent of an op without identity), before any job runs
   */
  public Tensor reduce(BinaryUfunc op, int[] dims, boolean keepDim) {
    return DistReductions.reduce(this, op, dims, keepDim);
  }

  /**
   * {@link #reduce(BinaryUfunc, int[], boolean)} without keeping the reduced dims.
   *
   * @param op the associative ufunc, as {@code Ops.add}
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor reduce(BinaryUfunc op, int... dims) {
    return DistReductions.reduce(this, op, dims, false);
  }

  /**
   * The mean over {@code dims} (none: all; dim 0 among them), as the local {@link Tensor#mean(int[],
   * boolean)}: the blocks' sums (float32 for 16-bit dtypes, as locally) added in the tree, divided
   * once by the count. Floating dtypes only, as locally.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   */
  public Tensor mean(int[] dims, boolean keepDim) {
    return DistReductions.mean(this, dims, keepDim);
  }

  /**
   * {@link #mean(int[], boolean)} without keeping the reduced dims.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor mean(int... dims) {
    return DistReductions.mean(this, dims, false);
  }

  /**
   * The largest element over {@code dims} (dim 0 among them; none: all), exactly the local amax.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   */
  public Tensor amax(int[] dims, boolean keepDim) {
    return DistReductions.extreme(this, dims, keepDim, true);
  }

  /**
   * {@link #amax(int[], boolean)} without keeping the reduced dims.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor amax(int... dims) {
    return DistReductions.extreme(this, dims, false, true);
  }

  /**
   * The smallest element over {@code dims} (dim 0 among them; none: all), exactly the local amin.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   */
  public Tensor amin(int[] dims, boolean keepDim) {
    return DistReductions.extreme(this, dims, keepDim, false);
  }

  /**
   * {@link #amin(int[], boolean)} without keeping the reduced dims.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor amin(int... dims) {
    return DistReductions.extreme(this, dims, false, false);
  }

  /**
   * Whether any element over {@code dims} (none: all) is nonzero: {@code Ops.logicalOr}'s reduce.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor any(int... dims) {
    return DistReductions.reduce(this, Ops.logicalOr, dims, false);
  }

  /**
   * Whether every element over {@code dims} (none: all) is nonzero: {@code Ops.logicalAnd}'s.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor all(int... dims) {
    return DistReductions.reduce(this, Ops.logicalAnd, dims, false);
  }

  /**
   * The product over {@code dims} (none: all): {@code Ops.mul}'s reduce (int64 for integral).
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @return the local result
   */
  public Tensor prod(int... dims) {
    return DistReductions.reduce(this, Ops.mul, dims, false);
  }

  /**
   * {@code log(sum(exp(x)))} over {@code dims} (none: all; dim 0 among them), as the local {@link
   * Tensor#logsumexp}: each block's logsumexp, then the logsumexp of those (both shifted by their
   * maximum, so nothing overflows).
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   */
  public Tensor logsumexp(int[] dims, boolean keepDim) {
    return DistReductions.logsumexp(this, dims, keepDim);
  }

  /**
   * The variance over {@code dims} (none: all; dim 0 among them) with {@code correction} (1:
   * Bessel's), as the local {@code var(dims, correction, keepDim)}: Chan's parallel combination of
   * each block's count, mean and sum of squared deviations, in float64 (docs/scale-out.md).
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @param correction the difference from the count in the divisor (1: Bessel's)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   */
  public Tensor var(int[] dims, double correction, boolean keepDim) {
    return DistReductions.var(this, dims, correction, keepDim, false);
  }

  /**
   * The standard deviation: the square root of {@link #var(int[], double, boolean)}.
   *
   * @param dims the dims to reduce (dim 0 among them; none: all)
   * @param correction the difference from the count in the divisor (1: Bessel's)
   * @param keepDim whether the reduced dims stay, with size 1
   * @return the local result
   */
  public Tensor std(int[] dims, double correction, boolean keepDim) {
    return DistReductions.var(this, dims, correction, keepDim, true);
  }

  private boolean reducesRows(int[] dims) {
    for (int d : dims) {
      if (d == 0 || d == -shape.length) {
        return true;
      }
    }
    return dims.length == 0; // torch.sum(x, dim=[]) sums everything
  }

  /** A zero-row tensor of this dtype and trailing shape, for the local checks. */
  Tensor emptyRows() {
    return empty();
  }

  /** A zero-row tensor of this dtype and trailing shape, for the local checks. */
  private Tensor empty() {
    long[] s = shape.clone();
    s[0] = 0;
    return Tensor.empty(dtype, s);
  }

  private static Tensor treeSum(JavaRDD<Block> partials) {
    return SparkJobs.run(
        () -> partials.treeReduce((x, y) -> new Block(-1, Ops.add(x.tensor, y.tensor))).tensor);
  }
}
