package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The generated surface ({@link Ops} and Tensor's op methods, from {@code Builtins}): every op
 * has its whole family of methods, the members the hand-written classes lacked work like their
 * siblings (checked against the ops' scalar methods), and every generated public method has
 * javadoc. {@link ApiSignatureTest} checks that nothing of the old surface was lost, and {@link
 * ElementwiseGoldenTest} the results against PyTorch.
 */
class OpsSurfaceTest {

  private static final List<String> BINARY_FAMILY = List.of(
      "(Number, Tensor)", "(Number, Tensor, Tensor)", "(Tensor, Number)",
      "(Tensor, Number, Tensor)", "(Tensor, Tensor)", "(Tensor, Tensor, BroadcastDims)",
      "(Tensor, Tensor, Tensor)", "(boolean, Tensor)", "(boolean, Tensor, Tensor)",
      "(Tensor, boolean)", "(Tensor, boolean, Tensor)");

  private static Map<String, Set<String>> families(Class<?> type, boolean statics) {
    Map<String, Set<String>> byName = new TreeMap<>();
    for (Method m : type.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) == statics && m.getReturnType() == Tensor.class) {
        byName.computeIfAbsent(m.getName(), k -> new TreeSet<>()).add(Arrays
            .stream(m.getParameterTypes())
            .map(Class::getSimpleName)
            .collect(Collectors.joining(", ", "(", ")")));
      }
    }
    return byName;
  }

  /** Every op of two tensors has the whole binary family; the hand-written Ops had drifted. */
  @Test
  void everyBinaryOpHasTheWholeFamily() {
    Map<String, Set<String>> ops = families(Ops.class, true);
    Map<String, Set<String>> methods = families(Tensor.class, false);
    List<String> binary = ops.entrySet().stream()
        .filter(e -> e.getValue().contains("(Tensor, Tensor, BroadcastDims)"))
        .map(Map.Entry::getKey)
        .toList();
    assertEquals(32, binary.size(), binary.toString()); // 23, and the 9 of issue 27
    for (String op : binary) {
      assertTrue(ops.get(op).containsAll(BINARY_FAMILY), op + ": " + ops.get(op));
      assertTrue(methods.get(op).containsAll(
          List.of("(Tensor)", "(Number)", "(boolean)", "(Tensor, BroadcastDims)")),
          op + ": " + methods.get(op));
      assertTrue(
          methods.get(op + "InPlace").containsAll(List.of("(Tensor)", "(Number)", "(boolean)")),
          op + "InPlace: " + methods.get(op + "InPlace"));
    }
    for (String op : List.of("add", "sub")) {
      assertTrue(ops.get(op).containsAll(List.of("(Tensor, Tensor, Number)",
          "(Tensor, Tensor, Number, Tensor)", "(Number, Tensor, Number)",
          "(Number, Tensor, Number, Tensor)", "(Tensor, Number, Number)",
          "(Tensor, Number, Number, Tensor)", "(Tensor, Tensor, Number, BroadcastDims)",
          "(Tensor, boolean, Number)", "(Tensor, boolean, Number, Tensor)",
          "(boolean, Tensor, Number)", "(boolean, Tensor, Number, Tensor)")),
          op + ": " + ops.get(op));
    }
    assertEquals(Set.of("(Tensor, Tensor, Tensor)", "(Tensor, Tensor, Tensor, Tensor)",
        "(Tensor, Number, Number)", "(Tensor, Number, Number, Tensor)",
        "(Tensor, boolean, boolean)", "(Tensor, boolean, boolean, Tensor)",
        "(Tensor, boolean, Number)", "(Tensor, boolean, Number, Tensor)",
        "(Tensor, Number, boolean)", "(Tensor, Number, boolean, Tensor)"), ops.get("clamp"));
    assertEquals(Set.of("(Tensor, Tensor, Tensor)", "(Tensor, Tensor, Tensor, Tensor)",
        "(Tensor, Number, Tensor)", "(Tensor, Number, Tensor, Tensor)",
        "(Tensor, Tensor, Number)", "(Tensor, Tensor, Number, Tensor)",
        "(Tensor, Number, Number)", "(Tensor, Number, Number, Tensor)",
        "(Tensor, boolean, Tensor)", "(Tensor, boolean, Tensor, Tensor)",
        "(Tensor, Tensor, boolean)", "(Tensor, Tensor, boolean, Tensor)",
        "(Tensor, boolean, boolean)", "(Tensor, boolean, boolean, Tensor)",
        "(Tensor, boolean, Number)", "(Tensor, boolean, Number, Tensor)",
        "(Tensor, Number, boolean)", "(Tensor, Number, boolean, Tensor)"), ops.get("where"));
    // where's first operand is its condition: no instance forms.
    assertTrue(!methods.containsKey("where"));
  }

  private static final Tensor INTS = Tensor.of(new int[] {-3, 0, 7}, 3);

  private static void assertValues(double[] expected, Tensor actual) {
    assertArrayEquals(expected, actual.to(DType.FLOAT64).toDoubleArray());
  }

  @Test
  void numberFirstOutFormsWriteWhatTheirSiblingsReturn() {
    for (String op : List.of("add", "sub", "mul", "maximum", "bitwiseAnd")) {
      Tensor out = Tensor.zeros(DType.INT64, 3);
      Tensor written = invoke(op, 5, INTS, out);
      assertSame(out, written);
      assertTrue(out.equal(invoke(op, 5, INTS).to(DType.INT64)), op);
    }
    assertValues(new double[] {5 + 3, 5 - 0, 5 - 7}, Ops.sub(5, INTS, Tensor.zeros(DType.INT32, 3)));
  }

  private static Tensor invoke(String op, Object... args) {
    try {
      Class<?>[] types = Arrays.stream(args)
          .map(a -> a instanceof Tensor ? Tensor.class : Number.class)
          .toArray(Class<?>[]::new);
      return (Tensor) Ops.class.getMethod(op, types).invoke(null, args);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void alphaFormsWithANumberFirst() {
    // 2 + 3 * x, computed by the alpha kernel: alpha stays in the operands' category.
    Tensor r = Ops.add(2, INTS, 3);
    assertEquals(DType.INT32, r.dtype());
    assertValues(new double[] {Builtins.addScaled(2, -3, 3), Builtins.addScaled(2, 0, 3),
        Builtins.addScaled(2, 7, 3)}, r);
    Tensor floats = Tensor.of(new float[] {-3f, 0f, 7f}, 3);
    Tensor out = Tensor.zeros(DType.FLOAT64, 3);
    assertSame(out, Ops.sub(2, floats, 0.5, out));
    assertValues(new double[] {Builtins.subScaled(2.0, -3, 0.5), Builtins.subScaled(2.0, 0, 0.5),
        Builtins.subScaled(2.0, 7, 0.5)}, out);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Ops.add(2, INTS, 0.5));
    assertEquals("add: For integral input tensors, argument alpha must not be a floating point"
        + " number.", e.getMessage());
  }

  @Test
  void alphaWithBroadcastDims() {
    Tensor v = Tensor.of(new long[] {1, 2}, 2);
    Tensor m = Tensor.of(new long[] {10, 20, 30, 40, 50, 60}, 2, 3);
    Tensor r = Ops.add(v, m, 3, BroadcastDims.of(0));
    assertTrue(r.equal(Ops.add(Broadcast.inDim(v, new long[] {2, 3}, 0), m, 3)));
    assertValues(new double[] {31, 61, 91, 122, 152, 182}, r.flatten());
    assertThrows(IllegalArgumentException.class,
        () -> Ops.sub(Tensor.of(new boolean[] {true, false}, 2),
            Tensor.of(new boolean[] {true}, 1, 1), 2, BroadcastDims.of(0)));
  }

  @Test
  void whereWithNumbersWritesOut() {
    Tensor c = Tensor.of(new boolean[] {true, false, true}, 3);
    Tensor out = Tensor.zeros(DType.FLOAT64, 3);
    assertSame(out, Ops.where(c, 1, 2.5, out));
    assertValues(new double[] {1, 2.5, 1}, out);
    assertSame(out, Ops.where(c, INTS, -1, out));
    assertValues(new double[] {-3, -1, 7}, out);
  }

  @Test
  void newInstanceForms() {
    Tensor x = Tensor.of(new float[] {1.5f, -2f, 8f}, 3);
    assertTrue(x.add(2, 3).equal(Ops.add(x, 6)));
    Tensor y = Tensor.of(new float[] {1.5f, 0f, 9f}, 3);
    assertSame(y, y.eqInPlace(x));
    assertValues(new double[] {1, 0, 0}, y);
    Tensor z = Tensor.of(new int[] {0, 5, -1}, 3);
    assertSame(z, z.logicalNotInPlace());
    assertValues(new double[] {1, 0, 0}, z);
    Tensor w = Tensor.of(new float[] {-5f, 0.5f, 9f}, 3);
    assertSame(w, w.clampInPlace(Tensor.scalar(0f), Tensor.scalar(1f)));
    assertValues(new double[] {0, 0.5, 1}, w);
    Tensor v = Tensor.of(new float[] {1f, 2f}, 2);
    Tensor m = Tensor.zeros(DType.FLOAT32, 2, 3);
    assertValues(new double[] {1, 1, 1, 2, 2, 2}, m.add(v, BroadcastDims.of(0)).flatten());
  }

  /** Every generated public method carries javadoc from its declaration. */
  @Test
  void everyGeneratedMethodHasJavadoc() throws IOException {
    Path dir = Path.of("target", "generated-sources", "annotations", "dev", "ufunc4j");
    int methods = 0;
    List<String> undocumented = new ArrayList<>();
    for (String file : List.of("Ops.java", "TensorMethods.java")) {
      List<String> lines = Files.readAllLines(dir.resolve(file));
      for (int i = 1; i < lines.size(); i++) {
        if (lines.get(i).matches("  public (static )?Tensor \\w+\\(.*")) {
          methods++;
          if (!lines.get(i - 1).strip().equals("*/")) {
            undocumented.add(file + ": " + lines.get(i));
          }
        }
      }
    }
    assertEquals(List.of(), undocumented);
    // + 324: the pointwise ops of issue 27 (their Ops and Tensor forms); + 28: its leftovers
    // erf, erfc, lgamma, digamma, gelu, logit(x, eps), nanToNum(x, nan, posinf, neginf); + 22:
    // nextafter's binary family and round(x, decimals)
    assertEquals(211 + 116 + 153 + 56 + 324 + 28 + 22, methods);
  }
}
