package dev.ufunc4j.internal.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reclamation policy of GC-managed storage: how a block that nobody can reach comes back, and
 * how many bytes may be held meanwhile. Internal API; {@code docs/runtime.md} ("Keeping memory
 * bounded") has the rules and the measurements behind them.
 *
 * <ul>
 *   <li><em>Tracking</em>: every handed-out block gets a memory session of its own, reachable from
 *       every segment of the block; a phantom reference to that session, queued by the GC,
 *       returns the block to its allocator's free list. The allocating threads drain the queue
 *       themselves ({@link #drain}).
 *   <li><em>The budget</em>: the bytes held (handed out and not returned, plus every allocator's
 *       free blocks) stay within what was live after the last collection plus the slack. An
 *       allocation that would pass it drops the coldest free blocks and, when none is left, runs
 *       the <em>GC backstop</em> ({@link #collect}): a young collection paced by heap garbage
 *       where that is enough (cheap: the dead results died young), a full one otherwise.
 *   <li><em>Heap pressure</em> (off by default): heap garbage in proportion to native bytes, so
 *       that young collections come in proportion to native allocation.
 * </ul>
 *
 * <p>An instance serves one set of allocators; the full collection it runs is given to it ({@code
 * System::gc} in the runtime, so that a test can count or replace it), and so is the most heap
 * garbage a young collection may take ({@code youngBallast}; 0: every collection is full).
 */
final class Reclamation {
  private final List<BlockAllocator> allocators;
  private final Runnable gc;
  private final long minSlack;

  /** The most heap garbage one young collection may allocate; 0: the backstop is always full. */
  private final long youngBallast;

  /** GC-managed bytes handed out (slabs whole, blocks by their pooled size) and not returned. */
  private final AtomicLong outstanding = new AtomicLong();

  /** The largest value {@link #outstanding} has had since the last {@link #resetPeak()}. */
  private final AtomicLong peakOutstanding = new AtomicLong();

  /** Free bytes of all allocators. */
  private final AtomicLong pooled = new AtomicLong();

  /** Counts returns to the free lists: a free block's number says how cold it is. */
  private final AtomicLong returns = new AtomicLong();

  /** Bytes that may be held beyond the live set (class comment); halved by {@link #halveSlack}. */
  private volatile long slack;

  /**
   * Outstanding bytes just after the last full backstop collection, less the blocks counted there
   * that have come back since: the live set as last seen. Young collections leave it alone (a
   * block that died after its promotion to the old generation stays outstanding until a full
   * collection, so what a young one leaves outstanding overstates the live set). Written under
   * the {@link #live} lock, with {@link #fullEpoch}.
   */
  private volatile long liveAfterCollection;

  /** Full collections whose live set has been measured: a block records it when handed out. */
  private long fullEpoch;

  /** Backstop collections run so far, young and full. */
  private final AtomicLong collections = new AtomicLong();

  /** Full backstop collections ({@code gc}) run so far. */
  private final AtomicLong fullCollections = new AtomicLong();

  /**
   * Backstop collections that go straight to a full one, without trying a young one first. A
   * young attempt that runs out of ballast (a large young generation) falls back on a full
   * collection, which usually shrinks the young generation again, so the next one tries again;
   * after {@code k} failures in a row the next {@code 2^(k-1) - 1} (up to 63) do not.
   */
  private int youngSkips;

  /** {@code 2^k} after {@code k} young attempts in a row that ran out of ballast (up to 64). */
  private int youngBackoff = 1;

  /** One collecting thread at a time. */
  private final Object collectLock = new Object();

  /** Heap garbage per native byte handed out, in 1/1024ths (0: none). */
  private final long pressurePer1024;

  private static final int BALLAST_CHUNK = 64 << 10;

  /** Heap-pressure debt in bytes; updated without synchronisation (an estimate is enough). */
  private long ballastDebt;

  /** Where ballast goes, so that the JIT cannot prove it unused and remove the allocation. */
  @SuppressWarnings("unused")
  private Object ballastSink;

  /** Blocks whose session the GC found unreachable. */
  private final ReferenceQueue<Object> dead = new ReferenceQueue<>();

  /** Every handed-out block's reference, so that it stays reachable until it is queued. */
  private final Block live = new Block();

  /**
   * How long a collection waits for the collector to clear its sentinel: shorter once one was left
   * uncleared (the JVM ignores {@code System.gc()}).
   */
  private volatile int sentinelWaitMillis = 1000;

  /** The last collection cleared its sentinel: the collector ran. */
  private boolean sentinelCleared;

  /**
   * A policy over {@code allocators} with {@code slack} bytes of slack (never less than {@code
   * minSlack}), {@code heapPressure} bytes of heap garbage per native byte, collecting with {@code
   * gc}; its backstop first tries a young collection paced by at most {@code youngBallast} bytes of
   * heap garbage (0: never).
   */
  Reclamation(
      long slack,
      long minSlack,
      double heapPressure,
      Runnable gc,
      long youngBallast,
      List<BlockAllocator> allocators) {
    this.youngBallast = youngBallast;
    this.minSlack = minSlack;
    this.slack = Math.max(minSlack, slack);
    this.pressurePer1024 = Math.round(1024 * heapPressure);
    this.gc = gc;
    this.allocators = List.copyOf(allocators);
  }

  // ============================================================================================
  // Accounting
  // ============================================================================================

  long slackBytes() {
    return slack;
  }

  /** Held bytes past which fresh memory first drops free blocks, then collects. */
  long gcTriggerBytes() {
    return liveAfterCollection + slack;
  }

  /** Bytes handed out and not yet returned (live, or dead but not found), after a drain. */
  long outstandingBytes() {
    drain();
    return outstanding.get();
  }

  /** Bytes handed out and not yet returned, as counted now (no drain of the reference queue). */
  long outstandingBytesAsCounted() {
    return outstanding.get();
  }

  long peakOutstandingBytes() {
    return peakOutstanding.get();
  }

  void resetPeak() {
    peakOutstanding.set(outstanding.get());
  }

  long collections() {
    return collections.get();
  }

  long fullCollections() {
    return fullCollections.get();
  }

  /** Bytes of free blocks of all allocators, after a drain. */
  long pooledBytes() {
    drain();
    return pooled.get();
  }

  /** Counts {@code size} bytes as handed out, and adds their heap pressure. */
  void handedOut(long size) {
    long out = outstanding.addAndGet(size);
    long peak = peakOutstanding.get();
    while (out > peak && !peakOutstanding.compareAndSet(peak, out)) {
      peak = peakOutstanding.get();
    }
    if (pressurePer1024 > 0) {
      long debt = ballastDebt + size * pressurePer1024 / 1024;
      while (debt >= BALLAST_CHUNK) {
        ballastSink = new byte[BALLAST_CHUNK];
        debt -= BALLAST_CHUNK;
      }
      ballastDebt = debt;
    }
  }

  // ============================================================================================
  // The budget
  // ============================================================================================

  /**
   * A free block of {@code size} from {@code from}, or null when fresh memory may be taken for it.
   * Fresh memory would raise the bytes held; when that would pass the live set plus the slack (or
   * plus two blocks of this size, when they are larger), this first drops free blocks of other
   * sizes, and when none is left, collects: the dead blocks come back, and the free list is asked
   * again (null then means: fresh memory all the same, the live set itself needs it).
   */
  MemorySegment take(BlockAllocator from, long size) {
    MemorySegment block = takeFree(from, size);
    if (block != null || !overBudget(size)) {
      return block;
    }
    if (evict(size)) {
      return null; // there is room now: the caller takes fresh memory
    }
    collect(false);
    return takeFree(from, size);
  }

  /** The warmest free block of {@code size} from {@code from}, or null; no budget check. */
  MemorySegment takeFree(BlockAllocator from, long size) {
    MemorySegment block = from.free().take(size);
    if (block != null) {
      pooled.addAndGet(-size);
    }
    return block;
  }

  /**
   * Keeps {@code block} on {@code to}'s free list, dropping the coldest blocks of all allocators
   * while the free blocks pass the slack; a block larger than the slack is dropped at once.
   */
  void keep(BlockAllocator to, MemorySegment block) {
    long size = block.byteSize();
    if (size > slack) {
      to.drop(block);
      return;
    }
    to.free().keep(block, returns.incrementAndGet());
    pooled.addAndGet(size);
    while (pooled.get() > slack && dropColdestOfAll()) {
      // the block just returned is the warmest: it goes last
    }
  }

  /** True when fresh memory of {@code size} would take the held bytes past the budget. */
  boolean overBudget(long size) {
    // held - live + size > max(slack, 2 size), rearranged so that no sum can overflow
    long excess = outstanding.get() + pooled.get() - liveAfterCollection;
    return excess > Math.max(slack - size, size);
  }

  /** Drops free blocks, coldest first, until {@code size} fits; false when none was left first. */
  private boolean evict(long size) {
    while (overBudget(size)) {
      if (!dropColdestOfAll()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Drops the coldest free block of all allocators; false when all are empty. (They are compared
   * without a common lock: a block returned meanwhile may make the choice slightly off.)
   */
  private boolean dropColdestOfAll() {
    BlockAllocator colder = null;
    long coldest = Long.MAX_VALUE;
    for (BlockAllocator a : allocators) {
      long c = a.free().coldest();
      if (c < coldest) {
        coldest = c;
        colder = a;
      }
    }
    if (colder != null && dropColdest(colder)) {
      return true;
    }
    for (BlockAllocator a : allocators) {
      if (dropColdest(a)) {
        return true;
      }
    }
    return false;
  }

  /** Drops {@code from}'s coldest free block; false when it has none. */
  boolean dropColdest(BlockAllocator from) {
    MemorySegment block = from.free().removeColdest();
    if (block == null) {
      return false;
    }
    pooled.addAndGet(-block.byteSize());
    from.drop(block);
    return true;
  }

  /**
   * After fresh memory was refused (the direct memory limit): halves the slack (not below the
   * minimum) and collects, so that the dead blocks return.
   */
  void refused() {
    slack = Math.max(minSlack, slack / 2);
    collect(true);
  }

  // ============================================================================================
  // The GC backstop
  // ============================================================================================

  /**
   * Collects, and returns the blocks found dead to their free lists; what is still outstanding after
   * a full collection is the live set that the next budget builds on. Another thread's collection
   * that returned blocks meanwhile stands in for this one.
   *
   * <p>A full collection ({@code System.gc()}) costs its fixed price whatever the heap holds: 10–60
   * ms with the runtime's classes loaded, 20 µs per dropped 256 KiB result at one per 128 MiB
   * (docs/runtime.md, "What a fresh result costs in the steady state"). The results of a loop die
   * young, so unless {@code full} this first runs a young collection (1–4 ms) by allocating heap
   * garbage until one has run, at most {@link #youngBallast} bytes. It collects fully all the same
   * when that was not enough (a large young generation: the full collection shrinks it; {@link
   * #youngSkips}), or when more than a quarter of the slack stays outstanding past the last full
   * collection's live set (blocks that died in the old generation, or a live set that grew): so
   * the budget never builds on more than the live set that a full collection measured.
   */
  void collect(boolean full) {
    long before = collections.get();
    synchronized (collectLock) {
      drain();
      if (collections.get() != before) {
        return; // another thread collected while this one waited for the lock
      }
      collections.incrementAndGet();
      if (!full && youngBallast > 0 && youngSkips-- <= 0) {
        boolean ran = collectAndDrain(this::collectYoung, 1000);
        if (ran) {
          youngBackoff = 1;
          youngSkips = 0;
        } else {
          youngSkips = youngBackoff - 1;
          youngBackoff = Math.min(64, 2 * youngBackoff);
        }
        if (ran && outstanding.get() <= liveAfterCollection + slack / 4) {
          return;
        }
      }
      fullCollections.incrementAndGet();
      collectAndDrain(
          () -> {
            gc.run();
            return true;
          },
          sentinelWaitMillis);
      // A sentinel left uncleared: the JVM ignores System.gc() (-XX:+DisableExplicitGC), and
      // waiting long for the next would only slow every full collection down.
      sentinelWaitMillis = sentinelCleared ? 1000 : 50;
      synchronized (live) {
        liveAfterCollection = outstanding.get();
        fullEpoch++;
      }
    }
  }

  /**
   * Allocates heap garbage until a collection has run (a weakly reachable object is gone), at most
   * {@link #youngBallast} bytes; false when none ran.
   */
  private boolean collectYoung() {
    WeakReference<Object> probe = new WeakReference<>(new Object());
    try {
      for (long b = 0; b < youngBallast && !probe.refersTo(null); b += BALLAST_CHUNK) {
        ballastSink = new byte[BALLAST_CHUNK];
      }
    } catch (OutOfMemoryError e) {
      // A heap full of live objects: the JVM collected fully before it gave up, and the tensor
      // that asked for memory is not to blame for the heap; the caller's own allocation decides.
    }
    ballastSink = null;
    return probe.refersTo(null);
  }

  /**
   * Runs {@code collection} and returns the blocks it found dead, at once: the collector clears the
   * phantom reference of every block whose session it found unreachable before it returns, so a
   * walk of the live blocks ({@link #sweep}) finds them all. Waiting for the reference handler to
   * queue them is not enough: it queues them some time later, in no particular order, and on a busy
   * JVM (many other references pending) a block came back after the collection had measured the
   * live set, so the next budget was built on dead blocks counted live (CI, StorageTest). The
   * handler's late copy of a swept reference is ignored by {@link #release}.
   *
   * <p>A sentinel reference, to an object unreachable from the start, tells that the collection
   * ran: a concurrent collector ({@code -XX:+ExplicitGCInvokesConcurrent}) clears it some time
   * after {@code System.gc()} returns, and is waited for up to {@code patience} ms; a JVM that
   * ignores {@code System.gc()} never clears it. Returns what {@code collection} returned.
   */
  private boolean collectAndDrain(java.util.function.BooleanSupplier collection, int patience) {
    // On a queue of its own, which nobody polls: the queue of blocks carries only blocks.
    PhantomReference<Object> sentinel =
        new PhantomReference<>(new Object(), new ReferenceQueue<>());
    boolean ran = collection.getAsBoolean();
    if (ran) {
      try {
        for (int waited = 0; waited < patience && !sentinel.refersTo(null); waited++) {
          Thread.sleep(1);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sweep();
      drain();
    }
    sentinelCleared = sentinel.refersTo(null);
    Reference.reachabilityFence(sentinel);
    return ran;
  }

  /** Returns every tracked block whose reference the collector has cleared (its session is gone). */
  void sweep() {
    List<Block> found = new java.util.ArrayList<>();
    synchronized (live) {
      for (Block b = live.next; b != live; b = b.next) {
        if (b.refersTo(null)) {
          found.add(b);
        }
      }
    }
    for (Block b : found) {
      release(b);
    }
  }

  // ============================================================================================
  // Tracking: a phantom reference per handed-out block
  // ============================================================================================

  /** A handed-out block: its session is the referent, reachable from every segment of the block. */
  private static final class Block extends PhantomReference<Object> {
    final MemorySegment block;
    final BlockAllocator from;

    /** {@link #fullEpoch} when handed out: older than the current one, it counts in the live set. */
    long epoch;

    Block prev;
    Block next;

    /** The list head. */
    Block() {
      super(null, null);
      block = null;
      from = null;
      prev = this;
      next = this;
    }

    Block(Object session, MemorySegment block, BlockAllocator from, ReferenceQueue<Object> queue) {
      super(session, queue);
      this.block = block;
      this.from = from;
    }
  }

  /**
   * A segment of {@code bytes} over {@code block} with a session of its own (an unclosed shared
   * arena: no cleaner, accessible from every thread), tracked until the GC finds that session
   * unreachable; the block then returns to {@code from}'s free list.
   */
  // reinterpret is a restricted FFM method: the JVM runs with --enable-native-access=ALL-UNNAMED.
  @SuppressWarnings("restricted")
  MemorySegment track(MemorySegment block, BlockAllocator from, long bytes) {
    MemorySegment seg = block.reinterpret(bytes, Arena.ofShared(), null);
    Block ref = new Block(seg.scope(), block, from, dead);
    synchronized (live) {
      ref.epoch = fullEpoch;
      ref.next = live.next;
      ref.prev = live;
      live.next.prev = ref;
      live.next = ref;
    }
    return seg;
  }

  /** Returns the blocks the GC has found dead to their free lists. */
  void drain() {
    Block b;
    while ((b = (Block) dead.poll()) != null) {
      release(b);
    }
  }

  private void release(Block b) {
    synchronized (live) {
      if (b.prev == null) {
        return; // swept after its collection already: this is the reference handler's late copy
      }
      b.prev.next = b.next;
      b.next.prev = b.prev;
      b.prev = null;
      b.next = null;
      outstanding.addAndGet(-b.block.byteSize());
      if (b.epoch < fullEpoch) {
        // outstanding at the last full collection, so counted in its live set: no longer live
        liveAfterCollection -= b.block.byteSize();
      }
    }
    keep(b.from, b.block);
  }
}
