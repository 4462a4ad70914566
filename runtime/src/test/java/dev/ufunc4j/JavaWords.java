package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one translation table from PyTorch's error texts to ufunc4j's (docs/ops.md, "Java words in
 * errors"): where PyTorch's advice names a Python call, operator or value, ufunc4j's names the Java
 * one. The golden tests apply it to PyTorch's text before comparing, so every golden error case is
 * still checked against PyTorch's wording, phrase by phrase. Keep this table and the one in
 * docs/ops.md the same.
 */
public final class JavaWords {
  private JavaWords() {}

  /** PyTorch phrase → Java phrase, replaced literally, in this order. */
  static final List<Map.Entry<String, String>> PHRASES =
      List.of(
          Map.entry("Please clone() the tensor", "Please copy() the tensor"),
          Map.entry("Subtraction, the `-` operator,", "Subtraction (sub())"),
          Map.entry("Negation, the `-` operator,", "Negation (neg())"),
          Map.entry("use the `~` or `logical_not()` operator instead", "use logicalNot() instead"),
          Map.entry(
              "Use the `^` or `logical_xor()` operator instead",
              "Use logicalXor() or bitwiseXor() instead"),
          Map.entry("must not be None", "must not be null"),
          Map.entry("ZeroDivisionError", "integer division by zero"),
          // clamp_ with number bounds names the C++ type, not the ScalarType (found by the fuzz
          // corpus): the other C++ names are ScalarType names already, or one word (below).
          Map.entry("output type unsigned char", "output type uint8"),
          Map.entry("output type signed char", "output type int8"));

  /**
   * A dtype that PyTorch names by its C++ ScalarType ({@code Float}, {@code Int}, {@code
   * ComplexFloat}) after these words; ufunc4j names it as {@link DType#toString()} does ({@code
   * float32}, {@code int32}, {@code complex64}).
   */
  private static final Pattern SCALAR_TYPE =
      Pattern.compile("(result type |desired output type |with dtype )(\\w+)");

  /**
   * A dtype that PyTorch names by its C++ type ({@code lerp}'s {@code expected dtype float for
   * `end` but got dtype double}); ufunc4j names it as {@link DType#toString()} does.
   */
  private static final Pattern CPP_TYPE =
      Pattern.compile("(expected dtype |but got dtype )(c10::Half|c10::BFloat16|float|double|int)\\b");

  private static final Map<String, String> CPP_TYPES = Map.of(
      "c10::Half", "float16", "c10::BFloat16", "bfloat16", "float", "float32", "double", "float64",
      "int", "int32");

  /** PyTorch's legacy tensor type with its sizes, {@code torch.FloatTensor{[2, 3]}}. */
  private static final Pattern LEGACY_TENSOR = Pattern.compile("torch\\.(\\w+)Tensor\\{([^}]*)\\}");

  /** PyTorch's {@code text} as ufunc4j words it. */
  public static String translate(String text) {
    String s = text;
    for (Map.Entry<String, String> e : PHRASES) {
      s = s.replace(e.getKey(), e.getValue());
    }
    s = replaceScalarTypes(SCALAR_TYPE, s, m -> m.group(1) + dtypeName(m.group(2)));
    s = replaceScalarTypes(CPP_TYPE, s, m -> m.group(1) + CPP_TYPES.get(m.group(2)));
    s = replaceScalarTypes(
        LEGACY_TENSOR, s, m -> dtypeName(m.group(1)) + " tensor " + m.group(2));
    return s;
  }

  private static String replaceScalarTypes(
      Pattern p, String s, java.util.function.Function<Matcher, String> with) {
    Matcher m = p.matcher(s);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(with.apply(m)));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** {@code Float} → {@code float32}; a word that is no ScalarType name stays as it is. */
  private static String dtypeName(String scalarType) {
    for (DType d : DType.values()) {
      if (d.scalarTypeName().equals(scalarType)) {
        return d.toString();
      }
    }
    return scalarType;
  }
}
