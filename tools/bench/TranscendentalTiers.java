import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Reproduces issue 12 item 5: the Vector API's transcendental {@code lanewise} operations give
 * different bits on the same input before and after C2 compiles them, in one JVM.
 *
 * <p>Run (JDK 25): {@code java --add-modules jdk.incubator.vector tools/bench/TranscendentalTiers.java}
 *
 * <p>For each function it computes 262,144 results three times, with the preferred species: a
 * cold call (the first one; the loop is interpreted), a warm call (after enough calls for C2 to
 * compile the loop), and per lane with {@code Math} (cast as the Vector API's Java fallback casts).
 * It prints how many lanes differ between cold and warm, and how many of each differ from the
 * per-lane {@code Math} result. The cause shows in the counts: the cold results equal {@code Math}
 * lane for lane (the fallback {@code VectorSupport.libraryUnaryOp} runs when not intrinsified is
 * {@code Math.exp} per lane), the warm ones do not (C2 replaces it with a call into the JDK's
 * bundled SVML library, {@code libjsvml}). Run it again with {@code
 * -Djdk.incubator.vector.VectorMathLibrary=java}, which tells the JDK not to bind the native
 * library: then cold and warm agree on every lane.
 *
 * <p>With {@code --vectormath} on the class path of a ufunc4j runtime build ({@code
 * -cp runtime/target/classes}), the same comparison also runs {@code dev.ufunc4j.kernel.VectorMath}
 * (through reflection, so this file compiles without it): cold and warm must agree there.
 */
public final class TranscendentalTiers {

  static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
  static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
  static final int N = 262_144;

  interface FloatKernel {
    void run(float[] x, float[] y, float[] out);
  }

  interface DoubleKernel {
    void run(double[] x, double[] y, double[] out);
  }

  // One method per operator: the Vector API intrinsifies a lanewise operation only when C2 sees
  // its operator as a constant.
  static void exp(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, x, i).lanewise(VectorOperators.EXP).intoArray(out, i);
    }
  }

  static void log(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, x, i).lanewise(VectorOperators.LOG).intoArray(out, i);
    }
  }

  static void sin(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, x, i).lanewise(VectorOperators.SIN).intoArray(out, i);
    }
  }

  static void cos(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, x, i).lanewise(VectorOperators.COS).intoArray(out, i);
    }
  }

  static void tanh(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, x, i).lanewise(VectorOperators.TANH).intoArray(out, i);
    }
  }

  static void exp(double[] x, double[] y, double[] out) {
    for (int i = 0; i < x.length; i += DOUBLES.length()) {
      DoubleVector.fromArray(DOUBLES, x, i).lanewise(VectorOperators.EXP).intoArray(out, i);
    }
  }

  static void sin(double[] x, double[] y, double[] out) {
    for (int i = 0; i < x.length; i += DOUBLES.length()) {
      DoubleVector.fromArray(DOUBLES, x, i).lanewise(VectorOperators.SIN).intoArray(out, i);
    }
  }

  static void sigmoid(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector v = FloatVector.fromArray(FLOATS, x, i);
      FloatVector.broadcast(FLOATS, 1f).div(v.neg().lanewise(VectorOperators.EXP).add(1f))
          .intoArray(out, i);
    }
  }

  static void pow(float[] x, float[] y, float[] out) {
    for (int i = 0; i < x.length; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, x, i)
          .lanewise(VectorOperators.POW, FloatVector.fromArray(FLOATS, y, i)).intoArray(out, i);
    }
  }

  record Case(String name, FloatKernel f, DoubleKernel d, DoubleUnaryOperator scalar, double lo,
      double hi) {}

  public static void main(String[] args) throws Exception {
    boolean vectorMath = Arrays.asList(args).contains("--vectormath");
    System.out.println("java " + System.getProperty("java.version") + ", float lanes "
        + FLOATS.length() + ", VectorMathLibrary="
        + System.getProperty("jdk.incubator.vector.VectorMathLibrary", "(default)"));
    Case[] cases = {
      new Case("exp float32", TranscendentalTiers::exp, null, Math::exp, -20, 20),
      new Case("log float32", TranscendentalTiers::log, null, Math::log, 1e-3, 1e3),
      new Case("sin float32", TranscendentalTiers::sin, null, Math::sin, -100, 100),
      new Case("cos float32", TranscendentalTiers::cos, null, Math::cos, -100, 100),
      new Case("tanh float32", TranscendentalTiers::tanh, null, Math::tanh, -5, 5),
      new Case("sigmoid float32", TranscendentalTiers::sigmoid, null,
          v -> 1 / (1 + (float) Math.exp(-v)), -20, 20),
      new Case("pow float32", TranscendentalTiers::pow, null, null, 0.1, 10),
      new Case("exp float64", null, TranscendentalTiers::exp, Math::exp, -20, 20),
      new Case("sin float64", null, TranscendentalTiers::sin, Math::sin, -100, 100),
    };
    for (Case c : cases) {
      report(c.name + " (lanewise)", c);
    }
    if (vectorMath) {
      Class<?> vm = Class.forName("dev.ufunc4j.kernel.VectorMath");
      for (String fn : new String[] {"exp", "log", "sin", "cos", "tanh"}) {
        var mf = vm.getMethod(fn, FloatVector.class);
        var md = vm.getMethod(fn, DoubleVector.class);
        FloatKernel f = (x, y, out) -> {
          try {
            for (int i = 0; i < x.length; i += FLOATS.length()) {
              ((FloatVector) mf.invoke(null, FloatVector.fromArray(FLOATS, x, i)))
                  .intoArray(out, i);
            }
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        };
        DoubleKernel d = (x, y, out) -> {
          try {
            for (int i = 0; i < x.length; i += DOUBLES.length()) {
              ((DoubleVector) md.invoke(null, DoubleVector.fromArray(DOUBLES, x, i)))
                  .intoArray(out, i);
            }
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        };
        report(fn + " float32 (VectorMath)", new Case(fn, f, null, null, -20, 20));
        report(fn + " float64 (VectorMath)", new Case(fn, null, d, null, -20, 20));
      }
    }
  }

  static void report(String name, Case c) {
    SplittableRandom random = new SplittableRandom(12);
    if (c.f != null) {
      float[] x = new float[N];
      float[] y = new float[N];
      for (int i = 0; i < N; i++) {
        x[i] = (float) random.nextDouble(c.lo, c.hi);
        y[i] = (float) random.nextDouble(-4, 4);
      }
      float[] cold = new float[N];
      float[] warm = new float[N];
      c.f.run(x, y, cold);
      for (int i = 0; i < 200; i++) {
        c.f.run(x, y, warm);
      }
      int differ = 0;
      int coldVsMath = 0;
      int warmVsMath = 0;
      int maxUlps = 0;
      for (int i = 0; i < N; i++) {
        int a = Float.floatToRawIntBits(cold[i]);
        int b = Float.floatToRawIntBits(warm[i]);
        if (a != b) {
          differ++;
          maxUlps = Math.max(maxUlps, Math.abs(a - b));
        }
        if (c.scalar != null) {
          float m = (float) c.scalar.applyAsDouble(x[i]);
          coldVsMath += Float.floatToRawIntBits(m) != a ? 1 : 0;
          warmVsMath += Float.floatToRawIntBits(m) != b ? 1 : 0;
        }
      }
      print(name, differ, maxUlps, c.scalar == null ? -1 : coldVsMath,
          c.scalar == null ? -1 : warmVsMath);
    } else {
      double[] x = new double[N];
      for (int i = 0; i < N; i++) {
        x[i] = random.nextDouble(c.lo, c.hi);
      }
      double[] cold = new double[N];
      double[] warm = new double[N];
      c.d.run(x, null, cold);
      for (int i = 0; i < 200; i++) {
        c.d.run(x, null, warm);
      }
      int differ = 0;
      int coldVsMath = 0;
      int warmVsMath = 0;
      long maxUlps = 0;
      for (int i = 0; i < N; i++) {
        long a = Double.doubleToRawLongBits(cold[i]);
        long b = Double.doubleToRawLongBits(warm[i]);
        if (a != b) {
          differ++;
          maxUlps = Math.max(maxUlps, Math.abs(a - b));
        }
        if (c.scalar != null) {
          long m = Double.doubleToRawLongBits(c.scalar.applyAsDouble(x[i]));
          coldVsMath += m != a ? 1 : 0;
          warmVsMath += m != b ? 1 : 0;
        }
      }
      print(name, differ, (int) maxUlps, c.scalar == null ? -1 : coldVsMath,
          c.scalar == null ? -1 : warmVsMath);
    }
  }

  static void print(String name, int differ, int maxUlps, int coldVsMath, int warmVsMath) {
    System.out.printf("%-28s cold != warm: %6d of %d (max %d ulp)%s%n", name, differ, N, maxUlps,
        coldVsMath < 0 ? ""
            : String.format("; cold != Math: %6d, warm != Math: %6d", coldVsMath, warmVsMath));
  }
}
