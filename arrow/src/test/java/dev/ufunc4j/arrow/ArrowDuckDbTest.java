package dev.ufunc4j.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

/**
 * In process, a real foreign consumer: DuckDB's JDBC driver registers our C stream export
 * ({@link ArrowTensors#exportStream}) as a table and runs SQL over the tensors' memory. Expected
 * values are the closed forms of the sums (the data is {@code arange}), not our output.
 */
class ArrowDuckDbTest {

  @Test
  void duckDbQueriesTensorsWeExport() throws Exception {
    queryOurStream(ArrowTensors.BATCH_ROWS); // one batch
  }

  /** In batches of 64 rows (zero-copy slices, bool's bits split at bytes): DuckDB's threads. */
  @Test
  void duckDbQueriesTensorsWeExportInSeveralBatches() throws Exception {
    queryOurStream(64);
  }

  private static void queryOurStream(long batchRows) throws Exception {
    int n = 1000;
    Map<String, Tensor> columns = new LinkedHashMap<>();
    columns.put("id", Tensor.arange(n));                                          // int64
    columns.put("x", Tensor.arange(n).to(DType.FLOAT64));
    columns.put("small", Tensor.arange(n).to(DType.INT16));
    columns.put("u", Tensor.arange(n).to(DType.UINT32));
    columns.put("v", Tensor.arange(3 * n).to(DType.FLOAT32).reshape(n, 3));     // FLOAT[3]
    columns.put("flag", Tensor.arange(n).remainder(3L).eq(0L));                  // bool
    MemorySegment key;
    try (Arena arena = Arena.ofShared();
        Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
      MemorySegment stream = arena.allocate(CData.STREAM);
      ArrowTensors.exportStream(columns, stream, batchRows);
      key = stream.get(ValueLayout.ADDRESS, CData.ST_PRIVATE);
      c.unwrap(DuckDBConnection.class)
          .registerArrowStream("t", ArrowArrayStream.wrap(stream.address()));
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT count(*), sum(id), sum(x), sum(small), sum(u),"
              + " sum(v[2]), count(*) FILTER (WHERE flag), typeof(any_value(v)) FROM t")) {
        assertTrue(r.next());
        long sum = (long) n * (n - 1) / 2;
        assertEquals(n, r.getLong(1));
        assertEquals(sum, r.getLong(2));
        assertEquals((double) sum, r.getDouble(3));
        assertEquals(sum, r.getLong(4));
        assertEquals(sum, r.getLong(5));
        assertEquals(3.0 * sum + n, r.getDouble(6)); // v[2] (1-based) of row i is 3i + 1
        assertEquals((n + 2) / 3, r.getLong(7));
        assertEquals("FLOAT[3]", r.getString(8));
      }
    }
    assertFalse(CData.isLiveStream(key), "DuckDB released the stream");
  }
}
