package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.dtype.DType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ufunc methods' own rules, beside the NumPy/PyTorch goldens ({@link UfuncGoldenTest}): the
 * documented pairwise tree bit for bit, add's reductions as sum's, the refusals and that they
 * write nothing.
 */
class BinaryUfuncTest {

  @Test
  void fieldsStandBesideTheMethodsAndDescribeTheOp() {
    assertEquals("add", Ops.add.name());
    assertEquals(Identity.ZERO, Ops.add.identity());
    assertTrue(Ops.add.isAssociative());
    assertEquals(Identity.MINUS_ONE, Ops.bitwiseAnd.identity());
    assertEquals(Identity.LOWEST, Ops.maximum.identity());
    assertEquals(Identity.NONE, Ops.sub.identity());
    assertTrue(!Ops.sub.isAssociative());
    Tensor a = Tensor.of(new float[] {1, 2}, 2);
    assertTrue(Ops.add(a, a).equal(Tensor.of(new float[] {2, 4}, 2)), "Ops.add(a, b) still adds");
  }

  /**
   * docs/ufuncs.md's tree, computed here with scalar float multiplications: per level adjacent
   * pairs; an odd level sets its last element aside; the set-aside ones join at the end, latest
   * first.
   */
  @Test
  void associativeReductionFollowsTheDocumentedTreeBitForBit() {
    for (int n : new int[] {1, 2, 3, 5, 7, 13, 64, 100, 1001, 5000}) {
      Tensor x = Tensor.rand(n, DType.FLOAT32, n).mul(0.02).add(0.99);
      float[] v = x.toFloatArray();
      float want = documentedTree(v);
      float got = Ops.mul.reduce(x).toFloatArray()[0];
      assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got), "n = " + n);
      // The same along dim 1 of [3, n], each row its own tree.
      Tensor m = Tensor.rand(n + 1, DType.FLOAT32, 3, n).mul(0.02).add(0.99);
      float[] rows = Ops.mul.reduce(m, 1).toFloatArray();
      for (int r = 0; r < 3; r++) {
        float[] row = m.select(0, r).contiguous().toFloatArray();
        assertEquals(Float.floatToIntBits(documentedTree(row)), Float.floatToIntBits(rows[r]),
            "row " + r + " of n = " + n);
      }
    }
  }

  /**
   * The tree of docs/reductions.md for a contiguous run, with {@code mul} for the add and, as
   * docs/ufuncs.md says for ops other than add, accumulators that start as the first element they
   * receive (a user's op may have no identity), the halves skipping accumulators no element reached.
   */
  private static float documentedTree(float[] v) {
    return run(v, 0, v.length);
  }

  private static float run(float[] v, int off, int n) {
    if (n > 2048) {
      int mid = Math.max(1, (n / 2048) / 2) * 2048;
      return run(v, off, mid) * run(v, off + mid, n - mid);
    }
    Float[] acc = new Float[64];
    for (int i = 0; i < n; i++) {
      acc[i % 64] = acc[i % 64] == null ? v[off + i] : acc[i % 64] * v[off + i];
    }
    for (int h = 32; h >= 1; h /= 2) {
      for (int j = 0; j < h; j++) {
        if (acc[j + h] != null) {
          acc[j] = acc[j] * acc[j + h];
        }
      }
    }
    return acc[0];
  }

  /**
   * The generated fold and scan loops of each (T, T) entry are that entry's own (docs/ufuncs.md,
   * "Generated kernels"): while an int64 kernel shared its class with the float64 one, the lookup
   * for int64 returned that class's float64 loops, and {@code Ops.mul.reduce} of int64 gave 0.
   * The integral entries have loops of their own now (a class each); bool and float16 none.
   */
  @Test
  void foldLoopsAreTheEntriesOwn() {
    for (DType t : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT64, DType.INT32}) {
      assertTrue(Builtins_add.OP.foldKernel(t) != null, "add " + t);
      assertTrue(Builtins_sub.OP.foldKernel(t) != null, "sub " + t);
    }
    assertTrue(Builtins_mul.OP.foldKernel(DType.INT64) != Builtins_mul.OP.foldKernel(DType.FLOAT64));
    for (DType t : new DType[] {DType.BOOL, DType.FLOAT16}) {
      assertEquals(null, Builtins_mul.OP.foldKernel(t), "mul " + t);
    }
    assertEquals(null, Builtins_lt.OP.foldKernel(DType.FLOAT32), "a predicate does not fold");
    assertEquals(720L, Ops.mul.reduce(Tensor.of(new long[] {1, 2, 3, 4, 5, 6}, 6)).getLong());
    // The scan loop, vectorised across columns and for one column.
    Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
    assertTrue(Ops.sub.accumulate(x, 0).equal(Tensor.of(new float[] {1, 2, -2, -2, -7, -8}, 3, 2)));
    assertTrue(Ops.sub.accumulate(x, 1).equal(Tensor.of(new float[] {1, -1, 3, -1, 5, -1}, 3, 2)));
  }

  @Test
  void nonAssociativeReductionIsTheStrictLeftFold() {
    Tensor x = Tensor.rand(3, DType.FLOAT64, 4, 9);
    double[] got = Ops.sub.reduce(x, 1).toDoubleArray();
    for (int r = 0; r < 4; r++) {
      double acc = x.getDouble(r, 0);
      for (int i = 1; i < 9; i++) {
        acc = acc - x.getDouble(r, i);
      }
      assertEquals(acc, got[r], 0.0);
    }
  }

  @Test
  void addReductionsAreSumsBitForBit() {
    Tensor x = Tensor.randn(5, DType.FLOAT32, 37, 129);
    assertTrue(Ops.add.reduce(x).equal(x.sum()));
    assertTrue(Ops.add.reduce(x, 1).equal(x.sum(1)));
    assertTrue(Ops.add.reduce(x.to(DType.FLOAT16), new int[] {0}, true)
        .equal(x.to(DType.FLOAT16).sum(new int[] {0}, true)));
  }

  /** Views with a storage offset (narrow, select, slices) reduce their own elements. */
  @Test
  void reductionsOfOffsetViewsReadTheirOwnElements() {
    Tensor a = Tensor.arange(14).view(2, 7);
    assertEquals(7, Ops.add.reduce(a.view(14).narrow(0, 3, 2)).getLong());
    assertTrue(Ops.add.reduce(a.narrow(1, 2, 3), 1).equal(Tensor.of(new long[] {9, 30}, 2)));
    assertEquals(7L * 8 * 9 * 10 * 11 * 12 * 13, Ops.mul.reduce(a.select(0, 1)).getLong());
    assertEquals(2 + Math.log(1 + Math.exp(-1)),
        a.narrow(1, 1, 2).to(DType.FLOAT64).logsumexp(new int[] {1}, false).getDouble(0), 1e-12);
  }

  @Test
  void refusalsNameTheOpAndWriteNothing() {
    Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Tensor out = Tensor.full(DType.FLOAT32, 7.0, 3);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Ops.sub.reduce(x, null, false,
        Tensor.zeros(DType.FLOAT32))).getMessage().contains("'sub' is not reorderable"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Ops.sub.reduce(Tensor.zeros(DType.FLOAT32, 0))).getMessage()
        .contains("zero-size array to reduction operation sub which has no identity"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Ops.mul.reduce(x, 0, Tensor.zeros(DType.FLOAT32, 2))).getMessage()
        .contains("out has shape [2] but the result has shape [3]"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Ops.mul.reduce(x, 0, Tensor.zeros(DType.INT32, 3))).getMessage()
        .contains("result type float32 can't be cast to the desired output type int32"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Ops.eq.reduce(Tensor.of(new int[] {1, 2}, 2))).getMessage()
        .contains("the resolved dtypes are not compatible with reduce"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Ops.sub.reduce(Tensor.of(new boolean[] {true, false}, 2))).getMessage()
        .contains("Subtraction (sub()) with two bool tensors is not supported"));
    Ops.mul.reduce(x, 0, out);
    assertTrue(out.equal(Tensor.of(new float[] {4, 10, 18}, 3)));
  }

  @Test
  void atAppliesRepeatedIndicesEveryTimeAndRefusesBeforeWriting() {
    Tensor t = Tensor.of(new int[] {1, 2, 3, 4}, 4);
    Ops.add.at(t, Tensor.of(new long[] {0, 0, -1, 0}, 4), Tensor.of(new int[] {10, 20, 30, 40}, 4));
    assertTrue(t.equal(Tensor.of(new int[] {71, 2, 3, 34}, 4)));
    Tensor before = t.copy();
    assertThrows(IndexOutOfBoundsException.class,
        () -> Ops.add.at(t, Tensor.of(new long[] {0, 4}, 2), Tensor.of(new int[] {1, 1}, 2)));
    assertTrue(t.equal(before), "an out-of-range index writes nothing");
    // Integer division by zero at the third index: the first two are not kept either.
    assertThrows(ArithmeticException.class, () -> Ops.floorDivide.at(t,
        Tensor.of(new long[] {0, 1, 2}, 3), Tensor.of(new int[] {2, 2, 0}, 3)));
    assertTrue(t.equal(before), "a failure midway writes nothing");
    assertThrows(IllegalArgumentException.class,
        () -> Ops.add.at(t, Tensor.of(new long[] {0}, 1), Tensor.of(new float[] {0.5f}, 1)));
    assertTrue(t.equal(before));
  }

  /** A zero-dim index selects one slice, and values then lack the dim (NumPy's a[i]). */
  @Test
  void atWithAZeroDimIndexAndAlongAnotherDim() {
    Tensor t = Tensor.zeros(DType.INT64, 2, 3);
    Ops.add.at(t, 1, Tensor.scalar(-1L), Tensor.of(new long[] {5, 7}, 2));
    assertTrue(t.equal(Tensor.of(new long[] {0, 0, 5, 0, 0, 7}, 2, 3)));
    Ops.maximum.at(t, 0, Tensor.of(new int[] {1, 1}, 2), Tensor.of(new long[] {9, 1, 3, 2, 8, 4}, 2, 3));
    assertTrue(t.equal(Tensor.of(new long[] {0, 0, 5, 9, 8, 7}, 2, 3)));
    assertThrows(IllegalArgumentException.class, () -> Ops.add.at(t, 0,
        Tensor.of(new float[] {0}, 1), Tensor.ones(DType.INT64, 1, 3)));
    assertThrows(IllegalArgumentException.class, () -> Ops.add.at(t, 0,
        Tensor.of(new long[] {0}, 1), Tensor.ones(DType.INT64, 2, 3)));
  }

  /** out= of accumulate and reduceAt: converted into the target, which keeps its shape. */
  @Test
  void accumulateAndReduceAtWriteOut() {
    Tensor x = Tensor.of(new int[] {1, 2, 3, 4, 5, 6}, 6);
    Tensor out = Tensor.zeros(DType.FLOAT64, 6);
    assertSame(out, Ops.add.accumulate(x, 0, out));
    assertTrue(out.equal(Tensor.of(new double[] {1, 3, 6, 10, 15, 21}, 6)));
    Tensor seg = Tensor.zeros(DType.INT64, 3);
    assertSame(seg, Ops.mul.reduceAt(x, Tensor.of(new long[] {0, 3, 1}, 3), 0, seg));
    assertTrue(seg.equal(Tensor.of(new long[] {6, 4, 2 * 3 * 4 * 5 * 6}, 3)));
    Tensor kept = Tensor.zeros(DType.INT64, 1);
    Ops.add.reduce(x, new int[] {0}, true, kept);
    assertEquals(21, kept.getLong(0));
    Tensor before = seg.copy();
    assertThrows(IndexOutOfBoundsException.class,
        () -> Ops.mul.reduceAt(x, Tensor.of(new long[] {0, -1, 2}, 3), 0, seg));
    assertTrue(seg.equal(before));
  }

  @Test
  void emptyExtentsGiveTheIdentity() {
    Tensor e = Tensor.zeros(DType.FLOAT32, 2, 0);
    assertTrue(Ops.maximum.reduce(e, 1).equal(Tensor.full(DType.FLOAT32, Double.NEGATIVE_INFINITY, 2)));
    assertTrue(Ops.minimum.reduce(e.to(DType.INT8), 1).equal(Tensor.full(DType.INT8, 127L, 2)));
    assertTrue(Ops.bitwiseAnd.reduce(Tensor.zeros(DType.UINT8, 0)).equal(
        Tensor.full(DType.UINT8, 255L)));
    assertTrue(Ops.mul.reduce(e).equal(Tensor.ones(DType.FLOAT32)));
  }

  @Test
  void outerHasTheShapesOfBoth() {
    Tensor a = Tensor.of(new long[] {1, 2, 3}, 3);
    Tensor b = Tensor.of(new long[] {10, 20, 30, 40}, 2, 2);
    Tensor o = Ops.mul.outer(a, b);
    assertEquals(List.of(3L, 2L, 2L), List.of(o.size(0), o.size(1), o.size(2)));
    assertEquals(120, o.getLong(2, 1, 1));
    Tensor out = Tensor.zeros(DType.INT64, 3, 2, 2);
    assertSame(out, Ops.mul.outer(a, b, out));
  }

  /** The README's "Ufunc methods" example, value by value. */
  @Test
  void readmeExample() {
    Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    assertTrue(Ops.mul.reduce(x, 1).equal(Tensor.of(new float[] {6, 120}, 2)));
    assertTrue(Ops.maximum.accumulate(x, 0).equal(x));
    Tensor d = Ops.sub.outer(x.select(0, 0), x.select(0, 1));
    assertEquals(List.of(3L, 3L), List.of(d.size(0), d.size(1)));
    assertEquals(-5, d.getDouble(0, 2));
    Tensor t = Tensor.zeros(DType.FLOAT32, 3);
    Ops.add.at(t, Tensor.of(new int[] {0, 2, 0}, 3), Tensor.of(new float[] {1, 2, 3}, 3));
    assertTrue(t.equal(Tensor.of(new float[] {4, 0, 2}, 3)));
    assertTrue(x.cumsum(1).equal(Tensor.of(new float[] {1, 3, 6, 4, 9, 15}, 2, 3)));
    assertEquals(720, x.prod().getDouble());
    assertTrue(x.any().getBoolean() && x.all(0, false).all().getBoolean());
  }

  @Test
  void logsumexpShiftsByTheMaximum() {
    Tensor x = Tensor.of(new float[] {1000, 1000, Float.NEGATIVE_INFINITY,
        Float.NEGATIVE_INFINITY}, 2, 2);
    Tensor r = x.logsumexp(new int[] {1}, false);
    assertEquals(1000 + Math.log(2), r.getDouble(0), 1e-3);
    assertEquals(Double.NEGATIVE_INFINITY, r.getDouble(1));
  }
}
