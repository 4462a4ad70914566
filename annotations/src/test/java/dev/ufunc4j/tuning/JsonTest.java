package dev.ufunc4j.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tuning profile's JSON against Gson, the oracle: same values read, and what we write Gson
 * reads back.
 */
class JsonTest {
  private static final String[] DOCS = {
    "{}",
    "[]",
    "0",
    "-0",
    "12",
    "-7",
    "3.25",
    "-1.5e-3",
    "1E+2",
    "9223372036854775807",
    "\"\"",
    "\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\u20ac\"",
    "true",
    "false",
    "null",
    " { \"a\" : [1, 2.5, {\"b\": null}], \"c\": \"x\" } ",
    "{\"op\":\"silu\",\"dtypes\":[\"float32\"],\"candidates\":[{\"value\":512,\"median_ns\":1234.5}]}",
  };

  @Test
  void readsWhatGsonReads() {
    for (String doc : DOCS) {
      assertEquals(JsonParser.parseString(doc), toGson(Json.parse(doc)), doc);
    }
  }

  @Test
  void writesWhatGsonReadsBack() {
    Random r = new Random(7);
    for (int i = 0; i < 300; i++) {
      Object v = random(r, 0);
      String line = Json.write(v);
      assertTrue(!line.contains("\n"), line);
      assertEquals(JsonParser.parseString(line), toGson(v), line);
      assertEquals(JsonParser.parseString(line), toGson(Json.parse(line)), line);
    }
  }

  @Test
  void refusesMalformedInputNamingTheColumn() {
    String[][] cases = {
      {"{", "column 2: unexpected end of line, expected a key"},
      {"{\"a\":1,}", "column 8: unexpected '}', expected a key"},
      {"{\"a\" 1}", "column 6: unexpected '1', expected ':'"},
      {"[1 2]", "column 4: unexpected '2', expected ']'"},
      {"\"abc", "unterminated string"},
      {"01", "column 1: a number may not have leading zeros"},
      {"1.", "column 3: a number needs digits after '.'"},
      {"-", "column 2: a number needs digits after '-'"},
      {"tru", "column 1: unexpected 't', expected a value"},
      {"{\"a\":1} x", "column 9: unexpected 'x' after the value"},
      {"{\"a\":1,\"a\":2}", "column 8: duplicate key \"a\""},
      {"\"\\q\"", "column 2: bad escape \\q"},
      {"\"\\u12G4\"", "bad \\u escape \"12G4\""},
      {"", "column 1: unexpected end of line, expected a value"},
      {"[".repeat(100), "nesting deeper than 64"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Json.parse(c[0]), c[0]);
      assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
    }
  }

  @Test
  void refusesValuesJsonCannotHold() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
  }

  private static Object random(Random r, int depth) {
    int kind = depth > 3 ? r.nextInt(4) : r.nextInt(6);
    return switch (kind) {
      case 0 -> r.nextLong();
      case 1 -> r.nextGaussian() * Math.pow(10, r.nextInt(20) - 10);
      case 2 -> randomString(r);
      case 3 -> r.nextBoolean();
      case 4 -> {
        List<Object> l = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
          l.add(random(r, depth + 1));
        }
        yield l;
      }
      default -> {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(4); i > 0; i--) {
          m.put(randomString(r), random(r, depth + 1));
        }
        yield m;
      }
    };
  }

  private static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(8); i > 0; i--) {
      sb.append((char) (r.nextInt(10) == 0 ? r.nextInt(0x20) : 0x20 + r.nextInt(0x2000)));
    }
    return sb.toString();
  }

  /** Our value as Gson's tree; numbers by their double value, as Gson compares them. */
  private static JsonElement toGson(Object v) {
    return JsonParser.parseString(
        new com.google.gson.GsonBuilder().serializeNulls().create().toJson(normalize(v)));
  }

  private static Object normalize(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put((String) k, normalize(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(normalize(x)));
      return out;
    }
    if (v instanceof Long l) {
      return new java.math.BigDecimal(l);
    }
    if (v instanceof Double d) {
      return new java.math.BigDecimal(d);
    }
    return v;
  }
}
