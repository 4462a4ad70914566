import dev.ufunc4j.Dispatch;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Writes the inputs and results of every transcendental function for tools/vmath/accuracy.py,
 * which measures their ulp error against correctly rounded values (docs/vector-math.md).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector \
 *     -cp runtime/target/classes:generated-samples/target/classes \
 *     tools/vmath/Accuracy.java DIR [N] [--lanewise] [function,...]
 * python3 tools/vmath/accuracy.py DIR
 * </pre>
 *
 * <p>Default: ufunc4j's kernels (the {@code MathFunctions} sample ops, float32 and float64). With
 * {@code --lanewise}: the Vector API's {@code lanewise(EXP)} and friends, which the kernels used
 * before, measured warm (after C2 has compiled them, so on x86 SVML's results).
 *
 * <p>Per function, N inputs (default 20000) in ranges that keep the results finite, half of them
 * uniform and half on a log scale of both signs; float32 runs the same values rounded to float.
 * Records: three little-endian float64 per element (x, y, result).
 */
public final class Accuracy {

  /** name -> {lo, hi, ylo, yhi, scale}; scale 0 uniform, 1 log, 2 half and half. */
  private static final Map<String, double[]> RANGES = new LinkedHashMap<>();

  static {
    RANGES.put("exp", new double[] {-745, 709.7, 0, 0, 0});
    RANGES.put("expm1", new double[] {-40, 709.7, 0, 0, 0});
    RANGES.put("log", new double[] {1e-300, 1e300, 0, 0, 1});
    RANGES.put("log1p", new double[] {-0.9999, 1e300, 0, 0, 2});
    RANGES.put("log10", new double[] {1e-300, 1e300, 0, 0, 1});
    RANGES.put("sin", new double[] {-1e8, 1e8, 0, 0, 2});
    RANGES.put("cos", new double[] {-1e8, 1e8, 0, 0, 2});
    RANGES.put("tan", new double[] {-1e8, 1e8, 0, 0, 2});
    RANGES.put("tanh", new double[] {-20, 20, 0, 0, 2});
    RANGES.put("sinh", new double[] {-710, 710, 0, 0, 2});
    RANGES.put("cosh", new double[] {-710, 710, 0, 0, 2});
    RANGES.put("asin", new double[] {-1, 1, 0, 0, 2});
    RANGES.put("acos", new double[] {-1, 1, 0, 0, 0});
    RANGES.put("atan", new double[] {-1e10, 1e10, 0, 0, 2});
    RANGES.put("cbrt", new double[] {1e-300, 1e300, 0, 0, 1});
    RANGES.put("pow", new double[] {1e-3, 1e3, -100, 100, 0});
    RANGES.put("hypot", new double[] {1e-300, 1e300, 1e-300, 1e300, 1});
    RANGES.put("atan2", new double[] {1e-30, 1e30, 1e-30, 1e30, 1});
  }

  private Accuracy() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    int n = args.length > 1 && !args[1].startsWith("-") ? Integer.parseInt(args[1]) : 20000;
    boolean lanewise = java.util.Arrays.asList(args).contains("--lanewise");
    String only = args.length > 2 && !args[args.length - 1].startsWith("-")
        ? args[args.length - 1] : "";
    Files.createDirectories(dir);
    Map<String, ElementwiseOp> ops = new LinkedHashMap<>();
    for (OpLibrary lib : ServiceLoader.load(OpLibrary.class)) {
      for (ElementwiseOp op : lib.ops()) {
        if (op.declaringClass().endsWith(".MathFunctions")) {
          ops.put(op.name(), op);
        }
      }
    }
    for (var e : RANGES.entrySet()) {
      String name = e.getKey();
      if (!only.isEmpty() && !java.util.Arrays.asList(only.split(",")).contains(name)) {
        continue;
      }
      double[][] xy = inputs(name, e.getValue(), n);
      for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
        double[] x = xy[0].clone();
        double[] y = xy[1].clone();
        if (dtype == DType.FLOAT32) {
          floatRange(name, x, y);
        }
        double[] out = lanewise ? lanewise(name, dtype, x, y) : kernel(ops.get(name), dtype, x, y);
        write(dir.resolve(name + "." + (dtype == DType.FLOAT64 ? "f64" : "f32") + ".bin"), x, y,
            out);
      }
    }
  }

  private static double[][] inputs(String name, double[] r, int n) {
    SplittableRandom random = new SplittableRandom(name.hashCode());
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      boolean log = r[4] == 1 || (r[4] == 2 && i % 2 == 1);
      if (log) {
        double lo = Math.min(Math.max(Math.abs(r[0]), 1e-300), 1e-20);
        x[i] = Math.exp(random.nextDouble(Math.log(lo), Math.log(Math.abs(r[1]))));
        if (r[0] < 0 && random.nextBoolean()) {
          x[i] = -x[i];
        }
      } else {
        x[i] = random.nextDouble(r[0], r[1]);
      }
      if (r[2] != r[3]) {
        if (r[4] == 1) {
          y[i] = Math.exp(random.nextDouble(Math.log(r[2]), Math.log(r[3])));
          y[i] = random.nextBoolean() ? y[i] : -y[i];
          x[i] = random.nextBoolean() ? x[i] : -x[i];
        } else {
          y[i] = random.nextDouble(r[2], r[3]);
        }
      }
      if (name.equals("pow") && i % 4 == 0) {
        x[i] = -x[i];
        y[i] = Math.rint(y[i]);
      } else if (name.equals("pow") && i % 4 == 1) {
        x[i] = 1 + random.nextDouble(-1e-3, 1e-3);
        y[i] = random.nextDouble(-5e5, 5e5);
      }
    }
    return new double[][] {x, y};
  }

  /** The same values as floats, moved into the ranges where float results stay finite. */
  private static void floatRange(String name, double[] x, double[] y) {
    for (int i = 0; i < x.length; i++) {
      double v = Math.max(Math.min(x[i], 3e38), -3e38);
      if ((name.equals("exp") || name.equals("expm1")) && v > 88.7) {
        v /= 8;
      } else if (name.equals("exp") && v < -103) {
        v /= 7.2;
      } else if ((name.equals("sinh") || name.equals("cosh")) && Math.abs(v) > 89) {
        v /= 8;
      }
      x[i] = (float) v;
      y[i] = (float) Math.max(Math.min(y[i], 3e38), -3e38);
    }
  }

  private static double[] kernel(ElementwiseOp op, DType dtype, double[] x, double[] y) {
    Tensor a = Tensor.of(x, DType.FLOAT64).to(dtype);
    Tensor result = op.arity() == 1
        ? Dispatch.apply(op, null, a)
        : Dispatch.apply(op, null, a, Tensor.of(y, DType.FLOAT64).to(dtype));
    return result.to(DType.FLOAT64).toDoubleArray();
  }

  /** One vector of a lanewise operation; a lambda per operation keeps the operator constant. */
  private interface FloatOp {
    FloatVector apply(FloatVector x, FloatVector y);
  }

  private interface DoubleOp {
    DoubleVector apply(DoubleVector x, DoubleVector y);
  }

  private static final Map<String, FloatOp> FLOAT_OPS = new LinkedHashMap<>();
  private static final Map<String, DoubleOp> DOUBLE_OPS = new LinkedHashMap<>();

  static {
    FLOAT_OPS.put("exp", (x, y) -> x.lanewise(VectorOperators.EXP));
    DOUBLE_OPS.put("exp", (x, y) -> x.lanewise(VectorOperators.EXP));
    FLOAT_OPS.put("expm1", (x, y) -> x.lanewise(VectorOperators.EXPM1));
    DOUBLE_OPS.put("expm1", (x, y) -> x.lanewise(VectorOperators.EXPM1));
    FLOAT_OPS.put("log", (x, y) -> x.lanewise(VectorOperators.LOG));
    DOUBLE_OPS.put("log", (x, y) -> x.lanewise(VectorOperators.LOG));
    FLOAT_OPS.put("log1p", (x, y) -> x.lanewise(VectorOperators.LOG1P));
    DOUBLE_OPS.put("log1p", (x, y) -> x.lanewise(VectorOperators.LOG1P));
    FLOAT_OPS.put("log10", (x, y) -> x.lanewise(VectorOperators.LOG10));
    DOUBLE_OPS.put("log10", (x, y) -> x.lanewise(VectorOperators.LOG10));
    FLOAT_OPS.put("sin", (x, y) -> x.lanewise(VectorOperators.SIN));
    DOUBLE_OPS.put("sin", (x, y) -> x.lanewise(VectorOperators.SIN));
    FLOAT_OPS.put("cos", (x, y) -> x.lanewise(VectorOperators.COS));
    DOUBLE_OPS.put("cos", (x, y) -> x.lanewise(VectorOperators.COS));
    FLOAT_OPS.put("tan", (x, y) -> x.lanewise(VectorOperators.TAN));
    DOUBLE_OPS.put("tan", (x, y) -> x.lanewise(VectorOperators.TAN));
    FLOAT_OPS.put("tanh", (x, y) -> x.lanewise(VectorOperators.TANH));
    DOUBLE_OPS.put("tanh", (x, y) -> x.lanewise(VectorOperators.TANH));
    FLOAT_OPS.put("sinh", (x, y) -> x.lanewise(VectorOperators.SINH));
    DOUBLE_OPS.put("sinh", (x, y) -> x.lanewise(VectorOperators.SINH));
    FLOAT_OPS.put("cosh", (x, y) -> x.lanewise(VectorOperators.COSH));
    DOUBLE_OPS.put("cosh", (x, y) -> x.lanewise(VectorOperators.COSH));
    FLOAT_OPS.put("asin", (x, y) -> x.lanewise(VectorOperators.ASIN));
    DOUBLE_OPS.put("asin", (x, y) -> x.lanewise(VectorOperators.ASIN));
    FLOAT_OPS.put("acos", (x, y) -> x.lanewise(VectorOperators.ACOS));
    DOUBLE_OPS.put("acos", (x, y) -> x.lanewise(VectorOperators.ACOS));
    FLOAT_OPS.put("atan", (x, y) -> x.lanewise(VectorOperators.ATAN));
    DOUBLE_OPS.put("atan", (x, y) -> x.lanewise(VectorOperators.ATAN));
    FLOAT_OPS.put("cbrt", (x, y) -> x.lanewise(VectorOperators.CBRT));
    DOUBLE_OPS.put("cbrt", (x, y) -> x.lanewise(VectorOperators.CBRT));
    FLOAT_OPS.put("pow", (x, y) -> x.lanewise(VectorOperators.POW, y));
    DOUBLE_OPS.put("pow", (x, y) -> x.lanewise(VectorOperators.POW, y));
    FLOAT_OPS.put("hypot", (x, y) -> x.lanewise(VectorOperators.HYPOT, y));
    DOUBLE_OPS.put("hypot", (x, y) -> x.lanewise(VectorOperators.HYPOT, y));
    FLOAT_OPS.put("atan2", (x, y) -> x.lanewise(VectorOperators.ATAN2, y));
    DOUBLE_OPS.put("atan2", (x, y) -> x.lanewise(VectorOperators.ATAN2, y));
  }

  private static double[] lanewise(String name, DType dtype, double[] x, double[] y) {
    double[] out = new double[x.length];
    float[] fx = new float[x.length];
    float[] fy = new float[x.length];
    float[] fo = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      fx[i] = (float) x[i];
      fy[i] = (float) y[i];
    }
    FloatOp f = FLOAT_OPS.get(name);
    DoubleOp d = DOUBLE_OPS.get(name);
    VectorSpecies<Double> ds = DoubleVector.SPECIES_PREFERRED;
    VectorSpecies<Float> fs = FloatVector.SPECIES_PREFERRED;
    // Warm: enough passes for C2 to compile each lambda and intrinsify its operation.
    for (int pass = 0; pass < 300; pass++) {
      if (dtype == DType.FLOAT64) {
        for (int i = 0; i < ds.loopBound(x.length); i += ds.length()) {
          d.apply(DoubleVector.fromArray(ds, x, i), DoubleVector.fromArray(ds, y, i))
              .intoArray(out, i);
        }
      } else {
        for (int i = 0; i < fs.loopBound(x.length); i += fs.length()) {
          f.apply(FloatVector.fromArray(fs, fx, i), FloatVector.fromArray(fs, fy, i))
              .intoArray(fo, i);
        }
      }
    }
    if (dtype == DType.FLOAT32) {
      for (int i = 0; i < x.length; i++) {
        out[i] = fo[i];
      }
    }
    return out;
  }

  private static void write(Path p, double[] x, double[] y, double[] out) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(x.length * 24).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < x.length; i++) {
      b.putDouble(x[i]).putDouble(y[i]).putDouble(out[i]);
    }
    Files.write(p, b.array());
  }
}
