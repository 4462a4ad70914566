package dev.ufunc4j.arrow;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flatbuf.Block;
import org.apache.arrow.flatbuf.Bool;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.Field;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.FixedSizeList;
import org.apache.arrow.flatbuf.FloatingPoint;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.Int;
import org.apache.arrow.flatbuf.KeyValue;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.Precision;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.flatbuf.Type;

/**
 * Arrow IPC files (<a href="https://arrow.apache.org/docs/format/Columnar.html#ipc-file-format">the
 * file format</a>, which Feather v2 is) and IPC streams (the stream format, saved to a file): one
 * tensor per column, read memory-mapped and written whole. Types map as in {@link ArrowTensors} (docs/arrow.md): a primitive column is a rank-1
 * tensor, an {@code arrow.fixed_shape_tensor} or (nested) fixed-size-list column a tensor of rank
 * 2 or more whose first dimension is the rows.
 *
 * <p>{@link #read} maps the file and, for a file of one record batch (what pyarrow, Polars and
 * DuckDB write for a table of one chunk), makes each column a tensor over the mapped file itself:
 * no copy, and no read of the elements until they are used. The mapping is private
 * (copy-on-write): the tensors are writable, and what is written to them never reaches the file
 * (the file is opened for reading and writing for that, and is not modified). They keep the mapping
 * alive until no tensor reaches it. Several record batches are concatenated (one copy); bool
 * columns are unpacked (a copy). Compressed files (pyarrow's {@code write_feather} default is
 * LZ4) are refused: write them with {@code compression="uncompressed"}.
 */
public final class ArrowIpc {
  private ArrowIpc() {}

  private static final byte[] MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);
  private static final int CONTINUATION = 0xFFFFFFFF;
  /** Buffers start at multiples of this in the body (Arrow recommends 64). */
  private static final int ALIGN = 64;
  private static final ValueLayout.OfInt INT_LE =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  // ============================================================================================
  // Reading
  // ============================================================================================

  /**
   * Reads every column of an Arrow IPC file or stream as a tensor, memory-mapped (class
   * comment). The format is told by the first bytes: the file format starts with {@code ARROW1}
   * (what {@code pyarrow.ipc.new_file}, {@code feather.write_feather} and Polars'
   * {@code write_ipc} write), the stream format with a message ({@code pyarrow.ipc.new_stream},
   * Polars' {@code write_ipc_stream}, a {@code .arrows} file).
   *
   * @param file an Arrow IPC file ({@code .arrow}, {@code .feather} v2) or stream
   * @return the columns by name, in the file's order
   * @throws IOException when the file cannot be opened for reading and writing (the mapping is
   *     copy-on-write; the file is not modified)
   * @throws IllegalArgumentException when it is neither, is truncated or its metadata lies
   *     (a length or offset outside the file), is compressed, has a column without a tensor
   *     dtype (naming it), a dictionary, or a null (naming its column and row)
   */
  public static Map<String, Tensor> read(Path file) throws IOException {
    MemorySegment map;
    // PRIVATE (copy-on-write) needs a channel open for writing too; nothing is written.
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      map = ch.map(FileChannel.MapMode.PRIVATE, 0, ch.size(), Arena.ofAuto());
    }
    try {
      return map.byteSize() >= MAGIC.length && startsWith(map, 0, MAGIC)
          ? readFile(file, map) : readStream(file, map);
    } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException
        | ArithmeticException corrupt) {
      // A FlatBuffers table or vector whose offsets point outside its message, or sizes that
      // overflow: the metadata is corrupt. (Reads are bounds-checked: nothing outside is read.)
      throw new IllegalArgumentException(file + " has corrupt Arrow metadata (" + corrupt + ")",
          corrupt);
    }
  }

  /** The file format: magic, the stream's messages, a footer indexing them, its length, magic. */
  private static Map<String, Tensor> readFile(Path file, MemorySegment map) {
    long size = map.byteSize();
    if (size < 18 || !startsWith(map, size - 6, MAGIC)) {
      throw new IllegalArgumentException(file + " starts like an Arrow IPC file but has no"
          + " ARROW1 magic at its end (" + size + " bytes): it is truncated");
    }
    int footerLength = map.get(INT_LE, size - 10);
    if (footerLength <= 0 || footerLength > size - 18) {
      throw new IllegalArgumentException(file + " has a bad footer length " + footerLength
          + " (the file has " + size + " bytes)");
    }
    Footer footer = Footer.getRootAsFooter(buffer(map, size - 10 - footerLength, footerLength));
    if (footer.dictionariesLength() > 0) {
      throw new IllegalArgumentException(
          file + " has dictionary-encoded columns: decode them first");
    }
    if (footer.schema() == null) {
      throw new IllegalArgumentException(file + ": its footer has no schema");
    }
    List<Column> columns = columns(file, footer.schema());
    Batches batches = new Batches(columns);
    for (int b = 0; b < footer.recordBatchesLength(); b++) {
      Block block = footer.recordBatches(b);
      long at = block.offset();
      if (at < 8 || block.metaDataLength() < 8 || block.bodyLength() < 0
          || at > size - block.metaDataLength()
          || at + block.metaDataLength() > size - block.bodyLength()) {
        throw new IllegalArgumentException(file + ": record batch " + b + "'s block (offset "
            + at + ", metadata " + block.metaDataLength() + " bytes, body " + block.bodyLength()
            + " bytes) lies outside the file of " + size + " bytes");
      }
      Message message = message(file, map, at, at + block.metaDataLength());
      readBatch(file, map, message, at + block.metaDataLength(), block.bodyLength(), batches);
    }
    return batches.tensors(file);
  }

  /**
   * The stream format: encapsulated messages (a schema, then record batches), up to an
   * end-of-stream marker or the end of the file.
   */
  private static Map<String, Tensor> readStream(Path file, MemorySegment map) {
    long size = map.byteSize();
    Batches batches = null;
    long at = 0;
    while (at < size) {
      long metaEnd = messageEnd(file, map, at);
      if (metaEnd == at) {
        break; // the end-of-stream marker
      }
      Message message = message(file, map, at, metaEnd);
      long body = message.bodyLength();
      if (body < 0 || body > size - metaEnd) {
        throw new IllegalArgumentException(file + ": the message at byte " + at + " has a body of "
            + body + " bytes from byte " + metaEnd + ", outside the stream of " + size + " bytes");
      }
      switch (message.headerType()) {
        case MessageHeader.Schema -> {
          if (batches != null) {
            throw new IllegalArgumentException(file + ": a second schema message at byte " + at);
          }
          Schema schema = (Schema) message.header(new Schema());
          if (schema == null) {
            throw new IllegalArgumentException(file + ": the schema message at byte " + at
                + " has no schema table (corrupt Arrow metadata)");
          }
          batches = new Batches(columns(file, schema));
        }
        case MessageHeader.RecordBatch -> {
          if (batches == null) {
            throw new IllegalArgumentException(
                file + ": a record batch at byte " + at + " before the schema message");
          }
          readBatch(file, map, message, metaEnd, body, batches);
        }
        case MessageHeader.DictionaryBatch -> throw new IllegalArgumentException(
            file + " has dictionary-encoded columns: decode them first");
        default -> throw new IllegalArgumentException(file + " is not an Arrow IPC file or stream:"
            + " the message at byte " + at + " has type "
            + MessageHeader.name(message.headerType()) + (at == 0 ? " (not a schema; and no"
            + " ARROW1 magic: not the file format, nor Feather v1, which is not read)" : ""));
      }
      at = metaEnd + body;
    }
    if (batches == null) {
      throw new IllegalArgumentException(file + " is not an Arrow IPC file or stream: no ARROW1"
          + " magic and no schema message (" + size + " bytes)");
    }
    return batches.tensors(file);
  }

  /**
   * {@return where the encapsulated message at {@code at} ends (its metadata, padding included;
   * its body follows), or {@code at} for the end-of-stream marker} Old (pre-0.15) messages have
   * no continuation marker: the length comes first.
   */
  private static long messageEnd(Path file, MemorySegment map, long at) {
    long size = map.byteSize();
    if (size - at < 4) {
      throw new IllegalArgumentException(file + ": " + (size - at) + " stray bytes at byte " + at
          + " (truncated message prefix)");
    }
    int first = map.get(INT_LE, at);
    int prefix = first == CONTINUATION ? 8 : 4;
    if (size - at < prefix) {
      throw new IllegalArgumentException(
          file + ": truncated message prefix at byte " + at + " (" + size + " bytes)");
    }
    int length = map.get(INT_LE, at + prefix - 4);
    if (length == 0) {
      return at;
    }
    if ((length < 0 || length > size - at - prefix) && at == 0 && first != CONTINUATION) {
      throw new IllegalArgumentException(file + " is not an Arrow IPC file or stream: it starts"
          + " with neither the ARROW1 magic nor a message (Feather v1 is not read)");
    }
    if (length < 0 || length > size - at - prefix) {
      throw new IllegalArgumentException(file + ": the message at byte " + at + " claims "
          + length + " bytes of metadata; the file has " + (size - at - prefix) + " after it");
    }
    return at + prefix + length;
  }

  /** The Message table of the encapsulated message in {@code [at, metaEnd)}. */
  private static Message message(Path file, MemorySegment map, long at, long metaEnd) {
    int prefix = map.get(INT_LE, at) == CONTINUATION ? 8 : 4;
    int length = map.get(INT_LE, at + prefix - 4);
    if (length <= 0 || length > metaEnd - at - prefix) {
      throw new IllegalArgumentException(file + ": the message at byte " + at + " claims "
          + length + " bytes of metadata; its block has " + (metaEnd - at - prefix));
    }
    return Message.getRootAsMessage(buffer(map, at + prefix, length));
  }

  /** The columns of a schema, each checked to make a tensor. */
  private static List<Column> columns(Path file, Schema schema) {
    if (schema.endianness() != org.apache.arrow.flatbuf.Endianness.Little) {
      throw new IllegalArgumentException(
          file + " is big-endian: only little-endian Arrow data is read (docs/arrow.md)");
    }
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < schema.fieldsLength(); i++) {
      columns.add(Column.of(file, schema.fields(i)));
    }
    return columns;
  }

  /** The columns and each one's pieces, one per record batch read. */
  private record Batches(List<Column> columns, List<List<Tensor>> chunks) {
    Batches(List<Column> columns) {
      this(columns, new ArrayList<>());
      columns.forEach(_ -> chunks.add(new ArrayList<>()));
    }

    /** The tensors: one batch's pieces as they are (no copy), several concatenated. */
    Map<String, Tensor> tensors(Path file) {
      Map<String, Tensor> out = new LinkedHashMap<>();
      for (int c = 0; c < columns.size(); c++) {
        Column col = columns.get(c);
        List<Tensor> parts = chunks.get(c);
        Tensor t = parts.isEmpty()
            ? Tensor.zeros(col.layout().dtype(), col.layout().physicalShape(0))
            : parts.size() == 1 ? parts.getFirst() : Tensor.cat(parts, 0);
        if (out.put(col.name(), col.layout().logical(t)) != null) {
          throw new IllegalArgumentException(
              file + " has two columns named \"" + col.name() + "\"");
        }
      }
      return out;
    }
  }

  /** A column: its name and layout (what {@link ArrowTensors.Layout} says of a C schema). */
  private record Column(String name, ArrowTensors.Layout layout) {
    static Column of(Path file, Field field) {
      String name = field.name();
      String where = file + " column \"" + name + "\"";
      if (field.dictionary() != null) {
        throw new IllegalArgumentException(where + " is dictionary-encoded: decode it first");
      }
      Map<String, String> metadata = new LinkedHashMap<>();
      for (int i = 0; i < field.customMetadataLength(); i++) {
        KeyValue kv = field.customMetadata(i);
        metadata.put(kv.key(), kv.value());
      }
      List<Long> sizes = new ArrayList<>();
      Field f = field;
      while (f.typeType() == Type.FixedSizeList) {
        FixedSizeList list = (FixedSizeList) f.type(new FixedSizeList());
        if (list == null) {
          throw new IllegalArgumentException(where + ": a fixed-size list type without its"
              + " table (corrupt Arrow metadata)");
        }
        if (f.childrenLength() != 1) {
          throw new IllegalArgumentException(where + ": a fixed-size list with "
              + f.childrenLength() + " children");
        }
        if (list.listSize() < 0) {
          throw new IllegalArgumentException(
              where + ": a fixed-size list of negative size " + list.listSize());
        }
        sizes.add((long) list.listSize());
        f = f.children(0);
        if (f.dictionary() != null) {
          throw new IllegalArgumentException(where + " is dictionary-encoded: decode it first");
        }
      }
      DType dtype = dtypeOf(f);
      if (dtype == null) {
        throw new IllegalArgumentException(where + " has Arrow type "
            + Type.name(f.typeType()) + ", which no tensor dtype holds: a tensor column is a"
            + " primitive number or bool, or a (nested) fixed-size list of one (docs/arrow.md)");
      }
      long[] listSizes = sizes.stream().mapToLong(Long::longValue).toArray();
      ArrowTensors.Layout layout =
          ArrowTypes.FIXED_SHAPE_TENSOR.equals(metadata.get(ArrowTypes.EXTENSION_NAME_KEY))
              ? ArrowTensors.Layout.withTensorMetadata(
                  dtype, listSizes, metadata.get(ArrowTypes.EXTENSION_METADATA_KEY))
              : new ArrowTensors.Layout(dtype, listSizes, listSizes, null);
      return new Column(name, layout);
    }
  }

  /** {@return the dtype of a primitive field, or null} */
  private static DType dtypeOf(Field f) {
    switch (f.typeType()) {
      case Type.Bool:
        return DType.BOOL;
      case Type.Int: {
        Int t = (Int) f.type(new Int());
        if (t == null) {
          return null;
        }
        for (DType d : ArrowTypes.SUPPORTED) {
          if (d.isIntegral(false) && d.byteSize() * 8 == t.bitWidth()
              && d.isUnsigned() != t.isSigned()) {
            return d;
          }
        }
        return null;
      }
      case Type.FloatingPoint: {
        FloatingPoint fp = (FloatingPoint) f.type(new FloatingPoint());
        if (fp == null) {
          return null;
        }
        short p = fp.precision();
        return p == Precision.HALF ? DType.FLOAT16 : p == Precision.SINGLE ? DType.FLOAT32
            : p == Precision.DOUBLE ? DType.FLOAT64 : null;
      }
      default:
        return null;
    }
  }

  /** Adds one record batch's piece of every column to {@code batches}. */
  private static void readBatch(
      Path file, MemorySegment map, Message message, long bodyAt, long bodyLength,
      Batches batches) {
    if (message.headerType() != MessageHeader.RecordBatch) {
      throw new IllegalArgumentException(file + ": a record batch block holds message type "
          + MessageHeader.name(message.headerType()));
    }
    RecordBatch batch = (RecordBatch) message.header(new RecordBatch());
    if (batch == null) {
      throw new IllegalArgumentException(
          file + ": a record batch message without its table (corrupt Arrow metadata)");
    }
    if (batch.compression() != null) {
      throw new IllegalArgumentException(file + " is compressed: write it uncompressed (pyarrow:"
          + " feather.write_feather(table, path, compression=\"uncompressed\"); Polars:"
          + " write_ipc(path, compression=\"uncompressed\"))");
    }
    MemorySegment body = map.asSlice(bodyAt, bodyLength);
    int node = 0;
    int buf = 0;
    List<Column> columns = batches.columns();
    for (int c = 0; c < columns.size(); c++) {
      Column col = columns.get(c);
      ArrowTensors.Layout layout = col.layout();
      String where = file + " column \"" + col.name() + "\"";
      int levels = layout.listSizes().length;
      if (node + levels + 1 > batch.nodesLength()
          || buf + levels + 2 > batch.buffersLength()) {
        throw new IllegalArgumentException(where + ": its record batch has " + batch.nodesLength()
            + " field nodes and " + batch.buffersLength() + " buffers, too few for its columns");
      }
      long rows = batch.nodes(node).length();
      if (rows != batch.length()) {
        throw new IllegalArgumentException(where + " has " + rows + " rows in a record batch of "
            + batch.length());
      }
      if (rows < 0) {
        throw new IllegalArgumentException(where + " has a negative length " + rows);
      }
      long count = rows;
      long rowElems = 1;
      for (int level = 0; level <= levels; level++) {
        FieldNode n = batch.nodes(node++);
        if (n.length() != count) {
          throw new IllegalArgumentException(
              where + ": nesting level " + level + " has " + n.length() + " values, not " + count);
        }
        MemorySegment validity = slice(body, batch.buffers(buf++), where);
        if (n.nullCount() != 0 && validity.byteSize() != 0
            && validity.byteSize() < (count + 7) / 8) {
          throw new IllegalArgumentException(where + ": null count " + n.nullCount()
              + " with a validity bitmap of " + validity.byteSize() + " bytes for " + count
              + " values");
        }
        ArrowTypes.checkNoNulls(validity.byteSize() == 0 ? null : validity, n.nullCount(), 0,
            count, rowElems, level, where);
        if (level < levels) {
          long size = layout.listSizes()[level];
          count = Math.multiplyExact(count, size);
          rowElems = Math.multiplyExact(rowElems, size);
        }
      }
      MemorySegment data = slice(body, batch.buffers(buf++), where);
      long[] shape = layout.physicalShape(rows);
      DType dtype = layout.dtype();
      long need =
          dtype == DType.BOOL ? (count + 7) / 8 : Math.multiplyExact(count, dtype.byteSize());
      if (data.byteSize() < need) {
        throw new IllegalArgumentException(where + ": its data buffer has " + data.byteSize()
            + " bytes; " + count + " values of " + dtype + " need " + need);
      }
      batches.chunks().get(c).add(dtype == DType.BOOL ? ArrowTypes.unpackBits(data, 0, shape)
          : Tensor.fromSegment(data.asSlice(0, need), dtype, shape));
    }
  }

  private static MemorySegment slice(MemorySegment body, Buffer b, String where) {
    if (b.offset() < 0 || b.length() < 0 || b.offset() > body.byteSize() - b.length()) {
      throw new IllegalArgumentException(where + ": a buffer (offset " + b.offset() + ", "
          + b.length() + " bytes) lies outside its record batch body of " + body.byteSize()
          + " bytes");
    }
    return body.asSlice(b.offset(), b.length());
  }

  private static boolean startsWith(MemorySegment map, long at, byte[] bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if (map.get(ValueLayout.JAVA_BYTE, at + i) != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  /** A little-endian ByteBuffer over a FlatBuffers table in the mapping (no copy). */
  private static ByteBuffer buffer(MemorySegment map, long at, int length) {
    return map.asSlice(at, length).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  // ============================================================================================
  // Writing
  // ============================================================================================

  /**
   * Writes the tensors as the columns of an Arrow IPC file (one record batch, uncompressed,
   * buffers 64-byte aligned) that pyarrow, Polars, DuckDB and arrow-java read: rank 1 as a
   * primitive column, rank 2 or more as an {@code arrow.fixed_shape_tensor} column; bool
   * bit-packed. The file appears whole or not at all (written beside it, then moved).
   *
   * @param file the file to write (replaced if it exists)
   * @param columns the tensors by column name; all of rank at least 1 with the same first
   *     dimension (the rows), of dtypes Arrow has
   * @throws IOException when the file cannot be written
   * @throws IllegalArgumentException when there are no columns, a name is null, or a tensor is
   *     refused (naming its column); nothing is written then
   */
  public static void write(Path file, Map<String, Tensor> columns) throws IOException {
    write(file, columns, true);
  }

  /**
   * Writes the tensors as an Arrow IPC <em>stream</em> (a schema message, one record batch, the
   * end-of-stream marker; no magic, no footer), which {@code pyarrow.ipc.open_stream}, Polars'
   * {@code read_ipc_stream} and arrow-java's {@code ArrowStreamReader} read; columns, layout and
   * refusals as {@link #write(Path, Map)}, and likewise whole or not at all.
   *
   * @param file the file to write (replaced if it exists), e.g. {@code x.arrows}
   * @param columns the tensors by column name, as {@link #write(Path, Map)} takes them
   * @throws IOException when the file cannot be written
   * @throws IllegalArgumentException as {@link #write(Path, Map)}; nothing is written then
   */
  public static void writeStream(Path file, Map<String, Tensor> columns) throws IOException {
    write(file, columns, false);
  }

  /** The IPC file format ({@code fileFormat}) or the stream format. */
  private static void write(Path file, Map<String, Tensor> columns, boolean fileFormat)
      throws IOException {
    if (file == null) {
      throw new IllegalArgumentException("file must not be null");
    }
    List<String> names = new ArrayList<>();
    List<ArrowTensors.Exported> parts = ArrowTensors.prepareColumns(columns, names);
    long rows = parts.getFirst().array().length();
    // The body: each array node's validity (absent: length 0) then, at the leaf, its data.
    List<long[]> nodes = new ArrayList<>();       // {length, nullCount}
    List<long[]> buffers = new ArrayList<>();     // {offset, length}
    List<MemorySegment> data = new ArrayList<>(); // each buffer's bytes (null: a validity)
    long bodyLength = 0;
    for (ArrowTensors.Exported p : parts) {
      CData.ArrayNode a = p.array();
      while (true) {
        nodes.add(new long[] {a.length(), 0});
        buffers.add(new long[] {bodyLength, 0});
        data.add(null);
        if (a.children().isEmpty()) {
          MemorySegment values = a.buffers().get(1);
          buffers.add(new long[] {bodyLength, values.byteSize()});
          data.add(values);
          bodyLength = pad(bodyLength + values.byteSize());
          break;
        }
        a = a.children().getFirst();
      }
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      if (fileFormat) {
        writeFully(ch, ByteBuffer.wrap(new byte[] {'A', 'R', 'R', 'O', 'W', '1', 0, 0}));
      }
      FlatBufferBuilder sb = new FlatBufferBuilder();
      int schemaMsg = Message.createMessage(sb, MetadataVersion.V5, MessageHeader.Schema,
          schema(sb, names, parts), 0, 0);
      sb.finish(schemaMsg);
      writeMessage(ch, sb.dataBuffer(), 8);
      long batchAt = ch.position();
      FlatBufferBuilder rb = new FlatBufferBuilder();
      RecordBatch.startNodesVector(rb, nodes.size());
      for (int i = nodes.size() - 1; i >= 0; i--) {
        FieldNode.createFieldNode(rb, nodes.get(i)[0], nodes.get(i)[1]);
      }
      int nodesVec = rb.endVector();
      RecordBatch.startBuffersVector(rb, buffers.size());
      for (int i = buffers.size() - 1; i >= 0; i--) {
        Buffer.createBuffer(rb, buffers.get(i)[0], buffers.get(i)[1]);
      }
      int buffersVec = rb.endVector();
      int batch = RecordBatch.createRecordBatch(rb, rows, nodesVec, buffersVec, 0, 0);
      rb.finish(Message.createMessage(rb, MetadataVersion.V5, MessageHeader.RecordBatch, batch,
          bodyLength, 0));
      int metaLength = writeMessage(ch, rb.dataBuffer(), ALIGN);
      long bodyAt = ch.position();
      for (int i = 0; i < buffers.size(); i++) {
        if (data.get(i) != null && data.get(i).byteSize() > 0) {
          writeFully(ch, ByteBuffer.allocate((int) (bodyAt + buffers.get(i)[0] - ch.position())));
          writeSegment(ch, data.get(i));
        }
      }
      writeFully(ch, ByteBuffer.allocate((int) (bodyAt + bodyLength - ch.position())));
      // The stream's end-of-stream marker, then (the file format) the footer.
      writeFully(ch, littleEndian(8).putInt(CONTINUATION).putInt(0).flip());
      if (fileFormat) {
        FlatBufferBuilder fb = new FlatBufferBuilder();
        int schemaTable = schema(fb, names, parts);
        Footer.startRecordBatchesVector(fb, 1);
        Block.createBlock(fb, batchAt, metaLength, bodyLength);
        int blocks = fb.endVector();
        Footer.startDictionariesVector(fb, 0);
        int dictionaries = fb.endVector();
        fb.finish(
            Footer.createFooter(fb, MetadataVersion.V5, schemaTable, dictionaries, blocks, 0));
        ByteBuffer footer = fb.dataBuffer();
        int footerLength = footer.remaining();
        writeFully(ch, footer);
        writeFully(ch, littleEndian(4).putInt(footerLength).flip());
        writeFully(ch, ByteBuffer.wrap(MAGIC));
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The Schema table of the columns, in {@code b}. */
  private static int schema(
      FlatBufferBuilder b, List<String> names, List<ArrowTensors.Exported> parts) {
    int[] fields = new int[names.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = field(b, names.get(i), parts.get(i).schema());
    }
    int fieldsVec = Schema.createFieldsVector(b, fields);
    return Schema.createSchema(b, org.apache.arrow.flatbuf.Endianness.Little, fieldsVec, 0, 0);
  }

  private static int field(FlatBufferBuilder b, String name, CData.SchemaNode node) {
    int[] children = new int[node.children().size()];
    for (int i = 0; i < children.length; i++) {
      children[i] = field(b, node.children().get(i).name(), node.children().get(i));
    }
    int[] kvs = new int[node.metadata().size()];
    int k = 0;
    for (Map.Entry<String, String> e : node.metadata().entrySet()) {
      kvs[k++] = KeyValue.createKeyValue(
          b, b.createString(e.getKey()), b.createString(e.getValue()));
    }
    String format = node.format();
    byte typeType;
    int type;
    if (format.startsWith("+w:")) {
      typeType = Type.FixedSizeList;
      type = FixedSizeList.createFixedSizeList(b, Integer.parseInt(format.substring(3)));
    } else {
      DType d = ArrowTypes.dtypeOf(format);
      switch (d) {
        case BOOL -> {
          typeType = Type.Bool;
          Bool.startBool(b);
          type = Bool.endBool(b);
        }
        case FLOAT16, FLOAT32, FLOAT64 -> {
          typeType = Type.FloatingPoint;
          type = FloatingPoint.createFloatingPoint(b, d == DType.FLOAT16 ? Precision.HALF
              : d == DType.FLOAT32 ? Precision.SINGLE : Precision.DOUBLE);
        }
        default -> {
          typeType = Type.Int;
          type = Int.createInt(b, d.byteSize() * 8, !d.isUnsigned());
        }
      }
    }
    int nameOff = b.createString(name == null ? "" : name);
    int childrenVec = Field.createChildrenVector(b, children);
    int metadataVec = kvs.length == 0 ? 0 : Field.createCustomMetadataVector(b, kvs);
    return Field.createField(b, nameOff, true, typeType, type, 0, childrenVec, metadataVec);
  }

  /**
   * Writes an encapsulated message (marker, length, table) padded so that what follows starts at
   * a multiple of {@code align} in the file (8 at least, as the format asks; 64 before a body, so
   * that the buffers of a page-aligned mapping are 64-byte aligned); returns its size.
   */
  private static int writeMessage(FileChannel ch, ByteBuffer table, int align) throws IOException {
    int length = table.remaining();
    long at = ch.position();
    int padded = (int) ((at + 8 + length + align - 1) / align * align - at - 8);
    writeFully(ch, littleEndian(8).putInt(CONTINUATION).putInt(padded).flip());
    writeFully(ch, table);
    writeFully(ch, ByteBuffer.allocate(padded - length));
    return 8 + padded;
  }

  private static void writeSegment(FileChannel ch, MemorySegment s) throws IOException {
    for (long at = 0; at < s.byteSize(); at += 1 << 30) {
      writeFully(ch, s.asSlice(at, Math.min(1L << 30, s.byteSize() - at)).asByteBuffer());
    }
  }

  private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  private static ByteBuffer littleEndian(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static long pad(long n) {
    return (n + ALIGN - 1) / ALIGN * ALIGN;
  }
}
