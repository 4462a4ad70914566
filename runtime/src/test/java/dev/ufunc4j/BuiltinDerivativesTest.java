package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The gradients the processor generated for every built-in op ({@link Builtins}), checked against
 * central differences of the op's own scalar method ({@link DerivativeOracle}); and which
 * operands have which kind of gradient.
 */
class BuiltinDerivativesTest {

  @TestFactory
  List<DynamicTest> everyGeneratedGradientMatchesItsScalarMethod() {
    return DerivativeOracle.tests(new BuiltinsOpLibrary().ops());
  }

  @Test
  void gradientKindsFollowDerivativesYaml() {
    Map<String, String> kinds = new TreeMap<>();
    for (ElementwiseOp op : new BuiltinsOpLibrary().ops()) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < op.arity(); i++) {
        sb.append(i == 0 ? "" : " ").append(op.gradient(i));
      }
      kinds.put(op.name(), sb.toString());
    }
    // Pass-through, zero and generated kernels; predicates, bitwise and logical ops have none.
    assertEquals("IDENTITY IDENTITY", kinds.get("add"));
    assertEquals("IDENTITY OP", kinds.get("sub"));
    assertEquals("IDENTITY OP", kinds.get("addScaled"));
    assertEquals("OP OP", kinds.get("mul"));
    assertEquals("ZERO ZERO", kinds.get("floorDivide"));
    assertEquals("IDENTITY OP", kinds.get("remainder"));
    assertEquals("ZERO", kinds.get("sign"));
    assertEquals("NONE OP OP", kinds.get("where"));
    assertEquals("OP OP OP", kinds.get("clamp"));
    assertEquals("NONE NONE", kinds.get("lt"));
    assertEquals("NONE NONE", kinds.get("bitwiseAnd"));
    assertEquals("NONE NONE", kinds.get("logicalAnd"));
    // issue 27, item 1: predicates have none, the roundings are step functions
    assertEquals("NONE", kinds.get("isnan"));
    assertEquals("NONE", kinds.get("signbit"));
    assertEquals("ZERO", kinds.get("floor"));
    assertEquals("ZERO", kinds.get("round"));
    assertEquals("OP", kinds.get("relu"));
    assertEquals("OP OP", kinds.get("atan2"));
    assertEquals("OP OP OP", kinds.get("lerp"));
  }
}
