package dev.ufunc4j.kernel;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The reduce and scan loops of a binary ufunc's {@code (T, T) -> T} kernel, T float32, float64 or
 * an integral dtype (int8 to uint64; not for a body that divides): the processor generates them from the op's body beside its elementwise rows, and the kernel
 * class of that entry implements this interface (docs/ufuncs.md, "Generated kernels"). They are
 * the only code that applies the op in a reduction; the order of the fold (the documented tree,
 * a left fold, the scan) is the runtime's ({@code kernel.reduce.ReduceLoops}), which calls these loops
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
   *
   * @param acc the accumulators' segment
   * @param accOff the first accumulator, in elements
   * @param in the rows' segment
   * @param off row 0's first element
   * @param rowStride elements from one row to the next (0: the same row again)
   * @param rows how many rows, folded in order
   * @param cols the contiguous columns
   */
  void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride, long rows,
      int cols);

  /**
   * The running fold down the rows: {@code out} row 0 is {@code in} row 0, row {@code r} is {@code
   * op(out row r - 1, in row r)}, for {@code rows >= 1} rows of {@code cols} contiguous columns
   * ({@code in} row {@code r} at {@code off + r * inRow}, {@code out} row {@code r} at {@code outOff
   * + r * outRow}).
   *
   * @param in the input's segment
   * @param off input row 0's first element
   * @param inRow elements from one input row to the next
   * @param out the output's segment
   * @param outOff output row 0's first element
   * @param outRow elements from one output row to the next
   * @param rows how many rows, at least 1
   * @param cols the contiguous columns
   */
  void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff, long outRow,
      long rows, int cols);

  /**
   * {@code op(a, b)} of two partial results of T (held as doubles: a float32 one widened, so the
   * conversion back is exact), the result widened the same way: how a reduction combines the
   * results of its leaves and halves, without a call through {@link #fold} per pair.
   *
   * @param a the first operand
   * @param b the second operand
   * @return {@code op(a, b)} in T, widened
   * @throws UnsupportedOperationException for an integral T, whose kernel has {@link #pairLong}
   */
  default double pair(double a, double b) {
    throw new UnsupportedOperationException("an integral fold kernel pairs longs (pairLong)");
  }

  /**
   * {@link #pair} for an integral T: the partial results held as longs, as Java widens T's lane
   * primitive (an int8 {@code byte} sign-extended, a uint8 one too: the lanes' bits are what
   * count), the result widened the same way. Integer ops are exact, so any order of the fold gives
   * the same result.
   *
   * @param a the first operand
   * @param b the second operand
   * @return {@code op(a, b)} in T, widened
   * @throws UnsupportedOperationException for a floating T, whose kernel has {@link #pair}
   */
  default long pairLong(long a, long b) {
    throw new UnsupportedOperationException("a floating fold kernel pairs doubles (pair)");
  }

  /**
   * One contiguous leaf of {@code n >= k} elements from {@code off} by the tree of
   * docs/reductions.md, in one call: element {@code i} into accumulator {@code i mod k} in order
   * (each starting as its first element), then {@code acc[j] = op(acc[j], acc[j + h])} for {@code
   * j < h}, {@code h = k / 2, ..., 1}; the result is left in element 0 of {@code park} (native
   * scratch of at least {@code k} elements, which the loop also uses). {@code k} is a power of
   * two. The accumulators stay in registers, which {@code fold} cannot offer: a leaf through it
   * takes eight calls and a copy. Returns false, computing nothing, where this kernel has no such
   * loop (a large body: docs/ufuncs.md, "Generated kernels"), its vectors are too wide for {@code
   * k}, or {@code k} is not docs/reductions.md's 256 bytes of accumulators (the loop holds that
   * number as a constant); the caller then folds the leaf with {@link #fold}, which gives the same
   * bits.
   *
   * @param in the leaf's segment
   * @param off the leaf's first element
   * @param n the leaf's elements, at least {@code k}
   * @param k the accumulators
   * @param park native scratch of at least {@code k} elements; element 0 receives the result
   * @return whether the leaf was folded (false: nothing was computed)
   */
  default boolean leaf(MemorySegment in, long off, int n, int k, MemorySegment park) {
    return false;
  }

  /**
   * {@return the rotations a generated leaf loop folds the lanes of its last vector with, by
   * {@code length / 2, length / 4, ..., 1} lanes (lane {@code j} of the rotation by {@code h} is
   * lane {@code j + h}, so lane 0 ends with the documented tree's result)} Each fold class holds
   * them in a static final field, made once rather than per leaf ({@code iotaShuffle}), as the
   * hand-written sum leaf held its shuffles.
   *
   * @param <E> the lanes' boxed element type
   * @param species the vector species of the leaf's lanes
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <E> VectorShuffle<E>[] leafRotations(VectorSpecies<E> species) {
    int levels = Integer.numberOfTrailingZeros(species.length());
    VectorShuffle<E>[] rotations = new VectorShuffle[levels];
    for (int k = 0; k < levels; k++) {
      rotations[k] = species.iotaShuffle(species.length() >> (k + 1), 1, true);
    }
    return rotations;
  }
}
