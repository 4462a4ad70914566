package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.BroadcastException;
import dev.ufunc4j.BroadcastDims;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.PromotionException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The generated facade {@link SamplesOps}: its method shapes, and its results against the ops'
 * declared scalar methods ({@link Samples} is the oracle), including wrapped Java numbers in
 * tensor positions, {@code @Scalar} arguments, {@code out=} and errors that name the parameter.
 */
class FacadeTest {

  private static final Tensor INTS = Tensor.of(new int[] {-3, 0, 7}, 3);
  private static final Tensor FLOATS = Tensor.of(new float[] {0.5f, -1.25f, 8f, -0f}, 4);

  @Test
  void facadeIsAPublicFinalUtilityClass() throws ReflectiveOperationException {
    assertTrue(Modifier.isPublic(SamplesOps.class.getModifiers()));
    assertTrue(Modifier.isFinal(SamplesOps.class.getModifiers()));
    assertEquals(1, SamplesOps.class.getDeclaredConstructors().length);
    assertTrue(Modifier.isPrivate(SamplesOps.class.getDeclaredConstructor().getModifiers()));
    for (Method m : SamplesOps.class.getDeclaredMethods()) {
      assertTrue(Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()), m
          .toString());
      assertEquals(Tensor.class, m.getReturnType(), m.toString());
    }
  }

  @Test
  void facadeOfAPackagePrivateClassIsPackagePrivate() throws ReflectiveOperationException {
    assertFalse(Modifier.isPublic(InternalOps.class.getModifiers()));
    assertFalse(Modifier.isPublic(Internal_NestedOps.class.getModifiers()));
    // The tensor parameter 'out' keeps its name; the target is out_.
    Method scale = InternalOps.class.getMethod("scale", Tensor.class, Number.class, Tensor.class);
    assertEquals(List.of("out", "factor", "out_"),
        Arrays.stream(scale.getParameters()).map(p -> p.getName()).toList());
    Tensor x = Tensor.of(new float[] {1f, -2f}, 2);
    Tensor target = Tensor.zeros(DType.FLOAT32, 2);
    assertSame(target, InternalOps.scale(x, 3, target));
    assertArrayEquals(new double[] {Internal.scale(1, 3), Internal.scale(-2, 3)}, values(target));
    // A boolean @Scalar is a Java boolean.
    Tensor flags = Tensor.of(new boolean[] {true, false}, 2);
    Tensor flipped = Internal_NestedOps.flip(flags, true);
    assertEquals(DType.BOOL, flipped.dtype());
    assertEquals(Internal.Nested.flip(true, true), flipped.getBoolean(0));
    assertEquals(Internal.Nested.flip(false, true), flipped.getBoolean(1));
  }

  @Test
  void methodShapes() {
    assertEquals(List.of(
            "axpy(Number, Tensor, Number)",
            "axpy(Number, Tensor, Number, Tensor)",
            "axpy(Tensor, Number, Number)",
            "axpy(Tensor, Number, Number, Tensor)",
            "axpy(Tensor, Tensor, Number)",
            "axpy(Tensor, Tensor, Number, BroadcastDims)",
            "axpy(Tensor, Tensor, Number, Tensor)",
            "axpy(Tensor, boolean, Number)",
            "axpy(Tensor, boolean, Number, Tensor)",
            "axpy(boolean, Tensor, Number)",
            "axpy(boolean, Tensor, Number, Tensor)"),
        signatures("axpy"));
    // One promoting operand: no Number form (PyTorch has no exp(2.0) on a Python number either).
    assertEquals(List.of("relu(Tensor)", "relu(Tensor, Tensor)"), signatures("relu"));
    // Three promoting operands: tensors only.
    assertEquals(List.of("clamp(Tensor, Tensor, Tensor)", "clamp(Tensor, Tensor, Tensor, Tensor)"),
        signatures("clamp"));
    // The condition stays a tensor; either value operand may be a number or a boolean.
    assertEquals(List.of(
            "where(Tensor, Number, Tensor)",
            "where(Tensor, Number, Tensor, Tensor)",
            "where(Tensor, Tensor, Number)",
            "where(Tensor, Tensor, Number, Tensor)",
            "where(Tensor, Tensor, Tensor)",
            "where(Tensor, Tensor, Tensor, Tensor)",
            "where(Tensor, Tensor, boolean)",
            "where(Tensor, Tensor, boolean, Tensor)",
            "where(Tensor, boolean, Tensor)",
            "where(Tensor, boolean, Tensor, Tensor)"),
        signatures("where"));
    TreeSet<String> ops = new TreeSet<>();
    for (Method m : SamplesOps.class.getDeclaredMethods()) {
      ops.add(m.getName());
    }
    assertEquals(new TreeSet<>(List.of("add", "axpy", "ceil", "clamp", "diffOfSquares", "div",
        "equal", "floor", "halfStep", "less", "logicalXor", "mix", "mul", "neg", "notEqual",
        "relu", "rint", "safeRem", "shifts", "signs", "silu", "wave", "where")), ops);
  }

  private static List<String> signatures(String name) {
    return Arrays.stream(SamplesOps.class.getDeclaredMethods())
        .filter(m -> m.getName().equals(name))
        .map(m -> name + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName)
            .reduce((x, y) -> x + ", " + y).map(s -> "(" + s + ")").orElse("()"))
        .sorted()
        .toList();
  }

  @Test
  void broadcastDimsOverloadLiftsTheLowerRankOperandAsXlaDoes() {
    // XLA's [4] + [1, 2] with broadcast_dimensions (0) -> [4, 2]: v[i] pairs with m[0, j].
    Tensor v = Tensor.of(new float[] {1f, -2f, 3.5f, 0.25f}, 4);
    Tensor m = Tensor.of(new float[] {10f, 20f}, 1, 2);
    Tensor r = SamplesOps.axpy(v, m, 2.0, BroadcastDims.of(0));
    assertArrayEquals(new long[] {4, 2}, r.shape());
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 2; j++) {
        assertEquals((float) Samples.axpy(v.getDouble(i), m.getDouble(0, j), 2.0),
            r.getDouble(i, j), "element " + i + ", " + j);
      }
    }
    // The lifted operand may be either one; dims that do not fit are refused naming them.
    Tensor swapped = SamplesOps.axpy(m, v, 2.0, BroadcastDims.of(0));
    assertEquals((float) Samples.axpy(m.getDouble(0, 1), v.getDouble(3), 2.0),
        swapped.getDouble(3, 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SamplesOps.axpy(v, m, 2.0, BroadcastDims.of(1)));
    assertTrue(e.getMessage().contains("axpy"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SamplesOps.axpy(v, m, 2.0, (BroadcastDims) null));
  }

  @Test
  void addBroadcastsAndPromotesTensors() {
    Tensor a = INTS.view(3, 1);
    Tensor r = SamplesOps.add(a, FLOATS);
    assertEquals(DType.FLOAT32, r.dtype());
    assertArrayEquals(new long[] {3, 4}, r.shape());
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 4; j++) {
        assertEquals((float) Samples.add(a.getLong(i, 0), FLOATS.getDouble(j)), r.getDouble(i, j));
      }
    }
  }

  @Test
  void javaNumbersInTensorPositionsPromoteAsPythonScalars() {
    // int32 + 2.5 -> the default float dtype, float32.
    Tensor f = SamplesOps.add(INTS, 2.5);
    assertEquals(DType.FLOAT32, f.dtype());
    for (int i = 0; i < 3; i++) {
      assertEquals((float) Samples.add(INTS.getLong(i), 2.5), f.getDouble(i));
    }
    // int32 + 7 (an Integer) stays int32; so does 7L.
    Tensor n = SamplesOps.add(INTS, 7);
    assertEquals(DType.INT32, n.dtype());
    assertEquals(Samples.add(-3L, 7L), n.getLong(0));
    assertEquals(DType.INT32, SamplesOps.add(INTS, 7L).dtype());
    // A number on the left: 2.5 - x order matters for div.
    Tensor d = SamplesOps.div(2.5, FLOATS);
    assertEquals(DType.FLOAT32, d.dtype());
    for (int j = 0; j < 4; j++) {
      assertEquals((float) Samples.div(2.5, FLOATS.getDouble(j)), d.getDouble(j));
    }
    // A float number does not raise a float16 tensor's dtype.
    Tensor h = SamplesOps.add(FLOATS.to(DType.FLOAT16), 0.25f);
    assertEquals(DType.FLOAT16, h.dtype());
    assertEquals(0.75, h.getDouble(0));
    // A predicate with a number: bool result.
    Tensor less = SamplesOps.less(INTS, 1);
    assertEquals(DType.BOOL, less.dtype());
    for (int i = 0; i < 3; i++) {
      assertEquals(Samples.less(INTS.getLong(i), 1L), less.getBoolean(i));
    }
  }

  @Test
  void scalarParametersTakeAnyJavaNumber() {
    Tensor b = Tensor.of(new int[] {10, 20, 30}, 3);
    Tensor i = SamplesOps.axpy(INTS, b, 2L);
    assertEquals(DType.INT32, i.dtype());
    Tensor j = SamplesOps.axpy(INTS, b, 2);
    assertEquals(DType.INT32, j.dtype());
    Tensor f = SamplesOps.axpy(INTS, b, 0.5);
    assertEquals(DType.FLOAT32, f.dtype());
    for (int k = 0; k < 3; k++) {
      assertEquals(Samples.axpy(INTS.getLong(k), b.getLong(k), 2L), i.getLong(k));
      assertEquals(Samples.axpy(INTS.getLong(k), b.getLong(k), 2L), j.getLong(k));
      assertEquals((float) Samples.axpy(INTS.getLong(k), b.getLong(k), 0.5), f.getDouble(k));
    }
    // A number operand and a scalar together: int32 tensor, Integer b, Double alpha -> float32.
    Tensor m = SamplesOps.axpy(INTS, 3, 1.5);
    assertEquals(DType.FLOAT32, m.dtype());
    for (int k = 0; k < 3; k++) {
      assertEquals((float) Samples.axpy(INTS.getLong(k), 3, 1.5), m.getDouble(k));
    }
  }

  @Test
  void outFormsWriteAndReturnTheTarget() {
    Tensor out = Tensor.zeros(DType.FLOAT64, 3, 4);
    assertSame(out, SamplesOps.add(INTS.view(3, 1), FLOATS, out));
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 4; j++) {
        assertEquals((float) Samples.add(INTS.getLong(i), FLOATS.getDouble(j)),
            out.getDouble(i, j));
      }
    }
    Tensor b = Tensor.of(new int[] {1, 2, 3}, 3);
    Tensor target = Tensor.zeros(DType.INT64, 3);
    assertSame(target, SamplesOps.axpy(INTS, b, 3, target));
    assertSame(target, SamplesOps.axpy(5, b, -1L, target));
    for (int k = 0; k < 3; k++) {
      assertEquals(Samples.axpy(5L, b.getLong(k), -1L), target.getLong(k));
    }
    // In place: out is an operand itself.
    Tensor x = Tensor.of(new float[] {-1f, 2f, -3f}, 3);
    assertSame(x, SamplesOps.relu(x, x));
    assertArrayEquals(new double[] {0, 2, 0}, values(x));
    Tensor y = Tensor.of(new float[] {1f, 2f, 3f}, 3);
    assertSame(y, SamplesOps.add(y, 0.5, y));
    assertArrayEquals(new double[] {1.5, 2.5, 3.5}, values(y));
  }

  @Test
  void outMustHaveTheBroadcastShapeAndACastableDtype() {
    Tensor original = Tensor.of(new int[] {9, 9, 9, 9}, 4);
    BroadcastException shape = assertThrows(BroadcastException.class,
        () -> SamplesOps.add(INTS.view(3, 1), FLOATS, original));
    assertTrue(shape.getMessage().contains("doesn't match the broadcast shape [3, 4]"),
        shape.getMessage());
    PromotionException cast = assertThrows(PromotionException.class,
        () -> SamplesOps.add(FLOATS, 1, original));
    assertTrue(cast.getMessage().contains(
        "result type float32 can't be cast to the desired output type int32"),
        cast.getMessage());
    assertArrayEquals(new double[] {9, 9, 9, 9}, values(original));
  }

  /**
   * A broadcast refusal names the op and its parameters as declared, with their shapes, then gives
   * PyTorch's text (issue 12, item 9).
   */
  @Test
  void broadcastRefusalNamesTheOpAndItsParameters() {
    Tensor start = Tensor.zeros(DType.FLOAT32, 3);
    Tensor end = Tensor.zeros(DType.FLOAT32, 4);
    BroadcastException e = assertThrows(BroadcastException.class,
        () -> BlendsOps.lerp(start, end, 0.5));
    assertEquals("lerp: start [3] and end [4] do not broadcast: The size of tensor a (3) must"
        + " match the size of tensor b (4) at non-singleton dimension 0", e.getMessage());
    Tensor c = Tensor.of(new boolean[] {true, false}, 2);
    e = assertThrows(BroadcastException.class, () -> SamplesOps.where(c, start, 1.5));
    assertEquals("where: condition [2], a [3] and b [] do not broadcast: The size of tensor a (2)"
        + " must match the size of tensor b (3) at non-singleton dimension 0 (tensor b is operand"
        + " 1 of 3, shape [3]; tensor a is operands 0..0 broadcast to [2])", e.getMessage());
  }

  /**
   * A Java boolean in place of a tensor operand is a wrapped bool: the lowest category, so it never
   * raises a tensor's dtype; the values are the scalar method's with 1 and 0 (issue 12, item 7).
   */
  @Test
  void booleanOperandsAreWrappedBools() {
    Tensor r = SamplesOps.add(INTS, true);
    assertEquals(DType.INT32, r.dtype());
    assertArrayEquals(new double[] {Samples.add(-3L, 1L), Samples.add(0L, 1L),
        Samples.add(7L, 1L)}, values(r));
    Tensor f = SamplesOps.add(false, FLOATS);
    assertEquals(DType.FLOAT32, f.dtype());
    assertArrayEquals(Arrays.stream(values(FLOATS)).map(v -> Samples.add(0.0, v)).toArray(),
        values(f));
    Tensor c = Tensor.of(new boolean[] {true, false, true}, 3);
    Tensor w = SamplesOps.where(c, true, Tensor.of(new float[] {0.5f, -1f, 2f}, 3));
    assertEquals(DType.FLOAT32, w.dtype());
    assertArrayEquals(new double[] {1, -1, 1}, values(w));
    Tensor out = Tensor.of(new int[] {5, 5, 5}, 3);
    assertSame(out, SamplesOps.add(INTS, true, out));
    assertArrayEquals(values(r), values(out));
    Tensor axpy = SamplesOps.axpy(INTS, true, 3);
    assertArrayEquals(new double[] {Samples.axpy(-3L, 1L, 3L), Samples.axpy(0L, 1L, 3L),
        Samples.axpy(7L, 1L, 3L)}, values(axpy));
  }

  @Test
  void whereSelectsWithATensorConditionAndNumberOperands() {
    Tensor c = Tensor.of(new boolean[] {true, false, true}, 3);
    Tensor a = Tensor.of(new double[] {1.5, 2.5, 3.5}, 3);
    Tensor b = Tensor.of(new int[] {-1, -2, -3}, 3);
    Tensor r = SamplesOps.where(c, a, b);
    assertEquals(DType.FLOAT64, r.dtype());
    Tensor s = SamplesOps.where(c, a, 0);
    assertEquals(DType.FLOAT64, s.dtype());
    Tensor t = SamplesOps.where(c, 7L, b);
    assertEquals(DType.INT32, t.dtype());
    for (int k = 0; k < 3; k++) {
      boolean ck = c.getBoolean(k);
      assertEquals(Samples.where(ck, a.getDouble(k), b.getDouble(k)), r.getDouble(k));
      assertEquals(Samples.where(ck, a.getDouble(k), 0.0), s.getDouble(k));
      assertEquals(Samples.where(ck, 7L, b.getLong(k)), t.getLong(k));
    }
    Tensor out = Tensor.zeros(DType.FLOAT32, 3);
    assertSame(out, SamplesOps.where(c, 2.5, b, out));
    assertArrayEquals(new double[] {2.5, -2, 2.5}, values(out));
  }

  @Test
  void errorsNameTheParameter() {
    assertMessage(() -> SamplesOps.add(INTS, (Tensor) null),
        "add: tensor argument 'b' must not be null");
    assertMessage(() -> SamplesOps.add((Number) null, INTS), "add: number argument 'a'");
    assertMessage(() -> SamplesOps.add(INTS, new BigDecimal("1.5")),
        "add: number argument 'b' must be a Java integral or floating number");
    assertMessage(() -> SamplesOps.axpy(INTS, INTS, null), "axpy: scalar argument 'alpha'");
    assertMessage(() -> SamplesOps.where(INTS, INTS, 1),
        "where expected condition to be a boolean tensor, but got a tensor with dtype int32"
            + " (argument 'condition')");
    assertMessage(() -> SamplesOps.relu(INTS, Tensor.zeros(DType.INT32, 2)),
        "relu: output with shape [2]");
  }

  private static void assertMessage(Executable call, String expected) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  private static double[] values(Tensor t) {
    double[] v = new double[(int) t.numel()];
    for (int i = 0; i < v.length; i++) {
      v[i] = t.getDouble(i);
    }
    return v;
  }
}
