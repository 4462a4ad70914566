package dev.ufunc4j.arrow;

import static dev.ufunc4j.arrow.CData.ARRAY;
import static dev.ufunc4j.arrow.CData.A_BUFFERS;
import static dev.ufunc4j.arrow.CData.A_CHILDREN;
import static dev.ufunc4j.arrow.CData.A_LENGTH;
import static dev.ufunc4j.arrow.CData.A_NULL_COUNT;
import static dev.ufunc4j.arrow.CData.A_N_CHILDREN;
import static dev.ufunc4j.arrow.CData.A_PRIVATE;
import static dev.ufunc4j.arrow.CData.A_RELEASE;
import static dev.ufunc4j.arrow.CData.SCHEMA;
import static dev.ufunc4j.arrow.CData.STREAM;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowTensors#importStream}: the C Stream Interface consumed. Our own stream export comes
 * back without a copy; a producer made here of FFM upcalls (standing for any foreign library)
 * yields several batches, no batch, and every lie a hostile or broken producer can tell. Each
 * refusal names the batch, column and value, releases the stream exactly once and releases every
 * batch it handed out; a stream refused before its first callback is left untouched.
 */
// Restricted FFM methods (upcalls, reinterpret of C pointers): the test plays the native producer.
@SuppressWarnings("restricted")
class ArrowStreamImportTest {

  private static final Arena TEST = Arena.ofShared();

  /** A producer: a schema, its batches, and where it fails; counts its callbacks. */
  static final class Fake {
    CData.SchemaNode schema;
    List<CData.ArrayNode> batches = new ArrayList<>();
    Consumer<MemorySegment> tamperSchema = _ -> {};
    /** Applied to each batch struct after it is filled (the batch's index, the struct). */
    java.util.function.BiConsumer<Integer, MemorySegment> tamper = (_, _) -> {};
    int schemaErrno;
    int failAtBatch = -1;
    int schemaCalls;
    int nextCalls;
    int releases;
    /** The private_data keys of the schema and batches handed out (CData.isLive tells). */
    final List<MemorySegment> handedOut = new ArrayList<>();
    /** The private_data keys of the batches' column structs (moved out by a one-batch import). */
    final List<MemorySegment> columnKeys = new ArrayList<>();
    final MemorySegment struct = TEST.allocate(STREAM);
  }

  private static final Map<Long, Fake> FAKES = new ConcurrentHashMap<>();
  private static final AtomicLong KEYS = new AtomicLong(1);
  private static final MemorySegment GET_SCHEMA;
  private static final MemorySegment GET_NEXT;
  private static final MemorySegment GET_LAST_ERROR;
  private static final MemorySegment RELEASE;
  private static final MemorySegment ERROR_TEXT = TEST.allocateFrom("disk on fire");

  static {
    try {
      Linker linker = Linker.nativeLinker();
      var lookup = MethodHandles.lookup();
      MethodType fill = MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class);
      FunctionDescriptor fillD = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
      GET_SCHEMA = linker.upcallStub(lookup.findStatic(ArrowStreamImportTest.class, "getSchema",
          fill), fillD, Arena.global());
      GET_NEXT = linker.upcallStub(lookup.findStatic(ArrowStreamImportTest.class, "getNext",
          fill), fillD, Arena.global());
      GET_LAST_ERROR = linker.upcallStub(lookup.findStatic(ArrowStreamImportTest.class,
              "getLastError", MethodType.methodType(MemorySegment.class, MemorySegment.class)),
          FunctionDescriptor.of(ADDRESS, ADDRESS), Arena.global());
      RELEASE = linker.upcallStub(lookup.findStatic(ArrowStreamImportTest.class, "release",
              MethodType.methodType(void.class, MemorySegment.class)),
          FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static Fake fake(MemorySegment self) {
    return FAKES.get(self.reinterpret(STREAM.byteSize()).get(ADDRESS, CData.ST_PRIVATE).address());
  }

  private static int getSchema(MemorySegment self, MemorySegment out) {
    Fake f = fake(self);
    f.schemaCalls++;
    if (f.schemaErrno != 0) {
      return f.schemaErrno;
    }
    MemorySegment s = out.reinterpret(SCHEMA.byteSize());
    CData.fillSchema(s, f.schema);
    f.handedOut.add(s.get(ADDRESS, CData.S_PRIVATE));
    f.tamperSchema.accept(s);
    return 0;
  }

  private static int getNext(MemorySegment self, MemorySegment out) {
    Fake f = fake(self);
    int i = f.nextCalls++;
    if (i == f.failAtBatch) {
      return 5; // EIO
    }
    MemorySegment a = out.reinterpret(ARRAY.byteSize());
    if (i >= f.batches.size()) {
      a.set(ADDRESS, A_RELEASE, MemorySegment.NULL); // the end of the stream
      return 0;
    }
    CData.fillArray(a, f.batches.get(i));
    f.handedOut.add(a.get(ADDRESS, A_PRIVATE));
    for (int c = 0; c < a.get(JAVA_LONG, A_N_CHILDREN); c++) {
      f.columnKeys.add(column(a, c).get(ADDRESS, A_PRIVATE));
    }
    f.tamper.accept(i, a);
    return 0;
  }

  private static MemorySegment getLastError(MemorySegment self) {
    return ERROR_TEXT;
  }

  private static void release(MemorySegment self) {
    Fake f = fake(self);
    f.releases++;
    self.reinterpret(STREAM.byteSize()).set(ADDRESS, CData.ST_RELEASE, MemorySegment.NULL);
  }

  /** A fake producer of a table of an int32 column "x" and a [rows, 2] float64 column "m". */
  private static Fake table(long... batchRows) {
    Fake f = new Fake();
    Map<String, Tensor> columns = new LinkedHashMap<>();
    columns.put("x", Tensor.zeros(DType.INT32, 1));
    columns.put("m", Tensor.zeros(DType.FLOAT64, 1, 2));
    List<String> names = new ArrayList<>();
    List<CData.SchemaNode> fields = new ArrayList<>();
    for (ArrowTensors.Exported e : ArrowTensors.prepareColumns(columns, names)) {
      CData.SchemaNode s = e.schema();
      fields.add(new CData.SchemaNode(s.format(), names.get(fields.size()), s.metadata(),
          s.children()));
    }
    f.schema = new CData.SchemaNode("+s", "", Map.of(), fields);
    long first = 0;
    for (long rows : batchRows) {
      // Batch rows are first, first + 1, ...: x = row, m = [row, -row].
      Tensor x = Tensor.arange(first, first + rows, 1).to(DType.INT32);
      Tensor m = Tensor.stack(List.of(x.to(DType.FLOAT64), x.to(DType.FLOAT64).neg()), 1);
      Map<String, Tensor> batch = new LinkedHashMap<>();
      batch.put("x", x);
      batch.put("m", m);
      List<CData.ArrayNode> arrays = new ArrayList<>();
      for (ArrowTensors.Exported e : ArrowTensors.prepareColumns(batch, new ArrayList<>())) {
        arrays.add(e.array());
      }
      f.batches.add(new CData.ArrayNode(
          rows, java.util.Collections.<MemorySegment>singletonList(null), arrays, null));
      first += rows;
    }
    long key = KEYS.getAndIncrement();
    FAKES.put(key, f);
    f.struct.set(ADDRESS, CData.ST_GET_SCHEMA, GET_SCHEMA);
    f.struct.set(ADDRESS, CData.ST_GET_NEXT, GET_NEXT);
    f.struct.set(ADDRESS, CData.ST_GET_LAST_ERROR, GET_LAST_ERROR);
    f.struct.set(ADDRESS, CData.ST_PRIVATE, MemorySegment.ofAddress(key));
    f.struct.set(ADDRESS, CData.ST_RELEASE, RELEASE);
    return f;
  }

  /** The [rows] x and [rows, 2] m the fake's rows 0..rows-1 hold, by their definition. */
  private static void assertTable(Map<String, Tensor> t, long rows) {
    assertEquals(List.of("x", "m"), List.copyOf(t.keySet()));
    Tensor x = t.get("x");
    Tensor m = t.get("m");
    assertEquals(DType.INT32, x.dtype());
    assertArrayEquals(new long[] {rows}, x.shape());
    assertArrayEquals(new long[] {rows, 2}, m.shape());
    for (int i = 0; i < rows; i++) {
      assertEquals(i, x.getLong(i));
      assertEquals(i, m.getDouble(i, 0));
      assertEquals(-i, m.getDouble(i, 1), 0.0); // -0.0 in row 0
    }
  }

  private static void assertAllReleased(Fake f) {
    assertEquals(1, f.releases, "the stream released exactly once");
    for (MemorySegment key : f.handedOut) {
      assertFalse(CData.isLive(key), "every schema and batch handed out is released");
    }
  }

  @Test
  void ourStreamComesBackWithoutACopy() {
    Tensor x = Tensor.arange(10).to(DType.FLOAT32);
    Tensor v = Tensor.arange(30).to(DType.INT64).reshape(10, 3);
    Map<String, Tensor> columns = new LinkedHashMap<>();
    columns.put("x", x);
    columns.put("v", v);
    MemorySegment stream = TEST.allocate(STREAM);
    ArrowTensors.exportStream(columns, stream);
    MemorySegment key = stream.get(ADDRESS, CData.ST_PRIVATE);
    try (Arena arena = Arena.ofConfined()) {
      Map<String, Tensor> back = ArrowTensors.importStream(stream, arena);
      assertFalse(CData.isLiveStream(key), "the stream is released once read");
      assertEquals(List.of("x", "v"), List.copyOf(back.keySet()));
      assertEquals(x.segment().address(), back.get("x").segment().address(), "no copy");
      assertEquals(v.segment().address(), back.get("v").segment().address(), "no copy");
      assertTrue(back.get("x").equal(x));
      assertTrue(back.get("v").equal(v));
    }
  }

  @Test
  void ourStreamInSeveralBatchesIsSlicedWithoutACopy() {
    Map<String, Tensor> columns = new LinkedHashMap<>();
    columns.put("x", Tensor.arange(20).to(DType.FLOAT32));
    columns.put("v", Tensor.arange(60).to(DType.INT16).reshape(20, 3));
    columns.put("flag", Tensor.arange(20).remainder(3L).eq(0L));
    MemorySegment stream = TEST.allocate(STREAM);
    ArrowTensors.exportStream(columns, stream, 8); // batches of 8, 8 and 4 rows
    // The second batch's "v" is rows 8..15 of the tensor's own memory.
    MemorySegment schema = TEST.allocate(SCHEMA);
    MemorySegment batch = TEST.allocate(ARRAY);
    CData.streamCall(stream, CData.ST_GET_SCHEMA, schema, "get_schema");
    CData.streamCall(stream, CData.ST_GET_NEXT, batch, "get_next");
    CData.release(batch, A_RELEASE);
    CData.streamCall(stream, CData.ST_GET_NEXT, batch, "get_next");
    assertEquals(8, batch.get(JAVA_LONG, A_LENGTH));
    MemorySegment v = column(column(batch, 1), 0);
    assertEquals(columns.get("v").segment().address() + 8 * 3 * 2,
        CData.pointer(v, A_BUFFERS).reinterpret(16).get(ADDRESS, 8).address(), "a slice");
    CData.release(batch, A_RELEASE);
    CData.release(schema, CData.S_RELEASE);
    CData.release(stream, CData.ST_RELEASE);
    // And back through importStream: three batches, concatenated.
    ArrowTensors.exportStream(columns, stream, 8);
    Map<String, Tensor> back = ArrowTensors.importStream(stream);
    for (String name : columns.keySet()) {
      assertTrue(back.get(name).equal(columns.get(name)), name);
    }
  }

  @Test
  void oneBatchIsSharedAndReleasedWithTheArena() {
    Fake f = table(4);
    try (Arena arena = Arena.ofConfined()) {
      Map<String, Tensor> t = ArrowTensors.importStream(f.struct, arena);
      assertTable(t, 4);
      assertEquals(1, f.releases);
      assertTrue(CData.isReleased(f.struct, CData.ST_RELEASE));
      // The batch itself is released; its two columns, moved out, live with the arena.
      assertFalse(CData.isLive(f.handedOut.get(1)));
      assertEquals(2, f.columnKeys.size());
      f.columnKeys.forEach(k -> assertTrue(CData.isLive(k), "a column lives with the arena"));
    }
    assertAllReleased(f);
    f.columnKeys.forEach(k -> assertFalse(CData.isLive(k), "closing the arena released it"));
  }

  @Test
  void severalBatchesAreConcatenatedAndReleasedAtOnce() {
    Fake f = table(3, 0, 5);
    Map<String, Tensor> t = ArrowTensors.importStream(f.struct);
    assertTable(t, 8);
    assertEquals(4, f.nextCalls, "three batches, then the end");
    assertAllReleased(f);
    f.columnKeys.forEach(k -> assertFalse(CData.isLive(k), "copied: released at once"));
  }

  @Test
  void noBatchGivesZeroRows() {
    Fake f = table();
    Map<String, Tensor> t = ArrowTensors.importStream(f.struct);
    assertArrayEquals(new long[] {0}, t.get("x").shape());
    assertArrayEquals(new long[] {0, 2}, t.get("m").shape());
    assertAllReleased(f);
  }

  @Test
  void refusedBeforeAnyCallbackTheStreamIsLeftAlone() {
    Fake f = table(2);
    f.struct.set(ADDRESS, CData.ST_GET_NEXT, MemorySegment.NULL);
    assertRefused("arrowArrayStream's get_next callback is NULL", f.struct);
    assertEquals(0, f.schemaCalls + f.nextCalls + f.releases, "untouched");
    f.struct.set(ADDRESS, CData.ST_RELEASE, MemorySegment.NULL);
    assertRefused("arrowArrayStream is released (its release callback is NULL)", f.struct);
    assertEquals(0, f.schemaCalls + f.nextCalls + f.releases, "untouched");
    assertRefused("arrowArrayStream must not be null", MemorySegment.NULL);
    assertRefused("arrowArrayStream is 8 bytes; the struct needs 40", TEST.allocate(8));
  }

  @Test
  void aFailingCallbackIsReportedWithTheProducersErrorText() {
    Fake f = table(2);
    f.schemaErrno = 22;
    assertRefused("arrowArrayStream's get_schema failed with errno 22: disk on fire", f.struct);
    assertAllReleased(f);

    Fake g = table(2, 2, 2);
    g.failAtBatch = 1;
    assertRefused("arrowArrayStream's get_next failed with errno 5: disk on fire", g.struct);
    assertEquals(1, g.handedOut.size() - 1, "batch 0 was handed out before the failure");
    assertAllReleased(g);
  }

  @Test
  void aNullIsRefusedNamingBatchColumnAndRow() {
    Fake f = table(2, 4);
    MemorySegment validity = TEST.allocate(1);
    validity.set(JAVA_BYTE, 0, (byte) 0b1011); // row 2 null
    f.tamper = (i, batch) -> {
      if (i == 1) {
        MemorySegment x = column(batch, 0);
        CData.pointer(x, A_BUFFERS).reinterpret(16).set(ADDRESS, 0, validity);
        x.set(JAVA_LONG, A_NULL_COUNT, 1);
      }
    };
    assertRefused("a tensor has no nulls: row 2 is null in arrowArrayStream batch 1 column \"x\"",
        f.struct);
    assertAllReleased(f);
  }

  @Test
  void lyingLengthsAndCountsAreRefused() {
    assertTampered("arrowArrayStream batch 0 column \"m\".child has length 5 but its parent"
        + " needs 6 values", (i, b) -> column(column(b, 1), 0).set(JAVA_LONG, A_LENGTH, 5));
    assertTampered("arrowArrayStream batch 0 column \"x\" has length 2 but its parent needs 3",
        (i, b) -> column(b, 0).set(JAVA_LONG, A_LENGTH, 2));
    assertTampered("arrowArrayStream batch 0 column \"x\" has length -1 and offset 0",
        (i, b) -> column(b, 0).set(JAVA_LONG, A_LENGTH, -1));
    assertTampered("arrowArrayStream batch 0 column \"x\" has length 3 and offset -4",
        (i, b) -> column(b, 0).set(JAVA_LONG, CData.A_OFFSET, -4));
    assertTampered("arrowArrayStream batch 0 column \"x\": its lengths and offsets overflow",
        (i, b) -> column(b, 0).set(JAVA_LONG, CData.A_OFFSET, Long.MAX_VALUE));
    assertTampered("arrowArrayStream batch 0 column \"x\" has null_count 2 but no validity",
        (i, b) -> column(b, 0).set(JAVA_LONG, A_NULL_COUNT, 2));
    assertTampered("arrowArrayStream batch 0 has 1 columns; the schema has 2",
        (i, b) -> b.set(JAVA_LONG, A_N_CHILDREN, 1));
    assertTampered("a record batch's children is a NULL pointer array",
        (i, b) -> b.set(ADDRESS, A_CHILDREN, MemorySegment.NULL));
    assertTampered("arrowArrayStream batch 0 column \"x\" buffers is a NULL pointer array",
        (i, b) -> column(b, 0).set(ADDRESS, A_BUFFERS, MemorySegment.NULL));
    assertTampered("arrowArrayStream batch 0 column \"x\" is released",
        (i, b) -> column(b, 0).set(ADDRESS, A_RELEASE, MemorySegment.NULL));
  }

  @Test
  void aSchemaWithoutTensorColumnsIsRefused() {
    Fake f = table(3);
    f.schema = new CData.SchemaNode("i", "", Map.of(), List.of());
    assertRefused("arrowArrayStream's schema has format \"i\": a stream of record batches has a"
        + " struct schema", f.struct);
    assertAllReleased(f);
    Fake g = table(3);
    g.schema = new CData.SchemaNode("+s", "", Map.of(),
        List.of(new CData.SchemaNode("u", "name", Map.of(), List.of())));
    assertRefused("arrowArrayStream column \"name\": Arrow type \"u\" has no tensor dtype",
        g.struct);
    assertAllReleased(g);
    Fake h = table(3);
    h.tamperSchema = s -> s.set(JAVA_LONG, CData.S_N_CHILDREN, 3);
    h.schema = new CData.SchemaNode("+s", "", Map.of(), List.of());
    assertRefused("arrowArrayStream's schema children is a NULL pointer array", h.struct);
    assertAllReleased(h);
  }

  private static MemorySegment column(MemorySegment struct, int c) {
    return CData.pointer(struct, A_CHILDREN).reinterpret(8L * (c + 1)).getAtIndex(ADDRESS, c)
        .reinterpret(ARRAY.byteSize());
  }

  private static void assertTampered(
      String part, java.util.function.BiConsumer<Integer, MemorySegment> tamper) {
    Fake f = table(3);
    f.tamper = tamper;
    assertRefused(part, f.struct);
    assertAllReleased(f);
  }

  private static void assertRefused(String part, MemorySegment stream) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ArrowTensors.importStream(stream));
    assertTrue(e.getMessage().contains(part), e.getMessage() + "\n does not contain\n" + part);
  }
}
