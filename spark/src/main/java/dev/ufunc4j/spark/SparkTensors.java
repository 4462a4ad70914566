package dev.ufunc4j.spark;

import dev.ufunc4j.Npy;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.arrow.ArrowIpc;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * Reading and writing {@link DistTensor}s (the public entry points are {@link DistTensor}'s
 * {@code fromColumn}, {@code readNpy}/{@code readArrow}, {@code toDataFrame} and {@code
 * writeNpy}/{@code writeArrow}) where data lives in a Spark job: a DataFrame column (a
 * numeric column is a rank-1 tensor, an {@code array<float>} column of feature vectors a rank-2
 * one, one row per table row) and a directory of {@code .npy} shards (one block per file). Each
 * partition or file becomes one block through one copy; no kernel or conversion runs per row.
 *
 * <p>Column types and dtypes: {@code boolean} BOOL, {@code tinyint} INT8, {@code smallint} INT16,
 * {@code int} INT32, {@code bigint} INT64, {@code float} FLOAT32, {@code double} FLOAT64, and
 * {@code array<>} of each. Other dtypes have no Spark SQL type and are refused when written; null
 * values and arrays of different lengths are refused when read, naming the row.
 */
final class SparkTensors {
  private SparkTensors() {}

  // ============================================================================================
  // DataFrame columns
  // ============================================================================================

  /**
   * The column {@code column} of {@code df} as a distributed tensor, one block per partition of
   * {@code df}, or several of at most {@link DistTensor#maxBlockBytes} where the partition is
   * larger (the rows are read into a new block each time one is full): rank 1 for a numeric
   * column, rank 2 ({@code [rows, length]}) for an array column whose arrays all have the same
   * length. Reads the column once (a Spark job that counts each block's rows) and keeps the
   * blocks cached in executor memory.
   *
   * @throws IllegalArgumentException when an argument is null, the column does not exist or its
   *     type has no dtype; on the first job, when a value is null or the arrays' lengths differ
   */
  static DistTensor fromColumn(Dataset<Row> df, String column) {
    if (df == null || column == null) {
      throw new IllegalArgumentException("DistTensor.fromColumn: "
          + (df == null ? "df" : "column") + " must not be null");
    }
    if (!Arrays.asList(df.columns()).contains(column)) {
      throw new IllegalArgumentException("DistTensor.fromColumn: no column '" + column
          + "' in " + Arrays.toString(df.columns()));
    }
    DataType type = df.schema().apply(column).dataType();
    boolean isArray = type instanceof ArrayType;
    DType dtype = dtypeOf(isArray ? ((ArrayType) type).elementType() : type, column, type);
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(df.sparkSession().sparkContext());
    long maxBytes = DistTensor.maxBlockBytes(sc);
    JavaRDD<InternalRow> rows = df.select(column).queryExecution().toRdd().toJavaRDD();
    JavaRDD<Block> raw = rows.mapPartitionsWithIndex(
        (part, it) -> readPartition(it, part, dtype, isArray, column, maxBytes).iterator(), true);
    return assemble(sc, raw.persist(StorageLevel.MEMORY_ONLY()), "column '" + column + "'");
  }

  private static DType dtypeOf(DataType t, String column, DataType whole) {
    if (t.equals(DataTypes.BooleanType)) return DType.BOOL;
    if (t.equals(DataTypes.ByteType)) return DType.INT8;
    if (t.equals(DataTypes.ShortType)) return DType.INT16;
    if (t.equals(DataTypes.IntegerType)) return DType.INT32;
    if (t.equals(DataTypes.LongType)) return DType.INT64;
    if (t.equals(DataTypes.FloatType)) return DType.FLOAT32;
    if (t.equals(DataTypes.DoubleType)) return DType.FLOAT64;
    throw new IllegalArgumentException("DistTensor.fromColumn: column '" + column + "' has type "
        + whole.simpleString() + "; a tensor column is boolean, tinyint, smallint, int, bigint,"
        + " float, double or an array of one of them");
  }

  private static DataType sqlType(DType dtype, String method) {
    return switch (dtype) {
      case BOOL -> DataTypes.BooleanType;
      case INT8 -> DataTypes.ByteType;
      case INT16 -> DataTypes.ShortType;
      case INT32 -> DataTypes.IntegerType;
      case INT64 -> DataTypes.LongType;
      case FLOAT32 -> DataTypes.FloatType;
      case FLOAT64 -> DataTypes.DoubleType;
      default -> throw new IllegalArgumentException("DistTensor." + method + ": " + dtype
          + " has no Spark SQL type; convert first (tensor.map(t -> t.to(DType.FLOAT32)))");
    };
  }

  /**
   * One partition's values as blocks of at most {@code maxBytes} bytes (at least one row each;
   * one block of zero rows for an empty partition), start rows not yet known (-1).
   */
  private static List<Block> readPartition(Iterator<InternalRow> it, int part, DType dtype,
      boolean isArray, String column, long maxBytes) {
    List<Block> blocks = new ArrayList<>();
    Growable values = new Growable(dtype);
    long rows = 0; // in the partition, for the messages
    long blockRows = 0; // in the block being filled
    long rowsPerBlock = Long.MAX_VALUE; // known once a row's length is
    int length = -1;
    while (it.hasNext()) {
      if (blockRows == rowsPerBlock) {
        blocks.add(new Block(-1, values.toTensor(blockShape(isArray, blockRows, length))));
        values = new Growable(dtype);
        blockRows = 0;
      }
      InternalRow r = it.next();
      if (r.isNullAt(0)) {
        throw new IllegalArgumentException("column '" + column + "': partition " + part + ", row "
            + rows + " is null; a tensor has no missing values (fill or filter them)");
      }
      if (isArray) {
        ArrayData a = r.getArray(0);
        if (length < 0) {
          length = a.numElements();
          rowsPerBlock = length == 0 ? Long.MAX_VALUE
              : Math.max(1, maxBytes / ((long) length * dtype.byteSize()));
        } else if (a.numElements() != length) {
          throw new IllegalArgumentException("column '" + column + "': partition " + part
              + ", row " + rows + " has " + a.numElements() + " elements where the rows before"
              + " have " + length + "; a tensor's rows all have the same length");
        }
        for (int i = 0; i < a.numElements(); i++) {
          if (a.isNullAt(i)) {
            throw new IllegalArgumentException("column '" + column + "': partition " + part
                + ", row " + rows + " holds a null at element " + i);
          }
        }
        values.addArray(a);
      } else {
        rowsPerBlock = Math.max(1, maxBytes / dtype.byteSize());
        values.addScalar(r);
      }
      rows++;
      blockRows++;
    }
    if (blockRows > 0 || blocks.isEmpty()) {
      blocks.add(new Block(-1, values.toTensor(blockShape(isArray, blockRows, length))));
    }
    return blocks;
  }

  private static long[] blockShape(boolean isArray, long rows, int length) {
    return isArray ? new long[] {rows, Math.max(length, 0)} : new long[] {rows};
  }

  /**
   * What the driver learns of each block before assigning start rows.
   *
   * @param partition the partition holding the block
   * @param dtype the block's dtype name
   * @param shape the block's shape
   */
  private record BlockInfo(int partition, String dtype, long[] shape)
      implements java.io.Serializable {}

  /**
   * A cached RDD of blocks with unknown start rows, one or more per partition: collects each
   * block's partition, dtype and shape (one job), checks that they agree, and assigns start rows.
   * A block without rows (an empty partition of an array column cannot know its arrays' length)
   * takes the trailing shape of the others.
   */
  private static DistTensor assemble(JavaSparkContext sc, JavaRDD<Block> raw, String what) {
    List<BlockInfo> infos = SparkJobs.run(raw.mapPartitionsWithIndex((part, it) ->
        DistTensor.lazily(it, b -> new BlockInfo(part, b.tensor.dtype().torchName(),
            b.tensor.shape())), true)::collect);
    int reference = 0;
    for (int i = 0; i < infos.size(); i++) {
      if (infos.get(i).shape().length == 0) {
        throw new IllegalArgumentException(what + ", block " + i + ": a zero-dim array has no"
            + " rows to shard");
      }
      if (infos.get(i).shape()[0] > 0) {
        reference = i;
        break;
      }
    }
    if (infos.isEmpty()) {
      throw new IllegalArgumentException(what + " has no partitions");
    }
    BlockInfo ref = infos.get(reference);
    long[] trailing = Arrays.copyOfRange(ref.shape(), 1, ref.shape().length);
    long[] blockRows = new long[infos.size()];
    long[] starts = new long[infos.size()];
    long total = 0;
    for (int i = 0; i < infos.size(); i++) {
      BlockInfo b = infos.get(i);
      long[] t = Arrays.copyOfRange(b.shape(), 1, Math.max(1, b.shape().length));
      if (b.shape().length > 0 && b.shape()[0] > 0 && !Arrays.equals(t, trailing)) {
        throw new IllegalArgumentException(what + ": block " + i + " has rows of shape "
            + Arrays.toString(t) + " and block " + reference + " " + Arrays.toString(trailing)
            + "; every block's rows must have the same shape");
      }
      if (!b.dtype().equals(ref.dtype())) {
        throw new IllegalArgumentException(what + ": block " + i + " is " + b.dtype()
            + " and block " + reference + " " + ref.dtype() + "; every block must have the same"
            + " dtype");
      }
      blockRows[i] = b.shape().length == 0 ? 0 : b.shape()[0];
      starts[i] = total;
      total += blockRows[i];
    }
    long[] shape = new long[trailing.length + 1];
    shape[0] = total;
    System.arraycopy(trailing, 0, shape, 1, trailing.length);
    int[] partitionBlocks = new int[raw.getNumPartitions()];
    for (BlockInfo b : infos) {
      partitionBlocks[b.partition()]++;
    }
    int[] first = new int[partitionBlocks.length + 1];
    for (int p = 0; p < partitionBlocks.length; p++) {
      first[p + 1] = first[p] + partitionBlocks[p];
    }
    JavaRDD<Block> blocks = raw.mapPartitionsWithIndex((partition, it) -> {
      int[] index = {first[partition]}; // the global index of the partition's next block
      return DistTensor.lazily(it, b -> {
        Tensor t = b.tensor;
        if (t.shape()[0] == 0) {
          long[] empty = shape.clone();
          empty[0] = 0;
          t = Tensor.empty(t.dtype(), empty);
        }
        return new Block(starts[index[0]++], t);
      });
    }, true);
    return DistTensor.ofBlocks(
        sc, blocks, DType.fromName(ref.dtype()), shape, blockRows, partitionBlocks);
  }

  /**
   * A DataFrame of one column named {@code column}, one row per row of {@code tensor}: a numeric
   * column for a rank-1 tensor, an array column for a rank-2 one. Each partition stays a partition.
   *
   * @throws IllegalArgumentException when an argument is null, the rank is not 1 or 2 or the
   *     dtype has no Spark SQL type
   */
  static Dataset<Row> toDataFrame(SparkSession spark, DistTensor tensor, String column) {
    if (spark == null || tensor == null || column == null) {
      throw new IllegalArgumentException("DistTensor.toDataFrame: "
          + (spark == null ? "spark" : tensor == null ? "tensor" : "column") + " must not be null");
    }
    if (tensor.ndim() != 1 && tensor.ndim() != 2) {
      throw new IllegalArgumentException("DistTensor.toDataFrame: " + tensor + " has rank "
          + tensor.ndim() + "; a column holds a rank-1 tensor (numbers) or a rank-2 one (arrays):"
          + " reshape it first");
    }
    DataType element = sqlType(tensor.dtype(), "toDataFrame");
    boolean isArray = tensor.ndim() == 2;
    DataType type = isArray ? DataTypes.createArrayType(element, false) : element;
    StructType schema = new StructType(
        new StructField[] {DataTypes.createStructField(column, type, false)});
    JavaRDD<Row> rows = tensor.blocks().flatMap(b -> rowsOf(b.tensor, isArray).iterator());
    return spark.createDataFrame(rows, schema);
  }

  private static List<Row> rowsOf(Tensor t, boolean isArray) {
    int n = Math.toIntExact(t.shape()[0]);
    List<Row> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Tensor row = t.select(0, i);
      Object value = isArray ? javaArray(row) : scalar(row);
      rows.add(RowFactory.create(value));
    }
    return rows;
  }

  private static Object javaArray(Tensor row) {
    return switch (row.dtype()) {
      case BOOL -> row.toBooleanArray();
      case INT8 -> row.toByteArray();
      case INT16 -> row.toShortArray();
      case INT32 -> row.toIntArray();
      case INT64 -> row.toLongArray();
      case FLOAT32 -> row.toFloatArray();
      default -> row.toDoubleArray();
    };
  }

  private static Object scalar(Tensor row) {
    return switch (row.dtype()) {
      case BOOL -> row.getBoolean();
      case INT8 -> (byte) row.getLong();
      case INT16 -> (short) row.getLong();
      case INT32 -> (int) row.getLong();
      case INT64 -> row.getLong();
      case FLOAT32 -> (float) row.getDouble();
      default -> row.getDouble();
    };
  }

  // ============================================================================================
  // Shards: .npy files and Arrow IPC files
  // ============================================================================================

  /**
   * A shard file format: how an executor reads a file as one block and writes a block as one
   * file, and the names the public methods give (in messages). An enum, so that Spark ships it
   * to the executors by name.
   */
  enum ShardFormat {
    /** NumPy's {@code .npy} ({@link Npy}). */
    NPY(".npy", "readNpy", "writeNpy"),
    /**
     * An Arrow IPC file of one column ({@code ArrowIpc}, module ufunc4j-arrow): read
     * memory-mapped, without a copy; written with the column named {@link #ARROW_COLUMN}.
     */
    ARROW(".arrow", "readArrow", "writeArrow");

    final String suffix;
    final String reader;
    final String writer;

    ShardFormat(String suffix, String reader, String writer) {
      this.suffix = suffix;
      this.reader = reader;
      this.writer = writer;
    }

    Tensor read(Path file) throws IOException {
      if (this == NPY) {
        return Npy.read(file);
      }
      Map<String, Tensor> columns = ArrowIpc.read(file);
      if (columns.size() != 1) {
        throw new IllegalArgumentException("DistTensor.readArrow: " + file + " has "
            + columns.size() + " columns " + columns.keySet() + "; a shard of a DistTensor has"
            + " one (read the file with ArrowIpc.read and pick a column)");
      }
      return columns.values().iterator().next();
    }

    void write(Path file, Tensor block) throws IOException {
      if (this == NPY) {
        Npy.write(file, block);
      } else {
        ArrowIpc.write(file, Map.of(ARROW_COLUMN, block));
      }
    }
  }

  /** The column name of the Arrow shards {@code writeArrow} writes. */
  static final String ARROW_COLUMN = "tensor";

  /**
   * The shard files ({@code .npy} or {@code .arrow}) in {@code dir}, in file-name order, as one
   * distributed tensor: each file one block (and one partition), read by an executor (so {@code
   * dir} must be visible to every executor: a shared file system). The files must agree in dtype
   * and in every dimension but the first; the blocks are cached in executor memory.
   *
   * @throws IllegalArgumentException when an argument is null or {@code dir} holds no shard
   *     file; on the first job, when the files disagree (naming the blocks) or a file is refused
   *     by its reader (an Arrow file of several columns, a null, ...: naming the file)
   * @throws IOException when {@code dir} cannot be listed or, on the first job, a file cannot be
   *     read (the reader's message, naming the file)
   */
  static DistTensor readShards(JavaSparkContext sc, Path dir, ShardFormat format)
      throws IOException {
    if (sc == null || dir == null) {
      throw new IllegalArgumentException("DistTensor." + format.reader + ": "
          + (sc == null ? "sc" : "dir") + " must not be null");
    }
    List<String> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(format.suffix))
          .map(p -> p.toAbsolutePath().toString())
          .sorted()
          .toList();
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException(
          "DistTensor." + format.reader + ": no " + format.suffix + " file in " + dir);
    }
    // Spark's functions may throw checked exceptions: a file that cannot be read fails the task
    // with the reader's IOException, which SparkJobs.runIo gives back to the caller as itself.
    JavaRDD<Block> raw = sc.parallelize(files, files.size())
        .map(f -> new Block(-1, format.read(Paths.get(f))));
    return SparkJobs.runIo(() -> assemble(
        sc, raw.persist(StorageLevel.MEMORY_ONLY()), format.suffix + " shards in " + dir));
  }

  /**
   * Writes each block of {@code tensor} to {@code dir} as {@code part-00000.npy},
   * {@code part-00001.npy}, ... (or {@code .arrow}, by {@code format}; each file replaced
   * atomically, as {@link Npy#write} and {@code ArrowIpc.write} do), creating {@code dir} if
   * needed. Refused when {@code dir} already holds files of the format, so shards of two tensors
   * never mix ({@code DataFrameWriter}'s default mode, {@code errorifexists}).
   *
   * <p>The tasks write into a staging directory inside {@code dir} ({@code _temporary-*}, which
   * {@link #readShards} does not list), and the driver moves the shards into {@code dir} only
   * once every block is written, as Spark's file committers do: a block that fails (an op that
   * broke its block's shape, a value an op refused, a dtype the format cannot hold) leaves no
   * shard behind, and a {@code dir} this call created is removed again.
   */
  static void writeShards(DistTensor tensor, Path dir, ShardFormat format) throws IOException {
    if (tensor == null || dir == null) {
      throw new IllegalArgumentException("DistTensor." + format.writer + ": "
          + (tensor == null ? "tensor" : "dir") + " must not be null");
    }
    if (Files.isDirectory(dir)) {
      try (Stream<Path> s = Files.list(dir)) {
        if (s.anyMatch(p -> p.getFileName().toString().endsWith(format.suffix))) {
          throw new IllegalArgumentException("DistTensor." + format.writer + ": " + dir
              + " already holds " + format.suffix + " files; write to a new or empty directory");
        }
      }
    }
    boolean created = !Files.exists(dir);
    Files.createDirectories(dir);
    Path staging = Files.createTempDirectory(dir, "_temporary-");
    String where = staging.toAbsolutePath().toString();
    List<Path> moved = new ArrayList<>();
    boolean committed = false;
    try {
      SparkJobs.runIo(() -> {
        int[] first = tensor.firstBlocks();
        tensor.blocks().foreachPartition(it -> {
          // one shard per block, named by its global index (a partition may hold several)
          int block = first[org.apache.spark.TaskContext.getPartitionId()];
          while (it.hasNext()) {
            Path shard = Paths.get(where, String.format("part-%05d", block++) + format.suffix);
            format.write(shard, it.next().tensor);
          }
        });
        return null;
      });
      List<Path> parts;
      try (Stream<Path> s = Files.list(staging)) {
        parts = s.filter(p -> p.getFileName().toString().endsWith(format.suffix)).sorted()
            .toList();
      }
      for (Path part : parts) {
        Path target = dir.resolve(part.getFileName());
        Files.move(part, target); // a rename: same directory tree; never over an existing file
        moved.add(target);
      }
      committed = true;
    } finally {
      if (!committed) {
        for (Path target : moved) { // dir held no shard of this format before: these are ours
          deleteQuietly(target);
        }
      }
      deleteQuietly(staging);
      if (!committed && created) {
        deleteQuietly(dir); // created by this call: what it holds is ours
      }
    }
  }

  /**
   * Deletes {@code path} and what it holds, best effort: after a failed job, a task Spark has not
   * yet stopped may still be writing a temporary file; what it leaves stays in the staging
   * directory, never among the shards.
   */
  private static void deleteQuietly(Path path) {
    try (Stream<Path> s = Files.walk(path)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      // best effort (see above)
    }
  }

  /** The values of one partition, appended row by row into arrays that double as they fill. */
  private static final class Growable {
    private final DType dtype;
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private int size;

    Growable(DType dtype) {
      this.dtype = dtype;
    }

    private void reserve(int more) {
      int need = Math.addExact(size, more);
      boolean floating = dtype.isFloatingPoint();
      int capacity = floating ? doubles.length : longs.length;
      if (need > capacity) {
        int grown = Math.max(need, Math.max(16, capacity * 2));
        if (floating) {
          doubles = Arrays.copyOf(doubles, grown);
        } else {
          longs = Arrays.copyOf(longs, grown);
        }
      }
    }

    void addScalar(InternalRow r) {
      reserve(1);
      switch (dtype) {
        case BOOL -> longs[size] = r.getBoolean(0) ? 1 : 0;
        case INT8 -> longs[size] = r.getByte(0);
        case INT16 -> longs[size] = r.getShort(0);
        case INT32 -> longs[size] = r.getInt(0);
        case INT64 -> longs[size] = r.getLong(0);
        case FLOAT32 -> doubles[size] = r.getFloat(0);
        default -> doubles[size] = r.getDouble(0);
      }
      size++;
    }

    void addArray(ArrayData a) {
      int n = a.numElements();
      reserve(n);
      for (int i = 0; i < n; i++) {
        switch (dtype) {
          case BOOL -> longs[size + i] = a.getBoolean(i) ? 1 : 0;
          case INT8 -> longs[size + i] = a.getByte(i);
          case INT16 -> longs[size + i] = a.getShort(i);
          case INT32 -> longs[size + i] = a.getInt(i);
          case INT64 -> longs[size + i] = a.getLong(i);
          case FLOAT32 -> doubles[size + i] = a.getFloat(i);
          default -> doubles[size + i] = a.getDouble(i);
        }
      }
      size += n;
    }

    Tensor toTensor(long[] shape) {
      return dtype.isFloatingPoint()
          ? Tensor.of(Arrays.copyOf(doubles, size), DType.FLOAT64, shape).to(dtype)
          : Tensor.of(Arrays.copyOf(longs, size), DType.INT64, shape).to(dtype);
    }
  }
}
