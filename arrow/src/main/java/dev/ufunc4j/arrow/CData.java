package dev.ufunc4j.arrow;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The two structs of the Arrow C Data Interface (arrow.apache.org/docs/format/CDataInterface.html)
 * over FFM, and the release protocol of the structs this side produces.
 *
 * <p>Every struct we fill owns an {@link Arena} of its own (its buffer-pointer array, its strings,
 * its children's structs) and whatever Java object must stay reachable while the consumer reads
 * our memory (the exported tensor); its {@code private_data} is a key into {@link #EXPORTED}. The
 * release callback (one FFM upcall for each struct kind, made once) releases the children that
 * the consumer has not moved away, drops the key, closes the arena and marks the struct released,
 * as the spec asks. A consumer may call it from any thread.
 */
// Restricted FFM methods (upcalls, reinterpret of C pointers): the module is native code's peer.
@SuppressWarnings("restricted")
final class CData {
  private CData() {}

  static final long ARROW_FLAG_NULLABLE = 2;

  /** struct ArrowSchema. */
  static final StructLayout SCHEMA = MemoryLayout.structLayout(
      ADDRESS.withName("format"),
      ADDRESS.withName("name"),
      ADDRESS.withName("metadata"),
      JAVA_LONG.withName("flags"),
      JAVA_LONG.withName("n_children"),
      ADDRESS.withName("children"),
      ADDRESS.withName("dictionary"),
      ADDRESS.withName("release"),
      ADDRESS.withName("private_data"));

  /** struct ArrowArray. */
  static final StructLayout ARRAY = MemoryLayout.structLayout(
      JAVA_LONG.withName("length"),
      JAVA_LONG.withName("null_count"),
      JAVA_LONG.withName("offset"),
      JAVA_LONG.withName("n_buffers"),
      JAVA_LONG.withName("n_children"),
      ADDRESS.withName("buffers"),
      ADDRESS.withName("children"),
      ADDRESS.withName("dictionary"),
      ADDRESS.withName("release"),
      ADDRESS.withName("private_data"));

  /** struct ArrowArrayStream (the C Stream Interface). */
  static final StructLayout STREAM = MemoryLayout.structLayout(
      ADDRESS.withName("get_schema"),
      ADDRESS.withName("get_next"),
      ADDRESS.withName("get_last_error"),
      ADDRESS.withName("release"),
      ADDRESS.withName("private_data"));

  static long offset(StructLayout layout, String field) {
    return layout.byteOffset(MemoryLayout.PathElement.groupElement(field));
  }

  // Field offsets, named as in the C header.
  static final long S_FORMAT = offset(SCHEMA, "format");
  static final long S_NAME = offset(SCHEMA, "name");
  static final long S_METADATA = offset(SCHEMA, "metadata");
  static final long S_FLAGS = offset(SCHEMA, "flags");
  static final long S_N_CHILDREN = offset(SCHEMA, "n_children");
  static final long S_CHILDREN = offset(SCHEMA, "children");
  static final long S_DICTIONARY = offset(SCHEMA, "dictionary");
  static final long S_RELEASE = offset(SCHEMA, "release");
  static final long S_PRIVATE = offset(SCHEMA, "private_data");

  static final long ST_GET_SCHEMA = offset(STREAM, "get_schema");
  static final long ST_GET_NEXT = offset(STREAM, "get_next");
  static final long ST_GET_LAST_ERROR = offset(STREAM, "get_last_error");
  static final long ST_RELEASE = offset(STREAM, "release");
  static final long ST_PRIVATE = offset(STREAM, "private_data");

  static final long A_LENGTH = offset(ARRAY, "length");
  static final long A_NULL_COUNT = offset(ARRAY, "null_count");
  static final long A_OFFSET = offset(ARRAY, "offset");
  static final long A_N_BUFFERS = offset(ARRAY, "n_buffers");
  static final long A_N_CHILDREN = offset(ARRAY, "n_children");
  static final long A_BUFFERS = offset(ARRAY, "buffers");
  static final long A_CHILDREN = offset(ARRAY, "children");
  static final long A_DICTIONARY = offset(ARRAY, "dictionary");
  static final long A_RELEASE = offset(ARRAY, "release");
  static final long A_PRIVATE = offset(ARRAY, "private_data");

  /** What one struct we produced owns until its release: its arena and what it keeps alive. */
  private record Owned(Arena arena, Object keepAlive) {}

  private static final Map<Long, Owned> EXPORTED = new ConcurrentHashMap<>();
  private static final AtomicLong NEXT_KEY = new AtomicLong(1);

  private static final Linker LINKER = Linker.nativeLinker();
  private static final MemorySegment RELEASE_SCHEMA;
  private static final MemorySegment RELEASE_ARRAY;
  private static final MemorySegment STREAM_GET_SCHEMA;
  private static final MemorySegment STREAM_GET_NEXT;
  private static final MemorySegment STREAM_GET_LAST_ERROR;
  private static final MemorySegment STREAM_RELEASE;

  /** A stream we produce: its schema and its batches, each handed out once, in order. */
  private static final class Stream {
    final SchemaNode schema;
    final java.util.ArrayDeque<ArrayNode> batches;

    Stream(SchemaNode schema, List<ArrayNode> batches) {
      this.schema = schema;
      this.batches = new java.util.ArrayDeque<>(batches);
    }
  }

  private static final Map<Long, Stream> STREAMS = new ConcurrentHashMap<>();
  /** Calls a release function pointer: {@code (fn, struct) -> void}. */
  private static final MethodHandle CALL_RELEASE =
      LINKER.downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));

  static {
    try {
      MethodType type = MethodType.methodType(void.class, MemorySegment.class);
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      FunctionDescriptor release = FunctionDescriptor.ofVoid(ADDRESS);
      RELEASE_SCHEMA = LINKER.upcallStub(
          lookup.findStatic(CData.class, "releaseSchema", type), release, Arena.global());
      RELEASE_ARRAY = LINKER.upcallStub(
          lookup.findStatic(CData.class, "releaseArray", type), release, Arena.global());
      MethodType fill =
          MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class);
      FunctionDescriptor fillDescriptor = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
      STREAM_GET_SCHEMA = LINKER.upcallStub(
          lookup.findStatic(CData.class, "streamGetSchema", fill), fillDescriptor, Arena.global());
      STREAM_GET_NEXT = LINKER.upcallStub(
          lookup.findStatic(CData.class, "streamGetNext", fill), fillDescriptor, Arena.global());
      STREAM_GET_LAST_ERROR = LINKER.upcallStub(
          lookup.findStatic(CData.class, "streamGetLastError",
              MethodType.methodType(MemorySegment.class, MemorySegment.class)),
          FunctionDescriptor.of(ADDRESS, ADDRESS), Arena.global());
      STREAM_RELEASE = LINKER.upcallStub(
          lookup.findStatic(CData.class, "streamRelease", type), release, Arena.global());
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** {@return {@code struct} at least {@code layout}'s size (a zero-length pointer is widened)} */
  static MemorySegment struct(MemorySegment struct, StructLayout layout, String what) {
    if (struct == null || struct.equals(MemorySegment.NULL)) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    if (struct.byteSize() == 0) {
      return struct.reinterpret(layout.byteSize()); // a bare address, as C hands it over
    }
    if (struct.byteSize() < layout.byteSize()) {
      throw new IllegalArgumentException(
          what + " is " + struct.byteSize() + " bytes; the struct needs " + layout.byteSize());
    }
    return struct;
  }

  /** {@return the pointer at {@code offset} of {@code struct}} */
  static MemorySegment pointer(MemorySegment struct, long offset) {
    return struct.get(ADDRESS, offset);
  }

  /**
   * {@return the {@code i}-th entry of the pointer array at {@code offset} of {@code struct},
   * widened to {@code size} bytes} A foreign struct is not trusted: a NULL array or entry is
   * refused (naming {@code what}) instead of read, which would crash the process.
   */
  static MemorySegment entry(MemorySegment struct, long offset, long i, long size, String what) {
    MemorySegment array = pointer(struct, offset);
    if (array.equals(MemorySegment.NULL)) {
      throw new IllegalArgumentException(what + " is a NULL pointer array");
    }
    MemorySegment p = array.reinterpret((i + 1) * ADDRESS.byteSize()).getAtIndex(ADDRESS, i);
    if (p.equals(MemorySegment.NULL) && size > 0) {
      throw new IllegalArgumentException(what + "[" + i + "] is NULL");
    }
    return p.reinterpret(size);
  }

  static boolean isReleased(MemorySegment struct, long releaseOffset) {
    return pointer(struct, releaseOffset).equals(MemorySegment.NULL);
  }

  /** Calls the struct's release callback (whoever produced it). */
  static void release(MemorySegment struct, long releaseOffset) {
    MemorySegment fn = pointer(struct, releaseOffset);
    if (fn.equals(MemorySegment.NULL)) {
      return;
    }
    try {
      CALL_RELEASE.invokeExact(fn, struct);
    } catch (Throwable t) {
      throw new IllegalStateException("the producer's release callback failed", t);
    }
  }

  /** Calls a stream's {@code get_schema} or {@code get_next}: {@code (fn, stream, out) -> int}. */
  private static final MethodHandle CALL_FILL =
      LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
  /** Calls a stream's {@code get_last_error}: {@code (fn, stream) -> const char*}. */
  private static final MethodHandle CALL_LAST_ERROR =
      LINKER.downcallHandle(FunctionDescriptor.of(ADDRESS, ADDRESS));

  /**
   * Calls the foreign stream's {@code get_schema} or {@code get_next} (at {@code fnOffset}) into
   * {@code out}; a non-zero errno is refused with the stream's own error text when it has one.
   */
  static void streamCall(MemorySegment stream, long fnOffset, MemorySegment out, String what) {
    int errno;
    try {
      errno = (int) CALL_FILL.invokeExact(pointer(stream, fnOffset), stream, out);
    } catch (Throwable t) {
      throw new IllegalStateException("the producer's " + what + " failed", t);
    }
    if (errno != 0) {
      String text = null;
      MemorySegment lastError = pointer(stream, ST_GET_LAST_ERROR);
      if (!lastError.equals(MemorySegment.NULL)) {
        try {
          text = string((MemorySegment) CALL_LAST_ERROR.invokeExact(lastError, stream));
        } catch (Throwable t) {
          text = null;
        }
      }
      throw new IllegalArgumentException("arrowArrayStream's " + what + " failed with errno "
          + errno + (text == null ? "" : ": " + text));
    }
  }

  /** {@return the NUL-terminated string at {@code p}, or null for NULL} */
  static String string(MemorySegment p) {
    return p.equals(MemorySegment.NULL) ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
  }

  /** {@return the key/value pairs of a C Data metadata blob (int32 counts, native order)} */
  static Map<String, String> metadata(MemorySegment p) {
    Map<String, String> out = new LinkedHashMap<>();
    if (p.equals(MemorySegment.NULL)) {
      return out;
    }
    MemorySegment m = p.reinterpret(Long.MAX_VALUE);
    int n = m.get(JAVA_INT, 0);
    long at = 4;
    for (int i = 0; i < n; i++) {
      String[] kv = new String[2];
      for (int j = 0; j < 2; j++) {
        int len = m.get(JAVA_INT, at);
        byte[] bytes = m.asSlice(at + 4, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        kv[j] = new String(bytes, StandardCharsets.UTF_8);
        at += 4 + len;
      }
      out.put(kv[0], kv[1]);
    }
    return out;
  }

  // ==========================================================================================
  // Producing
  // ==========================================================================================

  /** One node of a schema we produce: a format, a name, metadata, children. */
  record SchemaNode(
      String format, String name, Map<String, String> metadata, List<SchemaNode> children) {}

  /**
   * One node of an array we produce: its length, its buffers (null for an absent validity
   * bitmap) and children; {@code keepAlive} is held until the consumer releases this node.
   */
  record ArrayNode(
      long length, List<MemorySegment> buffers, List<ArrayNode> children, Object keepAlive) {}

  /** Fills {@code out} with {@code node} and its children; nothing is written on failure. */
  static void fillSchema(MemorySegment out, SchemaNode node) {
    Arena arena = Arena.ofShared();
    long key = NEXT_KEY.getAndIncrement();
    MemorySegment format = arena.allocateFrom(node.format());
    MemorySegment name = node.name() == null ? MemorySegment.NULL : arena.allocateFrom(node.name());
    MemorySegment metadata = node.metadata().isEmpty() ? MemorySegment.NULL
        : encodeMetadata(arena, node.metadata());
    int n = node.children().size();
    MemorySegment children = n == 0 ? MemorySegment.NULL : arena.allocate(ADDRESS, n);
    List<MemorySegment> childStructs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      MemorySegment child = arena.allocate(SCHEMA);
      fillSchema(child, node.children().get(i));
      children.setAtIndex(ADDRESS, i, child);
      childStructs.add(child);
    }
    EXPORTED.put(key, new Owned(arena, childStructs));
    out.set(ADDRESS, S_FORMAT, format);
    out.set(ADDRESS, S_NAME, name);
    out.set(ADDRESS, S_METADATA, metadata);
    out.set(JAVA_LONG, S_FLAGS, ARROW_FLAG_NULLABLE);
    out.set(JAVA_LONG, S_N_CHILDREN, n);
    out.set(ADDRESS, S_CHILDREN, children);
    out.set(ADDRESS, S_DICTIONARY, MemorySegment.NULL);
    out.set(ADDRESS, S_PRIVATE, MemorySegment.ofAddress(key));
    out.set(ADDRESS, S_RELEASE, RELEASE_SCHEMA);
  }

  /** Fills {@code out} with {@code node} and its children, none of them null-bearing. */
  static void fillArray(MemorySegment out, ArrayNode node) {
    Arena arena = Arena.ofShared();
    long key = NEXT_KEY.getAndIncrement();
    int nb = node.buffers().size();
    MemorySegment buffers = arena.allocate(ADDRESS, Math.max(nb, 1));
    for (int i = 0; i < nb; i++) {
      MemorySegment b = node.buffers().get(i);
      buffers.setAtIndex(ADDRESS, i, b == null ? MemorySegment.NULL : b);
    }
    int n = node.children().size();
    MemorySegment children = n == 0 ? MemorySegment.NULL : arena.allocate(ADDRESS, n);
    for (int i = 0; i < n; i++) {
      MemorySegment child = arena.allocate(ARRAY);
      fillArray(child, node.children().get(i));
      children.setAtIndex(ADDRESS, i, child);
    }
    EXPORTED.put(key, new Owned(arena, node.keepAlive()));
    out.set(JAVA_LONG, A_LENGTH, node.length());
    out.set(JAVA_LONG, A_NULL_COUNT, 0);
    out.set(JAVA_LONG, A_OFFSET, 0);
    out.set(JAVA_LONG, A_N_BUFFERS, nb);
    out.set(JAVA_LONG, A_N_CHILDREN, n);
    out.set(ADDRESS, A_BUFFERS, buffers);
    out.set(ADDRESS, A_CHILDREN, children);
    out.set(ADDRESS, A_DICTIONARY, MemorySegment.NULL);
    out.set(ADDRESS, A_PRIVATE, MemorySegment.ofAddress(key));
    out.set(ADDRESS, A_RELEASE, RELEASE_ARRAY);
  }

  private static MemorySegment encodeMetadata(Arena arena, Map<String, String> metadata) {
    List<byte[]> parts = new ArrayList<>();
    long size = 4;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      for (String s : new String[] {e.getKey(), e.getValue()}) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        parts.add(b);
        size += 4 + b.length;
      }
    }
    MemorySegment m = arena.allocate(size, 8);
    m.set(JAVA_INT, 0, metadata.size());
    long at = 4;
    for (byte[] b : parts) {
      m.set(JAVA_INT, at, b.length);
      MemorySegment.copy(b, 0, m, java.lang.foreign.ValueLayout.JAVA_BYTE, at + 4, b.length);
      at += 4 + b.length;
    }
    return m;
  }

  /** Fills {@code out} (a {@code struct ArrowArrayStream}) with a stream of these batches. */
  static void fillStream(MemorySegment out, SchemaNode schema, List<ArrayNode> batches) {
    long key = NEXT_KEY.getAndIncrement();
    STREAMS.put(key, new Stream(schema, batches));
    out.set(ADDRESS, ST_GET_SCHEMA, STREAM_GET_SCHEMA);
    out.set(ADDRESS, ST_GET_NEXT, STREAM_GET_NEXT);
    out.set(ADDRESS, ST_GET_LAST_ERROR, STREAM_GET_LAST_ERROR);
    out.set(ADDRESS, ST_PRIVATE, MemorySegment.ofAddress(key));
    out.set(ADDRESS, ST_RELEASE, STREAM_RELEASE);
  }

  private static Stream stream(MemorySegment self) {
    return STREAMS.get(self.reinterpret(STREAM.byteSize()).get(ADDRESS, ST_PRIVATE).address());
  }

  // The stream callbacks return 0 or an errno (EINVAL for a released stream), as the spec asks.
  private static final int EINVAL = 22;

  private static int streamGetSchema(MemorySegment self, MemorySegment out) {
    try {
      Stream s = stream(self);
      if (s == null) {
        return EINVAL;
      }
      fillSchema(out.reinterpret(SCHEMA.byteSize()), s.schema);
      return 0;
    } catch (Throwable t) {
      t.printStackTrace();
      return EINVAL;
    }
  }

  /** The next batch, then the end of the stream (a released array). */
  private static int streamGetNext(MemorySegment self, MemorySegment out) {
    try {
      Stream s = stream(self);
      if (s == null) {
        return EINVAL;
      }
      MemorySegment array = out.reinterpret(ARRAY.byteSize());
      ArrayNode batch;
      synchronized (s) {
        batch = s.batches.poll();
      }
      if (batch == null) {
        array.set(ADDRESS, A_RELEASE, MemorySegment.NULL);
      } else {
        fillArray(array, batch);
      }
      return 0;
    } catch (Throwable t) {
      t.printStackTrace();
      return EINVAL;
    }
  }

  private static MemorySegment streamGetLastError(MemorySegment self) {
    return MemorySegment.NULL; // every failure above is EINVAL on a released stream
  }

  private static void streamRelease(MemorySegment self) {
    MemorySegment s = self.reinterpret(STREAM.byteSize());
    STREAMS.remove(s.get(ADDRESS, ST_PRIVATE).address());
    s.set(ADDRESS, ST_RELEASE, MemorySegment.NULL);
  }

  /** {@return whether the stream we produced with this {@code private_data} is unreleased} */
  static boolean isLiveStream(MemorySegment privateData) {
    return STREAMS.containsKey(privateData.address());
  }

  /** {@return whether the struct we produced with this {@code private_data} is unreleased} */
  static boolean isLive(MemorySegment privateData) {
    return EXPORTED.containsKey(privateData.address());
  }

  // The release callbacks. An exception must not cross an upcall (the JVM would exit), so a
  // failure is printed and the struct is still marked released.

  private static void releaseSchema(MemorySegment p) {
    releaseStruct(p.reinterpret(SCHEMA.byteSize()), S_N_CHILDREN, S_CHILDREN, S_RELEASE, S_PRIVATE);
  }

  private static void releaseArray(MemorySegment p) {
    releaseStruct(p.reinterpret(ARRAY.byteSize()), A_N_CHILDREN, A_CHILDREN, A_RELEASE, A_PRIVATE);
  }

  private static void releaseStruct(
      MemorySegment s, long nChildrenAt, long childrenAt, long releaseAt, long privateAt) {
    try {
      long n = s.get(JAVA_LONG, nChildrenAt);
      long size = releaseAt == S_RELEASE ? SCHEMA.byteSize() : ARRAY.byteSize();
      // A consumer may have overwritten the struct: a NULL children array is not read.
      if (n > 0 && !pointer(s, childrenAt).equals(MemorySegment.NULL)) {
        MemorySegment children = pointer(s, childrenAt).reinterpret(n * ADDRESS.byteSize());
        for (long i = 0; i < n; i++) {
          // A child the consumer moved away is marked released here; it releases the copy.
          release(children.getAtIndex(ADDRESS, i).reinterpret(size), releaseAt);
        }
      }
      Owned owned = EXPORTED.remove(pointer(s, privateAt).address());
      s.set(ADDRESS, releaseAt, MemorySegment.NULL);
      if (owned != null) {
        owned.arena().close();
      }
    } catch (Throwable t) {
      s.set(ADDRESS, releaseAt, MemorySegment.NULL);
      t.printStackTrace();
    }
  }
}
