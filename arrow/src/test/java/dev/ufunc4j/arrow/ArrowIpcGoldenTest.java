package dev.ufunc4j.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrow IPC files written by pyarrow, Polars and DuckDB (tools/oracle/gen_arrow.py) read as
 * tensors: dtype, shape and every value as NumPy computed them, and the single-batch columns
 * zero-copy views of the mapped file. Files we must refuse are refused by name.
 */
class ArrowIpcGoldenTest {

  static Path resource(String name) {
    try {
      return Path.of(ArrowIpcGoldenTest.class.getResource("/arrow/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  static JsonObject expect() throws IOException {
    return JsonParser.parseString(Files.readString(resource("expect.json"))).getAsJsonObject();
  }

  @ParameterizedTest
  @ValueSource(strings = {"pyarrow.arrow", "polars.arrow", "duckdb.arrow", "batches.arrow"})
  void readsWhatTheClientsWrote(String file) throws IOException {
    JsonObject columns = expect().getAsJsonObject(file);
    Map<String, Tensor> read = ArrowIpc.read(resource(file));
    assertEquals(List.copyOf(columns.keySet()), List.copyOf(read.keySet()), file + " columns");
    for (Map.Entry<String, JsonElement> c : columns.entrySet()) {
      JsonObject e = c.getValue().getAsJsonObject();
      DType dtype = DType.valueOf(e.get("dtype").getAsString().toUpperCase());
      long[] shape = new Gsonish(e).longs("shape");
      List<String> values = new ArrayList<>();
      e.getAsJsonArray("values").forEach(v -> values.add(v.getAsString()));
      Tensor t = read.get(c.getKey());
      Elementwise.assertTensor(file + " " + c.getKey(), t, dtype, shape, values);
      // No copy: a column of a one-batch file is a view of the file's mapping (bool excepted:
      // Arrow's bits are unpacked to bytes).
      boolean oneBatch = !file.equals("batches.arrow");
      assertEquals(oneBatch && dtype != DType.BOOL, t.segment().isMapped(),
          file + " " + c.getKey() + " mapped");
    }
  }

  /** A tiny reader of the JSON arrays of numbers. */
  record Gsonish(JsonObject o) {
    long[] longs(String key) {
      var a = o.getAsJsonArray(key);
      long[] out = new long[a.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = a.get(i).getAsLong();
      }
      return out;
    }
  }

  @Test
  void writesToAMappedColumnNeverReachTheFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("duckdb.arrow");
    Files.copy(resource("duckdb.arrow"), f);
    byte[] before = Files.readAllBytes(f);
    Tensor t = ArrowIpc.read(f).get("x");
    t.addInPlace(1.0);
    assertEquals(1.5, t.getDouble(1)); // DuckDB's 0.5, plus 1
    assertEquals(0.5, ArrowIpc.read(f).get("x").getDouble(1));
    assertArrayEquals(before, Files.readAllBytes(f));
  }

  @Test
  void refusesANullNamingItsRow() {
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> ArrowIpc.read(resource("nulls.arrow")));
    assertTrue(e.getMessage().contains("row 1 is null"), e.getMessage());
    assertTrue(e.getMessage().contains("column \"v\""), e.getMessage());
  }

  @Test
  void refusesACompressedFile() {
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> ArrowIpc.read(resource("lz4.arrow")));
    assertTrue(e.getMessage().contains("is compressed"), e.getMessage());
  }

  @Test
  void refusesWhatIsNotAnArrowFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("x.arrow");
    Files.writeString(f, "not an arrow file at all, really");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ArrowIpc.read(f));
    assertTrue(e.getMessage().contains("is not an Arrow IPC file"), e.getMessage());
    assertFalse(e.getMessage().isEmpty());
  }
}
