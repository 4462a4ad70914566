package dev.ufunc4j.internal.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Slabs and size-class blocks (up to {@link NativeMemory#HUGE_THRESHOLD}): fresh ones from an
 * automatic arena, which frees a block once the pools have dropped it and the GC finds it
 * unreachable. Arena memory counts against {@code -XX:MaxDirectMemorySize}. Internal API.
 */
final class ArenaBlocks implements BlockAllocator {
  private final FreeBlocks free = new FreeBlocks();

  /** The smallest class holding {@code bytes}: eight classes per power of two (≤ 12.5% waste). */
  static long classSize(long bytes) {
    long p = Long.highestOneBit(bytes - 1); // 2^k < bytes <= 2^(k+1)
    long step = Math.max(p / 8, NativeMemory.ALIGNMENT);
    return NativeMemory.roundUp(bytes, step);
  }

  @Override
  public long blockSize(long bytes) {
    return classSize(bytes);
  }

  @Override
  public MemorySegment fresh(long bytes, long size) {
    return Arena.ofAuto().allocate(size, NativeMemory.ALIGNMENT);
  }

  @Override
  public void drop(MemorySegment block) {
    // its automatic arena frees it once the next collection finds it unreachable
  }

  @Override
  public FreeBlocks free() {
    return free;
  }
}
