package dev.ufunc4j.arrow;

import static dev.ufunc4j.arrow.CData.A_BUFFERS;
import static dev.ufunc4j.arrow.CData.A_CHILDREN;
import static dev.ufunc4j.arrow.CData.A_DICTIONARY;
import static dev.ufunc4j.arrow.CData.A_LENGTH;
import static dev.ufunc4j.arrow.CData.A_NULL_COUNT;
import static dev.ufunc4j.arrow.CData.A_N_BUFFERS;
import static dev.ufunc4j.arrow.CData.A_N_CHILDREN;
import static dev.ufunc4j.arrow.CData.A_OFFSET;
import static dev.ufunc4j.arrow.CData.A_RELEASE;
import static dev.ufunc4j.arrow.CData.ARRAY;
import static dev.ufunc4j.arrow.CData.SCHEMA;
import static dev.ufunc4j.arrow.CData.S_CHILDREN;
import static dev.ufunc4j.arrow.CData.S_DICTIONARY;
import static dev.ufunc4j.arrow.CData.S_FORMAT;
import static dev.ufunc4j.arrow.CData.S_METADATA;
import static dev.ufunc4j.arrow.CData.S_N_CHILDREN;
import static dev.ufunc4j.arrow.CData.S_RELEASE;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tensors through the <a href="https://arrow.apache.org/docs/format/CDataInterface.html">Arrow C
 * Data Interface</a>, in process and without copying the elements: a tensor handed to pyarrow,
 * DuckDB, Polars or any Arrow library that takes an {@code ArrowArray} and {@code ArrowSchema}
 * pair, and such a pair (from any producer) read as a tensor.
 *
 * <p>Mapping (docs/arrow.md has the full table): a rank-1 tensor is a primitive array of its
 * dtype; a tensor of rank {@code k >= 2} and shape {@code [n, d1, ..., dk-1]} is an array of
 * {@code n} rows of Arrow's canonical {@code arrow.fixed_shape_tensor} extension: a fixed-size list
 * of {@code d1 * ... * dk-1} elements, with the row shape in the extension metadata. Import also
 * takes plain (nested) fixed-size lists, and the extension's {@code permutation} (as a view).
 * float16 is Arrow's {@code halffloat}; bool is Arrow's bit-packed boolean, so a bool tensor is
 * converted (one copy) both ways. bfloat16, complex and float8 have no Arrow type and are refused.
 *
 * <p>Lifetimes. {@link #exportTo} shares the tensor's memory: the consumer reads it until it calls
 * the structs' {@code release}, and the tensor's storage stays alive until then. {@link
 * #importFrom(MemorySegment, MemorySegment)} shares the producer's memory: the tensor (and its
 * views) keep it, and the producer's {@code release} is called once no tensor reaches it (a
 * {@link java.lang.ref.Cleaner}, after a GC), or when the arena given to {@link
 * #importFrom(MemorySegment, MemorySegment, Arena)} closes.
 */
// Restricted FFM methods (upcalls, reinterpret of C pointers): the module is native code's peer.
@SuppressWarnings("restricted")
public final class ArrowTensors {
  private ArrowTensors() {}

  /**
   * Exports {@code tensor} into the caller's {@code ArrowArray} and {@code ArrowSchema} structs.
   * A contiguous tensor is shared without a copy (the array's data buffer is the tensor's memory);
   * a non-contiguous one (a transpose, a broadcast, a strided slice) is first copied into a
   * contiguous tensor, and bool into Arrow's bit-packed form. The structs' release callbacks (FFM
   * upcalls, callable from any thread) free what the export holds; until they are called the
   * tensor's storage stays alive, whatever Java still references. Writes to the tensor after
   * the export are seen by the consumer, as with any shared buffer.
   *
   * @param tensor the tensor, of rank at least 1 and a dtype Arrow has; not one whose memory a
   *     {@link dev.ufunc4j.TensorScope} will reclaim
   * @param arrowArray the consumer's {@code struct ArrowArray} (80 bytes; a zero-length segment
   *     of its address is widened)
   * @param arrowSchema the consumer's {@code struct ArrowSchema} (72 bytes; likewise)
   * @throws IllegalArgumentException for a zero-dim tensor, a dtype without an Arrow type, a
   *     struct that is null or too small, or a tensor of a {@link dev.ufunc4j.TensorScope};
   *     nothing is written then
   */
  public static void exportTo(Tensor tensor, MemorySegment arrowArray, MemorySegment arrowSchema) {
    ArrowTypes.checkExportable(tensor);
    MemorySegment array = CData.struct(arrowArray, ARRAY, "arrowArray");
    MemorySegment schema = CData.struct(arrowSchema, SCHEMA, "arrowSchema");
    if (array.address() == schema.address()) {
      throw new IllegalArgumentException("arrowArray and arrowSchema are the same struct");
    }
    Exported e = prepare(tensor);
    CData.fillSchema(schema, e.schema());
    CData.fillArray(array, e.array());
  }

  /** Never started: a segment it may access is not confined to a thread (TensorScope). */
  private static final Thread PROBE = new Thread(() -> {}, "ufunc4j-arrow-confinement-probe");

  /**
   * Exports the tensors as the columns of a table into the caller's {@code struct
   * ArrowArrayStream} (the C Stream Interface): its schema is a struct of one field per column
   * (named by the map's keys, typed as {@link #exportTo} types a tensor), and it yields the rows
   * in record batches of 2^17 rows (the last one shorter; one batch for a shorter table; zero-copy
   * slices of the tensors' memory: a consumer such as DuckDB scans each batch with a thread),
   * then the end of the stream. This is what DuckDB's JDBC driver registers as a table
   * ({@code registerArrowStream}) and pyarrow's {@code RecordBatchReader} imports. Memory and
   * copies as {@link #exportTo}: each batch handed out keeps its tensors alive until its release;
   * the stream's own release drops a batch never handed out.
   *
   * @param columns the tensors by column name, all of rank at least 1 with the same first
   *     dimension (the rows)
   * @param arrowArrayStream the consumer's {@code struct ArrowArrayStream} (40 bytes; a
   *     zero-length segment of its address is widened)
   * @throws IllegalArgumentException when there are no columns, a name is null, the row counts
   *     differ, or a tensor is refused as {@link #exportTo} refuses it (naming its column);
   *     nothing is written then
   */
  public static void exportStream(Map<String, Tensor> columns, MemorySegment arrowArrayStream) {
    exportStream(columns, arrowArrayStream, BATCH_ROWS);
  }

  /**
   * Rows per record batch of {@link #exportStream}: a consumer such as DuckDB scans an Arrow
   * stream with one thread per batch, so a large table goes out in several (zero-copy slices of
   * the same memory). A multiple of 8, so that a bool column's packed bits split at bytes.
   */
  static final long BATCH_ROWS = 1L << 17;

  /** {@link #exportStream(Map, MemorySegment)} in batches of {@code batchRows} rows. */
  static void exportStream(
      Map<String, Tensor> columns, MemorySegment arrowArrayStream, long batchRows) {
    if (batchRows <= 0 || batchRows % 8 != 0) {
      throw new IllegalArgumentException("batchRows " + batchRows + " is not a positive multiple"
          + " of 8");
    }
    MemorySegment stream = CData.struct(arrowArrayStream, CData.STREAM, "arrowArrayStream");
    List<String> names = new ArrayList<>();
    List<Exported> parts = prepareColumns(columns, names);
    List<CData.SchemaNode> fields = new ArrayList<>();
    List<CData.ArrayNode> arrays = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      CData.SchemaNode s = parts.get(i).schema();
      fields.add(new CData.SchemaNode(s.format(), names.get(i), s.metadata(), s.children()));
      arrays.add(parts.get(i).array());
    }
    long rows = parts.getFirst().array().length();
    List<DType> dtypes = columns.values().stream().map(Tensor::dtype).toList();
    List<CData.ArrayNode> batches = new ArrayList<>();
    for (long from = 0; from < rows || from == 0; from += batchRows) {
      long count = Math.min(batchRows, rows - from);
      List<CData.ArrayNode> slices = new ArrayList<>();
      for (int c = 0; c < arrays.size(); c++) {
        slices.add(count == rows ? arrays.get(c) : rows(arrays.get(c), dtypes.get(c), from, count));
      }
      batches.add(new CData.ArrayNode(
          count, Collections.<MemorySegment>singletonList(null), slices, null));
    }
    CData.fillStream(stream, new CData.SchemaNode("+s", "", Map.of(), fields), batches);
  }

  /**
   * Rows {@code [from, from + count)} of an exported column, its buffers sliced (no copy; bool's
   * packed bits from a multiple of 8 rows, so at a byte).
   */
  private static CData.ArrayNode rows(CData.ArrayNode node, DType dtype, long from, long count) {
    if (node.children().isEmpty()) {
      MemorySegment values = node.buffers().get(1);
      MemorySegment slice = dtype == DType.BOOL
          ? values.asSlice(from / 8, (count + 7) / 8)
          : values.asSlice(from * dtype.byteSize(), count * dtype.byteSize());
      return new CData.ArrayNode(count, Arrays.asList(null, slice), List.of(), node.keepAlive());
    }
    CData.ArrayNode child = node.children().getFirst();
    long size = child.length() / node.length(); // the list size; node.length() > count > 0
    return new CData.ArrayNode(count, node.buffers(),
        List.of(rows(child, dtype, from * size, count * size)), node.keepAlive());
  }

  /**
   * The exports of a table's columns, checked (every tensor exportable, names non-null, one row
   * count) before anything is made; {@code names} receives the column names in order.
   */
  static List<Exported> prepareColumns(Map<String, Tensor> columns, List<String> names) {
    if (columns == null || columns.isEmpty()) {
      throw new IllegalArgumentException("a table needs at least one column");
    }
    long rows = -1;
    String first = null;
    for (Map.Entry<String, Tensor> e : columns.entrySet()) {
      String name = e.getKey();
      if (name == null) {
        throw new IllegalArgumentException("a column name is null");
      }
      Tensor t = e.getValue();
      try {
        ArrowTypes.checkExportable(t);
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException("column \"" + name + "\": " + bad.getMessage(), bad);
      }
      if (rows >= 0 && t.size(0) != rows) {
        throw new IllegalArgumentException("column \"" + name + "\" has " + t.size(0)
            + " rows (shape " + t.shapeString() + ") but column \"" + first + "\" has " + rows);
      }
      rows = t.size(0);
      first = first == null ? name : first;
    }
    List<Exported> parts = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : columns.entrySet()) {
      names.add(e.getKey());
      try {
        parts.add(prepare(e.getValue()));
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException(
            "column \"" + e.getKey() + "\": " + bad.getMessage(), bad);
      }
    }
    return parts;
  }

  /** A tensor's export, made before anything is written: the two trees to fill. */
  record Exported(CData.SchemaNode schema, CData.ArrayNode array) {}

  /** The schema and array nodes of {@code tensor}'s export, with its data made contiguous. */
  static Exported prepare(Tensor tensor) {
    Tensor data = tensor.isContiguous() ? tensor : tensor.contiguous();
    MemorySegment storage = data.segment();
    if (!storage.isAccessibleBy(PROBE)) {
      throw new IllegalArgumentException(
          "the tensor's memory belongs to a TensorScope, which reclaims it when it closes, whatever"
              + " an Arrow consumer still reads: export a tensor made outside the scope"
              + (tensor == data ? "" : " (this non-contiguous tensor's contiguous copy was made in"
                  + " the open scope)"));
    }
    DType dtype = tensor.dtype();
    long[] shape = tensor.shape();
    long numel = data.numel();
    MemorySegment values;
    Object keep;
    if (dtype == DType.BOOL) {
      byte[] bits = ArrowTypes.packBits(data);
      MemorySegment packed = Arena.ofAuto().allocate(Math.max(bits.length, 1), 64);
      MemorySegment.copy(MemorySegment.ofArray(bits), 0, packed, 0, bits.length);
      values = packed;
      keep = packed;
    } else {
      values = storage.asSlice(data.offset() * dtype.byteSize(), numel * dtype.byteSize());
      keep = data;
    }
    Map<String, String> none = Map.of();
    CData.SchemaNode leaf = new CData.SchemaNode(ArrowTypes.format(dtype), "", none, List.of());
    CData.ArrayNode leafArray =
        new CData.ArrayNode(numel, Arrays.asList(null, values), List.of(), keep);
    if (shape.length == 1) {
      return new Exported(leaf, leafArray);
    }
    long[] rowShape = Arrays.copyOfRange(shape, 1, shape.length);
    long listSize = product(rowShape);
    if (listSize > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("rows of " + listSize + " elements (shape "
          + Arrays.toString(shape) + "): an Arrow fixed-size list holds at most 2^31-1");
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(ArrowTypes.EXTENSION_NAME_KEY, ArrowTypes.FIXED_SHAPE_TENSOR);
    metadata.put(ArrowTypes.EXTENSION_METADATA_KEY, ArrowTypes.tensorMetadata(rowShape));
    CData.SchemaNode item = new CData.SchemaNode(leaf.format(), "item", none, List.of());
    CData.SchemaNode list =
        new CData.SchemaNode("+w:" + listSize, "", metadata, List.of(item));
    CData.ArrayNode rows =
        new CData.ArrayNode(shape[0], Collections.<MemorySegment>singletonList(null),
            List.of(leafArray), null);
    return new Exported(list, rows);
  }

  private static long product(long[] dims) {
    long p = 1;
    for (long d : dims) {
      p = Math.multiplyExact(p, d);
    }
    return p;
  }

  /**
   * Imports the producer's {@code ArrowArray} and {@code ArrowSchema} as a tensor sharing the
   * producer's memory (bool: a bit-unpacking copy). Both structs are consumed: the schema is
   * released at once; the array is moved into a struct of ours (the caller's is marked released,
   * as the spec's "move" does) and released once no tensor or view reaches the memory (a
   * {@link java.lang.ref.Cleaner} after a GC). Writes to the tensor write the producer's buffer.
   *
   * @param arrowArray the producer's {@code struct ArrowArray}
   * @param arrowSchema the producer's {@code struct ArrowSchema}
   * @return a contiguous tensor (or, with an extension {@code permutation}, a permuted view of
   *     one) of shape {@code [length]}, {@code [length, d1, ...]} for (nested) fixed-size lists,
   *     or {@code [length] + shape} (logical order) for {@code arrow.fixed_shape_tensor}
   * @throws IllegalArgumentException for a released struct, a type that is not a primitive
   *     number or bool or a (nested) fixed-size list of one, a null value (naming its row), or
   *     inconsistent lengths; the structs are then left as they were (still the caller's)
   */
  public static Tensor importFrom(MemorySegment arrowArray, MemorySegment arrowSchema) {
    return importFrom(arrowArray, arrowSchema, Arena.ofAuto());
  }

  /**
   * As {@link #importFrom(MemorySegment, MemorySegment)}, with the producer's memory bound to
   * {@code arena}: the producer's {@code release} is called when the arena closes (by the
   * closing thread), after which the tensor is unusable ({@link IllegalStateException}). A
   * confined arena confines the tensor to its thread.
   *
   * @param arrowArray the producer's {@code struct ArrowArray}
   * @param arrowSchema the producer's {@code struct ArrowSchema}
   * @param arena the arena whose closing releases the producer's memory
   * @return the tensor, as {@link #importFrom(MemorySegment, MemorySegment)} describes
   * @throws IllegalArgumentException as {@link #importFrom(MemorySegment, MemorySegment)}
   */
  public static Tensor importFrom(
      MemorySegment arrowArray, MemorySegment arrowSchema, Arena arena) {
    if (arena == null) {
      throw new IllegalArgumentException("arena must not be null");
    }
    MemorySegment array = CData.struct(arrowArray, ARRAY, "arrowArray");
    MemorySegment schema = CData.struct(arrowSchema, SCHEMA, "arrowSchema");
    if (CData.isReleased(schema, S_RELEASE)) {
      throw new IllegalArgumentException("arrowSchema is released (its release callback is NULL)");
    }
    if (CData.isReleased(array, A_RELEASE)) {
      throw new IllegalArgumentException("arrowArray is released (its release callback is NULL)");
    }
    Layout layout = Layout.of(schema);
    Located data = locate(array, layout);
    // Valid: now the structs are consumed. The schema first (we copied what we need).
    CData.release(schema, S_RELEASE);
    return layout.logical(adopt(array, layout, data, arena));
  }

  /**
   * Moves the checked {@code array} into a struct of ours (the caller's is marked released, as
   * the spec's move does) and makes the physical tensor over its data, whose cleanup (at {@code
   * arena}'s close, or after a GC for an automatic arena) calls the producer's release. Bool is
   * unpacked and an empty array zero-filled: both copies, so the producer is released at once.
   */
  private static Tensor adopt(MemorySegment array, Layout layout, Located data, Arena arena) {
    Arena structs = Arena.ofShared();
    MemorySegment moved = structs.allocate(ARRAY);
    moved.copyFrom(array.asSlice(0, ARRAY.byteSize()));
    array.set(ADDRESS, A_RELEASE, MemorySegment.NULL);
    Runnable releaseProducer = () -> {
      CData.release(moved, A_RELEASE);
      structs.close();
    };
    long[] physical = layout.physicalShape(data.length());
    if (data.count() == 0 || layout.dtype() == DType.BOOL) {
      Tensor t = layout.dtype() == DType.BOOL && data.count() > 0
          ? ArrowTypes.unpackBits(data.buffer().reinterpret((data.start() + data.count() + 7) / 8),
              data.start(), physical)
          : Tensor.zeros(layout.dtype(), physical);
      releaseProducer.run(); // copied (or empty): the producer's memory is not needed
      return t;
    }
    long bytes = data.count() * layout.dtype().byteSize(); // walk checked it fits a long
    MemorySegment values = MemorySegment.ofAddress(
            data.buffer().address() + data.start() * layout.dtype().byteSize())
        .reinterpret(bytes, arena, _ -> releaseProducer.run());
    return Tensor.fromSegment(values, layout.dtype(), physical);
  }

  /**
   * Imports a table from the producer's {@code struct ArrowArrayStream} (the C Stream Interface:
   * what DuckDB, pyarrow's {@code RecordBatchReader}, Polars and arrow-java hand out for a query
   * result or a table), one tensor per column, typed as {@link #importFrom} types an array.
   * A stream of one record batch is shared without a copy (each column keeps its own piece of
   * the producer's memory, released as {@link #importFrom(MemorySegment, MemorySegment)}
   * describes); several batches are concatenated (one copy, and the batches are released at
   * once); no batch gives columns of zero rows.
   *
   * <p>Ownership: a stream refused before any of its callbacks is called (null, released, a NULL
   * callback) is left as it was, still the caller's. Otherwise the stream is consumed: its
   * {@code release} is called exactly once, on success and on every failure (a callback's
   * errno, a column without a tensor dtype, a null, inconsistent lengths), and every schema and
   * batch it handed out is released; on failure nothing is returned.
   *
   * @param arrowArrayStream the producer's {@code struct ArrowArrayStream}
   * @return the columns by name, in the schema's order
   * @throws IllegalArgumentException for a stream refused as above, naming the batch, column and
   *     row or the callback's errno and error text
   */
  public static Map<String, Tensor> importStream(MemorySegment arrowArrayStream) {
    return importStream(arrowArrayStream, Arena.ofAuto());
  }

  /**
   * As {@link #importStream(MemorySegment)}, with the producer's memory bound to {@code arena}
   * (as {@link #importFrom(MemorySegment, MemorySegment, Arena)} binds it).
   *
   * @param arrowArrayStream the producer's {@code struct ArrowArrayStream}
   * @param arena the arena whose closing releases the producer's memory
   * @return the columns by name, in the schema's order
   * @throws IllegalArgumentException as {@link #importStream(MemorySegment)}
   */
  public static Map<String, Tensor> importStream(MemorySegment arrowArrayStream, Arena arena) {
    if (arena == null) {
      throw new IllegalArgumentException("arena must not be null");
    }
    MemorySegment stream = CData.struct(arrowArrayStream, CData.STREAM, "arrowArrayStream");
    if (CData.isReleased(stream, CData.ST_RELEASE)) {
      throw new IllegalArgumentException(
          "arrowArrayStream is released (its release callback is NULL)");
    }
    if (CData.isReleased(stream, CData.ST_GET_SCHEMA)
        || CData.isReleased(stream, CData.ST_GET_NEXT)) {
      throw new IllegalArgumentException("arrowArrayStream's "
          + (CData.isReleased(stream, CData.ST_GET_SCHEMA) ? "get_schema" : "get_next")
          + " callback is NULL");
    }
    // From here the stream is ours: released exactly once, whatever happens below.
    Arena scratch = Arena.ofShared(); // our schema and batch structs (their contents are moved)
    List<MemorySegment> batches = new ArrayList<>();
    MemorySegment schema = scratch.allocate(SCHEMA);
    try {
      List<String> names = new ArrayList<>();
      List<Layout> layouts;
      List<List<Located>> located = new ArrayList<>();
      boolean haveSchema = false; // a failed get_schema's struct is not ours to release
      try {
        CData.streamCall(stream, CData.ST_GET_SCHEMA, schema, "get_schema");
        haveSchema = true;
        if (CData.isReleased(schema, S_RELEASE)) {
          throw new IllegalArgumentException(
              "arrowArrayStream's get_schema gave a released schema");
        }
        layouts = tableLayouts(schema, names);
        while (true) {
          MemorySegment batch = scratch.allocate(ARRAY);
          CData.streamCall(stream, CData.ST_GET_NEXT, batch, "get_next");
          if (CData.isReleased(batch, A_RELEASE)) {
            break; // the end of the stream
          }
          batches.add(batch);
          located.add(locateBatch(batch, layouts, names, batches.size() - 1));
        }
      } finally {
        CData.release(stream, CData.ST_RELEASE);
        if (haveSchema) {
          CData.release(schema, S_RELEASE);
        }
      }
      Map<String, Tensor> out = new LinkedHashMap<>();
      for (int c = 0; c < names.size(); c++) {
        Layout layout = layouts.get(c);
        Tensor t;
        if (batches.isEmpty()) {
          t = Tensor.zeros(layout.dtype(), layout.physicalShape(0));
        } else if (batches.size() == 1) {
          t = adopt(child(batches.getFirst(), c), layout, located.getFirst().get(c), arena);
        } else {
          // Each batch's piece is a view until the copy; the batches are released just below.
          List<Tensor> parts = new ArrayList<>();
          for (int b = 0; b < batches.size(); b++) {
            parts.add(adopt(child(batches.get(b), c), layout, located.get(b).get(c), scratch));
          }
          t = Tensor.cat(parts, 0);
        }
        out.put(names.get(c), layout.logical(t));
      }
      return out;
    } finally {
      // A column moved out of its batch is marked released in it: the batch's release keeps it.
      for (MemorySegment b : batches) {
        CData.release(b, A_RELEASE);
      }
      scratch.close(); // several batches: releases the pieces copied into the concatenation
    }
  }

  /** The {@code c}-th child struct of a checked record batch. */
  private static MemorySegment child(MemorySegment batch, int c) {
    return CData.entry(batch, A_CHILDREN, c, ARRAY.byteSize(), "a record batch's children");
  }

  /** The layout of each field of a stream's struct schema; {@code names} receives the names. */
  private static List<Layout> tableLayouts(MemorySegment schema, List<String> names) {
    String format = CData.string(CData.pointer(schema, S_FORMAT));
    if (!"+s".equals(format)) {
      throw new IllegalArgumentException("arrowArrayStream's schema has format \"" + format
          + "\": a stream of record batches has a struct schema (\"+s\")");
    }
    long n = schema.get(JAVA_LONG, S_N_CHILDREN);
    if (n < 0 || n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("arrowArrayStream's schema has " + n + " children");
    }
    List<Layout> layouts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      MemorySegment field = CData.entry(
          schema, S_CHILDREN, i, SCHEMA.byteSize(), "arrowArrayStream's schema children");
      String name = CData.string(CData.pointer(field, CData.S_NAME));
      name = name == null ? "" : name;
      if (names.contains(name)) {
        throw new IllegalArgumentException(
            "arrowArrayStream has two columns named \"" + name + "\"");
      }
      names.add(name);
      try {
        layouts.add(Layout.of(field));
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException(
            "arrowArrayStream column \"" + name + "\": " + bad.getMessage(), bad);
      }
    }
    return layouts;
  }

  /** Checks one record batch (a struct array of the columns) and locates each column's data. */
  private static List<Located> locateBatch(
      MemorySegment batch, List<Layout> layouts, List<String> names, int index) {
    String where = "arrowArrayStream batch " + index;
    long length = batch.get(JAVA_LONG, A_LENGTH);
    long offset = batch.get(JAVA_LONG, A_OFFSET);
    if (length < 0 || offset < 0) {
      throw new IllegalArgumentException(
          where + " has length " + length + " and offset " + offset + ": both must be >= 0");
    }
    if (batch.get(JAVA_LONG, A_N_CHILDREN) != layouts.size()) {
      throw new IllegalArgumentException(where + " has " + batch.get(JAVA_LONG, A_N_CHILDREN)
          + " columns; the schema has " + layouts.size());
    }
    if (batch.get(JAVA_LONG, A_N_BUFFERS) != 1) {
      throw new IllegalArgumentException(where + " has " + batch.get(JAVA_LONG, A_N_BUFFERS)
          + " buffers; a struct array has 1");
    }
    MemorySegment validity = CData.entry(batch, A_BUFFERS, 0, 0, where + " buffers");
    ArrowTypes.checkNoNulls(validity, batch.get(JAVA_LONG, A_NULL_COUNT), offset, length, 1, 0,
        where);
    List<Located> out = new ArrayList<>();
    for (int c = 0; c < layouts.size(); c++) {
      String column = where + " column \"" + names.get(c) + "\"";
      MemorySegment child = child(batch, c);
      if (CData.isReleased(child, A_RELEASE)) {
        throw new IllegalArgumentException(column + " is released (its release callback is NULL)");
      }
      out.add(locate(child, layouts.get(c), offset, length, column));
    }
    return out;
  }

  /**
   * What a schema says: the element dtype, the fixed-size-list sizes from the outside in, and
   * for the tensor extension its row shape and permutation.
   */
  record Layout(DType dtype, long[] listSizes, long[] rowShape, int[] permutation) {

    static Layout of(MemorySegment schema) {
      List<Long> sizes = new ArrayList<>();
      Map<String, String> top = CData.metadata(CData.pointer(schema, S_METADATA));
      MemorySegment s = schema;
      String path = "";
      while (true) {
        String format = CData.string(CData.pointer(s, S_FORMAT));
        if (format == null) {
          throw new IllegalArgumentException("arrowSchema" + path + " has no format string");
        }
        if (!CData.pointer(s, S_DICTIONARY).equals(MemorySegment.NULL)) {
          throw new IllegalArgumentException(
              "arrowSchema" + path + " is dictionary-encoded: decode it before making a tensor");
        }
        if (format.startsWith("+w:")) {
          long size;
          try {
            size = Long.parseLong(format.substring(3));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad fixed-size-list format \"" + format + "\"");
          }
          long n = s.get(JAVA_LONG, S_N_CHILDREN);
          if (n != 1) {
            throw new IllegalArgumentException(
                "fixed-size list" + path + " has " + n + " children; it must have 1");
          }
          sizes.add(size);
          if (size < 0 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad fixed-size-list format \"" + format
                + "\": its size must be in [0, 2^31-1]");
          }
          s = CData.entry(s, S_CHILDREN, 0, SCHEMA.byteSize(), "arrowSchema" + path + " children");
          path += ".child";
          continue;
        }
        DType dtype = ArrowTypes.dtypeOf(format);
        if (dtype == null) {
          throw new IllegalArgumentException(
              "Arrow type \"" + format + "\""
                  + (path.isEmpty() ? "" : " (at arrowSchema" + path + ")")
                  + " has no tensor dtype: a tensor is a primitive number or bool array, or a"
                  + " (nested) fixed-size list of one (docs/arrow.md)");
        }
        long[] listSizes = sizes.stream().mapToLong(Long::longValue).toArray();
        if (ArrowTypes.FIXED_SHAPE_TENSOR.equals(top.get(ArrowTypes.EXTENSION_NAME_KEY))) {
          return withTensorMetadata(dtype, listSizes, top.get(ArrowTypes.EXTENSION_METADATA_KEY));
        }
        return new Layout(dtype, listSizes, listSizes, null);
      }
    }

    static Layout withTensorMetadata(DType dtype, long[] listSizes, String json) {
      ArrowTypes.TensorMetadata meta =
          ArrowTypes.TensorMetadata.parse(json == null ? "{}" : json);
      if (listSizes.length != 1 || product(meta.shape()) != listSizes[0]) {
        throw new IllegalArgumentException(
            ArrowTypes.FIXED_SHAPE_TENSOR + " of shape " + Arrays.toString(meta.shape())
                + " is stored as fixed-size lists of " + Arrays.toString(listSizes)
                + ": it must be one list of their product");
      }
      return new Layout(dtype, listSizes, meta.shape(), meta.permutation());
    }

    long[] physicalShape(long length) {
      long[] s = new long[rowShape.length + 1];
      s[0] = length;
      System.arraycopy(rowShape, 0, s, 1, rowShape.length);
      return s;
    }

    /** {@return the logical view of a physical tensor: itself, or its permutation} */
    Tensor logical(Tensor physical) {
      return permutation == null ? physical : physical.permute(logicalDims());
    }

    /** Dims of the logical view: dim 0 (rows) stays, row dim i is physical permutation[i]. */
    int[] logicalDims() {
      int[] dims = new int[permutation.length + 1];
      for (int i = 0; i < permutation.length; i++) {
        dims[i + 1] = permutation[i] + 1;
      }
      return dims;
    }
  }

  /**
   * Where the elements are: the leaf's data buffer, the first element's index in it, the count,
   * and the top-level length (rows).
   */
  record Located(MemorySegment buffer, long start, long count, long length) {}

  /** Walks the array along {@code layout}, checking lengths, buffers and nulls. */
  static Located locate(MemorySegment array, Layout layout) {
    long length = array.get(JAVA_LONG, A_LENGTH);
    if (length < 0) {
      throw new IllegalArgumentException("arrowArray has length " + length + ": it must be >= 0");
    }
    return locate(array, layout, 0, length, "arrowArray");
  }

  /**
   * Walks {@code array} along {@code layout} for the {@code count} rows from {@code start}
   * (counted without the array's own offset: a record batch's offset for one of its columns),
   * checking every level's length, offset, buffers and nulls against what its parent needs.
   */
  static Located locate(MemorySegment array, Layout layout, long start, long count, String path) {
    try {
      return walk(array, layout, start, count, path);
    } catch (ArithmeticException overflow) {
      throw new IllegalArgumentException(
          path + ": its lengths and offsets overflow a long (" + overflow.getMessage() + ")");
    }
  }

  private static Located walk(
      MemorySegment array, Layout layout, long start, long count, String path) {
    MemorySegment a = array;
    long rows = count;
    long rowElems = 1; // slots of this level per top-level row
    for (int level = 0; ; level++) {
      boolean leaf = level == layout.listSizes().length;
      long offset = a.get(JAVA_LONG, A_OFFSET);
      long levelLength = a.get(JAVA_LONG, A_LENGTH);
      if (levelLength < 0 || offset < 0) {
        throw new IllegalArgumentException(path + " has length " + levelLength + " and offset "
            + offset + ": both must be >= 0");
      }
      if (Math.addExact(start, count) > levelLength) {
        throw new IllegalArgumentException(path + " has length " + levelLength
            + " but its parent needs " + (start + count) + " values");
      }
      if (!CData.pointer(a, A_DICTIONARY).equals(MemorySegment.NULL)) {
        throw new IllegalArgumentException(path + " has a dictionary: decode it first");
      }
      long nBuffers = a.get(JAVA_LONG, A_N_BUFFERS);
      long want = leaf ? 2 : 1;
      if (nBuffers != want) {
        throw new IllegalArgumentException(
            path + " has " + nBuffers + " buffers; its type has " + want);
      }
      MemorySegment validity = CData.entry(a, A_BUFFERS, 0, 0, path + " buffers");
      ArrowTypes.checkNoNulls(validity, a.get(JAVA_LONG, A_NULL_COUNT),
          Math.addExact(offset, start), count, rowElems, level, path);
      if (leaf) {
        MemorySegment data = CData.entry(a, A_BUFFERS, 1, 0, path + " buffers");
        if (data.equals(MemorySegment.NULL) && count > 0) {
          throw new IllegalArgumentException(path + " has no data buffer");
        }
        long first = Math.addExact(offset, start);
        Math.multiplyExact(Math.addExact(first, count), layout.dtype().byteSize()); // bytes fit
        return new Located(data, first, count, rows);
      }
      if (a.get(JAVA_LONG, A_N_CHILDREN) != 1) {
        throw new IllegalArgumentException(path + " (a fixed-size list) must have 1 child, not "
            + a.get(JAVA_LONG, A_N_CHILDREN));
      }
      long size = layout.listSizes()[level];
      start = Math.multiplyExact(Math.addExact(offset, start), size);
      count = Math.multiplyExact(count, size);
      rowElems = Math.multiplyExact(rowElems, size);
      a = CData.entry(a, A_CHILDREN, 0, ARRAY.byteSize(), path + " children");
      path += ".child";
    }
  }


}
