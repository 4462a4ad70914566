package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.BinaryUfunc;
import dev.ufunc4j.GradCheck;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Gradients of users' ops through their ufunc methods: {@link GradCheck} (float64 central
 * differences, PyTorch's tolerances) of {@code reduce}, {@code accumulate}, {@code reduceAt} and
 * {@code outer} of sample ops, associative ({@code logAddExp}: the pairwise tree) and not ({@code ema}, {@code
 * hypot}, {@code div}, {@code diffOfSquares}, {@code mul} as a user declares it: the left fold).
 * The backward is derived from each op's own generated backward kernels (docs/gradients.md,
 * "Ufunc methods").
 */
class SampleUfuncGradTest {

  private static Tensor leaf(long seed, double lo, double hi, long... shape) {
    return Tensor.rand(seed, DType.FLOAT64, shape).mul(hi - lo).add(lo).detach()
        .requiresGrad(true);
  }

  @TestFactory
  Stream<DynamicTest> gradCheckOfSampleUfuncMethods() {
    Map<String, BinaryUfunc> ops = new LinkedHashMap<>();
    ops.put("logAddExp", ReducerOps.logAddExp);
    ops.put("ema", ReducerOps.ema);
    ops.put("hypot", BlendsOps.hypot);
    ops.put("div", SamplesOps.div);
    ops.put("diffOfSquares", SamplesOps.diffOfSquares);
    ops.put("mul", SamplesOps.mul);
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, BinaryUfunc> e : ops.entrySet()) {
      BinaryUfunc u = e.getValue();
      Tensor x = leaf(21, 0.5, 1.5, 4, 5);
      Tensor a = leaf(22, 0.5, 1.5, 3);
      Tensor b = leaf(23, 0.5, 1.5, 2, 2);
      Map<String, Function<Tensor[], Tensor>> calls = new LinkedHashMap<>();
      calls.put("reduce dim 0", t -> u.reduce(t[0], 0));
      calls.put("reduce dim 1 keepDim", t -> u.reduce(t[0], new int[] {1}, true));
      calls.put("accumulate dim 0", t -> u.accumulate(t[0], 0));
      calls.put("accumulate dim 1", t -> u.accumulate(t[0], 1));
      // segments [0, 3), x[3] alone (3 >= 1: NumPy's value, the identity's gradient), [1, 4)
      // overlapping the first, and [4, 5) of one element
      calls.put("reduceAt dim 1", t -> u.reduceAt(t[0], Tensor.of(new long[] {0, 3, 1, 4}, 4), 1));
      if (u.isAssociative()) {
        calls.put("reduce all", t -> u.reduce(t[0]));
      }
      for (Map.Entry<String, Function<Tensor[], Tensor>> c : calls.entrySet()) {
        tests.add(DynamicTest.dynamicTest(e.getKey() + "." + c.getKey(),
            () -> assertTrue(GradCheck.check(c.getValue(), x))));
      }
      tests.add(DynamicTest.dynamicTest(e.getKey() + ".outer",
          () -> assertTrue(GradCheck.check(t -> u.outer(t[0], t[1]), a, b))));
    }
    return tests.stream();
  }
}
