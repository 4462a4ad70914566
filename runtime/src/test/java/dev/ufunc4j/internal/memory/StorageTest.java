package dev.ufunc4j.internal.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The storage's parts in this JVM: each test makes its own {@link Storage} (a small slack, a
 * counted collector), so the allocators and the reclamation policy are checked without a child
 * JVM and without touching the runtime's own storage. The whole-process bound stays with {@code
 * MemoryBoundTest} and {@code DirectMemoryLimitTest}.
 */
class StorageTest {
  private static final long MIB = 1L << 20;
  private static final long BLOCK = 256L << 10;

  @Test
  void freeListsHandBackTheWarmestBlockAndDropTheColdest() {
    FreeBlocks free = new FreeBlocks();
    MemorySegment a = MemorySegment.ofArray(new byte[64]);
    MemorySegment b = MemorySegment.ofArray(new byte[64]);
    MemorySegment c = MemorySegment.ofArray(new byte[64]);
    free.keep(a, 1);
    free.keep(b, 2);
    free.keep(c, 3);
    assertEquals(192, free.bytes());
    assertEquals(1, free.coldest());
    assertSame(c, free.take(64), "the block returned last is the warmest");
    assertSame(a, free.removeColdest(), "the block returned first is the coldest");
    assertNull(free.take(128), "no block of another size");
    assertSame(b, free.take(64));
    assertEquals(Long.MAX_VALUE, free.coldest());
    assertNull(free.removeColdest());
  }

  @Test
  void sizeClassesAreEightPerPowerOfTwo() {
    assertEquals(18L << 10, ArenaBlocks.classSize((16L << 10) + 1));
    assertEquals(256L << 10, ArenaBlocks.classSize(256L << 10));
    assertEquals(288L << 10, ArenaBlocks.classSize((256L << 10) + 1));
    assertEquals(4L << 20, MappedBlocks.mappedLength((2L << 20) + 1));
  }

  @Test
  void droppedResultsComeBackWithinTheSlack() {
    AtomicInteger collections = new AtomicInteger();
    Storage storage = new Storage(4 * MIB, MIB, 0, () -> {
      collections.incrementAndGet();
      System.gc();
    }, true);
    Reclamation r = storage.reclamation();
    for (int i = 0; i < 400; i++) { // 100 MiB of dropped 256 KiB results, 25 times the slack
      MemorySegment s = storage.allocate(BLOCK, false);
      s.set(ValueLayout.JAVA_BYTE, BLOCK - 1, (byte) i);
    }
    assertTrue(collections.get() >= 1, "the backstop collected");
    assertEquals(collections.get(), r.collections());
    assertTrue(r.peakOutstandingBytes() <= 4 * MIB + 2 * BLOCK,
        "outstanding bytes stay within the slack and a block: " + r.peakOutstandingBytes());
    assertTrue(storage.freshBlocks() <= 4 * MIB / BLOCK + 2,
        "after a collection the free blocks serve the loop: " + storage.freshBlocks() + " fresh");
  }

  @Test
  void aCollectionTakesBackEveryBlockItFoundDeadBeforeItReturns() {
    // CI's full runtime suite once held 5 blocks past the slack: the blocks came back when the
    // reference handler queued them, which it does after the collection, in no particular order,
    // behind every other reference the suite left pending. Now the collection sweeps the blocks
    // whose references it cleared; the count right after it (no drain of the queue) is exact.
    List<Object> garbage = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) { // references for the handler to queue after the collection
      garbage.add(new java.lang.ref.PhantomReference<>(new Object(), new java.lang.ref.ReferenceQueue<>()));
    }
    Storage storage = new Storage(64 * MIB, MIB, 0, System::gc, true);
    Reclamation r = storage.reclamation();
    List<MemorySegment> kept = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      MemorySegment s = storage.allocate(BLOCK, false);
      if (i % 6 == 0) {
        kept.add(s);
      }
    }
    r.collect(true);
    assertEquals(4 * BLOCK, r.outstandingBytesAsCounted(), "outstanding right after the collection");
    assertEquals(4 * BLOCK, r.gcTriggerBytes() - r.slackBytes(), "the live set the budget builds on");
    assertEquals(4, kept.size());
    assertEquals(200_000, garbage.size());
  }

  @Test
  void droppedResultsComeBackThroughYoungCollections() {
    // Issue 28, item 1: a full collection per slack's worth of dropped results cost 20 µs per
    // 256 KiB result; the results die young, so heap garbage paced to one young collection takes
    // them back. The cap is generous: this JVM's young generation may be large.
    AtomicInteger full = new AtomicInteger();
    Storage storage = new Storage(4 * MIB, MIB, 0, () -> {
      full.incrementAndGet();
      System.gc();
    }, 2048 * MIB, true);
    Reclamation r = storage.reclamation();
    for (int i = 0; i < 400; i++) { // 100 MiB of dropped 256 KiB results, 25 times the slack
      MemorySegment s = storage.allocate(BLOCK, false);
      s.set(ValueLayout.JAVA_BYTE, BLOCK - 1, (byte) i);
    }
    assertTrue(r.collections() >= 10, "the backstop collected: " + r.collections());
    assertEquals(full.get(), r.fullCollections());
    assertTrue(full.get() <= r.collections() / 4,
        full.get() + " of " + r.collections() + " backstop collections were full ones");
    assertTrue(r.peakOutstandingBytes() <= 4 * MIB + 2 * BLOCK,
        "outstanding bytes stay within the slack and a block: " + r.peakOutstandingBytes());
    assertTrue(storage.freshBlocks() <= 4 * MIB / BLOCK + 2,
        "after a collection the free blocks serve the loop: " + storage.freshBlocks() + " fresh");
  }

  @Test
  void aBlockCountedLiveThatComesBackLaterLeavesTheLiveSet() throws InterruptedException {
    // The backstop no longer waits for quiet after a collection: a block whose reference the
    // reference handler queues late was counted in the live set, and leaves it when it returns.
    Storage storage = new Storage(MIB, MIB, 0, () -> {}, 0, true);
    Reclamation r = storage.reclamation();
    List<MemorySegment> kept = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      kept.add(storage.allocate(BLOCK, false));
    }
    r.collect(true); // collects nothing (the collector is a no-op): all 8 blocks count as live
    assertEquals(8 * BLOCK + MIB, r.gcTriggerBytes());
    kept.clear();
    for (int i = 0; i < 500 && r.outstandingBytes() > 0; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(0, r.outstandingBytes(), "the dropped blocks came back");
    assertEquals(MIB, r.gcTriggerBytes(), "and left the live set the budget builds on");
  }

  @Test
  void liveBlocksAreNeverHandedOutAgain() {
    Storage storage = new Storage(MIB, MIB, 0, System::gc, true);
    List<MemorySegment> kept = new ArrayList<>();
    for (int i = 0; i < 24; i++) { // 6 MiB live, six times the slack
      MemorySegment s = storage.allocate(BLOCK, true);
      assertEquals(0, s.get(ValueLayout.JAVA_BYTE, 0), "zeroed when asked");
      s.fill((byte) (i + 1));
      kept.add(s);
    }
    for (int i = 0; i < kept.size(); i++) {
      assertEquals(i + 1, kept.get(i).get(ValueLayout.JAVA_BYTE, BLOCK - 1));
    }
    assertEquals(24 * BLOCK, storage.reclamation().outstandingBytes());
    assertTrue(storage.reclamation().gcTriggerBytes() >= 20 * BLOCK,
        "the live set found by the last collection raises the budget");
  }

  @Test
  void withoutCollectionsItStillAllocates() {
    // As with -XX:+DisableExplicitGC: the backstop finds nothing, fresh memory is taken anyway.
    AtomicInteger collections = new AtomicInteger();
    Storage storage = new Storage(MIB, MIB, 0, collections::incrementAndGet, false);
    List<MemorySegment> kept = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      kept.add(storage.allocate(BLOCK, false));
    }
    assertTrue(collections.get() >= 1);
    assertEquals(12 * BLOCK, storage.reclamation().outstandingBytes());
  }

  @Test
  void freeBlocksPastTheSlackAreDropped() {
    ArenaBlocks arena = new ArenaBlocks();
    Reclamation own = new Reclamation(MIB, MIB, 0, System::gc, 0, List.of(arena));
    for (int i = 0; i < 8; i++) {
      own.keep(arena, arena.fresh(BLOCK, BLOCK));
    }
    assertEquals(MIB, own.pooledBytes(), "four blocks of 256 KiB fill the 1 MiB slack");
  }

  @Test
  void largeBlocksAreMappedOnHugePageBoundaries() {
    Storage storage = new Storage(64 * MIB, MIB, 0, System::gc, true);
    MemorySegment s = storage.allocate(NativeMemory.HUGE_THRESHOLD, true);
    assertEquals(NativeMemory.HUGE_THRESHOLD, s.byteSize());
    if (storage.maps()) {
      assertEquals(0, s.address() % MappedBlocks.HUGE_PAGE);
    }
    assertEquals(0, s.get(ValueLayout.JAVA_LONG, NativeMemory.HUGE_THRESHOLD - 8));
  }
}
