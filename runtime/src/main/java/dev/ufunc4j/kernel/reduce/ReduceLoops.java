package dev.ufunc4j.kernel.reduce;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.ScopeMemory;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.kernel.FoldKernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The order of every reduction over any subset of a strided array's dimensions, and of the scans
 * and left folds of {@code BinaryUfunc}: the caller ({@code dev.ufunc4j.Reductions}, {@code
 * BinaryUfunc}) has already chosen the dtype to accumulate in and converted the input to it.
 * Elements of every kind are combined only by the op's generated fold and scan loops ({@link
 * FoldKernel}: {@code sum} is {@code add}'s, {@code amax} {@code maximum}'s of the dtype), called
 * with whole leaves and rows; this class holds only the order. Integer ops are exact, so for
 * integral kinds the tree only makes them fast.
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
   * Which reduction this is: the {@link FoldKernel} given combines; this only says how a floating
   * result is stored ({@link #stored}).
   */
  public enum Op {
    SUM,
    MAX,
    MIN,
    /** Any other op. */
    FOLD
  }

  /**
   * The element type of the input and output segments: float32, float64, or integers of 8 to 64
   * bits. Signedness is the fold kernel's business (uint8's {@code maximum} compares unsigned);
   * here an integral element is its bits, held in a long as Java widens the lane primitive.
   */
  public enum Kind {
    F32(4),
    F64(8),
    I8(1),
    I16(2),
    I32(4),
    I64(8);

    final int bytes;

    Kind(int bytes) {
      this.bytes = bytes;
    }

    boolean floating() {
      return this == F32 || this == F64;
    }

    /**
     * {@return the kind of a dtype's elements (a complex dtype's components)}
     *
     * @param dtype a floating, complex or integral dtype (not bool, not a 16-bit float)
     */
    public static Kind of(DType dtype) {
      return switch (dtype) {
        case FLOAT32, COMPLEX64 -> F32;
        case FLOAT64, COMPLEX128 -> F64;
        case INT8, UINT8 -> I8;
        case INT16, UINT16 -> I16;
        case INT32, UINT32 -> I32;
        case INT64, UINT64 -> I64;
        default -> throw new IllegalArgumentException("no reduction kind for " + dtype);
      };
    }
  }

  private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
  private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

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

  /**
   * {@return the accumulators of a contiguous leaf of {@code kind}: 256 bytes of them, 64 float32,
   * 32 float64 (an integral kind's take the same bytes: its result does not depend on them)}
   */
  public static int leafLanes(Kind kind) {
    return 256 / kind.bytes;
  }

  /**
   * Pieces per thread of a reduction split across threads: the caller and the workers claim them
   * as they come free (Parallel's team), so a worker that starts late, or a core another process
   * holds, costs at most a piece of waiting instead of half the work (docs/reductions.md, "How it
   * runs"). The elementwise ops take 16 per thread; a reduction's pieces are nodes of its tree.
   */
  static final int PIECES_PER_THREAD = 8;

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
   * inOffset}) along its middle dim into the C-contiguous {@code out} of the same shape (from
   * element {@code outOffset}: an {@code out=} target written in place): {@code out[o, 0, :] =
   * in[o, 0, :]}, {@code out[o, i, :] = op(out[o, i - 1, :], in[o, i, :])}, in order along {@code
   * n} (docs/ufuncs.md). Parallel across {@code outer} and blocks of columns, which are
   * independent.
   */
  public static void scan(FoldKernel scan, Kind kind, MemorySegment in, long inOffset,
      long outer, long n, long inner, MemorySegment out, long outOffset) {
    columnBlocks(in, out, outer, n, inner, (src, dst, o, j, width) -> {
      long at = o * n * inner + j;
      scan.scan(src, inOffset + at, inner, dst, outOffset + at, inner, n, width);
    });
  }

  /**
   * The strict left fold of a C-contiguous {@code [outer, n, inner]} array along its middle dim
   * ({@code n >= 1}) into the C-contiguous {@code [outer, inner]} {@code out}: {@code op(op(x0,
   * x1), x2) ...}, the order a reduction of an op that is not associative must keep.
   */
  public static void leftFold(FoldKernel fold, Kind kind, MemorySegment in, long inOffset,
      long outer, long n, long inner, MemorySegment out) {
    columnBlocks(in, out, outer, n, inner, (src, dst, o, j, width) -> {
      long at = inOffset + o * n * inner + j;
      MemorySegment.copy(src, at * kind.bytes, dst, (o * inner + j) * kind.bytes,
          (long) width * kind.bytes);
      fold.fold(dst, o * inner + j, src, at + inner, inner, n - 1, width);
    });
  }

  /** The work of one column block of {@link #columnBlocks}. */
  private interface BlockBody {
    /**
     * Columns {@code [j, j + width)} of outer index {@code o}.
     *
     * @param src the input, shareable with the pool's threads
     * @param dst the output, likewise
     */
    void run(MemorySegment src, MemorySegment dst, long o, long j, int width);
  }

  /**
   * Runs {@code body} on every block of at most {@link #COLUMN_BLOCK} columns of each of the
   * {@code outer} independent {@code [n, inner]} slabs (the scans and left folds: each column's
   * order is along {@code n}, so blocks of columns are independent), on the pool above the grain.
   */
  private static void columnBlocks(MemorySegment in, MemorySegment out, long outer, long n,
      long inner, BlockBody body) {
    MemorySegment src = ScopeMemory.shareable(in);
    MemorySegment dst = ScopeMemory.shareable(out);
    long blocks = (inner + COLUMN_BLOCK - 1) / COLUMN_BLOCK;
    Parallel.RangeTask task = (from, to) -> {
      for (long t = from; t < to; t++) {
        long j = (t % blocks) * COLUMN_BLOCK;
        body.run(src, dst, t / blocks, j, (int) Math.min(COLUMN_BLOCK, inner - j));
      }
    };
    long tasks = outer * blocks;
    int threads = Parallel.threads();
    if (threads > 1 && tasks >= 2 && outer * n * inner >= 2 * Parallel.grainSize()) {
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
   * @param fold the op's fold loop for this kind's elements
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
    Objects.requireNonNull(fold, "fold");
    Plan plan = new Plan(op, fold, kind, first, ScopeMemory.shareable(out), kept, runs);
    int innerKept = plan.innermostKept();
    if (innerKept < 0) {
      plan.runInner();
    } else {
      plan.runOuter(innerKept);
    }
  }

  /** An integral element's bits, as Java widens the lane primitive of {@code kind}. */
  private static long getBits(Kind kind, MemorySegment seg, long index) {
    return switch (kind) {
      case I8 -> seg.getAtIndex(BYTE, index);
      case I16 -> seg.getAtIndex(SHORT, index);
      case I32, F32 -> seg.getAtIndex(INT, index);
      case I64, F64 -> seg.getAtIndex(LONG, index);
    };
  }

  /** Stores the low {@code kind.bytes} bytes of {@code bits} as element {@code index}. */
  private static void setBits(Kind kind, MemorySegment seg, long index, long bits) {
    switch (kind) {
      case I8 -> seg.setAtIndex(BYTE, index, (byte) bits);
      case I16 -> seg.setAtIndex(SHORT, index, (short) bits);
      case I32, F32 -> seg.setAtIndex(INT, index, (int) bits);
      case I64, F64 -> seg.setAtIndex(LONG, index, bits);
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
      long pieces = (long) threads * PIECES_PER_THREAD;
      boolean split = threads > 1 && work >= 2 * Parallel.grainSize();
      if (split && outputs >= pieces) {
        // Many outputs: pieces of whole outputs.
        Parallel.forEachShare((int) pieces, outputs, (from, to) -> {
          long[] outOff = new long[1];
          for (long p = from; p < to; p++) {
            long base = keptInOffset(p, outOff, -1);
            store(outOff[0], region(base, 0, rows, 0, null));
          }
        });
        return;
      }
      long[] outOff = new long[1];
      if (!split) {
        for (long p = 0; p < outputs; p++) {
          long base = keptInOffset(p, outOff, -1);
          store(outOff[0], region(base, 0, rows, 0, null));
        }
        return;
      }
      // Few outputs (one, for sum()): every output's tree cut at the depth that gives the
      // pieces, all of them in one job, then each tree combined from its pieces in its order.
      int depth = 64 - Long.numberOfLeadingZeros((pieces + outputs - 1) / outputs - 1);
      Cut cut = new Cut();
      long[] bases = new long[(int) outputs];
      long[] outOffs = new long[(int) outputs];
      for (int p = 0; p < outputs; p++) {
        bases[p] = keptInOffset(p, outOff, -1);
        outOffs[p] = outOff[0];
        region(bases[p], 0, rows, depth, cut);
      }
      cut.compute();
      for (int p = 0; p < outputs; p++) {
        store(outOffs[p], region(bases[p], 0, rows, depth, cut));
      }
    }

    /**
     * The reduction of rows {@code [lo, hi)} of the region at {@code base}, paired in halves.
     * With a {@code cut}, the nodes {@code depth} levels down (or leaves above that) are its
     * pieces: collected on the cut's first pass, their results taken on its second (the tree,
     * and so the bits, are the same either way).
     */
    long region(long base, long lo, long hi, int depth, Cut cut) {
      if (cut != null && depth == 0) {
        return cut.piece(() -> region(base, lo, hi, 0, null));
      }
      if (hi - lo == 1) {
        return run(base + rowOffset(lo), runLength, depth, cut);
      }
      long mid = lo + (hi - lo) / 2;
      return combine(region(base, lo, mid, below(depth), cut),
          region(base, mid, hi, below(depth), cut), cut);
    }

    /** One run of {@code n} elements from {@code off}, stride {@link #runStride}; cut as region. */
    long run(long off, long n, int depth, Cut cut) {
      if (cut != null && (depth == 0 || n <= LEAF)) {
        return cut.piece(() -> run(off, n, 0, null));
      }
      if (n > LEAF) {
        // Split at a whole number of leaves: the tree does not depend on who computes it.
        long mid = Math.max(1, (n / LEAF) / 2) * LEAF;
        return combine(run(off, mid, below(depth), cut),
            run(off + mid * runStride, n - mid, below(depth), cut), cut);
      }
      return runStride == 1 ? foldLeaf(off, (int) n) : foldStrided(off, n, runStride);
    }

    /** {@link #combine}, or nothing on a cut's first pass, which only collects its pieces. */
    long combine(long a, long b, Cut cut) {
      return cut != null && cut.collecting() ? 0 : combine(a, b);
    }

    /**
     * Two partial results combined by the op's generated pair step. A partial result travels as
     * a long ({@link #get}): a floating one as the raw bits of its value widened to double, an
     * integral one as its value.
     */
    long combine(long a, long b) {
      if (kind.floating()) {
        return Double.doubleToRawLongBits(
            fold.pair(Double.longBitsToDouble(a), Double.longBitsToDouble(b)));
      }
      return fold.pairLong(a, b);
    }

    void store(long outIndex, long value) {
      switch (kind) {
        case F32 ->
            out.setAtIndex(FLOAT, outIndex, stored(op, (float) Double.longBitsToDouble(value)));
        case F64 -> out.setAtIndex(DOUBLE, outIndex, stored(op, Double.longBitsToDouble(value)));
        default -> setBits(kind, out, outIndex, value);
      }
    }

    // Leaves: the op's generated fold loop (FoldKernel) over native scratch.

    /**
     * A contiguous leaf of {@code n} elements by the tree docs/reductions.md specifies in
     * elements: {@code K} accumulators ({@link #SUM_LANES_F}, {@link #SUM_LANES_D}), element
     * {@code i} into accumulator {@code i mod K} in order, then the accumulators folded in halves.
     * They start as the first {@code min(n, K)} elements rather than at the op's identity (a
     * user's associative op may have none), and the halves skip accumulators no element reached:
     * for {@code sum} this differs from starting at +0.0 only in the sign of a zero, which the
     * store makes +0.0 ({@link #stored}).
     */
    long foldLeaf(long off, int n) {
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

    /** A strided leaf (at most {@link #LEAF} elements): in sequence, {@code x0 op x1 ...}. */
    long foldStrided(long off, long n, long stride) {
      MemorySegment acc = scratch(kind.bytes);
      MemorySegment.copy(in, off * kind.bytes, acc, 0, kind.bytes);
      fold.fold(acc, 0, in, off + stride, stride, n - 1, 1);
      return get(acc, 0);
    }

    /** Element {@code index} of {@code seg} as a partial result ({@link #combine}). */
    long get(MemorySegment seg, long index) {
      return switch (kind) {
        case F32 -> Double.doubleToRawLongBits(seg.getAtIndex(FLOAT, index));
        case F64 -> Double.doubleToRawLongBits(seg.getAtIndex(DOUBLE, index));
        default -> getBits(kind, seg, index);
      };
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
        Parallel.forEachShare(threads * PIECES_PER_THREAD, tasks, body);
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

  /** One level down a tree being cut ({@code depth > 0}), or none (0: no cut). */
  private static int below(int depth) {
    return Math.max(0, depth - 1);
  }

  /**
   * The top of one or more reduction trees cut into pieces that the threads compute in any order:
   * a first pass over the trees collects the pieces (the nodes at the cut's depth, in the trees'
   * order), {@link #compute} runs them on the team, and a second pass over the same trees
   * combines their results in the trees' order. Cutting replaced splitting the top node into two
   * halves, one per thread: a half's thread that started late left the other waiting.
   */
  private static final class Cut {
    private final List<LongSupplier> pieces = new ArrayList<>();
    private long[] results; // null on the first pass
    private int next;

    boolean collecting() {
      return results == null;
    }

    /** On the first pass, collects {@code node}; on the second, returns its result. */
    long piece(LongSupplier node) {
      if (collecting()) {
        pieces.add(node);
        return 0;
      }
      return results[next++];
    }

    /** Computes every collected piece, claimed one by one by the caller and the workers. */
    void compute() {
      long[] computed = new long[pieces.size()];
      Parallel.forEachShare(pieces.size(), pieces.size(), (from, to) -> {
        for (long i = from; i < to; i++) {
          computed[(int) i] = pieces.get((int) i).getAsLong();
        }
      });
      results = computed;
    }
  }

  /**
   * Row buffers of the outer strategy, one per pairing level, in native scratch that the op's fold
   * loop works on (a strided row is gathered into a scratch row first, as the loop takes
   * contiguous columns).
   */
  private static final class Buffers {
    final Kind kind;
    final FoldKernel fold;
    final int width;
    /** Level {@code v} at element {@code (v + 1) * width}; the gather row first. */
    MemorySegment rows;

    Buffers(Kind kind, FoldKernel fold, int width) {
      this.kind = kind;
      this.fold = fold;
      this.width = width;
      this.rows = MemorySegment.NULL;
    }

    /** The element offset of level {@code level} in {@link #rows}. */
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
      long at = at(level);
      if (stride == 1) {
        MemorySegment.copy(in, off * kind.bytes, rows, at * kind.bytes, (long) n * kind.bytes);
      } else {
        gather(in, off, stride, n, at);
      }
    }

    /** {@code n} strided elements into {@link #rows} from element {@code at} (bits copied). */
    private void gather(MemorySegment in, long off, long stride, int n, long at) {
      for (int j = 0; j < n; j++) {
        setBits(kind, rows, at + j, getBits(kind, in, off + j * stride));
      }
    }

    /**
     * Folds {@code count} input rows into level {@code level}: the rows at {@code off + r *
     * rowStride}, in order.
     */
    void accumulate(Op op, int level, MemorySegment in, long off, long rowStride, long count,
        long stride, int n) {
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
      long to = at(into);
      fold.fold(rows, to, rows, at(from), 0, 1, n);
    }

    void storeTo(Op op, int level, MemorySegment out, long off, long stride, int n) {
      long at = at(level);
      for (int j = 0; j < n; j++) {
        switch (kind) {
          case F32 -> out.setAtIndex(FLOAT, off + j * stride,
              stored(op, rows.getAtIndex(FLOAT, at + j)));
          case F64 -> out.setAtIndex(DOUBLE, off + j * stride,
              stored(op, rows.getAtIndex(DOUBLE, at + j)));
          default -> setBits(kind, out, off + j * stride, getBits(kind, rows, at + j));
        }
      }
    }
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
