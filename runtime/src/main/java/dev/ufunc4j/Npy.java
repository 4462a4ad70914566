package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.shape.Shapes;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * NumPy's {@code .npy} format: {@link #read} accepts format versions 1.0, 2.0 and 3.0, little-
 * and big-endian data, C and Fortran order; {@link #write} writes version 1.0 (2.0 when the header
 * needs it), little-endian, C order, as {@code numpy.save} does.
 *
 * <p>Dtypes: bool, the signed and unsigned integers, float16/32/64 and complex64/128 map to their
 * NumPy counterparts. NumPy itself has no bfloat16: BFLOAT16 is written with descr {@code
 * 'bfloat16'}, the name {@code ml_dtypes} registers with NumPy, so that {@code np.load(p)} in a
 * program that imported {@code ml_dtypes} (as JAX does) gives a bfloat16 array, and NumPy without
 * it refuses the file by the dtype's name rather than loading raw bytes. Reading accepts that descr
 * and also {@code '<V2'}, what {@code numpy.save} writes for an {@code ml_dtypes.bfloat16} array
 * (the 2-byte void type, raw bits). COMPLEX32 and the float8 types have no unambiguous {@code .npy}
 * form and are refused with the conversion to use.
 *
 * <p>{@code .npz} archives, NumPy's {@code np.savez}: {@link #readNpz} reads one (stored or
 * deflated, as {@code np.savez_compressed} writes) into its arrays by name, {@link #writeNpz}
 * writes one as {@code np.savez} does (each array a {@code <name>.npy} member, stored), and {@link
 * #read} of an archive says to use {@link #readNpz}.
 *
 * <p>Files are untrusted: the header is parsed strictly (size limit, known keys only, at most 64
 * dimensions, overflow-checked sizes), and the data size it declares is checked against the file
 * size before anything is allocated. Every problem is an {@link IOException} naming the file and
 * the offending value.
 */
public final class Npy {
  private Npy() {}

  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  /** Larger than any header numpy writes (numpy itself refuses beyond 10,000 bytes by default). */
  static final int MAX_HEADER_BYTES = 1 << 16;

  private static final int MAX_DIMS = 64;
  private static final long CHUNK = 1 << 26;
  /** Symbolic links followed at most (Linux's MAXSYMLINKS). */
  private static final int MAX_LINKS = 40;

  /**
   * Writes {@code tensor} to {@code path} in NumPy's {@code .npy} format, replacing any file there
   * atomically: readers see the old file or the complete new one, never a part.
   *
   * <p>Every input is checked before the file system is touched: a null argument, a dtype NumPy
   * cannot store and a tensor whose {@link TensorScope} has closed are refused and leave the file
   * as it was. The data is written to a temporary file in the same directory ({@code
   * .<name>.<random>.tmp}), forced to the device, and then renamed over {@code path} with {@link
   * StandardCopyOption#ATOMIC_MOVE}; on a file system that refuses atomic moves, a plain {@link
   * StandardCopyOption#REPLACE_EXISTING} move is used instead (the old file stays intact until the
   * move, but another process might briefly see no file). A failure at any point, an interrupt
   * included, deletes the temporary file and leaves the old file byte-identical. A symbolic link at
   * {@code path} is followed, so the file it points to is replaced; the replaced file's permission
   * bits are kept. Only a regular file is replaced: a {@code path} (or link target) that is a
   * directory, FIFO, device or socket is refused with an {@link IOException} naming its kind, before
   * any file is created (the rename would replace the node itself, e.g. {@code /dev/null}, with a
   * regular file).
   *
   * @param path the file, replaced if it exists
   * @param tensor the tensor written
   * @throws IllegalArgumentException when an argument is null or the dtype has no {@code .npy} form
   * @throws IllegalStateException when the tensor's scope has closed
   * @throws IOException when the file cannot be written (the old file is then unchanged)
   */
  public static void write(Path path, Tensor tensor) throws IOException {
    write(path, tensor, CHUNK, () -> { });
  }

  /**
   * Writes {@code arrays} to {@code path} as an {@code .npz} archive, as {@code
   * numpy.savez(path, **arrays)} does: one {@code <name>.npy} member per entry, in the map's
   * order, each the bytes {@link #write(Path, Tensor)} writes, stored uncompressed ({@code
   * np.load(path)[name]} gives the array back). The file is replaced atomically, as by {@link
   * #write(Path, Tensor)}, and every entry is checked before the file system is touched.
   *
   * @param path the archive's path (NumPy's own name ends in {@code .npz}; this one is kept as is)
   * @param arrays the arrays by name (a {@link java.util.LinkedHashMap} keeps their order)
   * @throws IllegalArgumentException for a null argument, entry or tensor, an empty name, or a
   *     dtype without a {@code .npy} form
   * @throws IllegalStateException when a tensor's scope has closed
   * @throws IOException when the file cannot be written (the old file is then unchanged)
   */
  public static void writeNpz(Path path, Map<String, Tensor> arrays) throws IOException {
    if (path == null || arrays == null) {
      throw new IllegalArgumentException("path and arrays must not be null");
    }
    List<String> names = new ArrayList<>();
    List<ByteBuffer> heads = new ArrayList<>();
    List<Tensor> data = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : arrays.entrySet()) {
      String name = e.getKey();
      Tensor tensor = e.getValue();
      if (name == null || name.isEmpty() || tensor == null) {
        throw new IllegalArgumentException("an .npz entry needs a non-empty name and a tensor, got "
            + (name == null ? "null" : "'" + escape(name) + "'") + " -> " + (tensor == null
                ? "null" : "a tensor"));
      }
      String descr = descrOf(tensor.dtype());
      if (!tensor.segment().scope().isAlive()) {
        throw new IllegalStateException("cannot write a tensor whose TensorScope has closed (its"
            + " memory is freed) as '" + escape(name) + "' to " + path);
      }
      names.add(name + ".npy");
      heads.add(header(descr, tensor.shape()));
      data.add(tensor.contiguous());
    }
    replaceAtomically(path, ch -> {
      ZipOutputStream zip = new ZipOutputStream(Channels.newOutputStream(ch));
      for (int i = 0; i < names.size(); i++) {
        MemorySegment seg = dataOf(data.get(i));
        ByteBuffer head = heads.get(i);
        // A stored member names its size and CRC before its bytes, as np.savez's members do.
        CRC32 crc = new CRC32();
        crc.update(head.duplicate());
        for (long pos = 0; pos < seg.byteSize(); pos += CHUNK) {
          crc.update(seg.asSlice(pos, Math.min(CHUNK, seg.byteSize() - pos)).asByteBuffer());
        }
        ZipEntry entry = new ZipEntry(names.get(i));
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(head.remaining() + seg.byteSize());
        entry.setCompressedSize(head.remaining() + seg.byteSize());
        entry.setCrc(crc.getValue());
        zip.putNextEntry(entry);
        zip.write(head.array(), 0, head.limit());
        for (long pos = 0; pos < seg.byteSize(); pos += CHUNK) {
          byte[] chunk = seg.asSlice(pos, Math.min(CHUNK, seg.byteSize() - pos))
              .toArray(ValueLayout.JAVA_BYTE);
          zip.write(chunk);
        }
        zip.closeEntry();
      }
      zip.finish(); // the central directory; the channel is closed by replaceAtomically
      zip.flush();
    });
  }

  /**
   * Reads an {@code .npz} archive ({@code np.savez} or {@code np.savez_compressed}) into its
   * arrays, by the names {@code np.load(path)} gives them ({@code x} for the member {@code x.npy};
   * {@code arr_0}, {@code arr_1}, ... for arrays saved without a name), in the archive's order. Each
   * member is checked as {@link #read} checks a file; a member that is not a {@code .npy} file is
   * refused, naming it.
   *
   * @param path the archive
   * @return a new map of new contiguous tensors, in the archive's order
   * @throws IOException when the file is not a zip archive of {@code .npy} members, or a member is
   *     malformed
   */
  public static Map<String, Tensor> readNpz(Path path) throws IOException {
    if (path == null) {
      throw new IllegalArgumentException("path must not be null");
    }
    requireRegularFile("read", path, followLinks(path), false);
    Map<String, Tensor> out = new LinkedHashMap<>();
    try (ZipFile zip = new ZipFile(path.toFile())) {
      for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
        String member = entry.getName();
        Path where = Path.of(path + "/" + escape(member)); // the member, in messages
        if (!member.endsWith(".npy")) {
          throw bad(where, "an .npz member must be a .npy file (" + path + " has '"
              + escape(member) + "')");
        }
        long size = declaredSize(entry, where);
        try (ReadableByteChannel ch = Channels.newChannel(zip.getInputStream(entry))) {
          out.put(member.substring(0, member.length() - 4), readFrom(ch, size, where));
        }
      }
    } catch (ZipException e) {
      throw new IOException("bad .npz file " + path + ": not a zip archive (" + e.getMessage()
          + ")", e);
    }
    return out;
  }

  /**
   * A member's uncompressed size as the archive declares it, refused when no real member could
   * have it: deflate expands at most 1032 to 1, so a larger claim is a crafted archive, and
   * trusting it would allocate the claimed size before the data ran out.
   */
  private static long declaredSize(ZipEntry entry, Path where) throws IOException {
    long size = entry.getSize();
    long packed = entry.getCompressedSize();
    boolean stored = entry.getMethod() == ZipEntry.STORED;
    if (size < 0 || packed < 0
        || (stored ? size != packed : size / 1032 > packed + 1)) {
      throw bad(where, "the archive declares " + size + " bytes from " + packed
          + (stored ? " stored" : " compressed") + " bytes");
    }
    return size;
  }

  /** The tensor's elements as one contiguous byte range ({@code tensor} is contiguous). */
  private static MemorySegment dataOf(Tensor data) {
    long bytes = data.numel() * data.dtype().byteSize();
    return data.segment().asSlice(data.offset() * data.dtype().byteSize(), bytes);
  }

  /** What writes the new file's content into the temporary file's channel. */
  private interface ChannelWriter {
    void write(FileChannel ch) throws IOException;
  }

  /**
   * {@link #write(Path, Tensor)} in chunks of at most {@code chunkBytes} data bytes, running {@code
   * afterChunk} after each: the tests' way to make a write fail midway.
   */
  static void write(Path path, Tensor tensor, long chunkBytes, Runnable afterChunk)
      throws IOException {
    if (path == null || tensor == null) {
      throw new IllegalArgumentException("path and tensor must not be null");
    }
    String descr = descrOf(tensor.dtype());
    if (!tensor.segment().scope().isAlive()) {
      throw new IllegalStateException(
          "cannot write a tensor whose TensorScope has closed (its memory is freed) to " + path);
    }
    if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
      throw new IOException("writing .npy on a big-endian platform is not supported");
    }
    ByteBuffer head = header(descr, tensor.shape());
    // A copy for a strided view, made before any file exists.
    MemorySegment seg = dataOf(tensor.contiguous());
    long bytes = seg.byteSize();
    replaceAtomically(path, ch -> {
      writeFully(ch, head);
      for (long pos = 0; pos < bytes; pos += chunkBytes) {
        writeFully(ch, seg.asSlice(pos, Math.min(chunkBytes, bytes - pos)).asByteBuffer());
        afterChunk.run();
      }
    });
  }

  /**
   * Replaces the regular file at {@code path} (or creates it) with what {@code content} writes,
   * atomically: into a temporary file beside it, forced to the device, then renamed over it. Any
   * failure deletes the temporary file and leaves the old file as it was.
   */
  private static void replaceAtomically(Path path, ChannelWriter content) throws IOException {
    Path target = followLinks(path);
    requireRegularFile("write", path, target, true);
    Path temp = tempBeside(target);
    // CREATE_NEW: never an existing file, nor a link planted under the temporary name.
    FileChannel channel =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      try (FileChannel ch = channel) {
        content.write(ch);
        ch.force(true); // the data is on the device before the rename makes it the file
      }
      keepPermissions(target, temp);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException | Error e) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /** The padded header: magic, version, length and the dict, data starting 64-byte aligned. */
  private static ByteBuffer header(String descr, long[] s) {
    StringBuilder shape = new StringBuilder("(");
    for (int i = 0; i < s.length; i++) {
      shape.append(i == 0 ? "" : ", ").append(s[i]);
    }
    shape.append(s.length == 1 ? ",)" : ")");
    String dict =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    byte[] header = dict.getBytes(StandardCharsets.US_ASCII);
    int major = header.length + 1 + 10 > 0xFFFF ? 2 : 1;
    int preamble = major == 1 ? 10 : 12;
    // Pad with spaces and a newline so the data starts on a 64-byte boundary, as numpy does.
    int total = (preamble + header.length + 1 + 63) / 64 * 64;
    int headerLen = total - preamble;
    ByteBuffer head = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
    head.put(MAGIC).put((byte) major).put((byte) 0);
    if (major == 1) {
      head.putShort((short) headerLen);
    } else {
      head.putInt(headerLen);
    }
    head.put(header);
    while (head.position() < total - 1) {
      head.put((byte) ' ');
    }
    return head.put((byte) '\n').flip();
  }

  /**
   * Refuses, before anything is opened, a {@code file} (the end of {@code path}'s links) that is
   * not a regular file: a directory, a FIFO, a device or a socket. Writing would replace such a
   * node with a regular file (the rename replaces whatever the name holds: it once replaced a
   * machine's {@code /dev/null}), and reading a FIFO would wait for a writer, a device never end.
   * An absent file passes when {@code mayBeAbsent} (a write creates it); otherwise the open that
   * follows reports it as usual.
   */
  private static void requireRegularFile(String verb, Path path, Path file, boolean mayBeAbsent)
      throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return; // a write creates it; a read's open says it is missing
    }
    if (!a.isRegularFile()) {
      throw new IOException(
          "cannot " + verb + " " + path + ": "
              + (file.equals(path) ? "it" : "its link target " + file) + " is " + kind(file, a)
              + ", not a regular file; Npy " + (mayBeAbsent
                  ? "writes only to a regular file, which it replaces, or to a new one"
                  : "reads only regular files"));
    }
  }

  /** What kind of file system node {@code file} is, in words ("a FIFO"). */
  private static String kind(Path file, BasicFileAttributes a) {
    if (a.isDirectory()) {
      return "a directory";
    }
    if (a.isSymbolicLink()) {
      return "a symbolic link still after " + MAX_LINKS + " links (a loop?)";
    }
    int type;
    try {
      type = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
    } catch (IOException | RuntimeException e) {
      type = 0; // no unix view here: the generic words
    }
    return switch (type) { // S_IFMT's file types
      case 0010000 -> "a FIFO (named pipe)";
      case 0020000 -> "a character device";
      case 0060000 -> "a block device";
      case 0140000 -> "a socket";
      default -> "a device, FIFO or socket";
    };
  }

  /** The file a chain of symbolic links at {@code path} ends at (it need not exist). */
  private static Path followLinks(Path path) throws IOException {
    Path p = path;
    for (int i = 0; i < MAX_LINKS && Files.isSymbolicLink(p); i++) {
      p = p.resolveSibling(Files.readSymbolicLink(p));
    }
    return p;
  }

  /**
   * A fresh name beside {@code target} for the temporary file: hidden, and random so that two
   * writers of the same file never share it. Created with {@code CREATE_NEW} and the default
   * permissions of a new file (not {@link Files#createTempFile}'s owner-only ones, which the rename
   * would pass on to the result).
   */
  private static Path tempBeside(Path target) {
    Path dir = target.toAbsolutePath().getParent();
    String name = target.getFileName().toString();
    String stem = "." + name.substring(0, Math.min(name.length(), 100)) + ".";
    long random = ThreadLocalRandom.current().nextLong();
    return dir.resolve(stem + Long.toUnsignedString(random, 36) + ".tmp");
  }

  /** Gives the new file the permission bits of the file it replaces, where the system has them. */
  private static void keepPermissions(Path target, Path temp) throws IOException {
    if (!Files.exists(target)) {
      return;
    }
    try {
      Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the new file keeps the default permissions.
    }
  }

  private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  private static String descrOf(DType t) {
    return switch (t) {
      case BOOL -> "|b1";
      case UINT8 -> "|u1";
      case INT8 -> "|i1";
      case INT16 -> "<i2";
      case INT32 -> "<i4";
      case INT64 -> "<i8";
      case UINT16 -> "<u2";
      case UINT32 -> "<u4";
      case UINT64 -> "<u8";
      case FLOAT16 -> "<f2";
      case FLOAT32 -> "<f4";
      case FLOAT64 -> "<f8";
      case COMPLEX64 -> "<c8";
      case COMPLEX128 -> "<c16";
      case BFLOAT16 -> "bfloat16"; // ml_dtypes' registered name (see the class doc)
      case COMPLEX32 ->
          throw new IllegalArgumentException(
              "NumPy has no complex32; write tensor.to(DType.COMPLEX64) instead");
      case FLOAT8_E4M3FN, FLOAT8_E5M2 ->
          throw new IllegalArgumentException(
              "NumPy has no " + t + " and a 1-byte void array would not say which float8 it is;"
                  + " write tensor.to(DType.FLOAT32) instead (exact)");
    };
  }

  /**
   * Reads a {@code .npy} file into a new contiguous tensor. Only a regular file (a symbolic link is
   * followed) is read: a directory, FIFO, device or socket is refused with an {@link IOException}
   * naming its kind, without being opened (a FIFO would block the read until a writer came).
   *
   * @param path the file
   * @return a new contiguous tensor
   * @throws IOException when the file cannot be read
   */
  public static Tensor read(Path path) throws IOException {
    if (path == null) {
      throw new IllegalArgumentException("path must not be null");
    }
    requireRegularFile("read", path, followLinks(path), false);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      return readFrom(ch, ch.size(), path);
    }
  }

  /**
   * Reads one {@code .npy} stream of {@code fileSize} bytes from its start, sequentially: a file,
   * or a member of an {@code .npz} archive ({@code path} then names the member in messages).
   */
  private static Tensor readFrom(ReadableByteChannel ch, long fileSize, Path path)
      throws IOException {
    ByteBuffer pre = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
    readFully(ch, pre, path, "the magic string and version");
    if (pre.getInt(0) == 0x04034b50) { // "PK\3\4": a zip archive, as np.savez writes
      throw bad(path, "this is an .npz archive (a zip of .npy files), not a .npy file:"
          + " read it with Npy.readNpz");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (pre.get(i) != MAGIC[i]) {
        throw bad(path, "not a .npy file: wrong magic string " + hexBytes(pre, 6));
      }
    }
    int major = pre.get(6) & 0xFF;
    int minor = pre.get(7) & 0xFF;
    if (major < 1 || major > 3 || minor != 0) {
      throw bad(path, "unsupported format version " + major + "." + minor
          + " (supported: 1.0, 2.0, 3.0)");
    }
    long headerLen;
    int preamble;
    if (major == 1) {
      headerLen = pre.getShort(8) & 0xFFFF;
      preamble = 10;
    } else {
      ByteBuffer high = ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN);
      readFully(ch, high, path, "the magic string and version");
      headerLen = (pre.getShort(8) & 0xFFFFL) | (high.getShort(0) & 0xFFFFL) << 16;
      preamble = 12;
    }
    if (headerLen > MAX_HEADER_BYTES) {
      throw bad(path, "header length " + headerLen + " exceeds the limit of "
          + MAX_HEADER_BYTES + " bytes");
    }
    if (preamble + headerLen > fileSize) {
      throw bad(path, "truncated: header length " + headerLen + " but the file has "
          + fileSize + " bytes");
    }
    ByteBuffer hb = ByteBuffer.allocate((int) headerLen);
    readFully(ch, hb, path, "the header");
    String header =
        new String(hb.array(), major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    Header h = Header.parse(header, path);
    long dataStart = preamble + headerLen;
    long bytes;
    try {
      bytes = Math.multiplyExact(Shapes.numelOf(h.shape), (long) h.dtype.byteSize());
    } catch (ArithmeticException e) {
      throw bad(path, "shape " + Arrays.toString(h.shape) + " is too large");
    }
    if (fileSize - dataStart < bytes) {
      throw bad(path, "truncated: shape " + Arrays.toString(h.shape) + " of " + h.descr
          + " needs " + bytes + " bytes of data, the file has " + (fileSize - dataStart));
    }
    long[] storedShape = h.shape.clone();
    if (h.fortran) {
      reverse(storedShape);
    }
    Tensor t = Tensor.empty(h.dtype, storedShape);
    MemorySegment seg = t.segment();
    for (long pos = 0; pos < bytes; pos += CHUNK) {
      ByteBuffer b = seg.asSlice(pos, Math.min(CHUNK, bytes - pos)).asByteBuffer();
      readFully(ch, b, path, "the data");
    }
    if (h.bigEndian) {
      swapBytes(seg, bytes, h.dtype.componentType().byteSize());
    }
    if (h.dtype == DType.BOOL) {
      normalizeBools(seg, bytes);
    }
    if (h.fortran && storedShape.length > 1) {
      int n = storedShape.length;
      int[] rev = new int[n];
      for (int i = 0; i < n; i++) {
        rev[i] = n - 1 - i;
      }
      t = t.permute(rev).contiguous();
    }
    return t;
  }

  private static void readFully(ReadableByteChannel ch, ByteBuffer b, Path path, String what)
      throws IOException {
    while (b.hasRemaining()) {
      if (ch.read(b) < 0) {
        throw bad(path, "truncated while reading " + what);
      }
    }
  }

  private static void swapBytes(MemorySegment seg, long bytes, int width) {
    switch (width) {
      case 2 -> {
        for (long i = 0; i < bytes; i += 2) {
          seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, i,
              Short.reverseBytes(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, i)));
        }
      }
      case 4 -> {
        for (long i = 0; i < bytes; i += 4) {
          seg.set(ValueLayout.JAVA_INT_UNALIGNED, i,
              Integer.reverseBytes(seg.get(ValueLayout.JAVA_INT_UNALIGNED, i)));
        }
      }
      case 8 -> {
        for (long i = 0; i < bytes; i += 8) {
          seg.set(ValueLayout.JAVA_LONG_UNALIGNED, i,
              Long.reverseBytes(seg.get(ValueLayout.JAVA_LONG_UNALIGNED, i)));
        }
      }
      default -> { } // single bytes have no order
    }
  }

  /** NumPy bools are any nonzero byte; the runtime's BOOL storage is exactly 0 or 1. */
  private static void normalizeBools(MemorySegment seg, long bytes) {
    for (long i = 0; i < bytes; i++) {
      if (seg.get(ValueLayout.JAVA_BYTE, i) != 0) {
        seg.set(ValueLayout.JAVA_BYTE, i, (byte) 1);
      }
    }
  }

  private static void reverse(long[] a) {
    for (int i = 0, j = a.length - 1; i < j; i++, j--) {
      long x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
  }

  private static String hexBytes(ByteBuffer b, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(String.format("%02x", b.get(i) & 0xFF));
    }
    return sb.toString();
  }

  static IOException bad(Path path, String what) {
    return new IOException("bad .npy file " + path + ": " + what);
  }

  /**
   * Text read from a file, as a message may show it: printable ASCII stays, a backslash becomes
   * {@code \\}, a quote {@code \'}, tab, newline and carriage return {@code \t \n \r}, any other
   * character a hex escape ({@code \xHH} below 256, else a backslash, {@code u} and four hex
   * digits), as Python's {@code repr} does. So a crafted header cannot put control characters
   * (terminal escapes, line breaks) into a message or a log.
   */
  static String escape(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '\'' -> sb.append("\\'");
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c >= 0x20 && c < 0x7F) {
            sb.append(c);
          } else if (c < 0x100) {
            sb.append(String.format("\\x%02x", (int) c));
          } else {
            sb.append(String.format("\\u%04x", (int) c));
          }
        }
      }
    }
    return sb.toString();
  }

  /** A header value as the message shows it: a quoted, escaped string, True/False, or a tuple. */
  private static String show(Object value) {
    if (value instanceof String str) {
      return "'" + escape(str) + "'";
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof long[] tuple) {
      StringBuilder sb = new StringBuilder("(");
      for (int i = 0; i < tuple.length; i++) {
        sb.append(i > 0 ? ", " : "").append(tuple[i]);
      }
      return sb.append(tuple.length == 1 ? ",)" : ")").toString();
    }
    return String.valueOf(value);
  }

  /** The parsed header dictionary. */
  private record Header(String descr, DType dtype, boolean bigEndian, boolean fortran,
      long[] shape) {

    static Header parse(String text, Path path) throws IOException {
      Map<String, Object> dict = new DictParser(text, path).parse();
      if (!dict.keySet().equals(java.util.Set.of("descr", "fortran_order", "shape"))) {
        throw bad(path, "header keys must be exactly descr, fortran_order and shape, got "
            + dict.keySet().stream().map(Npy::show).toList());
      }
      if (!(dict.get("descr") instanceof String descr)) {
        throw bad(path, "descr must be a string, got " + show(dict.get("descr")));
      }
      if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
        throw bad(path, "fortran_order must be True or False, got "
            + show(dict.get("fortran_order")));
      }
      if (!(dict.get("shape") instanceof long[] shape)) {
        throw bad(path, "shape must be a tuple of integers, got " + show(dict.get("shape")));
      }
      if (descr.length() < 2) {
        throw bad(path, "unsupported dtype " + show(descr));
      }
      char order = descr.charAt(0);
      String code = "<>|=".indexOf(order) >= 0 ? descr.substring(1) : descr;
      boolean big = order == '>';
      DType dtype = switch (code) {
        case "b1", "?" -> DType.BOOL;
        case "u1" -> DType.UINT8;
        case "i1" -> DType.INT8;
        case "i2" -> DType.INT16;
        case "i4" -> DType.INT32;
        case "i8" -> DType.INT64;
        case "u2" -> DType.UINT16;
        case "u4" -> DType.UINT32;
        case "u8" -> DType.UINT64;
        case "f2" -> DType.FLOAT16;
        case "f4" -> DType.FLOAT32;
        case "f8" -> DType.FLOAT64;
        case "c8" -> DType.COMPLEX64;
        case "c16" -> DType.COMPLEX128;
        // ml_dtypes' registered name (what Npy.write writes), and the 2-byte void type
        // numpy.save writes for an ml_dtypes.bfloat16 array.
        case "bfloat16", "V2" -> DType.BFLOAT16;
        default -> throw bad(path, "unsupported dtype " + show(descr) + " (supported: bool, int8-64,"
            + " uint8-64, float16/32/64, complex64/128, and bfloat16 or V2 as bfloat16)");
      };
      return new Header(descr, dtype, big, fortran, shape);
    }
  }

  /** A strict parser for the Python literal dict of a {@code .npy} header. */
  private static final class DictParser {
    private final String s;
    private final Path path;
    private int pos;

    DictParser(String s, Path path) {
      this.s = s;
      this.path = path;
    }

    Map<String, Object> parse() throws IOException {
      Map<String, Object> m = new LinkedHashMap<>();
      ws();
      expect('{');
      while (true) {
        ws();
        if (peek() == '}') {
          pos++;
          break;
        }
        String key = string();
        ws();
        expect(':');
        ws();
        Object value = value();
        if (m.put(key, value) != null) {
          throw bad(path, "duplicate header key " + show(key));
        }
        ws();
        if (peek() == ',') {
          pos++;
        } else {
          ws();
          expect('}');
          break;
        }
      }
      ws();
      if (pos != s.length()) {
        throw bad(path, "unexpected characters after the header dictionary at offset " + pos);
      }
      return m;
    }

    private Object value() throws IOException {
      char c = peek();
      if (c == '\'' || c == '"') {
        return string();
      }
      if (s.startsWith("True", pos)) {
        pos += 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("False", pos)) {
        pos += 5;
        return Boolean.FALSE;
      }
      if (c == '(') {
        return tuple();
      }
      throw bad(path, "unexpected header value at offset " + pos + ": '" + excerpt() + "'");
    }

    private long[] tuple() throws IOException {
      expect('(');
      List<Long> dims = new ArrayList<>();
      while (true) {
        ws();
        if (peek() == ')') {
          pos++;
          break;
        }
        int start = pos;
        while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
          pos++;
        }
        String digits = s.substring(start, pos);
        if (digits.isEmpty()) {
          throw bad(path, "shape entries must be non-negative integers, got '" + excerpt() + "'");
        }
        if (pos < s.length() && s.charAt(pos) == 'L') {
          pos++; // Python 2 long suffix in old files
        }
        long dim;
        try {
          dim = Long.parseLong(digits);
        } catch (NumberFormatException e) {
          throw bad(path, "shape entry " + digits + " is too large");
        }
        dims.add(dim);
        if (dims.size() > MAX_DIMS) {
          throw bad(path, "more than " + MAX_DIMS + " dimensions in shape");
        }
        ws();
        if (peek() == ',') {
          pos++;
        } else {
          ws();
          expect(')');
          break;
        }
      }
      long[] shape = dims.stream().mapToLong(Long::longValue).toArray();
      long n = 1;
      for (long d : shape) {
        try {
          n = Math.multiplyExact(n, d);
        } catch (ArithmeticException e) {
          throw bad(path, "shape " + Arrays.toString(shape) + " has more than 2^63 elements");
        }
      }
      return shape;
    }

    private String string() throws IOException {
      char q = peek();
      if (q != '\'' && q != '"') {
        throw bad(path, "expected a quoted string at offset " + pos + ": '" + excerpt() + "'");
      }
      int end = s.indexOf(q, pos + 1);
      if (end < 0 || end - pos > 64) {
        throw bad(path, "unterminated or overlong string at offset " + pos);
      }
      String r = s.substring(pos + 1, end);
      pos = end + 1;
      return r;
    }

    private char peek() throws IOException {
      if (pos >= s.length()) {
        throw bad(path, "header ends early at offset " + pos);
      }
      return s.charAt(pos);
    }

    private void expect(char c) throws IOException {
      if (peek() != c) {
        throw bad(path, "expected '" + c + "' at offset " + pos + ": '" + excerpt() + "'");
      }
      pos++;
    }

    private void ws() {
      while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\n'
          || s.charAt(pos) == '\t' || s.charAt(pos) == '\r')) {
        pos++;
      }
    }

    private String excerpt() {
      return escape(s.substring(pos, Math.min(s.length(), pos + 20)));
    }
  }
}
