package dev.ufunc4j.arrow;

import static dev.ufunc4j.arrow.CData.ARRAY;
import static dev.ufunc4j.arrow.CData.A_BUFFERS;
import static dev.ufunc4j.arrow.CData.A_LENGTH;
import static dev.ufunc4j.arrow.CData.A_NULL_COUNT;
import static dev.ufunc4j.arrow.CData.A_PRIVATE;
import static dev.ufunc4j.arrow.CData.A_RELEASE;
import static dev.ufunc4j.arrow.CData.SCHEMA;
import static dev.ufunc4j.arrow.CData.S_FORMAT;
import static dev.ufunc4j.arrow.CData.S_METADATA;
import static dev.ufunc4j.arrow.CData.S_RELEASE;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.TensorScope;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The C Data Interface: what an export writes into the structs (formats, the tensor extension's
 * metadata, the tensor's own memory), that the consumer's release frees it, that an import shares
 * the producer's buffer and releases it when its arena closes or its tensor becomes unreachable,
 * and the refusals, with the structs untouched.
 */
// Restricted FFM methods (upcalls, reinterpret of C pointers): the module is native code's peer.
@SuppressWarnings("restricted")
class ArrowTensorsTest {

  private static final Arena TEST = Arena.ofShared();

  private static MemorySegment newArray() {
    return TEST.allocate(ARRAY);
  }

  private static MemorySegment newSchema() {
    return TEST.allocate(SCHEMA);
  }

  private static MemorySegment dataBuffer(MemorySegment array) {
    return CData.pointer(array, A_BUFFERS).reinterpret(16).get(ADDRESS, 8);
  }

  @ParameterizedTest
  @EnumSource(value = DType.class, names = {"INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32",
      "INT64", "UINT64", "FLOAT16", "FLOAT32", "FLOAT64"})
  void rankOneRoundTripSharesTheMemory(DType dtype) {
    Tensor t = Tensor.arange(7).to(dtype);
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    ArrowTensors.exportTo(t, array, schema);
    assertEquals(ArrowTypes.format(dtype), CData.string(CData.pointer(schema, S_FORMAT)));
    assertEquals(7, array.get(JAVA_LONG, A_LENGTH));
    assertEquals(t.segment().address(), dataBuffer(array).address(), "export shares the tensor");
    MemorySegment exported = CData.pointer(array, A_PRIVATE);
    try (Arena arena = Arena.ofConfined()) {
      Tensor back = ArrowTensors.importFrom(array, schema, arena);
      assertEquals(t.segment().address(), back.segment().address(), "import shares it too");
      assertTrue(CData.isReleased(schema, S_RELEASE), "the schema is consumed");
      assertTrue(CData.isReleased(array, A_RELEASE), "the array is moved");
      assertTrue(back.equal(t));
      assertTrue(CData.isLive(exported), "held while the imported tensor may be used");
    }
    assertFalse(CData.isLive(exported), "closing the arena called our release");
  }

  @Test
  void rankThreeIsAFixedShapeTensorOfTheRows() {
    Tensor t = Tensor.arange(24).to(DType.FLOAT32).reshape(4, 2, 3);
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    ArrowTensors.exportTo(t, array, schema);
    assertEquals("+w:6", CData.string(CData.pointer(schema, S_FORMAT)));
    Map<String, String> meta = CData.metadata(CData.pointer(schema, S_METADATA));
    assertEquals(Map.of("ARROW:extension:name", "arrow.fixed_shape_tensor",
        "ARROW:extension:metadata", "{\"shape\":[2,3]}"), meta);
    assertEquals(4, array.get(JAVA_LONG, A_LENGTH));
    MemorySegment child = CData.pointer(array, CData.A_CHILDREN).reinterpret(8).get(ADDRESS, 0)
        .reinterpret(ARRAY.byteSize());
    assertEquals(24, child.get(JAVA_LONG, A_LENGTH));
    assertEquals(t.segment().address(), dataBuffer(child).address());
    Tensor back = ArrowTensors.importFrom(array, schema);
    assertArrayEquals(new long[] {4, 2, 3}, back.shape());
    assertEquals(t.segment().address(), back.segment().address());
    assertTrue(back.equal(t));
  }

  @Test
  void aNonContiguousTensorIsExportedAsAContiguousCopy() {
    Tensor t = Tensor.arange(6).to(DType.FLOAT32).reshape(2, 3).t(); // [[0,3],[1,4],[2,5]]
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    ArrowTensors.exportTo(t, array, schema);
    MemorySegment child = CData.pointer(array, CData.A_CHILDREN).reinterpret(8).get(ADDRESS, 0)
        .reinterpret(ARRAY.byteSize());
    MemorySegment data = dataBuffer(child).reinterpret(6 * 4);
    assertNotEquals(t.segment().address(), data.address());
    float[] row = new float[6];
    for (int i = 0; i < 6; i++) {
      row[i] = data.getAtIndex(JAVA_FLOAT, i);
    }
    assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, row);
    CData.release(array, A_RELEASE);
    CData.release(schema, S_RELEASE);
  }

  @Test
  void boolIsBitPackedBothWays() {
    boolean[] v = {true, false, true, true, false, false, true, false, true};
    Tensor t = Tensor.of(v);
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    ArrowTensors.exportTo(t, array, schema);
    assertEquals("b", CData.string(CData.pointer(schema, S_FORMAT)));
    MemorySegment bits = dataBuffer(array).reinterpret(2);
    // Arrow's bit order: least significant bit first. Bits 0, 2, 3, 6, then bit 8.
    assertEquals(1 + 4 + 8 + 64, bits.get(JAVA_BYTE, 0));
    assertEquals(1, bits.get(JAVA_BYTE, 1));
    Tensor back = ArrowTensors.importFrom(array, schema);
    assertTrue(back.equal(t));
  }

  @Test
  void theExportKeepsTheTensorAliveUntilReleased() throws InterruptedException {
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    ArrowTensors.exportTo(Tensor.full(DType.FLOAT32, 2.5, 1000), array, schema);
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(20);
      Tensor.zeros(DType.FLOAT32, 1000); // would reuse a freed block
    }
    MemorySegment data = dataBuffer(array).reinterpret(4000);
    assertEquals(2.5f, data.getAtIndex(JAVA_FLOAT, 999));
    MemorySegment key = CData.pointer(array, A_PRIVATE);
    assertTrue(CData.isLive(key));
    CData.release(array, A_RELEASE);
    CData.release(schema, S_RELEASE);
    assertFalse(CData.isLive(key));
    assertTrue(CData.isReleased(array, A_RELEASE));
  }

  @Test
  void anUnreachableImportReleasesTheProducer() throws InterruptedException {
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    ArrowTensors.exportTo(Tensor.arange(100).to(DType.INT32), array, schema);
    MemorySegment key = CData.pointer(array, A_PRIVATE);
    Tensor imported = ArrowTensors.importFrom(array, schema);
    assertEquals(99, imported.getLong(99));
    imported = null;
    for (int i = 0; i < 200 && CData.isLive(key); i++) {
      System.gc();
      Thread.sleep(25);
    }
    assertFalse(CData.isLive(key), "the Cleaner called the producer's release");
  }

  @Test
  void nullsAreRefusedNamingTheRowAndTheStructsAreLeftAlone() {
    // A producer's array of 4 doubles whose validity bitmap marks row 2 null.
    MemorySegment validity = TEST.allocate(1);
    validity.set(JAVA_BYTE, 0, (byte) 0b1011);
    MemorySegment values = TEST.allocate(32, 8);
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    CData.fillSchema(schema, new CData.SchemaNode("g", "v", Map.of(), List.of()));
    CData.fillArray(
        array, new CData.ArrayNode(4, Arrays.asList(validity, values), List.of(), null));
    array.set(JAVA_LONG, A_NULL_COUNT, 1);
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> ArrowTensors.importFrom(array, schema));
    assertEquals("a tensor has no nulls: row 2 is null in arrowArray; fill or drop the nulls"
        + " first", e.getMessage());
    assertFalse(CData.isReleased(array, A_RELEASE), "still the caller's");
    assertFalse(CData.isReleased(schema, S_RELEASE));
    CData.release(array, A_RELEASE);
    CData.release(schema, S_RELEASE);
  }

  @Test
  void refusals() {
    MemorySegment array = newArray();
    MemorySegment schema = newSchema();
    assertMessage("a zero-dim tensor has no Arrow array",
        () -> ArrowTensors.exportTo(Tensor.scalar(1.0), array, schema));
    assertMessage("Arrow has no type for bfloat16 tensors",
        () -> ArrowTensors.exportTo(Tensor.zeros(DType.BFLOAT16, 2), array, schema));
    assertMessage("Arrow has no type for complex64 tensors",
        () -> ArrowTensors.exportTo(Tensor.zeros(DType.COMPLEX64, 2), array, schema));
    assertMessage("arrowSchema is 8 bytes; the struct needs 72",
        () -> ArrowTensors.exportTo(Tensor.zeros(DType.INT8, 2), array, TEST.allocate(8)));
    assertMessage("arrowArray and arrowSchema are the same struct",
        () -> ArrowTensors.exportTo(Tensor.zeros(DType.INT8, 2), array, array));
    assertEquals(0, array.get(JAVA_LONG, A_LENGTH), "nothing written");
    assertTrue(CData.isReleased(array, A_RELEASE));
    assertMessage("arrowSchema is released",
        () -> ArrowTensors.importFrom(array, schema));
    try (var _ = TensorScope.open()) {
      Tensor scoped = Tensor.ones(DType.FLOAT32, 3);
      assertMessage("belongs to a TensorScope",
          () -> ArrowTensors.exportTo(scoped, array, schema));
    }
    // A string array: no tensor dtype.
    CData.fillSchema(schema, new CData.SchemaNode("u", "s", Map.of(), List.of()));
    CData.fillArray(array, new CData.ArrayNode(
        0, Arrays.<MemorySegment>asList(null, null, null), List.of(), null));
    assertMessage("Arrow type \"u\" has no tensor dtype",
        () -> ArrowTensors.importFrom(array, schema));
    CData.release(array, A_RELEASE);
    CData.release(schema, S_RELEASE);
  }

  private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
