package dev.ufunc4j.bench;

import com.google.gson.Gson;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import com.google.gson.reflect.TypeToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One benchmark case of {@code cases.json}, the list that the JMH benchmark and the NumPy/PyTorch
 * script ({@code tools/bench/peers.py}) both read, so every system runs the same cases.
 */
record BenchCase(String id, String op, Operand a, Operand b, Double scalar, int[] dims) {

  /** One tensor operand: its shape, dtype name, and whether it is the transpose of that shape. */
  record Operand(long[] shape, String dtype, boolean transpose) {
    long numel() {
      long n = 1;
      for (long s : shape) {
        n *= s;
      }
      return n;
    }
  }

  static final String RESOURCE = "/dev/ufunc4j/bench/cases.json";

  static List<BenchCase> load() {
    try (InputStream in = BenchCase.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("benchmark case list " + RESOURCE + " is not on the classpath");
      }
      return new Gson()
          .fromJson(
              new InputStreamReader(in, StandardCharsets.UTF_8),
              new TypeToken<List<BenchCase>>() {}.getType());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static BenchCase byId(String id) {
    return load().stream()
        .filter(c -> c.id.equals(id))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no benchmark case '" + id + "'"));
  }

  /**
   * Whether the case is a reduction over {@link #dims}: {@code sum}, or a ufunc's {@code reduce}
   * ({@code add_reduce}, {@code maximum_reduce}, the user op {@code logaddexp_reduce}).
   */
  boolean reduction() {
    return op.equals("sum") || op.endsWith("_reduce");
  }

  /** The broadcast shape of the result; a reduction's drops its reduced dims. */
  long[] resultShape() {
    if (reduction()) {
      return java.util.stream.IntStream.range(0, a.shape.length)
          .filter(d -> java.util.Arrays.stream(dims).noneMatch(r -> r == d))
          .mapToLong(d -> a.shape[d])
          .toArray();
    }
    if (b == null || op.equals("add_at")) {
      return a.shape.clone(); // cumsum; add_at writes its target in place
    }
    if (op.equals("add_outer")) {
      long[] out = java.util.Arrays.copyOf(a.shape, a.shape.length + b.shape.length);
      System.arraycopy(b.shape, 0, out, a.shape.length, b.shape.length);
      return out;
    }
    int n = Math.max(a.shape.length, b.shape.length);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      long x = dim(a.shape, i, n);
      long y = dim(b.shape, i, n);
      out[i] = x == 1 ? y : x;
    }
    return out;
  }

  private static long dim(long[] shape, int i, int n) {
    int k = i - (n - shape.length);
    return k < 0 ? 1 : shape[k];
  }

  /**
   * Bytes the op must move at least, counted the STREAM way: every input element read once and
   * every output element written once. Compared with the STREAM add bandwidth of the same run.
   */
  long minimumBytes() {
    long bytes = a.numel() * bytesOf(a.dtype);
    if (b != null) {
      bytes += b.numel() * bytesOf(b.dtype);
    }
    long out = 1;
    for (long s : resultShape()) {
      out *= s;
    }
    return bytes + out * bytesOf(resultDtype());
  }

  /** The result dtype's name, for byte counting: BOOL for comparisons, else the promotion. */
  String resultDtype() {
    if (op.equals("lt")) {
      return "bool";
    }
    if (b == null) {
      return a.dtype;
    }
    return Promotion.promoteTypes(DType.fromName(a.dtype), DType.fromName(b.dtype)).torchName();
  }

  static int bytesOf(String dtype) {
    return DType.fromName(dtype).byteSize();
  }

  /** True when the case moves enough bytes to be limited by memory bandwidth, not per-call cost. */
  boolean memoryBound() {
    return minimumBytes() >= 32L << 20;
  }
}
