package dev.ufunc4j.tuning;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small JSON the tuning profile needs, one value per line: objects (insertion-ordered), arrays,
 * strings, numbers (as {@code double}, or {@code long} when integral and exact), {@code true},
 * {@code false} and {@code null}. {@link #parse} refuses anything else with the column and what it
 * found; {@link #write} writes keys in the map's order with no spaces, so a record prints the same
 * way every time (the file stays diffable).
 */
public final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /**
   * {@return the one JSON value {@code text} holds (surrounding whitespace allowed)}
   *
   * @param text the JSON text
   */
  public static Object parse(String text) {
    Json p = new Json(text);
    p.skipSpace();
    Object v = p.value(0);
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.error("unexpected " + p.describe() + " after the value");
    }
    return v;
  }

  private static final int MAX_DEPTH = 64;

  private Object value(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
    if (pos >= text.length()) {
      throw error("unexpected end of line, expected a value");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected " + describe() + ", expected a value");
      }
    };
  }

  private Map<String, Object> object(int depth) {
    pos++;
    Map<String, Object> map = new LinkedHashMap<>();
    skipSpace();
    if (peek() == '}') {
      pos++;
      return Collections.unmodifiableMap(map);
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("unexpected " + describe() + ", expected a key in double quotes");
      }
      int keyAt = pos;
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      Object v = value(depth + 1);
      if (map.containsKey(key)) {
        pos = keyAt;
        throw error("duplicate key \"" + key + "\"");
      }
      map.put(key, v);
      skipSpace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect('}');
      return Collections.unmodifiableMap(map);
    }
  }

  private List<Object> array(int depth) {
    pos++;
    List<Object> list = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      pos++;
      return Collections.unmodifiableList(list);
    }
    while (true) {
      skipSpace();
      list.add(value(depth + 1));
      skipSpace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect(']');
      return Collections.unmodifiableList(list);
    }
  }

  private String string() {
    pos++;
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        pos--;
        throw error("control character U+" + String.format("%04X", (int) c) + " in a string");
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("truncated \\u escape");
          }
          try {
            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape \"" + text.substring(pos, pos + 4) + "\"");
          }
          pos += 4;
        }
        default -> {
          pos -= 2;
          throw error("bad escape \\" + e);
        }
      }
    }
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    int digits = pos;
    while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos == digits) {
      throw error("a number needs digits after '-'");
    }
    if (text.charAt(digits) == '0' && pos - digits > 1) {
      pos = digits;
      throw error("a number may not have leading zeros");
    }
    boolean integral = true;
    if (peek() == '.') {
      integral = false;
      pos++;
      int frac = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (pos == frac) {
        throw error("a number needs digits after '.'");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      int exp = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (pos == exp) {
        throw error("a number needs digits in its exponent");
      }
    }
    String s = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException ex) {
        // Too large for a long: a double, as JSON readers do.
      }
    }
    return Double.parseDouble(s);
  }

  private Object literal(String word, Object v) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected " + describe() + ", expected a value");
    }
    pos += word.length();
    return v;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("unexpected " + describe() + ", expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        return;
      }
      pos++;
    }
  }

  private String describe() {
    return pos >= text.length() ? "end of line" : "'" + text.charAt(pos) + "'";
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("column " + (pos + 1) + ": " + what);
  }

  /**
   * {@code value} as one line of JSON: maps, lists, strings, numbers, booleans and null.
   *
   * @param value a map, list, string, number, boolean or null
   * @return the JSON text
   */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    switch (v) {
      case null -> sb.append("null");
      case String s -> quote(sb, s);
      case Boolean b -> sb.append(b);
      case Double d -> {
        if (d.isNaN() || d.isInfinite()) {
          throw new IllegalArgumentException("JSON has no " + d);
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
          sb.append(d.longValue());
        } else {
          sb.append(d);
        }
      }
      case Float f -> write(sb, f.doubleValue());
      case Number n -> sb.append(n.longValue());
      case Map<?, ?> m -> {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (!first) {
            sb.append(',');
          }
          first = false;
          quote(sb, String.valueOf(e.getKey()));
          sb.append(':');
          write(sb, e.getValue());
        }
        sb.append('}');
      }
      case List<?> l -> {
        sb.append('[');
        for (int i = 0; i < l.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          write(sb, l.get(i));
        }
        sb.append(']');
      }
      default -> throw new IllegalArgumentException("no JSON form for " + v.getClass().getName());
    }
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
