package dev.ufunc4j.kernel.reduce;

import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.memory.ScopeMemory;
import dev.ufunc4j.kernel.FoldKernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The order of every reduction over any subset of a strided array's dimensions, and of the scans
 * and left folds of {@code BinaryUfunc}: the caller ({@code dev.ufunc4j.Reductions}, {@code
 * BinaryUfunc}) has already chosen the dtype to accumulate in and converted the input to it.
 * Floating elements are combined only by the op's generated fold and scan loops ({@link
 * FoldKernel}: {@code sum} is {@code add}'s, {@code amax} {@code maximum}'s), called with whole
 * leaves and rows; 64-bit integers by the scalar loops here.
 *
 * <p>Two strategies, as PyTorch's and NumPy's reductions have (docs/reductions.md):
 *
 * <ul>
 *   <li><b>inner</b>: the dimension nearest in memory is reduced (a row sum, or everything). Each
 *       output element reduces its region as contiguous runs (vector loads, {@link
 *       #SUM_LANES_F} element accumulators per leaf of {@link #LEAF} elements, leaves combined
 *       pairwise), and the runs' results are combined pairwise;
 *   <li><b>outer</b>: the dimension nearest in memory is kept (a column sum: reducing dimension 0
 *       of a row-major matrix). The kept dimension is vectorised: whole rows are added into a row
 *       buffer, rows combined pairwise, in column blocks that stay in cache. Nothing is transposed.
 * </ul>
 *
 * <p>Every floating sum follows a fixed pairwise tree over the input's own order, specified in
 * elements (docs/reductions.md), so its error grows like {@code log n} and its bits depend
 * neither on the thread count, nor on the JIT tier (no {@code reduceLanes}, whose order the
 * Vector API leaves open), nor on the vector width. Work above the grain is split along that same
 * tree or across independent output elements.
 */
public final class ReduceLoops {
  /**
   * What a reduction combines with: for 64-bit integers the loop here; for floating kinds the
   * {@link FoldKernel} given, and this only says how a result is stored ({@link #stored}).
   */
  public enum Op {
    SUM,
    MAX,
    MIN,
    /** Any other op: floating kinds only. */
    FOLD
  }

  /**
   * The element type of the input and output segments: float32, float64, or 64-bit integers
   * (signed, or unsigned for {@code amax}/{@code amin} of uint64).
   */
  public enum Kind {
    F32(4),
    F64(8),
    I64(8),
    U64(8);

    final int bytes;

    Kind(int bytes) {
      this.bytes = bytes;
    }
  }

  private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

  /**
   * Elements of one leaf of a contiguous run: summed by {@link #SUM_LANES_F} accumulators. Public
   * for the autograd, which replays the tree ({@code UfuncGrad}).
   */
  public static final int LEAF = 2048;

  /**
   * The accumulators of a contiguous float32 sum leaf, in elements, whatever the vector width
   * (docs/reductions.md): 256 bytes, four 512-bit vectors (enough independent adds to keep
   * AVX-512 busy), eight AVX2 vectors, sixteen 128-bit ones. The sum's bits depend on this number
   * and on nothing about the machine.
   */
  static final int SUM_LANES_F = 64;

  /** {@link #SUM_LANES_F} for float64: the same 256 bytes. */
  static final int SUM_LANES_D = 32;

  /** {@return the accumulators of a contiguous leaf of {@code kind}: 64 float32, 32 float64} */
  public static int leafLanes(Kind kind) {
    return kind == Kind.F32 ? SUM_LANES_F : SUM_LANES_D;
  }

  /** Rows one leaf of the outer strategy adds sequentially before pairing. */
  private static final int ROW_LEAF = 8;

  /** Columns per block in the outer strategy: a row buffer stays in the L1 cache. */
  private static final int COLUMN_BLOCK = 1024;

  /** Per thread: native scratch for a leaf's accumulators and partial results. */
  private static final ThreadLocal<MemorySegment> SCRATCH =
      ThreadLocal.withInitial(() -> MemorySegment.NULL);

  private ReduceLoops() {}

  /** This thread's scratch of at least {@code bytes} (native, so the fold loops see one kind). */
  static MemorySegment scratch(long bytes) {
    MemorySegment s = SCRATCH.get();
    if (s.byteSize() < bytes) {
      s = Arena.ofAuto().allocate(Math.max(bytes, 512), 64);
      SCRATCH.set(s);
    }
    return s;
  }

  /**
   * The scan of a C-contiguous {@code [outer, n, inner]} array ({@code in}, from element {@code
   * inOffset}) along its middle dim into the C-contiguous {@code out} of the same shape: {@code
   * out[o, 0, :] = in[o, 0, :]}, {@code out[o, i, :] = op(out[o, i - 1, :], in[o, i, :])}, in
   * order along {@code n} (docs/ufuncs.md). Parallel across {@code outer} and blocks of columns,
   * which are independent.
   */
  public static void scan(FoldKernel scan, Kind kind, MemorySegment in, long inOffset,
      long outer, long n, long inner, MemorySegment out) {
    MemorySegment src = ScopeMemory.shareable(in);
    MemorySegment dst = ScopeMemory.shareable(out);
    long blocks = (inner + COLUMN_BLOCK - 1) / COLUMN_BLOCK;
    Parallel.RangeTask task = (from, to) -> {
      for (long t = from; t < to; t++) {
        long o = t / blocks;
        long j = (t % blocks) * COLUMN_BLOCK;
        int width = (int) Math.min(COLUMN_BLOCK, inner - j);
        long at = o * n * inner + j;
        scan.scan(src, inOffset + at, inner, dst, at, inner, n, width);
      }
    };
    runTasks(outer * blocks, outer * n * inner, task);
  }

  /**
   * The strict left fold of a C-contiguous {@code [outer, n, inner]} array along its middle dim
   * ({@code n >= 1}) into the C-contiguous {@code [outer, inner]} {@code out}: {@code op(op(x0,
   * x1), x2) ...}, the order a reduction of an op that is not associative must keep.
   */
  public static void leftFold(FoldKernel fold, Kind kind, MemorySegment in, long inOffset,
      long outer, long n, long inner, MemorySegment out) {
    MemorySegment src = ScopeMemory.shareable(in);
    MemorySegment dst = ScopeMemory.shareable(out);
    long blocks = (inner + COLUMN_BLOCK - 1) / COLUMN_BLOCK;
    Parallel.RangeTask task = (from, to) -> {
      for (long t = from; t < to; t++) {
        long o = t / blocks;
        long j = (t % blocks) * COLUMN_BLOCK;
        int width = (int) Math.min(COLUMN_BLOCK, inner - j);
        long at = inOffset + o * n * inner + j;
        MemorySegment.copy(src, at * kind.bytes, dst, (o * inner + j) * kind.bytes,
            (long) width * kind.bytes);
        fold.fold(dst, o * inner + j, src, at + inner, inner, n - 1, width);
      }
    };
    runTasks(outer * blocks, outer * n * inner, task);
  }

  /** {@code tasks} independent tasks over {@code work} elements, on the pool above the grain. */
  private static void runTasks(long tasks, long work, Parallel.RangeTask task) {
    int threads = Parallel.threads();
    if (threads > 1 && tasks >= 2 && work >= 2 * Parallel.grainSize()) {
      Parallel.forEachShare(threads, tasks, task);
    } else {
      task.run(0, tasks);
    }
  }

  /**
   * Reduces the strided array ({@code in}, element {@code inOffset}, {@code shape}, {@code
   * strides}, elements of {@code kind}) over the dimensions flagged in {@code reduce}, writing one
   * element per combination of the kept dimensions into {@code out}: C-contiguous over the kept
   * dimensions in their order. A reduced region that is empty gives 0 for {@link Op#SUM}; the
   * caller refuses it for the others.
   *
   * @param fold the op's fold loop, required for {@link Kind#F32} and {@link Kind#F64}
   */
  public static void reduce(
      Op op,
      FoldKernel fold,
      Kind kind,
      MemorySegment in,
      long inOffset,
      long[] shape,
      long[] strides,
      boolean[] reduce,
      MemorySegment out) {
    List<long[]> kept = new ArrayList<>(); // {size, inStride, outStride}
    List<long[]> reduced = new ArrayList<>(); // {size, inStride}
    long outputs = 1;
    long region = 1;
    for (int d = 0; d < shape.length; d++) {
      if (reduce[d]) {
        region *= shape[d];
      } else {
        outputs *= shape[d];
      }
    }
    if (outputs == 0) {
      return;
    }
    if (region == 0) {
      out.asSlice(0, outputs * kind.bytes).fill((byte) 0); // 0 is +0.0 and 0L alike
      return;
    }
    long outStride = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      if (!reduce[d]) {
        if (shape[d] != 1) {
          kept.add(0, new long[] {shape[d], strides[d], outStride});
        }
        outStride *= shape[d];
      } else if (shape[d] != 1) {
        reduced.add(new long[] {shape[d], strides[d]});
      }
    }
    // Reduced dimensions outermost first by stride, merged where they are one run.
    reduced.sort((a, b) -> Long.compare(Math.abs(b[1]), Math.abs(a[1])));
    List<long[]> runs = new ArrayList<>();
    for (long[] r : reduced) {
      if (!runs.isEmpty()) {
        long[] last = runs.get(runs.size() - 1);
        if (last[1] == r[1] * r[0]) {
          last[0] *= r[0];
          last[1] = r[1];
          continue;
        }
      }
      runs.add(r.clone());
    }
    if (runs.isEmpty()) {
      runs.add(new long[] {1, 1});
    }
    // The pool's threads may compute shares: a TensorScope's confined segments reach them as
    // unconfined views (refused here for a closed scope or another thread's).
    // Plan indexes the input from its first element: start the segment at the view's offset.
    MemorySegment first = ScopeMemory.shareable(in).asSlice(inOffset * kind.bytes);
    if ((kind == Kind.F32 || kind == Kind.F64) == (fold == null)) {
      throw new IllegalArgumentException("a fold loop for floating kinds only, got " + kind);
    }
    Plan plan = new Plan(op, fold, kind, first, ScopeMemory.shareable(out), kept, runs);
    int innerKept = plan.innermostKept();
    if (innerKept < 0) {
      plan.runInner();
    } else {
      plan.runOuter(innerKept);
    }
  }

  /** One reduction call: the geometry, and the two strategies over it. */
  private static final class Plan {
    final Op op;
    final FoldKernel fold;
    final Kind kind;
    final MemorySegment in;
    final MemorySegment out;
    /** Kept dimensions {size, inStride, outStride}, outermost first. */
    final long[][] kept;
    /** Row dimensions of the reduced region {size, inStride}, outermost first. */
    final long[][] rowDims;
    final long runLength;
    final long runStride;
    final long rows;

    Plan(Op op, FoldKernel fold, Kind kind, MemorySegment in, MemorySegment out,
        List<long[]> kept, List<long[]> runs) {
      this.op = op;
      this.fold = fold;
      this.kind = kind;
      this.in = in;
      this.out = out;
      this.kept = kept.toArray(new long[0][]);
      long[] run = runs.get(runs.size() - 1);
      this.runLength = run[0];
      this.runStride = run[1];
      this.rowDims = runs.subList(0, runs.size() - 1).toArray(new long[0][]);
      long r = 1;
      for (long[] d : rowDims) {
        r *= d[0];
      }
      this.rows = r;
    }

    long outputs() {
      long n = 1;
      for (long[] k : kept) {
        n *= k[0];
      }
      return n;
    }

    /**
     * The kept dimension nearest in memory when it is nearer than every reduced one (the outer
     * strategy vectorises it), else -1 (the inner strategy).
     */
    int innermostKept() {
      long nearestReduced = Math.abs(runStride);
      for (long[] r : rowDims) {
        nearestReduced = Math.min(nearestReduced, Math.abs(r[1]));
      }
      int best = -1;
      long bestStride = Long.MAX_VALUE;
      for (int k = 0; k < kept.length; k++) {
        long s = Math.abs(kept[k][1]);
        if (s < bestStride) {
          bestStride = s;
          best = k;
        }
      }
      if (best < 0 || runLength * rows == 1) {
        return best;
      }
      return bestStride < nearestReduced ? best : -1;
    }

    /** Input and output offsets of kept position {@code p} (row-major over {@link #kept}). */
    long keptInOffset(long p, long[] outOffset, int skip) {
      long inOff = 0;
      long outOff = 0;
      for (int k = kept.length - 1; k >= 0; k--) {
        if (k == skip) {
          continue;
        }
        long size = kept[k][0];
        long i = p % size;
        p /= size;
        inOff += i * kept[k][1];
        outOff += i * kept[k][2];
      }
      outOffset[0] = outOff;
      return inOff;
    }

    long rowOffset(long row) {
      long off = 0;
      for (int d = rowDims.length - 1; d >= 0; d--) {
        long size = rowDims[d][0];
        off += (row % size) * rowDims[d][1];
        row /= size;
      }
      return off;
    }

    // ---- inner strategy ---------------------------------------------------------------------

    void runInner() {
      long outputs = outputs();
      long work = outputs * rows * runLength;
      int threads = Parallel.threads();
      if (threads > 1 && work >= 2 * Parallel.grainSize() && outputs >= threads) {
        Parallel.forEachShare(
            threads,
            outputs,
            (from, to) -> {
              long[] outOff = new long[1];
              for (long p = from; p < to; p++) {
                long base = keptInOffset(p, outOff, -1);
                store(outOff[0], region(base, 0, rows, 0));
              }
            });
        return;
      }
      long[] outOff = new long[1];
      int splitDepth =
          threads > 1 && work >= 2 * Parallel.grainSize() ? 32 - Integer.numberOfLeadingZeros(threads - 1) : 0;
      for (long p = 0; p < outputs; p++) {
        long base = keptInOffset(p, outOff, -1);
        store(outOff[0], region(base, 0, rows, splitDepth));
      }
    }

    /**
     * The reduction of rows {@code [lo, hi)} of the region at {@code base}, paired in halves;
     * the top {@code parallelDepth} levels of the tree run their halves on two threads (the tree,
     * and so the bits, are the same either way).
     */
    double region(long base, long lo, long hi, int parallelDepth) {
      if (hi - lo == 1) {
        return run(base + rowOffset(lo), runLength, parallelDepth);
      }
      long mid = lo + (hi - lo) / 2;
      if (parallelDepth > 0) {
        double[] halves = Parallel.both(
            () -> region(base, lo, mid, parallelDepth - 1),
            () -> region(base, mid, hi, parallelDepth - 1));
        return combine(halves[0], halves[1]);
      }
      return combine(region(base, lo, mid, 0), region(base, mid, hi, 0));
    }

    /** One run of {@code n} elements from {@code off}, stride {@link #runStride}. */
    double run(long off, long n, int parallelDepth) {
      if (n > LEAF) {
        // Split at a whole number of leaves: the tree does not depend on who computes it.
        long mid = Math.max(1, (n / LEAF) / 2) * LEAF;
        if (parallelDepth > 0) {
          double[] halves = Parallel.both(
              () -> run(off, mid, parallelDepth - 1),
              () -> run(off + mid * runStride, n - mid, parallelDepth - 1));
          return combine(halves[0], halves[1]);
        }
        return combine(run(off, mid, 0), run(off + mid * runStride, n - mid, 0));
      }
      return switch (kind) {
        case F32, F64 -> runStride == 1 ? foldLeaf(off, (int) n) : foldStrided(off, n, runStride);
        case I64, U64 -> Double.longBitsToDouble(stridedLeafL(off, n, runStride));
      };
    }

    /** Two partial results combined; 64-bit integers travel as their bits in a double. */
    double combine(double a, double b) {
      return switch (kind) {
        case F32, F64 -> foldPair(a, b);
        case I64, U64 -> Double.longBitsToDouble(
            combineLong(op, kind, Double.doubleToRawLongBits(a), Double.doubleToRawLongBits(b)));
      };
    }

    void store(long outIndex, double value) {
      switch (kind) {
        case F32 -> out.setAtIndex(FLOAT, outIndex, stored(op, (float) value));
        case F64 -> out.setAtIndex(DOUBLE, outIndex, stored(op, value));
        case I64, U64 -> out.setAtIndex(LONG, outIndex, Double.doubleToRawLongBits(value));
      }
    }

    // Floating leaves: the op's generated fold loop (FoldKernel) over native scratch.

    /**
     * A contiguous leaf of {@code n} elements by the tree docs/reductions.md specifies in
     * elements: {@code K} accumulators ({@link #SUM_LANES_F}, {@link #SUM_LANES_D}), element
     * {@code i} into accumulator {@code i mod K} in order, then the accumulators folded in halves.
     * They start as the first {@code min(n, K)} elements rather than at the op's identity (a
     * user's associative op may have none), and the halves skip accumulators no element reached:
     * for {@code sum} this differs from starting at +0.0 only in the sign of a zero, which the
     * store makes +0.0 ({@link #stored}).
     */
    double foldLeaf(long off, int n) {
      int k = leafLanes(kind);
      MemorySegment acc = scratch(2L * k * kind.bytes);
      // The generated leaf keeps the accumulators in registers (sum_16M was 3x slower through
      // the calls below); a kernel without one, or a leaf shorter than k, takes the calls.
      if (n >= k && fold.leaf(in, off, n, k, acc)) {
        return get(acc, 0);
      }
      int valid = Math.min(n, k);
      MemorySegment.copy(in, off * kind.bytes, acc, 0, (long) valid * kind.bytes);
      int blocks = n / k;
      if (blocks > 1) {
        fold.fold(acc, 0, in, off + k, k, blocks - 1, k);
      }
      int tail = n - blocks * k;
      if (blocks > 0 && tail > 0) {
        fold.fold(acc, 0, in, off + (long) blocks * k, 0, 1, tail);
      }
      for (int h = k / 2; h >= 1; h /= 2) {
        if (valid > h) {
          fold.fold(acc, 0, acc, h, 0, 1, valid - h);
          valid = h;
        }
      }
      return get(acc, 0);
    }

    /** A strided floating leaf (at most {@link #LEAF} elements): in sequence, {@code x0 op x1 ...}. */
    double foldStrided(long off, long n, long stride) {
      MemorySegment acc = scratch(kind.bytes);
      MemorySegment.copy(in, off * kind.bytes, acc, 0, kind.bytes);
      fold.fold(acc, 0, in, off + stride, stride, n - 1, 1);
      return get(acc, 0);
    }

    /** {@code op(a, b)} of two partial results, by the op's generated pair step. */
    double foldPair(double a, double b) {
      return fold.pair(a, b);
    }

    double get(MemorySegment seg, long index) {
      return kind == Kind.F32 ? seg.getAtIndex(FLOAT, index) : seg.getAtIndex(DOUBLE, index);
    }

    /** A 64-bit integer leaf: any order gives the same (wrapping) result. */
    long stridedLeafL(long off, long n, long stride) {
      long acc = in.getAtIndex(LONG, off);
      if (op == Op.SUM && stride == 1) {
        for (long i = 1; i < n; i++) {
          acc += in.getAtIndex(LONG, off + i);
        }
        return acc;
      }
      for (long i = 1; i < n; i++) {
        acc = combineLong(op, kind, acc, in.getAtIndex(LONG, off + i * stride));
      }
      return acc;
    }

    // ---- outer strategy ---------------------------------------------------------------------

    void runOuter(int c) {
      long columns = kept[c][0];
      long colIn = kept[c][1];
      long colOut = kept[c][2];
      long positions = outputs() / columns;
      long blocks = (columns + COLUMN_BLOCK - 1) / COLUMN_BLOCK;
      long tasks = positions * blocks;
      long work = outputs() * rows * runLength;
      int threads = Parallel.threads();
      Parallel.RangeTask body =
          (from, to) -> {
            Buffers buffers = new Buffers(kind, fold, (int) Math.min(COLUMN_BLOCK, columns));
            long[] outOff = new long[1];
            for (long t = from; t < to; t++) {
              long p = t / blocks;
              long j0 = (t % blocks) * COLUMN_BLOCK;
              int width = (int) Math.min(COLUMN_BLOCK, columns - j0);
              long base = keptInOffset(p, outOff, c) + j0 * colIn;
              rowsInto(buffers, 0, base, colIn, width, 0, rows * runLength);
              buffers.storeTo(op, 0, out, outOff[0] + j0 * colOut, colOut, width);
            }
          };
      if (threads > 1 && work >= 2 * Parallel.grainSize() && tasks >= 2) {
        Parallel.forEachShare(threads, tasks, body);
      } else {
        body.run(0, tasks);
      }
    }

    /** Offset of reduced element {@code r} (rows × run, row-major) from a region's base. */
    long reducedOffset(long r) {
      return rowOffset(r / runLength) + (r % runLength) * runStride;
    }

    /**
     * Reduces reduced elements {@code [lo, hi)} of {@code width} columns from {@code base} into
     * buffer level {@code level}: up to {@link #ROW_LEAF} rows in order, more paired in halves.
     */
    void rowsInto(Buffers b, int level, long base, long colIn, int width, long lo, long hi) {
      if (hi - lo <= ROW_LEAF) {
        b.load(level, in, base + reducedOffset(lo), colIn, width);
        if (rowDims.length == 0) {
          // One run: the rows are evenly spaced, one call folds them all.
          b.accumulate(op, level, in, base + reducedOffset(lo + 1), runStride, hi - lo - 1, colIn,
              width);
          return;
        }
        for (long r = lo + 1; r < hi; r++) {
          b.accumulate(op, level, in, base + reducedOffset(r), 0, 1, colIn, width);
        }
        return;
      }
      long mid = lo + (hi - lo) / 2;
      rowsInto(b, level, base, colIn, width, lo, mid);
      rowsInto(b, level + 1, base, colIn, width, mid, hi);
      b.combine(op, level, level + 1, width);
    }
  }

  /**
   * Row buffers of the outer strategy, one per pairing level: 64-bit integers in {@code long[]}
   * rows, floating kinds in native scratch that the op's fold loop works on (a strided row is
   * gathered into a scratch row first, as the loop takes contiguous columns).
   */
  private static final class Buffers {
    final Kind kind;
    final FoldKernel fold;
    final int width;
    final List<long[]> l = new ArrayList<>();
    /** Floating rows: level {@code v} at element {@code v * width}; the gather row first. */
    MemorySegment rows;

    Buffers(Kind kind, FoldKernel fold, int width) {
      this.kind = kind;
      this.fold = fold;
      this.width = width;
      this.rows = MemorySegment.NULL;
    }

    long[] l(int level) {
      while (l.size() <= level) {
        l.add(new long[width]);
      }
      return l.get(level);
    }

    /** The element offset of floating level {@code level} in {@link #rows}. */
    long at(int level) {
      long need = (long) (level + 2) * width * kind.bytes;
      if (rows.byteSize() < need) {
        MemorySegment grown = Arena.ofAuto().allocate(2 * need, 64);
        MemorySegment.copy(rows, 0, grown, 0, rows.byteSize());
        rows = grown;
      }
      return (long) (level + 1) * width;
    }

    void load(int level, MemorySegment in, long off, long stride, int n) {
      if (kind == Kind.I64 || kind == Kind.U64) {
        long[] b = l(level);
        for (int j = 0; j < n; j++) {
          b[j] = in.getAtIndex(LONG, off + j * stride);
        }
        return;
      }
      long at = at(level);
      if (stride == 1) {
        MemorySegment.copy(in, off * kind.bytes, rows, at * kind.bytes, (long) n * kind.bytes);
      } else {
        gather(in, off, stride, n, at);
      }
    }

    /** {@code n} strided elements into {@link #rows} from element {@code at}. */
    private void gather(MemorySegment in, long off, long stride, int n, long at) {
      for (int j = 0; j < n; j++) {
        if (kind == Kind.F32) {
          rows.setAtIndex(FLOAT, at + j, in.getAtIndex(FLOAT, off + j * stride));
        } else {
          rows.setAtIndex(DOUBLE, at + j, in.getAtIndex(DOUBLE, off + j * stride));
        }
      }
    }

    /**
     * Folds {@code count} input rows into level {@code level}: the rows at {@code off + r *
     * rowStride}, in order.
     */
    void accumulate(Op op, int level, MemorySegment in, long off, long rowStride, long count,
        long stride, int n) {
      if (kind == Kind.I64 || kind == Kind.U64) {
        long[] b = l(level);
        for (long r = 0; r < count; r++) {
          for (int j = 0; j < n; j++) {
            b[j] = combineLong(op, kind, b[j], in.getAtIndex(LONG, off + r * rowStride + j * stride));
          }
        }
        return;
      }
      long at = at(level);
      if (stride == 1) {
        fold.fold(rows, at, in, off, rowStride, count, n);
        return;
      }
      for (long r = 0; r < count; r++) {
        gather(in, off + r * rowStride, stride, n, 0);
        fold.fold(rows, at, rows, 0, 0, 1, n);
      }
    }

    void combine(Op op, int into, int from, int n) {
      if (kind == Kind.I64 || kind == Kind.U64) {
        long[] a = l(into);
        long[] b = l(from);
        for (int j = 0; j < n; j++) {
          a[j] = combineLong(op, kind, a[j], b[j]);
        }
        return;
      }
      long to = at(into);
      fold.fold(rows, to, rows, at(from), 0, 1, n);
    }

    void storeTo(Op op, int level, MemorySegment out, long off, long stride, int n) {
      switch (kind) {
        case F32 -> {
          long at = at(level);
          for (int j = 0; j < n; j++) {
            out.setAtIndex(FLOAT, off + j * stride, stored(op, rows.getAtIndex(FLOAT, at + j)));
          }
        }
        case F64 -> {
          long at = at(level);
          for (int j = 0; j < n; j++) {
            out.setAtIndex(DOUBLE, off + j * stride, stored(op, rows.getAtIndex(DOUBLE, at + j)));
          }
        }
        case I64, U64 -> {
          long[] b = l(level);
          for (int j = 0; j < n; j++) {
            out.setAtIndex(LONG, off + j * stride, b[j]);
          }
        }
      }
    }
  }

  private static long combineLong(Op op, Kind kind, long a, long b) {
    return switch (op) {
      case SUM -> a + b;
      case MAX -> (kind == Kind.U64 ? Long.compareUnsigned(a, b) >= 0 : a >= b) ? a : b;
      case MIN -> (kind == Kind.U64 ? Long.compareUnsigned(a, b) <= 0 : a <= b) ? a : b;
      case FOLD -> throw new IllegalArgumentException("integer reductions are SUM, MAX or MIN");
    };
  }

  /**
   * A result as stored: {@link #canonicalNaN}, and a sum's -0.0 as +0.0: PyTorch and NumPy start
   * every sum at +0.0, so a sum of -0.0 elements is +0.0, where a one-element column sum or an
   * all--0.0 strided leaf would otherwise pass the element's -0.0 on.
   */
  static float stored(Op op, float v) {
    return canonicalNaN(op == Op.SUM ? v + 0.0f : v);
  }

  static double stored(Op op, double v) {
    return canonicalNaN(op == Op.SUM ? v + 0.0 : v);
  }

  /**
   * A floating result as stored: NaN as the canonical NaN. Which NaN input's payload an addition
   * (or max, min) passes on is the hardware's and the JIT's choice (C2 may swap the operands of a
   * commutative add), so only the canonical NaN is the same on every machine.
   */
  private static float canonicalNaN(float v) {
    return v != v ? Float.NaN : v;
  }

  private static double canonicalNaN(double v) {
    return v != v ? Double.NaN : v;
  }

}
