package dev.ufunc4j.internal.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * GC-managed tensor storage, put together from its parts: the allocators ({@link ArenaBlocks} for
 * slabs and size classes, {@link MappedBlocks} for large blocks) and the {@link Reclamation} policy
 * that brings dead blocks back and bounds what is held. {@link NativeMemory} is the runtime's
 * entry to the one instance its context owns; a test makes its own (small slack, a counted
 * collector) and checks it in-process. Internal API.
 */
public final class Storage {
  /** A slab's size: slices of at most {@link NativeMemory#SMALL_MAX} are carved from one. */
  static final long SLAB_BYTES = 256L << 10;

  private final ArenaBlocks arena = new ArenaBlocks();

  /** Null where blocks cannot be mapped: large blocks then come from the arena too. */
  private final MappedBlocks mapped;

  private final Reclamation reclamation;

  private final AtomicReference<Slab> slab = new AtomicReference<>(Slab.EMPTY);

  /** Blocks (and slabs) made from fresh memory rather than taken from a free list. */
  private final AtomicLong freshBlocks = new AtomicLong();

  /**
   * Storage whose reclamation keeps {@code slack} bytes of slack (at least {@code minSlack}), adds
   * {@code heapPressure} heap bytes per native byte and collects with {@code gc}; large blocks are
   * mapped when {@code mapLarge} and the platform can.
   */
  Storage(long slack, long minSlack, double heapPressure, Runnable gc, boolean mapLarge) {
    this(slack, minSlack, heapPressure, gc, 0, mapLarge);
  }

  /**
   * The same, whose backstop first tries a young collection paced by at most {@code youngBallast}
   * bytes of heap garbage ({@link Reclamation#collect}; 0: every collection is full).
   */
  Storage(
      long slack,
      long minSlack,
      double heapPressure,
      Runnable gc,
      long youngBallast,
      boolean mapLarge) {
    this.mapped = mapLarge && MappedBlocks.available() ? new MappedBlocks() : null;
    List<BlockAllocator> all = new ArrayList<>(List.of(arena));
    if (mapped != null) {
      all.add(mapped);
    }
    this.reclamation = new Reclamation(slack, minSlack, heapPressure, gc, youngBallast, all);
  }

  Reclamation reclamation() {
    return reclamation;
  }

  long freshBlocks() {
    return freshBlocks.get();
  }

  boolean maps() {
    return mapped != null;
  }

  /**
   * A GC-managed, 64-byte-aligned segment of {@code bytes} bytes: zeroed when {@code zero},
   * otherwise with unspecified contents (a kernel's output, which it overwrites entirely).
   */
  MemorySegment allocate(long bytes, boolean zero) {
    reclamation.drain();
    if (bytes <= NativeMemory.SMALL_MAX) {
      MemorySegment slice = smallBlock(bytes);
      if (zero) {
        slice.fill((byte) 0);
      }
      return slice;
    }
    BlockAllocator from = bytes >= NativeMemory.HUGE_THRESHOLD && mapped != null ? mapped : arena;
    long size = from.blockSize(bytes);
    MemorySegment block = reclamation.take(from, size);
    boolean reused = block != null;
    if (!reused) {
      // Nothing is counted before the fresh block exists: a failed request (say, 4e18 bytes)
      // leaves the accounting as it was.
      block = fresh(from, bytes, size);
    }
    reclamation.handedOut(size);
    MemorySegment seg = reclamation.track(block, from, bytes);
    if (reused && zero) {
      seg.fill((byte) 0);
    }
    return seg;
  }

  /**
   * Fresh memory from {@code from}. Arena memory counts against {@code -XX:MaxDirectMemorySize},
   * and dead blocks release it only once the GC has found them: when the arena refuses (the JDK
   * has already collected once and waited for its cleaners), this collects so that the dead
   * blocks return, drops every free arena block so that the next collection frees it, halves the
   * slack, and tries again (the arena's own retry collects). It gives up after three such rounds:
   * then the live set itself does not fit (issue 23: a loop of fresh 64K-element results failed at
   * {@code -Xmx256m} with a live set under 1 MB).
   */
  private MemorySegment fresh(BlockAllocator from, long bytes, long size) {
    freshBlocks.incrementAndGet();
    if (from != arena) {
      return from.fresh(bytes, size);
    }
    for (int round = 0; ; round++) {
      try {
        return arena.fresh(bytes, size);
      } catch (OutOfMemoryError e) {
        if (round == 3) {
          OutOfMemoryError refused =
              new OutOfMemoryError(
                  "cannot allocate " + bytes + " bytes for a tensor: the JVM's direct memory limit"
                      + " (-XX:MaxDirectMemorySize, by default the heap's maximum) is reached after"
                      + " three collections; tensors in use hold "
                      + reclamation.outstandingBytes() + " bytes");
          refused.initCause(e);
          throw refused;
        }
        reclamation.refused();
        while (reclamation.dropColdest(arena)) {
          // every free arena block goes: the arena's own retry collects, which frees them
        }
      }
    }
  }

  /**
   * A mapped block of {@code rounded} bytes for a scope, which gives it back with {@link
   * #giveMapped}; null when blocks are not mapped here. The contents are whatever the last user
   * left, or zero for a fresh mapping ({@code fresh[0]}).
   */
  MemorySegment takeMapped(long rounded, boolean[] fresh) {
    if (mapped == null) {
      return null;
    }
    MemorySegment block = reclamation.takeFree(mapped, rounded);
    fresh[0] = block == null;
    return block != null ? block : mapped.fresh(rounded, rounded);
  }

  /** Gives back a block taken with {@link #takeMapped}. */
  void giveMapped(MemorySegment block) {
    reclamation.keep(mapped, block);
  }

  /** A small block: a slice of a shared slab, which returns once no slice is reachable. */
  private MemorySegment smallBlock(long bytes) {
    long size = Math.max(NativeMemory.roundUp(bytes, NativeMemory.ALIGNMENT), NativeMemory.ALIGNMENT);
    while (true) {
      Slab s = slab.get();
      MemorySegment seg = s.take(size, bytes);
      if (seg != null) {
        return seg;
      }
      slab.compareAndSet(s, newSlab());
    }
  }

  private Slab newSlab() {
    MemorySegment raw = reclamation.take(arena, SLAB_BYTES);
    if (raw == null) {
      raw = fresh(arena, SLAB_BYTES, SLAB_BYTES);
    }
    reclamation.handedOut(SLAB_BYTES);
    return new Slab(reclamation.track(raw, arena, SLAB_BYTES), 0);
  }

  /** A bump allocator over one slab; the slab returns to its pool once no slice is reachable. */
  private static final class Slab {
    static final Slab EMPTY = new Slab(MemorySegment.NULL, SLAB_BYTES);

    private final MemorySegment block;
    private final AtomicLong top;

    Slab(MemorySegment block, long top) {
      this.block = block;
      this.top = new AtomicLong(top);
    }

    MemorySegment take(long size, long bytes) {
      long at = top.getAndAdd(size);
      return at + size <= SLAB_BYTES ? block.asSlice(at, bytes) : null;
    }
  }
}
