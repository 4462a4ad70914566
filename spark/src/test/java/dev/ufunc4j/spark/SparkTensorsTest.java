package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Npy;
import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.arrow.ArrowIpc;
import dev.ufunc4j.dtype.DType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading and writing distributed tensors: DataFrame columns, .npy shards, block serialization. */
class SparkTensorsTest extends SparkTestSession {
  static Dataset<Row> featureTable(float[][] rows, int partitions) {
    List<Row> list = new ArrayList<>();
    for (float[] r : rows) {
      list.add(RowFactory.create((Object) r));
    }
    StructType schema = new StructType().add("features",
        DataTypes.createArrayType(DataTypes.FloatType, false), false);
    return spark.createDataFrame(sc.parallelize(list, partitions), schema);
  }

  @Test
  void arrayColumnRoundTrip() {
    Tensor x = Tensor.randn(1, DType.FLOAT32, 103, 6);
    float[][] rows = new float[103][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = x.select(0, i).toFloatArray();
    }
    Dataset<Row> df = featureTable(rows, 3);
    DistTensor d = DistTensor.fromColumn(df, "features");
    assertEquals(DType.FLOAT32, d.dtype());
    assertArrayEquals(new long[] {103, 6}, d.shape());
    Tensor back = d.toTensor();
    assertTrue(back.equal(x));
    // and back to a DataFrame: same rows, same order
    List<Row> written = d.map(t -> Ops.mul(t, 2.0f)).toDataFrame(spark, "y")
        .collectAsList();
    assertEquals(103, written.size());
    for (int i = 0; i < 103; i++) {
      float[] expected = Ops.mul(back.select(0, i), 2.0f).toFloatArray();
      assertArrayEquals(expected, toFloats(written.get(i).get(0)), "row " + i);
    }
  }

  private static float[] toFloats(Object v) {
    List<?> list = v instanceof scala.collection.Seq<?> s
        ? scala.jdk.javaapi.CollectionConverters.asJava(s)
        : (List<?>) v;
    float[] out = new float[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (Float) list.get(i);
    }
    return out;
  }

  @Test
  void everyArrayElementTypeKeepsItsDtype() {
    Dataset<Row> df = spark.range(0, 60, 1, 3).selectExpr(
        "array(id, id * 2) AS longs",
        "array(cast(id AS int), -cast(id AS int)) AS ints",
        "array(cast(id AS smallint)) AS shorts",
        "array(cast(id % 100 AS tinyint)) AS bytes",
        "array(id / 7.0D, -id / 3.0D) AS doubles",
        "array(id % 2 = 0, id % 3 = 0) AS bools");
    long[] longs = new long[120];
    int[] ints = new int[120];
    short[] shorts = new short[60];
    byte[] bytes = new byte[60];
    double[] doubles = new double[120];
    boolean[] bools = new boolean[120];
    for (int i = 0; i < 60; i++) {
      longs[2 * i] = i;
      longs[2 * i + 1] = i * 2L;
      ints[2 * i] = i;
      ints[2 * i + 1] = -i;
      shorts[i] = (short) i;
      bytes[i] = (byte) (i % 100);
      doubles[2 * i] = i / 7.0;
      doubles[2 * i + 1] = -i / 3.0;
      bools[2 * i] = i % 2 == 0;
      bools[2 * i + 1] = i % 3 == 0;
    }
    expect(df, "longs", Tensor.of(longs, 60, 2));
    expect(df, "ints", Tensor.of(ints, 60, 2));
    expect(df, "shorts", Tensor.of(shorts, 60, 1));
    expect(df, "bytes", Tensor.of(bytes, 60, 1));
    expect(df, "doubles", Tensor.of(doubles, 60, 2));
    expect(df, "bools", Tensor.of(bools, 60, 2));
  }

  private static void expect(Dataset<Row> df, String column, Tensor expected) {
    DistTensor d = DistTensor.fromColumn(df, column);
    assertEquals(expected.dtype(), d.dtype(), column);
    assertArrayEquals(expected.shape(), d.shape(), column);
    assertTrue(d.toTensor().equal(expected), column);
    // and back: the same Spark SQL type, the same values
    Dataset<Row> back = d.toDataFrame(spark, column);
    assertEquals(df.schema().apply(column).dataType().simpleString().replace("containsNull", ""),
        back.schema().apply(column).dataType().simpleString(), column);
    assertTrue(DistTensor.fromColumn(back, column).toTensor().equal(expected), column);
  }

  @Test
  void numericColumnIsRankOne() {
    Dataset<Row> df = spark.range(0, 1000, 1, 4).selectExpr("id * 3 AS v");
    DistTensor d = DistTensor.fromColumn(df, "v");
    assertEquals(DType.INT64, d.dtype());
    assertArrayEquals(new long[] {1000}, d.shape());
    assertEquals(3 * 999L * 1000 / 2, d.sum().getLong());
    List<Row> rows = d.toDataFrame(spark, "w").collectAsList();
    Tensor local = d.toTensor();
    for (int i = 0; i < 1000; i++) {
      assertEquals(local.getLong(i), rows.get(i).getLong(0));
    }
  }

  @Test
  void raggedNullAndUnsupportedColumnsAreRefused() {
    Dataset<Row> ragged = featureTable(new float[][] {{1, 2}, {3, 4, 5}}, 1);
    // refused in the job that reads the column: the exception is the documented one, not Spark's
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DistTensor.fromColumn(ragged, "features"));
    assertEquals("column 'features': partition 0, row 1 has 3 elements where the rows before"
        + " have 2; a tensor's rows all have the same length", e.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> DistTensor.fromColumn(ragged, "nope"));
    assertEquals("DistTensor.fromColumn: no column 'nope' in [features]", missing.getMessage());
    Dataset<Row> strings = spark.range(3).selectExpr("cast(id AS string) AS s");
    IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
        () -> DistTensor.fromColumn(strings, "s"));
    assertTrue(type.getMessage().contains("column 's' has type string"), type.getMessage());
    Dataset<Row> nulls = spark.range(3).selectExpr("IF(id = 1, NULL, cast(id AS double)) AS v");
    e = assertThrows(IllegalArgumentException.class, () -> DistTensor.fromColumn(nulls, "v"));
    assertTrue(e.getMessage().contains("is null; a tensor has no missing values"),
        e.getMessage());
    DistTensor c64 = DistTensor.of(sc, Tensor.zeros(DType.COMPLEX64, 4, 2), 2);
    IllegalArgumentException dtype = assertThrows(IllegalArgumentException.class,
        () -> c64.toDataFrame(spark, "c"));
    assertTrue(dtype.getMessage().contains("complex64 has no Spark SQL type"), dtype.getMessage());
  }

  static String messages(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      sb.append(t.getMessage()).append(" | ");
    }
    return sb.toString();
  }

  @Test
  void arrowShardsRoundTrip(@TempDir Path dir) throws Exception {
    Tensor x = Tensor.randint(2, -100, 100, DType.INT16, 50, 3, 2);
    DistTensor d = DistTensor.of(sc, x, 3);
    Path out = dir.resolve("shards");
    d.writeArrow(out);
    List<Path> files;
    try (Stream<Path> s = Files.list(out)) {
      files = s.sorted().toList();
    }
    assertEquals(List.of("part-00000.arrow", "part-00001.arrow", "part-00002.arrow"),
        files.stream().map(p -> p.getFileName().toString()).toList());
    java.util.Map<String, Tensor> one = ArrowIpc.read(files.get(1));
    assertEquals(List.of("tensor"), List.copyOf(one.keySet()));
    assertTrue(one.get("tensor").equal(x.narrow(0, 17, 17)));
    DistTensor back = DistTensor.readArrow(sc, out);
    assertArrayEquals(new long[] {17, 17, 16}, back.blockRows());
    assertTrue(back.toTensor().equal(x));
    IllegalArgumentException again =
        assertThrows(IllegalArgumentException.class, () -> d.writeArrow(out));
    assertTrue(again.getMessage().contains("already holds .arrow files"), again.getMessage());
    // A shard pyarrow wrote (tools/oracle/gen_arrow.py: x = arange(3) + 10 k in two record
    // batches), beside ours of the same column type.
    Path golden = Path.of(System.getProperty("user.dir"))
        .resolveSibling("arrow/src/test/resources/arrow");
    Path mixed = Files.createDirectories(dir.resolve("pyarrow"));
    Files.copy(golden.resolve("batches.arrow"), mixed.resolve("a.arrow"));
    ArrowIpc.write(
        mixed.resolve("b.arrow"), java.util.Map.of("x", Tensor.arange(2).to(DType.INT32)));
    Tensor read = DistTensor.readArrow(sc, mixed).toTensor();
    assertTrue(read.equal(Tensor.of(new int[] {0, 1, 2, 10, 11, 12, 0, 1}, 8)), read.toString());
    // A file of several columns is refused, naming it and them.
    Path wide = Files.createDirectories(dir.resolve("wide"));
    Files.copy(golden.resolve("duckdb.arrow"), wide.resolve("d.arrow"));
    IllegalArgumentException columns =
        assertThrows(IllegalArgumentException.class, () -> DistTensor.readArrow(sc, wide));
    assertTrue(columns.getMessage().contains("d.arrow has 3 columns [i, x, v]"),
        columns.getMessage());
    Path empty = Files.createDirectories(dir.resolve("empty"));
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> DistTensor.readArrow(sc, empty));
    assertEquals("DistTensor.readArrow: no .arrow file in " + empty, none.getMessage());
    IllegalArgumentException complex = assertThrows(IllegalArgumentException.class,
        () -> DistTensor.of(sc, Tensor.zeros(DType.COMPLEX64, 4), 2).writeArrow(dir.resolve("c")));
    assertTrue(complex.getMessage().contains("Arrow has no type for complex64"),
        complex.getMessage());
    assertTrue(!Files.exists(dir.resolve("c")), "nothing left behind");
  }

  @Test
  void npyShardsRoundTrip(@TempDir Path dir) throws Exception {
    Tensor x = Tensor.randint(2, -100, 100, DType.INT16, 50, 3, 2);
    DistTensor d = DistTensor.of(sc, x, 3);
    Path out = dir.resolve("shards");
    d.writeNpy(out);
    List<Path> files;
    try (Stream<Path> s = Files.list(out)) {
      files = s.sorted().toList();
    }
    assertEquals(List.of("part-00000.npy", "part-00001.npy", "part-00002.npy"),
        files.stream().map(p -> p.getFileName().toString()).toList());
    assertTrue(Npy.read(files.get(1)).equal(x.narrow(0, 17, 17)));
    DistTensor back = DistTensor.readNpy(sc, out);
    assertArrayEquals(new long[] {17, 17, 16}, back.blockRows());
    assertTrue(back.toTensor().equal(x));
    IllegalArgumentException again =
        assertThrows(IllegalArgumentException.class, () -> d.writeNpy(out));
    assertTrue(again.getMessage().contains("already holds .npy files"), again.getMessage());
    // shards that disagree in their trailing shape are refused, naming the blocks
    Path mixed = dir.resolve("mixed");
    Files.createDirectories(mixed);
    Npy.write(mixed.resolve("a.npy"), Tensor.zeros(DType.FLOAT32, 2, 3));
    Npy.write(mixed.resolve("b.npy"), Tensor.zeros(DType.FLOAT32, 2, 4));
    IllegalArgumentException shapes =
        assertThrows(IllegalArgumentException.class, () -> DistTensor.readNpy(sc, mixed));
    assertTrue(shapes.getMessage().contains("block 1 has rows of shape [4] and block 0 [3]"),
        shapes.getMessage());
    Path empty = Files.createDirectories(dir.resolve("empty"));
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> DistTensor.readNpy(sc, empty));
    assertEquals("DistTensor.readNpy: no .npy file in " + empty, none.getMessage());
  }

  @Test
  void sparksCacheAccountingSeesTheNativeElements() {
    Block b = new Block(0, Tensor.zeros(DType.FLOAT32, 1 << 20));
    long estimate = org.apache.spark.util.SizeEstimator.estimate(b);
    assertTrue(estimate >= 4L << 20 && estimate < (4L << 20) + 4096, "estimate " + estimate);
  }

  @Test
  void blocksSerializeEveryDtypeExactly() throws Exception {
    for (DType t : new DType[] {DType.BOOL, DType.INT8, DType.UINT8, DType.INT64, DType.FLOAT16,
        DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128}) {
      Tensor x = Tensor.randn(3, DType.FLOAT64, 7, 5).mul(100.0).to(t);
      // a non-contiguous view: the block copies it into a contiguous tensor first
      Block b = new Block(11, x.transpose(0, 1));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(b);
      }
      Block read;
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        read = (Block) in.readObject();
      }
      assertEquals(11, read.startRow);
      assertEquals(t, read.tensor.dtype());
      assertTrue(read.tensor.equal(x.transpose(0, 1)), t.toString());
    }
  }
}
