package dev.ufunc4j.internal.parallel;

import dev.ufunc4j.internal.RuntimeContext;
import dev.ufunc4j.internal.Tunables;
import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.loops.Loops;
import dev.ufunc4j.internal.loops.StridedBox;
import dev.ufunc4j.internal.loops.Tiling;
import dev.ufunc4j.internal.memory.ScopeMemory;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Runs a planned kernel call on the caller's thread or, above a grain of {@link #grainSize()}
 * elements, split along the loop's outermost dimension across the caller and a team of daemon
 * worker threads. Thread count: system property {@code ufunc4j.threads}, else the number of
 * available processors; {@link #setThreads} changes it at run time.
 *
 * <p><b>The hand-off</b> (measured in {@code docs/runtime.md}, "Threads"): the work is cut into a
 * few pieces per thread, and the caller and the workers claim pieces from one counter until none
 * is left. The caller never waits for a worker to start: if the workers are slow to wake (or the
 * machine's other cores are busy), the caller simply does more pieces itself, so a split op costs
 * at most the hand-off (a volatile write and an unpark) and one piece more than running alone.
 * Workers spin for {@code ufunc4j.spinMicros} (default 50 µs) after a job before they park, so
 * the next op of a loop finds them awake. One op uses the team at a time; an op that finds it
 * busy (another thread's op, or a nested one) runs on its own thread.
 */
public final class Parallel {
  // The thread count, the grains, the team and the pool belong to the runtime context
  // (RuntimeContext): the defaults come from Tunables (a tuning profile's choice on this machine,
  // else the measured constants), overridden by -Dufunc4j.threads and -Dufunc4j.grain.
  /**
   * Pieces per thread of a split elementwise op (none under half a grain): the threads' ends
   * differ by one piece at most. 16 rather than 4 halved that difference for {@code silu} on 16M
   * floats, 5% of its two-thread time (docs/runtime.md, "Threads"); {@code
   * -Dufunc4j.piecesPerThread} for measuring.
   */
  private static final int PIECES_PER_THREAD =
      orDefault(Tunables.property("ufunc4j.piecesPerThread", 1, 1024), 16).intValue();

  /** Workers spin this long after a job before they park: at most a second. */
  private static final long SPIN_NANOS =
      orDefault(Tunables.property("ufunc4j.spinMicros", 0, 1_000_000), 50) * 1000;

  /** A new worker team (the runtime context's; workers start on first use). */
  public static Team newTeam() {
    return new Team(SPIN_NANOS);
  }

  private static RuntimeContext context() {
    return RuntimeContext.current();
  }

  private Parallel() {}

  private static Long orDefault(Long value, long fallback) {
    return value != null ? value : fallback;
  }

  public static int threads() {
    return context().threads();
  }

  /**
   * Sets the number of threads large ops use (1 = always the caller's thread), from 1 to {@link
   * Tunables#MAX_THREADS}.
   */
  public static void setThreads(int n) {
    checkThreads(n);
    context().setThreads(n);
  }

  public static void checkThreads(int n) {
    if (n < 1 || n > Tunables.MAX_THREADS) {
      throw new IllegalArgumentException(
          "thread count must be from 1 to " + Tunables.MAX_THREADS + ", got " + n);
    }
  }

  public static long grainSize() {
    return context().grainSize();
  }

  /**
   * Sets the number of elements below which an op stays on the caller's thread, for every op: like
   * {@code -Dufunc4j.grain}, it replaces a tuning profile's per-op grains too. From 1 to {@link
   * Tunables#MAX_GRAIN} (2^48, more elements than any tensor has: a grain that never splits).
   */
  public static void setGrainSize(long elements) {
    checkGrain(elements);
    context().setGrainSize(elements);
  }

  public static void checkGrain(long elements) {
    if (elements < 1 || elements > Tunables.MAX_GRAIN) {
      throw new IllegalArgumentException(
          "grain size must be from 1 to " + Tunables.MAX_GRAIN + " elements, got " + elements);
    }
  }

  /**
   * The grain of an op whose tuning profile chose {@code opGrain} (0: none): that one, unless a
   * grain was set explicitly ({@code -Dufunc4j.grain}, {@link #setGrainSize}); else the
   * runtime-wide {@link #grainSize()}.
   */
  public static long grainFor(long opGrain) {
    return grainFor(opGrain, 1);
  }

  /**
   * {@link #grainFor(long)} for an op whose elements cost {@code cost} times an add's (the
   * processor's estimate from the op's body, {@code ElementwiseOp.cost()}): without an explicit or
   * tuned grain, the runtime-wide grain divided by the cost. The grain was measured on memory-bound
   * adds; an element of {@code exp} costs about four of them, so it is worth a thread at a quarter
   * of the elements (docs/runtime.md, "Threads"). An explicit grain stays every op's grain.
   */
  public static long grainFor(long opGrain, int cost) {
    RuntimeContext c = context();
    if (c.explicitGrain()) {
      return c.grainSize();
    }
    return opGrain > 0 ? opGrain : Math.max(1, c.grainSize() / Math.max(1, cost));
  }

  /**
   * Whether {@code numel} elements are worth splitting at {@code grain}: at least two grains.
   * Written as a division, so that no grain (nor element count) overflows it; {@code 2 * grain}
   * wrapped negative for a grain of 2^62, and every op then split into no pieces and wrote nothing.
   */
  public static boolean atLeastTwoGrains(long numel, long grain) {
    return numel / 2 >= grain;
  }

  /**
   * Calls split across the team since the JVM started: elementwise calls, and the shared work of
   * {@link #forEachShare} (reductions, scans, {@code at}) when it runs in more than one share.
   */
  public static long splits() {
    return context().splits().get();
  }

  private static ExecutorService pool() {
    return context().pool();
  }

  /**
   * Runs {@code kernel} over {@code plan}, in parallel when the loop is at least twice the
   * runtime-wide grain.
   */
  public static void run(
      StridedBox kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    run(kernel, plan, segments, offsets, floatScalars, intScalars, grainSize());
  }

  /**
   * Runs {@code kernel} over {@code plan}, in parallel when the loop is at least twice {@code
   * grain} elements (an op's own: {@link #grainFor}).
   */
  public static void run(
      StridedBox kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars,
      long grain) {
    int n = threads();
    long outer = plan.shape[0];
    long numel = plan.numel();
    long unit = splitUnit(plan);
    long units = (outer + unit - 1) / unit;
    if (n <= 1 || !atLeastTwoGrains(numel, grain) || units < 2) {
      runBox(kernel, plan, plan.shape, segments, offsets, floatScalars, intScalars);
      return;
    }
    // A few pieces per thread, none smaller than half a grain: late workers cost at most one.
    // At least 2: numel holds two grains, units >= 2, n >= 2 and PIECES_PER_THREAD >= 1.
    int chunks = (int) Math.min(Math.min((long) n * PIECES_PER_THREAD, units),
        halfGrains(numel, grain));
    // Worker threads cannot touch a TensorScope's confined segments: they get unconfined views.
    MemorySegment[] shared = ScopeMemory.shareable(segments);
    context().splits().incrementAndGet();
    runChunks(kernel, plan, shared, offsets, floatScalars, intScalars, chunks, n);
  }

  /**
   * How many half grains {@code numel} holds, {@code floor(2 * numel / grain)}, without forming
   * {@code 2 * numel}: twice the whole grains, plus one when the remainder is half a grain or more.
   */
  static long halfGrains(long numel, long grain) {
    long whole = numel / grain;
    if (whole >= Long.MAX_VALUE / 2) {
      return Long.MAX_VALUE; // more pieces than any split takes
    }
    long rest = numel % grain;
    return whole * 2 + (rest >= grain - rest ? 1 : 0);
  }

  /**
   * The plan over {@code shape} (its own, or a share of the outermost dimension): {@link Loops}
   * walks it box by box, each box tiled when the plan is (or computed for its first column when
   * the plan repeats rows).
   */
  private static void runBox(
      StridedBox kernel,
      LoopPlan plan,
      long[] shape,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    StridedBox boxes = plan.tiled() ? Tiling.tiled(kernel, plan)
        : plan.repeatsRows() ? Loops.firstColumnRepeated(kernel, plan.elementBytes[0])
        : kernel;
    Loops.run(boxes, plan.rank, shape, plan.strides, plan.boxStrides, segments, offsets,
        floatScalars, intScalars);
  }

  /**
   * Length of share {@code c} of {@code outer} split in {@code chunks}: as equal as possible, in
   * whole strips of {@link Tiling#STRIP} rows when the outermost dimension is the tiled plan's row
   * dimension (rank 2), so that the strips' register blocks stay whole.
   */
  static long shareLength(LoopPlan plan, long outer, int chunks, int c) {
    long unit = splitUnit(plan);
    long units = (outer + unit - 1) / unit;
    long start = Math.min(outer, unitsBefore(units, chunks, c) * unit);
    long end = Math.min(outer, unitsBefore(units, chunks, c + 1) * unit);
    return end - start;
  }

  /** The outermost dimension splits in whole strips when it is a tiled plan's row dimension. */
  private static long splitUnit(LoopPlan plan) {
    return plan.tiled() && plan.rank == 2 ? Tiling.STRIP : 1;
  }

  private static long unitsBefore(long units, int chunks, int c) {
    return units / chunks * c + Math.min(c, units % chunks);
  }

  /** The plan cut into {@code chunks} pieces along its outermost dimension, run by the team. */
  private static void runChunks(
      StridedBox kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars,
      int chunks,
      int threads) {
    int rank = plan.rank;
    int ops = plan.operands;
    long outer = plan.shape[0];
    long[] starts = new long[chunks + 1];
    for (int c = 0; c < chunks; c++) {
      starts[c + 1] = starts[c] + shareLength(plan, outer, chunks, c);
    }
    context().team().run(chunks, threads, c -> {
      long[] shape = plan.shape.clone();
      shape[0] = starts[c + 1] - starts[c];
      long[] offs = offsets.clone();
      for (int k = 0; k < ops; k++) {
        offs[k] += starts[c] * plan.strides[k * rank];
      }
      runBox(kernel, plan, shape, segments, offs, floatScalars, intScalars);
    });
  }

  /** Work over the index range {@code [from, to)}: one share of a {@link #forEachShare} call. */
  @FunctionalInterface
  public interface RangeTask {
    void run(long from, long to);
  }

  /**
   * Runs {@code task} over {@code [0, count)} split into at most {@code shares} equal shares, which
   * the caller and the workers claim; returns when all are done and rethrows the first failure.
   * For work whose shares are independent (reductions over separate output elements).
   */
  public static void forEachShare(int shares, long count, RangeTask task) {
    int chunks = (int) Math.max(1, Math.min(shares, count));
    RuntimeContext context = context();
    if (chunks > 1) {
      context.splits().incrementAndGet();
    }
    context.team().run(chunks, context.threads(), c ->
        task.run(unitsBefore(count, chunks, c), unitsBefore(count, chunks, c + 1)));
  }

  /**
   * Computes {@code first} and {@code second} on two threads, returning both: the two halves of
   * one node of a reduction's fixed pairwise tree. The team takes them when it is free (its
   * workers spin between jobs, so the half starts at once); a node nested under another, which
   * finds the team busy, goes to the executor.
   */
  public static double[] both(
      java.util.function.DoubleSupplier first, java.util.function.DoubleSupplier second) {
    double[] result = new double[2];
    RuntimeContext context = context();
    if (!context.team().tryRun(2, context.threads(),
        c -> result[c] = c == 0 ? first.getAsDouble() : second.getAsDouble())) {
      runAll(new Runnable[] {
          () -> result[0] = first.getAsDouble(), () -> result[1] = second.getAsDouble()});
    }
    return result;
  }

  /**
   * Runs every task, all but the last on the pool, and waits; rethrows the first failure. (The
   * reductions' pairwise tree nests these calls, which the team does not: they keep the pool.)
   */
  private static void runAll(Runnable[] tasks) {
    int n = tasks.length;
    CountDownLatch done = new CountDownLatch(n - 1);
    Throwable[] failure = new Throwable[1];
    for (int c = 0; c < n - 1; c++) {
      Runnable task = tasks[c];
      pool().submit(() -> {
        try {
          task.run();
        } catch (Throwable t) {
          synchronized (failure) {
            if (failure[0] == null) {
              failure[0] = t;
            }
          }
        } finally {
          done.countDown();
        }
      });
    }
    Throwable own = null;
    try {
      tasks[n - 1].run();
    } catch (Throwable t) {
      own = t;
    }
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    rethrow(own != null ? own : failure[0]);
  }

  /** Throws {@code t} as it is when unchecked (wrapped otherwise); nothing when null. */
  private static void rethrow(Throwable t) {
    if (t instanceof RuntimeException re) {
      throw re;
    } else if (t instanceof Error er) {
      throw er;
    } else if (t != null) {
      throw new IllegalStateException(t);
    }
  }

  /**
   * The caller and up to {@code threads - 1} workers claiming the pieces of one job from a
   * counter (see the class comment). Workers are made on first use and live for the JVM.
   */
  public static final class Team {
    private final long spinNanos;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile Job posted;
    private long jobs; // numbers posted jobs; written only while holding "busy"
    private volatile Worker[] workers = new Worker[0];

    Team(long spinNanos) {
      this.spinNanos = spinNanos;
    }

    /** Runs {@code piece} for every index in {@code [0, pieces)} on up to {@code threads}. */
    void run(int pieces, int threads, IntConsumer piece) {
      if (!tryRun(pieces, threads, piece)) {
        for (int c = 0; c < pieces; c++) {
          piece.accept(c);
        }
      }
    }

    /**
     * Runs the pieces as {@link #run} does and returns true, or does nothing and returns false
     * when the team is busy or there is nobody to share with.
     */
    boolean tryRun(int pieces, int threads, IntConsumer piece) {
      int helpers = Math.min(threads, pieces) - 1;
      if (helpers <= 0 || !busy.compareAndSet(false, true)) {
        return false;
      }
      Job job = new Job(++jobs, pieces, piece, helpers);
      try {
        Worker[] team = workers(helpers);
        if (PieceTimeline.ENABLED) {
          PieceTimeline.posted(job.number, System.nanoTime());
        }
        posted = job;
        for (int w = 0; w < helpers; w++) {
          if (team[w].parked) {
            LockSupport.unpark(team[w]);
          }
        }
        job.work();
        job.awaitAll(spinNanos);
      } finally {
        posted = null;
        busy.set(false);
      }
      job.rethrow();
      return true;
    }

    private Worker[] workers(int helpers) {
      Worker[] team = workers;
      if (team.length < helpers) {
        synchronized (this) {
          team = workers;
          if (team.length < helpers) {
            Worker[] more = Arrays.copyOf(team, helpers);
            for (int w = team.length; w < helpers; w++) {
              more[w] = new Worker(this, w);
              more[w].start();
            }
            workers = more;
            team = more;
          }
        }
      }
      return team;
    }

    /** A worker: takes part in each posted job that asks for it, spinning between jobs. */
    private static final class Worker extends Thread {
      private final Team team;
      private final int index;
      volatile boolean parked;

      Worker(Team team, int index) {
        super("ufunc4j-worker-" + index);
        this.team = team;
        this.index = index;
        setDaemon(true);
      }

      @Override
      public void run() {
        // Only the last job's number is kept between jobs: the job would keep its tensors
        // reachable (and their blocks out of the pools) while this thread waits.
        long last = 0;
        while (true) {
          last = takePart(last);
        }
      }

      /** Waits for the job after number {@code last}, works on it if asked; returns its number. */
      private long takePart(long last) {
        Job job = next(last);
        if (index < job.helpers) {
          job.work();
        }
        return job.number;
      }

      /** The next job after number {@code last}: spin a little, then park until one is posted. */
      private Job next(long last) {
        long deadline = System.nanoTime() + team.spinNanos;
        while (true) {
          Job job = team.posted;
          if (job != null && job.number != last) {
            return job;
          }
          if (System.nanoTime() < deadline) {
            Thread.onSpinWait();
            continue;
          }
          parked = true;
          job = team.posted; // re-read after announcing: the poster reads "parked" after posting
          if (job == null || job.number == last) {
            LockSupport.park(this);
          }
          parked = false;
          deadline = System.nanoTime() + team.spinNanos;
        }
      }
    }
  }

  /**
   * One split op: its pieces, claimed from {@link #ends}, and counted when done.
   *
   * <p>The caller claims pieces from the front, the workers from the back, so that when both run
   * promptly each thread does the same pieces in every call of a loop and finds its operands in
   * its own core's cache. Claiming from one end (the first design) handed the pieces out in
   * whatever order the threads arrived: a 128K-element float32 {@code out=} add (1.5 MiB, which
   * one core's 2 MiB L2 holds) took 25–26 µs on two threads against 16–17 on one (ThreadsBench,
   * docs/runtime.md).
   */
  private static final class Job {
    final long number;
    final int pieces;
    final int helpers;
    private final IntConsumer piece;
    /** The unclaimed pieces {@code [front, back)}: front in the high 32 bits, back in the low. */
    private final AtomicLong ends;
    private final AtomicInteger done = new AtomicInteger();
    private final Thread caller = Thread.currentThread();
    private volatile boolean callerParked;
    private volatile Throwable failure;

    Job(long number, int pieces, IntConsumer piece, int helpers) {
      this.number = number;
      this.pieces = pieces;
      this.piece = piece;
      this.helpers = helpers;
      this.ends = new AtomicLong(pieces);
    }

    /** The next piece for this thread (the caller from the front, workers from the back), or -1. */
    private int claim(boolean fromFront) {
      while (true) {
        long e = ends.get();
        int front = (int) (e >>> 32);
        int back = (int) e;
        if (front >= back) {
          return -1;
        }
        long claimed = fromFront ? e + (1L << 32) : e - 1;
        if (ends.compareAndSet(e, claimed)) {
          return fromFront ? front : back - 1;
        }
      }
    }

    /** Claims and runs pieces until none is left; after a failure, claims without running. */
    void work() {
      boolean fromFront = Thread.currentThread() == caller;
      int c;
      while ((c = claim(fromFront)) >= 0) {
        if (failure == null) {
          try {
            long start = PieceTimeline.ENABLED ? System.nanoTime() : 0;
            piece.accept(c);
            if (PieceTimeline.ENABLED) {
              PieceTimeline.piece(number, c, fromFront, start, System.nanoTime());
            }
          } catch (Throwable t) {
            synchronized (this) {
              if (failure == null) {
                failure = t;
              }
            }
          }
        }
        if (done.incrementAndGet() == pieces && Thread.currentThread() != caller
            && callerParked) {
          LockSupport.unpark(caller);
        }
      }
    }

    /**
     * Waits (the caller, having claimed everything it could) for the pieces the workers are
     * still running: spinning, since they finish about when the caller does, then parked.
     */
    void awaitAll(long spinNanos) {
      long deadline = System.nanoTime() + spinNanos;
      boolean interrupted = false;
      while (done.get() < pieces) {
        if (System.nanoTime() < deadline) {
          Thread.onSpinWait();
          continue;
        }
        callerParked = true;
        if (done.get() < pieces) {
          LockSupport.parkNanos(this, 1_000_000);
        }
        callerParked = false;
        if (Thread.interrupted()) {
          interrupted = true; // parking returns at once while the flag is set: restore it after
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    void rethrow() {
      Parallel.rethrow(failure);
    }
  }
}
