package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every complex kernel of the sample and built-in ops against a scalar complex evaluation of the
 * same body (the declared {@code double} method, written again in complex arithmetic): for
 * every table entry (operand dtypes whose promotion is complex), on edge components (0, -0.0, ±1,
 * ±inf, NaN, huge and tiny magnitudes) and random values, in rank 1, 2, 3 and 5 layouts with
 * contiguous, stride-0 and strided operands.
 *
 * <p>The reference computes in the kernel's compute precision (float for complex32 and complex64,
 * double for complex128), rounding every operation, and uses the same division algorithm as the
 * kernel (c10::complex's, NumPy's): results must match bit for bit, NaN matching any NaN.
 */
class ComplexKernelTest {

  /** A complex value; components are exact values of the compute precision. */
  record C(double re, double im) {
    @Override
    public String toString() {
      return "(" + re + ", " + im + ")";
    }
  }

  /** Complex arithmetic in one precision, every operation rounded once, no fused multiply-add. */
  record Arith(boolean single) {
    double r(double x) {
      return single ? (float) x : x;
    }

    C real(double x) {
      return new C(r(x), 0.0);
    }

    C add(C x, C y) {
      return new C(r(x.re + y.re), r(x.im + y.im));
    }

    C sub(C x, C y) {
      return new C(r(x.re - y.re), r(x.im - y.im));
    }

    C neg(C x) {
      return new C(-x.re, -x.im);
    }

    C mul(C x, C y) {
      double a = x.re;
      double b = x.im;
      double c = y.re;
      double d = y.im;
      return new C(r(r(a * c) - r(b * d)), r(r(a * d) + r(b * c)));
    }

    /** Fused multiply-add in this precision. */
    double fma(double x, double y, double z) {
      return single ? Math.fma((float) x, (float) y, (float) z) : Math.fma(x, y, z);
    }

    /**
     * c10::complex operator/= (NumPy's algorithm, Smith's method) as PyTorch's x86 build runs it,
     * its multiply-adds contracted to FMAs.
     */
    C div(C x, C y) {
      double a = x.re;
      double b = x.im;
      double c = y.re;
      double d = y.im;
      double absC = Math.abs(c);
      double absD = Math.abs(d);
      if (absC >= absD) {
        if (absC == 0 && absD == 0) {
          return new C(r(a / absC), r(b / absD));
        }
        double rat = r(d / c);
        double scl = r(1.0 / fma(d, rat, c));
        return new C(r(fma(b, rat, a) * scl), r(fma(-a, rat, b) * scl));
      }
      double rat = r(c / d);
      double scl = r(1.0 / fma(c, rat, d));
      return new C(r(fma(a, rat, b) * scl), r(fma(b, rat, -a) * scl));
    }

    static boolean equal(C x, C y) {
      return x.re == y.re && x.im == y.im;
    }
  }

  /** A body in complex arithmetic: a C, or a Boolean for predicates. */
  interface Reference {
    Object eval(Arith m, C[] t, double[] scalars);
  }

  /**
   * The liftable bodies of the sample ops and the built-ins, written again in complex arithmetic,
   * by {@link KernelConformanceTest#id}.
   */
  private static final Map<String, Reference> REFERENCES = Map.ofEntries(
      Map.entry("Samples.add", (m, t, s) -> m.add(t[0], t[1])),
      Map.entry("Samples.axpy", (m, t, s) -> m.add(t[0], m.mul(m.real(s[0]), t[1]))),
      Map.entry("Samples.mul", (m, t, s) -> m.mul(t[0], t[1])),
      Map.entry("Samples.div", (m, t, s) -> m.div(t[0], t[1])),
      Map.entry("Samples.neg", (m, t, s) -> m.neg(t[0])),
      Map.entry("Samples.diffOfSquares", (m, t, s) -> {
        C sum = m.add(t[0], t[1]);
        return m.div(m.mul(m.sub(t[0], t[1]), sum), m.real(2));
      }),
      Map.entry("Samples.equal", (m, t, s) -> Arith.equal(t[0], t[1])),
      Map.entry("Samples.notEqual", (m, t, s) -> !Arith.equal(t[0], t[1])),
      Map.entry("Blends.axpby",
          (m, t, s) -> m.add(m.mul(m.real(s[0]), t[0]), m.mul(m.real(s[1]), t[1]))),
      Map.entry("Internal.scale", (m, t, s) -> m.mul(t[0], m.real(s[0]))),
      // Double.isNaN(x) is x != x (processor JdkFunctions), a liftable comparison.
      Map.entry("JdkMath.isNaN", (m, t, s) -> !Arith.equal(t[0], t[0])),
      Map.entry("Builtins.add", (m, t, s) -> m.add(t[0], t[1])),
      Map.entry("Builtins.sub", (m, t, s) -> m.sub(t[0], t[1])),
      Map.entry("Builtins.mul", (m, t, s) -> m.mul(t[0], t[1])),
      Map.entry("Builtins.div", (m, t, s) -> m.div(t[0], t[1])),
      Map.entry("Builtins.neg", (m, t, s) -> m.neg(t[0])),
      Map.entry("Builtins.eq", (m, t, s) -> Arith.equal(t[0], t[1])),
      Map.entry("Builtins.ne", (m, t, s) -> !Arith.equal(t[0], t[1])),
      Map.entry("Builtins.logicalNot", (m, t, s) -> Arith.equal(t[0], m.real(0))),
      // issue 27: products, a quotient and comparisons lift (deg2rad, rad2deg, isposinf and
      // isneginf refuse complex operands by @Rule, as PyTorch; their kernels exist)
      Map.entry("Builtins.deg2rad", (m, t, s) -> m.mul(t[0], m.real(0.017453292519943295))),
      Map.entry("Builtins.rad2deg", (m, t, s) -> m.mul(t[0], m.real(57.29577951308232))),
      Map.entry("Builtins.reciprocal", (m, t, s) -> m.div(m.real(1), t[0])),
      Map.entry("Builtins.square", (m, t, s) -> m.mul(t[0], t[0])),
      Map.entry("Builtins.isnan", (m, t, s) -> !Arith.equal(t[0], t[0])),
      Map.entry("Builtins.isposinf",
          (m, t, s) -> Arith.equal(t[0], m.real(Double.POSITIVE_INFINITY))),
      Map.entry("Builtins.isneginf",
          (m, t, s) -> Arith.equal(t[0], m.real(Double.NEGATIVE_INFINITY))));

  private static final List<DType> DTYPES =
      Arrays.stream(DType.values()).filter(d -> !d.isFloat8()).toList();

  // ----------------------------------------------------------------------------- planning

  /**
   * Exactly the liftable sample and built-in ops have complex entries, and they have one for every
   * operand combination whose promotion is complex, computing and storing the right dtypes. The
   * others (conditionals, Math calls, order comparisons) have none: the runtime refuses them.
   */
  @Test
  void liftableOpsHaveEveryComplexEntryAndOthersNone() {
    Set<String> lifted = new TreeSet<>();
    for (ElementwiseOp op : KernelConformanceTest.checkedOps()) {
      boolean any = IntStream.range(0, op.entryCount())
          .anyMatch(i -> op.entryCompute(i).isComplex());
      if (!any) {
        continue;
      }
      lifted.add(KernelConformanceTest.id(op));
      int promoting = op.arity();
      List<List<DType>> tuples = new ArrayList<>();
      if (promoting == 1) {
        DTYPES.forEach(d -> tuples.add(List.of(d)));
      } else {
        for (DType a : DTYPES) {
          for (DType b : DTYPES) {
            tuples.add(List.of(a, b));
          }
        }
      }
      for (List<DType> t : tuples) {
        DType promoted = t.stream().reduce(Promotion::promoteTypes).orElseThrow();
        if (!promoted.isComplex()) {
          continue;
        }
        DType[] dtypes = t.toArray(new DType[0]);
        int entry = op.entryPromotedTo(promoted, dtypes);
        assertTrue(entry >= 0, KernelConformanceTest.id(op) + " has no entry for " + t);
        assertEquals(promoted == DType.COMPLEX128 ? DType.COMPLEX128 : DType.COMPLEX64,
            op.entryCompute(entry), KernelConformanceTest.id(op) + t);
        assertEquals(op.isPredicate() ? DType.BOOL : promoted, op.entryResult(entry),
            KernelConformanceTest.id(op) + t);
      }
    }
    assertEquals(new TreeSet<>(REFERENCES.keySet()), lifted);
  }

  @Test
  void nonLiftableBodiesRefuseComplexInputsSayingWhy() {
    Tensor z = Tensor.ofComplex(new double[] {1, 2, 3, 4}, 2);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> Dispatch.apply(Samples_relu.OP, null, z));
    assertTrue(e.getMessage().contains("not lifted to complex"), e.getMessage());
    e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> Dispatch.apply(Samples_less.OP, null, z, z));
    assertTrue(e.getMessage().contains("not lifted to complex"), e.getMessage());
  }

  @Test
  void dispatchRunsComplexKernels() {
    Tensor a = Tensor.ofComplex(new double[] {1, 2, 3, -4, 0.5, 0}, DType.COMPLEX64, 3, 1);
    Tensor b = Tensor.of(new int[] {2, -1}, 2);
    Tensor r = Dispatch.apply(Samples_mul.OP, null, a, b);
    assertEquals(DType.COMPLEX64, r.dtype());
    assertEquals(List.of(3L, 2L), Arrays.stream(r.shape()).boxed().toList());
    double[] want = {2, 4, -1, -2, 6, -8, -3, 4, 1, 0, -0.5, 0};
    double[] got = r.toComplexArray();
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i], got[i], 0.0, "component " + i);
    }
    Tensor eq = Dispatch.apply(Samples_equal.OP, null, a, Tensor.ofComplex(new double[] {1, 2}, 1));
    assertEquals(DType.BOOL, eq.dtype());
    assertEquals(List.of(true, false, false),
        List.of(eq.getBoolean(0, 0), eq.getBoolean(1, 0), eq.getBoolean(2, 0)));
    Tensor s = Dispatch.apply(Samples_axpy.OP, null, new Tensor[] {a, a}, new Object[] {2.0});
    assertEquals(DType.COMPLEX64, s.dtype());
    assertEquals(3.0, s.toComplexArray()[0], 0.0);
  }

  // ----------------------------------------------------------------------------- kernels

  @TestFactory
  Stream<DynamicNode> everyComplexKernelMatchesComplexArithmetic() {
    return KernelConformanceTest.checkedOps().stream()
        .filter(op -> REFERENCES.containsKey(KernelConformanceTest.id(op)))
        .map(op -> DynamicContainer.dynamicContainer(KernelConformanceTest.id(op),
            IntStream.range(0, op.entryCount())
                .filter(i -> op.entryCompute(i).isComplex())
                .mapToObj(i -> DynamicTest.dynamicTest(
                    KernelConformanceTest.id(op) + op.entryInputs(i) + " -> " + op.entryResult(i),
                    () -> checkEntry(op, i)))));
  }

  /** Edge components per component dtype, as raw bits. */
  private static long[] componentEdges(DType component) {
    return switch (component) {
      case FLOAT16 -> new long[] {0x0000, 0x8000, 0x3C00, 0xC100, 0x7C00, 0xFC00, 0x7E00, 0x7BFF,
          0x0001, 0x3800};
      case FLOAT32 -> floats(0f, -0f, 1f, -2.5f, Float.POSITIVE_INFINITY,
          Float.NEGATIVE_INFINITY, Float.NaN, Float.MAX_VALUE, 3e30f, Float.MIN_VALUE, 1e-30f, 0.5f);
      default -> doubles(0d, -0d, 1d, -2.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
          Double.NaN, Double.MAX_VALUE, 3e300, Double.MIN_VALUE, 1e-300, 0.5);
    };
  }

  private static long[] floats(float... fs) {
    return IntStream.range(0, fs.length).mapToLong(i -> Float.floatToRawIntBits(fs[i])).toArray();
  }

  private static long[] doubles(double... ds) {
    return Arrays.stream(ds).mapToLong(Double::doubleToRawLongBits).toArray();
  }

  /** Edge elements of a dtype: raw bits, two components for a complex dtype. */
  private static List<long[]> edges(DType d) {
    List<long[]> pool = new ArrayList<>();
    if (!d.isComplex()) {
      for (long raw : Scalars.edges(d)) {
        pool.add(new long[] {raw});
      }
      return pool;
    }
    long[] parts = componentEdges(d.componentType());
    for (long re : parts) {
      for (long im : parts) {
        pool.add(new long[] {re, im});
      }
    }
    return pool;
  }

  private static long[] random(DType d, Random r) {
    if (!d.isComplex()) {
      return new long[] {Scalars.random(d, r)};
    }
    return new long[] {Scalars.random(d.componentType(), r), Scalars.random(d.componentType(), r)};
  }

  private static void write(MemorySegment s, DType d, long index, long[] raw) {
    if (d.isComplex()) {
      Scalars.write(s, d.componentType(), 2 * index, raw[0]);
      Scalars.write(s, d.componentType(), 2 * index + 1, raw[1]);
    } else {
      Scalars.write(s, d, index, raw[0]);
    }
  }

  private static long[] read(MemorySegment s, DType d, long index) {
    if (d.isComplex()) {
      return new long[] {Scalars.read(s, d.componentType(), 2 * index),
          Scalars.read(s, d.componentType(), 2 * index + 1)};
    }
    return new long[] {Scalars.read(s, d, index)};
  }

  /** An operand as the kernel sees it: cast to the promoted dtype, as PyTorch casts. */
  private static C operand(DType d, long[] raw, DType promoted) {
    if (d.isComplex()) {
      DType c = d.componentType();
      return new C(Scalars.floating(c, raw[0]), Scalars.floating(c, raw[1]));
    }
    return new C(Scalars.toFloating(d, raw[0], promoted.componentType()), 0.0);
  }

  /** Whether a stored element equals the expected value (NaN matching any NaN, -0.0 exact). */
  private static boolean matches(DType result, Object want, long[] actual) {
    if (result == DType.BOOL) {
      return ((Boolean) want ? 1 : 0) == (Scalars.integral(DType.BOOL, actual[0]));
    }
    C w = (C) want;
    DType comp = result.componentType();
    return sameComponent(comp, w.re, actual[0]) && sameComponent(comp, w.im, actual[1]);
  }

  private static boolean sameComponent(DType comp, double want, long actualRaw) {
    double got = Scalars.floating(comp, actualRaw);
    if (Double.isNaN(want) || Double.isNaN(got)) {
      return Double.isNaN(want) && Double.isNaN(got);
    }
    long wantRaw = Scalars.storeFloating(comp, want);
    long mask = comp.byteSize() == 8 ? -1L : (1L << (8 * comp.byteSize())) - 1;
    return (wantRaw & mask) == (actualRaw & mask);
  }

  private static String show(DType d, long[] raw) {
    if (d.isComplex()) {
      return operand(d, raw, d).toString();
    }
    return d.isFloatingPoint()
        ? String.valueOf(Scalars.floating(d, raw[0]))
        : String.valueOf(Scalars.integral(d, raw[0]));
  }

  private static void checkEntry(ElementwiseOp op, int entry) {
    Reference ref = REFERENCES.get(KernelConformanceTest.id(op));
    ElementwiseKernel kernel = op.kernel(entry);
    List<DType> inputs = op.entryInputs(entry);
    List<List<long[]>> pools = inputs.stream().map(ComplexKernelTest::edges).toList();
    int pairs = 1;
    for (int k = 0; k < Math.min(2, pools.size()); k++) {
      pairs *= pools.get(k).size();
    }
    // One set of values per scalar parameter count (axpby has two).
    int nScalars = op.scalarParams().size();
    List<double[]> scalarSets = nScalars == 0
        ? List.of(new double[0])
        : List.of(java.util.Arrays.copyOf(new double[] {2.5, -1.25}, nScalars),
            java.util.Arrays.copyOf(new double[] {-0.75, 3.0}, nScalars));
    for (double[] scalars : scalarSets) {
      for (KernelConformanceTest.Layout layout : KernelConformanceTest.layouts(inputs.size(), pairs)) {
        checkLayout(op, entry, ref, kernel, layout, pools, scalars);
      }
    }
  }

  private static void checkLayout(ElementwiseOp op, int entry, Reference ref,
      ElementwiseKernel kernel, KernelConformanceTest.Layout layout, List<List<long[]>> pools,
      double[] scalars) {
    List<DType> inputs = op.entryInputs(entry);
    DType promoted = op.entryPromoted(entry);
    DType result = op.entryResult(entry);
    Arith arith = new Arith(op.entryCompute(entry) == DType.COMPLEX64);
    long[] shape = layout.shape();
    int rank = shape.length;
    Random random = new Random(7 + entry);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment[] segs = new MemorySegment[inputs.size() + 1];
      long[] offsets = new long[segs.length];
      long[] strides = new long[segs.length * rank];
      for (int k = 0; k < segs.length; k++) {
        KernelConformanceTest.View v = layout.views()[k];
        DType d = k == 0 ? result : inputs.get(k - 1);
        long size = v.size(shape);
        segs[k] = arena.allocate(size * d.byteSize(), 64);
        offsets[k] = v.offset();
        System.arraycopy(v.strides(), 0, strides, k * rank, rank);
        if (k == 0) {
          segs[k].fill((byte) 0x5A);
          continue;
        }
        List<long[]> pool = pools.get(k - 1);
        for (long j = 0; j < size; j++) {
          long[] raw;
          if (layout.allPairs() && j < pairs(pools)) {
            long div = 1;
            for (int q = 0; q < k - 1 && q < 2; q++) {
              div *= pools.get(q).size();
            }
            raw = pool.get((int) ((j / div) % pool.size()));
          } else if (j % 3 == 0) {
            raw = pool.get((int) ((j * 5 + k) % pool.size()));
          } else {
            raw = random(d, random);
          }
          write(segs[k], d, j, raw);
        }
      }
      long total = Arrays.stream(shape).reduce(1, (x, y) -> x * y);
      Object[] expected = new Object[(int) total];
      long[][][] raws = new long[(int) total][][];
      long[] index = new long[rank];
      for (int e = 0; e < total; e++) {
        C[] values = new C[inputs.size()];
        raws[e] = new long[inputs.size()][];
        for (int k = 0; k < values.length; k++) {
          raws[e][k] = read(segs[k + 1], inputs.get(k), layout.views()[k + 1].at(index));
          values[k] = operand(inputs.get(k), raws[e][k], promoted);
        }
        expected[e] = ref.eval(arith, values, scalars);
        KernelConformanceTest.increment(index, shape);
      }
      kernel.run(rank, shape, segs, offsets, strides, scalars,
          Arrays.stream(scalars).mapToLong(x -> (long) x).toArray());
      Arrays.fill(index, 0);
      long outSize = layout.views()[0].size(shape);
      boolean[] written = new boolean[(int) outSize];
      for (int e = 0; e < total; e++) {
        long at = layout.views()[0].at(index);
        written[(int) at] = true;
        long[] actual = read(segs[0], result, at);
        if (!matches(result, expected[e], actual)) {
          StringBuilder in = new StringBuilder();
          for (int k = 0; k < inputs.size(); k++) {
            in.append(k > 0 ? ", " : "").append(show(inputs.get(k), raws[e][k]));
          }
          fail(KernelConformanceTest.id(op) + inputs + " " + layout.name() + " scalars "
              + Arrays.toString(scalars) + " at " + Arrays.toString(index) + ": inputs " + in
              + " expected " + expected[e] + " got " + show(result, actual));
        }
        KernelConformanceTest.increment(index, shape);
      }
      long bytes = result.byteSize();
      for (int j = 0; j < written.length; j++) {
        if (!written[j]) {
          for (long b = 0; b < bytes; b++) {
            assertEquals((byte) 0x5A, segs[0].get(java.lang.foreign.ValueLayout.JAVA_BYTE,
                j * bytes + b), KernelConformanceTest.id(op) + inputs + " " + layout.name()
                + ": wrote outside the output view at " + j);
          }
        }
      }
    }
  }

  private static long pairs(List<List<long[]>> pools) {
    long p = 1;
    for (int k = 0; k < Math.min(2, pools.size()); k++) {
      p *= pools.get(k).size();
    }
    return p;
  }

  // ----------------------------------------------------------------------------- division

  /**
   * On well-scaled operands the division algorithm agrees with the textbook formula {@code ((ac +
   * bd) + (bc - ad)i) / (c² + d²)} (evaluated here in double, or in BigDecimal for complex128)
   * within a few units of the result's magnitude: 4 ulps of |q| for complex64, 4 for complex128.
   */
  @Test
  void divisionAgreesWithTheTextbookFormulaOnWellScaledValues() {
    for (DType dtype : List.of(DType.COMPLEX64, DType.COMPLEX128)) {
      int entry = Samples_div.OP.entry(dtype, dtype);
      ElementwiseKernel kernel = Samples_div.OP.kernel(entry);
      int n = 4099;
      Random random = new Random(11);
      boolean single = dtype == DType.COMPLEX64;
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment[] segs = new MemorySegment[3];
        for (int k = 0; k < 3; k++) {
          segs[k] = arena.allocate(n * dtype.byteSize(), 64);
        }
        for (int k = 1; k < 3; k++) {
          for (int j = 0; j < 2 * n; j++) {
            double x = random.nextGaussian() * Math.pow(10, random.nextInt(7) - 3);
            if (single) {
              segs[k].setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, j, (float) x);
            } else {
              segs[k].setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, j, x);
            }
          }
        }
        kernel.run(1, new long[] {n}, segs, new long[3], new long[] {1, 1, 1}, new double[0],
            new long[0]);
        double worst = 0;
        for (int j = 0; j < n; j++) {
          double[] v = new double[6];
          for (int k = 0; k < 3; k++) {
            for (int part = 0; part < 2; part++) {
              v[2 * k + part] = single
                  ? segs[k].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 2 * j + part)
                  : segs[k].getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 2 * j + part);
            }
          }
          double[] exact = textbook(v[2], v[3], v[4], v[5]);
          double magnitude = Math.hypot(exact[0], exact[1]);
          double error = Math.hypot(v[0] - exact[0], v[1] - exact[1]);
          double ulp = single ? Math.ulp((float) magnitude) : Math.ulp(magnitude);
          worst = Math.max(worst, error / ulp);
        }
        assertTrue(worst <= 4, dtype + ": worst error " + worst + " ulps of |q|");
      }
    }
  }

  /** (a + bi) / (c + di) by the textbook formula, in exact decimal arithmetic then rounded. */
  private static double[] textbook(double a, double b, double c, double d) {
    java.math.BigDecimal ba = new java.math.BigDecimal(a);
    java.math.BigDecimal bb = new java.math.BigDecimal(b);
    java.math.BigDecimal bc = new java.math.BigDecimal(c);
    java.math.BigDecimal bd = new java.math.BigDecimal(d);
    java.math.BigDecimal den = bc.multiply(bc).add(bd.multiply(bd));
    java.math.MathContext mc = java.math.MathContext.DECIMAL128;
    return new double[] {
        ba.multiply(bc).add(bb.multiply(bd)).divide(den, mc).doubleValue(),
        bb.multiply(bc).subtract(ba.multiply(bd)).divide(den, mc).doubleValue()};
  }
}
