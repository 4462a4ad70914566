package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Throws random extreme sizes, strides, offsets and indices at every view method and checks the
 * one property that keeps memory safe: each call either refuses cleanly ({@link
 * IllegalArgumentException} or {@link IndexOutOfBoundsException} with a message) or returns a view
 * whose every element address, computed exactly with {@link BigInteger}, lies inside its storage.
 * The base storage holds its own indices ({@code arange(n)} as float64), so reading a small view
 * element by element also checks the view against index arithmetic: the element at {@code (i0,
 * i1, ...)} must be the storage element {@code offset + i0 * stride0 + ...}.
 *
 * <p>Plain JUnit with a seeded {@link Random}: every failure names the seed and the chain of calls,
 * so it replays exactly. {@code -Dufunc4j.viewFuzz.cases=N} runs longer.
 */
class ViewBoundsPropertyTest {

  private static final long SEED = 0x5AFE_7E45L;
  private static final int CASES = Integer.getInteger("ufunc4j.viewFuzz.cases", 20_000);

  /** Values where long arithmetic on sizes, strides and offsets wraps or goes negative. */
  private static final long[] EXTREMES = {
    Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1,
    1L << 62, (1L << 62) + 1, (1L << 62) - 1, -(1L << 62), 1L << 61, (1L << 61) + 3,
    (Long.MAX_VALUE / 3) + 1, (Long.MAX_VALUE / 2) + 1, 1L << 32, (1L << 32) + 1,
    1L << 31, Integer.MAX_VALUE, Integer.MIN_VALUE, 3037000500L, -3037000500L,
  };

  @Test
  void everyViewStaysInsideItsStorageOrIsRefused() {
    Random rng = new Random(SEED);
    int views = 0;
    int refused = 0;
    for (int c = 0; c < CASES; c++) {
      long caseSeed = rng.nextLong();
      int[] counts = runCase(caseSeed);
      views += counts[0];
      refused += counts[1];
    }
    // Both outcomes must be exercised, or the generator has drifted into one corner.
    assertTrue(views > CASES / 2, "views made: " + views);
    assertTrue(refused > CASES / 4, "calls refused: " + refused);
  }

  /** One chain of random view calls from a random base; returns {views made, calls refused}. */
  private static int[] runCase(long seed) {
    Random r = new Random(seed);
    int n = r.nextInt(65);
    Tensor base = Tensor.arange(n).to(DType.FLOAT64);
    List<String> trail = new ArrayList<>();
    trail.add("arange(" + n + ").to(FLOAT64)");
    Tensor t = base;
    int views = 0;
    int refused = 0;
    int steps = 1 + r.nextInt(4);
    for (int s = 0; s < steps; s++) {
      Call call = randomCall(r, t);
      trail.add(call.description);
      Tensor next;
      try {
        next = call.apply();
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        if (e.getMessage() == null || e.getMessage().isBlank()) {
          fail("refused without a message; seed " + seed + ": " + String.join(" -> ", trail), e);
        }
        refused++;
        continue;
      } catch (Throwable e) {
        fail("unexpected " + e + "; seed " + seed + ": " + String.join(" -> ", trail), e);
        return null;
      }
      views++;
      checkInside(next, seed, trail);
      if (sharesStorage(next, base)) {
        checkAgainstIndexArithmetic(next, r, seed, trail);
      }
      t = next;
    }
    return new int[] {views, refused};
  }

  private record Call(String description, ThrowingSupplier body) {
    Tensor apply() throws Throwable {
      return body.get();
    }
  }

  @FunctionalInterface
  private interface ThrowingSupplier {
    Tensor get() throws Throwable;
  }

  private static Call randomCall(Random r, Tensor t) {
    int nd = t.ndim();
    switch (r.nextInt(17)) {
      case 0, 1 -> {
        int rank = r.nextInt(5);
        long[] shape = sizes(r, rank);
        long[] strides = new long[rank];
        for (int i = 0; i < rank; i++) {
          strides[i] = r.nextInt(3) == 0 ? extreme(r) : r.nextInt(6);
        }
        long offset = r.nextInt(3) == 0 ? value(r) : r.nextInt(8);
        return new Call(
            "asStrided(" + Arrays.toString(shape) + ", " + Arrays.toString(strides) + ", " + offset
                + ")",
            () -> t.asStrided(shape, strides, offset));
      }
      case 2 -> {
        long[] shape = shapeWithInferred(r);
        return new Call("view(" + Arrays.toString(shape) + ")", () -> t.view(shape));
      }
      case 3 -> {
        long[] shape = shapeWithInferred(r);
        // reshape copies when no view exists: copying a huge expanded view only tests memory.
        if (t.numel() > 100_000) {
          return new Call("view(" + Arrays.toString(shape) + ")", () -> t.view(shape));
        }
        return new Call("reshape(" + Arrays.toString(shape) + ")", () -> t.reshape(shape));
      }
      case 4 -> {
        long[] sizes = sizes(r, nd + r.nextInt(3));
        for (int i = 0; i < sizes.length; i++) {
          if (r.nextInt(4) == 0) {
            sizes[i] = -1;
          }
        }
        return r.nextBoolean()
            ? new Call("expand(" + Arrays.toString(sizes) + ")", () -> t.expand(sizes))
            : new Call("broadcastTo(" + Arrays.toString(sizes) + ")", () -> t.broadcastTo(sizes));
      }
      case 5 -> {
        int dim = dim(r, nd);
        long start = value(r);
        long stop = value(r);
        long step = r.nextInt(3) == 0 ? extreme(r) : 1 + r.nextInt(4);
        return new Call(
            "slice(" + dim + ", " + start + ", " + stop + ", " + step + ")",
            () -> t.slice(dim, start, stop, step));
      }
      case 6 -> {
        int dim = dim(r, nd);
        long start = value(r);
        long length = value(r);
        return new Call(
            "narrow(" + dim + ", " + start + ", " + length + ")",
            () -> t.narrow(dim, start, length));
      }
      case 7 -> {
        int dim = dim(r, nd);
        long index = value(r);
        return new Call("select(" + dim + ", " + index + ")", () -> t.select(dim, index));
      }
      case 8 -> {
        int[] dims = new int[Math.max(0, nd + r.nextInt(3) - 1)];
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < nd; i++) {
          order.add(i);
        }
        java.util.Collections.shuffle(order, r);
        for (int i = 0; i < dims.length; i++) {
          dims[i] = i < nd && r.nextInt(5) != 0 ? order.get(i) : dim(r, nd);
        }
        return new Call("permute(" + Arrays.toString(dims) + ")", () -> t.permute(dims));
      }
      case 9 -> {
        int a = dim(r, nd);
        int b = dim(r, nd);
        return new Call("transpose(" + a + ", " + b + ")", () -> t.transpose(a, b));
      }
      case 10 -> {
        return new Call("t()", t::t);
      }
      case 11 -> {
        int dim = dim(r, nd + 1);
        return new Call("unsqueeze(" + dim + ")", () -> t.unsqueeze(dim));
      }
      case 12 -> {
        if (r.nextBoolean()) {
          return new Call("squeeze()", t::squeeze);
        }
        int dim = dim(r, nd);
        return new Call("squeeze(" + dim + ")", () -> t.squeeze(dim));
      }
      case 13 -> {
        int a = dim(r, nd);
        int b = dim(r, nd);
        if (t.numel() > 100_000) {
          return new Call("t()", t::t);
        }
        return new Call("flatten(" + a + ", " + b + ")", () -> t.flatten(a, b));
      }
      default -> {
        int rank = nd + r.nextInt(3);
        long[] outShape = sizes(r, rank);
        int[] dims = new int[nd];
        int next = 0;
        for (int i = 0; i < nd; i++) {
          next += r.nextInt(4) == 0 ? 1 : 0;
          dims[i] = r.nextInt(8) == 0 ? dim(r, rank) : next++;
          if (r.nextBoolean() && dims[i] < rank && dims[i] >= 0) {
            outShape[dims[i]] = t.size(i); // usually compatible, so the view itself is exercised
          }
        }
        return new Call(
            "Broadcast.inDim(" + Arrays.toString(outShape) + ", " + Arrays.toString(dims) + ")",
            () -> Broadcast.inDim(t, outShape, dims));
      }
    }
  }

  /** Mostly small sizes, sometimes extreme or negative ones. */
  private static long[] sizes(Random r, int rank) {
    long[] s = new long[rank];
    for (int i = 0; i < rank; i++) {
      int k = r.nextInt(10);
      s[i] = k == 0 ? extreme(r) : k == 1 ? -r.nextInt(3) : r.nextInt(7);
    }
    return s;
  }

  private static long[] shapeWithInferred(Random r) {
    long[] s = sizes(r, r.nextInt(5));
    if (s.length > 0 && r.nextBoolean()) {
      s[r.nextInt(s.length)] = -1;
    }
    return s;
  }

  private static long value(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> extreme(r);
      case 1 -> r.nextLong();
      default -> r.nextInt(25) - 12;
    };
  }

  private static long extreme(Random r) {
    long e = EXTREMES[r.nextInt(EXTREMES.length)];
    return r.nextBoolean() ? e : e + r.nextInt(5) - 2;
  }

  private static int dim(Random r, int ndim) {
    return switch (r.nextInt(12)) {
      case 0 -> Integer.MIN_VALUE;
      case 1 -> Integer.MAX_VALUE;
      default -> r.nextInt(2 * ndim + 5) - ndim - 2;
    };
  }

  private static boolean sharesStorage(Tensor view, Tensor base) {
    return view.segment().address() == base.segment().address()
        && view.segment().byteSize() == base.segment().byteSize();
  }

  /** The lowest and highest element addresses of a non-empty view lie in [0, storage size). */
  private static void checkInside(Tensor v, long seed, List<String> trail) {
    long[] shape = v.shape();
    long[] strides = v.strides();
    String where = " (seed " + seed + ": " + String.join(" -> ", trail) + "; shape "
        + Arrays.toString(shape) + ", strides " + Arrays.toString(strides) + ", offset "
        + v.offset() + ", storage " + v.storageSize() + ")";
    assertEquals(shape.length, strides.length, "rank of strides" + where);
    BigInteger numel = BigInteger.ONE;
    for (long s : shape) {
      assertTrue(s >= 0, "negative size" + where);
      numel = numel.multiply(BigInteger.valueOf(s));
    }
    assertEquals(numel, BigInteger.valueOf(v.numel()), "numel" + where);
    if (numel.signum() == 0) {
      return; // an empty view reaches no element, whatever its offset and strides (as in PyTorch)
    }
    BigInteger low = BigInteger.valueOf(v.offset());
    BigInteger high = low;
    for (int d = 0; d < shape.length; d++) {
      BigInteger reach = BigInteger.valueOf(shape[d] - 1).multiply(BigInteger.valueOf(strides[d]));
      if (reach.signum() < 0) {
        low = low.add(reach);
      } else {
        high = high.add(reach);
      }
    }
    assertTrue(low.signum() >= 0, "element " + low + " before the storage" + where);
    assertTrue(
        high.compareTo(BigInteger.valueOf(v.storageSize())) < 0,
        "element " + high + " past the storage" + where);
  }

  /** Each element read through the view is the storage element its exact address names. */
  private static void checkAgainstIndexArithmetic(
      Tensor v, Random r, long seed, List<String> trail) {
    if (v.numel() == 0) {
      return;
    }
    long[] shape = v.shape();
    long[] strides = v.strides();
    int samples = (int) Math.min(v.numel(), 64);
    long[] idx = new long[shape.length];
    for (int k = 0; k < samples; k++) {
      BigInteger address = BigInteger.valueOf(v.offset());
      for (int d = 0; d < shape.length; d++) {
        idx[d] = shape[d] == 1 ? 0 : Math.floorMod(r.nextLong(), shape[d]);
        address = address.add(BigInteger.valueOf(idx[d]).multiply(BigInteger.valueOf(strides[d])));
      }
      assertEquals(
          address.doubleValue(),
          v.getDouble(idx),
          "element " + Arrays.toString(idx) + " (seed " + seed + ": " + String.join(" -> ", trail)
              + ")");
    }
  }
}
