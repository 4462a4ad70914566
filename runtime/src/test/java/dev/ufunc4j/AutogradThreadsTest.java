package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Autograd used from several threads (issue 23 item 4), as PyTorch allows: graphs built and run
 * on their own threads that end in a shared leaf, the per-thread grad mode, and the per-storage
 * version counter made lazily while threads make views. Expected values are exact sums worked
 * out by hand (integers in float64).
 */
class AutogradThreadsTest {

  private static final int THREADS = 8;

  /** Runs {@code body(thread)} on {@link #THREADS} threads started together; rethrows failures. */
  private static void onThreads(ThreadBody body) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          body.run(thread);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @FunctionalInterface
  private interface ThreadBody {
    void run(int thread) throws Exception;
  }

  @Test
  void backwardsOnManyThreadsIntoOneLeafLoseNothing() throws Exception {
    int n = 1 << 16; // an in-place add long enough for two threads' adds to meet
    int rounds = 40;
    Tensor x = Tensor.ones(DType.FLOAT64, n).requiresGrad(true);
    // Thread t runs (x * (t + 1)).sum().backward() `rounds` times: each adds t + 1 to every
    // element of x.grad, so the total is rounds * (1 + 2 + ... + THREADS) everywhere.
    onThreads(thread -> {
      for (int r = 0; r < rounds; r++) {
        x.mul(thread + 1.0).sum().backward();
      }
    });
    double expected = rounds * THREADS * (THREADS + 1) / 2.0;
    double[] grad = x.grad().toDoubleArray();
    int wrong = 0;
    for (double g : grad) {
      wrong += g == expected ? 0 : 1;
    }
    assertEquals(0, wrong, "elements of x.grad that are not " + expected + " (e.g. " + grad[0]
        + ")");
  }

  @Test
  void setGradRefusesTheTensorItselfAndMemoryItShares() {
    Tensor x = Tensor.of(new double[] {1, 2}).requiresGrad(true);
    IllegalArgumentException self =
        assertThrows(IllegalArgumentException.class, () -> x.setGrad(x));
    assertEquals("can't assign Variable as its own grad", self.getMessage());
    IllegalArgumentException alias =
        assertThrows(IllegalArgumentException.class, () -> x.setGrad(x.detach()));
    assertTrue(alias.getMessage().contains("shares memory with the tensor"), alias.getMessage());
    // Nothing was assigned, and a backward adds into a gradient of its own, not into x.
    assertEquals(null, x.grad());
    x.mul(3.0).sum().backward();
    assertEquals(1.0, x.getDouble(0));
    assertEquals(3.0, x.grad().getDouble(0));
  }

  @Test
  void noGradClosedOnAnotherThreadIsRefusedAndKeepsTheRegion() throws Exception {
    Autograd.NoGrad region = Autograd.noGrad();
    try {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread other = new Thread(() -> {
        try {
          region.close();
        } catch (Throwable t) {
          thrown.set(t);
        }
      }, "closer");
      other.start();
      other.join();
      assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
      assertTrue(thrown.get().getMessage().contains("can only be closed on that thread"),
          thrown.get().getMessage());
      assertFalse(Autograd.isGradEnabled(), "the opener's region is still open");
    } finally {
      region.close();
    }
    assertTrue(Autograd.isGradEnabled());
  }

  @Test
  void viewsMadeAtOnceShareOneVersionCounter() throws Exception {
    // Two threads (the machine may have two cores) spin until both have arrived at a round,
    // then make the first views of that round's tensor: the lazily made counter is raced for.
    int rounds = 5000;
    Tensor[] bases = new Tensor[rounds];
    for (int r = 0; r < rounds; r++) {
      bases[r] = Tensor.zeros(DType.FLOAT32, 2);
    }
    Tensor[][] views = new Tensor[rounds][2];
    AtomicIntegerArray arrived = new AtomicIntegerArray(rounds);
    Thread[] racers = new Thread[2];
    AtomicReference<Throwable> failed = new AtomicReference<>();
    for (int t = 0; t < 2; t++) {
      int thread = t;
      racers[t] = new Thread(() -> {
        try {
          for (int r = 0; r < rounds; r++) {
            arrived.incrementAndGet(r);
            while (arrived.get(r) < 2) {
              Thread.onSpinWait();
            }
            views[r][thread] = bases[r].slice(0, thread, thread + 1, 1);
          }
        } catch (Throwable e) {
          failed.set(e);
        }
      });
      racers[t].start();
    }
    for (Thread t : racers) {
      t.join();
    }
    assertEquals(null, failed.get());
    int lost = 0;
    for (int r = 0; r < rounds; r++) {
      for (Tensor v : views[r]) {
        lost += v.versionCounter() == bases[r].versionCounter() ? 0 : 1;
      }
    }
    assertEquals(0, lost, "views whose writes the base's counter would not see");
    // And the one counter sees a write through any of them.
    int before = bases[0].versionCounter().value();
    try (var _ = Autograd.noGrad()) {
      views[0][1].addInPlace(1.0);
    }
    assertEquals(before + 1, views[0][0].versionCounter().value());
  }
}
