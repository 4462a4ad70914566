package dev.ufunc4j.internal.loops;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The one walk over loop dimensions, for every kernel (PyTorch's {@code for_each} around a {@code
 * Loops.h} loop): the two innermost dimensions are one {@linkplain StridedBox#box box} (a
 * rank-1 loop is a box of one row), and an odometer visits every index of the dimensions above
 * them. A generated kernel is then only its rows; the walk is written once, here.
 *
 * <p>One more shape is handled here rather than in every kernel: a box whose inputs all
 * broadcast along its rows ({@link LoopPlan#repeatsRows}) has one value per row, so {@link
 * #firstColumnRepeated} computes the first column and copies it along.
 *
 * <p><b>Every kernel call goes through {@link #box}</b>, which keeps the kernel out of its
 * caller's compilation: see there.
 */
public final class Loops {
  /** Box strides of rank-1 unit-stride loops, by operand count: {@code {0, 1, 0, 1, ...}}. */
  private static final long[][] UNIT_ROW_STRIDES = new long[16][];

  static {
    for (int ops = 0; ops < UNIT_ROW_STRIDES.length; ops++) {
      UNIT_ROW_STRIDES[ops] = unitRowStrides(ops);
    }
  }

  /**
   * {@link StridedBox#box}, called through a method handle that the JIT cannot see through.
   * Deliberately not {@code final}: C2 inlines {@code invokeExact} only on a constant handle, so
   * this field is what keeps a kernel a compilation root of its own (see {@link #box}).
   */
  private static MethodHandle kernelBox = boxHandle();

  private Loops() {}

  private static MethodHandle boxHandle() {
    try {
      return MethodHandles.lookup()
          .findVirtual(
              StridedBox.class,
              "box",
              MethodType.methodType(
                  void.class,
                  long.class,
                  long.class,
                  MemorySegment[].class,
                  long[].class,
                  long[].class,
                  double[].class,
                  long[].class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Runs {@code kernel.box(...)} as a call the JIT does not inline, so that the kernel's loop is
   * compiled with the same inlining budget wherever it is called from.
   *
   * <p>Why (measured, JDK 25): C2 inlines at most {@code MaxInlineLevel} (15) calls deep. The JDK
   * methods under a Vector API load or store are {@code @ForceInline} (or plain accessors) and
   * ignore that limit, except {@code NativeMemorySegmentImpl.unsafeGetBase()}, six calls below a
   * kernel's row loop. A caller that the JIT compiles together with the dispatcher and the kernel
   * ({@code OpsBench.call} → {@code Ops.add} → {@code Builtins.addWithoutAlpha} → {@code Ops.add} →
   * {@code Dispatch.apply} ×2 → {@code ElementwiseCall.run} → {@code runRow} → {@code
   * Loops.contiguous} → {@code box} → {@code float32_float32} → {@code float32_float32_contiguous}
   * → 6 JDK frames) puts that call 17 deep: PrintInlining says "failed to inline: inlining too
   * deep", the loop makes one real call per vector load, and {@code add_1M} ran 3× slower (≈150 →
   * 470–700 µs) from the moment that caller was compiled. Through a handle that is not a constant,
   * the call is an indirect one and {@code box} is compiled as its own root, where {@code
   * unsafeGetBase} sits about eight calls deep whoever the caller is; the cost is one indirect call
   * per box, a few nanoseconds (docs/architecture.md, "The kernel call is a compilation root").
   */
  static void box(
      StridedBox kernel,
      long rows,
      long cols,
      MemorySegment[] segments,
      long[] offsets,
      long[] strides,
      double[] floatScalars,
      long[] intScalars) {
    try {
      kernelBox.invokeExact(
          kernel, rows, cols, segments, offsets, strides, floatScalars, intScalars);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      // box declares no checked exception; javac cannot know that invokeExact does not either
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs {@code kernel} over the loop nest {@code shape} (outermost first, {@code rank} entries)
   * with strides {@code strides[operand * rank + dim]}, as {@code ElementwiseKernel.run} takes
   * them. Does nothing when a dimension is empty.
   */
  public static void run(
      StridedBox kernel,
      int rank,
      long[] shape,
      MemorySegment[] segments,
      long[] offsets,
      long[] strides,
      double[] floatScalars,
      long[] intScalars) {
    long[] boxStrides = boxStrides(rank, strides, segments.length);
    run(kernel, rank, shape, strides, boxStrides, segments, offsets, floatScalars, intScalars);
  }

  /**
   * Runs one contiguous row of {@code n} elements (every operand at unit stride, {@code n >= 1}),
   * the dispatcher's same-shape fast path.
   */
  public static void contiguous(
      StridedBox kernel,
      long n,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    int ops = segments.length;
    long[] unit = ops < UNIT_ROW_STRIDES.length ? UNIT_ROW_STRIDES[ops] : unitRowStrides(ops);
    box(kernel, 1, n, segments, offsets, unit, floatScalars, intScalars);
  }

  private static long[] unitRowStrides(int operands) {
    long[] s = new long[2 * operands];
    for (int k = 0; k < operands; k++) {
      s[2 * k + 1] = 1;
    }
    return s;
  }

  /**
   * The strides of the two innermost dimensions in {@link StridedBox#box}'s layout ({@code
   * [2 * operand]} between rows, {@code [2 * operand + 1]} within one); a rank-1 loop's rows step
   * 0. A rank-2 loop's strides already have that layout and are returned as they are.
   */
  static long[] boxStrides(int rank, long[] strides, int operands) {
    if (rank == 2) {
      return strides;
    }
    long[] box = new long[2 * operands];
    for (int k = 0; k < operands; k++) {
      box[2 * k] = rank == 1 ? 0 : strides[k * rank + rank - 2];
      box[2 * k + 1] = strides[k * rank + rank - 1];
    }
    return box;
  }

  /**
   * {@code kernel} computing only the first column of each box and copying it along the row:
   * for plans that {@linkplain LoopPlan#repeatsRows() repeat rows}, whose output is contiguous
   * along the row ({@code outputBytes} per element) and whose inputs do not move along it.
   */
  public static StridedBox firstColumnRepeated(StridedBox kernel, int outputBytes) {
    return new StridedBox() {
      @Override
      public void box(
          long rows,
          long cols,
          MemorySegment[] segments,
          long[] offsets,
          long[] strides,
          double[] floatScalars,
          long[] intScalars) {
        // A direct call: this wrapper is itself called through Loops.box, so it is the root.
        kernel.box(rows, 1, segments, offsets, strides, floatScalars, intScalars);
        for (long r = 0; r < rows; r++) {
          repeatFirst(segments[0], offsets[0] + r * strides[0], cols, outputBytes);
        }
      }
    };
  }

  /**
   * Copies element {@code offset} of {@code data} ({@code elementBytes} bytes each) over elements
   * {@code offset + 1} to {@code offset + count - 1}: doubling bulk copies, each from the part
   * already written.
   */
  static void repeatFirst(MemorySegment data, long offset, long count, int elementBytes) {
    long start = offset * elementBytes;
    long total = count * elementBytes;
    long done = elementBytes;
    while (done < total) {
      long chunk = Math.min(done, total - done);
      MemorySegment.copy(data, start, data, start + done, chunk);
      done += chunk;
    }
  }

  /**
   * As {@link #run(StridedBox, int, long[], MemorySegment[], long[], long[], double[],
   * long[])}, with the box strides already derived ({@link #boxStrides}).
   */
  public static void run(
      StridedBox kernel,
      int rank,
      long[] shape,
      long[] strides,
      long[] boxStrides,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    for (int d = 0; d < rank; d++) {
      if (shape[d] == 0) {
        return;
      }
    }
    long cols = shape[rank - 1];
    if (rank <= 2) {
      long rows = rank == 1 ? 1 : shape[0];
      box(kernel, rows, cols, segments, offsets, boxStrides, floatScalars, intScalars);
      return;
    }
    // An odometer over dimensions 0 .. rank - 3; each index is one box of the innermost two.
    int outer = rank - 2;
    long rows = shape[outer];
    int ops = segments.length;
    long[] at = offsets.clone();
    long[] index = new long[outer];
    while (true) {
      box(kernel, rows, cols, segments, at, boxStrides, floatScalars, intScalars);
      int d = outer - 1;
      for (; d >= 0; d--) {
        for (int k = 0; k < ops; k++) {
          at[k] += strides[k * rank + d];
        }
        if (++index[d] < shape[d]) {
          break;
        }
        for (int k = 0; k < ops; k++) {
          at[k] -= shape[d] * strides[k * rank + d];
        }
        index[d] = 0;
      }
      if (d < 0) {
        return;
      }
    }
  }
}
