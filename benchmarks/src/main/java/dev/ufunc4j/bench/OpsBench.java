package dev.ufunc4j.bench;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.TensorScope;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.samples.ActivationsOps;
import dev.ufunc4j.samples.ReducerOps;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * ufunc4j on the cases of {@code cases.json}, the list NumPy and PyTorch run too. {@code mode}
 * {@code out} writes into a preallocated result; {@code fresh} allocates one per call, as {@code
 * a + b} does; {@code scope} allocates one per call inside a {@link TensorScope} opened and closed
 * around the call (what a loop body in a scope costs, the scope included). {@code threads} is the
 * number of threads ufunc4j may split a large op across; 0 leaves the runtime's own (a tuning
 * profile's choice, {@code -Dufunc4j.tuning}, else the processors: the side-by-side runner's
 * tuned column).
 *
 * <p>The backward case ({@code add_backward}): {@code c = a + b} is recorded once, with both
 * operands requiring grad, and each call is {@code c.backward(g)}; {@code out} accumulates into
 * the leaves' existing {@code grad()}s, {@code fresh} clears them first, so the call allocates
 * them (PyTorch: {@code retain_graph=True}, and {@code a.grad = None} for fresh).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class OpsBench {
  @Param({"add_16M"})
  public String caseId;

  @Param({"out", "fresh", "scope"})
  public String mode;

  @Param({"1", "2"})
  public int threads;

  private BenchCase bench;
  private Tensor a;
  private Tensor b;
  private double scalar;
  private Tensor out;
  /** The add_at case's row indices. */
  private Tensor indices;
  private boolean fresh;
  /** The backward case's recorded result and its incoming gradient. */
  private Tensor c;
  private Tensor g;
  private boolean scoped;

  @Setup(Level.Trial)
  public void setUp() {
    bench = BenchCase.byId(caseId);
    if (threads > 0) {
      Parallel.setThreads(threads);
    }
    a = operand(bench.a(), 1);
    if (bench.op().equals("log")) {
      a = Ops.abs(a); // the logarithm of data it is defined on (peers.py takes |a| too)
    }
    b = bench.b() == null ? null : operand(bench.b(), 2);
    scalar = bench.scalar() == null ? Double.NaN : bench.scalar();
    fresh = mode.equals("fresh");
    scoped = mode.equals("scope");
    if (!fresh && !scoped && !mode.equals("out")) {
      throw new IllegalArgumentException("mode must be out, fresh or scope, got " + mode);
    }
    if (bench.op().equals("add_at")) {
      // Rows of b added at random (so repeated) rows of a, as torch's index_add_ in peers.py.
      java.util.Random random = new java.util.Random(3);
      long[] rows = new long[(int) bench.b().shape()[0]];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = random.nextLong(bench.a().shape()[0]);
      }
      indices = Tensor.of(rows);
    }
    if (bench.op().equals("add_backward")) {
      c = Ops.add(a.requiresGrad(true), b.requiresGrad(true));
      g = Tensor.randn(3, c.dtype(), c.shape());
    }
    long jitDeadline = System.nanoTime() + (bench.minimumBytes() < SMALL_BYTES ? JIT_WARM_NANOS : 0);
    out = call(null);
    if (fresh) {
      warmAllocator();
    }
    warmJit(jitDeadline);
  }

  /**
   * Calls as {@link #run} does until {@code deadline} (2 s after the trial's start for small
   * cases, whose time is the call path's code; none for the others) before JMH's own warm-up (2 × 150 ms in the side-by-side run), so that the cases are
   * measured once C2 has compiled the call path, not while it compiles it: on this 2-core
   * machine, shared with other builds, {@code tiny_4x4} in a scope took 10 µs per call in the
   * first 150 ms, 1–2 µs for the next second and 0.4–0.5 µs from then on. No collection is
   * excluded: the fresh mode's collections still come at their rate during the measurement.
   */
  private void warmJit(long deadline) {
    while (System.nanoTime() < deadline) {
      run();
    }
  }

  /** The JIT warm-up of {@link #warmJit} for small cases (about 60 forks of a 2-round run). */
  private static final long JIT_WARM_NANOS = 2_000_000_000L;

  /**
   * Cases that move fewer bytes than this are small: their time is per-call code and the JIT's
   * work, not memory. 4 MiB since the mid-size compute-bound cases (silu_128K, silu_256K,
   * tanh_128K: 1–2 MiB): with JMH's warm-up alone, their first measured iterations took 6–60 ms
   * per call instead of 0.05–0.1 (C2 not done with the kernel and, when it splits, the team's
   * box loop), in the default and the tuned runs alike.
   */
  private static final long SMALL_BYTES = 4L << 20;

  /**
   * Fresh results reuse freed blocks once a collection has returned some to {@code
   * NativeMemory}'s pools; until then each one is fresh memory that costs a page fault per page
   * (per huge page for mapped blocks). The pools also run dry again each time the collector grows
   * the young generation, since a collection cycle then hands out more than the last one returned,
   * and while the pools grow to the collection cycle's length (docs/runtime.md, "Dry pools"). A
   * long-running program is past all three, so the trial starts there too: call until the young
   * generation has kept its size and no block has come from fresh memory over {@link
   * #STABLE_COLLECTIONS} collections (at most {@link #WARM_NANOS}), before JMH's own warm-up.
   * Every collection during the measurement still counts.
   */
  private void warmAllocator() {
    long deadline = System.nanoTime() + WARM_NANOS;
    MemoryPoolMXBean eden = edenPool();
    long capacity = -1;
    long freshBlocks = -1;
    long stableSince = collections();
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < 16; i++) {
        call(null);
      }
      long now = eden == null ? 0 : eden.getUsage().getCommitted();
      long fresh = NativeMemory.freshBlocks();
      if (now != capacity || fresh != freshBlocks) {
        capacity = now;
        freshBlocks = fresh;
        stableSince = collections();
      } else if (collections() - stableSince >= STABLE_COLLECTIONS) {
        return;
      }
    }
  }

  /** Collections over which the young generation must keep its size before measuring. */
  private static final int STABLE_COLLECTIONS = 3;

  /** The longest allocator warm-up per trial. */
  private static final long WARM_NANOS = 3_000_000_000L;

  /** The heap's young-generation allocation space (eden), or null when the collector has none. */
  private static MemoryPoolMXBean edenPool() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getName().contains("Eden")) {
        return p;
      }
    }
    return null;
  }

  /** Collections of every collector so far. */
  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    Parallel.setThreads(Runtime.getRuntime().availableProcessors());
  }

  private static Tensor operand(BenchCase.Operand spec, long seed) {
    DType dtype = DType.fromName(spec.dtype());
    long[] shape = spec.shape();
    if (spec.transpose()) {
      shape = new long[] {shape[1], shape[0]};
    }
    Tensor t;
    if (dtype.isIntegral(true)) {
      // The same values as before randint refused ranges wider than the dtype: int64, converted.
      t = Tensor.randint(seed, dtype == DType.UINT8 ? 0 : -100, 100, DType.INT64, shape).to(dtype);
    } else if (dtype.isComplex()) {
      // (re, im) pairs from a float64 normal sample, converted to the complex dtype.
      long n = 1;
      for (long d : shape) {
        n *= d;
      }
      double[] parts = Tensor.randn(seed, DType.FLOAT64, 2 * n).toDoubleArray();
      t = Tensor.ofComplex(parts, dtype, shape);
    } else {
      t = Tensor.randn(seed, DType.FLOAT32, shape).to(dtype);
    }
    return spec.transpose() ? t.t() : t;
  }

  private Tensor call(Tensor target) {
    return switch (bench.op()) {
      case "add" ->
          b == null
              ? (target == null ? Ops.add(a, scalar) : Ops.add(a, scalar, 1L, target))
              : (target == null ? Ops.add(a, b) : Ops.add(a, b, 1L, target));
      case "mul" -> target == null ? Ops.mul(a, b) : Ops.mul(a, b, target);
      case "lt" -> target == null ? Ops.lt(a, b) : Ops.lt(a, b, target);
      case "silu" -> target == null ? ActivationsOps.silu(a) : ActivationsOps.silu(a, target);
      case "tanh" -> target == null ? Ops.tanh(a) : Ops.tanh(a, target);
      case "exp" -> target == null ? Ops.exp(a) : Ops.exp(a, target);
      case "sigmoid" -> target == null ? Ops.sigmoid(a) : Ops.sigmoid(a, target);
      case "log" -> target == null ? Ops.log(a) : Ops.log(a, target);
      case "sin" -> target == null ? Ops.sin(a) : Ops.sin(a, target);
      case "cos" -> target == null ? Ops.cos(a) : Ops.cos(a, target);
      case "erf" -> target == null ? Ops.erf(a) : Ops.erf(a, target);
      // A user's two-operand transcendental op (generated-samples' Reducers.logAddExp).
      case "logaddexp" ->
          target == null ? ReducerOps.logAddExp(a, b) : ReducerOps.logAddExp(a, b, target);
      case "sum" -> target == null ? Ops.sum(a, bench.dims()) : Ops.sum(a, bench.dims(), false, target);
      case "add_reduce" -> Ops.add.reduce(a, bench.dims(), false, target);
      case "maximum_reduce" -> Ops.maximum.reduce(a, bench.dims(), false, target);
      case "logaddexp_reduce" -> ReducerOps.logAddExp.reduce(a, bench.dims(), false, target);
      case "cumsum" -> target == null ? a.cumsum(bench.dims()[0])
          : Ops.add.accumulate(a, bench.dims()[0], target);
      case "add_outer" -> target == null ? Ops.add.outer(a, b) : Ops.add.outer(a, b, target);
      case "add_at" -> {
        Ops.add.at(a, indices, b);
        yield a;
      }
      case "add_backward" -> backward(target == null);
      default -> throw new IllegalArgumentException("case " + bench.id() + ": unknown op " + bench.op());
    };
  }

  /** {@code c.backward(g)}; the leaves' gradients cleared first when {@code clear}. */
  private Tensor backward(boolean clear) {
    if (clear) {
      a.setGrad(null);
      b.setGrad(null);
    }
    c.backward(g);
    return a.grad();
  }

  @Benchmark
  public Tensor run() {
    if (scoped) {
      try (var _ = TensorScope.open()) {
        return call(null); // JMH only sinks the reference: nothing reads it after the close
      }
    }
    return call(fresh ? null : out);
  }
}
