package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Tensor#toString()}: a port of PyTorch's {@code torch/_tensor_str.py} with its default
 * print options (precision 4, threshold 1000, edge items 3, line width 80), checked against real
 * PyTorch output by golden data. Decimal rounding uses the exact binary value and round-half-even,
 * as Python's {@code format} does.
 *
 * <p>One addition bounds the text whatever the rank: PyTorch's summarisation keeps every index of a
 * dimension of at most {@code 2 * EDGE}, so it prints all 2^20 elements of a {@code [2]^20} tensor.
 * When the summarised tensor would still print more than {@link #MAX_PRINTED} elements, the
 * outermost dimensions are cut to their first sub-tensor, followed by {@code ...}, until the rest
 * fits. Every tensor up to rank 5 prints exactly as in PyTorch (at most 6^5 = 7,776 elements).
 */
final class TensorFormat {
  private TensorFormat() {}

  private static final int PRECISION = 4;
  private static final int THRESHOLD = 1000;
  private static final int EDGE = 3;
  private static final int LINE_WIDTH = 80;
  /** Elements printed at most; PyTorch's own text whenever it prints no more. */
  static final long MAX_PRINTED = 10_000;

  /**
   * The indices of one dimension that are printed, with {@code ...} before position {@code
   * ellipsisAt} of {@code indices} ({@code -1}: none; {@code indices.length}: after the last).
   */
  private record Shown(long[] indices, int ellipsisAt) {}

  static String format(Tensor t) {
    String prefix = "tensor(";
    int indent = prefix.length();
    List<String> suffixes = new ArrayList<>();
    DType d = t.dtype();
    String body;
    if (t.numel() == 0) {
      if (t.ndim() != 1) {
        suffixes.add("size=" + pyTuple(t.shape()));
      }
      if (d != DType.FLOAT32) {
        suffixes.add("dtype=torch." + d.torchName());
      }
      body = "[]";
    } else {
      boolean defaultDtype =
          d == DType.FLOAT32 || d == DType.COMPLEX64 || d == DType.INT64 || d == DType.BOOL;
      if (!defaultDtype) {
        suffixes.add("dtype=torch." + d.torchName());
      }
      body = tensorStr(t, indent);
    }
    // As PyTorch's _tensor_str: a computed tensor names the node that made it, a leaf that
    // requires grad says so (after the dtype).
    GradGraph.Meta meta = GradGraph.meta(t);
    if (meta != null && meta.gradFn != null) {
      suffixes.add("grad_fn=<" + backwardName(meta.gradFn) + ">");
    } else if (meta != null && meta.leafRequiresGrad) {
      suffixes.add("requires_grad=True");
    }
    return addSuffixes(prefix + body, suffixes, indent);
  }

  /**
   * PyTorch's class name of the backward node {@code node} stands for: {@code <Op>Backward0}
   * (AddBackward0, ExpandBackward0; a user op {@code huber} gives HuberBackward0), with PyTorch's
   * own names where ours differ ({@code to} is ToCopyBackward0, a copy CloneBackward0). Where
   * PyTorch numbers overloads apart (SumBackward1 for a sum over given dims) the name is the
   * first form's.
   */
  static String backwardName(GradNode node) {
    String name = node.name();
    return switch (name) {
      case "CopySlices" -> name;
      case "to" -> "ToCopyBackward0";
      case "copy" -> "CloneBackward0";
      case "sumToShape" -> "SumBackward1";
      default -> Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Backward0";
    };
  }

  private static String pyTuple(long[] shape) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(shape[i]);
    }
    return sb.append(shape.length == 1 ? ",)" : ")").toString();
  }

  private static String addSuffixes(String tensorStr, List<String> suffixes, int indent) {
    StringBuilder sb = new StringBuilder(tensorStr);
    int lastLineLen = tensorStr.length() - tensorStr.lastIndexOf('\n') + 1;
    for (String suffix : suffixes) {
      if (lastLineLen + suffix.length() + 2 > LINE_WIDTH) {
        sb.append(",\n").append(" ".repeat(indent)).append(suffix);
        lastLineLen = indent + suffix.length();
      } else {
        sb.append(", ").append(suffix);
        lastLineLen += suffix.length() + 2;
      }
    }
    return sb.append(')').toString();
  }

  private static String tensorStr(Tensor t, int indent) {
    boolean summarize = t.numel() > THRESHOLD;
    Shown[] plan = plan(t.shapeRef(), summarize);
    List<long[]> shown = new ArrayList<>();
    collect(plan, 0, new long[t.ndim()], shown);
    Formatter f1;
    Formatter f2 = null;
    DType d = t.dtype();
    if (d.isComplex()) {
      double[] re = new double[shown.size()];
      double[] im = new double[shown.size()];
      for (int i = 0; i < re.length; i++) {
        re[i] = t.getReal(shown.get(i));
        im[i] = t.getImag(shown.get(i));
      }
      f1 = Formatter.floating(re);
      f2 = Formatter.floating(im);
    } else if (d.isFloatingPoint()) {
      double[] v = new double[shown.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = t.getDouble(shown.get(i));
      }
      f1 = Formatter.floating(v);
    } else {
      int w = 1;
      for (long[] idx : shown) {
        w = Math.max(w, intString(t, idx).length());
      }
      f1 = Formatter.integral(w);
    }
    return recurse(t, indent, plan, f1, f2, new long[t.ndim()], 0);
  }

  /**
   * Which indices of each dimension print: PyTorch's choice (all, or when summarising the first and
   * last {@link #EDGE} of a dimension longer than {@code 2 * EDGE}), then the outermost dimensions
   * cut to their first index until at most {@link #MAX_PRINTED} elements remain.
   */
  private static Shown[] plan(long[] shape, boolean summarize) {
    int n = shape.length;
    Shown[] plan = new Shown[n];
    for (int d = 0; d < n; d++) {
      long size = shape[d];
      if (summarize && size > 2 * EDGE) {
        long[] r = new long[2 * EDGE];
        for (int i = 0; i < EDGE; i++) {
          r[i] = i;
          r[EDGE + i] = size - EDGE + i;
        }
        plan[d] = new Shown(r, EDGE);
      } else {
        // At most 2 * EDGE indices, or the whole tensor has at most THRESHOLD elements.
        long[] r = new long[(int) size];
        for (int i = 0; i < r.length; i++) {
          r[i] = i;
        }
        plan[d] = new Shown(r, -1);
      }
    }
    // The innermost dimensions whose printed elements fit stay whole; the rest show index 0.
    int whole = n;
    long printed = 1;
    while (whole > 0 && printed * plan[whole - 1].indices.length <= MAX_PRINTED) {
      printed *= plan[--whole].indices.length;
    }
    for (int d = 0; d < whole; d++) {
      if (plan[d].indices.length > 1) {
        plan[d] = new Shown(new long[] {0}, 1);
      }
    }
    return plan;
  }

  /** The index of every printed element, in printing order. */
  private static void collect(Shown[] plan, int dim, long[] idx, List<long[]> out) {
    if (dim == plan.length) {
      out.add(idx.clone());
      return;
    }
    for (long i : plan[dim].indices) {
      idx[dim] = i;
      collect(plan, dim + 1, idx, out);
    }
  }

  private static String recurse(
      Tensor t, int indent, Shown[] plan, Formatter f1, Formatter f2, long[] idx, int dim) {
    int remaining = plan.length - dim;
    if (remaining == 0) {
      return element(t, idx, f1, f2);
    }
    Shown shown = plan[dim];
    if (remaining == 1) {
      int elementLength = f1.width + 2 + (f2 == null ? 0 : f2.width + 1);
      int perLine = Math.max(1, (LINE_WIDTH - indent) / elementLength);
      List<String> data = new ArrayList<>();
      for (int k = 0; k < shown.indices.length; k++) {
        if (k == shown.ellipsisAt) {
          data.add(" ...");
        }
        idx[dim] = shown.indices[k];
        data.add(element(t, idx, f1, f2));
      }
      if (shown.ellipsisAt == shown.indices.length) {
        data.add(" ...");
      }
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < data.size(); i++) {
        if (i > 0) {
          sb.append(i % perLine == 0 ? ",\n" + " ".repeat(indent + 1) : ", ");
        }
        sb.append(data.get(i));
      }
      return sb.append(']').toString();
    }
    List<String> slices = new ArrayList<>();
    for (int k = 0; k < shown.indices.length; k++) {
      if (k == shown.ellipsisAt) {
        slices.add("...");
      }
      idx[dim] = shown.indices[k];
      slices.add(recurse(t, indent + 1, plan, f1, f2, idx, dim + 1));
    }
    if (shown.ellipsisAt == shown.indices.length) {
      slices.add("...");
    }
    String sep = "," + "\n".repeat(remaining - 1) + " ".repeat(indent + 1);
    return "[" + String.join(sep, slices) + "]";
  }

  private static String element(Tensor t, long[] idx, Formatter f1, Formatter f2) {
    DType d = t.dtype();
    if (f2 != null) {
      String re = f1.format(t.getReal(idx));
      String im = (f2.format(t.getImag(idx)) + "j").stripLeading();
      return im.charAt(0) == '+' || im.charAt(0) == '-' ? re + im : re + "+" + im;
    }
    if (d.isFloatingPoint()) {
      return f1.format(t.getDouble(idx));
    }
    return f1.pad(intString(t, idx));
  }

  private static String intString(Tensor t, long[] idx) {
    return switch (t.dtype()) {
      case BOOL -> t.getBoolean(idx) ? "True" : "False";
      case UINT64 -> Long.toUnsignedString(t.getLong(idx));
      default -> Long.toString(t.getLong(idx));
    };
  }

  /** PyTorch's {@code _Formatter}: one width and mode for all printed values. */
  private static final class Formatter {
    private final boolean floating;
    private boolean intMode = true;
    private boolean sciMode;
    private int width = 1;

    private Formatter(boolean floating) {
      this.floating = floating;
    }

    static Formatter integral(int width) {
      Formatter f = new Formatter(false);
      f.width = width;
      return f;
    }

    static Formatter floating(double[] values) {
      Formatter f = new Formatter(true);
      double min = Double.POSITIVE_INFINITY;
      double max = 0;
      int count = 0;
      for (double v : values) {
        if (Double.isFinite(v) && v != 0) {
          double a = Math.abs(v);
          min = Math.min(min, a);
          max = Math.max(max, a);
          count++;
          if (v != Math.ceil(v)) {
            f.intMode = false;
          }
        }
      }
      if (count == 0) {
        return f;
      }
      f.sciMode = max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4;
      for (double v : values) {
        if (Double.isFinite(v) && v != 0) {
          int len;
          if (f.sciMode) {
            len = sci(v).length();
          } else if (f.intMode) {
            len = fixed(v, 0).length() + 1;
          } else {
            len = fixed(v, PRECISION).length();
          }
          f.width = Math.max(f.width, len);
        }
      }
      return f;
    }

    String format(double value) {
      String ret;
      if (!floating) {
        ret = Long.toString((long) value);
      } else if (sciMode) {
        ret = sci(value);
      } else if (intMode) {
        ret = fixed(value, 0);
        if (Double.isFinite(value)) {
          ret += ".";
        }
      } else {
        ret = fixed(value, PRECISION);
      }
      return pad(ret);
    }

    String pad(String s) {
      return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
  }

  /** Python's {@code format(v, '.{digits}f')}. */
  static String fixed(double v, int digits) {
    if (Double.isNaN(v)) {
      return "nan";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    String sign = (v < 0 || (v == 0 && 1 / v < 0)) ? "-" : "";
    return sign
        + new BigDecimal(Math.abs(v)).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** Python's {@code format(v, '.4e')}. */
  static String sci(double v) {
    if (Double.isNaN(v)) {
      return "nan";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    String sign = (v < 0 || (v == 0 && 1 / v < 0)) ? "-" : "";
    double a = Math.abs(v);
    String digits;
    int exp;
    if (a == 0) {
      digits = "0".repeat(PRECISION + 1);
      exp = 0;
    } else {
      BigDecimal r = new BigDecimal(a).round(new MathContext(PRECISION + 1, RoundingMode.HALF_EVEN));
      String u = r.unscaledValue().toString();
      exp = u.length() - 1 - r.scale();
      digits = (u + "0".repeat(PRECISION + 1)).substring(0, PRECISION + 1);
    }
    String e = Integer.toString(Math.abs(exp));
    return sign + digits.charAt(0) + "." + digits.substring(1) + "e" + (exp < 0 ? "-" : "+")
        + (e.length() < 2 ? "0" + e : e);
  }
}
