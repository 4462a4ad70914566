package dev.ufunc4j.arrow;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.Test;

/**
 * arrow-java's C Data classes (19.0.0, with arrow-memory-unsafe: they run on JDK 25) as the
 * foreign side, in process: they import what we export and export what we import, with the data
 * buffer's address the same on both sides (no copy), and each side's release reaching the other.
 * Through them a DuckDB query's result (DuckDB's own Arrow export) becomes a tensor.
 */
@SuppressWarnings("restricted") // reinterpret of arrow-java's struct address
class ArrowJavaTest {

  private static MemorySegment at(long address) {
    return MemorySegment.ofAddress(address);
  }

  @Test
  void arrowJavaImportsOurExportWithoutACopy() {
    Tensor t = Tensor.arange(100).to(DType.FLOAT64);
    Tensor m = Tensor.arange(12).to(DType.FLOAT32).reshape(4, 3);
    try (BufferAllocator alloc = new RootAllocator()) {
      MemorySegment key;
      try (ArrowArray array = ArrowArray.allocateNew(alloc);
          ArrowSchema schema = ArrowSchema.allocateNew(alloc)) {
        ArrowTensors.exportTo(t, at(array.memoryAddress()), at(schema.memoryAddress()));
        key = at(array.memoryAddress()).reinterpret(CData.ARRAY.byteSize())
            .get(ADDRESS, CData.A_PRIVATE);
        try (FieldVector v = Data.importVector(alloc, array, schema, null)) {
          Float8Vector f = (Float8Vector) v;
          assertEquals(t.segment().address(), f.getDataBufferAddress(), "no copy");
          assertEquals(100, f.getValueCount());
          for (int i = 0; i < 100; i++) {
            assertEquals(i, f.get(i));
          }
          assertTrue(CData.isLive(key));
        }
      }
      assertFalse(CData.isLive(key), "closing arrow-java's vector called our release");
      try (ArrowArray array = ArrowArray.allocateNew(alloc);
          ArrowSchema schema = ArrowSchema.allocateNew(alloc)) {
        ArrowTensors.exportTo(m, at(array.memoryAddress()), at(schema.memoryAddress()));
        try (FieldVector v = Data.importVector(alloc, array, schema, null)) {
          // arrow-java knows no fixed_shape_tensor type: it sees the storage, a fixed-size list.
          FixedSizeListVector list = (FixedSizeListVector) v;
          assertEquals(3, list.getListSize());
          assertEquals(4, list.getValueCount());
          Float4Vector items = (Float4Vector) list.getDataVector();
          assertEquals(m.segment().address(), items.getDataBufferAddress(), "no copy");
          assertEquals(11f, items.get(11));
        }
      }
    }
  }

  @Test
  void weImportArrowJavasExportWithoutACopy() {
    try (BufferAllocator alloc = new RootAllocator()) {
      try (Float4Vector v = new Float4Vector("f", alloc);
          ArrowArray array = ArrowArray.allocateNew(alloc);
          ArrowSchema schema = ArrowSchema.allocateNew(alloc)) {
        v.allocateNew(10);
        for (int i = 0; i < 10; i++) {
          v.set(i, i * 0.5f);
        }
        v.setValueCount(10);
        Data.exportVector(alloc, v, null, array, schema);
        try (Arena arena = Arena.ofConfined()) {
          Tensor t = ArrowTensors.importFrom(
              at(array.memoryAddress()), at(schema.memoryAddress()), arena);
          assertEquals(v.getDataBufferAddress(), t.segment().address(), "no copy");
          for (int i = 0; i < 10; i++) {
            assertEquals(i * 0.5, t.getDouble(i));
          }
        }
      }
      assertEquals(0, alloc.getAllocatedMemory(), "our arena's close released arrow-java's export");
    }
  }

  @Test
  void aDuckDbQueryResultBecomesATensor() throws Exception {
    int n = 1000;
    try (BufferAllocator alloc = new RootAllocator();
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT (i * 0.5)::DOUBLE AS x FROM range(" + n + ") t(i)");
        ArrowReader reader =
            (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(alloc, 4096)) {
      assertTrue(reader.loadNextBatch());
      FieldVector x = reader.getVectorSchemaRoot().getVector("x");
      assertEquals(n, x.getValueCount());
      try (ArrowArray array = ArrowArray.allocateNew(alloc);
          ArrowSchema schema = ArrowSchema.allocateNew(alloc);
          Arena arena = Arena.ofConfined()) {
        Data.exportVector(alloc, x, null, array, schema);
        Tensor t = ArrowTensors.importFrom(
            at(array.memoryAddress()), at(schema.memoryAddress()), arena);
        assertEquals(x.getDataBufferAddress(), t.segment().address(), "no copy");
        // An op over DuckDB's memory: sum of (i/2)^2 = (n-1) n (2n-1) / 24, exact in doubles.
        double expected = (double) (n - 1) * n * (2L * n - 1) / 24;
        assertEquals(expected, t.mul(t).sum().getDouble());
      }
    }
  }

  /**
   * A DuckDB query result as a C stream, imported whole by {@link ArrowTensors#importStream}:
   * DuckDB's Arrow batches (read by arrow-java's stream reader, zero copy) handed out again
   * through arrow-java's C stream export, a foreign producer of ours.
   */
  @Test
  void aDuckDbQueryResultStreamBecomesTensors() throws Exception {
    int n = 10_000; // several DuckDB batches of 2048 rows: concatenated
    try (BufferAllocator alloc = new RootAllocator();
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT i::INTEGER AS i, (i * 0.5)::DOUBLE AS x,"
            + " [i, i + 1]::FLOAT[2] AS v FROM range(" + n + ") t(i) ORDER BY i");
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc);
        Arena arena = Arena.ofConfined()) {
      // The exported stream owns the reader: its release (ours to call) closes it.
      ArrowReader reader =
          (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(alloc, 2048);
      Data.exportArrayStream(alloc, reader, stream);
      Map<String, Tensor> t = ArrowTensors.importStream(at(stream.memoryAddress()), arena);
      assertEquals(DType.INT32, t.get("i").dtype());
      assertEquals((long) n * (n - 1) / 2, t.get("i").to(DType.INT64).sum().getLong());
      assertEquals((double) n * (n - 1) / 4, t.get("x").sum().getDouble());
      assertEquals(DType.FLOAT32, t.get("v").dtype());
      assertEquals(n, t.get("v").size(0));
      assertEquals(n - 1.0, t.get("v").getDouble(n - 2, 1));
    }
  }
}
