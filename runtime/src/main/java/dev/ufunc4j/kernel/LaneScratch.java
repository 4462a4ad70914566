package dev.ufunc4j.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Per-thread native blocks for generated kernels' strided rows: a strided row gathers one step of
 * {@code LANES} elements of each operand into a block, runs the kernel's contiguous row on the
 * blocks, and scatters the output's block back. So the body is written once, in the contiguous
 * row, and the strided row is only copies. Native, like tensor storage, so that the contiguous
 * row's loads see one kind of segment.
 *
 * <p>The blocks are allocated on a thread's first call (or when a larger one is asked for) and
 * then reused: {@link #blocks} allocates nothing afterwards.
 */
public final class LaneScratch {
  private static final ThreadLocal<MemorySegment[]> BLOCKS =
      ThreadLocal.withInitial(() -> new MemorySegment[0]);

  private LaneScratch() {}

  /**
   * {@return this thread's blocks: at least {@code count} of them, each at least {@code bytes}
   * long}
   *
   * @param count how many blocks
   * @param bytes the size of each, in bytes
   */
  public static MemorySegment[] blocks(int count, long bytes) {
    MemorySegment[] b = BLOCKS.get();
    if (b.length < count || b[0].byteSize() < bytes) {
      long size = Math.max(bytes, b.length == 0 ? 0 : b[0].byteSize());
      b = Arrays.copyOf(b, Math.max(count, b.length));
      for (int k = 0; k < b.length; k++) {
        if (b[k] == null || b[k].byteSize() < size) {
          b[k] = Arena.ofAuto().allocate(size, 64);
        }
      }
      BLOCKS.set(b);
    }
    return b;
  }
}
