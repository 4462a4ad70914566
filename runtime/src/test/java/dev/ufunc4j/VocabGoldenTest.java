package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of the everyday vocabulary's goldens (tools/oracle/gen_vocab.py, real PyTorch):
 * joining, splitting, reordering, indexing by tensors, statistics and eye — results, refusals (the
 * message PyTorch gives, or for index errors ours, which names the index and the size), and the
 * gradients of the inputs after {@code backward(grad_out)}. Ops that only move elements, indices
 * and counts match bit for bit; var, std and norm within a few ulps (summation order differs).
 */
class VocabGoldenTest {
  private static final List<String> OPS = List.of(
      "cat", "stack", "split", "chunk", "flip", "roll", "repeat", "tile", "movedim",
      "index_select", "gather", "scatter", "scatter_add", "take", "masked_fill", "masked_select", "nonzero", "where1", "var",
      "std", "argmax", "argmin", "max_dim", "min_dim", "count_nonzero", "norm", "eye");

  /** Ops whose results are sums in another order: compared within this many ulps (plus abs). */
  private static final List<String> SUMMING = List.of("var", "std", "norm");

  @TestFactory
  Stream<DynamicTest> vocabulary() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String op : OPS) {
      Map<String, Object> file = GoldenTensors.map(Json.resource("/golden/vocab/" + op + ".json"));
      for (Object c : GoldenTensors.list(file.get("cases"))) {
        Map<String, Object> kase = GoldenTensors.map(c);
        tests.add(DynamicTest.dynamicTest(op + " " + kase.get("id"), () -> check(op, kase)));
      }
    }
    return tests.stream();
  }

  private static void check(String op, Map<String, Object> kase) {
    String id = op + " " + kase.get("id");
    List<Tensor> inputs = new ArrayList<>();
    for (Object spec : GoldenTensors.list(kase.get("inputs"))) {
      inputs.add(GoldenTensors.tensor(spec));
    }
    boolean withGrad = kase.get("grads") != null;
    if (withGrad) {
      for (Tensor t : inputs) {
        if (t.dtype().isFloatingPoint() && !t.dtype().isComplex()) {
          t.requiresGrad(true);
        }
      }
    }
    Map<String, Object> params = GoldenTensors.map(kase.get("params"));
    String error = (String) kase.get("error");
    if (error != null) {
      RuntimeException e;
      try {
        call(op, inputs, params);
        fail(id + ": expected a refusal like: " + error);
        return;
      } catch (IllegalArgumentException | IndexOutOfBoundsException refused) {
        e = refused;
      }
      assertRefusal(id, error, e);
      return;
    }
    Object result = call(op, inputs, params);
    Object expected = kase.get("result");
    List<Tensor> outs = new ArrayList<>();
    if (expected instanceof List<?> list) {
      Tensor[] got = result instanceof ValuesIndices vi
          ? new Tensor[] {vi.values(), vi.indices()} : (Tensor[]) result;
      assertEquals(list.size(), got.length, id + ": number of results");
      for (int i = 0; i < got.length; i++) {
        compare(op, list.get(i), got[i], id + " result " + i);
        outs.add(got[i]);
      }
    } else {
      compare(op, expected, (Tensor) result, id);
      outs.add((Tensor) result);
    }
    if (withGrad) {
      List<Object> gradOuts = GoldenTensors.list(kase.get("grad_outs"));
      List<Tensor> differentiable = new ArrayList<>();
      for (Tensor o : outs) {
        if (o.dtype().isFloatingPoint()) {
          differentiable.add(o);
        }
      }
      assertEquals(gradOuts.size(), differentiable.size(), id + ": differentiable results");
      // one backward through the sum of <output, grad_out> products covers several outputs
      Tensor total = null;
      for (int i = 0; i < differentiable.size(); i++) {
        Tensor part = differentiable.get(i).mul(GoldenTensors.tensor(gradOuts.get(i))).sum()
            .to(DType.FLOAT64);
        total = total == null ? part : total.add(part);
      }
      total.backward();
      List<Object> grads = GoldenTensors.list(kase.get("grads"));
      for (int i = 0; i < inputs.size(); i++) {
        if (grads.get(i) == null) {
          continue;
        }
        Tensor g = inputs.get(i).grad();
        assertNotNull(g, id + ": input " + i + " got no gradient");
        // gradients are sums (repeat, gather with repeated indices, var): never bit-exact
        compareClose(grads.get(i), g, id + " grad " + i);
      }
    }
  }

  private static Object call(String op, List<Tensor> in, Map<String, Object> p) {
    Tensor x = in.isEmpty() ? null : in.get(0);
    return switch (op) {
      case "cat" -> Tensor.cat(in.toArray(new Tensor[0]), intOf(p, "dim"));
      case "stack" -> Tensor.stack(in, intOf(p, "dim"));
      case "split" -> p.containsKey("sizes")
          ? x.split(GoldenTensors.longs(p.get("sizes")), intOf(p, "dim"))
          : x.split(longOf(p, "size"), intOf(p, "dim"));
      case "chunk" -> x.chunk(intOf(p, "chunks"), intOf(p, "dim"));
      case "flip" -> x.flip(ints(p.get("dims")));
      case "roll" -> x.roll(GoldenTensors.longs(p.get("shifts")), ints(p.get("dims")));
      case "repeat" -> x.repeat(GoldenTensors.longs(p.get("repeats")));
      case "tile" -> Ops.tile(x, GoldenTensors.longs(p.get("dims")));
      case "movedim" -> x.movedim(ints(p.get("source")), ints(p.get("destination")));
      case "index_select" -> x.indexSelect(intOf(p, "dim"), in.get(1));
      case "gather" -> Ops.gather(x, intOf(p, "dim"), in.get(1));
      case "scatter" -> p.containsKey("value")
          ? x.scatter(intOf(p, "dim"), in.get(1), doubleOf(p, "value"))
          : x.scatter(intOf(p, "dim"), in.get(1), in.get(2));
      case "scatter_add" -> Ops.scatterAdd(x, intOf(p, "dim"), in.get(1), in.get(2));
      case "take" -> x.take(in.get(1));
      case "masked_fill" -> x.maskedFill(in.get(1), doubleOf(p, "value"));
      case "masked_select" -> Ops.maskedSelect(x, in.get(1));
      case "nonzero" -> x.nonzero();
      case "where1" -> Ops.where(x);
      case "var" -> p.get("dims") == null && !bool(p, "keepdim") && doubleOf(p, "correction") == 1
          ? x.var() : x.var(ints(p.get("dims")), doubleOf(p, "correction"), bool(p, "keepdim"));
      case "std" -> p.get("dims") == null && !bool(p, "keepdim")
          ? x.std() : x.std(ints(p.get("dims")), doubleOf(p, "correction"), bool(p, "keepdim"));
      case "argmax" -> p.get("dim") == null ? x.argmax() : x.argmax(intOf(p, "dim"), bool(p, "keepdim"));
      case "argmin" -> p.get("dim") == null ? x.argmin()
          : Ops.argmin(x, intOf(p, "dim"), bool(p, "keepdim"));
      case "max_dim" -> x.max(intOf(p, "dim"), bool(p, "keepdim"));
      case "min_dim" -> Ops.min(x, intOf(p, "dim"), bool(p, "keepdim"));
      case "count_nonzero" -> x.countNonzero(ints(p.get("dims")));
      case "norm" -> x.norm(doubleOf(p, "p"), ints(p.get("dims")), bool(p, "keepdim"));
      case "eye" -> Tensor.eye(longOf(p, "n"), longOf(p, "m"),
          DType.fromName((String) p.get("dtype")));
      default -> throw new AssertionError(op);
    };
  }

  private static void compare(String op, Object expected, Tensor got, String id) {
    if (!SUMMING.contains(op)) {
      GoldenTensors.assertMatches(expected, got, 0, id);
      return;
    }
    compareClose(expected, got, id);
  }

  /**
   * Within 16 units of the dtype's epsilon, relative to the larger of the element and the largest
   * magnitude of the expected tensor (cancellation makes small elements' relative error large).
   */
  private static void compareClose(Object expected, Tensor got, String id) {
    Tensor want = GoldenTensors.tensor(expected);
    assertEquals(want.dtype(), got.dtype(), id + ": dtype");
    assertTrue(Arrays.equals(want.shape(), got.shape()), id + ": shape "
        + Arrays.toString(want.shape()) + " vs " + Arrays.toString(got.shape()));
    double[] w = want.to(DType.FLOAT64).toDoubleArray();
    double[] g = got.to(DType.FLOAT64).toDoubleArray();
    double eps = switch (want.dtype()) {
      case FLOAT64 -> 0x1p-52;
      case FLOAT16 -> 0x1p-10;
      case BFLOAT16 -> 0x1p-7;
      default -> 0x1p-23;
    };
    double largest = 0;
    for (double v : w) {
      largest = Double.isFinite(v) ? Math.max(largest, Math.abs(v)) : largest;
    }
    for (int i = 0; i < w.length; i++) {
      if (!Double.isFinite(w[i])) {
        assertTrue(Double.compare(w[i], g[i]) == 0 || Double.isNaN(w[i]) && Double.isNaN(g[i]),
            id + ": element " + i + " expected " + w[i] + ", got " + g[i]);
        continue;
      }
      // relative to the tensor's largest element: var's gradient is 2/dof * g * (x - mean), and
      // the two libraries' means differ in the last bit of the inputs' scale
      double tol = 16 * eps * Math.max(Math.abs(w[i]), Math.max(largest, 1e-30));
      assertTrue(Math.abs(w[i] - g[i]) <= tol,
          id + ": element " + i + " expected " + w[i] + ", got " + g[i] + " (tolerance " + tol + ")");
    }
  }

  /**
   * PyTorch's message, in Java words; for out-of-range indices ufunc4j's own, which names the
   * index and the size (PyTorch's CPU index_select says only "INDICES element is out of DATA
   * bounds").
   */
  private static void assertRefusal(String id, String torchMessage, RuntimeException e) {
    String message = String.valueOf(e.getMessage());
    if (torchMessage.equals("index out of range in self")) {
      assertTrue(message.contains("out of bounds") && message.contains("size"),
          id + ": the refusal should name the index and the size: " + message);
      return;
    }
    if (torchMessage.startsWith("INDICES element is out of DATA bounds, id=")) {
      String index = torchMessage.replaceAll(".*id=(-?\\d+).*", "$1");
      String size = torchMessage.replaceAll(".*axis_dim=(\\d+).*", "$1");
      assertTrue(message.contains("index " + index) && message.contains("size " + size),
          id + ": the refusal should name index " + index + " and size " + size + ": " + message);
      return;
    }
    String expected = JavaWords.translate(torchMessage);
    assertTrue(message.contains(expected),
        id + ": expected a message containing \"" + expected + "\", got \"" + message + "\"");
  }

  private static int intOf(Map<String, Object> p, String key) {
    return ((Number) p.get(key)).intValue();
  }

  private static long longOf(Map<String, Object> p, String key) {
    return ((Number) p.get(key)).longValue();
  }

  private static double doubleOf(Map<String, Object> p, String key) {
    Object v = p.get(key);
    return v instanceof String text ? Double.parseDouble(text) : ((Number) v).doubleValue();
  }

  private static boolean bool(Map<String, Object> p, String key) {
    return Boolean.TRUE.equals(p.get(key));
  }

  private static int[] ints(Object spec) {
    return spec == null ? null : Arrays.stream(GoldenTensors.longs(spec)).mapToInt(v -> (int) v).toArray();
  }
}
