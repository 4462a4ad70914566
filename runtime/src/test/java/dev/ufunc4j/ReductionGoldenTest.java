package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of the golden reductions (tools/oracle/gen_reductions.py, real PyTorch): sum, mean,
 * amax and amin over dims, keepDim, out= and their errors, and sumToShape. Integral results and
 * amax/amin match bit for bit (a maximum of equal zeros may differ in sign: docs/reductions.md);
 * floating sums and means within the error bound of pairwise summation, since the two libraries
 * add in different orders. Where PyTorch has no CPU kernel and ufunc4j extends it, the case
 * carries the extension's value (NumPy's, or torch's on the wider accumulation dtype).
 */
class ReductionGoldenTest {

  @TestFactory
  Stream<DynamicTest> reductions() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String op : List.of("sum", "mean", "amax", "amin")) {
      Map<String, Object> file = GoldenTensors.map(Json.resource("/golden/reductions/" + op + ".json"));
      for (Object c : GoldenTensors.list(file.get("cases"))) {
        Map<String, Object> kase = GoldenTensors.map(c);
        tests.add(DynamicTest.dynamicTest(op + " " + kase.get("id"), () -> check(op, kase)));
      }
    }
    return tests.stream();
  }

  /**
   * Sums and means of -0.0 are +0.0 in PyTorch (every sum starts at +0.0), bit for bit, in every
   * layout; amax keeps -0.0 (tools/oracle/gen_reductions.py, {@code gen_signed_zero}).
   */
  @TestFactory
  Stream<DynamicTest> signedZeroSums() {
    Map<String, Object> file =
        GoldenTensors.map(Json.resource("/golden/reductions/sum_signed_zero.json"));
    return GoldenTensors.list(file.get("cases")).stream().map(GoldenTensors::map).map(kase ->
        DynamicTest.dynamicTest("signed zero " + kase.get("id"), () -> {
          String op = (String) kase.get("op");
          Tensor x = GoldenTensors.tensor(kase.get("x"));
          Object dimsSpec = kase.get("dims");
          int[] dims = dimsSpec == null ? null
              : Arrays.stream(GoldenTensors.longs(dimsSpec)).mapToInt(v -> (int) v).toArray();
          GoldenTensors.assertMatches(
              kase.get("result"), call(op, x, dims, false, null), 0, "signed zero " + kase.get("id"));
        }));
  }

  @TestFactory
  Stream<DynamicTest> sumToShape() {
    Map<String, Object> file =
        GoldenTensors.map(Json.resource("/golden/reductions/sum_to_size.json"));
    return GoldenTensors.list(file.get("cases")).stream().map(GoldenTensors::map).map(kase ->
        DynamicTest.dynamicTest("sumToShape " + kase.get("id"), () -> {
          Tensor x = GoldenTensors.tensor(kase.get("x"));
          long[] size = GoldenTensors.longs(kase.get("size"));
          String error = (String) kase.get("error");
          if (error != null) {
            RuntimeException e = refused(() -> x.sumToShape(size));
            assertContains(javaWords(error), e);
            return;
          }
          Tensor r = x.sumToShape(size);
          compare("sum", x, kase.get("result"), r, String.valueOf(kase.get("id")));
        }));
  }

  private static void check(String op, Map<String, Object> kase) {
    Tensor x = GoldenTensors.tensor(kase.get("x"));
    Object dimsSpec = kase.get("dims");
    int[] dims = dimsSpec == null ? null
        : Arrays.stream(GoldenTensors.longs(dimsSpec)).mapToInt(v -> (int) v).toArray();
    boolean keepDim = Boolean.TRUE.equals(kase.get("keepdim"));
    Map<String, Object> outSpec = kase.get("out") == null ? null : GoldenTensors.map(kase.get("out"));
    Tensor out = outSpec == null ? null
        : Tensor.zeros(GoldenTensors.dtype(outSpec), GoldenTensors.longs(outSpec.get("shape")));
    String id = op + " " + kase.get("id");
    String error = (String) kase.get("error");
    Object expected = kase.containsKey("extension") ? kase.get("extension") : kase.get("result");
    java.util.function.Supplier<Tensor> call = () -> call(op, x, dims, keepDim, out);
    if (x.dtype().isComplex() && (op.equals("amax") || op.equals("amin"))) {
      // Refused for every shape (docs/reductions.md); PyTorch returns trivial shapes unreduced.
      assertContains("complex tensors have no order", refused(call::get));
      return;
    }
    if (error != null && expected == null) {
      RuntimeException e = refused(call::get);
      if (error.contains("not implemented for 'Float8")) {
        assertContains("storage-only", e);
      } else if (error.contains("not implemented for 'Complex")) {
        assertContains("complex tensors have no order", e);
      } else {
        assertContains(javaWords(error), e);
      }
      if (out != null) {
        assertEquals(0, Ops.sum(Ops.ne(out, 0)).getLong(), id + ": a refused call wrote out");
      }
      return;
    }
    Tensor r = call.get();
    if (out != null) {
      assertTrue(r == out, id + ": out= returns out");
    }
    compare(op, x, expected, r, id);
  }

  private static Tensor call(String op, Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (out != null) {
      return switch (op) {
        case "sum" -> Ops.sum(x, dims, keepDim, out);
        case "mean" -> Ops.mean(x, dims, keepDim, out);
        case "amax" -> Ops.amax(x, dims, keepDim, out);
        default -> Ops.amin(x, dims, keepDim, out);
      };
    }
    if (dims == null) {
      return switch (op) {
        case "sum" -> x.sum();
        case "mean" -> x.mean();
        case "amax" -> x.amax();
        default -> x.amin();
      };
    }
    return switch (op) {
      case "sum" -> x.sum(dims, keepDim);
      case "mean" -> x.mean(dims, keepDim);
      case "amax" -> x.amax(dims, keepDim);
      default -> x.amin(dims, keepDim);
    };
  }

  /**
   * Integral and amax/amin results exactly (either zero for a zero maximum); floating sums and
   * means within {@code 2 (log2 n + 2) eps sum|x|} of PyTorch's (per mean: divided by n), plus one
   * unit in the last place of the result dtype for the final rounding.
   */
  private static void compare(String op, Tensor x, Object expectedSpec, Tensor r, String id) {
    DType dtype = GoldenTensors.dtype(GoldenTensors.map(expectedSpec));
    if (!dtype.isFloatingPoint() && !dtype.isComplex() || op.equals("amax") || op.equals("amin")) {
      GoldenTensors.assertMatches(expectedSpec, r, -1, id);
      return;
    }
    Tensor want = GoldenTensors.tensor(expectedSpec);
    assertEquals(want.dtype(), r.dtype(), id + ": dtype");
    assertTrue(Arrays.equals(want.shape(), r.shape()),
        id + ": shape " + Arrays.toString(want.shape()) + " vs " + Arrays.toString(r.shape()));
    double[] w = values(want);
    double[] g = values(r);
    double[] xs = values(x);
    double absSum = 0;
    for (double v : xs) {
      // A result next to an infinite or NaN input is compared exactly above, not by this bound.
      absSum += Double.isFinite(v) ? Math.abs(v) : 0;
    }
    long n = Math.max(1, x.numel() / Math.max(1, want.numel()));
    DType acc = dtype == DType.FLOAT64 || dtype == DType.COMPLEX128 ? DType.FLOAT64 : DType.FLOAT32;
    double eps = acc == DType.FLOAT64 ? 0x1p-53 : 0x1p-24;
    double bound = 2 * (log2(n) + 2) * eps * absSum;
    if (op.equals("mean")) {
      bound /= n;
    }
    DType part = dtype.isComplex() ? dtype.componentType() : dtype;
    for (int i = 0; i < w.length; i++) {
      if (Double.isNaN(w[i]) || Double.isInfinite(w[i])) {
        if (Double.compare(w[i], g[i]) != 0 && !(Double.isNaN(w[i]) && Double.isNaN(g[i]))) {
          fail(id + ": element " + i + " expected " + w[i] + ", got " + g[i]);
        }
        continue;
      }
      double tol = bound + ulp(part, w[i]);
      if (!(Math.abs(w[i] - g[i]) <= tol)) {
        fail(id + ": element " + i + " expected " + w[i] + ", got " + g[i] + " (bound " + tol + ")");
      }
    }
  }

  private static double log2(long n) {
    return 64 - Long.numberOfLeadingZeros(n);
  }

  private static double ulp(DType t, double v) {
    return switch (t) {
      case FLOAT16 -> Math.max(Math.ulp((float) v) * 8192, 0x1p-24);
      case BFLOAT16 -> Math.ulp((float) v) * 65536;
      case FLOAT32 -> Math.ulp((float) v);
      default -> Math.ulp(v);
    };
  }

  /** Elements as doubles in logical order; complex as (re, im) pairs. */
  private static double[] values(Tensor t) {
    if (t.dtype().isComplex()) {
      return t.to(DType.COMPLEX128).toComplexArray();
    }
    return t.to(DType.FLOAT64).toDoubleArray();
  }

  private static RuntimeException refused(Runnable call) {
    try {
      call.run();
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return e;
    }
    fail("expected a refusal");
    return null;
  }

  private static void assertContains(String expected, RuntimeException e) {
    assertTrue(e.getMessage() != null && e.getMessage().contains(expected),
        "want [" + expected + "] in [" + e.getMessage() + "]");
  }

  /**
   * PyTorch's message in ufunc4j's words (docs/reductions.md): dtype names as {@code float32},
   * shapes without braces, and the {@code dims} argument.
   */
  static String javaWords(String torch) {
    String s = torch.replace("{[", "[").replace("]}", "]").replace("'dim' argument", "'dims' argument");
    DType[] byLength = DType.values().clone();
    Arrays.sort(byLength, Comparator.comparingInt((DType d) -> -d.scalarTypeName().length()));
    for (DType d : byLength) {
      s = s.replaceAll("\\b" + d.scalarTypeName() + "\\b", d.torchName());
    }
    return s;
  }
}
