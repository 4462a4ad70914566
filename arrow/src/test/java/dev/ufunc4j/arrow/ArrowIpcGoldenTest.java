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
 * Arrow IPC files and streams written by pyarrow, Polars and DuckDB (tools/oracle/gen_arrow.py)
 * read as tensors: dtype, shape and every value as NumPy computed them, and the single-batch
 * columns zero-copy views of the mapped file. Files we must refuse (nulls, compression, every
 * truncation and lie) are refused by name.
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
  @ValueSource(strings = {"pyarrow.arrow", "polars.arrow", "duckdb.arrow", "batches.arrow",
      "pyarrow.arrows", "polars.arrows", "batches.arrows"})
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
      boolean oneBatch = !file.startsWith("batches.");
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
    assertTrue(e.getMessage().contains("is not an Arrow IPC file or stream"), e.getMessage());
    assertFalse(e.getMessage().isEmpty());
  }

  /**
   * Every prefix of real files and streams (pyarrow's, Polars') ending in their metadata (every
   * 16th in a body), and every single-byte corruption (to 0x00 or 0xFF) of their metadata, is
   * refused with an
   * IllegalArgumentException or read (a stream cut at a message boundary is a shorter valid
   * stream; a corrupt value is just a value): never another exception, never a read outside.
   */
  @ParameterizedTest
  @ValueSource(strings = {"pyarrow.arrow", "pyarrow.arrows", "polars.arrows", "batches.arrow"})
  void truncatedAndCorruptedFilesAreRefused(String name, @TempDir Path dir) throws IOException {
    byte[] whole = Files.readAllBytes(resource(name));
    Path f = dir.resolve(name);
    int refused = 0;
    int tried = 0;
    for (int cut = 0; cut < whole.length; cut++) {
      if (!metadata(cut, whole.length) && cut % 16 != 0) {
        continue; // inside a body, every 16th cut is enough (a body cut is a cut body)
      }
      Files.write(f, java.util.Arrays.copyOf(whole, cut));
      tried++;
      refused += readOrRefuse(f, name + " cut at " + cut);
      if (cut % 500 == 0) {
        System.gc(); // unmap the mappings of the files read so far (an automatic arena each)
      }
    }
    // A file's prefix lacks the closing magic: all refused. A stream cut between two messages
    // is a valid shorter stream (pyarrow reads it too), so only most of them are.
    assertEquals(name.endsWith(".arrow") ? tried : refused, refused, name + " prefixes refused");
    assertTrue(refused > tried / 2, refused + " of " + tried + " prefixes refused");
    // Corrupt one byte at a time where the metadata is; elsewhere a byte is a value.
    for (int at = 0; at < whole.length; at++) {
      if (!metadata(at, whole.length)) {
        continue;
      }
      for (int value : new int[] {0x00, 0xFF}) {
        byte[] bad = whole.clone();
        bad[at] = (byte) value;
        Files.write(f, bad);
        readOrRefuse(f, name + " byte " + at + " = " + value);
      }
      if (at % 500 == 0) {
        System.gc(); // unmap the mappings of the files read so far (an automatic arena each)
      }
    }
  }

  /**
   * {@return whether byte {@code at} of a golden lies where its metadata is} The first 768 bytes
   * (the schema, a stream's first batch's metadata) and the last 384 (a file's footer).
   */
  private static boolean metadata(int at, int length) {
    return at < 768 || at >= length - 384;
  }

  private static int readOrRefuse(Path f, String what) throws IOException {
    try {
      Map<String, Tensor> read = ArrowIpc.read(f);
      for (Tensor t : read.values()) { // every element within the mapping: the last one read
        if (t.numel() > 0) {
          java.lang.foreign.MemorySegment m = t.contiguous().segment();
          m.get(java.lang.foreign.ValueLayout.JAVA_BYTE, m.byteSize() - 1);
        }
      }
      return 0;
    } catch (IllegalArgumentException refused) {
      assertFalse(refused.getMessage().isEmpty(), what);
      return 1;
    } catch (RuntimeException other) {
      throw new AssertionError(what + ": " + other, other);
    }
  }

  @Test
  void lyingMetadataIsRefusedNamingTheValues(@TempDir Path dir) throws IOException {
    byte[] whole = Files.readAllBytes(resource("batches.arrows"));
    Path f = dir.resolve("x.arrows");
    // The first message's metadata length, made larger than the file.
    byte[] bad = whole.clone();
    java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(4, 1 << 20);
    Files.write(f, bad);
    assertMessage(f, "the message at byte 0 claims 1048576 bytes of metadata; the file has "
        + (whole.length - 8) + " after it");
    // A file magic with the footer cut off.
    Path g = dir.resolve("x.arrow");
    byte[] file = Files.readAllBytes(resource("batches.arrow"));
    Files.write(g, java.util.Arrays.copyOf(file, file.length - 3));
    assertMessage(g, "has no ARROW1 magic at its end");
    // The footer length lies.
    bad = file.clone();
    java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .putInt(bad.length - 10, bad.length);
    Files.write(g, bad);
    assertMessage(g, "has a bad footer length " + bad.length);
    // Wrong magic: a Feather v1 / CSV-like start.
    Files.writeString(g, "FEA1 not arrow");
    assertMessage(g, "is not an Arrow IPC file or stream");
  }

  private static void assertMessage(Path f, String part) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ArrowIpc.read(f));
    assertTrue(e.getMessage().contains(part), e.getMessage() + "\n does not contain\n" + part);
  }
}
