package dev.ufunc4j.internal.memory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Blocks of {@link NativeMemory#HUGE_THRESHOLD} or more: {@code mmap}ed through the FFM linker,
 * aligned to 2 MiB and advised with {@code madvise(MADV_HUGEPAGE)}, as NumPy does; anonymous
 * mappings are already zero and huge pages cut page faults by 512×. A dropped block is unmapped
 * at once. Only where the native calls are available ({@link #available()}: Linux with native
 * access, and not {@code -Dufunc4j.noMmap=true}). Internal API.
 */
// mmap/madvise downcalls and reinterpret are restricted FFM methods: the build and README run the
// JVM with --enable-native-access=ALL-UNNAMED; without it JDK 25 prints one warning and proceeds.
@SuppressWarnings("restricted")
final class MappedBlocks implements BlockAllocator {
  static final long HUGE_PAGE = 2L << 20;

  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
  private static final int MADV_HUGEPAGE = 14;

  private final FreeBlocks free = new FreeBlocks();

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

  /** True when blocks can be mapped here (Linux with native access). */
  static boolean available() {
    return Syscalls.MMAP != null;
  }

  /** The mapped length of a block of {@code bytes}: a multiple of 2 MiB. */
  static long mappedLength(long bytes) {
    return NativeMemory.roundUp(bytes, HUGE_PAGE);
  }

  @Override
  public long blockSize(long bytes) {
    return mappedLength(bytes);
  }

  @Override
  public MemorySegment fresh(long bytes, long size) {
    return MemorySegment.ofAddress(map(bytes, size, true)).reinterpret(size);
  }

  @Override
  public void drop(MemorySegment block) {
    unmap(block.address(), block.byteSize());
  }

  @Override
  public FreeBlocks free() {
    return free;
  }

  /**
   * Maps {@code rounded} bytes (a multiple of 2 MiB) at a 2 MiB-aligned address for a request of
   * {@code bytes}, advised to use huge pages when {@code advise}.
   */
  static long map(long bytes, long rounded, boolean advise) {
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
    long aligned = NativeMemory.roundUp(base, HUGE_PAGE);
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

  static void unmap(long address, long length) {
    if (length == 0) {
      return;
    }
    try {
      int ignored = (int) Syscalls.MUNMAP.invokeExact(address, length);
    } catch (Throwable t) {
      throw new IllegalStateException("munmap failed", t);
    }
  }
}
