package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.shape.Shapes;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Views, reshapes and their errors against real PyTorch (golden/views.json, gen_views.py). */
class ViewGoldenTest {

  /**
   * Cases where ufunc4j deliberately words an error its own way (the exception type still
   * matches): PyTorch reports a negative expanded leading size as an overflow in its element
   * count; we name the negative size.
   */
  private static final Map<String, String> OWN_WORDING =
      Map.of("[3] expand[-2, 3]", "Trying to create tensor with negative dimension -2: [-2, 3]");

  @SuppressWarnings("unchecked")
  @TestFactory
  Stream<DynamicTest> viewsMatchPyTorch() {
    Map<String, Object> root = (Map<String, Object>) Json.resource("/golden/views.json");
    return ((List<Map<String, Object>>) root.get("cases"))
        .stream().map(c -> DynamicTest.dynamicTest(name(c), () -> check(c)));
  }

  @SuppressWarnings("unchecked")
  private static String name(Map<String, Object> c) {
    StringBuilder sb = new StringBuilder(longs(c.get("shape")).length == 0 ? "[]"
        : java.util.Arrays.toString(longs(c.get("shape"))));
    for (List<Object> op : (List<List<Object>>) c.get("ops")) {
      sb.append(' ').append(op.get(0)).append(java.util.Arrays.toString(longs(op.get(1))));
    }
    return sb.toString();
  }

  @SuppressWarnings("unchecked")
  private static void check(Map<String, Object> c) {
    long[] shape = longs(c.get("shape"));
    Tensor base = Tensor.arange(Shapes.numelOf(shape)).to(DType.FLOAT32).view(shape);
    List<List<Object>> ops = (List<List<Object>>) c.get("ops");
    if (c.containsKey("error")) {
      Map<String, Object> err = (Map<String, Object>) c.get("error");
      Class<? extends RuntimeException> type =
          err.get("type").equals("IndexError")
              ? IndexOutOfBoundsException.class
              : IllegalArgumentException.class;
      RuntimeException e = assertThrows(type, () -> run(base, ops));
      String want =
          OWN_WORDING.getOrDefault(name(c), JavaWords.translate((String) err.get("message")));
      assertEquals(want, e.getMessage());
      return;
    }
    Tensor x = run(base, ops);
    Map<String, Object> r = (Map<String, Object>) c.get("result");
    assertArrayEquals(longs(r.get("shape")), x.shape(), "shape");
    assertArrayEquals(longs(r.get("strides")), x.strides(), "strides");
    assertEquals((Long) r.get("offset"), x.offset(), "offset");
    assertEquals(r.get("view"), x.segment().address() == base.segment().address(), "is a view");
    long[] values = longs(r.get("values"));
    long[] idx = new long[x.ndim()];
    for (int i = 0; i < values.length; i++) {
      x.unravel(i, idx);
      assertEquals(values[i], (long) x.getDouble(idx), "value " + i);
    }
  }

  @SuppressWarnings("unchecked")
  private static Tensor run(Tensor x, List<List<Object>> ops) {
    for (List<Object> op : ops) {
      long[] a = longs(op.get(1));
      x = switch ((String) op.get(0)) {
        case "expand" -> x.expand(a);
        case "broadcastTo" -> x.broadcastTo(a);
        case "view" -> x.view(a);
        case "reshape" -> x.reshape(a);
        case "permute" -> x.permute(ints(a));
        case "transpose" -> x.transpose((int) a[0], (int) a[1]);
        case "t" -> x.t();
        case "slice" -> x.slice((int) a[0], a[1], a[2], a[3]);
        case "select" -> x.select((int) a[0], a[1]);
        case "narrow" -> x.narrow((int) a[0], a[1], a[2]);
        case "unsqueeze" -> x.unsqueeze((int) a[0]);
        case "squeeze" -> a.length == 0 ? x.squeeze() : x.squeeze((int) a[0]);
        case "flatten" -> a.length == 0 ? x.flatten() : x.flatten((int) a[0], (int) a[1]);
        case "contiguous" -> x.contiguous();
        default -> throw new IllegalStateException("unknown op " + op.get(0));
      };
    }
    return x;
  }

  @SuppressWarnings("unchecked")
  static long[] longs(Object list) {
    return ((List<Object>) list).stream().mapToLong(o -> ((Number) o).longValue()).toArray();
  }

  private static int[] ints(long[] a) {
    int[] r = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = (int) a[i];
    }
    return r;
  }
}
