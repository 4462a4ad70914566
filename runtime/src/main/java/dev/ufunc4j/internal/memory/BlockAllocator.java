package dev.ufunc4j.internal.memory;

import java.lang.foreign.MemorySegment;

/**
 * One tier of GC-managed storage: where its blocks come from when fresh, how a request's size
 * rounds to a block, and its free list of returned blocks, warmest first. What to keep, when to
 * drop and when to collect is not decided here but by {@link Reclamation}, which counts the bytes
 * of every allocator's free list against one budget. Internal API.
 *
 * <p>Two implementations: {@link ArenaBlocks} (slabs and size classes, arena memory) and {@link
 * MappedBlocks} (4 MiB and more, {@code mmap}ed and advised to use huge pages).
 */
interface BlockAllocator {
  /** The size of the block a request of {@code bytes} takes (a size class, or whole huge pages). */
  long blockSize(long bytes);

  /**
   * A block of {@code size} bytes of fresh, zeroed memory for a request of {@code bytes}.
   *
   * @throws OutOfMemoryError when the memory is refused
   */
  MemorySegment fresh(long bytes, long size);

  /** Gives up {@code block} for good: unmapped at once, or left to its arena's collection. */
  void drop(MemorySegment block);

  /** The free list of returned blocks of this allocator. */
  FreeBlocks free();
}
