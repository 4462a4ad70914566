package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code div} declared by {@link golden.Ops} whose widest lane type is 64 bits and that step at least 2 elements.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_div_w64min2 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT32_COMPLEX64 = new Ops_div_w64min2(0);

  static final ElementwiseKernel COMPLEX64_FLOAT32 = new Ops_div_w64min2(1);

  static final ElementwiseKernel COMPLEX64_COMPLEX64 = new Ops_div_w64min2(2);

  /**
   * Elements per step: a preferred-size vector of the widest lane type (64 bits; a complex element counts both components), and at least 2.
   */
  private static final int LANES = Math.max(VectorShape.preferredShape().vectorBitSize() / 64, 2);

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  /**
   * Interleaved (re, im) float components of LANES complex elements.
   */
  private static final VectorSpecies<Float> FLOAT_PAIRS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 64));

  private static final VectorMask<Float> IM_LANES = VectorMask.fromLong(FLOAT_PAIRS, 0xAAAAAAAAAAAAAAAAL);

  private static final VectorShuffle<Float> SWAP = VectorShuffle.fromOp(FLOAT_PAIRS, i -> i ^ 1);

  private static final VectorShuffle<Float> DUP_RE = VectorShuffle.fromOp(FLOAT_PAIRS, i -> i & ~1);

  private static final VectorShuffle<Float> DUP_IM = VectorShuffle.fromOp(FLOAT_PAIRS, i -> i | 1);

  private static final VectorShuffle<Float> WIDEN = VectorShuffle.fromOp(FLOAT_PAIRS, i -> (i & 1) == 0 ? i / 2 : LANES + i / 2);

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private final int entry;

  private Ops_div_w64min2(int entry) {
    this.entry = entry;
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    switch (entry) {
      case 0 -> float32_complex64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 1 -> complex64_float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 2 -> complex64_complex64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
    }
  }

  /**
   * (float32, complex64) promoted to complex64, stored as complex64.
   */
  private static void float32_complex64(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    long outStride = strides[1];
    long aStride = strides[3];
    long bStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long aOff = offsets[1] + r * strides[2];
      long bOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && aStride == 1 && bStride == 1) {
        done = float32_complex64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = float32_complex64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = float32_complex64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        float32_complex64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long float32_complex64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    for (long i = 0; i < bound; i += LANES) {
      FloatVector real = FloatVector.fromMemorySegment(FLOATS, aData, (aOff + i) * 4, ORDER);
      FloatVector a = ((FloatVector) real.reinterpretShape(FLOAT_PAIRS, 0)).rearrange(WIDEN);
      FloatVector b = FloatVector.fromMemorySegment(FLOAT_PAIRS, bData, (bOff + i) * 8, ORDER);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float32_complex64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    FloatVector b = FloatVector.broadcast(FLOAT_PAIRS, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * bOff)).blend(bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * bOff + 1), IM_LANES);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector real = FloatVector.fromMemorySegment(FLOATS, aData, (aOff + i) * 4, ORDER);
      FloatVector a = ((FloatVector) real.reinterpretShape(FLOAT_PAIRS, 0)).rearrange(WIDEN);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float32_complex64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    FloatVector real = FloatVector.broadcast(FLOATS, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff));
    FloatVector a = ((FloatVector) real.reinterpretShape(FLOAT_PAIRS, 0)).rearrange(WIDEN);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector b = FloatVector.fromMemorySegment(FLOAT_PAIRS, bData, (bOff + i) * 8, ORDER);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void float32_complex64_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 8);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (bOff + e * bStride)));
        bLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (bOff + e * bStride) + 1));
      }
      float32_complex64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (outOff + (i + k) * outStride), outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k));
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (outOff + (i + k) * outStride) + 1, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1));
      }
    }
  }

  /**
   * (complex64, float32) promoted to complex64, stored as complex64.
   */
  private static void complex64_float32(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    long outStride = strides[1];
    long aStride = strides[3];
    long bStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long aOff = offsets[1] + r * strides[2];
      long bOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && aStride == 1 && bStride == 1) {
        done = complex64_float32_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = complex64_float32_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = complex64_float32_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        complex64_float32_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long complex64_float32_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOAT_PAIRS, aData, (aOff + i) * 8, ORDER);
      FloatVector real = FloatVector.fromMemorySegment(FLOATS, bData, (bOff + i) * 4, ORDER);
      FloatVector b = ((FloatVector) real.reinterpretShape(FLOAT_PAIRS, 0)).rearrange(WIDEN);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long complex64_float32_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    FloatVector real = FloatVector.broadcast(FLOATS, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff));
    FloatVector b = ((FloatVector) real.reinterpretShape(FLOAT_PAIRS, 0)).rearrange(WIDEN);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOAT_PAIRS, aData, (aOff + i) * 8, ORDER);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long complex64_float32_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    FloatVector a = FloatVector.broadcast(FLOAT_PAIRS, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * aOff)).blend(aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * aOff + 1), IM_LANES);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector real = FloatVector.fromMemorySegment(FLOATS, bData, (bOff + i) * 4, ORDER);
      FloatVector b = ((FloatVector) real.reinterpretShape(FLOAT_PAIRS, 0)).rearrange(WIDEN);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void complex64_float32_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 8);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (aOff + e * aStride)));
        aLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (aOff + e * aStride) + 1));
        bLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff + e * bStride));
      }
      complex64_float32_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (outOff + (i + k) * outStride), outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k));
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (outOff + (i + k) * outStride) + 1, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1));
      }
    }
  }

  /**
   * (complex64, complex64) promoted to complex64, stored as complex64.
   */
  private static void complex64_complex64(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    long outStride = strides[1];
    long aStride = strides[3];
    long bStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long aOff = offsets[1] + r * strides[2];
      long bOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && aStride == 1 && bStride == 1) {
        done = complex64_complex64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = complex64_complex64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = complex64_complex64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        complex64_complex64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long complex64_complex64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOAT_PAIRS, aData, (aOff + i) * 8, ORDER);
      FloatVector b = FloatVector.fromMemorySegment(FLOAT_PAIRS, bData, (bOff + i) * 8, ORDER);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long complex64_complex64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    FloatVector b = FloatVector.broadcast(FLOAT_PAIRS, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * bOff)).blend(bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * bOff + 1), IM_LANES);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOAT_PAIRS, aData, (aOff + i) * 8, ORDER);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long complex64_complex64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = n - n % LANES;
    FloatVector a = FloatVector.broadcast(FLOAT_PAIRS, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * aOff)).blend(aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * aOff + 1), IM_LANES);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector b = FloatVector.fromMemorySegment(FLOAT_PAIRS, bData, (bOff + i) * 8, ORDER);
      FloatVector divisorRe = b.rearrange(DUP_RE);
      FloatVector divisorIm = b.rearrange(DUP_IM);
      VectorMask<Float> byC = divisorRe.abs().compare(GE, divisorIm.abs());
      FloatVector big = divisorIm.blend(divisorRe, byC);
      FloatVector small = divisorRe.blend(divisorIm, byC);
      FloatVector rat = small.div(big);
      FloatVector scl = FloatVector.broadcast(FLOAT_PAIRS, 1.0f).div(small.fma(rat, big));
      FloatVector crossed = a.rearrange(SWAP).lanewise(NEG, IM_LANES);
      FloatVector quotient = a.fma(rat, crossed).blend(crossed.fma(rat, a), byC).mul(scl);
      FloatVector result = quotient.blend(a.div(b.abs()), divisorRe.compare(EQ, 0.0f).and(divisorIm.compare(EQ, 0.0f)));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void complex64_complex64_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 8);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (aOff + e * aStride)));
        aLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (aOff + e * aStride) + 1));
        bLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (bOff + e * bStride)));
        bLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (bOff + e * bStride) + 1));
      }
      complex64_complex64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (outOff + (i + k) * outStride), outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k));
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, 2 * (outOff + (i + k) * outStride) + 1, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, 2 * k + 1));
      }
    }
  }
}
