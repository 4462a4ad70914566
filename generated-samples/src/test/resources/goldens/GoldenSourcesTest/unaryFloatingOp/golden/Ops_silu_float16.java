package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.HalfChunks;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The {@link golden.Ops#silu(double)} kernel for (float16) promoted to float16, computed in float32, stored as float16.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_silu_float16 implements ElementwiseKernel {
  static final ElementwiseKernel INSTANCE = new Ops_silu_float16();

  /**
   * Lanes per step: a preferred-size vector of the widest lane type, and at least 32 bits of the narrowest.
   */
  private static final int LANES = Math.max(VectorShape.preferredShape().vectorBitSize() / 32, 2);

  private static final VectorSpecies<Short> SHORTS = VectorSpecies.of(short.class, VectorShape.forBitSize(LANES * 16));

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_silu_float16() {
  }

  @Override
  public void run(int rank, long[] shape, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment xData = segments[1];
    switch (rank) {
      case 1 -> row(shape[0], outData, offsets[0], strides[0], xData, offsets[1], strides[1]);
      case 2 -> {
        for (long i0 = 0; i0 < shape[0]; i0++) {
          row(shape[1], outData, offsets[0] + i0 * strides[0], strides[1], xData, offsets[1] + i0 * strides[2], strides[3]);
        }
      }
      case 3 -> {
        for (long i0 = 0; i0 < shape[0]; i0++) {
          for (long i1 = 0; i1 < shape[1]; i1++) {
            row(shape[2], outData, offsets[0] + i0 * strides[0] + i1 * strides[1], strides[2], xData, offsets[1] + i0 * strides[3] + i1 * strides[4], strides[5]);
          }
        }
      }
      default -> anyRank(rank, shape, offsets, strides, outData, xData);
    }
  }

  /**
   * Ranks above 3: an odometer over the outer dimensions, one row at a time.
   */
  private static void anyRank(int rank, long[] shape, long[] offsets, long[] strides,
      MemorySegment outData, MemorySegment xData) {
    int inner = rank - 1;
    for (int d = 0; d < inner; d++) {
      if (shape[d] == 0) {
        return;
      }
    }
    long outOff = offsets[0];
    long xOff = offsets[1];
    long[] index = new long[inner];
    while (true) {
      row(shape[inner], outData, outOff, strides[inner], xData, xOff, strides[rank + inner]);
      int d = inner - 1;
      for (; d >= 0; d--) {
        outOff += strides[d];
        xOff += strides[rank + d];
        if (++index[d] < shape[d]) {
          break;
        }
        outOff -= shape[d] * strides[d];
        xOff -= shape[d] * strides[rank + d];
        index[d] = 0;
      }
      if (d < 0) {
        return;
      }
    }
  }

  /**
   * One innermost row: the loop for its stride pattern, then the strided loop for whatever is left.
   */
  private static void row(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    long done = 0;
    if (outStride == 1) {
      if (xStride == 1) {
        done = contiguousRow(n, outData, outOff, xData, xOff);
      } else if (xStride == 0) {
        done = rowSplatX(n, outData, outOff, xData, xOff);
      }
    }
    if (done < n) {
      stridedRow(n - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride);
    }
  }

  /**
   * Contiguous output, x contiguous; returns how many elements it did (a multiple of LANES).
   */
  private static long contiguousRow(long n, MemorySegment outData, long outOff, MemorySegment xData,
      long xOff) {
    long bound = FLOATS.loopBound(n);
    if (bound == 0) {
      return 0;
    }
    float[][] chunks = HalfChunks.buffers(2);
    float[] xFloats = chunks[0];
    float[] outFloats = chunks[1];
    for (long chunk = 0; chunk < bound; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, bound - chunk);
      HalfChunks.toFloats(xData, xOff + chunk, xFloats, len);
      for (int j = 0; j < len; j += LANES) {
        FloatVector x = FloatVector.fromArray(FLOATS, xFloats, j);
        FloatVector result = x.div(x.neg().lanewise(EXP).add(1.0f));
        result.blend(result.reinterpretAsInts().and(0x80000000).or(0x7FC00000).reinterpretAsFloats(), result.test(IS_NAN)).intoArray(outFloats, j);
      }
      HalfChunks.toHalves(outFloats, len, outData, outOff + chunk);
    }
    return bound;
  }

  /**
   * Contiguous output, x broadcast (stride 0); returns how many elements it did (a multiple of LANES).
   */
  private static long rowSplatX(long n, MemorySegment outData, long outOff, MemorySegment xData,
      long xOff) {
    long bound = FLOATS.loopBound(n);
    if (bound == 0) {
      return 0;
    }
    IntVector half = ((IntVector) ShortVector.broadcast(SHORTS, xData.getAtIndex(JAVA_SHORT_UNALIGNED, xOff)).convertShape(ZERO_EXTEND_S2I, INTS, 0));
    IntVector halfMagnitude = half.and(0x7FFF).lanewise(LSHL, 13);
    FloatVector halfValue = halfMagnitude.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()
            .or(halfMagnitude.add(0x70800000).lanewise(ASHR, 31).and(0x7F800000))
            .or(half.and(0x8000).lanewise(LSHL, 16))
            .reinterpretAsFloats();
    FloatVector x = halfValue;
    float[][] chunks = HalfChunks.buffers(1);
    float[] outFloats = chunks[0];
    for (long chunk = 0; chunk < bound; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, bound - chunk);
      for (int j = 0; j < len; j += LANES) {
        FloatVector result = x.div(x.neg().lanewise(EXP).add(1.0f));
        result.blend(result.reinterpretAsInts().and(0x80000000).or(0x7FC00000).reinterpretAsFloats(), result.test(IS_NAN)).intoArray(outFloats, j);
      }
      HalfChunks.toHalves(outFloats, len, outData, outOff + chunk);
    }
    return bound;
  }

  /**
   * Any strides: lanes are gathered into arrays and scattered back; the last step may be partial.
   */
  private static void stridedRow(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    short[] outLanes = new short[SHORTS.length()];
    short[] xLanes = new short[SHORTS.length()];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < count; k++) {
        xLanes[k] = xData.getAtIndex(JAVA_SHORT_UNALIGNED, xOff + (i + k) * xStride);
      }
      IntVector half = ((IntVector) ShortVector.fromArray(SHORTS, xLanes, 0).convertShape(ZERO_EXTEND_S2I, INTS, 0));
      IntVector halfMagnitude = half.and(0x7FFF).lanewise(LSHL, 13);
      FloatVector halfValue = halfMagnitude.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()
              .or(halfMagnitude.add(0x70800000).lanewise(ASHR, 31).and(0x7F800000))
              .or(half.and(0x8000).lanewise(LSHL, 16))
              .reinterpretAsFloats();
      FloatVector x = halfValue;
      FloatVector result = x.div(x.neg().lanewise(EXP).add(1.0f));
      IntVector singleBits = result.reinterpretAsInts();
      IntVector singleAbs = singleBits.and(0x7FFFFFFF);
      IntVector halfRounded = singleAbs.and(0x7F800000).max(0x38800000).add(0x07800000).reinterpretAsFloats()
              .add(singleAbs.reinterpretAsFloats().mul(0x1p112f).mul(0x1p-110f))
              .reinterpretAsInts();
      IntVector halfFinite = halfRounded.lanewise(LSHR, 13).and(0x7C00).add(halfRounded.and(0xFFF));
      IntVector halfBits = halfFinite.lanewise(XOR, halfFinite.lanewise(XOR, 0x7E00).and(singleAbs.add(0x007FFFFF).lanewise(ASHR, 31)))
              .or(singleBits.lanewise(LSHR, 16).and(0x8000));
      ShortVector stored = ((ShortVector) halfBits.convertShape(I2S, SHORTS, 0));
      stored.intoArray(outLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_SHORT_UNALIGNED, outOff + (i + k) * outStride, outLanes[k]);
      }
    }
  }
}
