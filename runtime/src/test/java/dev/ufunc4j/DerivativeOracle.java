package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DynamicTest;

/**
 * Checks an op's generated gradients against its own scalar method, the oracle: at random points
 * (and at points chosen to sit on the op's kinks), the backward op's float64 kernel, fed a
 * gradient, must equal the gradient times the central difference of the {@code double} method in
 * that operand. Points where the method is not smooth within the step (the one-sided differences
 * disagree) or not finite are skipped, and each operand must keep enough checked points.
 *
 * <p>Public: {@code generated-samples} checks its sample ops with it too (runtime test-jar).
 */
// The tests compile into the runtime module (module-info): JUnit's DynamicTest, on the class path,
// is not exported by any module, which javac notes for these public helpers.
@SuppressWarnings("exports")
public final class DerivativeOracle {

  private DerivativeOracle() {}

  /** Values of {@code @Scalar} parameters by name; others get 0.7. */
  private static final Map<String, Double> SCALARS = Map.of(
      "alpha", 1.7, "beta", 0.6, "threshold", 1.5, "weight", 0.3, "minVal", -1.0, "maxVal", 1.0,
      "slope", 0.05, "factor", 1.5);

  private static final int POINTS = 400;

  /** One test per differentiable operand of each op. */
  public static List<DynamicTest> tests(Iterable<ElementwiseOp> ops) {
    List<DynamicTest> tests = new ArrayList<>();
    for (ElementwiseOp op : ops) {
      for (int i = 0; i < op.arity(); i++) {
        if (op.gradient(i) == ElementwiseOp.Gradient.NONE) {
          continue;
        }
        int operand = i;
        tests.add(DynamicTest.dynamicTest(op.name() + " d/" + op.tensorParams().get(i),
            () -> check(op, operand)));
      }
    }
    return tests;
  }

  /**
   * One {@link GradCheck} per op that has a gradient, run through the dispatcher as any op is:
   * float64 leaves in {@code [0.2, 0.8)} (inside the domain of every function a body may call:
   * log, sqrt, asin, acos), the first of shape (2, 3) and the others (3), broadcast against it;
   * condition operands a fixed mask; scalars as in {@link #tests}. Operands are drawn from
   * different seeds, so no two are equal (ties are conventions, checked against PyTorch).
   */
  public static List<DynamicTest> gradChecks(Iterable<ElementwiseOp> ops) {
    List<DynamicTest> tests = new ArrayList<>();
    for (ElementwiseOp op : ops) {
      boolean differentiable = false;
      for (int i = 0; i < op.arity(); i++) {
        differentiable |= op.gradient(i) != ElementwiseOp.Gradient.NONE;
      }
      if (differentiable) {
        tests.add(DynamicTest.dynamicTest(op.declaringClass() + "." + op.name(),
            () -> gradCheck(op)));
      }
    }
    return tests;
  }

  private static void gradCheck(ElementwiseOp op) {
    Tensor[] operands = new Tensor[op.arity()];
    List<Integer> floating = new ArrayList<>();
    for (int k = 0; k < operands.length; k++) {
      if (op.isConditionOperand(k)) {
        operands[k] = Tensor.of(new boolean[] {true, false, true, false, false, true}, 2, 3);
      } else {
        long[] shape = floating.isEmpty() ? new long[] {2, 3} : new long[] {3};
        // acosh is defined from 1 on: its leaves are shifted there
        double lo = op.name().equals("acosh") ? 1.2 : 0.2;
        operands[k] = Tensor.rand(17 + k, DType.FLOAT64, shape).mul(0.6).add(lo).detach()
            .requiresGrad(true);
        floating.add(k);
      }
    }
    Object[] scalars = new Object[op.scalarParams().size()];
    for (int s = 0; s < scalars.length; s++) {
      scalars[s] = SCALARS.getOrDefault(op.scalarParams().get(s), 0.7);
    }
    Tensor[] leaves = floating.stream().map(k -> operands[k]).toArray(Tensor[]::new);
    assertTrue(GradCheck.check(t -> {
      Tensor[] args = operands.clone();
      for (int j = 0; j < t.length; j++) {
        args[floating.get(j)] = t[j];
      }
      return Dispatch.apply(op, null, args, scalars);
    }, leaves), op.name());
  }

  /** The op's {@code double} scalar method (found by name and shape in its declaring class). */
  static Method scalarMethod(ElementwiseOp op) throws ClassNotFoundException {
    Class<?> declaring = Class.forName(op.declaringClass());
    for (Method m : declaring.getDeclaredMethods()) {
      if (m.getName().equals(op.name()) && m.getReturnType() == double.class
          && m.getParameterCount() == op.arity() + op.scalarParams().size()) {
        m.setAccessible(true);
        return m;
      }
    }
    throw new AssertionError("no double method " + op.name() + " in " + declaring);
  }

  static void check(ElementwiseOp op, int operand) throws Exception {
    Method method = scalarMethod(op);
    SplittableRandom random = new SplittableRandom(op.name().hashCode() * 31L + operand);
    int arity = op.arity();
    double[][] values = new double[arity][POINTS];
    boolean[][] conditions = new boolean[arity][POINTS];
    for (int k = 0; k < arity; k++) {
      for (int p = 0; p < POINTS; p++) {
        // Mostly random; at every fifth point one operand is 0, where abs, sign, relu and friends
        // have kinks.
        values[k][p] = Math.round(random.nextDouble(-3, 3) * 1e4) / 1e4;
        if (p % 5 == 0 && k == (p / 5) % arity) {
          values[k][p] = 0;
        }
        if (op.name().equals("logit")) {
          values[k][p] = (values[k][p] + 3) / 6; // its domain, [0, 1]
        }
        conditions[k][p] = random.nextBoolean();
      }
    }
    double[] scalars = new double[op.scalarParams().size()];
    for (int s = 0; s < scalars.length; s++) {
      scalars[s] = SCALARS.getOrDefault(op.scalarParams().get(s), 0.7);
    }
    double[] grad = new double[POINTS];
    for (int p = 0; p < POINTS; p++) {
      grad[p] = Math.round(random.nextDouble(-2, 2) * 100) / 100.0;
    }
    double[] derived = backward(op, operand, values, conditions, scalars, grad);
    int checked = 0;
    for (int p = 0; p < POINTS; p++) {
      double x = values[operand][p];
      if (ties(op, values, p, operand)) {
        continue; // a tie of two operands is a convention (max's halves), checked against torch
      }
      if (op.name().equals("xlogy") && operand == 0 && x == 0) {
        continue; // PyTorch's convention: xlogy(a != 0, b), so 0 at a = 0 where log b is exact
      }
      double h = 1e-6 * Math.max(1, Math.abs(x));
      double f0 = call(method, op, values, conditions, scalars, p, operand, x);
      double fp = call(method, op, values, conditions, scalars, p, operand, x + h);
      double fm = call(method, op, values, conditions, scalars, p, operand, x - h);
      if (!Double.isFinite(f0) || !Double.isFinite(fp) || !Double.isFinite(fm)) {
        continue;
      }
      double right = (fp - f0) / h;
      double left = (f0 - fm) / h;
      double half = (call(method, op, values, conditions, scalars, p, operand, x + h / 2)
          - call(method, op, values, conditions, scalars, p, operand, x - h / 2)) / h;
      double central = (fp - fm) / (2 * h);
      if (Math.abs(right - left) > 1e-3 * Math.max(1, Math.abs(right))
          || Math.abs(half - central) > 1e-3 * Math.max(1, Math.abs(central))) {
        continue; // a kink, or a jump (the difference grows as the step shrinks)
      }
      double numeric = grad[p] * central;
      double analytic = derived[p];
      assertTrue(Math.abs(analytic - numeric) <= 1e-5 + 1e-4 * Math.abs(numeric),
          op.name() + " d/" + op.tensorParams().get(operand) + " at "
              + Arrays.toString(point(values, conditions, op, p)) + " scalars "
              + Arrays.toString(scalars) + " grad " + grad[p] + ": generated " + analytic
              + ", central difference " + numeric);
      checked++;
    }
    assertTrue(checked >= POINTS / 4,
        op.name() + " d/" + op.tensorParams().get(operand) + ": only " + checked + " of "
            + POINTS + " points were smooth and finite");
  }

  private static boolean ties(ElementwiseOp op, double[][] values, int p, int operand) {
    for (int k = 0; k < op.arity(); k++) {
      if (k != operand && !op.isConditionOperand(k) && values[k][p] == values[operand][p]) {
        return true;
      }
    }
    return false;
  }

  private static Object[] point(double[][] values, boolean[][] conditions, ElementwiseOp op,
      int p) {
    Object[] point = new Object[op.arity()];
    for (int k = 0; k < op.arity(); k++) {
      point[k] = op.isConditionOperand(k) ? conditions[k][p] : values[k][p];
    }
    return point;
  }

  /** The method at point {@code p} with operand {@code operand} replaced by {@code x}. */
  private static double call(Method method, ElementwiseOp op, double[][] values,
      boolean[][] conditions, double[] scalars, int p, int operand, double x) throws Exception {
    Object[] args = new Object[method.getParameterCount()];
    // Tensor and scalar parameters interleave in the declaration: match by the op's names.
    java.lang.reflect.Parameter[] params = method.getParameters();
    int tensor = 0;
    int scalar = 0;
    for (int a = 0; a < args.length; a++) {
      boolean isScalar = params[a].isNamePresent()
          ? op.scalarParams().contains(params[a].getName())
          : tensor >= op.arity();
      if (isScalar) {
        args[a] = scalars[scalar++];
      } else {
        int k = tensor++;
        args[a] = op.isConditionOperand(k) ? (Object) conditions[k][p]
            : (Object) (k == operand ? x : values[k][p]);
      }
    }
    try {
      return (double) method.invoke(null, args);
    } catch (InvocationTargetException e) {
      throw new AssertionError(e.getCause());
    }
  }

  /** The generated gradient at every point, through the runtime in float64. */
  private static double[] backward(ElementwiseOp op, int operand, double[][] values,
      boolean[][] conditions, double[] scalars, double[] grad) {
    Tensor g = Tensor.of(grad);
    return switch (op.gradient(operand)) {
      case IDENTITY -> grad;
      case ZERO -> new double[POINTS];
      case NONE -> throw new AssertionError("no gradient");
      case OP -> {
        ElementwiseOp backward = op.backward(operand);
        Tensor[] operands = new Tensor[backward.arity()];
        operands[0] = g;
        for (int k = 1; k < operands.length; k++) {
          int i = op.tensorParams().indexOf(backward.tensorParams().get(k));
          operands[k] = op.isConditionOperand(i) ? Tensor.of(conditions[i]) : Tensor.of(values[i]);
        }
        Object[] boxed = new Object[scalars.length];
        for (int s = 0; s < scalars.length; s++) {
          boxed[s] = scalars[s];
        }
        Tensor r = Dispatch.apply(backward, null, operands, boxed);
        assertEquals(DType.FLOAT64, r.dtype());
        yield r.toDoubleArray();
      }
    };
  }
}
