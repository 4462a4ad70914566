package dev.ufunc4j.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Promotion against golden data from real PyTorch (see {@link PromotionGolden}). */
class PromotionGoldenTest {

  @Test
  void goldenCoversEveryDtypeInOrder() {
    List<String> names = new ArrayList<>();
    PromotionGolden.DOC.getAsJsonArray("dtypes").forEach(e -> names.add(e.getAsString()));
    assertEquals(Arrays.stream(DType.values()).map(DType::torchName).toList(), names);
    assertEquals(18 * 18, PromotionGolden.section("promote_types").size());
    assertEquals(18 * 18, PromotionGolden.section("can_cast").size());
    assertEquals("float32", PromotionGolden.DOC.get("default_dtype").getAsString());
  }

  @Test
  void torchPolicyReproducesPromoteTypesAndItsErrorTexts() {
    assertAll(
        PromotionGolden.section("promote_types").stream()
            .map(
                c ->
                    () -> {
                      DType a = PromotionGolden.dtype(c, "a");
                      DType b = PromotionGolden.dtype(c, "b");
                      expect(c, () -> Promotion.TORCH.promote(a, b), a + " + " + b);
                    }));
  }

  @Test
  void defaultPolicyEqualsTorchWhereTorchGivesAResult() {
    for (JsonObject c : PromotionGolden.section("promote_types")) {
      DType a = PromotionGolden.dtype(c, "a");
      DType b = PromotionGolden.dtype(c, "b");
      if (c.has("result")) {
        assertEquals(PromotionGolden.dtype(c, "result"), Promotion.promoteTypes(a, b), a + "+" + b);
      } else if (a.isFloat8() || b.isFloat8()) {
        PromotionException e =
            assertThrows(PromotionException.class, () -> Promotion.promoteTypes(a, b));
        assertTrue(e.getMessage().startsWith(c.get("error").getAsString()), e.getMessage());
      }
    }
  }

  @Test
  void canCastMatchesTorchForEveryPair() {
    for (JsonObject c : PromotionGolden.section("can_cast")) {
      DType from = PromotionGolden.dtype(c, "from");
      DType to = PromotionGolden.dtype(c, "to");
      assertEquals(c.get("result").getAsBoolean(), Promotion.canCast(from, to), from + " -> " + to);
    }
  }

  @Test
  void torchPolicyReproducesResultTypeForEveryGoldenCase() {
    List<JsonObject> cases = PromotionGolden.section("result_type");
    assertTrue(cases.size() >= 200, "golden result_type cases: " + cases.size());
    assertTrue(cases.stream().anyMatch(c -> c.getAsJsonArray("operands").size() >= 3));
    int[] salt = {0};
    assertAll(
        cases.stream()
            .map(
                c -> {
                  Object[] ops = PromotionGolden.operands(c, salt[0]++);
                  return () ->
                      expect(
                          c,
                          () -> Promotion.TORCH.resultType(ops),
                          Arrays.toString(ops) + " via " + c.get("oracle").getAsString());
                }));
  }

  @Test
  void defaultResultTypeEqualsTorchExceptForFloat8Mixing() {
    int salt = 0;
    for (JsonObject c : PromotionGolden.section("result_type")) {
      Object[] ops = PromotionGolden.operands(c, salt++);
      boolean mixesFloat8 = mixesFloat8(ops);
      if (mixesFloat8) {
        PromotionException e =
            assertThrows(
                PromotionException.class,
                () -> Promotion.resultType(ops),
                () -> Arrays.toString(ops));
        assertTrue(e.getMessage().contains("float8"), e.getMessage());
      } else if (c.has("result")) {
        assertEquals(
            PromotionGolden.dtype(c, "result"), Promotion.resultType(ops), Arrays.toString(ops));
      }
    }
  }

  private static boolean mixesFloat8(Object[] ops) {
    boolean float8 = false;
    boolean other = false;
    DType first = null;
    for (Object o : ops) {
      DType t =
          switch (o) {
            case TensorLike tl -> tl.dtype();
            case Boolean _ -> DType.BOOL;
            case Float _, Double _ -> DType.FLOAT32;
            default -> DType.INT64;
          };
      float8 |= t.isFloat8();
      other |= first != null && t != first;
      first = first == null ? t : first;
    }
    return float8 && other;
  }

  /** Asserts the call gives the case's result, or throws PromotionException with its text. */
  static void expect(JsonObject c, java.util.function.Supplier<DType> call, String what) {
    if (c.has("result")) {
      assertEquals(PromotionGolden.dtype(c, "result"), call.get(), what);
    } else {
      PromotionException e = assertThrows(PromotionException.class, call::get, what);
      assertEquals(c.get("error").getAsString(), e.getMessage(), what);
    }
  }

  private static void assertAll(Stream<Executable> checks) {
    org.junit.jupiter.api.Assertions.assertAll(checks);
  }
}
