package dev.ufunc4j.shape;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Broadcastable} against MLIR's own statement of the {@code Broadcastable} trait. Every
 * expected value is taken from one of these files of llvm/llvm-project (not from our output):
 *
 * <ul>
 *   <li>[doc] mlir/docs/Traits/Broadcastable.md at commit 0567844be70f2b3eb7943c45c1a70e3fc2d49564
 *       (https://mlir.llvm.org/docs/Traits/Broadcastable/), with the verification table as revised
 *       by https://reviews.llvm.org/D156714;
 *   <li>[cpp] mlir/lib/Dialect/Traits.cpp, {@code getBroadcastedShape} and {@code
 *       isCompatibleInferredReturnShape};
 *   <li>[test] mlir/test/Dialect/traits.mlir at commit 6a314d055dd5a44fca369e291a07f84c461bb714.
 * </ul>
 *
 * One deliberate deviation from today's MLIR: an inferred {@code ?} against a static result is an
 * error, as DESIGN.md and the doc's {@code Verify} pseudo-code (https://reviews.llvm.org/D153291)
 * say; MLIR's revised table (D156714) and Traits.cpp (D156698) accept it as a dynamic-to-static
 * cast. The rows concerned say so.
 *
 * <p>Shapes are written as in MLIR types ({@code ?x2}, {@code *}; an empty string is rank 0), dims as
 * {@code ?} or a size; "error" marks an expected {@link IncompatibleShapesException}.
 */
class BroadcastableTest {

  private static ShapeType s(String mlir) {
    return ShapeType.parse(mlir);
  }

  private static ShapeType[] splitShapes(String list) {
    String[] parts = list.split(",", -1);
    ShapeType[] shapes = new ShapeType[parts.length];
    for (int i = 0; i < parts.length; i++) {
      shapes[i] = s(parts[i].trim());
    }
    return shapes;
  }

  // ---- [doc] "Dimension inference": the table and the InferDim pseudo-function ----------------

  @ParameterizedTest(name = "InferDim({0}, {1}) = {2}")
  @CsvSource({
    // the table: dim0, dim1 in an interchangeable order; 4 and 7 stand for ">1"
    "?, ?, ?",
    "?, 1, ?",
    "?, 4, 4",
    "1, 1, 1",
    "1, 4, 4",
    "4, 4, 4",
    "4, 7, error",
    // the same rows in the other order ("interchangeable"), as the pseudo-function lists them
    "1, ?, ?",
    "4, ?, 4",
    "4, 1, 4",
    "7, 4, error",
    // a static 0, which the doc's three categories leave out: [cpp] getBroadcastedShape
    "0, 0, 0",
    "0, 1, 0",
    "1, 0, 0",
    "0, ?, ?",
    "?, 0, ?",
    "0, 4, error",
    "4, 0, error",
  })
  void inferDimTable(String dim0, String dim1, String expected) {
    Dim a = Dim.parse(dim0);
    Dim b = Dim.parse(dim1);
    if (expected.equals("error")) {
      IncompatibleShapesException e =
          assertThrows(IncompatibleShapesException.class, () -> Broadcastable.inferDim(a, b));
      assertTrue(e.getMessage().contains(dim0) && e.getMessage().contains(dim1), e.getMessage());
    } else {
      assertEquals(Dim.parse(expected), Broadcastable.inferDim(a, b));
    }
  }

  // ---- [doc] "Verification": inferredDim against actualDim ------------------------------------

  @ParameterizedTest(name = "inferred {0}, actual {1}: {2}")
  @CsvSource({
    "?, ?, OK",
    // DESIGN.md's rule and [doc]'s Verify pseudo-code (D153291); MLIR's table since D156714 and
    // Traits.cpp since D156698 accept it instead (docs/broadcasting.md names the deviation).
    "?, 4, error",
    "4, ?, OK",
    "4, 4, OK",
    "4, 5, error",
    "1, 4, error", // [doc] "Broadcast semantics are not applicable for results"
  })
  void verificationTable(String inferred, String actual, String outcome) {
    // A single operand of shape [inferred] infers exactly [inferred].
    ShapeType operand = s(inferred);
    ShapeType result = s(actual);
    assertEquals(operand, Broadcastable.inferShape(operand));
    if (outcome.equals("OK")) {
      assertDoesNotThrow(() -> Broadcastable.verify(result, operand));
    } else {
      IncompatibleShapesException e =
          assertThrows(
              IncompatibleShapesException.class, () -> Broadcastable.verify(result, operand));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "result type '" + actual + "' not broadcast compatible with broadcasted"
                      + " operands's shapes '" + inferred + "'"),
          e.getMessage());
    }
  }

  // ---- [doc] "Examples" and [test] traits.mlir: whole ops ------------------------------------

  @ParameterizedTest(name = "({0}) -> {1}: {2}")
  @CsvSource(
      delimiter = ';',
      value = {
        // [doc] correct uses
        "1x2, 1x2; 1x2; OK",
        "?, ?; ?; OK",
        "1, 4; 4; OK",
        "4; ?; OK",
        "4, 2x3x4; 2x3x4; OK",
        "2, 2; 2; OK",
        "2; *; OK",
        "*, *; 2; OK",
        // [doc] incorrect uses
        "3, 2; ?; operands",
        "3, 3; 1x3; result", // rank differs
        "2, 2; 4; result",
        "1, 1; 4; result",
        // [doc] lists "(?, ?) -> 4" as incorrect, as DESIGN.md does; its revised verification
        // table (D156714), Traits.cpp (D156698) and traits.mlir accept it (docs/broadcasting.md).
        "?, ?; 4; result",
        // [test] traits.mlir (rank-0 shapes are written as an empty string)
        " , ; ; OK",
        "4, ; 4; OK",
        "4x3x2, 3x1; 4x3x2; OK",
        "8x1x6x1, 7x1x5; 8x7x6x5; OK",
        "?x1x6x1, 7x1x5; ?x7x6x5; OK",
        "8x1x?x1, 7x1x5; 8x7x?x5; OK",
        "4x3x2, 3x3; 4x3x2; operands",
        "4x3x2, 3x1; 4x3x3; result",
        "8x1x6x1, 7x1x5; 8x7x6x1; result",
        "2, 2; *; OK",
        "4x3x2, ?; 4x3x2; OK",
        "?, ?; 2; result", // [test] accepts it since D156698; DESIGN.md's rule refuses it
        "?x6x1, *; ?x6x?; OK",
        "3x2, *; 2; result",
        "1, 1; 5; result",
        "4, 4; 4; OK",
        // [test] accepts "(3x2, 3x2, *) -> 4x3x2" because Traits.cpp compares only the last
        // rank(inferred) result dimensions; [doc] requires equal ranks ("Rank must match"), and
        // ufunc4j follows the doc (docs/broadcasting.md).
        "3x2, 3x2, *; 4x3x2; result",
      })
  void wholeOps(String operandList, String resultShape, String outcome) {
    ShapeType[] operands = splitShapes(operandList == null ? "" : operandList);
    ShapeType result = s(resultShape == null ? "" : resultShape.trim());
    switch (outcome.trim()) {
      case "OK" -> assertDoesNotThrow(() -> Broadcastable.verify(result, operands));
      case "operands" -> {
        IncompatibleShapesException e =
            assertThrows(
                IncompatibleShapesException.class, () -> Broadcastable.verify(result, operands));
        assertTrue(
            e.getMessage().startsWith("operands don't have broadcast-compatible shapes"),
            e.getMessage());
      }
      default -> {
        IncompatibleShapesException e =
            assertThrows(
                IncompatibleShapesException.class, () -> Broadcastable.verify(result, operands));
        assertTrue(
            e.getMessage()
                .startsWith(
                    "result type '" + result.toMlir() + "' not broadcast compatible with"
                        + " broadcasted operands's shapes '"),
            e.getMessage());
      }
    }
  }

  /** traits.mlir's expected diagnostics, word for word up to MLIR's end of message. */
  @Test
  void mlirDiagnosticTexts() {
    assertTrue(
        assertThrows(
                IncompatibleShapesException.class,
                () -> Broadcastable.verify(s("4x3x3"), s("4x3x2"), s("3x1")))
            .getMessage()
            .startsWith(
                "result type '4x3x3' not broadcast compatible with broadcasted operands's shapes"
                    + " '4x3x2'"));
    assertTrue(
        assertThrows(
                IncompatibleShapesException.class,
                () -> Broadcastable.verify(s("2"), s("3x2"), s("*")))
            .getMessage()
            .startsWith(
                "result type '2' not broadcast compatible with broadcasted operands's shapes"
                    + " '3x2'"));
  }

  // ---- [doc] "Shape inference": ranks, unranked operands --------------------------------------

  @Test
  void shapeInference() {
    assertEquals(s("2x3x4"), Broadcastable.inferShape(s("4"), s("2x3x4")), "ExpandRank pads 1s");
    assertEquals(s("?x7x6x5"), Broadcastable.inferShape(s("?x1x6x1"), s("7x1x5")));
    assertEquals(s("4"), Broadcastable.inferShape(s("4")), "one ranked operand: its shape");
    assertEquals(s("3x2"), Broadcastable.inferShape(s("*"), s("3x2"), s("*")),
        "unranked operands are discarded");
    assertEquals(ShapeType.unranked(), Broadcastable.inferShape(s("*"), s("*")),
        "no ranked operand: cannot be inferred");
    assertEquals(s(""), Broadcastable.inferShape(s(""), s("")));
    assertEquals(s("2x?"), Broadcastable.inferShape(s("1x?"), s("2x1"), s("?")),
        "folded from left to right");
  }

  @Test
  void inferenceErrorNamesOperandsAndSizes() {
    IncompatibleShapesException e =
        assertThrows(
            IncompatibleShapesException.class,
            () -> Broadcastable.inferShape(s("2x5"), s("*"), s("1x5"), s("4")));
    assertEquals(
        "operands don't have broadcast-compatible shapes: operand 3 [4] has size 4 where the"
            + " ranked operands 0..2 before it infer [2, 5] with size 5 (dimension 1 of the"
            + " inferred shape; static sizes must be equal or one of them 1)",
        e.getMessage());
  }

  // ---- properties -----------------------------------------------------------------------------

  private static final List<Dim> DIMS =
      List.of(Dim.DYNAMIC, Dim.of(0), Dim.of(1), Dim.of(2), Dim.of(3));

  private static Dim inferOrNull(Dim a, Dim b) {
    try {
      return Broadcastable.inferDim(a, b);
    } catch (IncompatibleShapesException e) {
      return null;
    }
  }

  @Test
  void inferDimIsCommutative() {
    for (Dim a : DIMS) {
      for (Dim b : DIMS) {
        assertEquals(inferOrNull(a, b), inferOrNull(b, a), a + ", " + b);
      }
    }
  }

  private static ShapeType inferOrNull(ShapeType... shapes) {
    try {
      return Broadcastable.inferShape(shapes);
    } catch (IncompatibleShapesException e) {
      return null;
    }
  }

  /** All shapes of rank 0..2 over {@code dims}, plus {@code *}. */
  private static List<ShapeType> shapes(List<Dim> dims) {
    List<ShapeType> all = new ArrayList<>();
    all.add(ShapeType.unranked());
    all.add(ShapeType.ranked());
    for (Dim a : dims) {
      all.add(ShapeType.ranked(a));
      for (Dim b : dims) {
        all.add(ShapeType.ranked(a, b));
      }
    }
    return all;
  }

  @Test
  void inferShapeIsCommutative() {
    List<ShapeType> all = shapes(DIMS);
    for (ShapeType a : all) {
      for (ShapeType b : all) {
        assertEquals(inferOrNull(a, b), inferOrNull(b, a), a + ", " + b);
      }
    }
  }

  /**
   * Without static 0s, the operands' order does not matter for three operands either. With a 0
   * it does, as in Traits.cpp: (0, ?) infers ?, which then accepts 2, while (0, 2) is an error.
   */
  @Test
  void operandOrderDoesNotMatterWithoutZeros() {
    List<ShapeType> all = shapes(List.of(Dim.DYNAMIC, Dim.of(1), Dim.of(2), Dim.of(3)));
    int compatible = 0;
    for (ShapeType a : all) {
      for (ShapeType b : all) {
        for (ShapeType c : all) {
          ShapeType abc = inferOrNull(a, b, c);
          assertEquals(abc, inferOrNull(c, a, b), a + ", " + b + ", " + c);
          assertEquals(abc, inferOrNull(b, c, a), a + ", " + b + ", " + c);
          compatible += abc == null ? 0 : 1;
        }
      }
    }
    assertTrue(compatible > 1000, "compatible triples: " + compatible);
    assertEquals(s("2"), Broadcastable.inferShape(s("0"), s("?"), s("2")));
    assertThrows(
        IncompatibleShapesException.class,
        () -> Broadcastable.inferShape(s("0"), s("2"), s("?")));
  }

  @Test
  void theInferredShapeVerifies() {
    List<ShapeType> all = shapes(DIMS);
    for (ShapeType a : all) {
      for (ShapeType b : all) {
        ShapeType inferred = inferOrNull(a, b);
        if (inferred != null) {
          assertDoesNotThrow(() -> Broadcastable.verify(inferred, a, b), a + ", " + b);
          assertDoesNotThrow(() -> Broadcastable.verify(ShapeType.unranked(), a, b));
        }
      }
    }
  }

  // ---- bad input ------------------------------------------------------------------------------

  private static String message(org.junit.jupiter.api.function.Executable call) {
    return assertThrows(IllegalArgumentException.class, call).getMessage();
  }

  @Test
  void badInputIsRefusedWithTheValues() {
    assertEquals("Broadcastable.inferShape: no operands; a Broadcastable op has at least one",
        message(Broadcastable::inferShape));
    assertEquals("Broadcastable.inferShape: the operands are null",
        message(() -> Broadcastable.inferShape((ShapeType[]) null)));
    assertEquals("Broadcastable.inferShape: operand 1 of 2 is null",
        message(() -> Broadcastable.inferShape(s("2"), null)));
    assertEquals("Broadcastable.verify: the result shape is null",
        message(() -> Broadcastable.verify(null, s("2"))));
    assertEquals("Broadcastable.verify: no operands; a Broadcastable op has at least one",
        message(() -> Broadcastable.verify(s("2"))));
    assertEquals("Broadcastable.inferDim: dimension dim1 is null",
        message(() -> Broadcastable.inferDim(Dim.of(1), null)));
    assertEquals("Dim.of: size -1 is negative; a dynamic dimension is Dim.DYNAMIC",
        message(() -> Dim.of(-1)));
    assertEquals("Dim.parse: '-3' is neither '?' nor a non-negative size",
        message(() -> Dim.parse("-3")));
    assertEquals("ShapeType.of: size -2 at dimension 1 of [3, -2] is negative",
        message(() -> ShapeType.of(3, -2)));
    assertEquals("ShapeType.ranked: dimension 0 is null in [null]",
        message(() -> ShapeType.ranked((Dim) null)));
    assertTrue(message(() -> ShapeType.parse("2xx3")).startsWith(
        "ShapeType.parse: '2xx3' is not a shape such as '?x2x3', '' or '*'"));
  }

  @Test
  void shapeTypeValues() {
    assertEquals(ShapeType.of(2, 3), s("2x3"));
    assertEquals(ShapeType.ranked(Dim.DYNAMIC, Dim.of(2)), s("?x2"));
    assertEquals("[?, 2]", s("?x2").toString());
    assertEquals("?x2", s("?x2").toMlir());
    assertEquals("[*]", s("*").toString());
    assertEquals("", s("").toMlir());
    assertEquals(0, s("").rank());
    assertTrue(s("2x3").isStatic());
    assertEquals(List.of(2L, 3L), java.util.Arrays.stream(s("2x3").sizes()).boxed().toList());
    assertThrows(IllegalStateException.class, () -> s("*").rank());
    assertThrows(IllegalStateException.class, () -> s("?").sizes());
    assertThrows(IllegalStateException.class, () -> Dim.DYNAMIC.size());
    assertEquals(Dim.of(100), Dim.parse("100"));
  }
}
