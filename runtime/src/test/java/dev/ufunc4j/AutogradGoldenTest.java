package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Gradients against real PyTorch autograd ({@code tools/oracle/gen_autograd.py}): each case builds
 * the leaves, runs the op as a user would ({@link Ops}, the {@link Tensor} methods), calls {@code
 * backward} with PyTorch's gradient and compares every leaf's {@link Tensor#grad()} (dtype and
 * shape exactly, values within the dtype's tolerance: the backward formulas round differently and
 * sums of broadcast gradients add in another order) and the forward result.
 *
 * <p>Public helpers: {@code generated-samples} runs its sample ops' cases with them.
 */
// The tests compile into the runtime module (module-info): JUnit's DynamicTest, on the class path,
// is not exported by any module, which javac notes for these public helpers.
@SuppressWarnings("exports")
public class AutogradGoldenTest {

  /** JUnit makes the test instance; the public helpers are static. */
  AutogradGoldenTest() {}

  static final List<String> GROUPS = List.of("add", "add_alpha", "sub", "sub_alpha", "mul", "div",
      "remainder", "maximum", "minimum", "pow", "neg", "abs", "sign", "exp", "log", "sqrt", "sin",
      "cos", "tanh", "sigmoid", "where", "clamp", "reductions", "views", "inplace", "ufuncs");

  @TestFactory
  Stream<DynamicTest> builtins() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String group : GROUPS) {
      tests.addAll(cases("/golden/autograd/" + group + ".json", AutogradGoldenTest::call));
    }
    return tests.stream();
  }

  /** One test per case of a golden file; {@code call} runs a case's op on its arguments. */
  public static List<DynamicTest> cases(String resource,
      java.util.function.BiFunction<Map<String, Object>, List<Object>, Tensor> call) {
    Map<String, Object> file = GoldenTensors.map(Json.resource(resource));
    List<DynamicTest> tests = new ArrayList<>();
    for (Object c : GoldenTensors.list(file.get("cases"))) {
      Map<String, Object> kase = GoldenTensors.map(c);
      String name = kase.get("call") + " " + kase.get("id");
      tests.add(DynamicTest.dynamicTest(name, () -> run(kase, call, name)));
    }
    return tests;
  }

  private static void run(Map<String, Object> kase,
      java.util.function.BiFunction<Map<String, Object>, List<Object>, Tensor> call,
      String name) {
    if (kase.get("error") != null) {
      fail(name + ": the oracle refused this case (" + kase.get("error") + "); drop it");
    }
    List<Object> specs = GoldenTensors.list(kase.get("args"));
    List<Object> requires = GoldenTensors.list(kase.get("requires_grad"));
    List<Object> args = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      Object spec = specs.get(i);
      if (GoldenTensors.isScalar(spec)) {
        args.add(GoldenTensors.scalar(spec));
      } else {
        Tensor t = GoldenTensors.tensor(spec);
        args.add((Boolean) requires.get(i) ? t.requiresGrad(true) : t);
      }
    }
    // PyTorch computes some intermediates in an operand's dtype (pow's exponent - 1 in float16
    // for a float16 exponent) where ufunc4j converts operands first: compare within the
    // tolerance of the narrowest floating dtype involved.
    DType narrowest = null;
    for (Object a : args) {
      if (a instanceof Tensor t && t.dtype().isFloatingPoint()
          && (narrowest == null || tolerance(t.dtype())[0] > tolerance(narrowest)[0])) {
        narrowest = t.dtype();
      }
    }
    Tensor out = call.apply(kase, args);
    assertClose(kase.get("result"), out, name + " result", narrowest);
    Object g = kase.get("grad_output");
    if (g == null) {
      out.backward();
    } else {
      out.backward(GoldenTensors.tensor(g));
    }
    List<Object> grads = GoldenTensors.list(kase.get("grads"));
    for (int i = 0; i < args.size(); i++) {
      if (!(args.get(i) instanceof Tensor t)) {
        continue;
      }
      if (grads.get(i) == null) {
        assertNull(t.grad(), name + ": argument " + i + " should have no gradient");
      } else {
        if (t.grad() == null) {
          fail(name + ": argument " + i + " has no gradient");
        }
        assertClose(grads.get(i), t.grad(), name + " grad of argument " + i, narrowest);
      }
    }
  }

  /** Relative and absolute tolerance by dtype: about four roundings of the dtype. */
  private static double[] tolerance(DType d) {
    return switch (d) {
      case FLOAT64 -> new double[] {1e-12, 1e-12};
      case FLOAT32 -> new double[] {4e-6, 1e-6};
      case FLOAT16 -> new double[] {4e-3, 1e-3};
      case BFLOAT16 -> new double[] {3e-2, 1e-2};
      default -> new double[] {0, 0};
    };
  }

  /** Same dtype and shape, values within the dtype's tolerance (NaN matches NaN). */
  public static void assertClose(Object expectedSpec, Tensor actual, String context) {
    assertClose(expectedSpec, actual, context, null);
  }

  /** {@link #assertClose(Object, Tensor, String)}, at least as loose as {@code atLeast}'s. */
  public static void assertClose(Object expectedSpec, Tensor actual, String context,
      DType atLeast) {
    Tensor expected = GoldenTensors.tensor(expectedSpec);
    assertEquals(expected.dtype(), actual.dtype(), context + ": dtype");
    if (!Arrays.equals(expected.shape(), actual.shape())) {
      fail(context + ": shape " + Arrays.toString(actual.shape()) + ", expected "
          + Arrays.toString(expected.shape()));
    }
    double[] want = expected.detach().to(DType.FLOAT64).contiguous().toDoubleArray();
    double[] got = actual.detach().to(DType.FLOAT64).contiguous().toDoubleArray();
    double[] tol = tolerance(actual.dtype());
    if (atLeast != null && tolerance(atLeast)[0] > tol[0]) {
      tol = tolerance(atLeast);
    }
    for (int i = 0; i < want.length; i++) {
      double w = want[i];
      double a = got[i];
      boolean ok = Double.isNaN(w) ? Double.isNaN(a)
          : w == a || Math.abs(w - a) <= tol[1] + tol[0] * Math.abs(w);
      if (!ok) {
        fail(context + ": element " + i + " is " + a + ", expected " + w + " (all: "
            + Arrays.toString(got) + ", expected " + Arrays.toString(want) + ")");
      }
    }
  }

  static Tensor tensor(Object arg) {
    if (arg instanceof Tensor t) {
      return t;
    }
    return arg instanceof Long l ? Tensor.wrap(l) : Tensor.wrap(((Number) arg).doubleValue());
  }

  static Number number(Map<String, Object> kase, String key) {
    Map<String, Object> kw = GoldenTensors.map(kase.get("kwargs"));
    return (Number) GoldenTensors.scalar(Map.of("scalar", kw.get(key)));
  }

  static long[] ints(Map<String, Object> kase, String key) {
    Map<String, Object> kw = GoldenTensors.map(kase.get("kwargs"));
    return GoldenTensors.longs(GoldenTensors.map(kw.get(key)).get("ints"));
  }

  static int[] dims(Map<String, Object> kase, String key) {
    return Arrays.stream(ints(kase, key)).mapToInt(Math::toIntExact).toArray();
  }

  static boolean has(Map<String, Object> kase, String key) {
    return GoldenTensors.map(kase.get("kwargs")).containsKey(key);
  }

  static int integer(Map<String, Object> kase, String key) {
    return Math.toIntExact(number(kase, key).longValue());
  }

  private static final Map<String, Function<Tensor, Tensor>> UNARY = Map.of(
      "neg", Tensor::neg, "abs", Tensor::abs, "sign", Tensor::sign, "exp", Tensor::exp,
      "log", Tensor::log, "sqrt", Tensor::sqrt, "sin", Tensor::sin, "cos", Tensor::cos,
      "tanh", Tensor::tanh, "sigmoid", Tensor::sigmoid);

  /** The built-in op of a case, called through the public API. */
  static Tensor call(Map<String, Object> kase, List<Object> args) {
    String call = (String) kase.get("call");
    if (call.endsWith(".sum")) {
      return UNARY.get(call.substring(0, call.length() - 4)).apply(tensor(args.get(0))).sum();
    }
    if (UNARY.containsKey(call)) {
      return UNARY.get(call).apply(tensor(args.get(0)));
    }
    Tensor x = args.isEmpty() ? null : tensor(args.get(0));
    return switch (call) {
      case "add" -> has(kase, "alpha") ? Ops.add(x, tensor(args.get(1)), number(kase, "alpha"))
          : Ops.add(x, tensor(args.get(1)));
      case "sub" -> has(kase, "alpha") ? Ops.sub(x, tensor(args.get(1)), number(kase, "alpha"))
          : Ops.sub(x, tensor(args.get(1)));
      case "mul" -> Ops.mul(x, tensor(args.get(1)));
      case "div" -> Ops.div(x, tensor(args.get(1)));
      case "remainder" -> Ops.remainder(x, tensor(args.get(1)));
      case "maximum" -> Ops.maximum(x, tensor(args.get(1)));
      case "minimum" -> Ops.minimum(x, tensor(args.get(1)));
      case "pow" -> Ops.pow(x, tensor(args.get(1)));
      case "where" -> Ops.where(x, tensor(args.get(1)), tensor(args.get(2)));
      case "clamp" -> args.get(1) instanceof Tensor
          ? Ops.clamp(x, tensor(args.get(1)), tensor(args.get(2)))
          : Ops.clamp(x, (Number) args.get(1), (Number) args.get(2));
      case "sum", "mean", "amax", "amin" -> reduce(call, x, kase);
      case "sum_to_size" -> x.sumToShape(ints(kase, "size"));
      case "expand" -> x.expand(ints(kase, "size"));
      case "permute" -> x.permute(dims(kase, "dims"));
      case "transpose" -> x.transpose(integer(kase, "dim0"), integer(kase, "dim1"));
      case "t" -> x.t();
      case "reshape" -> x.reshape(ints(kase, "shape"));
      case "view" -> x.view(ints(kase, "shape"));
      case "slice" -> x.slice(integer(kase, "dim"), number(kase, "start").longValue(),
          number(kase, "stop").longValue(), number(kase, "step").longValue());
      case "narrow" -> x.narrow(integer(kase, "dim"), number(kase, "start").longValue(),
          number(kase, "length").longValue());
      case "select" -> x.select(integer(kase, "dim"), number(kase, "index").longValue());
      case "unsqueeze" -> x.unsqueeze(integer(kase, "dim"));
      case "squeeze" -> has(kase, "dim") ? x.squeeze(integer(kase, "dim")) : x.squeeze();
      case "flatten" -> x.flatten();
      case "to" -> x.to(GoldenTensors.dtype(GoldenTensors.map(kase.get("result"))));
      case "copy" -> x.copy();
      case "chain_add" -> x.add(tensor(args.get(1))).sum();
      case "chain_mlp" -> x.unsqueeze(0).mul(tensor(args.get(1)).unsqueeze(2)).sum(1).tanh()
          .mean();
      case "cumsum" -> x.cumsum(integer(kase, "dim"));
      case "cumprod" -> x.cumprod(integer(kase, "dim"));
      case "prod" -> has(kase, "dim") ? x.prod(integer(kase, "dim"), bool(kase, "keepdim"))
          : x.prod();
      case "logsumexp" -> x.logsumexp(dims(kase, "dim"), bool(kase, "keepdim"));
      case "maximum.reduce", "minimum.reduce" -> {
        BinaryUfunc u = call.startsWith("maximum") ? Ops.maximum : Ops.minimum;
        yield has(kase, "dim") ? u.reduce(x, dims(kase, "dim"), bool(kase, "keepdim"))
            : u.reduce(x);
      }
      case "add.reduceat", "mul.reduceat", "maximum.reduceat", "minimum.reduceat" -> {
        long[] offsets = ints(kase, "offsets");
        yield UfuncGoldenTest.ufunc(call.substring(0, call.indexOf('.')))
            .reduceAt(x, Tensor.of(offsets, offsets.length), integer(kase, "dim"));
      }
      case "outer", "mul_outer" -> Ops.mul.outer(x, tensor(args.get(1)));
      case "sub_outer" -> Ops.sub.outer(x, tensor(args.get(1)));
      case "div_outer" -> Ops.div.outer(x, tensor(args.get(1)));
      case "index_add" -> {
        Tensor target = x.mul(1.0); // computed, as the oracle's: a leaf refuses in-place ops
        Ops.add.at(target, ((Number) args.get(2)).intValue(), tensor(args.get(3)),
            tensor(args.get(1)));
        yield target;
      }
      default -> inPlace(call, x, args);
    };
  }

  static boolean bool(Map<String, Object> kase, String key) {
    return (Boolean) GoldenTensors.map(GoldenTensors.map(kase.get("kwargs")).get(key)).get("bool");
  }

  /** The in-place cases (gen_autograd.py's "inplace" group, the same programs in Java words). */
  private static Tensor inPlace(String call, Tensor x, List<Object> args) {
    Tensor w = args.size() > 1 ? tensor(args.get(1)) : null;
    switch (call) {
      case "base_mul_slice" -> {
        Tensor b = x.mul(2);
        Tensor v = b.slice(0, 0, 2, 1);
        b.mulInPlace(w);
        return v;
      }
      case "base_add_transpose" -> {
        Tensor b = x.mul(1.5);
        Tensor v = b.t();
        b.addInPlace(w);
        return v.mul(v);
      }
      case "base_mul_expand" -> {
        Tensor b = x.mul(2).unsqueeze(0);
        Tensor e = b.expand(4, 3);
        b.mulInPlace(w);
        return e.mul(e);
      }
      case "base_add_chain" -> {
        Tensor b = x.mul(2);
        Tensor v = b.view(2, 2).t().select(0, 1);
        b.addInPlace(w);
        return v.mul(v);
      }
      case "base_twice" -> {
        Tensor b = x.mul(2);
        Tensor v = b.slice(0, 1, 3, 1);
        b.mulInPlace(w);
        b.addInPlace(w);
        return v;
      }
      case "base_select_div" -> {
        Tensor b = x.sin();
        Tensor r = b.select(0, 1);
        b.divInPlace(w);
        return r;
      }
      case "base_plain" -> {
        Tensor v = x.slice(0, 0, 2, 1);
        x.mulInPlace(w);
        return v;
      }
      case "view_mul" -> {
        Tensor b = x.mul(2);
        b.slice(0, 0, 2, 1).mulInPlace(w);
        return b.mul(b);
      }
      case "view_chain" -> {
        Tensor b = x.mul(2);
        b.view(2, 2).select(0, 1).mulInPlace(w);
        b.addInPlace(1);
        return b.mul(b);
      }
      case "view_of_plain" -> {
        x.slice(0, 1, 3, 1).addInPlace(w);
        return x.mul(tensor(args.get(2)));
      }
      case "view_then_view" -> {
        Tensor b = x.mul(2);
        Tensor v = b.slice(0, 0, 2, 1);
        v.mulInPlace(w);
        return v.mul(b.slice(0, 1, 3, 1));
      }
      case "view_transpose_div" -> {
        Tensor b = x.mul(1.0);
        b.t().divInPlace(w);
        return b;
      }
      case "view_from_sibling" -> {
        Tensor b = x.mul(2);
        b.slice(0, 0, 2, 1).addInPlace(b.slice(0, 2, 4, 1));
        return b.mul(b);
      }
      case "view_sub_scaled" -> {
        Tensor b = x.sin();
        b.slice(1, 1, 3, 1).subInPlace(w, 0.5);
        return b.exp();
      }
      case "as_strided_view" -> {
        Tensor v = x.mul(1).asStrided(new long[] {2, 2}, new long[] {1, 3}, 1);
        return v.mul(v);
      }
      case "base_plain_as_strided" -> {
        // x is itself a view of its golden storage: the offset is the storage's
        Tensor v = x.asStrided(new long[] {2, 2}, new long[] {1, 2}, x.offset() + 1);
        x.mulInPlace(w);
        return v.mul(v);
      }
      default -> throw new AssertionError("no call " + call);
    }
  }

  private static Tensor reduce(String op, Tensor x, Map<String, Object> kase) {
    if (!has(kase, "dim")) {
      return switch (op) {
        case "sum" -> x.sum();
        case "mean" -> x.mean();
        case "amax" -> x.amax();
        default -> x.amin();
      };
    }
    int[] dims = dims(kase, "dim");
    boolean keep = (Boolean) GoldenTensors.map(GoldenTensors.map(kase.get("kwargs"))
        .get("keepdim")).get("bool");
    return switch (op) {
      case "sum" -> x.sum(dims, keep);
      case "mean" -> x.mean(dims, keep);
      case "amax" -> x.amax(dims, keep);
      default -> x.amin(dims, keep);
    };
  }
}
