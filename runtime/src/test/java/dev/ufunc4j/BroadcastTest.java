package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link Broadcast#shapes} against golden/broadcast.json, written from real PyTorch by
 * tools/oracle/gen_broadcast.py (regenerate with tools/oracle/regenerate.sh).
 */
class BroadcastTest {

  private static List<Map<String, Object>> goldenCases() {
    List<Map<String, Object>> cases = new ArrayList<>();
    Map<String, Object> file = GoldenTensors.map(Json.resource("/golden/broadcast.json"));
    for (Object c : GoldenTensors.list(file.get("cases"))) {
      cases.add(GoldenTensors.map(c));
    }
    return cases;
  }

  @Test
  void everyGoldenCaseMatchesPyTorch() {
    List<Map<String, Object>> cases = goldenCases();
    assertTrue(cases.size() >= 300, "golden cases: " + cases.size());
    assertTrue(cases.stream().filter(c -> c.containsKey("error")).count() >= 50);
    List<Executable> checks = new ArrayList<>();
    for (Map<String, Object> c : cases) {
      List<Object> in = GoldenTensors.list(c.get("shapes"));
      long[][] shapes = new long[in.size()][];
      for (int i = 0; i < shapes.length; i++) {
        shapes[i] = GoldenTensors.longs(in.get(i));
      }
      String what = Arrays.deepToString(shapes);
      checks.add(
          () -> {
            if (c.containsKey("result")) {
              assertArrayEquals(GoldenTensors.longs(c.get("result")), Broadcast.shapes(shapes), what);
            } else {
              BroadcastException e =
                  assertThrows(BroadcastException.class, () -> Broadcast.shapes(shapes), what);
              String torch = (String) c.get("error");
              // Two operands: PyTorch's text exactly; more: PyTorch's text, then which operand.
              if (shapes.length == 2) {
                assertEquals(torch, e.getMessage(), what);
              } else {
                assertTrue(e.getMessage().startsWith(torch + " (tensor b is operand "), e.getMessage());
              }
            }
          });
    }
    org.junit.jupiter.api.Assertions.assertAll(checks);
  }

  @Test
  void designExamples() {
    assertArrayEquals(new long[] {3, 4}, Broadcast.shapes(new long[] {3, 1}, new long[] {1, 4}));
    assertArrayEquals(new long[] {2, 0}, Broadcast.shapes(new long[] {2, 0}, new long[] {2, 1}));
    assertArrayEquals(new long[] {}, Broadcast.shapes());
    assertArrayEquals(new long[] {5}, Broadcast.shapes(new long[] {5}));
    BroadcastException e =
        assertThrows(
            BroadcastException.class, () -> Broadcast.shapes(new long[] {2, 5}, new long[] {4}));
    assertEquals(
        "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 1",
        e.getMessage());
  }

  @Test
  void threeOperandErrorSaysWhichOperand() {
    BroadcastException e =
        assertThrows(
            BroadcastException.class,
            () -> Broadcast.shapes(new long[] {2, 5}, new long[] {1}, new long[] {3, 5}));
    assertEquals(
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"
            + " (tensor b is operand 2 of 3, shape [3, 5]; tensor a is operands 0..1 broadcast to"
            + " [2, 5])",
        e.getMessage());
  }

  /**
   * An op's refusal names the op and its parameters as Builtins declares them, with their shapes,
   * then gives PyTorch's text (issue 12, item 9).
   */
  @Test
  void opRefusalNamesTheOpAndItsParameters() {
    BroadcastException e = assertThrows(BroadcastException.class,
        () -> Ops.add(Tensor.zeros(DType.FLOAT32, 3), Tensor.zeros(DType.INT32, 4)));
    assertEquals("add: a [3] and b [4] do not broadcast: The size of tensor a (3) must match the"
        + " size of tensor b (4) at non-singleton dimension 0", e.getMessage());
    e = assertThrows(BroadcastException.class, () -> Ops.clamp(Tensor.zeros(DType.FLOAT32, 2, 3),
        Tensor.zeros(DType.FLOAT32, 4), Tensor.zeros(DType.FLOAT32, 3)));
    assertEquals("clamp: x [2, 3], min [4] and max [3] do not broadcast: The size of tensor a (3)"
        + " must match the size of tensor b (4) at non-singleton dimension 1 (tensor b is operand"
        + " 1 of 3, shape [4]; tensor a is operands 0..0 broadcast to [2, 3])", e.getMessage());
  }

  @Test
  void resultIsAFreshArrayAndInputsAreUntouched() {
    long[] a = {4, 1};
    long[] r = Broadcast.shapes(a);
    assertNotSame(a, r);
    Broadcast.shapes(a, new long[] {3});
    assertArrayEquals(new long[] {4, 1}, a);
  }

  @Test
  void badInputIsRefusedWithTheValues() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Broadcast.shapes(new long[] {2}, new long[] {3, -1}));
    assertEquals(
        "Broadcast.shapes: operand 1 has negative size -1 at dimension 1 (shape [3, -1])",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Broadcast.shapes(new long[] {2}, null));
    assertEquals("Broadcast.shapes: shape of operand 1 is null", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Broadcast.shapes((long[][]) null));
    assertEquals("Broadcast.shapes: the array of shapes is null", e.getMessage());
  }
}
