package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.AutogradGoldenTest;
import dev.ufunc4j.DerivativeOracle;
import dev.ufunc4j.GoldenTensors;
import dev.ufunc4j.GradCheck;
import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The gradients the processor derived for the sample ops: against central differences of each
 * op's own scalar method (every op, every floating operand), against {@code torch.nn.functional}
 * autograd ({@code tools/oracle/gen_autograd.py}), and through {@link GradCheck} as a user would
 * run it on an op of their own.
 */
class SampleGradientsTest {

  private static List<ElementwiseOp> sampleOps() {
    List<ElementwiseOp> ops = new ArrayList<>();
    for (OpLibrary library : ServiceLoader.load(OpLibrary.class)) {
      for (ElementwiseOp op : library.ops()) {
        // These checks run in float64: an op generated for fewer dtypes (RestrictedTest's
        // float32-only op) is not one they can check.
        // (JdkMath.scalbUp2000 is infinite at every non-zero input: no point to check it at.)
        if (op.declaringClass().startsWith("dev.ufunc4j.samples.")
            && (op.dtypes().isEmpty() || op.dtypes().contains(DType.FLOAT64))
            && !op.name().equals("scalbUp2000")) {
          ops.add(op);
        }
      }
    }
    return ops;
  }

  @TestFactory
  List<DynamicTest> everyDerivedGradientMatchesItsScalarMethod() {
    List<DynamicTest> tests = DerivativeOracle.tests(sampleOps());
    assertTrue(tests.size() >= 25, "only " + tests.size() + " sample gradients found");
    return tests;
  }

  @Test
  void declaredAndDerivedGradientKinds() {
    Map<String, ElementwiseOp> byName = new java.util.TreeMap<>();
    sampleOps().forEach(op -> byName.put(op.declaringClass() + "." + op.name(), op));
    ElementwiseOp add = byName.get("dev.ufunc4j.samples.Samples.add");
    assertEquals(ElementwiseOp.Gradient.IDENTITY, add.gradient(0));
    ElementwiseOp floor = byName.get("dev.ufunc4j.samples.Samples.floor");
    assertEquals(ElementwiseOp.Gradient.ZERO, floor.gradient(0));
    ElementwiseOp less = byName.get("dev.ufunc4j.samples.Samples.less");
    assertEquals(ElementwiseOp.Gradient.NONE, less.gradient(0));
    // where's gradient for a reads only the gradient and the condition.
    ElementwiseOp where = byName.get("dev.ufunc4j.samples.Samples.where");
    assertEquals(List.of("grad", "condition"), where.backward(1).tensorParams());
    // hardtanh's gradient is declared (@Derivative): 0 at the limits, as F.hardtanh.
    ElementwiseOp hardtanh = byName.get("dev.ufunc4j.samples.Activations.hardtanh");
    Tensor g = Ops.mul(Tensor.ones(DType.FLOAT64, 3), 1.0);
    Tensor at = Tensor.of(new double[] {-1, 0, 1});
    Tensor r = dev.ufunc4j.Dispatch.apply(hardtanh.backward(0), null, new Tensor[] {g, at},
        new Object[] {-1.0, 1.0});
    assertEquals(List.of(0.0, 1.0, 0.0),
        java.util.Arrays.stream(r.toDoubleArray()).boxed().toList());
  }

  /** GradCheck on every sample op with a gradient, through its descriptor. */
  @TestFactory
  List<DynamicTest> gradCheckOnEverySampleOpThroughItsDescriptor() {
    List<DynamicTest> tests = DerivativeOracle.gradChecks(sampleOps());
    assertTrue(tests.size() >= 25, "only " + tests.size() + " differentiable sample ops");
    return tests;
  }

  @TestFactory
  List<DynamicTest> againstTorchNnFunctional() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String op : List.of("silu", "gelu", "softplus", "leaky_relu", "hardtanh", "lerp",
        "hypot")) {
      tests.addAll(AutogradGoldenTest.cases("/golden/autograd/" + op + ".json",
          SampleGradientsTest::call));
    }
    return tests;
  }

  /**
   * Ops that call ops ({@code Composition}) against PyTorch's autograd of the same composition,
   * far below 0 too: there the gradient of {@code silu = x * sigmoid(x)} is 0 in PyTorch and
   * NaN from the derivative of sigmoid's body ({@code inf / inf}); sigmoid's declared
   * derivative, which the caller's gradient uses for the call, keeps it 0.
   */
  @TestFactory
  List<DynamicTest> compositionAgainstTorchAutograd() {
    return AutogradGoldenTest.cases("/golden/autograd/composition.json", (kase, args) -> {
      Tensor x = (Tensor) args.get(0);
      return switch ((String) kase.get("call")) {
        case "sigmoid" -> CompositionOps.sigmoid(x);
        case "silu" -> CompositionOps.silu(x);
        case "shiftedSilu" -> CompositionOps.shiftedSilu(x, (Number) args.get(1));
        case "softSign2" -> CompositionOps.softSign2(x, (Tensor) args.get(1));
        default -> throw new AssertionError(kase.get("call"));
      };
    });
  }

  private static Number kw(Map<String, Object> kase, String key) {
    return (Number) GoldenTensors.scalar(
        Map.of("scalar", GoldenTensors.map(kase.get("kwargs")).get(key)));
  }

  private static Tensor call(Map<String, Object> kase, List<Object> args) {
    Tensor x = (Tensor) args.get(0);
    return switch ((String) kase.get("call")) {
      case "silu" -> ActivationsOps.silu(x);
      case "gelu" -> ActivationsOps.gelu(x);
      case "softplus" -> ActivationsOps.softplus(x, kw(kase, "beta"), kw(kase, "threshold"));
      case "leaky_relu" -> ActivationsOps.leakyRelu(x, kw(kase, "negative_slope"));
      case "hardtanh" -> ActivationsOps.hardtanh(x, kw(kase, "min_val"), kw(kase, "max_val"));
      case "lerp" -> BlendsOps.lerp(x, (Tensor) args.get(1), (Number) args.get(2));
      case "hypot" -> BlendsOps.hypot(x, (Tensor) args.get(1));
      default -> throw new AssertionError(kase.get("call"));
    };
  }

  @Test
  void gradCheckOnEverySampleOp() {
    Tensor x = Tensor.rand(11, DType.FLOAT64, 2, 3).mul(4.0).sub(2.0).detach().requiresGrad(true);
    Tensor y = Tensor.rand(12, DType.FLOAT64, 3).mul(4.0).sub(2.0).detach().requiresGrad(true);
    Map<String, Function<Tensor[], Tensor>> unary = Map.of(
        "silu", t -> ActivationsOps.silu(t[0]),
        "gelu", t -> ActivationsOps.gelu(t[0]),
        "softplus", t -> ActivationsOps.softplus(t[0], 1.5, 1.0),
        "leakyRelu", t -> ActivationsOps.leakyRelu(t[0], 0.1),
        "hardtanh", t -> ActivationsOps.hardtanh(t[0], -1.5, 1.5),
        "wave", t -> SamplesOps.wave(t[0]),
        "relu", t -> SamplesOps.relu(t[0]),
        "biasRelu", t -> FusedOps.biasRelu(t[0], t[0].mul(0.5)));
    for (Map.Entry<String, Function<Tensor[], Tensor>> e : unary.entrySet()) {
      assertTrue(GradCheck.check(e.getValue(), x), e.getKey());
    }
    Map<String, Function<Tensor[], Tensor>> binary = Map.of(
        "axpby", t -> BlendsOps.axpby(t[0], t[1], 2.0, -0.5),
        "lerp", t -> BlendsOps.lerp(t[0], t[1], 0.3),
        "hypot", t -> BlendsOps.hypot(t[0], t[1]),
        "axpy", t -> SamplesOps.axpy(t[0], t[1], 1.5),
        "div", t -> SamplesOps.div(t[0], t[1]),
        "diffOfSquares", t -> SamplesOps.diffOfSquares(t[0], t[1]),
        "clamp", t -> SamplesOps.clamp(t[0], t[1].mul(0.25).sub(1.0), t[1].mul(0.25).add(1.0)),
        "where", t -> SamplesOps.where(t[0].gt(0.0), t[0], t[1]));
    for (Map.Entry<String, Function<Tensor[], Tensor>> e : binary.entrySet()) {
      assertTrue(GradCheck.check(e.getValue(), x, y), e.getKey());
    }
  }
}
