package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.shape.Broadcastable;
import dev.ufunc4j.shape.IncompatibleShapesException;
import dev.ufunc4j.shape.ShapeType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * With every dimension static, MLIR's {@link Broadcastable} inference is PyTorch's broadcasting:
 * it agrees with {@link Broadcast#shapes} on golden/broadcast.json (real PyTorch, results and
 * refusals) and on random shapes, and the inferred shape verifies as the result.
 */
class BroadcastableAgreementTest {

  private static ShapeType[] shapeTypes(long[][] shapes) {
    return Arrays.stream(shapes).map(ShapeType::of).toArray(ShapeType[]::new);
  }

  private static Executable agreement(long[][] shapes) {
    String what = Arrays.deepToString(shapes);
    return () -> {
      long[] torch;
      try {
        torch = Broadcast.shapes(shapes);
      } catch (BroadcastException e) {
        assertThrows(
            IncompatibleShapesException.class,
            () -> Broadcastable.inferShape(shapeTypes(shapes)),
            what);
        return;
      }
      ShapeType inferred = Broadcastable.inferShape(shapeTypes(shapes));
      assertArrayEquals(torch, inferred.sizes(), what);
      Broadcastable.verify(ShapeType.of(torch), shapeTypes(shapes));
    };
  }

  @Test
  void agreesWithPyTorchGolden() {
    Map<String, Object> file = GoldenTensors.map(Json.resource("/golden/broadcast.json"));
    List<Executable> checks = new ArrayList<>();
    int refused = 0;
    for (Object o : GoldenTensors.list(file.get("cases"))) {
      Map<String, Object> c = GoldenTensors.map(o);
      List<Object> in = GoldenTensors.list(c.get("shapes"));
      long[][] shapes = new long[in.size()][];
      for (int i = 0; i < shapes.length; i++) {
        shapes[i] = GoldenTensors.longs(in.get(i));
      }
      refused += c.containsKey("error") ? 1 : 0;
      String what = Arrays.deepToString(shapes);
      checks.add(
          () -> {
            if (c.containsKey("result")) {
              assertArrayEquals(
                  GoldenTensors.longs(c.get("result")),
                  Broadcastable.inferShape(shapeTypes(shapes)).sizes(),
                  what);
            } else {
              assertThrows(
                  IncompatibleShapesException.class,
                  () -> Broadcastable.inferShape(shapeTypes(shapes)),
                  what);
            }
          });
      checks.add(agreement(shapes));
    }
    assertTrue(refused >= 50, "refused cases: " + refused);
    assertAll(checks);
  }

  @Test
  void agreesWithBroadcastShapesOnRandomShapes() {
    SplittableRandom rng = new SplittableRandom(7);
    List<Executable> checks = new ArrayList<>();
    for (int n = 0; n < 2000; n++) {
      long[][] shapes = new long[1 + rng.nextInt(4)][];
      for (int k = 0; k < shapes.length; k++) {
        shapes[k] = new long[rng.nextInt(5)];
        for (int d = 0; d < shapes[k].length; d++) {
          shapes[k][d] = rng.nextInt(10) < 4 ? 1 : rng.nextInt(4);
        }
      }
      checks.add(agreement(shapes));
    }
    assertAll(checks);
    assertEquals(
        ShapeType.of(2, 3),
        Broadcastable.inferShape(ShapeType.of(2, 1), ShapeType.of(3)),
        "sanity: the two agree on a plain case");
  }
}
