package dev.ufunc4j.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tensor storage: zeroed, 64-byte-aligned native segments. Internal API.
 *
 * <p>Small blocks come from {@link Arena#allocate}. Large blocks (at least {@link
 * #HUGE_THRESHOLD}) are mapped with {@code mmap} through the FFM linker, aligned to 2 MiB and
 * advised with {@code madvise(MADV_HUGEPAGE)}, as NumPy does for its large arrays: anonymous
 * mappings are already zero (no zeroing pass, unlike {@code Arena.allocate}) and transparent huge
 * pages cut page faults by 512×. Measured numbers are in {@code docs/runtime.md}. Where the native
 * calls are unavailable (not Linux, or native access denied) every block comes from the arena.
 *
 * <p>A freed mapped block is not unmapped but kept in a cache by length (up to {@code
 * ufunc4j.blockCacheBytes}, 1 GiB) and handed to the next allocation of that length: it is
 * already faulted in and backed by huge pages. Blocks of at most {@link #SMALL_MAX} bytes for the
 * GC are slices of shared 256 KiB slabs, so a small tensor costs no arena and no cleaner of its own.
 *
 * <p>Native memory owned by {@link Arena#ofAuto()} is freed only after the GC finds the tensor
 * unreachable, and the GC does not see native memory pressure; like {@code DirectByteBuffer}, we
 * count live automatic mapped bytes and ask for a collection when they pass {@link
 * #gcTriggerBytes()}. Measured numbers for all of this are in {@code docs/runtime.md}.
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

  private static final long HUGE_PAGE = 2L << 20;

  /** The largest request tried at all: 2^62 bytes, far beyond any machine's address space. */
  private static final long MAX_BYTES = 1L << 62;
  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
  private static final int MADV_HUGEPAGE = 14;

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

  /** Bytes of mapped blocks handed out to GC-managed owners and not yet returned. */
  private static final AtomicLong LIVE_AUTO_BYTES = new AtomicLong();

  private static final long GC_BASE = Long.getLong("ufunc4j.gcTriggerBytes", 1L << 30);

  /** Live automatic mapped bytes at which the next allocation asks for a collection. */
  private static volatile long gcThreshold = GC_BASE;

  private static final long CACHE_LIMIT = Long.getLong("ufunc4j.blockCacheBytes", 1L << 30);

  /** Freed mapped blocks kept for reuse, by mapped length: faulted in and huge-page backed. */
  private static final BlockCache CACHE = new BlockCache(CACHE_LIMIT);

  /** One collecting thread at a time (not the cache's lock: the cleaner needs that one). */
  private static final Object COLLECT_LOCK = new Object();

  /** Blocks up to this size are carved from shared slabs (GC-managed storage only). */
  static final long SMALL_MAX = 16L << 10;

  private static final long SLAB_BYTES = 256L << 10;
  private static final AtomicReference<Slab> SLAB = new AtomicReference<>(Slab.create());

  /**
   * Live bytes of automatic mapped storage above which an allocation requests a GC; it starts at
   * {@code ufunc4j.gcTriggerBytes} (1 GiB) and grows to twice what stays live after a collection.
   */
  public static long gcTriggerBytes() {
    return gcThreshold;
  }

  /** True when large blocks are mapped with huge-page advice (Linux with native access). */
  public static boolean hugePagesAvailable() {
    return MMAP != null;
  }

  /** Bytes of freed mapped blocks currently kept for reuse. */
  public static long cachedBytes() {
    return CACHE.bytes();
  }

  /**
   * A zeroed, 64-byte-aligned segment of {@code bytes} bytes owned by {@code arena}, or by the GC
   * when {@code arena} is null.
   */
  public static MemorySegment allocate(long bytes, Arena arena) {
    return allocate(bytes, arena, true, true);
  }

  /**
   * Like {@link #allocate(long, Arena)}, but the contents are unspecified: for a result that the
   * caller overwrites entirely (a kernel's output), which saves zeroing a reused block.
   */
  public static MemorySegment allocateUninitialized(long bytes, Arena arena) {
    return allocate(bytes, arena, true, false);
  }

  /**
   * A fresh zeroed block, never a reused one; {@code adviseHugePages} false maps large blocks
   * without the advice (for the measurement in {@code docs/runtime.md}).
   */
  static MemorySegment allocateFresh(long bytes, Arena arena, boolean adviseHugePages) {
    checkSize(bytes);
    if (bytes >= HUGE_THRESHOLD && MMAP != null) {
      long rounded = roundUp(bytes, HUGE_PAGE);
      return wrap(map(bytes, rounded, adviseHugePages), rounded, bytes, arena, false);
    }
    return arena.allocate(Math.max(bytes, 1), ALIGNMENT).asSlice(0, bytes);
  }

  private static MemorySegment allocate(long bytes, Arena arena, boolean advise, boolean zero) {
    checkSize(bytes);
    boolean auto = arena == null;
    if (bytes >= HUGE_THRESHOLD && MMAP != null) {
      long rounded = roundUp(bytes, HUGE_PAGE);
      long address = CACHE.take(rounded);
      if (address == 0 && auto && LIVE_AUTO_BYTES.get() + rounded > gcThreshold) {
        collect(rounded);
        address = CACHE.take(rounded);
      }
      boolean reused = address != 0;
      if (!reused) {
        address = map(bytes, rounded, advise);
      }
      MemorySegment seg = wrap(address, rounded, bytes, auto ? Arena.ofAuto() : arena, auto);
      if (reused && zero) {
        seg.fill((byte) 0);
      }
      return seg;
    }
    if (auto && bytes <= SMALL_MAX) {
      return smallBlock(bytes);
    }
    // Mid-size blocks are malloc'd: their arenas die with young garbage, so they are not counted.
    Arena owner = auto ? Arena.ofAuto() : arena;
    return owner.allocate(Math.max(bytes, 1), ALIGNMENT).asSlice(0, bytes);
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
   * Too many automatic blocks are live (or unreachable but not yet found by the GC): collect,
   * give the cleaner a moment to return the unreachable ones to the cache, and set the next
   * threshold to twice what is still live, so that a program whose tensors really are live is not
   * collected on every allocation (DirectByteBuffer's reservation works the same way).
   */
  private static void collect(long rounded) {
    synchronized (COLLECT_LOCK) {
      if (LIVE_AUTO_BYTES.get() + rounded <= gcThreshold) {
        return; // another thread collected meanwhile
      }
      long before = LIVE_AUTO_BYTES.get();
      System.gc();
      // Cleanup actions run on the cleaner thread after the collection: wait until they stop
      // returning blocks (the live count holds still), so the new threshold sees the true live set.
      long previous = -1;
      for (int waited = 0; waited < 50; waited++) {
        long live = LIVE_AUTO_BYTES.get();
        if (live == previous && (live < before || waited >= 5)) {
          break;
        }
        previous = live;
        sleepMillis(1);
      }
      gcThreshold = Math.max(GC_BASE, 2 * LIVE_AUTO_BYTES.get() + rounded);
    }
  }

  private static void sleepMillis(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A small GC-managed block: a slice of a shared zeroed slab, which lives while any slice does. */
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

  /** A bump allocator over one zeroed block; slices are never reused, so they stay zero. */
  private static final class Slab {
    private final MemorySegment block;
    private final AtomicLong top = new AtomicLong();

    private Slab(MemorySegment block) {
      this.block = block;
    }

    static Slab create() {
      return new Slab(Arena.ofAuto().allocate(SLAB_BYTES, ALIGNMENT));
    }

    MemorySegment take(long size, long bytes) {
      long at = top.getAndAdd(size);
      return at + size <= SLAB_BYTES ? block.asSlice(at, bytes) : null;
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
      base = (long) MMAP.invokeExact(0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
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
        int ignored = (int) MADVISE.invokeExact(aligned, rounded, MADV_HUGEPAGE);
      } catch (Throwable t) {
        // Advice is only advice: without it the kernel still serves 4 KiB pages.
      }
    }
    return aligned;
  }

  /** The mapped block as a segment of {@code bytes} owned by {@code owner}; freed to the cache. */
  private static MemorySegment wrap(
      long address, long rounded, long bytes, Arena owner, boolean auto) {
    if (auto) {
      LIVE_AUTO_BYTES.addAndGet(rounded);
    }
    return MemorySegment.ofAddress(address)
        .reinterpret(
            bytes,
            owner,
            s -> {
              if (auto) {
                LIVE_AUTO_BYTES.addAndGet(-rounded);
              }
              if (!CACHE.give(address, rounded)) {
                unmap(address, rounded);
              }
            });
  }

  /**
   * Freed mapped blocks by length, up to a byte limit; beyond it a freed block is unmapped. A
   * reused block is already faulted in and backed by huge pages, where a fresh mapping would
   * fault 2 MiB at a time and, with transparent huge pages in {@code defrag=madvise} mode, may
   * compact memory synchronously on each fault (measured in docs/runtime.md).
   */
  private static final class BlockCache {
    private final long limit;
    private final Map<Long, ArrayDeque<Long>> free = new HashMap<>();
    private long bytes;

    BlockCache(long limit) {
      this.limit = limit;
    }

    synchronized long bytes() {
      return bytes;
    }

    /** A cached block of exactly {@code length} bytes, or 0. */
    synchronized long take(long length) {
      ArrayDeque<Long> q = free.get(length);
      if (q == null || q.isEmpty()) {
        return 0;
      }
      bytes -= length;
      return q.pop();
    }

    /** Keeps the block for reuse; false when the cache is full (the caller unmaps it). */
    synchronized boolean give(long address, long length) {
      if (bytes + length > limit) {
        return false;
      }
      bytes += length;
      free.computeIfAbsent(length, k -> new ArrayDeque<>()).push(address);
      return true;
    }
  }

  private static void unmap(long address, long length) {
    if (length == 0) {
      return;
    }
    try {
      int ignored = (int) MUNMAP.invokeExact(address, length);
    } catch (Throwable t) {
      throw new IllegalStateException("munmap failed", t);
    }
  }

  private static long roundUp(long value, long multiple) {
    return (value + multiple - 1) / multiple * multiple;
  }
}
