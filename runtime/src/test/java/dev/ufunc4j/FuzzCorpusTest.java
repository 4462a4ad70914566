package dev.ufunc4j;

import static dev.ufunc4j.GoldenTensors.list;
import static dev.ufunc4j.GoldenTensors.map;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential-fuzzing corpus against real PyTorch: random cases of every built-in op written
 * by {@code tools/oracle/gen_fuzz.py} (random ranks and shapes with 0- and 1-sized dimensions,
 * strided, sliced, permuted and expanded operands, every dtype pair, Java numbers and booleans in
 * either position, in-place and {@code out=} calls, edge values), each run and compared exactly as
 * {@link ElementwiseGoldenTest} compares its hand-picked cases: results bit for bit, PyTorch's
 * refusals with PyTorch's text, the documented deviations named.
 */
class FuzzCorpusTest {

  private static final List<String> OPS = List.of(
      "add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum", "pow",
      "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
      "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
      "bitwise_left_shift", "bitwise_right_shift", "neg", "abs", "sign", "exp", "log", "sqrt",
      "sin", "cos", "tanh", "sigmoid", "where", "clamp",
      // issue 27's leftovers
      "erf", "erfc", "lgamma", "digamma", "nan_to_num",
      // the pointwise ops after them: gelu (both forms), logit(eps), round(decimals), nextafter
      "gelu", "gelu_tanh", "logit", "round", "nextafter");

  @TestFactory
  Stream<DynamicTest> everyCorpusCaseAgreesWithPyTorch() {
    return OPS.stream().map(op -> DynamicTest.dynamicTest(op, () -> checkOp(op)));
  }

  private static void checkOp(String op) {
    Map<String, Object> file = map(Json.resource("/golden/fuzz/" + op + ".json"));
    List<String> failures = new ArrayList<>();
    Map<String, Integer> tally = new TreeMap<>();
    for (Object c : list(file.get("cases"))) {
      Map<String, Object> kase = map(c);
      try {
        tally.merge(ElementwiseGoldenTest.checkCase(op, kase), 1, Integer::sum);
      } catch (AssertionError | RuntimeException e) {
        failures.add(kase.get("id") + ": " + e.getMessage());
      }
    }
    System.out.println("[fuzz corpus] " + op + " " + tally
        + (failures.isEmpty() ? "" : " FAILED " + failures.size()));
    if (!failures.isEmpty()) {
      fail(op + ": " + failures.size() + " corpus cases fail; first ones:\n  "
          + String.join("\n  ", failures.subList(0, Math.min(15, failures.size()))));
    }
    assertTrue(tally.getOrDefault("match", 0) > 0, op + ": no corpus case compared a result");
  }
}
