package dev.ufunc4j.internal.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory of one thread's {@code TensorScope}s: a stack allocator over native chunks that the
 * thread keeps and reuses. Internal API.
 *
 * <p>A tensor allocated in a scope costs a pointer bump in the thread's current chunk; closing the scope resets the pointer to where it was when the scope
 * opened. A loop whose body runs in a scope therefore writes the same, cache-hot addresses every
 * iteration, as NumPy's allocator hands back the block it has just freed. Blocks of {@link
 * NativeMemory#HUGE_THRESHOLD} or more are mapped blocks taken from {@link NativeMemory}'s cache
 * and given back at close.
 *
 * <p>Chunks are sized to use: a thread's first is {@link #FIRST_CHUNK} (4 KiB), each next one
 * twice the last up to {@link #CHUNK} (1 MiB), or the request's size when larger. The chunks are
 * ordinary GC-managed blocks held by the thread's {@code ThreadLocal}, which the JDK clears when
 * the thread (virtual or not) ends: the next collection returns them to {@link NativeMemory}'s
 * pools, which keep no more than its slack.
 *
 * <p>Each scope's tensors are bound to a confined {@link Arena} of the opening thread, so the
 * JDK itself refuses access after the close ({@link IllegalStateException}) and from other
 * threads ({@link WrongThreadException}); closing a confined arena costs no handshake with other
 * threads, unlike a shared one (measured in {@code docs/runtime.md}). The runtime's own worker
 * threads reach a scope's tensors through {@link #shareable}, during an op that the owner thread
 * is waiting for.
 */
// reinterpret is a restricted FFM method: the JVM runs with --enable-native-access=ALL-UNNAMED.
@SuppressWarnings("restricted")
public final class ScopeMemory {
  private static final ThreadLocal<ScopeMemory> OF_THREAD = ThreadLocal.withInitial(ScopeMemory::new);

  /**
   * Whether any thread has opened a scope: until then, allocation skips the thread-local lookup.
   * A plain field, set by every {@link #open} and never cleared: a thread reads its own writes, so
   * a thread that reads false has opened no scope and has no frame. (It was a count of open
   * scopes, two atomic updates per scope, for the same purpose; issue 28, item 6.)
   */
  private static boolean opened;

  /**
   * A thread's first chunk: 4 KiB, one page of a shared slab. A thread whose scopes hold a few
   * small tensors (a virtual thread per request, say) needs no more: 10,000 such threads each
   * faulting in a 1 MiB chunk took 6.7 GB (issue 23); with 4 KiB first chunks the process grew by
   * 159 MB, virtual threads and their scopes' objects included (docs/runtime.md).
   */
  static final long FIRST_CHUNK = 4L << 10;

  /** Chunks double from {@link #FIRST_CHUNK} up to this size (a larger request gets its own). */
  static final long CHUNK = 1L << 20;

  /** Chunk bytes a thread keeps after its outermost scope closes, if it used no more. */
  private static final long RETAIN = Long.getLong("ufunc4j.scopeRetainBytes", 64L << 20);

  /** A thread that never runs: segments it cannot access are confined to some other thread. */
  private static final Thread PROBE = new Thread(() -> {}, "ufunc4j-confinement-probe");

  private final Thread owner = Thread.currentThread();
  private final ArrayList<MemorySegment> chunks = new ArrayList<>();
  private long chunkBytes;
  private int current;
  private long top;
  private int highWater;
  private Frame innermost;

  private ScopeMemory() {}

  /** Opens a frame on the current thread; it receives the thread's allocations until closed. */
  public static Frame open() {
    ScopeMemory memory = OF_THREAD.get();
    Frame frame = new Frame(memory, memory.innermost, memory.current, memory.top);
    memory.innermost = frame;
    if (!opened) {
      opened = true; // once: a store on every open would take the line from every reader's cache
    }
    return frame;
  }

  /**
   * Storage of {@code bytes} in the current thread's innermost open frame, zeroed when {@code
   * zero}; null when the thread has no open frame (the caller allocates GC-managed storage).
   */
  public static MemorySegment allocateInScope(long bytes, boolean zero) {
    if (!opened) {
      return null;
    }
    ScopeMemory memory = OF_THREAD.get();
    Frame frame = memory.innermost;
    return frame == null ? null : memory.allocate(frame, bytes, zero);
  }

  private MemorySegment allocate(Frame frame, long bytes, boolean zero) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot allocate a negative byte count: " + bytes);
    }
    if (bytes >= NativeMemory.HUGE_THRESHOLD) {
      boolean[] fresh = new boolean[1];
      MemorySegment block = NativeMemory.takeMapped(NativeMemory.mappedLength(bytes), fresh);
      if (block != null) {
        frame.keepMapped(block);
        MemorySegment seg = block.reinterpret(bytes, frame.arena, null);
        if (zero && !fresh[0]) {
          seg.fill((byte) 0);
        }
        return seg;
      }
    }
    long size = Math.max(NativeMemory.roundUp(bytes, NativeMemory.ALIGNMENT), NativeMemory.ALIGNMENT);
    while (current < chunks.size() && top + size > chunks.get(current).byteSize()) {
      current++;
      top = 0;
    }
    if (current == chunks.size()) {
      long grown =
          chunks.isEmpty() ? FIRST_CHUNK : Math.min(CHUNK, 2 * chunks.getLast().byteSize());
      long length = Math.max(grown, NativeMemory.roundUp(size, FIRST_CHUNK));
      MemorySegment chunk = NativeMemory.allocate(length, false);
      chunks.add(chunk);
      chunkBytes += chunk.byteSize();
    }
    highWater = Math.max(highWater, current);
    if (frame.boundChunk != current) {
      frame.boundView = chunks.get(current).reinterpret(frame.arena, null);
      frame.boundChunk = current;
    }
    MemorySegment seg = frame.boundView.asSlice(top, bytes);
    top += size;
    if (zero) {
      seg.fill((byte) 0);
    }
    return seg;
  }

  /** After the outermost frame closes: drop chunks that this cycle did not use, past the limit. */
  private void trim() {
    while (chunkBytes > RETAIN && chunks.size() > highWater + 1) {
      chunkBytes -= chunks.removeLast().byteSize(); // the GC returns it to NativeMemory's pools
    }
    highWater = 0;
  }

  /** One open scope: where the thread's bump pointer stood when it opened, and its arena. */
  public static final class Frame {
    private final ScopeMemory memory;
    private final Frame parent;
    private final int markChunk;
    private final long markTop;
    private final Arena arena = Arena.ofConfined();
    private int boundChunk = -1;
    private MemorySegment boundView;
    private List<MemorySegment> mapped;
    private boolean closed;

    private Frame(ScopeMemory memory, Frame parent, int markChunk, long markTop) {
      this.memory = memory;
      this.parent = parent;
      this.markChunk = markChunk;
      this.markTop = markTop;
    }

    private void keepMapped(MemorySegment block) {
      if (mapped == null) {
        mapped = new ArrayList<>();
      }
      mapped.add(block);
    }

    /** True once closed. */
    public boolean isClosed() {
      return closed;
    }

    /**
     * Invalidates every segment allocated in this frame and makes its memory reusable. Only the
     * opening thread may close a frame, and only the innermost one; closing twice does nothing.
     */
    public void close() {
      if (closed) {
        return;
      }
      if (Thread.currentThread() != memory.owner) {
        throw new IllegalStateException(
            "a TensorScope must be closed by the thread that opened it ("
                + memory.owner.getName() + "), not by " + Thread.currentThread().getName());
      }
      if (memory.innermost != this) {
        throw new IllegalStateException(
            "TensorScopes close innermost first: a scope opened inside this one is still open");
      }
      closed = true;
      memory.innermost = parent;
      arena.close(); // first: no segment of this frame is usable once its memory is reused
      if (mapped != null) {
        mapped.forEach(NativeMemory::giveMapped);
      }
      memory.current = markChunk;
      memory.top = markTop;
      if (parent == null) {
        memory.trim();
      }
    }
  }

  /**
   * {@code segments}, with every segment confined to some thread replaced by an unconfined view of
   * the same memory, for the runtime's worker threads during an op that the owner thread waits
   * for. A segment of a closed scope, or of another thread's scope, is refused here (the messages
   * of {@link #explain}), before any worker could touch memory that the scope has handed on or
   * that its thread may be writing.
   */
  public static MemorySegment[] shareable(MemorySegment[] segments) {
    MemorySegment[] out = segments;
    for (int i = 0; i < segments.length; i++) {
      MemorySegment s = segments[i];
      MemorySegment shared = shareable(s);
      if (shared != s) {
        if (out == segments) {
          out = segments.clone();
        }
        out[i] = shared;
      }
    }
    return out;
  }

  /** One segment as {@link #shareable(MemorySegment[])} treats it: itself when not confined. */
  public static MemorySegment shareable(MemorySegment s) {
    if (s.isAccessibleBy(PROBE)) {
      return s;
    }
    if (!s.scope().isAlive()) {
      throw closedScope(null);
    }
    if (!s.isAccessibleBy(Thread.currentThread())) {
      throw otherThread(null);
    }
    return ALL_MEMORY.asSlice(s.address(), s.byteSize());
  }

  /**
   * All addresses, unconfined (the global session): {@link #shareable}'s views are slices of it,
   * which costs one segment per call where {@code ofAddress(a).reinterpret(n)} costs two and the
   * restricted method's caller check.
   */
  private static final MemorySegment ALL_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

  /**
   * The exception for an op's access that the JDK refused with {@code e}: {@link #explain} for the
   * first of {@code segments} that is closed or confined to another thread, else {@code e}.
   */
  public static RuntimeException explain(MemorySegment[] segments, RuntimeException e) {
    for (MemorySegment s : segments) {
      if (s != null && (!s.scope().isAlive() || !s.isAccessibleBy(Thread.currentThread()))) {
        return explain(s, e);
      }
    }
    return e;
  }

  /**
   * The exception for an access to {@code seg} that the JDK refused with {@code e}: a clear one
   * naming TensorScope when the segment belongs to a closed scope or to another thread's scope,
   * else {@code e} itself.
   */
  public static RuntimeException explain(MemorySegment seg, RuntimeException e) {
    if (!seg.scope().isAlive()) {
      return closedScope(e);
    }
    if (!seg.isAccessibleBy(Thread.currentThread())) {
      return otherThread(e);
    }
    return e;
  }

  private static WrongThreadException otherThread(Throwable cause) {
    WrongThreadException w =
        new WrongThreadException(
            "this tensor belongs to a TensorScope of another thread: a scope's tensors are"
                + " confined to the thread that opened it (use a tensor created outside any"
                + " scope, or a copy made outside it, on other threads)");
    w.initCause(cause);
    return w;
  }

  private static IllegalStateException closedScope(Throwable cause) {
    return new IllegalStateException(
        "this tensor's storage belonged to a TensorScope that has been closed: use tensors of a"
            + " scope only inside it (create what must outlive the scope before opening it, or"
            + " copy it into such a tensor before the scope closes)",
        cause);
  }
}
