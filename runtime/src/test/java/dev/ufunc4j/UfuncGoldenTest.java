package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of the golden ufunc methods (tools/oracle/gen_ufuncs.py): the built-in binary ops'
 * {@code reduce}, {@code accumulate}, {@code outer}, {@code at} and {@code reduceAt} against real
 * NumPy's ufunc methods, and Tensor's {@code cumsum}, {@code cumprod}, {@code prod}, {@code
 * logsumexp}, {@code any}, {@code all} and {@code Ops.add.at} against real PyTorch
 * ({@code index_add_}). Results match bit for bit, except "close" cases (floating folds that the
 * libraries group differently: within 32 units of the dtype's epsilon, relative to the result
 * and the inputs' magnitude) and "zeros" cases (maximum/minimum: +0 and -0 equal). A refusal of
 * the oracle must be one of ufunc4j's, with the same meaning, and write nothing.
 */
class UfuncGoldenTest {

  @TestFactory
  Stream<DynamicTest> numpy() {
    return cases("numpy");
  }

  /** Rows long enough for the integral fold loops' vector leaves, over the dtypes' whole range. */
  @TestFactory
  Stream<DynamicTest> integral() {
    return cases("integral");
  }

  @TestFactory
  Stream<DynamicTest> torch() {
    return cases("torch");
  }

  private static Stream<DynamicTest> cases(String file) {
    Map<String, Object> golden = GoldenTensors.map(Json.resource("/golden/ufuncs/" + file + ".json"));
    List<DynamicTest> tests = new ArrayList<>();
    for (Object c : GoldenTensors.list(golden.get("cases"))) {
      Map<String, Object> kase = GoldenTensors.map(c);
      tests.add(DynamicTest.dynamicTest(String.valueOf(kase.get("id")), () -> check(kase)));
    }
    return tests.stream();
  }

  static BinaryUfunc ufunc(String op) {
    try {
      return (BinaryUfunc) Ops.class.getField(op).get(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Ops has no ufunc field " + op, e);
    }
  }

  private static void check(Map<String, Object> kase) {
    String id = String.valueOf(kase.get("id"));
    String method = (String) kase.get("method");
    String op = (String) kase.get("op");
    Tensor x = GoldenTensors.tensor(kase.get("x"));
    int dim = kase.get("dim") == null ? 0 : ((Number) kase.get("dim")).intValue();
    int[] dims = kase.get("dims") == null ? null
        : Arrays.stream(GoldenTensors.longs(kase.get("dims"))).mapToInt(v -> (int) v).toArray();
    boolean keepDim = Boolean.TRUE.equals(kase.get("keepdim"));
    Tensor target = method.equals("at") || method.equals("index_add") ? x.copy() : null;
    Supplier<Tensor> call = switch (method) {
      case "reduce" -> () -> dims == null ? ufunc(op).reduce(x) : ufunc(op).reduce(x, dims, keepDim);
      case "accumulate" -> () -> ufunc(op).accumulate(x, dim);
      case "outer" -> () -> ufunc(op).outer(x, GoldenTensors.tensor(kase.get("b")));
      case "at" -> () -> {
        ufunc(op).at(target, GoldenTensors.tensor(kase.get("indices")),
            GoldenTensors.tensor(kase.get("values")));
        return target;
      };
      case "index_add" -> () -> {
        Ops.add.at(target, dim, GoldenTensors.tensor(kase.get("indices")),
            GoldenTensors.tensor(kase.get("values")));
        return target;
      };
      case "reduceat" -> () -> ufunc(op).reduceAt(x, GoldenTensors.tensor(kase.get("offsets")), dim);
      case "cumsum" -> () -> x.cumsum(dim);
      case "cumprod" -> () -> x.cumprod(dim);
      case "prod" -> () -> kase.containsKey("dim") ? x.prod(dim, keepDim) : x.prod();
      case "any" -> () -> kase.containsKey("dim") ? x.any(dim, keepDim) : x.any();
      case "all" -> () -> kase.containsKey("dim") ? x.all(dim, keepDim) : x.all();
      case "logsumexp" -> () -> x.logsumexp(dims, keepDim);
      default -> throw new AssertionError(id + ": unknown method " + method);
    };
    Object expected = kase.containsKey("extension") ? kase.get("extension") : kase.get("result");
    String error = (String) kase.get("error");
    if (expected == null) {
      RuntimeException e = refused(call, id);
      String want = ourWords(error, op);
      assertTrue(e.getMessage().contains(want),
          id + ": want [" + want + "] in [" + e.getMessage() + "]");
      if (target != null) {
        assertTrue(target.equal(x), id + ": a refused call wrote the target");
      }
      return;
    }
    Tensor r = call.get();
    String compare = (String) kase.get("compare");
    switch (compare) {
      case "exact" -> GoldenTensors.assertMatches(expected, r, 0, id);
      case "zeros" -> GoldenTensors.assertMatches(expected, r, -1, id);
      default -> close(expected, x, r, id);
    }
  }

  /**
   * The oracle's refusal as ufunc4j words it (BinaryUfunc's messages): NumPy's op names are
   * ufunc4j's, {@code axis} is {@code dim}, {@code reduceat} is {@code reduceAt}; NumPy's
   * "no loop matching" for a predicate's reduction is ufunc4j's dtype refusal.
   */
  private static String ourWords(String error, String op) {
    String text = error.substring(error.indexOf(": ") + 2);
    if (text.contains("is not reorderable")) {
      return "reduction operation '" + op + "' is not reorderable, so at most one dim may be given";
    }
    if (text.contains("zero-size array to reduction operation")) {
      return "zero-size array to reduction operation " + op + " which has no identity";
    }
    if (text.startsWith("No loop matching")) {
      return "the resolved dtypes are not compatible with";
    }
    if (text.contains("out-of-bounds in")) {
      return text.replace("reduceat", "reduceAt");
    }
    if (text.contains("is out of bounds for axis")) {
      return text.replace("axis", "dim");
    }
    throw new AssertionError("no ufunc4j wording known for the oracle's refusal: " + error);
  }

  /**
   * Floating results of folds grouped differently: within {@code 32 eps (|want| + sum |x|)}, NaN
   * where NaN, infinities equal.
   */
  private static void close(Object expectedSpec, Tensor x, Tensor r, String id) {
    Tensor want = GoldenTensors.tensor(expectedSpec);
    assertEquals(want.dtype(), r.dtype(), id + ": dtype");
    assertTrue(Arrays.equals(want.shape(), r.shape()),
        id + ": shape " + Arrays.toString(want.shape()) + " vs " + Arrays.toString(r.shape()));
    if (!want.dtype().isFloatingPoint()) {
      GoldenTensors.assertMatches(expectedSpec, r, 0, id);
      return;
    }
    double[] w = want.to(DType.FLOAT64).toDoubleArray();
    double[] g = r.to(DType.FLOAT64).toDoubleArray();
    double scale = 0;
    for (double v : x.to(DType.FLOAT64).toDoubleArray()) {
      scale += Double.isFinite(v) ? Math.abs(v) : 0;
    }
    double eps = switch (want.dtype()) {
      case FLOAT16 -> 0x1p-11;
      case BFLOAT16 -> 0x1p-8;
      case FLOAT32 -> 0x1p-24;
      default -> 0x1p-53;
    };
    for (int i = 0; i < w.length; i++) {
      if (!Double.isFinite(w[i]) || !Double.isFinite(g[i])) {
        if (!(Double.isNaN(w[i]) && Double.isNaN(g[i])) && Double.compare(w[i], g[i]) != 0) {
          fail(id + ": element " + i + " expected " + w[i] + ", got " + g[i]);
        }
        continue;
      }
      double tol = 32 * eps * (Math.abs(w[i]) + scale);
      if (!(Math.abs(w[i] - g[i]) <= tol)) {
        fail(id + ": element " + i + " expected " + w[i] + ", got " + g[i] + " (tolerance " + tol
            + ")");
      }
    }
  }

  private static RuntimeException refused(Supplier<Tensor> call, String id) {
    try {
      Tensor r = call.get();
      fail(id + ": expected a refusal, got " + r);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return e;
    }
    return null;
  }
}
