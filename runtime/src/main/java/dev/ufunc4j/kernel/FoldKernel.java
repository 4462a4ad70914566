package dev.ufunc4j.kernel;

import java.lang.foreign.MemorySegment;

/**
 * The reduce and scan loops of a binary ufunc's {@code (T, T) -> T} kernel, T float32 or float64:
 * the processor generates them from the op's body beside its elementwise rows, and the kernel
 * class of that entry implements this interface (docs/ufuncs.md, "Generated kernels"). They are
 * the only code that applies the op in a reduction; the order of the fold (the documented tree,
 * a left fold, the scan) is the runtime's ({@code internal.ReduceLoops}), which calls these loops
 * with whole rows, so no vector crosses this interface.
 *
 * <p>Offsets and strides count elements of T. Columns are contiguous (stride 1); the caller
 * gathers strided columns first. Segments are native (the runtime's storage and scratch).
 */
public interface FoldKernel {

  /**
   * {@code acc[accOff + j] = op(acc[accOff + j], in[off + r * rowStride + j])} for {@code r = 0,
   * 1, ..., rows - 1} in that order and every {@code j < cols}: each column of {@code acc} folds
   * its column of {@code in} from the left, the accumulator the op's first operand. {@code in}
   * may be {@code acc} itself at columns that do not overlap {@code [accOff, accOff + cols)}.
   */
  void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride, long rows,
      int cols);

  /**
   * The running fold down the rows: {@code out} row 0 is {@code in} row 0, row {@code r} is {@code
   * op(out row r - 1, in row r)}, for {@code rows >= 1} rows of {@code cols} contiguous columns
   * ({@code in} row {@code r} at {@code off + r * inRow}, {@code out} row {@code r} at {@code outOff
   * + r * outRow}).
   */
  void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff, long outRow,
      long rows, int cols);

  /**
   * {@code op(a, b)} of two partial results of T (held as doubles: a float32 one widened, so the
   * conversion back is exact), the result widened the same way: how a reduction combines the
   * results of its leaves and halves, without a call through {@link #fold} per pair.
   */
  double pair(double a, double b);

  /**
   * One contiguous leaf of {@code n >= k} elements from {@code off} by the tree of
   * docs/reductions.md, in one call: element {@code i} into accumulator {@code i mod k} in order
   * (each starting as its first element), then {@code acc[j] = op(acc[j], acc[j + h])} for {@code
   * j < h}, {@code h = k / 2, ..., 1}; the result is left in element 0 of {@code park} (native
   * scratch of at least {@code k} elements, which the loop also uses). {@code k} is a power of
   * two. The accumulators stay in registers, which {@code fold} cannot offer: a leaf through it
   * takes eight calls and a copy. Returns false, computing nothing, where this kernel has no such
   * loop (a large body: docs/ufuncs.md, "Generated kernels") or its vectors are too wide for
   * {@code k}; the caller then folds the leaf with {@link #fold}, which gives the same bits.
   */
  default boolean leaf(MemorySegment in, long off, int n, int k, MemorySegment park) {
    return false;
  }
}
