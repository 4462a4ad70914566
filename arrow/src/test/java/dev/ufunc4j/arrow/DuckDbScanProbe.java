package dev.ufunc4j.arrow;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.duckdb.DuckDBConnection;

/**
 * Issue 30 item 5's DuckDB figure, measured, not asserted: {@code SELECT sum(x)} over a tensor
 * column we export ({@link ArrowTensors#exportStream}, registered with DuckDB's JDBC driver: DuckDB
 * scans our memory in place) against the same query over a DuckDB table holding the same values
 * in DuckDB's own storage (its own scan speed). The two are interleaved, A then B, in each of
 * the runs; medians with min and max. A C stream is read once, so each arrow run exports and
 * registers a fresh one (its cost, microseconds, is included). Run from the repo root after
 * {@code mvn -o -pl arrow -am test-compile}:
 *
 * <pre>
 * mvn -B -ntp -o -q -pl arrow dependency:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=/tmp/arrow-cp.txt
 * java --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     --add-opens=java.base/java.nio=ALL-UNNAMED \
 *     -cp arrow/target/test-classes:arrow/target/classes:$(cat /tmp/arrow-cp.txt) \
 *     dev.ufunc4j.arrow.DuckDbScanProbe [rows, default 2^25] [DuckDB threads, default 1]
 * </pre>
 */
public final class DuckDbScanProbe {
  private DuckDbScanProbe() {}

  /** @param a the row count and DuckDB's thread count (optional) */
  public static void main(String[] a) throws Exception {
    long rows = a.length > 0 ? Long.parseLong(a[0]) : 1L << 25;
    int threads = a.length > 1 ? Integer.parseInt(a[1]) : 1;
    int runs = 11;
    Tensor x = Tensor.arange(rows).to(DType.FLOAT64);
    double expected = (double) rows * (rows - 1) / 2; // exact below 2^53
    long[] arrow = new long[runs];
    long[] own = new long[runs];
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        Arena arena = Arena.ofShared()) {
      s.execute("SET threads = " + threads);
      s.execute("CREATE TABLE native AS SELECT (i)::DOUBLE AS x FROM range(" + rows + ") t(i)");
      for (int r = -2; r < runs; r++) { // two warm-up rounds
        long t0 = System.nanoTime();
        MemorySegment stream = arena.allocate(CData.STREAM);
        ArrowTensors.exportStream(Map.of("x", x), stream);
        c.unwrap(DuckDBConnection.class)
            .registerArrowStream("t" + (r + 2), ArrowArrayStream.wrap(stream.address()));
        check(s, "SELECT sum(x) FROM t" + (r + 2), expected);
        long t1 = System.nanoTime();
        check(s, "SELECT sum(x) FROM native", expected);
        long t2 = System.nanoTime();
        if (r >= 0) {
          arrow[r] = t1 - t0;
          own[r] = t2 - t1;
        }
      }
    }
    Arrays.sort(arrow);
    Arrays.sort(own);
    double gib = rows * 8.0 / (1L << 30);
    System.out.printf("DuckDB SELECT sum(x), %d float64 rows (%.2f GiB), %d thread(s), %d runs"
        + " interleaved, load %s%n", rows, gib, threads, runs, load());
    report("our exported tensor (Arrow stream)", arrow, gib);
    report("DuckDB's own table", own, gib);
    System.out.printf("ratio of medians (ours / DuckDB's): %.2f%n",
        (double) arrow[runs / 2] / own[runs / 2]);
  }

  private static void check(Statement s, String sql, double expected) throws Exception {
    try (ResultSet r = s.executeQuery(sql)) {
      r.next();
      if (r.getDouble(1) != expected) {
        throw new AssertionError(sql + " = " + r.getDouble(1) + ", not " + expected);
      }
    }
  }

  private static void report(String what, long[] ns, double gib) {
    System.out.printf("  %-36s median %.1f ms (min %.1f, max %.1f) = %.2f GiB/s%n", what,
        ns[ns.length / 2] / 1e6, ns[0] / 1e6, ns[ns.length - 1] / 1e6,
        gib / (ns[ns.length / 2] / 1e9));
  }

  private static String load() throws Exception {
    return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
  }
}
