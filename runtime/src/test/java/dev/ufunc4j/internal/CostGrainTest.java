package dev.ufunc4j.internal;

import dev.ufunc4j.internal.parallel.Parallel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Compute-bound ops on all cores by default (issue 28, item 3): the processor writes a cost per
 * element into the descriptor of an op whose body calls transcendental functions, and the
 * dispatcher divides the runtime-wide grain by it, so exp, sigmoid, silu and tanh of 64K floats
 * split without a tuning profile while an add of 128K stays on the caller's thread. Observed by
 * {@link Parallel#splits} (no timing).
 */
class CostGrainTest {
  private static final Fingerprint HERE = Tunables.fingerprint();

  /** The defaults: a profile of this machine without records (no per-op grains). */
  private static Tunables defaults() {
    return Tunables.fromLines("defaults.jsonl",
        new TuningProfile(List.of(HERE), List.of()).toLines(), HERE,
        w -> {
          throw new AssertionError(w);
        }, n -> {}, op -> true);
  }

  @Test
  void transcendentalOpsSplitAtAQuarterOfTheGrainAddsAtTheGrain() {
    Tunables defaults = defaults();
    // A context of its own: these tunables' grain (no explicit grain), one thread, then two.
    try (var _ = RuntimeContext.use(RuntimeContext.builder().tunables(defaults).threads(1).build())) {
      assertEquals(Tunables.DEFAULT_GRAIN, Parallel.grainSize());
      Tensor x = Tensor.randn(1, DType.FLOAT32, 65536);
      Tensor y = Tensor.randn(2, DType.FLOAT32, 131072);
      List<Supplier<Tensor>> transcendental = List.of(
          () -> Ops.exp(x), () -> Ops.sigmoid(x), () -> Ops.silu(x), () -> Ops.tanh(x),
          () -> Ops.logaddexp(x, x.neg()));
      float[][] oneThread = transcendental.stream().map(s -> s.get().toFloatArray())
          .toArray(float[][]::new);

      try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build())) {
        for (int i = 0; i < transcendental.size(); i++) {
          long s0 = Parallel.splits();
          // Split or not, the same bits (each lane depends on its own operands only).
          assertArrayEquals(oneThread[i], transcendental.get(i).get().toFloatArray());
          assertEquals(s0 + 1, Parallel.splits(), "op " + i + " of 64K floats splits");
        }

        long s1 = Parallel.splits();
        Ops.add(y, y); // 128K elements, cost 1: under two grains of 128K
        Ops.mul(x, x);
        Ops.exp(x.narrow(0, 0, 65535)); // under two grains of 32K
        assertEquals(s1, Parallel.splits(), "add_128K and exp of 65,535 stay on one thread");

        // An explicit grain (-Dufunc4j.grain, setGrainSize) is every op's grain, costly or not.
        try (var _ = RuntimeContext.use(
            RuntimeContext.builder().grain(Tunables.DEFAULT_GRAIN).build())) {
          Ops.exp(x);
          assertEquals(s1, Parallel.splits(), "exp under an explicit grain of 128K");
          assertEquals(Tunables.DEFAULT_GRAIN, Parallel.grainFor(0, 4));
        }
      }
    }
  }

  @Test
  void grainForDividesTheRuntimeWideGrainByTheCost() {
    Tunables defaults = defaults();
    try (var _ = RuntimeContext.use(RuntimeContext.builder().tunables(defaults).build())) {
      long grain = Parallel.grainSize();
      assertEquals(grain, Parallel.grainFor(0, 1));
      assertEquals(grain / 4, Parallel.grainFor(0, 4));
      assertEquals(1000, Parallel.grainFor(1000, 4), "a tuned grain is the op's own");
      assertTrue(Parallel.grainFor(0, Integer.MAX_VALUE) >= 1);
    }
  }

  @Test
  void aCostOutsideOneToSixtyFourIsRefusedWithTheValue() {
    for (int bad : new int[] {0, -1, 65}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ElementwiseOp.builder("op", "x.Y").cost(bad));
      assertTrue(e.getMessage().contains("got " + bad), e.getMessage());
    }
  }
}
