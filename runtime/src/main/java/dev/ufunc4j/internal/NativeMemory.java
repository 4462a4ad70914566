package dev.ufunc4j.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

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
 * <p>Native memory owned by {@link Arena#ofAuto()} is freed only after the GC finds the tensor
 * unreachable, and the GC does not see native memory pressure; like {@code DirectByteBuffer}, we
 * count live automatic mapped bytes and ask for a collection when they pass {@link
 * #gcTriggerBytes()}.
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

  private static final AtomicLong LIVE_AUTO_BYTES = new AtomicLong();
  private static final long GC_TRIGGER =
      Long.getLong("ufunc4j.gcTriggerBytes", Math.max(1L << 30, Runtime.getRuntime().maxMemory()));

  /** Live bytes of automatic (GC-freed) storage above which an allocation requests a GC. */
  public static long gcTriggerBytes() {
    return GC_TRIGGER;
  }

  /** True when large blocks are mapped with huge-page advice (Linux with native access). */
  public static boolean hugePagesAvailable() {
    return MMAP != null;
  }

  /**
   * A zeroed, 64-byte-aligned segment of {@code bytes} bytes owned by {@code arena}, or by the GC
   * when {@code arena} is null.
   */
  public static MemorySegment allocate(long bytes, Arena arena) {
    return allocate(bytes, arena, true);
  }

  /**
   * Like {@link #allocate(long, Arena)}; {@code adviseHugePages} false maps large blocks without
   * the advice (for the measurement in {@code docs/runtime.md}).
   */
  public static MemorySegment allocate(long bytes, Arena arena, boolean adviseHugePages) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot allocate a negative byte count: " + bytes);
    }
    boolean auto = arena == null;
    if (auto && LIVE_AUTO_BYTES.get() + bytes > GC_TRIGGER) {
      System.gc(); // frees storage of unreachable tensors (cleanup runs on a cleaner thread)
    }
    Arena owner = auto ? Arena.ofAuto() : arena;
    MemorySegment seg;
    if (bytes >= HUGE_THRESHOLD && MMAP != null) {
      seg = map(bytes, owner, auto, adviseHugePages);
    } else {
      // Small blocks are not counted: they are malloc'd and their arenas die with young garbage.
      seg = owner.allocate(Math.max(bytes, 1), ALIGNMENT).asSlice(0, bytes);
    }
    return seg;
  }

  private static MemorySegment map(long bytes, Arena owner, boolean auto, boolean advise) {
    long rounded = roundUp(bytes, HUGE_PAGE);
    long length = rounded + HUGE_PAGE;
    long base;
    try {
      base = (long) MMAP.invokeExact(0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
    } catch (Throwable t) {
      throw new IllegalStateException("mmap of " + length + " bytes failed", t);
    }
    if (base == -1L) {
      throw new OutOfMemoryError("mmap of " + length + " bytes for a tensor failed");
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
    if (auto) {
      LIVE_AUTO_BYTES.addAndGet(rounded);
    }
    return MemorySegment.ofAddress(aligned)
        .reinterpret(
            bytes,
            owner,
            s -> {
              unmap(aligned, rounded);
              if (auto) {
                LIVE_AUTO_BYTES.addAndGet(-rounded);
              }
            });
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
