package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code relu} declared by {@link golden.Ops} whose widest lane type is 32 bits and that step at least 2 elements.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_relu_w32min2 implements ElementwiseKernel {
  static final ElementwiseKernel BFLOAT16 = new Ops_relu_w32min2();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits), and at least 2.
   */
  private static final int LANES = Math.max(VectorShape.preferredShape().vectorBitSize() / 32, 2);

  private static final VectorSpecies<Short> SHORTS = VectorSpecies.of(short.class, VectorShape.forBitSize(LANES * 16));

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_relu_w32min2() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    bfloat16(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (bfloat16) promoted to bfloat16, computed in float32, stored as bfloat16.
   */
  private static void bfloat16(long rows, long cols, MemorySegment[] segments, long[] offsets,
      long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment xData = segments[1];
    long outStride = strides[1];
    long xStride = strides[3];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long xOff = offsets[1] + r * strides[2];
      long done = 0;
      if (outStride == 1 && xStride == 1) {
        done = bfloat16_contiguous(cols, outData, outOff, xData, xOff);
      }
      if (done < cols) {
        bfloat16_strided(cols - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride);
      }
    }
  }

  private static long bfloat16_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = ((IntVector) ShortVector.fromMemorySegment(SHORTS, xData, (xOff + i) * 2, ORDER).convertShape(ZERO_EXTEND_S2I, INTS, 0)).lanewise(LSHL, 16).reinterpretAsFloats();
      FloatVector result = FloatVector.broadcast(FLOATS, 0.0f).blend(x, x.compare(GT, 0.0f));
      IntVector singleBits = result.reinterpretAsInts();
      IntVector bfloatBits = singleBits.add(singleBits.lanewise(LSHR, 16).and(1).add(0x7FFF)).lanewise(LSHR, 16)
              .blend(0x7FC0, result.test(IS_NAN).cast(INTS));
      ShortVector stored = ((ShortVector) bfloatBits.convertShape(I2S, SHORTS, 0));
      stored.intoMemorySegment(outData, (outOff + i) * 2, ORDER);
    }
    return bound;
  }

  private static void bfloat16_strided(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    MemorySegment[] blocks = LaneScratch.blocks(2, LANES * 2);
    MemorySegment outLanes = blocks[0];
    MemorySegment xLanes = blocks[1];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_SHORT_UNALIGNED, k, xData.getAtIndex(JAVA_SHORT_UNALIGNED, xOff + e * xStride));
      }
      bfloat16_contiguous(LANES, outLanes, 0, xLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_SHORT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_SHORT_UNALIGNED, k));
      }
    }
  }
}
