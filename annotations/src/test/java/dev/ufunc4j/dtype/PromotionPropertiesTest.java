package dev.ufunc4j.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The matrix as a lattice (JAX checks its dtype lattice the same way): commutative, idempotent,
 * a join under canCast, and associative except where a known, computed list says otherwise.
 */
class PromotionPropertiesTest {
  private static final DType[] ALL = DType.values();

  @Test
  void commutative() {
    for (PromotionPolicy policy : PromotionPolicy.values()) {
      for (DType a : ALL) {
        for (DType b : ALL) {
          assertEquals(orNull(policy, a, b), orNull(policy, b, a), policy + ": " + a + ", " + b);
        }
      }
    }
  }

  @Test
  void idempotent() {
    for (PromotionPolicy policy : PromotionPolicy.values()) {
      for (DType a : ALL) {
        assertEquals(a, policy.promote(a, a), policy + ": " + a);
      }
    }
  }

  @Test
  void defaultEqualsTorchWhereverTorchGivesAResult() {
    int defined = 0;
    for (DType a : ALL) {
      for (DType b : ALL) {
        DType torch = orNull(PromotionPolicy.TORCH, a, b);
        if (torch != null) {
          assertEquals(torch, Promotion.promoteTypes(a, b), a + " + " + b);
          defined++;
        }
      }
    }
    // 18*18 pairs, minus 66 float8 pairs (either float8 with one of 17 others, both orders, less
    // the two counted twice) and 60 uint16/32/64 refusals: as many as torch's golden results.
    assertEquals(324 - 66 - 60, defined);
    assertEquals(
        defined,
        PromotionGolden.section("promote_types").stream().filter(c -> c.has("result")).count());
  }

  @Test
  void resultCanHoldBothOperandsUnderCanCast() {
    for (DType a : ALL) {
      for (DType b : ALL) {
        DType r = orNull(PromotionPolicy.DEFAULT, a, b);
        if (r != null) {
          assertTrue(Promotion.canCast(a, r) && Promotion.canCast(b, r), a + " + " + b + " -> " + r);
        }
      }
    }
  }

  /**
   * Known fact, computed here and by torch (golden "non_associative"): PyTorch's own table is
   * associative wherever both groupings are defined; the triples where they differ all have a
   * uint16/32/64 refusal in one grouping only ((uint16 + int8) + float16 fails, uint16 + (int8 +
   * float16) is float16).
   */
  @Test
  void torchTableNonAssociativeTriplesAreExactlyTorchsOwn() {
    Set<String> fromTorch = new TreeSet<>();
    for (JsonObject t : PromotionGolden.section("non_associative")) {
      fromTorch.add(
          triple(
              PromotionGolden.dtype(t, "a"),
              PromotionGolden.dtype(t, "b"),
              PromotionGolden.dtype(t, "c"),
              t.get("left").isJsonNull() ? null : PromotionGolden.dtype(t, "left"),
              t.get("right").isJsonNull() ? null : PromotionGolden.dtype(t, "right")));
    }
    List<String> computed = nonAssociative(PromotionPolicy.TORCH);
    assertEquals(fromTorch, new TreeSet<>(computed));
    assertEquals(480, computed.size());
    assertTrue(computed.stream().allMatch(s -> s.contains("error")), "all differ by definedness");
  }

  /**
   * Known fact: the DEFAULT extension gives uint64 + signed -> float64 (NumPy 2's choice), so a
   * triple of uint64, a signed integer and a type that float64 outranks (float16, bfloat16,
   * float32, complex32, complex64) depends on whether uint64 meets the signed type first:
   * (uint64 + int8) + float16 = float64 but uint64 + (int8 + float16) = float16, as in NumPy. These
   * 80 triples are all of them, and the extension is associative otherwise.
   */
  @Test
  void defaultTableNonAssociativeTriplesAreTheDocumentedOnes() {
    List<DType> signed = List.of(DType.INT8, DType.INT16, DType.INT32, DType.INT64);
    List<DType> belowFloat64 =
        List.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.COMPLEX32, DType.COMPLEX64);
    DType u = DType.UINT64;
    Set<String> expected = new TreeSet<>();
    for (DType s : signed) {
      for (DType f : belowFloat64) {
        DType wide = f.isComplex() ? DType.COMPLEX128 : DType.FLOAT64;
        // the four orders in which exactly one grouping pairs uint64 with the signed type
        expected.add(triple(s, u, f, wide, f));
        expected.add(triple(u, s, f, wide, f));
        expected.add(triple(f, s, u, f, wide));
        expected.add(triple(f, u, s, f, wide));
      }
    }
    List<String> computed = nonAssociative(PromotionPolicy.DEFAULT);
    assertEquals(80, computed.size());
    assertEquals(expected, new TreeSet<>(computed));
  }

  @Test
  void defaultExtensionCellsFollowNumpyForIntegersAndTheFloatOperandOtherwise() {
    List<JsonObject> numpy = PromotionGolden.section("numpy_integer");
    assertEquals(9 * 9 - 6 * 6, numpy.size());
    for (JsonObject c : numpy) {
      DType a = PromotionGolden.dtype(c, "a");
      DType b = PromotionGolden.dtype(c, "b");
      assertEquals(PromotionGolden.dtype(c, "result"), Promotion.promoteTypes(a, b), a + "+" + b);
    }
    for (DType u : List.of(DType.UINT16, DType.UINT32, DType.UINT64)) {
      for (DType f : ALL) {
        if (f.isComplex() || (f.isFloatingPoint() && !f.isFloat8())) {
          assertEquals(f, Promotion.promoteTypes(u, f), u + "+" + f);
        }
      }
    }
  }

  @Test
  void float8PromotesWithNothingButItself() {
    for (DType f8 : List.of(DType.FLOAT8_E4M3FN, DType.FLOAT8_E5M2)) {
      for (DType other : ALL) {
        if (other != f8) {
          PromotionException e =
              assertThrows(PromotionException.class, () -> Promotion.promoteTypes(f8, other));
          assertTrue(
              e.getMessage().contains(f8.scalarTypeName())
                  && e.getMessage().contains(other.scalarTypeName()),
              e.getMessage());
        }
      }
    }
  }

  @Test
  void nullDtypesAreRefusedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Promotion.promoteTypes(DType.INT8, null));
    assertEquals("promote(int8, null): dtypes must not be null", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Promotion.TORCH.promote(null, DType.INT8));
    assertThrows(IllegalArgumentException.class, () -> Promotion.canCast(null, DType.INT8));
  }

  private static List<String> nonAssociative(PromotionPolicy policy) {
    List<String> triples = new ArrayList<>();
    for (DType a : ALL) {
      for (DType b : ALL) {
        for (DType c : ALL) {
          DType ab = orNull(policy, a, b);
          DType bc = orNull(policy, b, c);
          DType left = ab == null ? null : orNull(policy, ab, c);
          DType right = bc == null ? null : orNull(policy, a, bc);
          if (left != right) {
            triples.add(triple(a, b, c, left, right));
          }
        }
      }
    }
    return triples;
  }

  private static String triple(DType a, DType b, DType c, DType left, DType right) {
    return "(" + a + "+" + b + ")+" + c + "=" + (left == null ? "error" : left)
        + " vs " + a + "+(" + b + "+" + c + ")=" + (right == null ? "error" : right);
  }

  private static DType orNull(PromotionPolicy policy, DType a, DType b) {
    try {
      return policy.promote(a, b);
    } catch (PromotionException e) {
      return null;
    }
  }
}
