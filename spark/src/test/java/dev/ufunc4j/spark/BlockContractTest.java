package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Npy;
import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a block's result must be (issue 23, item 5) and which exception a failed job throws (item
 * 13). Every way a block op can break its block — fewer rows, more rows, another trailing shape,
 * another dtype, a zero-dim result, null — against every way its result is consumed (gathered,
 * summed, written, turned into a DataFrame, fed to another op): each must fail, naming the block,
 * instead of yielding zero-filled rows, a silently broadcast sum or a short table.
 */
class BlockContractTest extends SparkTestSession {
  /** 10 rows in 3 blocks of 4, 3 and 3 rows: the malformed ops below break block 0 only. */
  static final Tensor X = Tensor.randn(31, DType.FLOAT32, 10, 4);

  /** Each malformation of a [rows, 4] float32 block, and how the message describes its result. */
  static final Map<String, DistTensor.Op1> MALFORMED = Map.of(
      "float32 [1, 4]", t -> t.narrow(0, 0, 1),                       // fewer rows
      "float32 [5, 4]", t -> Tensor.zeros(DType.FLOAT32, 5, 4),       // more rows
      "float32 [4, 3]", t -> t.narrow(1, 0, 3),                       // other trailing shape
      "float64 [4, 4]", t -> t.to(DType.FLOAT64),                     // other dtype
      "float32 []", t -> t.sum(),                                     // no rows at all
      "null", t -> null);

  /** The malformation on block 0 (its 4 rows) only; the other blocks and zero rows are fine. */
  static DistTensor.Op1 onBlock0(DistTensor.Op1 bad) {
    return t -> t.shape()[0] == 4 ? bad.apply(t) : Ops.mul(t, 2.0);
  }

  static final String BLOCK0 =
      "DistTensor.map: the op's result on block 0 (rows [0, 4) of 10) is ";

  @Test
  void everyMalformedBlockFailsEveryConsumerNamingTheBlock(@TempDir Path dir) {
    DistTensor d = DistTensor.of(sc, X, 3);
    assertArrayEquals(new long[] {4, 3, 3}, d.blockRows());
    int n = 0;
    for (Map.Entry<String, DistTensor.Op1> m : MALFORMED.entrySet()) {
      DistTensor bad = d.map(onBlock0(m.getValue()));
      // the driver's prediction, from the op on zero rows, is the rows-preserving one
      assertArrayEquals(new long[] {10, 4}, bad.shape());
      assertEquals(DType.FLOAT32, bad.dtype());
      String expected = BLOCK0 + m.getKey() + ", not float32 [4, 4] as the op's result on zero"
          + " rows predicted: an op applied block by block must keep each block's rows and give"
          + " every block the same trailing shape and dtype (a result of another shape per block"
          + " is DistTensor.sumBlocks' business)";
      Path out = dir.resolve("out" + n++);
      Map<String, Executable> consumers = Map.of(
          "toTensor", bad::toTensor,
          "sum", bad::sum,
          "sum over dim 0", () -> bad.sum(new int[] {0}, false),
          "sumToShape", () -> bad.sumToShape(4),
          "materialize", bad::materialize,
          "another op", () -> bad.map(Ops::neg).apply(Ops::add, d).toTensor(),
          "writeNpy", () -> bad.writeNpy(out));
      for (Map.Entry<String, Executable> c : consumers.entrySet()) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, c.getValue(), c.getKey());
        assertEquals(expected, e.getMessage(), c.getKey());
        // Spark's report of the failed job stays attached, for the driver's stack
        assertInstanceOf(SparkException.class, e.getSuppressed()[0], c.getKey());
      }
      assertFalse(Files.exists(out), "writeNpy left " + out + " behind");
      // a DataFrame is lazy: the failure comes with the caller's own Spark action
      Exception e = assertThrows(Exception.class,
          () -> bad.toDataFrame(spark, "v").collectAsList());
      assertTrue(SparkTensorsTest.messages(e).contains(expected), SparkTensorsTest.messages(e));
    }
  }

  @Test
  void theIssuesSliceIsRefused() {
    // x.slice(0, 0, 1, 1) keeps one row of every block (and zero of zero rows): the job fails on
    // whichever block runs first
    DistTensor sliced = DistTensor.of(sc, X, 3).map(t -> t.slice(0, 0, 1, 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, sliced::toTensor);
    assertTrue(e.getMessage().matches("DistTensor\\.map: the op's result on block [0-2]"
        + " \\(rows \\[[0-9]+, [0-9]+\\) of 10\\) is float32 \\[1, 4\\], not float32 \\[[34], 4\\]"
        + " .*"), e.getMessage());
  }

  @Test
  void writeNpyIntoAnExistingDirectoryLeavesItAsItWas(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("README"), "kept");
    DistTensor bad = DistTensor.of(sc, X, 3).map(onBlock0(t -> t.narrow(0, 0, 1)));
    assertThrows(IllegalArgumentException.class, () -> bad.writeNpy(dir));
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of("README"), s.map(p -> p.getFileName().toString()).toList());
    }
    // and a good tensor is committed whole into the same directory
    DistTensor good = DistTensor.of(sc, X, 3).map(t -> Ops.mul(t, 2.0));
    good.writeNpy(dir);
    assertTrue(DistTensor.readNpy(sc, dir).toTensor().equal(Ops.mul(X, 2.0)));
  }

  @Test
  void sumBlocksRefusesABlockOfAnotherShapeOrDtype() {
    DistTensor d = DistTensor.of(sc, X, 3);
    // the column sums of each block, [4] float32; block 0 breaks it in three ways
    Map<String, DistTensor.BlockFn> malformed = Map.of(
        "float32 []", args -> args[0].sum(),
        "float64 [4]", args -> args[0].sum(new int[] {0}, false).to(DType.FLOAT64),
        "null", args -> null);
    for (Map.Entry<String, DistTensor.BlockFn> m : malformed.entrySet()) {
      DistTensor.BlockFn bad = m.getValue();
      DistTensor.BlockFn fn = args -> args[0].shape()[0] == 4
          ? bad.apply(args) : args[0].sum(new int[] {0}, false);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> DistTensor.sumBlocks(fn, d));
      assertEquals("DistTensor.sumBlocks: fn's result on block 0 (rows [0, 4) of 10) is "
          + m.getKey() + ", not float32 [4] as fn's result on zero rows predicted: sumBlocks adds"
          + " the blocks' results up, which must all have the same shape and dtype (a shape that"
          + " depends on the block would broadcast silently in the sum)", e.getMessage());
    }
    // the well-formed step still sums
    assertTrue(DistTensor.sumBlocks(args -> args[0].sum(new int[] {0}, false), d)
        .allClose(X.sum(new int[] {0}, false), 1e-5, 1e-5, false));
  }

  @Test
  void aNullResultOnZeroRowsIsRefusedOnTheDriver() {
    DistTensor d = DistTensor.of(sc, X, 3);
    IllegalArgumentException e =
        DistTensorTest.refusedBeforeAnyJob(IllegalArgumentException.class, () -> d.map(t -> null));
    assertEquals("DistTensor.map: the op returned null on zero rows; an op must return a tensor",
        e.getMessage());
  }

  // ============================================================================================
  // Item 13: a failed job throws the documented exception, not Spark's wrapper
  // ============================================================================================

  @Test
  void aValueTheOpRefusesOnAnExecutorThrowsTheLocalException() {
    Tensor ints = Tensor.randint(32, 1, 9, DType.INT32, 6, 2);
    Tensor zeros = Tensor.zeros(DType.INT32, 6, 2);
    ArithmeticException local = assertThrows(ArithmeticException.class,
        () -> Ops.remainder(ints, zeros));
    // zero rows divide nothing: the driver's dry run passes, the executors refuse
    DistTensor r = DistTensor.of(sc, ints, 2).apply(Ops::remainder, zeros);
    for (Executable action : List.<Executable>of(r::toTensor, r::sum, r::materialize,
        () -> DistTensor.sumBlocks(args -> args[0].sum(), r))) {
      ArithmeticException e = assertThrows(ArithmeticException.class, action);
      assertEquals(local.getMessage(), e.getMessage());
      assertInstanceOf(SparkException.class, e.getSuppressed()[0]);
    }
  }

  @Test
  void readersThrowTheirDocumentedTypes(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("a.npy"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
    IOException e = assertThrows(IOException.class, () -> DistTensor.readNpy(sc, dir));
    IOException local = assertThrows(IOException.class, () -> Npy.read(dir.resolve("a.npy")));
    assertEquals(local.getMessage(), e.getMessage());
    assertInstanceOf(SparkException.class, e.getSuppressed()[0]);
  }

  @Test
  void writeNpyOfADtypeNumpyLacksThrowsItsRefusal(@TempDir Path dir) {
    Tensor c32 = Tensor.zeros(DType.COMPLEX32, 4, 2);
    IllegalArgumentException local = assertThrows(IllegalArgumentException.class,
        () -> Npy.write(dir.resolve("local.npy"), c32));
    Path out = dir.resolve("c32");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DistTensor.of(sc, c32, 2).writeNpy(out));
    assertEquals(local.getMessage(), e.getMessage());
    assertFalse(Files.exists(out));
  }
}
