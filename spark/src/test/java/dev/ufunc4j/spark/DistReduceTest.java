package dev.ufunc4j.spark;

import static dev.ufunc4j.spark.DistTensorTest.localMessage;
import static dev.ufunc4j.spark.DistTensorTest.refusedBeforeAnyJob;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.samples.ReducerOps;
import org.junit.jupiter.api.Test;

/**
 * Reductions across the cluster ({@link DistTensor#reduce} and the statistics on it) against the
 * same local call on the whole tensor (the oracle is ufunc4j's local call, itself checked against
 * NumPy and PyTorch by the runtime's goldens): exactly for the ops that are associative in
 * floating point too, within docs/scale-out.md's tolerance for the ones that are reassociated.
 * Runs Spark in local[2], with blocks of unequal size and more blocks than cores.
 */
class DistReduceTest extends SparkTestSession {

  /** docs/scale-out.md's tolerance for reassociated float32 reductions of a few thousand values. */
  private static final double RTOL = 1e-5;

  private static boolean close(Tensor dist, Tensor local) {
    assertEquals(local.dtype(), dist.dtype());
    assertArrayEquals(local.shape(), dist.shape());
    return dist.allClose(local, RTOL, RTOL, false);
  }

  @Test
  void exactOpsGiveTheLocalResultBitForBit() {
    Tensor x = Tensor.randn(31, DType.FLOAT32, 301, 6);
    DistTensor d = DistTensor.of(sc, x, 5);
    assertTrue(d.reduce(Ops.maximum, 0).equal(Ops.maximum.reduce(x, 0)));
    assertTrue(d.reduce(Ops.minimum).equal(Ops.minimum.reduce(x)));
    assertTrue(d.amax(0).equal(x.amax(0)));
    assertTrue(d.amin(new int[] {0, 1}, true).equal(x.amin(new int[] {0, 1}, true)));
    assertTrue(d.amax().equal(x.amax()));
    Tensor nan = x.copy();
    nan.setDouble(Double.NaN, 200, 5); // a NaN propagates, as locally
    Tensor m = DistTensor.of(sc, nan, 5).reduce(Ops.maximum, 0);
    assertTrue(Double.isNaN(m.getDouble(5)));
    assertTrue(m.narrow(0, 0, 5).equal(nan.amax(0).narrow(0, 0, 5)));
    Tensor ints = Tensor.randint(32, -3, 4, DType.INT32, 77, 3);
    DistTensor di = DistTensor.of(sc, ints, 4);
    assertTrue(di.prod(0).equal(ints.prod(0, false))); // int64, wraps the same in any order
    assertTrue(di.reduce(Ops.add, 0, 1).equal(ints.sum()));
    assertTrue(di.reduce(Ops.bitwiseXor, 0).equal(Ops.bitwiseXor.reduce(ints, 0)));
    Tensor mask = Ops.gt(x, 1.5);
    DistTensor dm = DistTensor.of(sc, mask, 3);
    assertTrue(dm.any().equal(mask.any()));
    assertTrue(dm.all(0).equal(mask.all(0, false)));
    assertTrue(d.any(0, 1).equal(x.any())); // float input: its truth values
    assertTrue(DistTensor.of(sc, Ops.gt(x, -10.0), 3).all().equal(Ops.gt(x, -10.0).all()));
  }

  @Test
  void reassociatedOpsAreWithinTheDocumentedTolerance() {
    Tensor x = Tensor.rand(33, DType.FLOAT32, 997, 4).mul(0.02).add(0.99); // products near 1
    DistTensor d = DistTensor.of(sc, x, 6);
    assertTrue(close(d.prod(0), x.prod(0, false)));
    assertTrue(close(d.reduce(Ops.mul, new int[] {0}, true), Ops.mul.reduce(x, new int[] {0}, true)));
    Tensor y = Tensor.randn(34, DType.FLOAT32, 997, 4).mul(10);
    DistTensor dy = DistTensor.of(sc, y, 6);
    assertTrue(close(dy.mean(0), y.mean(0)));
    assertTrue(close(dy.mean(), y.mean()));
    assertTrue(close(dy.mean(new int[] {0}, true), y.mean(new int[] {0}, true)));
    assertTrue(close(dy.logsumexp(new int[] {0}, false), y.logsumexp(new int[] {0}, false)));
    assertTrue(close(dy.logsumexp(new int[] {0, 1}, true), y.logsumexp(new int[] {0, 1}, true)));
    // a user's associative op from another module, shipped to the executors by its facade field
    Tensor z = Tensor.randn(35, DType.FLOAT64, 500, 3).mul(5);
    DistTensor dz = DistTensor.of(sc, z, 4);
    assertTrue(dz.reduce(ReducerOps.logAddExp, 0).allClose(ReducerOps.logAddExp.reduce(z, 0),
        1e-12, 1e-12, false));
  }

  @Test
  void varAndStdCombineTheBlocksMomentsByChan() {
    // an offset far from zero: a sum-of-squares formula would cancel, Chan's does not
    Tensor x = Tensor.randn(36, DType.FLOAT32, 1003, 5).mul(3).add(1000);
    DistTensor d = DistTensor.of(sc, x, 7);
    assertTrue(close(d.var(new int[] {0}, 1, false), x.var(new int[] {0}, 1, false)));
    assertTrue(close(d.std(new int[] {0}, 1, true), x.std(new int[] {0}, 1, true)));
    assertTrue(close(d.var(null, 0, false), x.var(null, 0, false)));
    assertTrue(close(d.std(new int[] {0, 1}, 2.5, false), x.std(new int[] {0, 1}, 2.5, false)));
    Tensor f64 = Tensor.randn(37, DType.FLOAT64, 64, 2);
    assertTrue(DistTensor.of(sc, f64, 3).var(new int[] {0}, 1, false)
        .allClose(f64.var(new int[] {0}, 1, false), 1e-12, 1e-12, false));
    // more correction than elements: inf, as the local call
    Tensor two = Tensor.randn(38, DType.FLOAT32, 2, 1);
    assertTrue(DistTensor.of(sc, two, 2).var(null, 3, false).equal(two.var(null, 3, false)));
  }

  @Test
  void float16ReductionsCarryFloat32AsTheLocalOnes() {
    Tensor x = Tensor.rand(39, DType.FLOAT32, 400, 2).mul(0.1).add(0.97).to(DType.FLOAT16);
    DistTensor d = DistTensor.of(sc, x, 4);
    Tensor local = x.prod(0, false);
    Tensor dist = d.prod(0);
    assertEquals(DType.FLOAT16, dist.dtype());
    assertTrue(dist.allClose(local, 1e-3, 1e-3, false), dist + " vs " + local);
    assertTrue(d.mean(0).allClose(x.mean(0), 1e-3, 1e-3, false));
  }

  @Test
  void refusalsBeforeAnyJob() {
    Tensor x = Tensor.randn(40, DType.FLOAT32, 50, 3);
    DistTensor d = DistTensor.of(sc, x, 3);
    IllegalArgumentException e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> d.reduce(Ops.sub, 0));
    assertTrue(e.getMessage().startsWith("DistTensor.reduce: sub is not declared associative"),
        e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> d.reduce(ReducerOps.ema, 0));
    assertTrue(e.getMessage().contains("ema is not declared associative"), e.getMessage());
    e = refusedBeforeAnyJob(IllegalArgumentException.class, () -> d.amax(1));
    assertTrue(e.getMessage().contains("do not include the sharded dimension 0"), e.getMessage());
    RuntimeException range = refusedBeforeAnyJob(RuntimeException.class, () -> d.prod(2));
    assertEquals(localMessage(() -> x.prod(2, false)),
        range.getClass().getName() + ": " + range.getMessage());
    Tensor ints = Tensor.randint(41, 0, 5, DType.INT32, 10, 2);
    RuntimeException mean = refusedBeforeAnyJob(RuntimeException.class,
        () -> DistTensor.of(sc, ints, 2).mean(0));
    assertEquals(localMessage(() -> ints.mean(0)),
        mean.getClass().getName() + ": " + mean.getMessage());
    RuntimeException var = refusedBeforeAnyJob(RuntimeException.class,
        () -> d.var(new int[] {0}, -1, false));
    assertEquals(localMessage(() -> x.var(new int[] {0}, -1, false)),
        var.getClass().getName() + ": " + var.getMessage());
  }
}
