package dev.ufunc4j;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader for the golden test resources: objects become {@link Map}s, arrays {@link
 * List}s, numbers {@link Long} when integral else {@link Double}, plus strings, booleans and null.
 * Tests read goldens without Python and without a JSON dependency.
 */
public final class Json {
  private final String s;
  private int pos;

  private Json(String s) {
    this.s = s;
  }

  public static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.ws();
    if (j.pos != j.s.length()) {
      throw j.error("trailing characters");
    }
    return v;
  }

  /** Parses a classpath resource. */
  public static Object resource(String name) {
    try (InputStream in = Json.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(
            "missing test resource " + name + "; regenerate it with tools/oracle/");
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Object value() {
    ws();
    char c = s.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    ws();
    if (s.charAt(pos) == '}') {
      pos++;
      return m;
    }
    while (true) {
      ws();
      String k = string();
      ws();
      expect(':');
      m.put(k, value());
      ws();
      if (s.charAt(pos) == ',') {
        pos++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    pos++;
    ws();
    if (s.charAt(pos) == ']') {
      pos++;
      return l;
    }
    while (true) {
      l.add(value());
      ws();
      if (s.charAt(pos) == ',') {
        pos++;
      } else {
        expect(']');
        return l;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      char c = s.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c == '\\') {
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          default -> sb.append(e);
        }
      } else {
        sb.append(c);
      }
    }
  }

  private Object number() {
    int start = pos;
    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    String n = s.substring(start, pos);
    if (n.isEmpty()) {
      throw error("unexpected character");
    }
    if (n.contains(".") || n.contains("e") || n.contains("E")) {
      return Double.parseDouble(n);
    }
    return Long.parseLong(n);
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return v;
  }

  private void expect(char c) {
    if (s.charAt(pos) != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void ws() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private IllegalStateException error(String what) {
    return new IllegalStateException("JSON: " + what + " at offset " + pos);
  }
}
