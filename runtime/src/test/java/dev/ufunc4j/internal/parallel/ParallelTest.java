package dev.ufunc4j.internal.parallel;

import dev.ufunc4j.internal.RuntimeContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The team hand-off of {@link Parallel}: every share runs exactly once whoever claims it, failures
 * reach the caller, a nested or concurrent split runs on its caller's thread, and the caller
 * finishes the work alone when the workers are slow to come.
 */
class ParallelTest {
  private RuntimeContext.Installed twoThreads;

  @BeforeEach
  void twoThreads() {
    twoThreads = RuntimeContext.use(RuntimeContext.builder().threads(2).build());
  }

  @AfterEach
  void restore() {
    twoThreads.close();
  }

  @Test
  void everyShareRunsOnceAcrossManyJobs() {
    for (int job = 0; job < 2000; job++) {
      int count = 1 + job % 7;
      AtomicIntegerArray runs = new AtomicIntegerArray(count);
      Parallel.forEachShare(count, count, (from, to) -> {
        for (long i = from; i < to; i++) {
          runs.incrementAndGet((int) i);
        }
      });
      for (int i = 0; i < count; i++) {
        assertEquals(1, runs.get(i), "job " + job + ", index " + i);
      }
    }
  }

  @Test
  void aFailingShareReachesTheCallerAndTheTeamStaysUsable() {
    IllegalArgumentException boom = new IllegalArgumentException("boom");
    for (int k = 0; k < 50; k++) {
      int failing = k % 2;
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
          Parallel.forEachShare(2, 2, (from, to) -> {
            if (from == failing) {
              throw boom;
            }
          }));
      assertSame(boom, e);
    }
    AtomicIntegerArray runs = new AtomicIntegerArray(2);
    Parallel.forEachShare(2, 2, (from, to) -> runs.incrementAndGet((int) from));
    assertEquals(1, runs.get(0));
    assertEquals(1, runs.get(1));
  }

  @Test
  void nestedAndConcurrentSplitsRunOnTheirCallersThreads() throws Exception {
    ConcurrentHashMap<Long, Integer> inner = new ConcurrentHashMap<>();
    Parallel.forEachShare(2, 2, (from, to) ->
        Parallel.forEachShare(4, 4, (f, t) -> inner.merge(from * 10 + f, 1, Integer::sum)));
    assertEquals(8, inner.size(), inner.toString());
    inner.values().forEach(v -> assertEquals(1, v));

    List<Thread> callers = new ArrayList<>();
    long[] sums = new long[4];
    for (int c = 0; c < sums.length; c++) {
      int me = c;
      callers.add(Thread.ofPlatform().start(() -> {
        for (int job = 0; job < 500; job++) {
          long[] parts = new long[3];
          Parallel.forEachShare(3, 3, (from, to) -> {
            for (long i = from; i < to; i++) {
              parts[(int) i] = i + 1;
            }
          });
          sums[me] += parts[0] + parts[1] + parts[2];
        }
      }));
    }
    for (Thread t : callers) {
      t.join();
    }
    for (long s : sums) {
      assertEquals(500 * 6, s);
    }
  }

  @Test
  void theCallerDoesNotWaitForABusyWorker() throws Exception {
    // A worker's share that cannot finish before all the others have: only the caller can run
    // them, so this returns only if the caller goes on claiming shares instead of waiting.
    for (int job = 0; job < 20; job++) {
      CountDownLatch others = new CountDownLatch(7);
      AtomicIntegerArray runs = new AtomicIntegerArray(8);
      AtomicInteger blocked = new AtomicInteger();
      Thread caller = Thread.currentThread();
      Parallel.forEachShare(8, 8, (from, to) -> {
        if (Thread.currentThread() != caller && blocked.compareAndSet(0, 1)) {
          await(others);
        } else {
          others.countDown();
        }
        runs.incrementAndGet((int) from);
      });
      for (int i = 0; i < 8; i++) {
        assertEquals(1, runs.get(i), "job " + job + ", share " + i);
      }
    }
  }

  /**
   * The caller claims shares from the front and the workers from the back, so that in a loop each
   * thread keeps doing the same shares (and finds their memory in its own cache): the caller's
   * shares are always a prefix, the workers' the rest.
   */
  @Test
  void theCallerTakesSharesFromTheFrontAndWorkersFromTheBack() {
    Thread caller = Thread.currentThread();
    for (int job = 0; job < 50; job++) {
      boolean[] byCaller = new boolean[8];
      AtomicIntegerArray runs = new AtomicIntegerArray(8);
      Parallel.forEachShare(8, 8, (from, to) -> {
        byCaller[(int) from] = Thread.currentThread() == caller;
        runs.incrementAndGet((int) from);
        Thread.onSpinWait();
      });
      int prefix = 0;
      while (prefix < 8 && byCaller[prefix]) {
        prefix++;
      }
      for (int i = 0; i < 8; i++) {
        assertEquals(1, runs.get(i), "job " + job + ", share " + i);
        assertEquals(i < prefix, byCaller[i], "job " + job + ": shares by the caller "
            + java.util.Arrays.toString(byCaller) + " are not a prefix");
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("the caller waited for the worker instead of claiming shares");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
