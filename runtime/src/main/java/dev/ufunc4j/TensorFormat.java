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
 */
final class TensorFormat {
  private TensorFormat() {}

  private static final int PRECISION = 4;
  private static final int THRESHOLD = 1000;
  private static final int EDGE = 3;
  private static final int LINE_WIDTH = 80;

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
    return addSuffixes(prefix + body, suffixes, indent);
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
    List<long[]> shown = new ArrayList<>();
    collect(t.shapeRef(), summarize, 0, new long[t.ndim()], shown);
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
    return recurse(t, indent, summarize, f1, f2, new long[t.ndim()], 0);
  }

  /** The indices printed: all, or the first and last {@link #EDGE} of each long dimension. */
  private static void collect(
      long[] shape, boolean summarize, int dim, long[] idx, List<long[]> out) {
    if (dim == shape.length) {
      out.add(idx.clone());
      return;
    }
    for (long i : shownIndices(shape[dim], summarize)) {
      idx[dim] = i;
      collect(shape, summarize, dim + 1, idx, out);
    }
  }

  private static long[] shownIndices(long size, boolean summarize) {
    if (summarize && size > 2 * EDGE) {
      long[] r = new long[2 * EDGE];
      for (int i = 0; i < EDGE; i++) {
        r[i] = i;
        r[EDGE + i] = size - EDGE + i;
      }
      return r;
    }
    long[] r = new long[(int) size];
    for (int i = 0; i < r.length; i++) {
      r[i] = i;
    }
    return r;
  }

  private static String recurse(
      Tensor t, int indent, boolean summarize, Formatter f1, Formatter f2, long[] idx, int dim) {
    long[] shape = t.shapeRef();
    int remaining = shape.length - dim;
    if (remaining == 0) {
      return element(t, idx, f1, f2);
    }
    long size = shape[dim];
    boolean cut = summarize && size > 2 * EDGE;
    if (remaining == 1) {
      int elementLength = f1.width + 2 + (f2 == null ? 0 : f2.width + 1);
      int perLine = Math.max(1, (LINE_WIDTH - indent) / elementLength);
      List<String> data = new ArrayList<>();
      for (long i : shownIndices(size, summarize)) {
        if (cut && i == size - EDGE) {
          data.add(" ...");
        }
        idx[dim] = i;
        data.add(element(t, idx, f1, f2));
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
    for (long i : shownIndices(size, summarize)) {
      if (cut && i == size - EDGE) {
        slices.add("...");
      }
      idx[dim] = i;
      slices.add(recurse(t, indent + 1, summarize, f1, f2, idx, dim + 1));
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
