package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.BroadcastException;
import dev.ufunc4j.GoldenTensors;
import dev.ufunc4j.Json;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The sample ops against real PyTorch: every case of {@code golden/samples/<op>.json} (written by
 * {@code tools/oracle/gen_samples.py}, format in {@code docs/golden-format.md}), broadcast shapes,
 * zero-dim, empty and non-contiguous inputs included.
 *
 * <p>Where torch gives a result, ours must match: bit for bit (NaN as NaN), or within {@link
 * OpCase#ulps} for ops built on a transcendental function, whose last bit depends on the vector
 * math library (Sleef in torch, the JDK's in ours). Where torch refuses, we refuse too, unless the
 * refusal is one of the deliberate differences listed in {@link #deliberateDifference}; then we
 * must compute a result (checked against the scalar methods by {@link KernelConformanceTest}).
 */
class TorchGoldenTest {

  /**
   * One torch op: our descriptor, torch's keyword arguments in our {@code @Scalar} order with
   * torch's defaults, and the ulp bound.
   */
  private record OpCase(String file, ElementwiseOp op, List<String> kwargs, List<Object> defaults,
      int ulps) {}

  private static final List<OpCase> OPS = List.of(
      new OpCase("silu", Activations_silu.OP, List.of(), List.of(), 2),
      new OpCase("gelu", Activations_gelu.OP, List.of(), List.of(), 2),
      new OpCase("softplus", Activations_softplus.OP, List.of("beta", "threshold"),
          List.of(1.0, 20.0), 2),
      new OpCase("leaky_relu", Activations_leakyRelu.OP, List.of("negative_slope"),
          List.of(0.01), 0),
      new OpCase("hardtanh", Activations_hardtanh.OP, List.of("min_val", "max_val"),
          List.of(-1.0, 1.0), 0),
      new OpCase("lerp", Blends_lerp.OP, List.of(), List.of(), 0),
      new OpCase("hypot", Blends_hypot.OP, List.of(), List.of(), 1),
      new OpCase("isclose", Predicates_isclose.OP, List.of("rtol", "atol", "equal_nan"),
          List.of(1e-5, 1e-8, false), 0));

  @TestFactory
  Stream<DynamicNode> everyTorchCase() {
    return OPS.stream().map(oc -> {
      Map<String, Object> root =
          GoldenTensors.map(Json.resource("/golden/samples/" + oc.file() + ".json"));
      List<DynamicTest> tests = new ArrayList<>();
      for (Object c : GoldenTensors.list(root.get("cases"))) {
        Map<String, Object> kase = GoldenTensors.map(c);
        tests.add(DynamicTest.dynamicTest((String) kase.get("id"), () -> check(oc, kase)));
      }
      return DynamicContainer.dynamicContainer(oc.file(), tests);
    });
  }

  private static void check(OpCase oc, Map<String, Object> kase) {
    String id = oc.file() + "/" + kase.get("id");
    List<Tensor> tensors = new ArrayList<>();
    List<Object> scalars = new ArrayList<>();
    for (Object arg : GoldenTensors.list(kase.get("args"))) {
      if (GoldenTensors.isScalar(arg)) {
        scalars.add(GoldenTensors.scalar(arg));
      } else {
        tensors.add(GoldenTensors.tensor(arg));
      }
    }
    if (tensors.size() != oc.op().arity()) {
      Assumptions.abort(id + ": " + tensors.size() + " tensor operands; our " + oc.op().name()
          + " declares " + oc.op().tensorParams() + " (lerp's weight is a @Scalar)");
    }
    Map<String, Object> kwargs =
        kase.containsKey("kwargs") ? GoldenTensors.map(kase.get("kwargs")) : Map.of();
    for (int k = 0; k < oc.kwargs().size(); k++) {
      Object given = kwargs.get(oc.kwargs().get(k));
      scalars.add(given == null
          ? oc.defaults().get(k)
          : GoldenTensors.scalar(Map.of("scalar", given)));
    }
    Tensor[] in = tensors.toArray(Tensor[]::new);
    Object[] sc = scalars.toArray();
    String error = (String) kase.get("error");

    if (error != null) {
      String difference = deliberateDifference(oc, in, sc, error);
      if (difference == null) {
        RuntimeException refused = assertThrows(RuntimeException.class,
            () -> Dispatch.apply(oc.op(), null, in, sc), id + ": torch refuses: " + error);
        if (refused instanceof BroadcastException) {
          // PyTorch's text, after the op and its parameters with their shapes (issue 12, item 9).
          StringBuilder named = new StringBuilder(oc.op().name()).append(": ");
          for (int i = 0; i < in.length; i++) {
            named.append(i == 0 ? "" : i == in.length - 1 ? " and " : ", ")
                .append(oc.op().tensorParams().get(i)).append(' ')
                .append(java.util.Arrays.toString(in[i].shape()));
          }
          assertEquals(named + " do not broadcast: " + error, refused.getMessage(), id);
        }
      } else {
        // We compute where torch refuses, by design; the values are the scalar method's.
        Tensor r = Dispatch.apply(oc.op(), null, in, sc);
        assertTrue(r.numel() >= 0, id);
      }
      return;
    }

    String refusal = deliberateRefusal(in);
    if (refusal != null) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Dispatch.apply(oc.op(), null, in, sc), id + ": " + refusal);
      assertTrue(e.getMessage().contains(oc.op().name()), e.getMessage());
      return;
    }
    Tensor actual = Dispatch.apply(oc.op(), null, in, sc);
    Map<String, Object> expected = GoldenTensors.map(kase.get("result"));
    DType torchDtype = GoldenTensors.dtype(expected);
    if (oc.file().equals("hardtanh") && torchDtype.isIntegral(false)
        && sc[0] instanceof Double) {
      // F.hardtanh keeps an integral dtype under floating limits; our scalars join promotion, as
      // in torch.clamp(int_tensor, -1.0, 1.0): float32, with the same (integral) values.
      assertEquals(DType.FLOAT32, actual.dtype(), id);
      actual = actual.to(torchDtype);
    }
    if (oc.file().equals("lerp")
        && (torchDtype == DType.FLOAT16 || torchDtype == DType.BFLOAT16)) {
      // Equal values; the sign of a zero may differ (see Blends.lerp: torch's 16-bit path is not
      // its vectorised float32 formula, which ours follows).
      assertClose(GoldenTensors.tensor(expected), actual, in, 0, id);
    } else if (oc.ulps() == 0 || !torchDtype.isFloatingPoint()) {
      GoldenTensors.assertMatches(expected, actual, 0, id);
    } else {
      assertClose(GoldenTensors.tensor(expected), actual, in, oc.ulps(), id);
    }
  }

  /**
   * Torch computes where we refuse, by design: complex inputs to a body that is not only {@code +
   * - * /} (docs/processor.md: such bodies are not lifted to complex), and float8, which is
   * storage-only in ufunc4j (torch's isclose compares float8 tensors).
   */
  static String deliberateRefusal(Tensor[] in) {
    for (Tensor t : in) {
      if (t.dtype().isComplex()) {
        return "complex " + t.dtype() + ": the body is not lifted to complex";
      }
      if (t.dtype().isFloat8()) {
        return t.dtype() + " is storage-only";
      }
    }
    return null;
  }

  /**
   * Floating results of a transcendental body: equal bits, both NaN, or within {@code ulps} units
   * in the last place of the larger of the result and the operands at that element. The operands
   * count because the error is set by the largest intermediate: GELU's {@code 1 + tanh(inner)}
   * cancels for negative {@code x}, so torch's own float32 result is thousands of result-ulps
   * from the exact value there, and agreement is only meaningful at the scale of {@code x}.
   */
  private static void assertClose(Tensor expected, Tensor actual, Tensor[] in, int ulps,
      String id) {
    assertEquals(expected.dtype(), actual.dtype(), id + ": dtype");
    assertTrue(java.util.Arrays.equals(expected.shape(), actual.shape()), id + ": shape "
        + java.util.Arrays.toString(actual.shape()));
    long[] shape = expected.shape();
    Tensor[] operands = new Tensor[in.length];
    for (int k = 0; k < in.length; k++) {
      operands[k] = in[k].broadcastTo(shape);
    }
    DType dtype = expected.dtype();
    long[] idx = new long[shape.length];
    for (long e = 0; e < expected.numel(); e++) {
      double want = expected.getDouble(idx);
      double got = actual.getDouble(idx);
      boolean same = Double.doubleToRawLongBits(want) == Double.doubleToRawLongBits(got)
          || Double.isNaN(want) && Double.isNaN(got);
      if (!same) {
        double scale = Math.abs(want);
        for (Tensor t : operands) {
          double v = Math.abs(t.getDouble(idx));
          scale = Double.isFinite(v) ? Math.max(scale, v) : scale;
        }
        double bound = ulps * ulp(dtype, scale);
        if (!(Double.isFinite(want) && Double.isFinite(got) && Math.abs(want - got) <= bound)) {
          fail(id + ": element " + java.util.Arrays.toString(idx) + " of " + dtype + ": expected "
              + want + ", got " + got + " (bound " + ulps + " ulps of " + scale + " = " + bound
              + ")");
        }
      }
      for (int d = shape.length - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) {
          break;
        }
        idx[d] = 0;
      }
    }
  }

  private static double ulp(DType dtype, double magnitude) {
    float f = (float) magnitude;
    return switch (dtype) {
      case FLOAT64 -> Math.ulp(magnitude);
      case FLOAT32 -> Math.ulp(f);
      case FLOAT16 -> Math.max(Math.ulp(f) * 8192, 0x1p-24);
      case BFLOAT16 -> Math.ulp(f) * 65536;
      default -> throw new IllegalArgumentException(dtype.toString());
    };
  }

  /**
   * Why we compute where torch refuses, or null when we must refuse too. Each reason is a rule of
   * ufunc4j (DESIGN.md, docs/processor.md), documented on the sample op.
   */
  static String deliberateDifference(OpCase oc, Tensor[] in, Object[] scalars, String error) {
    boolean anyComplexOrFloat8 = Stream.of(in)
        .anyMatch(t -> t.dtype().isComplex() || t.dtype().isFloat8());
    if (anyComplexOrFloat8) {
      return null; // refused: no complex form of these bodies; float8 is storage-only
    }
    if (error.contains("did not match") || error.contains("expected dtype")) {
      return "operands of different dtypes promote (torch's isclose and lerp want one dtype)";
    }
    if (error.contains("not implemented for")) {
      if (oc.op().promote() == dev.ufunc4j.annotation.Promote.INT_TO_FLOAT) {
        return "integral and bool inputs compute in float32 (INT_TO_FLOAT)";
      }
      if (Stream.of(in).allMatch(t -> t.dtype().isUnsigned())) {
        return "uint16/32/64 have kernels (torch has none on CPU)";
      }
    }
    if (oc.file().equals("hardtanh")) {
      if (error.equals("Bool inputs not supported for hardtanh")) {
        return "bool hardtanh computes like any integral dtype (the long body)";
      }
      if (error.equals("cannot do hardtanh on an unsigned type with negative limits")
          || error.equals("min_val cannot be greater than max_val")) {
        return "a declaration cannot refuse @Scalar values; the body's min/max decide";
      }
    }
    return null;
  }
}
