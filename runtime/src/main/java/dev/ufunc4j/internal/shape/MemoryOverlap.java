package dev.ufunc4j.internal.shape;

/**
 * Where the views of an {@code out=} or in-place call share memory (PyTorch keeps the same rules
 * apart, in {@code ATen/MemoryOverlap.cpp}), on {@link StridedView}s. Internal API.
 *
 * <p>Two questions, each answered before anything is written:
 *
 * <ul>
 *   <li>{@link #hasInternalOverlap}: does a written-to view reach one element twice? A dimension
 *       of stride 0 and size above 1 does (an expanded view); that is PyTorch's test too, and like
 *       PyTorch's it lets other self-overlapping layouts ({@code asStrided} with strides that
 *       collide) through.
 *   <li>{@link #overlap}: how does an input's memory meet the target's? {@link Status#FULL}
 *       (exactly the same elements in the same positions: safe, each element is read before it is
 *       written), {@link Status#NONE} (no shared byte) or {@link Status#PARTIAL} (refused).
 * </ul>
 *
 * <p>{@link #overlap} proves "no shared byte" two ways: the views' byte extents are disjoint, or no
 * address of one can meet an element of the other because every address of both views is {@code
 * start + k * g}, {@code g} the greatest common divisor of their byte strides (the GCD test of
 * dependence analysis). The second accepts interleaved views: {@code out = x[0::2]} with the
 * input {@code x[1::2]}, or two columns of one matrix. Anything it cannot prove disjoint is
 * {@link Status#PARTIAL}: conservative, never a wrong result. PyTorch accepts the interleaved
 * cases too, but for another reason: it gives up ("too hard") on any view that is not dense and
 * lets the call run, even when the views do share elements; ufunc4j refuses those.
 *
 * <p>Addresses are those of the tensors' native segments (all storage is native), so views of one
 * storage through different segment objects are compared correctly. Nothing here allocates: the
 * planner's fast path calls it on every in-place call.
 */
public final class MemoryOverlap {
  private MemoryOverlap() {}

  /** How an input's memory meets a target's (PyTorch's {@code MemOverlapStatus}). */
  public enum Status {
    /** No byte in common. */
    NONE,
    /** The same elements at the same positions: the same view, under any other name. */
    FULL,
    /** Some memory in common, or disjointness not proven: refused. */
    PARTIAL
  }

  /**
   * True when a dimension of stride 0 and size above 1 makes the view reach one element twice;
   * never for an empty view, which writes nothing (PyTorch accepts it too).
   */
  public static boolean hasInternalOverlap(StridedView t) {
    long[] shape = t.shape();
    long[] strides = t.strides();
    for (long size : shape) {
      if (size == 0) {
        return false; // nothing is written: PyTorch accepts an empty expanded target too
      }
    }
    for (int d = 0; d < shape.length; d++) {
      if (strides[d] == 0 && shape[d] > 1) {
        return true;
      }
    }
    return false;
  }

  /** How {@code in}'s memory meets {@code out}'s; see the class comment. */
  public static Status overlap(StridedView out, StridedView in) {
    if (out.numel() == 0 || in.numel() == 0) {
      return Status.NONE;
    }
    long outStart = startAddress(out);
    long inStart = startAddress(in);
    int outBytes = out.dtype().byteSize();
    int inBytes = in.dtype().byteSize();
    long outLow = outStart + lowSpan(out) * outBytes;
    long outEnd = outStart + (highSpan(out) + 1) * outBytes;
    long inLow = inStart + lowSpan(in) * inBytes;
    long inEnd = inStart + (highSpan(in) + 1) * inBytes;
    if (outEnd <= inLow || inEnd <= outLow) {
      return Status.NONE;
    }
    if (outStart == inStart && out.dtype() == in.dtype() && sameSteps(out, in)) {
      return Status.FULL;
    }
    return residuesApart(out, outStart, outBytes, in, inStart, inBytes)
        ? Status.NONE
        : Status.PARTIAL;
  }

  /** Byte address of the view's first element. */
  private static long startAddress(StridedView t) {
    return t.segment().address() + t.offset() * t.dtype().byteSize();
  }

  /** The most negative element step the view takes from its first element (0 or less). */
  private static long lowSpan(StridedView t) {
    long[] shape = t.shape();
    long[] strides = t.strides();
    long low = 0;
    for (int d = 0; d < shape.length; d++) {
      long span = (shape[d] - 1) * strides[d];
      if (span < 0) {
        low += span;
      }
    }
    return low;
  }

  /** The largest element step the view takes from its first element (0 or more). */
  private static long highSpan(StridedView t) {
    long[] shape = t.shape();
    long[] strides = t.strides();
    long high = 0;
    for (int d = 0; d < shape.length; d++) {
      long span = (shape[d] - 1) * strides[d];
      if (span > 0) {
        high += span;
      }
    }
    return high;
  }

  /**
   * Same shape, and the same stride wherever a dimension has more than one element (the stride of
   * a size-1 dimension is never used): then equal starts mean the same element at every index.
   */
  private static boolean sameSteps(StridedView a, StridedView b) {
    long[] shapeA = a.shape();
    long[] shapeB = b.shape();
    if (shapeA.length != shapeB.length) {
      return false;
    }
    long[] stridesA = a.strides();
    long[] stridesB = b.strides();
    for (int d = 0; d < shapeA.length; d++) {
      if (shapeA[d] != shapeB[d] || (shapeA[d] > 1 && stridesA[d] != stridesB[d])) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when no element of {@code in} can share a byte with an element of {@code out}: every
   * address of either is its start plus a multiple of {@code g}, the GCD of both views' byte
   * strides, so the difference of two element addresses is {@code r} modulo {@code g} with {@code
   * r = (outStart - inStart) mod g}. Elements of {@code outBytes} and {@code inBytes} bytes meet
   * when that difference lies in {@code (-inBytes, outBytes)}; no number congruent to {@code r}
   * does when {@code r >= outBytes} and {@code g - r >= inBytes}.
   */
  private static boolean residuesApart(
      StridedView out, long outStart, int outBytes, StridedView in, long inStart, int inBytes) {
    long g = gcd(byteStrideGcd(out, outBytes), byteStrideGcd(in, inBytes));
    if (g == 0) {
      return false; // one element each, and their extents meet
    }
    long r = Math.floorMod(outStart - inStart, g);
    return r >= outBytes && g - r >= inBytes;
  }

  /** GCD of the byte strides of the dimensions with more than one element (0 if there are none). */
  private static long byteStrideGcd(StridedView t, int elementBytes) {
    long[] shape = t.shape();
    long[] strides = t.strides();
    long g = 0;
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] > 1) {
        g = gcd(g, Math.abs(strides[d]) * elementBytes);
      }
    }
    return g;
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
}
