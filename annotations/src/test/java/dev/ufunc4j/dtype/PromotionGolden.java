package dev.ufunc4j.dtype;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * golden/promotion.json, written from real PyTorch by tools/oracle/gen_promotion.py (regenerate
 * with tools/oracle/regenerate.sh; the format is described in docs/promotion.md).
 */
final class PromotionGolden {
  private PromotionGolden() {}

  static final JsonObject DOC = load("/golden/promotion.json");

  static JsonObject load(String resource) {
    try (InputStream in = PromotionGolden.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            resource + " is missing: run tools/oracle/regenerate.sh and commit the result");
      }
      return JsonParser.parseReader(new InputStreamReader(in, StandardCharsets.UTF_8))
          .getAsJsonObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<JsonObject> section(String name) {
    List<JsonObject> cases = new ArrayList<>();
    for (JsonElement e : DOC.getAsJsonArray(name)) {
      cases.add(e.getAsJsonObject());
    }
    return cases;
  }

  static DType dtype(JsonObject o, String key) {
    return DType.fromName(o.get(key).getAsString());
  }

  /** A tensor as promotion sees it. */
  record Desc(DType dtype, int ndim, boolean isWrappedNumber) implements TensorLike {
    @Override
    public String toString() {
      return dtype + (ndim == 0 ? " 0-dim" : "[" + ndim + "-d]");
    }
  }

  /**
   * The Java operand a JSON operand stands for. Python ints become each boxed integral type in
   * turn and Python floats Double or Float, so every accepted Java class meets the oracle.
   */
  static Object operand(JsonObject o, int salt) {
    return switch (o.get("kind").getAsString()) {
      case "tensor" -> new Desc(dtype(o, "dtype"), o.get("ndim").getAsInt(), false);
      case "zerodim" -> new Desc(dtype(o, "dtype"), 0, false);
      case "bool" -> o.get("value").getAsBoolean();
      case "int" -> {
        long v = o.get("value").getAsLong();
        yield switch (salt & 3) {
          case 0 -> (Object) v;
          case 1 -> (int) v;
          case 2 -> (short) v;
          default -> (byte) v;
        };
      }
      case "float" -> {
        double v = o.get("value").getAsDouble();
        yield (salt & 1) == 0 ? (Object) v : (float) v;
      }
      default -> throw new IllegalStateException("unknown operand kind in " + o);
    };
  }

  static Object[] operands(JsonObject testCase, int salt) {
    JsonArray ops = testCase.getAsJsonArray("operands");
    Object[] values = new Object[ops.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = operand(ops.get(i).getAsJsonObject(), salt + i);
    }
    return values;
  }
}
