package dev.ufunc4j;

import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.kernel.HalfChunks;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The contiguous loops of float16 kernels convert through {@link HalfChunks}: rows of every
 * float16 bit pattern, longer than several chunks and ending in a partial chunk and a tail shorter
 * than a vector, give exactly the op's scalar method {@link Builtins#add(double, double)} computed
 * in float32 and rounded once (nearest even) to the result dtype; every NaN result is the quiet
 * NaN {@code 0x7E00} (either sign), whatever the payloads of the NaN operands.
 */
class HalfChunkKernelTest {

  /** All 65536 patterns, then a few more: 64 full chunks, a partial one and a short tail. */
  private static final int N = 65536 + 3 * HalfChunks.CHUNK / 2 + 5;

  private static Tensor halves(short[] bits) {
    Tensor t = Tensor.empty(DType.FLOAT16, bits.length);
    for (int i = 0; i < bits.length; i++) {
      t.segment().setAtIndex(JAVA_SHORT, t.offset() + i, bits[i]);
    }
    return t;
  }

  private static short[] bitsOf(Tensor t) {
    short[] out = new short[(int) t.numel()];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.segment().getAtIndex(JAVA_SHORT, t.offset() + i);
    }
    return out;
  }

  private static short[] everyPattern(long seed) {
    short[] bits = new short[N];
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < N; i++) {
      bits[i] = i < 65536 ? (short) i : (short) rnd.nextInt(1 << 16);
    }
    // Shuffle so that every pattern meets varied partners.
    for (int i = N - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      short t = bits[i];
      bits[i] = bits[j];
      bits[j] = t;
    }
    return bits;
  }

  /** Builtins.add in double over float32 operands, rounded to float32, then to float16. */
  private static short expectedHalf(float x, float y) {
    return Convert.floatToHalf((float) Builtins.add(x, y));
  }

  private static void assertHalf(short want, short got, String where) {
    if (Float.isNaN(Float.float16ToFloat(want))) {
      assertEquals(0x7E00, got & 0x7FFF, where + ": NaN expected as 0x7E00, got 0x"
          + Integer.toHexString(got & 0xFFFF));
    } else {
      assertEquals(want, got, where);
    }
  }

  @Test
  void float16PlusFloat16() {
    short[] a = everyPattern(1);
    short[] b = everyPattern(2);
    short[] got = bitsOf(Ops.add(halves(a), halves(b)));
    for (int i = 0; i < N; i++) {
      assertHalf(expectedHalf(Float.float16ToFloat(a[i]), Float.float16ToFloat(b[i])), got[i],
          "element " + i + ": 0x" + Integer.toHexString(a[i] & 0xFFFF) + " + 0x"
              + Integer.toHexString(b[i] & 0xFFFF));
    }
  }

  @Test
  void float16PlusABroadcastFloat16() {
    short[] a = everyPattern(3);
    for (short scalar : new short[] {0x3C00, (short) 0x8001, 0x7C01, (short) 0xFC00}) {
      Tensor s = halves(new short[] {scalar}).expand(N);
      short[] got = bitsOf(Ops.add(halves(a), s));
      for (int i = 0; i < N; i++) {
        assertHalf(expectedHalf(Float.float16ToFloat(a[i]), Float.float16ToFloat(scalar)),
            got[i], "element " + i);
      }
    }
  }

  @Test
  void float16PlusFloat32IsFloat32() {
    short[] a = everyPattern(4);
    float[] b = new float[N];
    SplittableRandom rnd = new SplittableRandom(5);
    for (int i = 0; i < N; i++) {
      b[i] = (float) rnd.nextGaussian() * (i % 3 == 0 ? 1e-5f : 100f);
    }
    Tensor sum = Ops.add(halves(a), Tensor.of(b, N));
    assertEquals(DType.FLOAT32, sum.dtype());
    for (int i = 0; i < N; i++) {
      float want = (float) Builtins.add(Float.float16ToFloat(a[i]), b[i]);
      float got = (float) sum.getDouble(i);
      assertEquals(Float.isNaN(want), Float.isNaN(got), "element " + i);
      if (!Float.isNaN(want)) {
        assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got), "element " + i);
      }
    }
  }

  @Test
  void int8PlusFloat16IsFloat16() {
    // The int8 operand is read from memory beside the float16 chunk; int8 → float16 rounds once.
    short[] a = everyPattern(6);
    byte[] b = new byte[N];
    new SplittableRandom(7).nextBytes(b);
    short[] got = bitsOf(Ops.add(Tensor.of(b, N), halves(a)));
    for (int i = 0; i < N; i++) {
      assertHalf(expectedHalf(b[i], Float.float16ToFloat(a[i])), got[i], "element " + i);
    }
  }
}
