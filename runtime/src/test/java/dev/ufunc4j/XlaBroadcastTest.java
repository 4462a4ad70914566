package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.shape.Shapes;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link Broadcast#inDim} and the {@link BroadcastDims} overloads of {@link Ops} against
 * golden/xla_broadcast.json: {@code jax.lax.broadcast_in_dim} and XLA binary ops with {@code
 * broadcast_dimensions} compiled by XLA (through TensorFlow's tf2xla), written by
 * tools/oracle/gen_xla_broadcast.py (regenerate with tools/oracle/regenerate.sh).
 */
class XlaBroadcastTest {

  private static final Map<String, Object> GOLDEN =
      GoldenTensors.map(Json.resource("/golden/xla_broadcast.json"));

  private static List<Map<String, Object>> cases(String name) {
    return GoldenTensors.list(GOLDEN.get(name)).stream().map(GoldenTensors::map).toList();
  }

  private static int[] ints(Object o) {
    return Arrays.stream(GoldenTensors.longs(o)).mapToInt(Math::toIntExact).toArray();
  }

  private static boolean strictlyIncreasing(int[] dims) {
    for (int i = 1; i < dims.length; i++) {
      if (dims[i] <= dims[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /** 0, 1, 2, ... as INT32 with {@code shape}; Fortran-ordered strides when {@code transposed}. */
  private static Tensor iota(long[] shape, boolean transposed) {
    Tensor t = Tensor.arange(Shapes.numelOf(shape)).to(DType.INT32).reshape(shape);
    if (!transposed || shape.length < 2) {
      return t;
    }
    int[] reverse = new int[shape.length];
    for (int d = 0; d < reverse.length; d++) {
      reverse[d] = shape.length - 1 - d;
    }
    return t.permute(reverse).contiguous().permute(reverse);
  }

  // ---- Broadcast.inDim against jax.lax.broadcast_in_dim -----------------------------------------

  @Test
  void inDimMatchesJax() {
    List<Map<String, Object>> cases = cases("in_dim");
    assertTrue(cases.size() >= 200, "in_dim cases: " + cases.size());
    List<Executable> checks = new ArrayList<>();
    int permutations = 0;
    for (Map<String, Object> c : cases) {
      long[] operand = GoldenTensors.longs(c.get("operand"));
      long[] out = GoldenTensors.longs(c.get("shape"));
      int[] dims = ints(c.get("dims"));
      String what = Arrays.toString(operand) + " -> " + Arrays.toString(out) + " dims "
          + Arrays.toString(dims);
      boolean refused = c.containsKey("error") || !strictlyIncreasing(dims);
      if (!c.containsKey("error") && !strictlyIncreasing(dims)) {
        permutations++; // JAX transposes; XLA's BroadcastInDim (and ufunc4j) refuse
      }
      for (boolean transposed : new boolean[] {false, true}) {
        checks.add(
            () -> {
              Tensor x = iota(operand, transposed);
              if (refused) {
                assertThrows(IllegalArgumentException.class, () -> Broadcast.inDim(x, out, dims),
                    what);
                return;
              }
              Tensor r = Broadcast.inDim(x, out, dims);
              assertArrayEquals(out, r.shape(), what);
              assertArrayEquals(GoldenTensors.longs(c.get("result")), r.toLongArray(), what);
              assertSame(x.segment(), r.segment(), what + ": a view, not a copy");
            });
      }
    }
    assertTrue(permutations >= 2, "cases where JAX accepts a permutation: " + permutations);
    assertAll(checks);
  }

  // ---- Ops with BroadcastDims against XLA binary ops ------------------------------------------

  private static Tensor operand(long[] shape, String dtype, String op, boolean first) {
    long n = Shapes.numelOf(shape);
    Tensor k = Tensor.arange(n);
    Tensor values;
    if (dtype.equals("bool")) {
      values = first ? Ops.eq(Ops.remainder(k, 2L), 1L) : Ops.eq(Ops.remainder(k, 3L), 0L);
    } else if (first) {
      values = Ops.add(k, 1L);
    } else if (op.contains("Shift")) {
      values = Ops.remainder(k, 4L);
    } else {
      values = Ops.add(Ops.remainder(Ops.mul(k, 3L), 7L), 1L);
    }
    return values.to(DType.fromName(dtype)).reshape(shape);
  }

  private static Tensor call(String op, Tensor a, Tensor b, BroadcastDims dims) {
    try {
      Method m = Ops.class.getMethod(op, Tensor.class, Tensor.class, BroadcastDims.class);
      return (Tensor) m.invoke(null, a, b, dims);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new AssertionError(e);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Ops." + op + " has no BroadcastDims overload", e);
    }
  }

  @Test
  void binaryOpsMatchXla() {
    List<Map<String, Object>> cases = cases("binary");
    assertTrue(cases.size() >= 300, "binary cases: " + cases.size());
    assertTrue(cases.stream().filter(c -> c.containsKey("error")).count() >= 50);
    List<Executable> checks = new ArrayList<>();
    for (Map<String, Object> c : cases) {
      String op = (String) c.get("op");
      String dtype = (String) c.get("dtype");
      long[] shapeA = GoldenTensors.longs(c.get("a"));
      long[] shapeB = GoldenTensors.longs(c.get("b"));
      int[] dims = ints(c.get("dims"));
      String what = op + "(" + Arrays.toString(shapeA) + ", " + Arrays.toString(shapeB)
          + ", dims " + Arrays.toString(dims) + ")";
      checks.add(
          () -> {
            Tensor a = operand(shapeA, dtype, op, true);
            Tensor b = operand(shapeB, dtype, op, false);
            if (c.containsKey("error")) {
              assertThrows(
                  IllegalArgumentException.class,
                  () -> call(op, a, b, BroadcastDims.of(dims)),
                  what + " (XLA: " + c.get("error") + ")");
              return;
            }
            Map<String, Object> expected = GoldenTensors.map(c.get("result"));
            long[] shape = GoldenTensors.longs(expected.get("shape"));
            Tensor r = call(op, a, b, BroadcastDims.of(dims));
            assertArrayEquals(shape, r.shape(), what);
            List<Object> values = GoldenTensors.list(expected.get("values"));
            switch ((String) expected.get("dtype")) {
              case "bool" -> {
                boolean[] want = new boolean[values.size()];
                for (int i = 0; i < want.length; i++) {
                  want[i] = (Boolean) values.get(i);
                }
                assertArrayEquals(want, r.toBooleanArray(), what);
              }
              case "float32" ->
                  assertArrayEquals(
                      values.stream().mapToDouble(v -> ((Number) v).doubleValue()).toArray(),
                      r.toDoubleArray(), what);
              default ->
                  assertArrayEquals(
                      values.stream().mapToLong(v -> ((Number) v).longValue()).toArray(),
                      r.toLongArray(), what);
            }
          });
    }
    assertAll(checks);
  }

  /** DESIGN.md's two examples, with values from XLA's broadcasting.md ("Broadcast composition"). */
  @Test
  void designExamples() {
    Tensor v = Tensor.of(new float[] {1, 2, 3, 4}, 4);
    Tensor m = Tensor.of(new float[] {5, 6}, 1, 2);
    Tensor r = Ops.add(v, m, BroadcastDims.of(0));
    assertArrayEquals(new long[] {4, 2}, r.shape());
    assertArrayEquals(new float[] {6, 7, 7, 8, 8, 9, 9, 10}, r.toFloatArray());
    Tensor cube = Tensor.zeros(DType.FLOAT32, 4, 3, 1);
    assertArrayEquals(new long[] {4, 3, 2}, Ops.add(m, cube, BroadcastDims.of(1, 2)).shape());
    // |7 8 9| onto a 2x3 matrix with dimension (1); dimension (0) is invalid (broadcasting.md).
    Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Tensor w = Tensor.of(new float[] {7, 8, 9}, 3);
    assertArrayEquals(
        new float[] {8, 10, 12, 11, 13, 15}, Ops.add(x, w, BroadcastDims.of(1)).toFloatArray());
    assertThrows(BroadcastException.class, () -> Ops.add(x, w, BroadcastDims.of(0)));
  }

  // ---- the API's shape: every two-tensor op has both overloads --------------------------------

  @Test
  void everyBinaryOpHasABroadcastDimsOverload() {
    // A two-tensor op has (Tensor, Tensor) and (Number, Tensor) forms; a unary op's out= form
    // (Tensor x, Tensor out) has no Number twin first (elu's (Tensor, Number) is its alpha).
    TreeSet<String> tensorTensor = new TreeSet<>();
    TreeSet<String> numberFirst = new TreeSet<>();
    TreeSet<String> binary = new TreeSet<>();
    for (Method m : Ops.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && Arrays.equals(m.getParameterTypes(), new Class<?>[] {Tensor.class, Tensor.class})) {
        tensorTensor.add(m.getName());
      }
      if (Modifier.isStatic(m.getModifiers())
          && Arrays.equals(m.getParameterTypes(), new Class<?>[] {Number.class, Tensor.class})) {
        numberFirst.add(m.getName());
      }
    }
    tensorTensor.retainAll(numberFirst);
    for (Method m : Ops.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && tensorTensor.contains(m.getName())
          && Arrays.equals(m.getParameterTypes(), new Class<?>[] {Tensor.class, Number.class})) {
        binary.add(m.getName());
      }
    }
    assertEquals(32, binary.size(), "binary ops: " + binary); // 23, and the 9 of issue 27
    List<Executable> checks = new ArrayList<>();
    for (String op : binary) {
      checks.add(() -> Ops.class.getMethod(op, Tensor.class, Tensor.class, BroadcastDims.class));
    }
    assertAll(checks);
  }

  // ---- views, operand order, op rules ---------------------------------------------------------

  @Test
  void inDimIsAViewWithZeroStrides() {
    Tensor v = Tensor.of(new long[] {1, 2, 3}, 3);
    Tensor r = Broadcast.inDim(v, new long[] {2, 3, 4}, 1);
    assertArrayEquals(new long[] {0, 1, 0}, r.strides());
    v.setLong(30, 2);
    assertEquals(30, r.getLong(1, 2, 3), "a write through the operand shows in the view");
    Tensor one = Tensor.of(new long[] {9}, 1);
    assertArrayEquals(new long[] {0, 0}, Broadcast.inDim(one, new long[] {4, 5}, 1).strides());
  }

  @Test
  void theLowerRankOperandIsLiftedOnEitherSide() {
    Tensor v = Tensor.of(new long[] {10, 20}, 2);
    Tensor m = Tensor.of(new long[] {1, 2, 3, 4, 5, 6}, 2, 3);
    assertArrayEquals(
        new long[] {9, 8, 7, 16, 15, 14}, Ops.sub(v, m, BroadcastDims.of(0)).toLongArray());
    assertArrayEquals(
        new long[] {-9, -8, -7, -16, -15, -14}, Ops.sub(m, v, BroadcastDims.of(0)).toLongArray());
  }

  @Test
  void opRulesStillApply() {
    Tensor a = Tensor.of(new boolean[] {true, false}, 2);
    Tensor b = Tensor.of(new boolean[] {true, true, false, false}, 2, 2);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Ops.sub(a, b, BroadcastDims.of(0)));
    assertTrue(e.getMessage().startsWith("sub: Subtraction (sub()) with two bool"),
        e.getMessage());
    // out=: lift with inDim, then the op's out= form.
    Tensor v = Tensor.of(new float[] {1, 2}, 2);
    Tensor m = Tensor.ones(DType.FLOAT32, 2, 3);
    Tensor out = Tensor.zeros(DType.FLOAT64, 2, 3);
    Ops.add(Broadcast.inDim(v, new long[] {2, 3}, 0), m, out);
    assertTrue(out.equal(Ops.add(v, m, BroadcastDims.of(0)).to(DType.FLOAT64)));
  }

  @Test
  void scalarsAndEqualRanks() {
    Tensor m = Tensor.of(new long[] {1, 2, 3, 4}, 2, 2);
    Tensor s = Tensor.scalar(10L);
    assertArrayEquals(new long[] {11, 12, 13, 14}, Ops.add(m, s, BroadcastDims.none()).toLongArray());
    assertArrayEquals(new long[] {9, 8, 7, 6}, Ops.sub(s, m, BroadcastDims.none()).toLongArray());
    Tensor col = Tensor.of(new long[] {100, 200}, 2, 1);
    assertArrayEquals(
        new long[] {101, 102, 203, 204}, Ops.add(m, col, BroadcastDims.of(0, 1)).toLongArray());
    assertArrayEquals(
        new long[] {101, 102, 203, 204}, Ops.add(m, col, BroadcastDims.none()).toLongArray());
  }

  // ---- refusals name the values ---------------------------------------------------------------

  private static String message(Executable call) {
    return assertThrows(IllegalArgumentException.class, call).getMessage();
  }

  @Test
  void inDimRefusalsNameTheValues() {
    Tensor v = Tensor.zeros(DType.FLOAT32, 2);
    long[] out = {3, 2};
    assertEquals("Broadcast.inDim: the tensor is null", message(() -> Broadcast.inDim(null, out, 1)));
    assertEquals("Broadcast.inDim: the output shape is null",
        message(() -> Broadcast.inDim(v, null, 1)));
    assertEquals("Broadcast.inDim: the broadcast dimensions are null",
        message(() -> Broadcast.inDim(v, out, (int[]) null)));
    assertEquals("Broadcast.inDim: the output shape [3, -1] has negative size -1 at dimension 1",
        message(() -> Broadcast.inDim(v, new long[] {3, -1}, 1)));
    assertEquals(
        "Broadcast.inDim: the output shape [] has rank 0, lower than the rank 1 of the operand [2]",
        message(() -> Broadcast.inDim(v, new long[] {}, 0)));
    assertEquals(
        "Broadcast.inDim: 2 broadcast dimensions [0, 1] for operand of rank 1 (shape [2]); there"
            + " must be one per dimension",
        message(() -> Broadcast.inDim(v, out, 0, 1)));
    assertEquals(
        "Broadcast.inDim: broadcast dimension 2 (dims[0]) is out of range for output of rank 2"
            + " (shape [3, 2]); dims [2]",
        message(() -> Broadcast.inDim(v, out, 2)));
    assertEquals("Broadcast.inDim: broadcast dimension -1 (dims[0]) is negative; dims [-1]",
        message(() -> Broadcast.inDim(v, out, -1)));
    Tensor m = Tensor.zeros(DType.FLOAT32, 2, 3);
    assertEquals(
        "Broadcast.inDim: broadcast dimensions must be strictly increasing, but dims[1] = 0 comes"
            + " after 1; dims [1, 0]",
        message(() -> Broadcast.inDim(m, new long[] {3, 2}, 1, 0)));
    BroadcastException e =
        assertThrows(BroadcastException.class, () -> Broadcast.inDim(v, out, 0));
    assertEquals(
        "Broadcast.inDim: operand dimension 0 has size 2, which is neither 1 nor the size 3 of"
            + " output dimension 0 (dims[0]); operand shape [2], output shape [3, 2], dims [0]",
        e.getMessage());
  }

  @Test
  void binaryRefusalsNameTheValues() {
    Tensor v = Tensor.zeros(DType.FLOAT32, 3);
    Tensor m = Tensor.zeros(DType.FLOAT32, 4, 3);
    assertEquals("add: the broadcast dimensions are null", message(() -> Ops.add(v, m, (BroadcastDims) null)));
    BroadcastException e =
        assertThrows(BroadcastException.class, () -> Ops.add(m, v, BroadcastDims.of(0)));
    assertEquals(
        "add: broadcast dimension 0 mismatch: operand b has size 3 in dimension 0, operand a has"
            + " size 4 in dimension 0 (dims[0]); shapes [4, 3] and [3], dims [0]",
        e.getMessage());
    assertEquals(
        "mul: 0 broadcast dimensions [] for lower-rank operand a of rank 1 (shape [3]); there"
            + " must be one per dimension",
        message(() -> Ops.mul(v, m, BroadcastDims.none())));
    assertEquals(
        "lt: broadcast dimension 2 (dims[0]) is out of range for higher-rank operand a of rank 2"
            + " (shape [4, 3]); dims [2]",
        message(() -> Ops.lt(m, v, BroadcastDims.of(2))));
    assertEquals(
        "maximum: broadcast dimensions [1] given for operands of equal rank 2 (shapes [4, 3] and"
            + " [4, 3]); with equal ranks they must be none or the identity",
        message(() -> Ops.maximum(m, m, BroadcastDims.of(1))));
    assertTrue(
        message(() -> Ops.add(null, m, BroadcastDims.of(0))).contains("null"),
        "the op names its null operand");
  }

  @Test
  void broadcastDimsIsAValue() {
    int[] raw = {0, 2};
    BroadcastDims d = BroadcastDims.of(raw);
    raw[0] = 5;
    assertArrayEquals(new int[] {0, 2}, d.dims(), "copied in");
    d.dims()[0] = 7;
    assertEquals(0, d.get(0), "copied out");
    assertEquals(BroadcastDims.of(0, 2), d);
    assertEquals(BroadcastDims.of(0, 2).hashCode(), d.hashCode());
    assertFalse(d.equals(BroadcastDims.of(0, 1)));
    assertEquals("BroadcastDims(0, 2)", d.toString());
    assertEquals(2, d.size());
    assertSame(BroadcastDims.none(), BroadcastDims.of());
    assertEquals("BroadcastDims.of: the broadcast dimensions are null",
        message(() -> BroadcastDims.of((int[]) null)));
    assertEquals(
        "BroadcastDims.of: broadcast dimensions must be strictly increasing, but dims[1] = 1"
            + " comes after 1; dims [1, 1]",
        message(() -> BroadcastDims.of(1, 1)));
    assertEquals("BroadcastDims.of: broadcast dimension -2 (dims[1]) is negative; dims [0, -2]",
        message(() -> BroadcastDims.of(0, -2)));
  }
}
