package dev.ufunc4j.kernel;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.TensorScope;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.loops.StridedBox;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelLoops}: a small broadcast of short rows ({@code [4,4] + [4]}, the {@code tiny_4x4}
 * benchmark) runs as one contiguous row, with the same values as row by row (issue 28, item 6).
 */
class KernelLoopsTest {

  /** Records each box it is given and computes {@code out = a + b} (float32) over it. */
  private static final class AddBox implements StridedBox {
    final List<long[]> calls = new ArrayList<>();

    @Override
    public void box(long rows, long cols, MemorySegment[] segments, long[] offsets,
        long[] strides, double[] floatScalars, long[] intScalars) {
      calls.add(new long[] {rows, cols});
      for (long r = 0; r < rows; r++) {
        for (long c = 0; c < cols; c++) {
          float a = segments[1].getAtIndex(JAVA_FLOAT_UNALIGNED,
              offsets[1] + r * strides[2] + c * strides[3]);
          float b = segments[2].getAtIndex(JAVA_FLOAT_UNALIGNED,
              offsets[2] + r * strides[4] + c * strides[5]);
          segments[0].setAtIndex(JAVA_FLOAT_UNALIGNED,
              offsets[0] + r * strides[0] + c * strides[1], a + b);
        }
      }
    }
  }

  private static MemorySegment floats(Arena arena, float... values) {
    MemorySegment s = arena.allocate(4L * values.length, 4);
    for (int i = 0; i < values.length; i++) {
      s.setAtIndex(JAVA_FLOAT_UNALIGNED, i, values[i]);
    }
    return s;
  }

  /**
   * Before the fix the kernel was given the 4 × 4 box, so a generated kernel ran its strided tail
   * (a ThreadLocal lookup and a whole vector) once per 4-element row; now it gets one row of 16.
   */
  @Test
  void rowBroadcastOfShortRowsRunsAsOneRow() {
    try (Arena arena = Arena.ofConfined()) {
      float[] x = new float[16];
      for (int i = 0; i < 16; i++) {
        x[i] = i * 0.5f;
      }
      MemorySegment out = arena.allocate(64, 4);
      MemorySegment a = floats(arena, x);
      MemorySegment b = floats(arena, 100f, 200f, 300f, 400f);
      LoopPlan plan = LoopPlan.of(
          new long[] {4, 4}, new long[][] {{4, 1}, {4, 1}, {0, 1}}, new int[] {4, 4, 4});
      AddBox box = new AddBox();
      KernelLoops.run(box, plan, new MemorySegment[] {out, a, b}, new long[3], new double[0],
          new long[0], Long.MAX_VALUE);
      assertEquals(1, box.calls.size());
      assertArrayEquals(new long[] {1, 16}, box.calls.get(0), "one row of 16 elements");
      for (int i = 0; i < 16; i++) {
        assertEquals(x[i] + (i % 4 + 1) * 100f, out.getAtIndex(JAVA_FLOAT_UNALIGNED, i));
      }
    }
  }

  /** Long rows, large boxes and strided (not broadcast) inputs keep the box walk. */
  @Test
  void otherPlansKeepTheirBoxes() {
    int[] bytes = {4, 4, 4};
    assertFalse(KernelLoops.asOneRow(LoopPlan.of(
        new long[] {4, 64}, new long[][] {{64, 1}, {64, 1}, {0, 1}}, bytes)), "long rows");
    assertFalse(KernelLoops.asOneRow(LoopPlan.of(
        new long[] {2048, 4}, new long[][] {{4, 1}, {4, 1}, {0, 1}}, bytes)), "many elements");
    assertFalse(KernelLoops.asOneRow(LoopPlan.of(
        new long[] {4, 4}, new long[][] {{4, 1}, {8, 2}, {0, 1}}, bytes)), "a strided view");
  }

  /**
   * Through the ops, every kind of operand the one-row path takes — contiguous, broadcast along
   * rows, along columns, along both — and a row length that leaves a tail of the vector, in and out
   * of a scope, against the op's scalar method ({@code a + b}, in float32 and int32 arithmetic).
   */
  @Test
  void smallBroadcastsAddAsTheScalarMethod() {
    long[][][] shapes = {
        {{4, 4}, {4}}, {{4, 1}, {1, 4}}, {{4, 1}, {4, 5}}, {{3, 5}, {5}}, {{6, 7}, {}},
        {{2, 3, 4}, {4}}};
    for (long[][] pair : shapes) {
      for (boolean scoped : new boolean[] {false, true}) {
        try (var _ = scoped ? TensorScope.open() : null) {
          Tensor x = Tensor.rand(1, DType.FLOAT32, pair[0]);
          Tensor y = Tensor.rand(2, DType.FLOAT32, pair[1]);
          checkFloatSum(x, y, x.add(y));
          Tensor i = Tensor.randint(3, -1000, 1000, DType.INT32, pair[0]);
          Tensor j = Tensor.randint(4, -1000, 1000, DType.INT32, pair[1]);
          checkIntSum(i, j, i.add(j));
        }
      }
    }
  }

  private static void checkFloatSum(Tensor x, Tensor y, Tensor sum) {
    long[] shape = sum.shape();
    float[] xs = x.expand(shape).contiguous().toFloatArray();
    float[] ys = y.expand(shape).contiguous().toFloatArray();
    float[] got = sum.toFloatArray();
    for (int e = 0; e < got.length; e++) {
      assertEquals(xs[e] + ys[e], got[e], 0f, "element " + e);
    }
  }

  private static void checkIntSum(Tensor x, Tensor y, Tensor sum) {
    long[] shape = sum.shape();
    double[] xs = x.expand(shape).contiguous().toDoubleArray();
    double[] ys = y.expand(shape).contiguous().toDoubleArray();
    double[] got = sum.toDoubleArray();
    for (int e = 0; e < got.length; e++) {
      assertEquals(xs[e] + ys[e], got[e], 0.0, "element " + e);
    }
  }
}
