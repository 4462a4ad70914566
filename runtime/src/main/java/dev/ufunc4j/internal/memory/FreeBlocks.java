package dev.ufunc4j.internal.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Free blocks of one {@link BlockAllocator}, by size, each with the number of its return (larger:
 * returned later, warmer): a steady loop takes the block it returned last, already faulted in and
 * most likely still in cache. Thread-safe. Internal API.
 */
final class FreeBlocks {
  /** A free block and the number of its return. */
  private record Free(MemorySegment block, long returned) {}

  private final Map<Long, ArrayDeque<Free>> bySize = new HashMap<>();
  private long bytes;

  /** The warmest free block of exactly {@code size} bytes, or null. */
  synchronized MemorySegment take(long size) {
    ArrayDeque<Free> q = bySize.get(size);
    if (q == null || q.isEmpty()) {
      return null;
    }
    bytes -= size;
    return q.pop().block();
  }

  /** Keeps {@code block}, returned as number {@code returned}. */
  synchronized void keep(MemorySegment block, long returned) {
    bytes += block.byteSize();
    bySize.computeIfAbsent(block.byteSize(), k -> new ArrayDeque<>()).push(new Free(block, returned));
  }

  /** The return number of the coldest block; {@code Long.MAX_VALUE} when there is none. */
  synchronized long coldest() {
    long coldest = Long.MAX_VALUE;
    for (ArrayDeque<Free> q : bySize.values()) {
      if (!q.isEmpty()) {
        coldest = Math.min(coldest, q.peekLast().returned());
      }
    }
    return coldest;
  }

  /** Removes and returns the coldest block, or null when there is none. */
  synchronized MemorySegment removeColdest() {
    ArrayDeque<Free> from = null;
    for (ArrayDeque<Free> q : bySize.values()) {
      if (!q.isEmpty()
          && (from == null || q.peekLast().returned() < from.peekLast().returned())) {
        from = q;
      }
    }
    if (from == null) {
      return null;
    }
    MemorySegment block = from.removeLast().block();
    bytes -= block.byteSize();
    return block;
  }

  /** Bytes of the free blocks. */
  synchronized long bytes() {
    return bytes;
  }
}
