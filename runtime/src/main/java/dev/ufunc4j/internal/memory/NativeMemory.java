package dev.ufunc4j.internal.memory;

import dev.ufunc4j.internal.RuntimeContext;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Tensor storage: 64-byte-aligned native segments, all of one class ({@code MemorySegment}s over
 * native memory), so that every kernel's type profile stays monomorphic. Internal API.
 *
 * <p>Storage outside a {@code TensorScope} is <em>GC-managed</em>: a block goes back to a pool
 * when the GC finds its last segment unreachable, and the next allocation of that size takes it
 * without a fresh {@code malloc}, page faults or zeroing. Every segment of a block (slices and
 * views included) refers to one memory session of its own; a phantom reference to that session,
 * queued by the GC, returns the block, and the allocating threads drain the queue themselves (no
 * cleaner thread in between). Three tiers, by size:
 *
 * <ul>
 *   <li>at most {@link #SMALL_MAX} bytes: a slice of a shared 256 KiB slab (a bump pointer); the
 *       slab returns to its pool once none of its slices is reachable;
 *   <li>up to {@link #HUGE_THRESHOLD}: a block of a size class (eight per power of two);
 *   <li>larger: a block {@code mmap}ed through the FFM linker, aligned to 2 MiB and advised with
 *       {@code madvise(MADV_HUGEPAGE)}, as NumPy does; anonymous mappings are already zero and
 *       huge pages cut page faults by 512×.
 * </ul>
 *
 * <p>The GC does not see native memory, so the allocator keeps its own budget: the bytes it
 * holds (handed out and not yet returned, plus free blocks in the pools) stay within what was
 * live after the last collection plus the <em>slack</em> ({@link #slackBytes()}: {@code
 * ufunc4j.slackBytes}, 128 MiB, at most a quarter of the heap's maximum). An allocation that
 * finds no free block of its size and would pass the budget drops free blocks of other sizes,
 * and when none is left, collects (a young collection paced by heap garbage where that is enough,
 * else {@code System.gc()}, as {@code DirectByteBuffer} does) and takes a returned block. The pools are warm: a block that comes back from one is faulted in
 * already, where fresh memory costs a page fault per page. Measured numbers and the resulting
 * bound are in {@code docs/runtime.md}. Where the native calls are unavailable (not
 * Linux, or native access denied) large blocks come from the arena like the others.
 *
 * <p>The parts: the allocators ({@link ArenaBlocks}, {@link MappedBlocks}) behind {@link
 * BlockAllocator}, the policy ({@link Reclamation}: tracking, budget, GC backstop, heap pressure),
 * put together by {@link Storage}. This class is the runtime's entry to the {@link Storage} the
 * runtime context owns.
 */
// reinterpret is a restricted FFM method: the JVM runs with --enable-native-access=ALL-UNNAMED.
@SuppressWarnings("restricted")
public final class NativeMemory {
  private NativeMemory() {}

  /** Byte alignment of every block: one cache line, and the widest vector register. */
  public static final long ALIGNMENT = 64;

  /** Blocks this large or larger are mapped and advised to use huge pages (NumPy: 4 MiB). */
  public static final long HUGE_THRESHOLD = 4L << 20;

  /** Blocks up to this size are carved from shared slabs. */
  static final long SMALL_MAX = 16L << 10;

  /** The largest request tried at all: 2^62 bytes, far beyond any machine's address space. */
  private static final long MAX_BYTES = 1L << 62;

  /** The slack never shrinks below this: a collection per few blocks costs more than it saves. */
  static final long MIN_SLACK = 8L << 20;

  /**
   * The runtime's storage as configured by system properties: the slack {@code
   * ufunc4j.slackBytes} (default 128 MiB, at most a quarter of the heap's maximum: slabs and
   * size-class blocks come from arenas, which count against {@code -XX:MaxDirectMemorySize}, and
   * that defaults to the heap's maximum), heap pressure {@code ufunc4j.heapPressure} (default 0:
   * it was a quarter before issue 23, but the garbage fills the young generation, whose pages stay
   * resident), large blocks mapped unless {@code ufunc4j.noMmap}, and the most heap garbage a
   * young backstop collection may allocate {@code ufunc4j.youngBallastBytes} (default an eighth of
   * the slack, 16 MiB; 0: every backstop collection is a full {@code System.gc()}).
   */
  public static Storage fromProperties() {
    long slack =
        Math.min(
            Long.getLong("ufunc4j.slackBytes", 128L << 20), Runtime.getRuntime().maxMemory() / 4);
    double pressure = Double.parseDouble(System.getProperty("ufunc4j.heapPressure", "0"));
    long youngBallast = Long.getLong("ufunc4j.youngBallastBytes", slack / 8);
    return new Storage(slack, MIN_SLACK, pressure, System::gc, youngBallast, true);
  }

  /** The storage of the current {@link RuntimeContext}. */
  private static Storage storage() {
    return RuntimeContext.current().storage();
  }

  /** The slack: bytes held beyond the live set before an allocation reclaims (class doc). */
  public static long slackBytes() {
    return storage().reclamation().slackBytes();
  }

  /**
   * Held bytes (outstanding and pooled) past which an allocation that needs fresh memory first
   * drops free blocks of other sizes and then collects: what stayed live after the last
   * collection plus the slack.
   */
  public static long gcTriggerBytes() {
    return storage().reclamation().gcTriggerBytes();
  }

  /** GC-managed bytes handed out and not yet returned to a pool (live, or dead but not found). */
  public static long outstandingBytes() {
    return storage().reclamation().outstandingBytes();
  }

  /** The largest {@link #outstandingBytes()} seen since the last {@link #resetPeak()}. */
  public static long peakOutstandingBytes() {
    return storage().reclamation().peakOutstandingBytes();
  }

  /** Starts a new peak measurement at the current outstanding bytes. */
  public static void resetPeak() {
    storage().reclamation().resetPeak();
  }

  /** How many backstop collections allocations have requested, young and full. */
  public static long backstopCollections() {
    return storage().reclamation().collections();
  }

  /** How many of the {@link #backstopCollections()} were full ones ({@code System.gc()}). */
  public static long fullCollections() {
    return storage().reclamation().fullCollections();
  }

  /**
   * How many blocks and slabs came from fresh memory (a page fault per page on first touch)
   * rather than from a pool, since the start: for benchmarks and tests that check the pools work.
   */
  public static long freshBlocks() {
    return storage().freshBlocks();
  }

  /** True when large blocks are mapped with huge-page advice (Linux with native access). */
  public static boolean hugePagesAvailable() {
    return MappedBlocks.available();
  }

  /** Bytes of free blocks kept for reuse in both pools (size classes and slabs, mapped blocks). */
  public static long cachedBytes() {
    return storage().reclamation().pooledBytes();
  }

  /**
   * A GC-managed, 64-byte-aligned segment of {@code bytes} bytes: zeroed when {@code zero},
   * otherwise with unspecified contents (for a result that the caller overwrites entirely, a
   * kernel's output), which saves zeroing a reused block.
   */
  public static MemorySegment allocate(long bytes, boolean zero) {
    checkSize(bytes);
    return storage().allocate(bytes, zero);
  }

  /**
   * A mapped block of {@code rounded} bytes ({@link #mappedLength}) for a scope, which gives it
   * back with {@link #giveMapped}; null when blocks are not mapped here. The contents are whatever
   * the last user left, or zero for a fresh mapping ({@code fresh[0]}).
   */
  static MemorySegment takeMapped(long rounded, boolean[] fresh) {
    return storage().takeMapped(rounded, fresh);
  }

  /** Gives back a block taken with {@link #takeMapped}. */
  static void giveMapped(MemorySegment block) {
    storage().giveMapped(block);
  }

  /** The mapped length of a block of {@code bytes}: a multiple of 2 MiB. */
  static long mappedLength(long bytes) {
    return MappedBlocks.mappedLength(bytes);
  }

  /**
   * A fresh zeroed block, never a reused one, owned by {@code arena}; {@code adviseHugePages}
   * false maps large blocks without the advice (for the measurement in {@code docs/runtime.md}).
   */
  static MemorySegment allocateFresh(long bytes, Arena arena, boolean adviseHugePages) {
    checkSize(bytes);
    if (bytes >= HUGE_THRESHOLD && MappedBlocks.available()) {
      long rounded = mappedLength(bytes);
      long address = MappedBlocks.map(bytes, rounded, adviseHugePages);
      return MemorySegment.ofAddress(address)
          .reinterpret(bytes, arena, s -> MappedBlocks.unmap(address, rounded));
    }
    return arena.allocate(Math.max(bytes, 1), ALIGNMENT).asSlice(0, bytes);
  }

  static void checkSize(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot allocate a negative byte count: " + bytes);
    }
    // No address space holds this much, and rounding it up to whole huge pages would overflow.
    if (bytes > MAX_BYTES) {
      throw new OutOfMemoryError(
          "cannot allocate " + bytes + " bytes for a tensor: more than any address space holds");
    }
  }

  static long roundUp(long value, long multiple) {
    return (value + multiple - 1) / multiple * multiple;
  }
}
