package dev.ufunc4j.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

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
 * and when none is left, collects ({@code System.gc()}, as {@code DirectByteBuffer} does) and
 * takes a returned block. The pools are warm: a block that comes back from one is faulted in
 * already, where fresh memory costs a page fault per page. Measured numbers and the resulting
 * bound are in {@code docs/runtime.md}. Where the native calls are unavailable (not
 * Linux, or native access denied) large blocks come from the arena like the others.
 */
// mmap/madvise downcalls and reinterpret are restricted FFM methods: the build and README run the
// JVM with --enable-native-access=ALL-UNNAMED; without it JDK 25 prints one warning and proceeds.
@SuppressWarnings("restricted")
public final class NativeMemory {
  private NativeMemory() {}

  /** Byte alignment of every block: one cache line, and the widest vector register. */
  public static final long ALIGNMENT = 64;

  /** Blocks this large or larger are mapped and advised to use huge pages (NumPy: 4 MiB). */
  public static final long HUGE_THRESHOLD = 4L << 20;

  /** Blocks up to this size are carved from shared slabs. */
  static final long SMALL_MAX = 16L << 10;

  private static final long SLAB_BYTES = 256L << 10;
  private static final long HUGE_PAGE = 2L << 20;

  /** The largest request tried at all: 2^62 bytes, far beyond any machine's address space. */
  private static final long MAX_BYTES = 1L << 62;
  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
  private static final int MADV_HUGEPAGE = 14;

  /**
   * The mmap, munmap and madvise downcalls, linked when the first huge block needs them: linking
   * spins classes through the FFM linker, which cost a program's first tensor about 90 ms of its
   * cold start (docs/build-cost.md) when it was done as this class loaded.
   */
  private static final class Syscalls {
    private Syscalls() {}

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;

    static {
      MethodHandle mmap = null;
      MethodHandle munmap = null;
      MethodHandle madvise = null;
      if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
          && !Boolean.getBoolean("ufunc4j.noMmap")) {
        try {
          Linker linker = Linker.nativeLinker();
          SymbolLookup libc = linker.defaultLookup();
          mmap =
              linker.downcallHandle(
                  libc.find("mmap").orElseThrow(),
                  FunctionDescriptor.of(
                      ValueLayout.JAVA_LONG,
                      ValueLayout.JAVA_LONG,
                      ValueLayout.JAVA_LONG,
                      ValueLayout.JAVA_INT,
                      ValueLayout.JAVA_INT,
                      ValueLayout.JAVA_INT,
                      ValueLayout.JAVA_LONG));
          munmap =
              linker.downcallHandle(
                  libc.find("munmap").orElseThrow(),
                  FunctionDescriptor.of(
                      ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
          madvise =
              linker.downcallHandle(
                  libc.find("madvise").orElseThrow(),
                  FunctionDescriptor.of(
                      ValueLayout.JAVA_INT,
                      ValueLayout.JAVA_LONG,
                      ValueLayout.JAVA_LONG,
                      ValueLayout.JAVA_INT));
        } catch (RuntimeException | LinkageError e) {
          // Native access denied or symbols missing: fall back to arena blocks.
          mmap = null;
        }
      }
      MMAP = mmap;
      MUNMAP = mmap == null ? null : munmap;
      MADVISE = mmap == null ? null : madvise;
    }
  }

  // ============================================================================================
  // Accounting: the bytes held (handed out, and free in the pools) against the slack
  // ============================================================================================

  /** GC-managed bytes handed out (slabs whole, blocks by their pooled size) and not returned. */
  private static final AtomicLong OUTSTANDING = new AtomicLong();

  /** The largest value {@link #OUTSTANDING} has had (for the memory-bound test). */
  private static final AtomicLong PEAK_OUTSTANDING = new AtomicLong();

  /** Free bytes in both pools. */
  private static final AtomicLong POOLED = new AtomicLong();

  /** The slack never shrinks below this: a collection per few blocks costs more than it saves. */
  private static final long MIN_SLACK = 8L << 20;

  /**
   * Bytes the allocator may hold beyond the live set: dead blocks the GC has not found yet plus
   * free blocks in the pools. {@code ufunc4j.slackBytes}, default 128 MiB, at most a quarter of
   * the heap's maximum: slabs and size-class blocks come from arenas, which count against {@code
   * -XX:MaxDirectMemorySize}, and that defaults to the heap's maximum. Halved when an arena
   * allocation hits that limit all the same ({@link #freshFromArena}).
   */
  private static volatile long slack =
      Math.max(
          MIN_SLACK,
          Math.min(
              Long.getLong("ufunc4j.slackBytes", 128L << 20),
              Runtime.getRuntime().maxMemory() / 4));

  /** Outstanding bytes just after the last backstop collection: the live set as last seen. */
  private static volatile long liveAfterCollection;

  /** Backstop collections requested so far (for tests and the benchmarks' notes). */
  private static final AtomicLong BACKSTOP_COLLECTIONS = new AtomicLong();

  /** One collecting thread at a time. */
  private static final Object COLLECT_LOCK = new Object();

  /**
   * Heap garbage allocated per native byte of GC-managed storage, in 1/1024ths (default 0: none).
   * A positive value makes young collections come in proportion to native allocation; it was a
   * quarter before issue 23, but the garbage fills the young generation, whose pages stay
   * resident: with the default heap of a 24 GiB machine the heap alone then held hundreds of MB.
   */
  private static final long PRESSURE_PER_1024 =
      Math.round(1024 * Double.parseDouble(System.getProperty("ufunc4j.heapPressure", "0")));

  private static final int BALLAST_CHUNK = 64 << 10;

  /** Heap-pressure debt in bytes; updated without synchronisation (an estimate is enough). */
  private static long ballastDebt;

  /** Where ballast goes, so that the JIT cannot prove it unused and remove the allocation. */
  @SuppressWarnings("unused")
  private static Object ballastSink;

  /** The slack: bytes held beyond the live set before an allocation reclaims (class doc). */
  public static long slackBytes() {
    return slack;
  }

  /**
   * Held bytes (outstanding and pooled) past which an allocation that needs fresh memory first
   * drops free blocks of other sizes and then collects: what stayed live after the last
   * collection plus the slack.
   */
  public static long gcTriggerBytes() {
    return liveAfterCollection + slack;
  }

  /** GC-managed bytes handed out and not yet returned to a pool (live, or dead but not found). */
  public static long outstandingBytes() {
    drain();
    return OUTSTANDING.get();
  }

  /** The largest {@link #outstandingBytes()} seen since the last {@link #resetPeak()}. */
  public static long peakOutstandingBytes() {
    return PEAK_OUTSTANDING.get();
  }

  /** Starts a new peak measurement at the current outstanding bytes. */
  public static void resetPeak() {
    PEAK_OUTSTANDING.set(OUTSTANDING.get());
  }

  /** How many backstop collections allocations have requested. */
  public static long backstopCollections() {
    return BACKSTOP_COLLECTIONS.get();
  }

  /** Blocks (and slabs) made from fresh memory rather than taken from a pool. */
  private static final AtomicLong FRESH_BLOCKS = new AtomicLong();

  /**
   * How many blocks and slabs came from fresh memory (a page fault per page on first touch)
   * rather than from a pool, since the start: for benchmarks and tests that check the pools work.
   */
  public static long freshBlocks() {
    return FRESH_BLOCKS.get();
  }

  /** True when large blocks are mapped with huge-page advice (Linux with native access). */
  public static boolean hugePagesAvailable() {
    return Syscalls.MMAP != null;
  }

  /** Bytes of free blocks kept for reuse in both pools (size classes and slabs, mapped blocks). */
  public static long cachedBytes() {
    drain();
    return POOLED.get();
  }

  // ============================================================================================
  // Allocation
  // ============================================================================================

  /**
   * A GC-managed, 64-byte-aligned segment of {@code bytes} bytes: zeroed when {@code zero},
   * otherwise with unspecified contents (for a result that the caller overwrites entirely, a
   * kernel's output), which saves zeroing a reused block.
   */
  public static MemorySegment allocate(long bytes, boolean zero) {
    checkSize(bytes);
    drain();
    if (bytes <= SMALL_MAX) {
      MemorySegment slice = smallBlock(bytes);
      if (zero) {
        slice.fill((byte) 0);
      }
      return slice;
    }
    boolean mapped = bytes >= HUGE_THRESHOLD && Syscalls.MMAP != null;
    Pool pool = mapped ? MAPPED : CLASSES;
    long size = mapped ? mappedLength(bytes) : SizeClasses.classSize(bytes);
    MemorySegment block = take(pool, size);
    boolean reused = block != null;
    if (!reused) {
      FRESH_BLOCKS.incrementAndGet();
      // Nothing is counted before the fresh block exists: a failed request (say, 4e18 bytes)
      // leaves the accounting as it was.
      block = mapped ? mappedBlock(bytes, size) : freshFromArena(bytes, size);
    }
    account(size);
    MemorySegment seg = track(block, pool, bytes);
    if (reused && zero) {
      seg.fill((byte) 0);
    }
    return seg;
  }

  /**
   * A free block of {@code size} from {@code pool}, or null when fresh memory may be taken for
   * it. Fresh memory would raise the bytes held (outstanding and pooled); when that would pass
   * the live set plus the slack (or plus two blocks of this size, when they are larger), this
   * first drops free blocks of other sizes, and when none is left, collects: the dead blocks come
   * back to the pools, and the pool is asked again.
   *
   * <p>So whatever the heap's size, a loop of fresh results holds at most its live set, the slack
   * and one block: when its results are dropped at once, one collection per slack's worth of
   * results returns them all (issue 23: 128 MiB of slack against the 1 GiB collection threshold
   * and 1.25 GiB of pools before, which let a naive loop reach 1.5 GiB resident).
   */
  private static MemorySegment take(Pool pool, long size) {
    MemorySegment block = pool.take(size);
    if (block != null || !overBudget(size)) {
      return block;
    }
    if (evict(size)) {
      return null; // there is room now: the caller takes fresh memory
    }
    collect();
    return pool.take(size);
  }

  /** True when fresh memory of {@code size} would take the held bytes past the budget. */
  private static boolean overBudget(long size) {
    // held - live + size > max(slack, 2 size), rearranged so that no sum can overflow
    long excess = OUTSTANDING.get() + POOLED.get() - liveAfterCollection;
    return excess > Math.max(slack - size, size);
  }

  /**
   * Drops free blocks, coldest first, until fresh memory of {@code size} fits the budget; false
   * when the pools ran empty before it did.
   */
  private static boolean evict(long size) {
    while (overBudget(size)) {
      if (!dropColdestOfAll()) {
        return false;
      }
    }
    return true;
  }

  /**
   * A mapped block of {@code size} bytes for a request of {@code bytes}: zero, huge-page advised.
   */
  private static MemorySegment mappedBlock(long bytes, long size) {
    return MemorySegment.ofAddress(map(bytes, size, true)).reinterpret(size);
  }

  /**
   * A fresh zeroed block of {@code size} bytes from an automatic arena (freed by the GC once the
   * pool drops it), for a request of {@code bytes}. Arena memory counts against {@code
   * -XX:MaxDirectMemorySize}, and dead blocks release it only once the GC has found them: when
   * the arena refuses (the JDK has already collected once and waited for its cleaners), this
   * collects so that the dead blocks return, drops every free arena block so that the next
   * collection frees it, halves the slack, and tries again (the arena's own retry collects). It
   * gives up after three such rounds: then the live set
   * itself does not fit (issue 23: a loop of fresh 64K-element results failed at {@code
   * -Xmx256m} with a live set under 1 MB).
   */
  private static MemorySegment freshFromArena(long bytes, long size) {
    for (int round = 0; ; round++) {
      try {
        return Arena.ofAuto().allocate(size, ALIGNMENT);
      } catch (OutOfMemoryError e) {
        if (round == 3) {
          OutOfMemoryError refused =
              new OutOfMemoryError(
                  "cannot allocate " + bytes + " bytes for a tensor: the JVM's direct memory limit"
                      + " (-XX:MaxDirectMemorySize, by default the heap's maximum) is reached after"
                      + " three collections; tensors in use hold " + OUTSTANDING.get() + " bytes");
          refused.initCause(e);
          throw refused;
        }
        slack = Math.max(MIN_SLACK, slack / 2);
        collect();
        while (CLASSES.dropColdest()) {
          // every free arena block goes: the arena's own retry collects, which frees them
        }
      }
    }
  }

  /**
   * A mapped block of {@code rounded} bytes ({@link #mappedLength}) for a scope, which gives it
   * back with {@link #giveMapped}; null when blocks are not mapped here. The contents are whatever
   * the last user left, or zero for a fresh mapping ({@code fresh[0]}).
   */
  static MemorySegment takeMapped(long rounded, boolean[] fresh) {
    if (Syscalls.MMAP == null) {
      return null;
    }
    MemorySegment block = MAPPED.take(rounded);
    fresh[0] = block == null;
    return block != null ? block : mappedBlock(rounded, rounded);
  }

  /** Gives back a block taken with {@link #takeMapped}. */
  static void giveMapped(MemorySegment block) {
    MAPPED.give(block);
  }

  /** The mapped length of a block of {@code bytes}: a multiple of 2 MiB. */
  static long mappedLength(long bytes) {
    return roundUp(bytes, HUGE_PAGE);
  }

  /**
   * A fresh zeroed block, never a reused one, owned by {@code arena}; {@code adviseHugePages}
   * false maps large blocks without the advice (for the measurement in {@code docs/runtime.md}).
   */
  static MemorySegment allocateFresh(long bytes, Arena arena, boolean adviseHugePages) {
    checkSize(bytes);
    if (bytes >= HUGE_THRESHOLD && Syscalls.MMAP != null) {
      long rounded = roundUp(bytes, HUGE_PAGE);
      long address = map(bytes, rounded, adviseHugePages);
      return MemorySegment.ofAddress(address)
          .reinterpret(bytes, arena, s -> unmap(address, rounded));
    }
    return arena.allocate(Math.max(bytes, 1), ALIGNMENT).asSlice(0, bytes);
  }

  private static void checkSize(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot allocate a negative byte count: " + bytes);
    }
    // No address space holds this much, and rounding it up to whole huge pages would overflow.
    if (bytes > MAX_BYTES) {
      throw new OutOfMemoryError(
          "cannot allocate " + bytes + " bytes for a tensor: more than any address space holds");
    }
  }

  /** Counts {@code size} bytes as handed out, and adds their heap pressure. */
  private static void account(long size) {
    long out = OUTSTANDING.addAndGet(size);
    long peak = PEAK_OUTSTANDING.get();
    while (out > peak && !PEAK_OUTSTANDING.compareAndSet(peak, out)) {
      peak = PEAK_OUTSTANDING.get();
    }
    if (PRESSURE_PER_1024 > 0) {
      long debt = ballastDebt + size * PRESSURE_PER_1024 / 1024;
      while (debt >= BALLAST_CHUNK) {
        ballastSink = new byte[BALLAST_CHUNK];
        debt -= BALLAST_CHUNK;
      }
      ballastDebt = debt;
    }
  }

  /**
   * Collects, and returns the blocks found dead to their pools; what is still outstanding then
   * is the live set that the next budget builds on. Another thread's collection that returned
   * blocks meanwhile stands in for this one.
   */
  private static void collect() {
    long before = BACKSTOP_COLLECTIONS.get();
    synchronized (COLLECT_LOCK) {
      drain();
      if (BACKSTOP_COLLECTIONS.get() != before) {
        return; // another thread collected while this one waited for the lock
      }
      BACKSTOP_COLLECTIONS.incrementAndGet();
      // The reference handler queues the dead blocks' references after the collection, in one
      // batch with a sentinel that died before it: once the sentinel is out of the queue, so are
      // (nearly) all of them; two quiet milliseconds take the rest. On a loaded machine the
      // handler thread may wait for a core a long time: up to a second. (Fixed waits were either
      // too short under load, leaving dead blocks counted as live, or a cost on every collection.)
      Block sentinel = new Block(new Object());
      System.gc();
      try {
        int quiet = 0;
        int patience = sentinelWaitMillis;
        for (int waited = 0;
            waited < patience && (sentinelTaken != sentinel || quiet < 2);
            waited++) {
          Block b = (Block) DEAD.remove(1);
          if (b != null) {
            release(b);
            drain();
            quiet = 0;
          } else {
            quiet++;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Reference.reachabilityFence(sentinel);
      // No sentinel in a second: the JVM ignores System.gc() (-XX:+DisableExplicitGC), and
      // waiting so long again would only slow every budget collection down.
      sentinelWaitMillis = sentinelTaken == sentinel ? 1000 : 50;
      liveAfterCollection = OUTSTANDING.get();
    }
  }

  // ============================================================================================
  // Lifetime: a phantom reference per handed-out block
  // ============================================================================================

  /** Blocks whose session the GC found unreachable. */
  private static final ReferenceQueue<Object> DEAD = new ReferenceQueue<>();

  /** Every handed-out block's reference, so that it stays reachable until it is queued. */
  private static final Block LIVE = new Block();

  /** A handed-out block: its session is the referent, reachable from every segment of the block. */
  private static final class Block extends PhantomReference<Object> {
    final MemorySegment block;
    final Pool pool;
    Block prev;
    Block next;

    Block() {
      super(null, null);
      block = null;
      pool = null;
      prev = this;
      next = this;
    }

    /** A collection's sentinel: a reference to an object that is unreachable from the start. */
    Block(Object referent) {
      super(referent, DEAD);
      block = null;
      pool = null;
    }

    Block(Object session, MemorySegment block, Pool pool) {
      super(session, DEAD);
      this.block = block;
      this.pool = pool;
    }
  }

  /**
   * A segment of {@code bytes} over {@code block} with a session of its own (an unclosed shared
   * arena: no cleaner, accessible from every thread), tracked until the GC finds that session
   * unreachable; the block then returns to {@code pool}.
   */
  private static MemorySegment track(MemorySegment block, Pool pool, long bytes) {
    MemorySegment seg = block.reinterpret(bytes, Arena.ofShared(), null);
    Block ref = new Block(seg.scope(), block, pool);
    synchronized (LIVE) {
      ref.next = LIVE.next;
      ref.prev = LIVE;
      LIVE.next.prev = ref;
      LIVE.next = ref;
    }
    return seg;
  }

  /** How long a collection waits for its sentinel (shorter once one never came). */
  private static volatile int sentinelWaitMillis = 1000;

  /** The last collection sentinel that a drain took from the queue. */
  private static volatile Block sentinelTaken;

  /** Returns the blocks the GC has found dead to their pools. */
  private static void drain() {
    Block b;
    while ((b = (Block) DEAD.poll()) != null) {
      release(b);
    }
  }

  private static void release(Block b) {
    if (b.block == null) {
      sentinelTaken = b; // a collection's sentinel: no block
      return;
    }
    synchronized (LIVE) {
      b.prev.next = b.next;
      b.next.prev = b.prev;
      b.prev = null;
      b.next = null;
    }
    OUTSTANDING.addAndGet(-b.block.byteSize());
    b.pool.give(b.block);
  }

  // ============================================================================================
  // Tier 1: slabs
  // ============================================================================================

  private static final AtomicReference<Slab> SLAB = new AtomicReference<>(Slab.EMPTY);

  /** A small block: a slice of a shared slab, which returns to its pool when no slice is live. */
  private static MemorySegment smallBlock(long bytes) {
    long size = Math.max(roundUp(bytes, ALIGNMENT), ALIGNMENT);
    while (true) {
      Slab slab = SLAB.get();
      MemorySegment seg = slab.take(size, bytes);
      if (seg != null) {
        return seg;
      }
      SLAB.compareAndSet(slab, Slab.create());
    }
  }

  /** A bump allocator over one slab; the slab returns to its pool once no slice is reachable. */
  private static final class Slab {
    static final Slab EMPTY = new Slab(MemorySegment.NULL, SLAB_BYTES);

    private final MemorySegment block;
    private final AtomicLong top;

    private Slab(MemorySegment block, long top) {
      this.block = block;
      this.top = new AtomicLong(top);
    }

    static Slab create() {
      MemorySegment raw = NativeMemory.take(CLASSES, SLAB_BYTES);
      if (raw == null) {
        FRESH_BLOCKS.incrementAndGet();
        raw = freshFromArena(SLAB_BYTES, SLAB_BYTES);
      }
      account(SLAB_BYTES);
      return new Slab(track(raw, CLASSES, SLAB_BYTES), 0);
    }

    MemorySegment take(long size, long bytes) {
      long at = top.getAndAdd(size);
      return at + size <= SLAB_BYTES ? block.asSlice(at, bytes) : null;
    }
  }

  // ============================================================================================
  // Tiers 2 and 3: pools of free blocks
  // ============================================================================================

  /** Free blocks of the size classes and slabs (arena memory). */
  private static final Pool CLASSES = new Pool(false);

  /** Freed mapped blocks, by mapped length: faulted in and huge-page backed. */
  private static final Pool MAPPED = new Pool(true);

  /** Sizes of the pooled blocks between {@link #SMALL_MAX} and {@link #HUGE_THRESHOLD}. */
  static final class SizeClasses {
    private SizeClasses() {}

    /** The smallest class holding {@code bytes}: eight classes per power of two (≤ 12.5% waste). */
    static long classSize(long bytes) {
      long p = Long.highestOneBit(bytes - 1); // 2^k < bytes <= 2^(k+1)
      long step = Math.max(p / 8, ALIGNMENT);
      return roundUp(bytes, step);
    }
  }

  /** Counts returns to the pools: a free block's number says how cold it is. */
  private static final AtomicLong RETURNS = new AtomicLong();

  /** A free block and the number of its return (smaller: colder). */
  private record Free(MemorySegment block, long returned) {}

  /**
   * Drops the coldest free block of both pools; false when both are empty. (The two pools are
   * compared without a common lock: a block returned meanwhile may make the choice slightly off.)
   */
  private static boolean dropColdestOfAll() {
    Pool colder = CLASSES.coldest() <= MAPPED.coldest() ? CLASSES : MAPPED;
    return colder.dropColdest() || CLASSES.dropColdest() || MAPPED.dropColdest();
  }

  /**
   * Free blocks by size, most recently returned first (the warmest), so that a steady loop finds
   * its blocks already faulted in. The two pools together keep at most the slack: past it, the
   * coldest blocks of both are dropped, whether a block coming back or an allocation that needs
   * fresh memory past the budget ({@link #evict}) pushes them out. A dropped mapped block is
   * unmapped at once; any other is left to the automatic arena that allocated it, which the next
   * collection frees.
   *
   * <p>A mapped block is the segment {@code ofAddress(address).reinterpret(length)}; the others
   * are the arena's segments.
   */
  private static final class Pool {
    private final boolean mapped;
    private final Map<Long, ArrayDeque<Free>> free = new HashMap<>();

    Pool(boolean mapped) {
      this.mapped = mapped;
    }

    /** A free block of exactly {@code size} bytes, or null. */
    synchronized MemorySegment take(long size) {
      ArrayDeque<Free> q = free.get(size);
      if (q == null || q.isEmpty()) {
        return null;
      }
      POOLED.addAndGet(-size);
      return q.pop().block();
    }

    /** Keeps {@code block} for reuse, dropping the coldest blocks when the pools pass the slack. */
    void give(MemorySegment block) {
      long size = block.byteSize();
      if (size > slack) {
        drop(block);
        return;
      }
      synchronized (this) {
        POOLED.addAndGet(size);
        Free entry = new Free(block, RETURNS.incrementAndGet());
        free.computeIfAbsent(size, k -> new ArrayDeque<>()).push(entry);
      }
      while (POOLED.get() > slack && dropColdestOfAll()) {
        // the block just returned is the warmest: it goes last
      }
    }

    /** The return number of this pool's coldest block; {@code Long.MAX_VALUE} when empty. */
    synchronized long coldest() {
      long coldest = Long.MAX_VALUE;
      for (ArrayDeque<Free> q : free.values()) {
        if (!q.isEmpty()) {
          coldest = Math.min(coldest, q.peekLast().returned());
        }
      }
      return coldest;
    }

    /** Drops this pool's coldest block; false when the pool is empty. */
    boolean dropColdest() {
      Free coldest = null;
      synchronized (this) {
        ArrayDeque<Free> from = null;
        for (ArrayDeque<Free> q : free.values()) {
          if (q.isEmpty()) {
            continue;
          }
          if (from == null || q.peekLast().returned() < from.peekLast().returned()) {
            from = q;
          }
        }
        if (from == null) {
          return false;
        }
        coldest = from.removeLast();
        POOLED.addAndGet(-coldest.block().byteSize());
      }
      drop(coldest.block());
      return true;
    }

    private void drop(MemorySegment block) {
      if (mapped) {
        unmap(block.address(), block.byteSize());
      }
    }
  }

  /**
   * Maps {@code rounded} bytes (a multiple of 2 MiB) at a 2 MiB-aligned address for a request of
   * {@code bytes}.
   */
  private static long map(long bytes, long rounded, boolean advise) {
    long length = rounded + HUGE_PAGE;
    long base;
    try {
      base = (long) Syscalls.MMAP.invokeExact(0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
    } catch (Throwable t) {
      throw new IllegalStateException("mmap of " + length + " bytes failed", t);
    }
    if (base == -1L) {
      throw new OutOfMemoryError(
          "cannot allocate " + bytes + " bytes for a tensor: mmap of " + length + " bytes failed");
    }
    // Trim the mapping to a 2 MiB-aligned window so whole huge pages can back it.
    long aligned = roundUp(base, HUGE_PAGE);
    unmap(base, aligned - base);
    unmap(aligned + rounded, base + length - (aligned + rounded));
    if (advise) {
      try {
        int ignored = (int) Syscalls.MADVISE.invokeExact(aligned, rounded, MADV_HUGEPAGE);
      } catch (Throwable t) {
        // Advice is only advice: without it the kernel still serves 4 KiB pages.
      }
    }
    return aligned;
  }

  private static void unmap(long address, long length) {
    if (length == 0) {
      return;
    }
    try {
      int ignored = (int) Syscalls.MUNMAP.invokeExact(address, length);
    } catch (Throwable t) {
      throw new IllegalStateException("munmap failed", t);
    }
  }

  static long roundUp(long value, long multiple) {
    return (value + multiple - 1) / multiple * multiple;
  }
}
