package dev.ufunc4j.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files and streams we write: read back by us (every dtype, the tensor extension, a
 * non-contiguous tensor), and opened by pyarrow, Polars and DuckDB (tools/oracle/check_arrow.py,
 * which computes the expected columns with NumPy), refusing bad columns before the file exists.
 */
class ArrowIpcWriteTest {

  /** The columns of ours.arrow; check_arrow.py builds the same ones with NumPy. */
  static Map<String, Tensor> columns() {
    Map<String, Tensor> c = new LinkedHashMap<>();
    for (DType d : ArrowTypes.SUPPORTED) {
      if (d != DType.BOOL) {
        c.put(d.toString(), Tensor.arange(4).to(d));
      }
    }
    c.put("half", Tensor.of(new float[] {0f, 0.5f, 1.5f, -2f}).to(DType.FLOAT16));
    c.put("flags", Tensor.of(new boolean[] {true, false, false, true}));
    c.put("tensor", Tensor.arange(24).to(DType.FLOAT32).reshape(4, 2, 3));
    c.put("transposed", Tensor.arange(16).reshape(4, 4).t());
    return c;
  }

  @Test
  void readsBackWhatItWrote(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("ours.arrow");
    Map<String, Tensor> written = columns();
    ArrowIpc.write(f, written);
    Map<String, Tensor> read = ArrowIpc.read(f);
    assertEquals(List.copyOf(written.keySet()), List.copyOf(read.keySet()));
    for (var e : written.entrySet()) {
      Tensor r = read.get(e.getKey());
      assertEquals(e.getValue().dtype(), r.dtype(), e.getKey());
      assertArrayEquals(e.getValue().shape(), r.shape(), e.getKey());
      assertTrue(r.equal(e.getValue()), e.getKey());
      assertEquals(r.dtype() != DType.BOOL, r.segment().isMapped(), e.getKey() + " mapped");
      assertEquals(0, r.segment().address() % 64, e.getKey() + " 64-byte aligned");
    }
    assertFalse(Files.exists(dir.resolve("ours.arrow.tmp")));
  }

  @Test
  void readsBackTheStreamItWrote(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("ours.arrows");
    Map<String, Tensor> written = columns();
    ArrowIpc.writeStream(f, written);
    byte[] bytes = Files.readAllBytes(f);
    assertEquals(-1, java.nio.ByteBuffer.wrap(bytes).getInt(0), "a continuation marker, no magic");
    Map<String, Tensor> read = ArrowIpc.read(f);
    assertEquals(List.copyOf(written.keySet()), List.copyOf(read.keySet()));
    for (var e : written.entrySet()) {
      Tensor r = read.get(e.getKey());
      assertArrayEquals(e.getValue().shape(), r.shape(), e.getKey());
      assertTrue(r.equal(e.getValue()), e.getKey());
      assertEquals(r.dtype() != DType.BOOL, r.segment().isMapped(), e.getKey() + " mapped");
    }
    Map<String, Tensor> complex = Map.of("z", Tensor.zeros(DType.COMPLEX64, 2));
    Path g = dir.resolve("bad.arrows");
    assertThrows(IllegalArgumentException.class, () -> ArrowIpc.writeStream(g, complex));
    assertFalse(Files.exists(g));
  }

  @Test
  void refusesBadColumnsBeforeWriting(@TempDir Path dir) {
    Path f = dir.resolve("bad.arrow");
    Map<String, Tensor> rows = new LinkedHashMap<>();
    rows.put("a", Tensor.zeros(DType.FLOAT32, 3));
    rows.put("b", Tensor.zeros(DType.FLOAT32, 4, 2));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ArrowIpc.write(f, rows));
    assertEquals("column \"b\" has 4 rows (shape [4, 2]) but column \"a\" has 3", e.getMessage());
    Map<String, Tensor> complex = Map.of("z", Tensor.zeros(DType.COMPLEX64, 2));
    e = assertThrows(IllegalArgumentException.class, () -> ArrowIpc.write(f, complex));
    assertTrue(e.getMessage().startsWith("column \"z\": Arrow has no type for complex64"),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ArrowIpc.write(f, Map.of()));
    assertFalse(Files.exists(f));
  }

  /**
   * pyarrow, Polars and DuckDB open our file (tools/oracle/check_arrow.py). The oracle venv
   * (tools/oracle/venv.sh; .ci/run makes it) is found by UFUNC4J_VENV, else the repo's
   * .venv-oracle; without one the test is skipped, saying so.
   */
  @Test
  void theClientsOpenOurFile(@TempDir Path dir) throws IOException, InterruptedException {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    String venv = System.getenv("UFUNC4J_VENV");
    Path python = (venv != null ? Path.of(venv) : root.resolve(".venv-oracle"))
        .resolve("bin/python");
    assumeTrue(Files.isExecutable(python), "no oracle venv at " + python
        + ": create it with tools/oracle/venv.sh (or set UFUNC4J_VENV) to run the client check");
    Path f = dir.resolve("ours.arrow");
    ArrowIpc.write(f, columns());
    Path stream = dir.resolve("ours.arrows");
    ArrowIpc.writeStream(stream, columns());
    Process p = new ProcessBuilder(python.toString(),
        root.resolve("tools/oracle/check_arrow.py").toString(), f.toString(), stream.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "check_arrow.py finished");
    assertEquals(0, p.exitValue(), out);
    for (String format : List.of("file", "stream")) {
      for (String client : List.of("pyarrow", "polars", "duckdb")) {
        assertTrue(out.contains(client + " " + format + " ok"), out);
      }
    }
  }
}
