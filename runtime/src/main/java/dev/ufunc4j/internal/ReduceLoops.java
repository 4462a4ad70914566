package dev.ufunc4j.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The loops of {@code sum}, {@code amax} and {@code amin} over any subset of a strided array's
 * dimensions, written once for every reduction: the caller ({@code dev.ufunc4j.Reductions}) has
 * already chosen the dtype to accumulate in and converted the input to it.
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
  /** What a reduction combines with. */
  public enum Op {
    SUM,
    MAX,
    MIN
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

  /**
   * The preferred vectors, at most 512 bits wide: four of them must fit in a sum leaf's {@link
   * #SUM_LANES_F} (or {@code _D}) accumulators; only SVE offers wider ones.
   */
  private static final VectorSpecies<Float> F = atMost512(FloatVector.SPECIES_PREFERRED, FloatVector.SPECIES_512);
  private static final VectorSpecies<Double> D = atMost512(DoubleVector.SPECIES_PREFERRED, DoubleVector.SPECIES_512);
  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  /**
   * Level {@code k} of the lane tree ({@link #laneTree}): every lane swapped with its partner
   * {@code lanes / 2^(k+1)} lanes away.
   */
  private static final VectorShuffle<Float>[] SWAP_F = swaps(F);
  private static final VectorShuffle<Double>[] SWAP_D = swaps(D);
  private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

  /** Elements of one leaf of a contiguous run: summed by {@link #SUM_LANES_F} accumulators. */
  static final int LEAF = 2048;

  /**
   * The accumulators of a contiguous float32 sum leaf, in elements, whatever the vector width
   * (docs/reductions.md): 256 bytes, four 512-bit vectors (enough independent adds to keep
   * AVX-512 busy), eight AVX2 vectors, sixteen 128-bit ones. The sum's bits depend on this number
   * and on nothing about the machine.
   */
  static final int SUM_LANES_F = 64;

  /** {@link #SUM_LANES_F} for float64: the same 256 bytes. */
  static final int SUM_LANES_D = 32;

  /** Rows one leaf of the outer strategy adds sequentially before pairing. */
  private static final int ROW_LEAF = 8;

  /** Columns per block in the outer strategy: a row buffer stays in the L1 cache. */
  private static final int COLUMN_BLOCK = 1024;

  private ReduceLoops() {}

  /**
   * Reduces the strided array ({@code in}, element {@code inOffset}, {@code shape}, {@code
   * strides}, elements of {@code kind}) over the dimensions flagged in {@code reduce}, writing one
   * element per combination of the kept dimensions into {@code out}: C-contiguous over the kept
   * dimensions in their order. A reduced region that is empty gives 0 for {@link Op#SUM}; the
   * caller refuses it for the others.
   */
  public static void reduce(
      Op op,
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
    Plan plan = new Plan(op, kind, first, ScopeMemory.shareable(out), kept, runs);
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

    Plan(Op op, Kind kind, MemorySegment in, MemorySegment out, List<long[]> kept,
        List<long[]> runs) {
      this.op = op;
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
      if (runStride == 1) {
        return switch (kind) {
          case F32 -> switch (op) {
            case SUM -> sumLeafF(off, (int) n);
            case MAX -> maxLeafF(off, (int) n);
            case MIN -> minLeafF(off, (int) n);
          };
          case F64 -> switch (op) {
            case SUM -> sumLeafD(off, (int) n);
            case MAX -> maxLeafD(off, (int) n);
            case MIN -> minLeafD(off, (int) n);
          };
          case I64, U64 -> Double.longBitsToDouble(stridedLeafL(off, n, 1));
        };
      }
      return kind == Kind.I64 || kind == Kind.U64
          ? Double.longBitsToDouble(stridedLeafL(off, n, runStride))
          : stridedLeaf(off, n, runStride);
    }

    /** Two partial results combined; 64-bit integers travel as their bits in a double. */
    double combine(double a, double b) {
      return switch (kind) {
        case F32 -> switch (op) {
          case SUM -> (float) a + (float) b;
          case MAX -> Math.max((float) a, (float) b);
          case MIN -> Math.min((float) a, (float) b);
        };
        case F64 -> switch (op) {
          case SUM -> a + b;
          case MAX -> Math.max(a, b);
          case MIN -> Math.min(a, b);
        };
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

    // Leaves over a contiguous run: SUM_LANES_F (or _D) element accumulators, folded in halves.

    /**
     * The sum of a contiguous leaf of {@code n} floats, by the tree docs/reductions.md specifies in
     * elements: element {@code i} adds into accumulator {@code i mod SUM_LANES_F} (all start at
     * +0.0), then the accumulators are folded in halves. The vectors hold those accumulators
     * {@code lanes} at a time; one pass of four vector accumulators covers {@code 4 * lanes} of
     * them (all of them with 16-lane vectors), so narrower vectors take more passes over the leaf
     * (it is in L1 after the first) and park each pass's four vectors in {@code acc}. A tail of
     * fewer than {@code SUM_LANES_F} elements adds into the first accumulators with masked loads.
     */
    double sumLeafF(long off, int n) {
      int lanes = F.length();
      int pass = 4 * lanes;
      int blocks = n / SUM_LANES_F;
      int tail = n - blocks * SUM_LANES_F;
      float[] acc = pass == SUM_LANES_F ? null : new float[SUM_LANES_F];
      FloatVector a0 = FloatVector.zero(F);
      FloatVector a1 = a0;
      FloatVector a2 = a0;
      FloatVector a3 = a0;
      for (int g = 0; g < SUM_LANES_F; g += pass) {
        a0 = FloatVector.zero(F);
        a1 = a0;
        a2 = a0;
        a3 = a0;
        long at = (off + g) * 4;
        for (int b = 0; b < blocks; b++, at += SUM_LANES_F * 4L) {
          a0 = a0.add(FloatVector.fromMemorySegment(F, in, at, ORDER));
          a1 = a1.add(FloatVector.fromMemorySegment(F, in, at + lanes * 4L, ORDER));
          a2 = a2.add(FloatVector.fromMemorySegment(F, in, at + 2 * lanes * 4L, ORDER));
          a3 = a3.add(FloatVector.fromMemorySegment(F, in, at + 3 * lanes * 4L, ORDER));
        }
        int left = tail - g; // tail elements this pass's accumulators take
        if (left > 0) {
          a0 = a0.add(partF(at, left));
          if (left > lanes) {
            a1 = a1.add(partF(at + lanes * 4L, left - lanes));
          }
          if (left > 2 * lanes) {
            a2 = a2.add(partF(at + 2 * lanes * 4L, left - 2 * lanes));
          }
          if (left > 3 * lanes) {
            a3 = a3.add(partF(at + 3 * lanes * 4L, left - 3 * lanes));
          }
        }
        if (acc != null) {
          a0.intoArray(acc, g);
          a1.intoArray(acc, g + lanes);
          a2.intoArray(acc, g + 2 * lanes);
          a3.intoArray(acc, g + 3 * lanes);
        }
      }
      if (acc != null) {
        // The folds above one pass: accumulator j += accumulator j + h, for h = SUM_LANES_F / 2
        // down to one pass's width, lanes at a time.
        for (int h = SUM_LANES_F / 2; h >= pass; h /= 2) {
          for (int j = 0; j < h; j += lanes) {
            FloatVector.fromArray(F, acc, j).add(FloatVector.fromArray(F, acc, j + h)).intoArray(acc, j);
          }
        }
        a0 = FloatVector.fromArray(F, acc, 0);
        a1 = FloatVector.fromArray(F, acc, lanes);
        a2 = FloatVector.fromArray(F, acc, 2 * lanes);
        a3 = FloatVector.fromArray(F, acc, 3 * lanes);
      }
      // The last folds: h = 2 * lanes pairs a0 with a2 and a1 with a3, h = lanes the two
      // results, then the lanes in halves.
      return laneTree(a0.add(a2).add(a1.add(a3)));
    }

    /** The first {@code count} floats at byte {@code at} (all lanes if that many), zeros after. */
    private FloatVector partF(long at, int count) {
      return count >= F.length()
          ? FloatVector.fromMemorySegment(F, in, at, ORDER)
          : FloatVector.fromMemorySegment(F, in, at, ORDER, F.indexInRange(0, count));
    }

    double maxLeafF(long off, int n) {
      int lanes = F.length();
      long byteOff = off * 4;
      FloatVector a = FloatVector.broadcast(F, in.getAtIndex(FLOAT, off));
      int i = 0;
      for (; i + lanes <= n; i += lanes) {
        a = a.lanewise(VectorOperators.MAX, FloatVector.fromMemorySegment(F, in, byteOff + i * 4L, ORDER));
      }
      float m = a.lane(0);
      for (int k = 1; k < lanes; k++) {
        m = Math.max(m, a.lane(k));
      }
      for (; i < n; i++) {
        m = Math.max(m, in.getAtIndex(FLOAT, off + i));
      }
      return m;
    }

    double minLeafF(long off, int n) {
      int lanes = F.length();
      long byteOff = off * 4;
      FloatVector a = FloatVector.broadcast(F, in.getAtIndex(FLOAT, off));
      int i = 0;
      for (; i + lanes <= n; i += lanes) {
        a = a.lanewise(VectorOperators.MIN, FloatVector.fromMemorySegment(F, in, byteOff + i * 4L, ORDER));
      }
      float m = a.lane(0);
      for (int k = 1; k < lanes; k++) {
        m = Math.min(m, a.lane(k));
      }
      for (; i < n; i++) {
        m = Math.min(m, in.getAtIndex(FLOAT, off + i));
      }
      return m;
    }

    /** {@link #sumLeafF}'s tree for doubles: {@code SUM_LANES_D} accumulators. */
    double sumLeafD(long off, int n) {
      int lanes = D.length();
      int pass = 4 * lanes;
      int blocks = n / SUM_LANES_D;
      int tail = n - blocks * SUM_LANES_D;
      double[] acc = pass == SUM_LANES_D ? null : new double[SUM_LANES_D];
      DoubleVector a0 = DoubleVector.zero(D);
      DoubleVector a1 = a0;
      DoubleVector a2 = a0;
      DoubleVector a3 = a0;
      for (int g = 0; g < SUM_LANES_D; g += pass) {
        a0 = DoubleVector.zero(D);
        a1 = a0;
        a2 = a0;
        a3 = a0;
        long at = (off + g) * 8;
        for (int b = 0; b < blocks; b++, at += SUM_LANES_D * 8L) {
          a0 = a0.add(DoubleVector.fromMemorySegment(D, in, at, ORDER));
          a1 = a1.add(DoubleVector.fromMemorySegment(D, in, at + lanes * 8L, ORDER));
          a2 = a2.add(DoubleVector.fromMemorySegment(D, in, at + 2 * lanes * 8L, ORDER));
          a3 = a3.add(DoubleVector.fromMemorySegment(D, in, at + 3 * lanes * 8L, ORDER));
        }
        int left = tail - g;
        if (left > 0) {
          a0 = a0.add(partD(at, left));
          if (left > lanes) {
            a1 = a1.add(partD(at + lanes * 8L, left - lanes));
          }
          if (left > 2 * lanes) {
            a2 = a2.add(partD(at + 2 * lanes * 8L, left - 2 * lanes));
          }
          if (left > 3 * lanes) {
            a3 = a3.add(partD(at + 3 * lanes * 8L, left - 3 * lanes));
          }
        }
        if (acc != null) {
          a0.intoArray(acc, g);
          a1.intoArray(acc, g + lanes);
          a2.intoArray(acc, g + 2 * lanes);
          a3.intoArray(acc, g + 3 * lanes);
        }
      }
      if (acc != null) {
        for (int h = SUM_LANES_D / 2; h >= pass; h /= 2) {
          for (int j = 0; j < h; j += lanes) {
            DoubleVector.fromArray(D, acc, j).add(DoubleVector.fromArray(D, acc, j + h)).intoArray(acc, j);
          }
        }
        a0 = DoubleVector.fromArray(D, acc, 0);
        a1 = DoubleVector.fromArray(D, acc, lanes);
        a2 = DoubleVector.fromArray(D, acc, 2 * lanes);
        a3 = DoubleVector.fromArray(D, acc, 3 * lanes);
      }
      return laneTree(a0.add(a2).add(a1.add(a3)));
    }

    private DoubleVector partD(long at, int count) {
      return count >= D.length()
          ? DoubleVector.fromMemorySegment(D, in, at, ORDER)
          : DoubleVector.fromMemorySegment(D, in, at, ORDER, D.indexInRange(0, count));
    }

    double maxLeafD(long off, int n) {
      int lanes = D.length();
      long byteOff = off * 8;
      DoubleVector a = DoubleVector.broadcast(D, in.getAtIndex(DOUBLE, off));
      int i = 0;
      for (; i + lanes <= n; i += lanes) {
        a = a.lanewise(VectorOperators.MAX, DoubleVector.fromMemorySegment(D, in, byteOff + i * 8L, ORDER));
      }
      double m = a.lane(0);
      for (int k = 1; k < lanes; k++) {
        m = Math.max(m, a.lane(k));
      }
      for (; i < n; i++) {
        m = Math.max(m, in.getAtIndex(DOUBLE, off + i));
      }
      return m;
    }

    double minLeafD(long off, int n) {
      int lanes = D.length();
      long byteOff = off * 8;
      DoubleVector a = DoubleVector.broadcast(D, in.getAtIndex(DOUBLE, off));
      int i = 0;
      for (; i + lanes <= n; i += lanes) {
        a = a.lanewise(VectorOperators.MIN, DoubleVector.fromMemorySegment(D, in, byteOff + i * 8L, ORDER));
      }
      double m = a.lane(0);
      for (int k = 1; k < lanes; k++) {
        m = Math.min(m, a.lane(k));
      }
      for (; i < n; i++) {
        m = Math.min(m, in.getAtIndex(DOUBLE, off + i));
      }
      return m;
    }

    /** A strided floating leaf (at most {@link #LEAF} elements): sequential in its own kind. */
    double stridedLeaf(long off, long n, long stride) {
      if (kind == Kind.F32) {
        float acc = in.getAtIndex(FLOAT, off);
        for (long i = 1; i < n; i++) {
          float v = in.getAtIndex(FLOAT, off + i * stride);
          acc = switch (op) {
            case SUM -> acc + v;
            case MAX -> Math.max(acc, v);
            case MIN -> Math.min(acc, v);
          };
        }
        return acc;
      }
      double acc = in.getAtIndex(DOUBLE, off);
      for (long i = 1; i < n; i++) {
        double v = in.getAtIndex(DOUBLE, off + i * stride);
        acc = switch (op) {
          case SUM -> acc + v;
          case MAX -> Math.max(acc, v);
          case MIN -> Math.min(acc, v);
        };
      }
      return acc;
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
            Buffers buffers = new Buffers(kind, (int) Math.min(COLUMN_BLOCK, columns));
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
        for (long r = lo + 1; r < hi; r++) {
          b.accumulate(op, level, in, base + reducedOffset(r), colIn, width);
        }
        return;
      }
      long mid = lo + (hi - lo) / 2;
      rowsInto(b, level, base, colIn, width, lo, mid);
      rowsInto(b, level + 1, base, colIn, width, mid, hi);
      b.combine(op, level, level + 1, width);
    }
  }

  /** Row buffers of the outer strategy, one per pairing level, in the kind's own element type. */
  private static final class Buffers {
    final Kind kind;
    final int width;
    final List<float[]> f = new ArrayList<>();
    final List<double[]> d = new ArrayList<>();
    final List<long[]> l = new ArrayList<>();

    Buffers(Kind kind, int width) {
      this.kind = kind;
      this.width = width;
    }

    float[] f(int level) {
      while (f.size() <= level) {
        f.add(new float[width]);
      }
      return f.get(level);
    }

    double[] d(int level) {
      while (d.size() <= level) {
        d.add(new double[width]);
      }
      return d.get(level);
    }

    long[] l(int level) {
      while (l.size() <= level) {
        l.add(new long[width]);
      }
      return l.get(level);
    }

    void load(int level, MemorySegment in, long off, long stride, int n) {
      switch (kind) {
        case F32 -> {
          float[] b = f(level);
          for (int j = 0; j < n; j++) {
            b[j] = in.getAtIndex(FLOAT, off + j * stride);
          }
        }
        case F64 -> {
          double[] b = d(level);
          for (int j = 0; j < n; j++) {
            b[j] = in.getAtIndex(DOUBLE, off + j * stride);
          }
        }
        case I64, U64 -> {
          long[] b = l(level);
          for (int j = 0; j < n; j++) {
            b[j] = in.getAtIndex(LONG, off + j * stride);
          }
        }
      }
    }

    void accumulate(Op op, int level, MemorySegment in, long off, long stride, int n) {
      switch (kind) {
        case F32 -> accumulateF(op, f(level), in, off, stride, n);
        case F64 -> accumulateD(op, d(level), in, off, stride, n);
        case I64, U64 -> {
          long[] b = l(level);
          for (int j = 0; j < n; j++) {
            b[j] = combineLong(op, kind, b[j], in.getAtIndex(LONG, off + j * stride));
          }
        }
      }
    }

    void combine(Op op, int into, int from, int n) {
      switch (kind) {
        case F32 -> {
          float[] a = f(into);
          float[] b = f(from);
          for (int j = 0; j < n; j++) {
            a[j] = op == Op.SUM ? a[j] + b[j] : op == Op.MAX ? Math.max(a[j], b[j]) : Math.min(a[j], b[j]);
          }
        }
        case F64 -> {
          double[] a = d(into);
          double[] b = d(from);
          for (int j = 0; j < n; j++) {
            a[j] = op == Op.SUM ? a[j] + b[j] : op == Op.MAX ? Math.max(a[j], b[j]) : Math.min(a[j], b[j]);
          }
        }
        case I64, U64 -> {
          long[] a = l(into);
          long[] b = l(from);
          for (int j = 0; j < n; j++) {
            a[j] = combineLong(op, kind, a[j], b[j]);
          }
        }
      }
    }

    void storeTo(Op op, int level, MemorySegment out, long off, long stride, int n) {
      switch (kind) {
        case F32 -> {
          float[] b = f(level);
          for (int j = 0; j < n; j++) {
            out.setAtIndex(FLOAT, off + j * stride, stored(op, b[j]));
          }
        }
        case F64 -> {
          double[] b = d(level);
          for (int j = 0; j < n; j++) {
            out.setAtIndex(DOUBLE, off + j * stride, stored(op, b[j]));
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

  /** Adds (or maxes, mins) a row into a float buffer: vector loads when the row is contiguous. */
  private static void accumulateF(Op op, float[] b, MemorySegment in, long off, long stride, int n) {
    int j = 0;
    if (stride == 1) {
      int bound = F.loopBound(n);
      for (; j < bound; j += F.length()) {
        FloatVector acc = FloatVector.fromArray(F, b, j);
        FloatVector v = FloatVector.fromMemorySegment(F, in, (off + j) * 4, ORDER);
        acc = switch (op) {
          case SUM -> acc.add(v);
          case MAX -> acc.lanewise(VectorOperators.MAX, v);
          case MIN -> acc.lanewise(VectorOperators.MIN, v);
        };
        acc.intoArray(b, j);
      }
    }
    for (; j < n; j++) {
      float v = in.getAtIndex(FLOAT, off + j * stride);
      b[j] = op == Op.SUM ? b[j] + v : op == Op.MAX ? Math.max(b[j], v) : Math.min(b[j], v);
    }
  }

  private static void accumulateD(Op op, double[] b, MemorySegment in, long off, long stride, int n) {
    int j = 0;
    if (stride == 1) {
      int bound = D.loopBound(n);
      for (; j < bound; j += D.length()) {
        DoubleVector acc = DoubleVector.fromArray(D, b, j);
        DoubleVector v = DoubleVector.fromMemorySegment(D, in, (off + j) * 8, ORDER);
        acc = switch (op) {
          case SUM -> acc.add(v);
          case MAX -> acc.lanewise(VectorOperators.MAX, v);
          case MIN -> acc.lanewise(VectorOperators.MIN, v);
        };
        acc.intoArray(b, j);
      }
    }
    for (; j < n; j++) {
      double v = in.getAtIndex(DOUBLE, off + j * stride);
      b[j] = op == Op.SUM ? b[j] + v : op == Op.MAX ? Math.max(b[j], v) : Math.min(b[j], v);
    }
  }

  private static long combineLong(Op op, Kind kind, long a, long b) {
    return switch (op) {
      case SUM -> a + b;
      case MAX -> (kind == Kind.U64 ? Long.compareUnsigned(a, b) >= 0 : a >= b) ? a : b;
      case MIN -> (kind == Kind.U64 ? Long.compareUnsigned(a, b) <= 0 : a <= b) ? a : b;
    };
  }

  /**
   * The lanes of {@code v} summed by folding them in halves, the end of a sum leaf's tree: lane
   * {@code j} plus lane {@code j + lanes / 2}, then {@code j + lanes / 4}, ..., down to lane 0
   * plus lane 1. Each level adds the vector to itself with every lane swapped with its partner
   * ({@code j XOR h}), so lane 0 ends with the total, in registers: the first version copied the
   * lanes to an array and recursed over it, and those calls (C2 inlines a recursive method one
   * level deep) took 15-20% of {@code sum} over 16M floats (docs/reductions.md). The lanes with
   * {@code j < h} compute {@code x[j] + x[j + h]}, lower index first, as the documented tree.
   */
  private static float laneTree(FloatVector v) {
    for (VectorShuffle<Float> swap : SWAP_F) {
      v = v.add(v.rearrange(swap));
    }
    return v.lane(0);
  }

  private static double laneTree(DoubleVector v) {
    for (VectorShuffle<Double> swap : SWAP_D) {
      v = v.add(v.rearrange(swap));
    }
    return v.lane(0);
  }

  private static <E> VectorSpecies<E> atMost512(VectorSpecies<E> preferred, VectorSpecies<E> s512) {
    return preferred.vectorBitSize() > 512 ? s512 : preferred;
  }

  /**
   * A result as stored: {@link #canonicalNaN}, and a sum's -0.0 as +0.0: PyTorch and NumPy start
   * every sum at +0.0, so a sum of -0.0 elements is +0.0, where a one-element column sum or an
   * all--0.0 strided leaf would otherwise pass the element's -0.0 on.
   */
  private static float stored(Op op, float v) {
    return canonicalNaN(op == Op.SUM ? v + 0.0f : v);
  }

  private static double stored(Op op, double v) {
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

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <E> VectorShuffle<E>[] swaps(VectorSpecies<E> species) {
    int levels = Integer.numberOfTrailingZeros(species.length());
    VectorShuffle<E>[] swaps = new VectorShuffle[levels];
    for (int k = 0; k < levels; k++) {
      int distance = species.length() >> (k + 1);
      swaps[k] = VectorShuffle.fromOp(species, i -> i ^ distance);
    }
    return swaps;
  }
}
