package dev.ufunc4j.internal.loops;

import dev.ufunc4j.internal.RuntimeContext;
import dev.ufunc4j.internal.Tunables;
import java.util.Arrays;

/**
 * The loop nest an elementwise kernel runs: PyTorch's TensorIterator pipeline on plain arrays.
 * Given the broadcast shape and every operand's element strides (0 on broadcast dimensions), it
 * drops size-1 dimensions, orders dimensions so that the innermost moves fastest in memory, and
 * coalesces dimensions that are contiguous for every operand. The result is what {@link
 * Loops} walks: a rank, sizes outermost first and strides {@code [operand * rank + dim]}; the
 * kernel sees the two innermost dimensions as one box.
 *
 * <p>When one input walks its innermost loop dimension with a large stride while another operand
 * walks it contiguously (a transposed operand: {@code a + b.T}), the plan is also <em>tiled</em>:
 * {@link Tiling} runs the two innermost dimensions in tiles and copies each such input's tile
 * into a contiguous scratch block first, so the kernel only sees unit strides and every cache
 * line of the transposed operand is fetched once. See docs/runtime.md, "Transposed operands".
 *
 * <p>All of this is per call and per dimension, never per element.
 */
public final class LoopPlan {
  /** Loop rank, at least 1 (a zero-dim or one-element loop is rank 1 of size 1). */
  public final int rank;

  /** Loop sizes, outermost first. */
  public final long[] shape;

  /** Element strides, {@code strides[operand * rank + dim]}. */
  public final long[] strides;

  /**
   * The strides of the two innermost dimensions as {@link
   * dev.ufunc4j.kernel.ElementwiseKernel#box} takes them: {@code [2 * operand]} from row to row
   * (0 for rank 1), {@code [2 * operand + 1]} within a row.
   */
  public final long[] boxStrides;

  public final int operands;

  /**
   * Tile size along loop dimension {@code rank - 2} (rows) and {@code rank - 1} (columns) when
   * the plan is tiled, else 0.
   */
  public final int tileRows;

  public final int tileCols;

  /** Per operand, when tiled: whether {@link Tiling} copies its tiles to a contiguous scratch. */
  final boolean[] staged;

  /** Per operand: bytes per element (a complex element is one pair); null when not given. */
  public final int[] elementBytes;

  private LoopPlan(int operands, int rank, long[] shape, long[] strides, int[] elementBytes) {
    this(operands, rank, shape, strides, 0, 0, null, elementBytes);
  }

  private LoopPlan(
      int operands,
      int rank,
      long[] shape,
      long[] strides,
      int tileRows,
      int tileCols,
      boolean[] staged,
      int[] elementBytes) {
    this.operands = operands;
    this.rank = rank;
    this.shape = shape;
    this.strides = strides;
    this.boxStrides = Loops.boxStrides(rank, strides, operands);
    this.tileRows = tileRows;
    this.tileCols = tileCols;
    this.staged = staged;
    this.elementBytes = elementBytes;
  }

  /** Whether {@link Parallel#run} runs this plan tile by tile through {@link Tiling}. */
  public boolean tiled() {
    return tileRows > 0;
  }

  /**
   * Whether every row of the innermost dimension has one value: the output walks it contiguously
   * and every input broadcasts along it (stride 0), as when all inputs are {@code expand}ed views.
   * {@link Loops} then computes the first column and copies it along each row. Needs the element
   * sizes ({@link #of(long[], long[][], int[])}).
   */
  public boolean repeatsRows() {
    int inner = rank - 1;
    if (elementBytes == null || tiled() || shape[inner] < 2 || strides[inner] != 1) {
      return false;
    }
    for (int k = 1; k < operands; k++) {
      if (strides[k * rank + inner] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether operand {@code k}'s tiles are copied to a contiguous scratch (tiled plans only). */
  public boolean staged(int k) {
    return staged != null && staged[k];
  }

  /** Total number of elements the loop visits. */
  public long numel() {
    long n = 1;
    for (int d = 0; d < rank; d++) {
      n *= shape[d];
    }
    return n;
  }

  /**
   * Plans the loop over {@code shape} (dimensions outermost first, as a tensor's shape) for
   * operands whose element strides are {@code operandStrides[k]} (each of length {@code
   * shape.length}, 0 on broadcast dimensions). Operand 0 decides the order first, so a given
   * output's layout is walked in memory order.
   */
  public static LoopPlan of(long[] shape, long[][] operandStrides) {
    return of(shape, operandStrides, null);
  }

  /**
   * As {@link #of(long[], long[][])}, and tiled (see the class comment) when an input's inner
   * stride conflicts with the others' and {@code elementBytes} (bytes per element of each operand,
   * output first) is given; null never tiles.
   */
  public static LoopPlan of(long[] shape, long[][] operandStrides, int[] elementBytes) {
    Cached[] cache = RuntimeContext.current().plans().slots;
    int slot = slot(shape, operandStrides, elementBytes);
    Cached hit = cache[slot];
    if (hit != null && hit.matches(shape, operandStrides, elementBytes)) {
      return hit.plan;
    }
    int[] bytes = elementBytes == null ? null : elementBytes.clone();
    LoopPlan plan = ordered(shape, operandStrides, bytes);
    plan = bytes == null ? plan : plan.tiledIfTransposed();
    if (shape.length <= CACHED_RANK) {
      cache[slot] = new Cached(shape, operandStrides, elementBytes, plan);
    }
    return plan;
  }

  // ============================================================================================
  // Plans of recent calls, for loops that repeat a shape (measured: docs/runtime.md)
  // ============================================================================================

  /** Slots of the plan cache (a power of two). */
  private static final int CACHE_SLOTS = 64;

  /** Plans of loops up to this rank are cached: the key is copied on every miss. */
  private static final int CACHED_RANK = 8;

  /**
   * Recent plans by a hash of their arguments, one per slot (a newer plan replaces the one in its
   * slot); the runtime context owns one. Shared by all threads without a lock: an entry is
   * immutable, so a thread sees either a whole entry or none, and a plan is never modified once
   * made (callers copy what they change).
   */
  public static final class Cache {
    private final Cached[] slots = new Cached[CACHE_SLOTS];
  }

  private static int slot(long[] shape, long[][] operandStrides, int[] elementBytes) {
    long h = shape.length * 31L + operandStrides.length;
    for (long d : shape) {
      h = h * 31 + d;
    }
    for (long[] st : operandStrides) {
      for (long x : st) {
        h = h * 31 + x;
      }
    }
    if (elementBytes != null) {
      for (int b : elementBytes) {
        h = h * 31 + b;
      }
    }
    h ^= h >>> 29;
    h *= 0x9E3779B97F4A7C15L;
    return (int) (h >>> 58) & (CACHE_SLOTS - 1);
  }

  /** One cached plan with a copy of the arguments it was made for. */
  private static final class Cached {
    final long[] shape;
    final long[][] strides;
    final int[] elementBytes;
    final LoopPlan plan;

    Cached(long[] shape, long[][] strides, int[] elementBytes, LoopPlan plan) {
      this.shape = shape.clone();
      this.strides = new long[strides.length][];
      for (int k = 0; k < strides.length; k++) {
        this.strides[k] = strides[k].clone();
      }
      this.elementBytes = elementBytes == null ? null : elementBytes.clone();
      this.plan = plan;
    }

    boolean matches(long[] shape, long[][] strides, int[] elementBytes) {
      if (!Arrays.equals(this.shape, shape) || this.strides.length != strides.length
          || !Arrays.equals(this.elementBytes, elementBytes)) {
        return false;
      }
      for (int k = 0; k < strides.length; k++) {
        if (!Arrays.equals(this.strides[k], strides[k])) {
          return false;
        }
      }
      return true;
    }
  }

  private static LoopPlan ordered(long[] shape, long[][] operandStrides, int[] elementBytes) {
    int ndim = shape.length;
    int ops = operandStrides.length;
    // Dimensions kept, innermost first (TensorIterator's convention while it sorts).
    int[] dims = new int[ndim];
    int kept = 0;
    for (int d = ndim - 1; d >= 0; d--) {
      if (shape[d] != 1) {
        dims[kept++] = d;
      }
    }
    dims = Arrays.copyOf(dims, kept);
    sortInnermostFirst(dims, shape, operandStrides);

    // Coalesce, walking from innermost outwards: dim `outer` merges into the current group when
    // every operand steps from the group's last element exactly onto the next one.
    long[] sizes = new long[Math.max(kept, 1)];
    long[][] st = new long[ops][Math.max(kept, 1)];
    int r = 0;
    if (kept == 0) {
      sizes[0] = 1;
      r = 1;
    } else {
      sizes[0] = shape[dims[0]];
      for (int k = 0; k < ops; k++) {
        st[k][0] = operandStrides[k][dims[0]];
      }
      r = 1;
      for (int i = 1; i < kept; i++) {
        int d = dims[i];
        boolean merge = true;
        for (int k = 0; k < ops && merge; k++) {
          merge = operandStrides[k][d] == st[k][r - 1] * sizes[r - 1];
        }
        if (merge) {
          sizes[r - 1] *= shape[d];
        } else {
          sizes[r] = shape[d];
          for (int k = 0; k < ops; k++) {
            st[k][r] = operandStrides[k][d];
          }
          r++;
        }
      }
    }
    // Reverse to outermost first, the kernel's order.
    long[] outShape = new long[r];
    long[] outStrides = new long[ops * r];
    for (int i = 0; i < r; i++) {
      outShape[r - 1 - i] = sizes[i];
      for (int k = 0; k < ops; k++) {
        outStrides[k * r + (r - 1 - i)] = st[k][i];
      }
    }
    return new LoopPlan(ops, r, outShape, outStrides, elementBytes);
  }

  /**
   * Bytes of one tile row of the first staged operand (1 KiB: 256 float32), measured best for a
   * transposed (4096, 4096) float32 add among 32 B to 4 KiB; docs/runtime.md has the numbers.
   */
  static final int TILE_ROW_BYTES =
      tunable(Tunables.property("ufunc4j.tileRowBytes", 1, 1 << 20), 1024);

  /**
   * Columns per tile, measured best among 256 to 4096; at most 65536 (the strip scratch is 8 of
   * them), at least 1 (0 made the tile loop never advance).
   */
  static final int TILE_COLS = tunable(Tunables.property("ufunc4j.tileCols", 1, 1 << 16), 1024);

  private static int tunable(Long value, int fallback) {
    return value != null ? value.intValue() : fallback;
  }

  /** Below these the kernel's own strided loop is as good: too little to vectorize or reuse. */
  private static final long MIN_TILED_COLS = 8;

  private static final long MIN_TILED_ROWS = 2;

  /**
   * This plan tiled when some input's innermost stride is not 1 (nor 0) while a dimension further
   * out is nearer in memory for it, and some operand is contiguous in the innermost dimension;
   * else this plan. The dimension where the first such input is nearest in memory moves to
   * {@code rank - 2}, just outside the innermost one, so that its tiles are read in whole cache
   * lines. Operand 0, the output, decided the order and is never staged.
   */
  private LoopPlan tiledIfTransposed() {
    int r = rank;
    if (r < 2) {
      return this;
    }
    int inner = r - 1;
    boolean anyUnit = false;
    for (int k = 0; k < operands; k++) {
      anyUnit |= Math.abs(strides[k * r + inner]) == 1;
    }
    int lead = -1;
    int leadDim = -1;
    for (int k = 1; k < operands && lead < 0; k++) {
      long jump = Math.abs(strides[k * r + inner]);
      if (jump <= 1) {
        continue;
      }
      long nearest = jump;
      for (int d = 0; d < inner; d++) {
        long s = Math.abs(strides[k * r + d]);
        if (s != 0 && s < nearest) {
          nearest = s;
          leadDim = d;
        }
      }
      if (nearest < jump) {
        lead = k;
      }
    }
    if (lead < 0 || !anyUnit) {
      return this;
    }
    // Loop dimensions outermost first, leadDim moved to rank - 2 (outer loops commute).
    int[] order = new int[r];
    int n = 0;
    for (int d = 0; d < inner; d++) {
      if (d != leadDim) {
        order[n++] = d;
      }
    }
    order[n++] = leadDim;
    order[n] = inner;
    long rows = shape[leadDim];
    long cols = shape[inner];
    if (rows < MIN_TILED_ROWS || cols < MIN_TILED_COLS) {
      return this;
    }
    long[] newShape = new long[r];
    long[] newStrides = new long[operands * r];
    for (int i = 0; i < r; i++) {
      newShape[i] = shape[order[i]];
      for (int k = 0; k < operands; k++) {
        newStrides[k * r + i] = strides[k * r + order[i]];
      }
    }
    boolean[] staged = new boolean[operands];
    for (int k = 1; k < operands; k++) {
      long jump = Math.abs(newStrides[k * r + inner]);
      long near = Math.abs(newStrides[k * r + inner - 1]);
      staged[k] = jump > 1 && near != 0 && near < jump;
    }
    int tileRows = Math.max(1, TILE_ROW_BYTES / elementBytes[lead] / Tiling.STRIP) * Tiling.STRIP;
    return new LoopPlan(
        operands, r, newShape, newStrides, tileRows, TILE_COLS, staged, elementBytes);
  }

  /**
   * Strides for a new output of {@code shape} laid out in the memory order the inputs suggest
   * (PyTorch's output layout propagation: {@code a.T + b.T} gives a transposed result), so that
   * the loop walks every operand in memory order. Contiguous inputs give C-contiguous strides.
   */
  public static long[] outputStrides(long[] shape, long[][] inputStrides) {
    int ndim = shape.length;
    int[] dims = new int[ndim];
    for (int i = 0; i < ndim; i++) {
      dims[i] = ndim - 1 - i;
    }
    sortInnermostFirst(dims, shape, inputStrides);
    long[] strides = new long[ndim];
    long step = 1;
    for (int d : dims) {
      strides[d] = step;
      step *= Math.max(shape[d], 1);
    }
    return strides;
  }

  /**
   * Insertion sort of {@code dims} (initially innermost first) so that the first operand whose
   * strides tell two dimensions apart puts the smaller stride inside; stride 0 (broadcast) tells
   * nothing. TensorIterator::reorder_dimensions, comparison and loop alike.
   */
  private static void sortInnermostFirst(int[] dims, long[] shape, long[][] operandStrides) {
    for (int i = 1; i < dims.length; i++) {
      int dim1 = i;
      for (int dim0 = i - 1; dim0 >= 0; dim0--) {
        int comparison = compare(dims[dim0], dims[dim1], shape, operandStrides);
        if (comparison > 0) {
          int t = dims[dim0];
          dims[dim0] = dims[dim1];
          dims[dim1] = t;
          dim1 = dim0;
        } else if (comparison < 0) {
          break;
        }
      }
    }
  }

  /** Positive when {@code inner} should move outside {@code outer}, negative to keep, 0 undecided. */
  private static int compare(int inner, int outer, long[] shape, long[][] operandStrides) {
    for (long[] s : operandStrides) {
      long a = s[inner];
      long b = s[outer];
      if (a == 0 || b == 0) {
        continue;
      }
      if (a != b) {
        return a < b ? -1 : 1;
      }
      // Equal strides: the smaller dimension goes inside.
      if (shape[inner] > shape[outer]) {
        return 1;
      }
    }
    return 0;
  }

  @Override
  public String toString() {
    return "LoopPlan{rank=" + rank + ", shape=" + Arrays.toString(shape)
        + ", strides=" + Arrays.toString(strides)
        + (tiled()
            ? ", tiles=" + tileRows + "x" + tileCols + ", staged=" + Arrays.toString(staged)
            : "")
        + "}";
  }
}
