package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.dtype.DType;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link Tensor#toString()} against PyTorch's {@code str(tensor)} (golden/format.json). Cases
 * marked {@code "rule": "ufunc4j-bound"} are tensors PyTorch would print with more than 10,000
 * elements: their text is PyTorch's for the first sub-tensor that fits, inside ufunc4j's cut of
 * the outer dimensions (tools/oracle/gen_views.py, {@code ufunc4j_str}).
 */
class FormatGoldenTest {

  @SuppressWarnings("unchecked")
  @TestFactory
  Stream<DynamicTest> printsLikePyTorch() {
    Map<String, Object> root = (Map<String, Object>) Json.resource("/golden/format.json");
    return ((List<Map<String, Object>>) root.get("cases"))
        .stream()
        .map(c -> DynamicTest.dynamicTest(
            c.get("dtype") + " " + c.get("shape")
                + (c.containsKey("expand") ? " expanded to " + c.get("expand") : "")
                + (c.containsKey("rule") ? " (" + c.get("rule") + ")" : ""),
            () -> {
              Tensor t = build(c);
              String printed;
              try {
                printed = t.toString();
              } catch (OutOfMemoryError e) { // JUnit would abort the whole run on it
                printed = "toString ran out of memory";
              }
              assertEquals(c.get("str"), printed);
            }));
  }

  @SuppressWarnings("unchecked")
  private static Tensor build(Map<String, Object> c) {
    DType dtype = DType.fromName((String) c.get("dtype"));
    long[] shape = ViewGoldenTest.longs(c.get("shape"));
    if (Boolean.TRUE.equals(c.get("arange"))) {
      Tensor t = Tensor.arange(dev.ufunc4j.internal.shape.Shapes.numelOf(shape)).to(dtype).view(shape);
      return c.containsKey("expand") ? t.expand(ViewGoldenTest.longs(c.get("expand"))) : t;
    }
    List<String> values = (List<String>) c.get("values");
    if (dtype == DType.UINT64) {
      long[] bits = values.stream().mapToLong(Long::parseUnsignedLong).toArray();
      return Tensor.of(bits, DType.UINT64, shape);
    }
    double[] v = values.stream().mapToDouble(FormatGoldenTest::pyFloat).toArray();
    if (dtype.isComplex()) {
      return shape.length == 0
          ? Tensor.scalarComplex(v[0], v[1], dtype)
          : Tensor.ofComplex(v, dtype, shape);
    }
    if (shape.length == 0) {
      return Tensor.scalar(v[0], dtype);
    }
    return Tensor.of(v, dtype, shape);
  }

  private static double pyFloat(String repr) {
    return switch (repr) {
      case "nan" -> Double.NaN;
      case "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(repr);
    };
  }
}
