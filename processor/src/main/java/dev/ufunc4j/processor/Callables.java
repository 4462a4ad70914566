package dev.ufunc4j.processor;

import java.util.ArrayList;
import java.util.List;

/** The functions an {@code @Elementwise} body may call, for the diagnostics that name them. */
final class Callables {

  private Callables() {}

  /** {@code Math.abs, ..., Long.remainderUnsigned}: both tables, as a body writes them. */
  static String list() {
    return String.join(", ", all());
  }

  /**
   * {@code " (the nearest that is: Math.sqrt)"}: the allowed function whose name is nearest
   * {@code name} (edit distance, the tables' order on a tie; {@code StrictMath.sqrt} → {@code
   * Math.sqrt}, {@code Math.floorDivExact} → {@code Math.floorDiv}), or empty when none is close.
   */
  static String nearest(String name) {
    String best = "";
    int bestDistance = Integer.MAX_VALUE;
    for (String f : all()) {
      int d = distance(name, f.substring(f.indexOf('.') + 1));
      if (d < bestDistance) {
        best = f;
        bestDistance = d;
      }
    }
    // A suggestion far from the name (Math.random -> Math.tan) would mislead.
    return bestDistance <= Math.max(2, name.length() / 2) ? " (the nearest that is: " + best + ")"
        : "";
  }

  private static List<String> all() {
    List<String> all = new ArrayList<>();
    for (MathFunction f : MathFunction.values()) {
      all.add(f.qualifiedCall());
    }
    all.addAll(JdkFunctions.names());
    return all;
  }

  /** Levenshtein distance, case-insensitive. */
  private static int distance(String a, String b) {
    a = a.toLowerCase(java.util.Locale.ROOT);
    b = b.toLowerCase(java.util.Locale.ROOT);
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
