package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Equality;
import java.util.Arrays;
import java.util.List;

/**
 * PyTorch's everyday vocabulary on {@link Tensor}, beyond the generated elementwise ops: joining
 * and splitting ({@code cat}, {@code stack}, {@code split}, {@code chunk}), reordering ({@code
 * flip}, {@code roll}, {@code repeat}, {@code tile}, {@code movedim}), indexing by tensors ({@code
 * indexSelect}, {@code gather}, {@code take}, {@code maskedFill}, {@code maskedSelect}, {@code
 * nonzero}), statistics ({@code var}, {@code std}, {@code argmax}, {@code max(dim)}, {@code norm},
 * ...), the {@code *Like} factories and accessors ({@code item}, {@code fill}), comparisons
 * ({@code equal}, {@code allClose}), reductions ({@code sum}, {@code mean}, {@code amax}, {@code
 * amin}, {@code sumToShape}) and the ufunc reductions and scans ({@code prod}, {@code cumsum},
 * {@code cumprod}, {@code logsumexp}, {@code any}, {@code all}). Tensor extends this
 * class, so these are Tensor's methods ({@code x.flip(0)}, {@code Tensor.cat(...)}); the static ones
 * are on {@link Ops} too. Each follows PyTorch's rules and error texts ({@code docs/ops.md} lists
 * every name with its PyTorch counterpart). The work is done in {@code Joining}, {@code Indexing},
 * {@code Statistics}, {@code Factories}, {@code Reductions} and {@code BinaryUfunc}.
 *
 * <p>Public only so that its static methods can also be called reflectively through {@code
 * Tensor} from other packages (the JDK refuses a reflective call to a public static method
 * declared in a package-private class; {@code ReflectiveAccessTest}); use them as {@code
 * Tensor.cat(...)}. Not for subclassing: the only constructor is package-private.
 */
public abstract class TensorVocabulary extends TensorMethods {
  TensorVocabulary() {}

  // ---- joining and splitting ------------------------------------------------------------------

  /**
   * The tensors joined along {@code dim} ({@code torch.cat}), in their common dtype.
   *
   * @param tensors the tensors, of equal sizes but in {@code dim}
   * @param dim the dimension to join along (negative counts from the end)
   * @return a new tensor
   */
  public static Tensor cat(Tensor[] tensors, int dim) {
    return Joining.cat(tensors, dim);
  }

  /**
   * {@link #cat(Tensor[], int)} of a list.
   *
   * @param tensors the tensors, of equal sizes but in {@code dim}
   * @param dim the dimension to join along
   * @return a new tensor
   */
  public static Tensor cat(List<Tensor> tensors, int dim) {
    return Joining.cat(tensors, dim);
  }

  /**
   * {@link #cat(Tensor[], int)} along dimension 0.
   *
   * @param tensors the tensors, of equal sizes but in dimension 0
   * @return a new tensor
   */
  public static Tensor cat(Tensor... tensors) {
    return Joining.cat(tensors, 0);
  }

  /**
   * The tensors, all of one shape, joined along a new dimension {@code dim} ({@code
   * torch.stack}).
   *
   * @param tensors the tensors
   * @param dim where the new dimension goes, in {@code [-(ndim + 1), ndim]}
   * @return a new tensor
   */
  public static Tensor stack(Tensor[] tensors, int dim) {
    return Joining.stack(tensors, dim);
  }

  /**
   * {@link #stack(Tensor[], int)} of a list.
   *
   * @param tensors the tensors
   * @param dim where the new dimension goes
   * @return a new tensor
   */
  public static Tensor stack(List<Tensor> tensors, int dim) {
    return Joining.stack(tensors, dim);
  }

  /**
   * {@link #stack(Tensor[], int)} along a new dimension 0.
   *
   * @param tensors the tensors
   * @return a new tensor
   */
  public static Tensor stack(Tensor... tensors) {
    return Joining.stack(tensors, 0);
  }

  /**
   * Views of pieces of {@code splitSize} along {@code dim}, the last one smaller when the size
   * does not divide ({@code torch.split}).
   *
   * @param splitSize the size of each piece
   * @param dim the dimension to split
   * @return the pieces, views of this tensor
   */
  public Tensor[] split(long splitSize, int dim) {
    return Joining.split(self(), splitSize, dim);
  }

  /**
   * {@link #split(long, int)} along dimension 0.
   *
   * @param splitSize the size of each piece
   * @return the pieces, views of this tensor
   */
  public Tensor[] split(long splitSize) {
    return Joining.split(self(), splitSize, 0);
  }

  /**
   * Views of pieces of the given sizes along {@code dim}, which must add up to its size ({@code
   * torch.split} with a list).
   *
   * @param splitSizes the sizes of the pieces
   * @param dim the dimension to split
   * @return the pieces, views of this tensor
   */
  public Tensor[] split(long[] splitSizes, int dim) {
    return Joining.split(self(), splitSizes, dim);
  }

  /**
   * Views of {@code chunks} pieces of equal size along {@code dim} (the last smaller); fewer when
   * the size does not allow that many ({@code torch.chunk}).
   *
   * @param chunks how many pieces, at least 1
   * @param dim the dimension to split
   * @return the pieces, views of this tensor
   */
  public Tensor[] chunk(int chunks, int dim) {
    return Joining.chunk(self(), chunks, dim);
  }

  /**
   * {@link #chunk(int, int)} along dimension 0.
   *
   * @param chunks how many pieces
   * @return the pieces, views of this tensor
   */
  public Tensor[] chunk(int chunks) {
    return Joining.chunk(self(), chunks, 0);
  }

  // ---- reordering ------------------------------------------------------------------------------

  /**
   * A copy with the order of elements reversed along {@code dims} ({@code torch.flip}).
   *
   * @param dims the dimensions to reverse
   * @return a new tensor
   */
  public Tensor flip(int... dims) {
    return Joining.flip(self(), dims);
  }

  /**
   * A copy with elements shifted by {@code shift} along {@code dim}, wrapping around ({@code
   * torch.roll}).
   *
   * @param shift how far (negative: backwards)
   * @param dim the dimension
   * @return a new tensor
   */
  public Tensor roll(long shift, int dim) {
    return Joining.roll(self(), new long[] {shift}, new int[] {dim});
  }

  /**
   * {@code torch.roll} with several shifts: {@code shifts[i]} along {@code dims[i]}; with no dims,
   * the flattened tensor is rolled by {@code shifts[0]} and the shape restored.
   *
   * @param shifts the shifts
   * @param dims the dimensions, as many as shifts (or none)
   * @return a new tensor
   */
  public Tensor roll(long[] shifts, int[] dims) {
    return Joining.roll(self(), shifts, dims);
  }

  /**
   * This tensor repeated {@code repeats[i]} times along each dimension {@code i} ({@code
   * Tensor.repeat}); more repeats than dimensions add leading ones.
   *
   * @param repeats how many times along each dimension
   * @return a new tensor
   */
  public Tensor repeat(long... repeats) {
    return Joining.repeat(self(), repeats);
  }

  /**
   * {@link #repeat} with fewer entries allowed: missing leading ones are 1 ({@code torch.tile}).
   *
   * @param dims how many times along each trailing dimension
   * @return a new tensor
   */
  public Tensor tile(long... dims) {
    return Joining.tile(self(), dims);
  }

  /**
   * A view with dimension {@code source} moved to position {@code destination}, the others in
   * their order ({@code torch.movedim}).
   *
   * @param source the dimension to move
   * @param destination where it goes
   * @return a view
   */
  public Tensor movedim(int source, int destination) {
    return Joining.movedim(self(), new int[] {source}, new int[] {destination});
  }

  /**
   * {@link #movedim(int, int)} for several dimensions at once.
   *
   * @param source the dimensions to move
   * @param destination where each goes
   * @return a view
   */
  public Tensor movedim(int[] source, int[] destination) {
    return Joining.movedim(self(), source, destination);
  }

  // ---- indexing by tensors ------------------------------------------------------------------

  /**
   * The slices along {@code dim} at {@code index} (INT32 or INT64, at most one dimension), as a
   * copy ({@code torch.index_select}).
   *
   * @param dim the dimension indexed
   * @param index the indices, each in {@code [0, size(dim))}
   * @return a new tensor
   */
  public Tensor indexSelect(int dim, Tensor index) {
    return Indexing.indexSelect(self(), dim, index);
  }

  /**
   * Values along {@code dim} at {@code index} ({@code torch.gather}): {@code out[i][j] =
   * x[index[i][j]][j]} for dimension 0; {@code index} has this tensor's rank.
   *
   * @param dim the dimension indexed
   * @param index INT32 or INT64 indices (negative count from the end)
   * @return a new tensor of {@code index}'s shape
   */
  public Tensor gather(int dim, Tensor index) {
    return Indexing.gather(self(), dim, index);
  }

  /**
   * A copy with {@code src}'s values written at {@code index} along {@code dim} ({@code
   * torch.scatter}): {@code out[index[i][j]][j] = src[i][j]} for dimension 0, in index order (a
   * repeated index keeps the last value). {@code index} is INT64 of this tensor's rank, no larger
   * than {@code src} and, apart from {@code dim}, than this tensor; every index is checked against
   * {@code size(dim)} before anything is written.
   *
   * @param dim the dimension indexed (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, size(dim))}
   * @param src the values, of this tensor's dtype
   * @return a new tensor
   */
  public Tensor scatter(int dim, Tensor index, Tensor src) {
    return Indexing.scatter(self(), dim, index, src, false);
  }

  /**
   * {@link #scatter(int, Tensor, Tensor)} with one value ({@code torch.scatter(dim, index,
   * value)}), converted to this tensor's dtype.
   *
   * @param dim the dimension indexed (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, size(dim))}
   * @param value the value written
   * @return a new tensor
   */
  public Tensor scatter(int dim, Tensor index, double value) {
    return Indexing.scatterValue(self(), dim, index, value);
  }

  /**
   * {@link #scatter(int, Tensor, Tensor)} into this tensor ({@code scatter_}).
   *
   * @param dim the dimension indexed (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, size(dim))}
   * @param src the values, of this tensor's dtype
   * @return this tensor
   */
  public Tensor scatterInPlace(int dim, Tensor index, Tensor src) {
    return Indexing.scatter(self(), dim, index, src, false, true);
  }

  /**
   * A copy with {@code src}'s values added at {@code index} along {@code dim} ({@code
   * torch.scatter_add}): {@code out[index[i][j]][j] += src[i][j]} for dimension 0, every add
   * rounded in the dtype, in index order (a repeated index adds every time). Gradients flow to
   * this tensor and to {@code src} (the gradient gathered at {@code index}).
   *
   * @param dim the dimension indexed (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, size(dim))}
   * @param src the values added, of this tensor's dtype
   * @return a new tensor
   */
  public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
    return Indexing.scatter(self(), dim, index, src, true);
  }

  /**
   * {@link #scatterAdd(int, Tensor, Tensor)} into this tensor ({@code scatter_add_}).
   *
   * @param dim the dimension indexed (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, size(dim))}
   * @param src the values added, of this tensor's dtype
   * @return this tensor
   */
  public Tensor scatterAddInPlace(int dim, Tensor index, Tensor src) {
    return Indexing.scatter(self(), dim, index, src, true, true);
  }

  /**
   * Elements of the flattened tensor at {@code index}, in {@code index}'s shape ({@code
   * torch.take}).
   *
   * @param index INT32 or INT64 indices (negative count from the end)
   * @return a new tensor
   */
  public Tensor take(Tensor index) {
    return Indexing.take(self(), index);
  }

  /**
   * {@code value} where the BOOL {@code mask} is true, this tensor elsewhere ({@code
   * torch.masked_fill}), in this tensor's dtype.
   *
   * @param mask a BOOL tensor broadcastable with this one
   * @param value the fill value
   * @return a new tensor
   */
  public Tensor maskedFill(Tensor mask, double value) {
    return Indexing.maskedFill(self(), mask, Tensor.scalar(value, DType.FLOAT64));
  }

  /**
   * {@link #maskedFill(Tensor, double)} with a zero-dim value tensor.
   *
   * @param mask a BOOL tensor broadcastable with this one
   * @param value a zero-dim tensor
   * @return a new tensor
   */
  public Tensor maskedFill(Tensor mask, Tensor value) {
    if (value == null) {
      throw new IllegalArgumentException("masked_fill: value must not be null");
    }
    return Indexing.maskedFill(self(), mask, value);
  }

  /**
   * The elements where the BOOL {@code mask} (broadcast with this tensor) is true, as a 1-D
   * tensor ({@code torch.masked_select}).
   *
   * @param mask a BOOL tensor
   * @return a new 1-D tensor
   */
  public Tensor maskedSelect(Tensor mask) {
    return Indexing.maskedSelect(self(), mask);
  }

  /**
   * The indices of the nonzero elements as {@code [count, ndim]} INT64 ({@code torch.nonzero}).
   *
   * @return a new tensor
   */
  public Tensor nonzero() {
    return Indexing.nonzero(self());
  }

  // ---- statistics -------------------------------------------------------------------------

  /**
   * The variance over all elements with Bessel's correction ({@code torch.var}).
   *
   * @return a zero-dim tensor
   */
  public Tensor var() {
    return Statistics.var(self(), null, 1, false);
  }

  /**
   * The variance over {@code dims}: {@code sum((x - mean)^2) / (N - correction)} ({@code
   * torch.var(dim, correction=, keepdim=)}). Floating dtypes.
   *
   * @param dims the dimensions reduced
   * @param correction 1 for the sample variance, 0 for the population's
   * @param keepDim keep the reduced dimensions as size 1
   * @return a new tensor
   */
  public Tensor var(int[] dims, double correction, boolean keepDim) {
    return Statistics.var(self(), dims, correction, keepDim);
  }

  /**
   * The standard deviation over all elements with Bessel's correction ({@code torch.std}).
   *
   * @return a zero-dim tensor
   */
  public Tensor std() {
    return Statistics.std(self(), null, 1, false);
  }

  /**
   * The square root of {@link #var(int[], double, boolean)}.
   *
   * @param dims the dimensions reduced
   * @param correction 1 for the sample standard deviation, 0 for the population's
   * @param keepDim keep the reduced dimensions as size 1
   * @return a new tensor
   */
  public Tensor std(int[] dims, double correction, boolean keepDim) {
    return Statistics.std(self(), dims, correction, keepDim);
  }

  /**
   * The index of the first largest element of the flattened tensor ({@code torch.argmax}); NaN
   * counts as the largest.
   *
   * @return a zero-dim INT64 tensor
   */
  public Tensor argmax() {
    return Statistics.argExtreme(self(), null, false, true);
  }

  /**
   * The indices of the first largest elements along {@code dim}.
   *
   * @param dim the dimension searched
   * @param keepDim keep it as size 1
   * @return a new INT64 tensor
   */
  public Tensor argmax(int dim, boolean keepDim) {
    return Statistics.argExtreme(self(), dim, keepDim, true);
  }

  /**
   * The index of the first smallest element of the flattened tensor ({@code torch.argmin}); NaN
   * counts as the smallest.
   *
   * @return a zero-dim INT64 tensor
   */
  public Tensor argmin() {
    return Statistics.argExtreme(self(), null, false, false);
  }

  /**
   * The indices of the first smallest elements along {@code dim}.
   *
   * @param dim the dimension searched
   * @param keepDim keep it as size 1
   * @return a new INT64 tensor
   */
  public Tensor argmin(int dim, boolean keepDim) {
    return Statistics.argExtreme(self(), dim, keepDim, false);
  }

  /**
   * The largest values along {@code dim} and their indices ({@code torch.max(dim)}).
   *
   * @param dim the dimension reduced
   * @param keepDim keep it as size 1
   * @return values and INT64 indices
   */
  public ValuesIndices max(int dim, boolean keepDim) {
    return Statistics.extremeWithIndices(self(), dim, keepDim, true);
  }

  /**
   * The smallest values along {@code dim} and their indices ({@code torch.min(dim)}).
   *
   * @param dim the dimension reduced
   * @param keepDim keep it as size 1
   * @return values and INT64 indices
   */
  public ValuesIndices min(int dim, boolean keepDim) {
    return Statistics.extremeWithIndices(self(), dim, keepDim, false);
  }

  /**
   * How many elements are nonzero over {@code dims} (all when none given), as INT64 ({@code
   * torch.count_nonzero}).
   *
   * @param dims the dimensions reduced
   * @return a new INT64 tensor
   */
  public Tensor countNonzero(int... dims) {
    return Statistics.countNonzero(self(), dims);
  }

  /**
   * The Euclidean norm of all elements ({@code torch.linalg.vector_norm}).
   *
   * @return a zero-dim tensor
   */
  public Tensor norm() {
    return Statistics.norm(self(), 2, null, false);
  }

  /**
   * The {@code p}-norm over {@code dims} (all when null or empty): {@code p} = 2, 1, 0 (count),
   * {@code +-Infinity} (largest or smallest magnitude), or any other number ({@code (sum
   * |x|^p)^(1/p)}).
   *
   * @param p the order
   * @param dims the dimensions reduced
   * @param keepDim keep them as size 1
   * @return a new tensor
   */
  public Tensor norm(double p, int[] dims, boolean keepDim) {
    return Statistics.norm(self(), p, dims, keepDim);
  }

  // ---- factories and accessors ------------------------------------------------------------

  /**
   * A float32 tensor of zeros ({@code torch.zeros(3, 4)}: the default dtype).
   *
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor zeros(long... shape) {
    return Tensor.zeros(Factories.DEFAULT_DTYPE, shape);
  }

  /**
   * A float32 tensor of ones.
   *
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor ones(long... shape) {
    return Tensor.ones(Factories.DEFAULT_DTYPE, shape);
  }

  /**
   * A float32 tensor (zeroed: ufunc4j's storage always is).
   *
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor empty(long... shape) {
    return Tensor.empty(Factories.DEFAULT_DTYPE, shape);
  }

  /**
   * Float32 uniform values in [0, 1) from the default generator ({@link #manualSeed}).
   *
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor rand(long... shape) {
    return Tensor.rand(DefaultGenerator.nextSeed(), Factories.DEFAULT_DTYPE, shape);
  }

  /**
   * Uniform values in [0, 1) of a floating {@code dtype} from the default generator.
   *
   * @param dtype a floating dtype
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor rand(DType dtype, long... shape) {
    return Tensor.rand(DefaultGenerator.nextSeed(), dtype, shape);
  }

  /**
   * Float32 standard normal values from the default generator.
   *
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor randn(long... shape) {
    return Tensor.randn(DefaultGenerator.nextSeed(), Factories.DEFAULT_DTYPE, shape);
  }

  /**
   * Standard normal values of a floating {@code dtype} from the default generator.
   *
   * @param dtype a floating dtype
   * @param shape the sizes
   * @return a new tensor
   */
  public static Tensor randn(DType dtype, long... shape) {
    return Tensor.randn(DefaultGenerator.nextSeed(), dtype, shape);
  }

  /**
   * Resets the default generator of the seedless {@code rand}, {@code randn} and {@code randLike}
   * ({@code torch.manual_seed}): the same calls after the same seed give the same tensors.
   *
   * @param seed the seed
   */
  public static void manualSeed(long seed) {
    DefaultGenerator.manualSeed(seed);
  }

  /**
   * The seed the default generator was last set to ({@code torch.initial_seed}).
   *
   * @return the seed
   */
  public static long initialSeed() {
    return DefaultGenerator.initialSeed();
  }

  /**
   * Zeros of {@code x}'s shape and dtype ({@code torch.zeros_like}).
   *
   * @param x the model tensor
   * @return a new tensor
   */
  public static Tensor zerosLike(Tensor x) {
    return Factories.like(x, null, 0);
  }

  /**
   * Zeros of {@code x}'s shape in {@code dtype}.
   *
   * @param x the model tensor
   * @param dtype the dtype
   * @return a new tensor
   */
  public static Tensor zerosLike(Tensor x, DType dtype) {
    return Factories.like(x, dtype, 0);
  }

  /**
   * Ones of {@code x}'s shape and dtype ({@code torch.ones_like}).
   *
   * @param x the model tensor
   * @return a new tensor
   */
  public static Tensor onesLike(Tensor x) {
    return Factories.like(x, null, 1);
  }

  /**
   * {@code value} in {@code x}'s shape and dtype ({@code torch.full_like}).
   *
   * @param x the model tensor
   * @param value the fill value, converted to the dtype
   * @return a new tensor
   */
  public static Tensor fullLike(Tensor x, double value) {
    return Factories.like(x, null, value);
  }

  /**
   * A tensor of {@code x}'s shape and dtype ({@code torch.empty_like}; zeroed, as all storage).
   *
   * @param x the model tensor
   * @return a new tensor
   */
  public static Tensor emptyLike(Tensor x) {
    return Factories.like(x, null, 0);
  }

  /**
   * Uniform values in [0, 1) in {@code x}'s shape and (floating) dtype, from the default generator
   * ({@code torch.rand_like}).
   *
   * @param x the model tensor
   * @return a new tensor
   */
  public static Tensor randLike(Tensor x) {
    return Factories.randLike(x, null);
  }

  /**
   * The {@code n x n} float32 identity matrix ({@code torch.eye(n)}).
   *
   * @param n rows and columns
   * @return a new tensor
   */
  public static Tensor eye(long n) {
    return Factories.eye(n, n, Factories.DEFAULT_DTYPE);
  }

  /**
   * An {@code n x m} matrix of {@code dtype} with ones on the main diagonal ({@code torch.eye(n,
   * m)}).
   *
   * @param n rows
   * @param m columns
   * @param dtype the dtype
   * @return a new tensor
   */
  public static Tensor eye(long n, long m, DType dtype) {
    return Factories.eye(n, m, dtype);
  }

  /**
   * The value of a zero-dim or one-element tensor as a double ({@code Tensor.item()}).
   *
   * @return the value
   */
  public double item() {
    return self().getDouble(Factories.itemIndex(self()));
  }

  /**
   * The value of a zero-dim or one-element integral or bool tensor as a long.
   *
   * @return the value
   */
  public long itemLong() {
    return self().getLong(Factories.itemIndex(self()));
  }

  /**
   * The value of a zero-dim or one-element tensor as a boolean ({@code != 0}).
   *
   * @return the value
   */
  public boolean itemBoolean() {
    return self().getBoolean(Factories.itemIndex(self()));
  }

  /**
   * Writes {@code value}, converted to the dtype, into every element, in place ({@code fill_}).
   *
   * @param value the value
   * @return this tensor
   */
  public Tensor fill(double value) {
    return Factories.fill(self(), Tensor.scalar(value, DType.FLOAT64));
  }

  /**
   * Writes the integer {@code value}, converted to the dtype, into every element, in place.
   *
   * @param value the value
   * @return this tensor
   */
  public Tensor fill(long value) {
    return Factories.fill(self(), Tensor.scalar(value));
  }

  /**
   * Writes {@code value} into every element, in place.
   *
   * @param value the value
   * @return this tensor
   */
  public Tensor fill(boolean value) {
    return Factories.fill(self(), Tensor.scalar(value));
  }

  /**
   * Clears the accumulated gradient ({@code tensor.grad = None}, as PyTorch's {@code zero_grad}
   * does by default).
   */
  public void zeroGrad() {
    self().setGrad(null);
  }

  /**
   * {@link Tensor#allClose(Tensor, double, double, boolean)} with NaNs unequal ({@code
   * torch.allclose(a, b, rtol, atol)}).
   *
   * @param other the tensor compared, of the same shape
   * @param rtol the relative tolerance
   * @param atol the absolute tolerance
   * @return whether every pair is close
   */
  public boolean allClose(Tensor other, double rtol, double atol) {
    return self().allClose(other, rtol, atol, false);
  }

  /**
   * The shape as PyTorch prints it: {@code [3, 4]}.
   *
   * @return the shape's text
   */
  public String shapeString() {
    return java.util.Arrays.toString(self().shapeRef());
  }

  // ---- comparison ------------------------------------------------------------------------------

  /**
   * {@return true when both tensors have the same shape and every pair of elements is equal as
   * values in their common dtype, like {@code torch.equal}: int64 2^24 + 1 equals float32 2^24, NaN
   * equals nothing, -0.0 equals 0.0; integers compare exactly} Compares in place, without converted
   * copies.
   *
   * @param other the other tensor
   * @throws IllegalArgumentException when {@code other} is null, or the dtypes have no common
   *     dtype (float8 beside another dtype, as in PyTorch)
   */
  public boolean equal(Tensor other) {
    requireOther(other);
    Tensor x = self();
    return Arrays.equals(x.shapeRef(), other.shapeRef())
        && Equality.equal(x.segment(), x.dtype(), x.offset(), x.stridesRef(), other.segment(),
            other.dtype(), other.offset(), other.stridesRef(), x.shapeRef());
  }

  /**
   * {@link #allClose(Tensor, double, double, boolean)} with rtol 1e-5, atol 1e-8, NaN unequal.
   *
   * @param other the other tensor
   * @return whether every pair is close
   */
  public boolean allClose(Tensor other) {
    return allClose(other, 1e-5, 1e-8, false);
  }

  /**
   * {@return true when the shapes are equal and {@code |a - b| <= atol + rtol * |b|} for every pair
   * (complex: the modulus); infinities must match exactly; NaNs match each other only when {@code
   * equalNan}} Broadcast operands first with {@link Tensor#expand}.
   *
   * @param other the other tensor
   * @param rtol the relative tolerance
   * @param atol the absolute tolerance
   * @param equalNan whether NaNs count as equal to each other
   */
  public boolean allClose(Tensor other, double rtol, double atol, boolean equalNan) {
    requireOther(other);
    if (!(rtol >= 0) || !(atol >= 0)) {
      throw new IllegalArgumentException(
          "rtol and atol must be non-negative, got rtol=" + rtol + ", atol=" + atol);
    }
    Tensor x = self();
    if (!Arrays.equals(x.shapeRef(), other.shapeRef())) {
      throw new IllegalArgumentException(
          "allClose needs equal shapes, got " + Arrays.toString(x.shapeRef()) + " and "
              + Arrays.toString(other.shapeRef()));
    }
    long[] idx = new long[x.ndim()];
    for (long i = 0; i < x.numel(); i++) {
      x.unravel(i, idx);
      double ar = x.getReal(idx);
      double ai = x.getImag(idx);
      double br = other.getReal(idx);
      double bi = other.getImag(idx);
      boolean aNan = Double.isNaN(ar) || Double.isNaN(ai);
      boolean bNan = Double.isNaN(br) || Double.isNaN(bi);
      if (aNan || bNan) {
        if (!(equalNan && aNan && bNan)) {
          return false;
        }
        continue;
      }
      if (ar == br && ai == bi) {
        continue; // equal infinities included
      }
      double diff = Math.hypot(ar - br, ai - bi);
      if (!(diff <= atol + rtol * Math.hypot(br, bi))) {
        return false;
      }
    }
    return true;
  }

  private static void requireOther(Tensor other) {
    if (other == null) {
      throw new IllegalArgumentException("other tensor must not be null");
    }
  }

  // ---- reductions (docs/reductions.md) ---------------------------------------------------------

  /** {@return the sum of all elements, a zero-dim tensor: int64 for bool and integral dtypes} */
  public Tensor sum() {
    return Reductions.sum(self(), null, false, null);
  }

  /**
   * {@return the sum over {@code dims} (negative counts from the end; none given: all), dims
   * dropped}
   *
   * @param dims the dimensions (negative counts from the end)
   */
  public Tensor sum(int... dims) {
    return Reductions.sum(self(), dims, false, null);
  }

  /**
   * {@return the sum over {@code dims}, kept as size 1 when {@code keepDim} ({@code torch.sum})}
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor sum(int[] dims, boolean keepDim) {
    return Reductions.sum(self(), dims, keepDim, null);
  }

  /** {@return the mean of all elements; floating and complex dtypes only, as in PyTorch} */
  public Tensor mean() {
    return Reductions.mean(self(), null, false, null);
  }

  /**
   * {@return the mean over {@code dims} (none given: all), dims dropped}
   *
   * @param dims the dimensions (negative counts from the end)
   */
  public Tensor mean(int... dims) {
    return Reductions.mean(self(), dims, false, null);
  }

  /**
   * {@return the mean over {@code dims}, kept as size 1 when {@code keepDim} ({@code torch.mean})}
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor mean(int[] dims, boolean keepDim) {
    return Reductions.mean(self(), dims, keepDim, null);
  }

  /** {@return the largest element (NaN if any is NaN), of this tensor's dtype} */
  public Tensor amax() {
    return Reductions.amax(self(), null, false, null);
  }

  /**
   * {@return the largest element over {@code dims} (none given: all), dims dropped}
   *
   * @param dims the dimensions (negative counts from the end)
   */
  public Tensor amax(int... dims) {
    return Reductions.amax(self(), dims, false, null);
  }

  /**
   * {@return the largest element over {@code dims}, kept as size 1 when {@code keepDim} ({@code
   * torch.amax})}
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor amax(int[] dims, boolean keepDim) {
    return Reductions.amax(self(), dims, keepDim, null);
  }

  /** {@return the smallest element (NaN if any is NaN), of this tensor's dtype} */
  public Tensor amin() {
    return Reductions.amin(self(), null, false, null);
  }

  /**
   * {@return the smallest element over {@code dims} (none given: all), dims dropped}
   *
   * @param dims the dimensions (negative counts from the end)
   */
  public Tensor amin(int... dims) {
    return Reductions.amin(self(), dims, false, null);
  }

  /**
   * {@return the smallest element over {@code dims}, kept as size 1 when {@code keepDim} ({@code
   * torch.amin})}
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor amin(int[] dims, boolean keepDim) {
    return Reductions.amin(self(), dims, keepDim, null);
  }

  /**
   * {@return this tensor summed to {@code shape} ({@code torch.Tensor.sum_to_size}): over the
   * leading dims broadcasting added and the dims that are 1 in {@code shape}} The gradient of an
   * operand that was broadcast to this tensor's shape. Returns this tensor when nothing is summed.
   *
   * @param shape the sizes, outermost first
   * @throws BroadcastException when {@code shape} does not expand to this tensor's shape
   */
  public Tensor sumToShape(long... shape) {
    return Reductions.sumToShape(self(), shape);
  }

  // ---- ufunc reductions and scans (BinaryUfunc; docs/ufuncs.md) --------------------------------

  /**
   * {@return the running sum along {@code dim} ({@code torch.cumsum}): {@code
   * Ops.add.accumulate(self(), dim)}; bool and integral tensors give int64}
   *
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor cumsum(int dim) {
    return Ops.add.accumulate(self(), dim);
  }

  /**
   * {@return the running product along {@code dim} ({@code torch.cumprod}): {@code
   * Ops.mul.accumulate(self(), dim)}; bool and integral tensors give int64}
   *
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor cumprod(int dim) {
    return Ops.mul.accumulate(self(), dim);
  }

  /**
   * {@return the product of every element ({@code torch.prod}): zero-dim; int64 for bool and
   * integral}
   */
  public Tensor prod() {
    return Ops.mul.reduce(self());
  }

  /**
   * {@return the product over {@code dim}, kept as size 1 when {@code keepDim} ({@code
   * torch.prod})}
   *
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor prod(int dim, boolean keepDim) {
    return Ops.mul.reduce(self(), new int[] {dim}, keepDim);
  }

  /**
   * {@code log(sum(exp(x)))} over {@code dims} (none: all), kept as size 1 when {@code keepDim}
   * ({@code torch.logsumexp}): computed as PyTorch does, shifted by the maximum so that large
   * values do not overflow (an infinite maximum shifts by 0). Bool and integral tensors compute
   * in float32.
   *
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return a new tensor
   */
  public Tensor logsumexp(int[] dims, boolean keepDim) {
    return Ufuncs.logsumexp(self(), dims, keepDim);
  }

  /** {@return whether any element is nonzero ({@code torch.any}): a zero-dim bool tensor} */
  public Tensor any() {
    return Ops.logicalOr.reduce(self());
  }

  /**
   * {@return whether any element over {@code dim} is nonzero, as bool ({@code torch.any(dim,
   * keepdim)})}
   *
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor any(int dim, boolean keepDim) {
    return Ops.logicalOr.reduce(self(), new int[] {dim}, keepDim);
  }

  /** {@return whether every element is nonzero ({@code torch.all}): a zero-dim bool tensor} */
  public Tensor all() {
    return Ops.logicalAnd.reduce(self());
  }

  /**
   * {@return whether every element over {@code dim} is nonzero, as bool ({@code torch.all(dim,
   * keepdim)})}
   *
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor all(int dim, boolean keepDim) {
    return Ops.logicalAnd.reduce(self(), new int[] {dim}, keepDim);
  }
}
