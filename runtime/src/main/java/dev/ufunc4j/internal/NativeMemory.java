package dev.ufunc4j.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * <p>The pools keep what the last collection cycle used (at least their floors, {@code
 * ufunc4j.classCacheBytes} 256 MiB and {@code ufunc4j.blockCacheBytes} 1 GiB): a block that comes
 * back from the pool is faulted in already, where fresh memory costs a page fault per page.
 *
 * <p>The GC does not see native memory, so two mechanisms keep it bounded. <b>Heap pressure</b>:
 * every GC-managed block allocates {@code ufunc4j.heapPressure} (default 1/4) of its size as
 * short-lived heap garbage, so young collections, which return dead blocks, come at a rate
 * proportional to the native bytes allocated. <b>A backstop</b>: the bytes handed out and not yet
 * returned are counted, and when they pass {@link #gcTriggerBytes()} (at least {@code
 * ufunc4j.gcTriggerBytes}, 1 GiB; after each such collection, twice what stayed live) the
 * allocating thread asks for a collection, as {@code DirectByteBuffer} does. Measured numbers and
 * the resulting bound are in {@code docs/runtime.md}. Where the native calls are unavailable (not
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
  // Accounting: GC-managed bytes handed out and not yet returned, and the collection backstop
  // ============================================================================================

  /** GC-managed bytes handed out (slabs whole, blocks by their pooled size) and not returned. */
  private static final AtomicLong OUTSTANDING = new AtomicLong();

  /** The largest value {@link #OUTSTANDING} has had (for the memory-bound test). */
  private static final AtomicLong PEAK_OUTSTANDING = new AtomicLong();

  private static final long GC_BASE = Long.getLong("ufunc4j.gcTriggerBytes", 1L << 30);

  /** Outstanding bytes at which the next allocation asks for a collection. */
  private static volatile long gcThreshold = GC_BASE;

  private static final long DRY_BASE = Long.getLong("ufunc4j.dryGcBytes", 256L << 20);

  /**
   * Outstanding bytes past which a mapped allocation that finds its pool empty asks for a
   * collection rather than take fresh memory: at first {@code ufunc4j.dryGcBytes} (256 MiB),
   * doubled after each such collection up to {@link #gcThreshold}, and at least twice what stayed
   * live after the last collection.
   */
  private static volatile long dryThreshold = DRY_BASE;

  /** Backstop collections requested so far (for tests and the benchmarks' notes). */
  private static final AtomicLong BACKSTOP_COLLECTIONS = new AtomicLong();

  /** One collecting thread at a time. */
  private static final Object COLLECT_LOCK = new Object();

  /**
   * Heap garbage allocated per native byte of GC-managed storage, in 1/1024ths (default 256: a
   * quarter). It makes young collections come in proportion to native allocation.
   */
  private static final long PRESSURE_PER_1024 =
      Math.round(1024 * Double.parseDouble(System.getProperty("ufunc4j.heapPressure", "0.25")));

  private static final int BALLAST_CHUNK = 64 << 10;

  /** Heap-pressure debt in bytes; updated without synchronisation (an estimate is enough). */
  private static long ballastDebt;

  /** Where ballast goes, so that the JIT cannot prove it unused and remove the allocation. */
  @SuppressWarnings("unused")
  private static Object ballastSink;

  /**
   * Outstanding GC-managed bytes at which an allocation asks for a collection: at least {@code
   * ufunc4j.gcTriggerBytes} (1 GiB), and twice what stayed live after the last such collection.
   */
  public static long gcTriggerBytes() {
    return gcThreshold;
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
    return CLASSES.bytes() + MAPPED.bytes();
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
    long threshold = gcThreshold;
    account(size);
    MemorySegment block = pool.take(size);
    if (block == null && mapped && collectWhenDry(size)) {
      block = pool.take(size);
    }
    boolean reused = block != null;
    if (!reused) {
      FRESH_BLOCKS.incrementAndGet();
      try {
        block = fresh(bytes, size, mapped);
      } catch (OutOfMemoryError | RuntimeException e) {
        // Nothing was handed out: a failed request (say, 4e18 bytes) must not stay counted, or
        // every later allocation would ask for a collection and the pools would grow to match.
        OUTSTANDING.addAndGet(-size);
        pool.forget(size);
        gcThreshold = threshold;
        throw e;
      }
    }
    MemorySegment seg = track(block, pool, bytes);
    if (reused && zero) {
      seg.fill((byte) 0);
    }
    return seg;
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
    return block != null ? block : fresh(rounded, rounded, true);
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

  /**
   * A new zeroed block of {@code size} bytes for a pool, for a request of {@code bytes} (named by
   * the error when it cannot be had): mapped (the pool unmaps it when it drops it) or from an
   * automatic arena (freed by the GC once the pool drops it).
   */
  private static MemorySegment fresh(long bytes, long size, boolean mapped) {
    return mapped
        ? MemorySegment.ofAddress(map(bytes, size, true)).reinterpret(size)
        : Arena.ofAuto().allocate(size, ALIGNMENT);
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

  /**
   * The mapped pool has no block of {@code size} for a request already counted as outstanding:
   * when the outstanding bytes are past {@link #dryThreshold}, collect (the dead blocks return to
   * the pools) and return true, rather than let the caller take fresh memory.
   *
   * <p>Why (measured, docs/runtime.md): on this machine a fresh 4 MiB huge-page block cost 8 to
   * 16 ms under load (page faults with compaction), and a collection 10 to 40 ms, which returns
   * every dead block at once. The pools run dry whenever the collector grows the young generation
   * (each cycle then hands out more than the last returned), and before this rule a loop of fresh
   * 1M-element adds spent whole seconds there at 15 ms per call. Slabs and size-class blocks do
   * not collect when dry: their fresh memory costs 4 KiB faults, and with the rule a loop of
   * 1K-element adds collected every 256 MiB (66 full collections in 9 s) instead of every 1 GiB.
   */
  private static boolean collectWhenDry(long size) {
    if (OUTSTANDING.get() <= dryThreshold) {
      return false;
    }
    collect(size, true);
    return true;
  }

  /**
   * Counts {@code size} bytes as handed out, adds their heap pressure, and collects first when
   * the outstanding bytes would pass the threshold.
   */
  private static void account(long size) {
    long out = OUTSTANDING.addAndGet(size);
    if (out > gcThreshold) {
      collect(size, false);
      out = OUTSTANDING.get();
    }
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
   * Too many GC-managed bytes are outstanding (live, or dead and not yet found by the GC):
   * collect, return the blocks found dead, and set the next threshold to twice what is still
   * live, so that a program whose tensors really are live is not collected on every allocation
   * (DirectByteBuffer's reservation works the same way).
   */
  private static void collect(long request, boolean dry) {
    synchronized (COLLECT_LOCK) {
      drain();
      if (OUTSTANDING.get() <= (dry ? dryThreshold : gcThreshold)) {
        return; // another thread collected meanwhile
      }
      BACKSTOP_COLLECTIONS.incrementAndGet();
      System.gc();
      // The reference handler queues the dead blocks' references just after the collection:
      // take them as they come (waiting up to 200 ms for the first), until the queue stays empty
      // for 10 ms. On a loaded machine the handler thread waits for a core, and a shorter wait
      // left dead blocks counted as live: the next threshold doubled them (MemoryBoundTest failed
      // at load 10 on two cores with 3 ms of quiet and 50 ms for the first).
      try {
        boolean any = false;
        int quiet = 0;
        for (int waited = 0; waited < 1000 && quiet < 10; waited++) {
          Block b = (Block) DEAD.remove(1);
          if (b != null) {
            release(b);
            drain();
            any = true;
            quiet = 0;
          } else if (any || waited >= 200) {
            quiet++;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      long live = OUTSTANDING.get() - request;
      gcThreshold = Math.max(GC_BASE, 2 * live + request);
      // After a dry collection the next cycle may be twice as long (up to the backstop's), so
      // the pools grow towards a 1 GiB cycle a step at a time instead of staying at 256 MiB.
      long grown = dry ? Math.min(gcThreshold, 2 * dryThreshold) : dryThreshold;
      dryThreshold = Math.max(Math.max(DRY_BASE, grown), 2 * live + request);
    }
  }

  // ============================================================================================
  // Lifetime: a phantom reference per handed-out block
  // ============================================================================================

  /** Blocks whose session the GC found unreachable. */
  private static final ReferenceQueue<Object> DEAD = new ReferenceQueue<>();

  /** Every handed-out block's reference, so that it stays reachable until it is queued. */
  private static final Block LIVE = new Block();

  /**
   * Cleared by each collection: when it is, a new collection cycle has begun and the pools
   * resize to what the last cycle used.
   */
  private static final AtomicReference<WeakReference<Object>> CYCLE =
      new AtomicReference<>(new WeakReference<>(new Object()));

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

  /** Returns the blocks the GC has found dead to their pools; resizes them on a new cycle. */
  private static void drain() {
    WeakReference<Object> cycle = CYCLE.get();
    if (cycle.refersTo(null) && CYCLE.compareAndSet(cycle, new WeakReference<>(new Object()))) {
      CLASSES.newCycle();
      MAPPED.newCycle();
    }
    Block b;
    while ((b = (Block) DEAD.poll()) != null) {
      release(b);
    }
  }

  private static void release(Block b) {
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
      account(SLAB_BYTES);
      MemorySegment raw = CLASSES.take(SLAB_BYTES);
      if (raw == null) {
        FRESH_BLOCKS.incrementAndGet();
        raw = fresh(SLAB_BYTES, SLAB_BYTES, false);
      }
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

  /** Free blocks of the size classes and slabs. */
  private static final Pool CLASSES =
      new Pool(Long.getLong("ufunc4j.classCacheBytes", 256L << 20), false);

  /** Freed mapped blocks, by mapped length: faulted in and huge-page backed. */
  private static final Pool MAPPED = new Pool(Long.getLong("ufunc4j.blockCacheBytes", 1L << 30), true);

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

  /**
   * Free blocks by size, most recently returned first (the warmest). It keeps up to its limit:
   * what was handed out of it during the last collection cycle plus a quarter, and at least its
   * floor, so that a steady loop finds every block it needs already faulted in, and a burst's
   * blocks are let go one cycle later. A dropped mapped block is unmapped; any other is left to
   * the automatic arena that allocated it.
   *
   * <p>A mapped block is the segment {@code ofAddress(address).reinterpret(length)}; the others
   * are the arena's segments.
   */
  private static final class Pool {
    private final long floor;
    private final boolean mapped;
    private final Map<Long, ArrayDeque<MemorySegment>> free = new HashMap<>();
    private long bytes;
    private long limit;
    private long demand;

    Pool(long floor, boolean mapped) {
      this.floor = floor;
      this.mapped = mapped;
      this.limit = floor;
    }

    synchronized long bytes() {
      return bytes;
    }

    /** A free block of exactly {@code size} bytes, or null (the caller makes a fresh one). */
    synchronized MemorySegment take(long size) {
      demand += size;
      ArrayDeque<MemorySegment> q = free.get(size);
      if (q == null || q.isEmpty()) {
        return null;
      }
      bytes -= size;
      return q.pop();
    }

    /** Takes back the demand of a {@link #take} whose fresh block could not be had. */
    synchronized void forget(long size) {
      demand -= size;
    }

    /** Keeps {@code block} for reuse, or drops it when the pool is full. */
    void give(MemorySegment block) {
      long size = block.byteSize();
      synchronized (this) {
        if (bytes + size <= limit) {
          bytes += size;
          free.computeIfAbsent(size, k -> new ArrayDeque<>()).push(block);
          return;
        }
      }
      drop(block);
    }

    /** A collection has begun a new cycle: the limit follows the last cycle's demand. */
    void newCycle() {
      List<MemorySegment> dropped = new ArrayList<>();
      synchronized (this) {
        limit = Math.max(floor, demand + demand / 4);
        demand = 0;
        for (ArrayDeque<MemorySegment> q : free.values()) {
          while (bytes > limit && !q.isEmpty()) {
            MemorySegment coldest = q.removeLast();
            bytes -= coldest.byteSize();
            dropped.add(coldest);
          }
        }
      }
      dropped.forEach(this::drop);
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
