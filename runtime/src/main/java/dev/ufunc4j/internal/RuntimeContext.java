package dev.ufunc4j.internal;

import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.memory.NativeMemory;
import dev.ufunc4j.internal.memory.Storage;
import dev.ufunc4j.internal.parallel.Parallel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's state in one object, as PyTorch keeps its own in {@code at::globalContext()}: the
 * thread count and grain with the worker team ({@link Parallel}), the {@link Tunables}, the tensor
 * {@link Storage} (pools, reclamation) and the loop-plan cache ({@link LoopPlan}). Internal API.
 *
 * <p>It is reached through one holder, {@link #current()}: the context made from the system
 * properties at start, or one that {@link #use} installed. Nothing else in the runtime's main code
 * keeps mutable state in a static field ({@code StaticStateTest} lists them and fails on a new
 * one), so a test that needs other settings makes a context of its own instead of calling setters
 * and restoring them:
 *
 * <pre>{@code
 * try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).grain(1024).build())) {
 *   ... // every op on every thread sees this context until the close
 * }
 * }</pre>
 *
 * <p>A built context shares the current one's storage, worker team and plan cache unless told
 * otherwise: blocks handed out by one storage return to it, and workers live for the JVM, so a
 * context per test must not make new ones each. The holder is process-wide (like PyTorch's), so
 * tests that install contexts do not run concurrently with each other.
 */
public final class RuntimeContext {
  /** The holder: the only mutable static field of the runtime's main code. */
  private static volatile RuntimeContext current;

  private final Tunables tunables;
  private final Storage storage;
  private final LoopPlan.Cache plans;
  private final Parallel.Team team;
  private final ExecutorService pool;
  private final AtomicLong splits;
  private volatile int threads;
  private volatile long grain;
  /** Set by {@code -Dufunc4j.grain} or {@link #setGrainSize}: then every op uses that grain. */
  private volatile boolean explicitGrain;

  private RuntimeContext(Builder b) {
    this.tunables = b.tunables;
    this.storage = b.storage;
    this.plans = b.plans;
    this.team = b.team;
    this.pool = b.pool;
    this.splits = b.splits;
    this.threads = b.threads;
    this.grain = b.grain;
    this.explicitGrain = b.explicitGrain;
  }

  /** The context every op uses now. */
  public static RuntimeContext current() {
    RuntimeContext c = current;
    if (c == null) {
      synchronized (RuntimeContext.class) {
        c = current;
        if (c == null) {
          c = Defaults.fromProperties();
          current = c;
        }
      }
    }
    return c;
  }

  /**
   * Makes {@code context} the current one until the returned handle closes, which puts the one
   * before back (tests; contexts nest).
   */
  public static Installed use(RuntimeContext context) {
    RuntimeContext before = current();
    current = context;
    return new Installed(before, context);
  }

  /** The handle of {@link #use}: closing it puts the context before back. */
  public static final class Installed implements AutoCloseable {
    private final RuntimeContext before;
    private final RuntimeContext installed;

    private Installed(RuntimeContext before, RuntimeContext installed) {
      this.before = before;
      this.installed = installed;
    }

    @Override
    public void close() {
      if (current != installed) {
        throw new IllegalStateException(
            "RuntimeContext.use handles close innermost first: another context is current");
      }
      current = before;
    }
  }

  /** A builder that starts from the current context's settings and shares its parts. */
  public static Builder builder() {
    return new Builder(current());
  }

  /** A builder for this context's settings, sharing its parts. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  public Tunables tunables() {
    return tunables;
  }

  public Storage storage() {
    return storage;
  }

  public LoopPlan.Cache plans() {
    return plans;
  }

  public Parallel.Team team() {
    return team;
  }

  public ExecutorService pool() {
    return pool;
  }

  public AtomicLong splits() {
    return splits;
  }

  public int threads() {
    return threads;
  }

  public long grainSize() {
    return grain;
  }

  public boolean explicitGrain() {
    return explicitGrain;
  }

  /** {@link Parallel#setThreads}: a program's own setting, range-checked there. */
  public void setThreads(int n) {
    threads = n;
  }

  /** {@link Parallel#setGrainSize}: a program's own setting, range-checked there. */
  public void setGrainSize(long elements) {
    grain = elements;
    explicitGrain = true;
  }

  /** The settings of a new context; the parts it shares unless replaced. */
  public static final class Builder {
    private Tunables tunables;
    private Storage storage;
    private LoopPlan.Cache plans;
    private Parallel.Team team;
    private ExecutorService pool;
    private AtomicLong splits;
    private int threads;
    private long grain;
    private boolean explicitGrain;

    private Builder(RuntimeContext from) {
      tunables = from.tunables;
      storage = from.storage;
      plans = from.plans;
      team = from.team;
      pool = from.pool;
      splits = from.splits;
      threads = from.threads;
      grain = from.grain;
      explicitGrain = from.explicitGrain;
    }

    private Builder() {}

    /** Threads large ops use, from 1 to {@link Tunables#MAX_THREADS}. */
    public Builder threads(int n) {
      Parallel.checkThreads(n);
      threads = n;
      return this;
    }

    /** The grain for every op (replacing per-op grains), from 1 to {@link Tunables#MAX_GRAIN}. */
    public Builder grain(long elements) {
      Parallel.checkGrain(elements);
      grain = elements;
      explicitGrain = true;
      return this;
    }

    /**
     * These tunables, and their grain and thread count as the context's (unless {@code
     * -Dufunc4j.grain} or {@code -Dufunc4j.threads} say otherwise, as at start): per-op grains in
     * force again.
     */
    public Builder tunables(Tunables t) {
      tunables = t;
      threads = Defaults.THREADS_PROPERTY != null ? Defaults.THREADS_PROPERTY.intValue() : t.threadsValue();
      grain = Defaults.GRAIN_PROPERTY != null ? Defaults.GRAIN_PROPERTY : t.grainValue();
      explicitGrain = Defaults.GRAIN_PROPERTY != null;
      return this;
    }

    /** A storage of its own (tests of the storage itself). */
    Builder storage(Storage s) {
      storage = s;
      return this;
    }

    /** A plan cache of its own. */
    Builder freshPlanCache() {
      plans = new LoopPlan.Cache();
      return this;
    }

    public RuntimeContext build() {
      return new RuntimeContext(this);
    }
  }

  /** The context made from the system properties, with the properties read once. */
  private static final class Defaults {
    private Defaults() {}

    // Each property is range-checked once, here: one out of range gives one warning and the
    // default.
    static final Long THREADS_PROPERTY =
        Tunables.property("ufunc4j.threads", 1, Tunables.MAX_THREADS);
    static final Long GRAIN_PROPERTY = Tunables.property("ufunc4j.grain", 1, Tunables.MAX_GRAIN);

    static RuntimeContext fromProperties() {
      Builder b = new Builder();
      b.storage = NativeMemory.fromProperties();
      b.plans = new LoopPlan.Cache();
      b.team = Parallel.newTeam();
      b.pool =
          Executors.newCachedThreadPool(
              r -> {
                Thread t = new Thread(r, "ufunc4j-worker");
                t.setDaemon(true);
                return t;
              });
      b.splits = new AtomicLong();
      return b.tunables(Tunables.load()).build();
    }
  }
}
