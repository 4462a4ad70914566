package dev.ufunc4j.internal;

import dev.ufunc4j.kernel.ElementwiseKernel;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs a planned kernel call on the caller's thread or, above a grain of {@link #grainSize()}
 * elements, split along the loop's outermost dimension across a shared pool of daemon threads
 * (the caller runs one share itself). Thread count: system property {@code ufunc4j.threads}, else
 * the number of available processors; {@link #setThreads} changes it at run time.
 */
public final class Parallel {
  /** PyTorch's grain (at::internal::GRAIN_SIZE); below it a thread hand-off costs more than it saves. */
  private static final long DEFAULT_GRAIN = 32768;

  private static volatile int threads =
      Integer.getInteger("ufunc4j.threads", Runtime.getRuntime().availableProcessors());
  private static volatile long grain = Long.getLong("ufunc4j.grain", DEFAULT_GRAIN);
  private static volatile ExecutorService pool;

  private Parallel() {}

  public static int threads() {
    return threads;
  }

  /** Sets the number of threads large ops use (1 = always the caller's thread). */
  public static void setThreads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("thread count must be at least 1, got " + n);
    }
    threads = n;
  }

  public static long grainSize() {
    return grain;
  }

  /** Sets the number of elements below which an op stays on the caller's thread. */
  public static void setGrainSize(long elements) {
    if (elements < 1) {
      throw new IllegalArgumentException("grain size must be at least 1, got " + elements);
    }
    grain = elements;
  }

  private static ExecutorService pool() {
    ExecutorService p = pool;
    if (p == null) {
      synchronized (Parallel.class) {
        p = pool;
        if (p == null) {
          p =
              Executors.newCachedThreadPool(
                  r -> {
                    Thread t = new Thread(r, "ufunc4j-worker");
                    t.setDaemon(true);
                    return t;
                  });
          pool = p;
        }
      }
    }
    return p;
  }

  /** Runs {@code kernel} over {@code plan}, in parallel when the loop is large enough. */
  public static void run(
      ElementwiseKernel kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    int n = threads;
    long outer = plan.shape[0];
    long numel = plan.numel();
    long unit = splitUnit(plan);
    long units = (outer + unit - 1) / unit;
    if (n <= 1 || numel < 2 * grain || units < 2) {
      runBox(kernel, plan, plan.shape, segments, offsets, floatScalars, intScalars);
      return;
    }
    int chunks = (int) Math.min(Math.min(n, units), numel / grain);
    // Worker threads cannot touch a TensorScope's confined segments: they get unconfined views.
    MemorySegment[] shared = ScopeMemory.shareable(segments);
    runChunks(kernel, plan, shared, offsets, floatScalars, intScalars, chunks);
  }

  /**
   * The plan over {@code shape} (its own, or a share of the outermost dimension): {@link Loops}
   * walks it box by box, each box tiled when the plan is (or computed for its first column when
   * the plan repeats rows).
   */
  private static void runBox(
      ElementwiseKernel kernel,
      LoopPlan plan,
      long[] shape,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    ElementwiseKernel boxes = plan.tiled() ? Tiling.tiled(kernel, plan)
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

  private static void runChunks(
      ElementwiseKernel kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars,
      int chunks) {
    int rank = plan.rank;
    int ops = plan.operands;
    long outer = plan.shape[0];
    CountDownLatch done = new CountDownLatch(chunks - 1);
    Throwable[] failure = new Throwable[1];
    long start = 0;
    Runnable mine = null;
    for (int c = 0; c < chunks; c++) {
      long len = shareLength(plan, outer, chunks, c);
      long[] shape = plan.shape.clone();
      shape[0] = len;
      long[] offs = offsets.clone();
      for (int k = 0; k < ops; k++) {
        offs[k] += start * plan.strides[k * rank];
      }
      start += len;
      Runnable task =
          () -> runBox(kernel, plan, shape, segments, offs, floatScalars, intScalars);
      if (c == chunks - 1) {
        mine = task;
      } else {
        pool()
            .submit(
                    () -> {
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
    }
    Throwable own = null;
    try {
      mine.run();
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
    Throwable t = own != null ? own : failure[0];
    if (t instanceof RuntimeException re) {
      throw re;
    } else if (t instanceof Error er) {
      throw er;
    } else if (t != null) {
      throw new IllegalStateException(t);
    }
  }

  /** Work over the index range {@code [from, to)}: one share of a {@link #forEachShare} call. */
  @FunctionalInterface
  public interface RangeTask {
    void run(long from, long to);
  }

  /**
   * Runs {@code task} over {@code [0, count)} split into at most {@code shares} equal shares, one
   * per thread (the caller runs the last); returns when all are done and rethrows the first
   * failure. For work whose shares are independent (reductions over separate output elements).
   */
  public static void forEachShare(int shares, long count, RangeTask task) {
    int chunks = (int) Math.max(1, Math.min(shares, count));
    Runnable[] parts = new Runnable[chunks];
    for (int c = 0; c < chunks; c++) {
      long from = unitsBefore(count, chunks, c);
      long to = unitsBefore(count, chunks, c + 1);
      parts[c] = () -> task.run(from, to);
    }
    runAll(parts);
  }

  /**
   * Computes {@code first} on a worker and {@code second} on the caller, returning both: the two
   * halves of one node of a reduction's fixed pairwise tree.
   */
  public static double[] both(
      java.util.function.DoubleSupplier first, java.util.function.DoubleSupplier second) {
    double[] result = new double[2];
    runAll(new Runnable[] {
        () -> result[0] = first.getAsDouble(), () -> result[1] = second.getAsDouble()});
    return result;
  }

  /** Runs every task, all but the last on the pool, and waits; rethrows the first failure. */
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
    Throwable t = own != null ? own : failure[0];
    if (t instanceof RuntimeException re) {
      throw re;
    } else if (t instanceof Error er) {
      throw er;
    } else if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
