package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.RuntimeContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * TensorScope's contract: nesting, use after close, other threads, reuse of the same memory, and
 * results still equal to the op's own scalar method ({@link Builtins}) when a scope's memory is
 * reused dirty or split across the runtime's worker threads.
 */
class TensorScopeTest {

  private static void assertClosedScope(Executable use) {
    IllegalStateException e = assertThrows(IllegalStateException.class, use);
    assertTrue(e.getMessage().contains("TensorScope that has been closed"), e.getMessage());
  }

  @Test
  void nestedScopesReclaimInnermostFirst() {
    TensorScope outer = TensorScope.open();
    Tensor a = Tensor.full(DType.FLOAT32, 1.5, 100);
    Tensor inner;
    try (var _ = TensorScope.open()) {
      inner = Tensor.full(DType.FLOAT32, 2.5, 100);
      assertEquals(4.0, a.add(inner).getDouble(99));
      assertThrows(IllegalStateException.class, outer::close, "the inner scope is still open");
    }
    assertClosedScope(() -> inner.getDouble(0));
    assertEquals(1.5, a.getDouble(99), "the outer scope's tensors outlive the inner scope");
    Tensor after = Tensor.full(DType.FLOAT32, 3.0, 100);
    assertEquals(4.5, a.add(after).getDouble(0));
    outer.close();
    assertClosedScope(() -> a.getDouble(0));
    assertClosedScope(() -> after.getDouble(0));
    outer.close(); // idempotent
    assertEquals(1.0, Tensor.ones(DType.FLOAT32, 3).getDouble(2), "GC-managed again");
  }

  @Test
  void useAfterCloseThrowsBeforeAnyWrite() {
    Tensor small;
    Tensor big;
    Tensor view;
    try (var _ = TensorScope.open()) {
      small = Tensor.ones(DType.INT32, 4);
      big = Tensor.ones(DType.FLOAT64, 1 << 20); // 8 MiB: a mapped block
      view = big.slice(0, 10, 20, 1);
    }
    assertClosedScope(() -> small.getLong(0));
    assertClosedScope(() -> small.setLong(7, 0));
    assertClosedScope(() -> big.getDouble(123_456));
    assertClosedScope(() -> view.getDouble(0));
    // An op reading or writing a closed scope's tensor fails (before writing: the target below is
    // a live tensor and stays as it was).
    Tensor live = Tensor.zeros(DType.INT32, 4);
    assertClosedScope(() -> Ops.add(small, small, live));
    assertEquals(0, live.getLong(0));
    assertClosedScope(() -> small.add(live));
    assertClosedScope(() -> Ops.add(live, live, small));
    assertClosedScope(() -> big.sum());
  }

  @Test
  void reductionsSplitAcrossWorkersReadScopeTensors() {
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build());
        var _ = TensorScope.open()) {
      int rows = 64;
      int cols = (int) (Parallel.grainSize() / 8); // rows x cols is 8 grains: the work is split
      Tensor x = Tensor.randn(3, DType.FLOAT64, rows, cols);
      double[] v = x.toDoubleArray();
      Tensor rowSums = x.sum(1);
      Tensor total = x.sum();
      // the same tree on one thread: the same bits (Reductions' rule)
      try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(1).build())) {
        assertEquals(x.sum().getDouble(), total.getDouble());
        assertEquals(x.sum(1).getDouble(rows - 1), rowSums.getDouble(rows - 1));
      }
      double plain = 0;
      for (int c = 0; c < cols; c++) {
        plain += v[(rows - 1) * cols + c];
      }
      assertEquals(plain, rowSums.getDouble(rows - 1), 1e-9 * cols);
    }
  }

  @Test
  void anotherThreadCannotHandAScopeTensorToTheWorkers() throws Exception {
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build());
        var _ = TensorScope.open()) {
      int n = (int) (4 * Parallel.grainSize());
      Tensor mine = Tensor.ones(DType.FLOAT32, n);
      Tensor theirs = CompletableFuture.supplyAsync(() -> Tensor.ones(DType.FLOAT32, n)).get();
      for (Executable use : new Executable[] {
          () -> join(CompletableFuture.runAsync(() -> mine.add(theirs))),
          () -> join(CompletableFuture.runAsync(() -> Ops.add(theirs, theirs, mine))),
          () -> join(CompletableFuture.runAsync(() -> mine.sum()))}) {
        WrongThreadException e = assertThrows(WrongThreadException.class, use);
        assertTrue(e.getMessage().contains("TensorScope of another thread"), e.getMessage());
      }
      assertEquals(1.0, mine.getDouble(n - 1), "untouched");
    }
  }

  @Test
  void parallelOpOnClosedScopeTargetIsRefused() {
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build())) {
      Tensor target;
      try (var _ = TensorScope.open()) {
        target = Tensor.zeros(DType.FLOAT32, 1 << 18);
      }
      Tensor x = Tensor.ones(DType.FLOAT32, 1 << 18);
      assertClosedScope(() -> Ops.add(x, x, target));
    }
  }

  @Test
  void nextScopeReusesTheSameMemory() {
    long first;
    try (var _ = TensorScope.open()) {
      first = Tensor.empty(DType.FLOAT32, 1024).segment().address();
    }
    for (int i = 0; i < 3; i++) {
      try (var _ = TensorScope.open()) {
        assertEquals(first, Tensor.empty(DType.FLOAT32, 1024).segment().address());
      }
    }
  }

  @Test
  void reusedMemoryIsZeroedForFactoriesAndFullyWrittenByOps() {
    float[] x = new float[3000];
    float[] y = new float[3000];
    for (int i = 0; i < x.length; i++) {
      x[i] = i * 0.25f - 100;
      y[i] = (i % 7) * 1.5f;
    }
    for (int round = 0; round < 3; round++) {
      try (var _ = TensorScope.open()) {
        Tensor zeros = Tensor.zeros(DType.FLOAT32, 3000);
        for (long j = 0; j < zeros.numel(); j++) {
          assertEquals(0.0, zeros.getDouble(j), "round " + round + ", element " + j);
        }
        Tensor sum = Tensor.of(x).add(Tensor.of(y)); // fast path: uninitialized result
        Tensor bcast = Tensor.of(x).reshape(30, 100).add(Tensor.of(y).narrow(0, 0, 100));
        for (int i = 0; i < x.length; i++) {
          assertEquals((float) Builtins.add(x[i], y[i]), (float) sum.getDouble(i), "element " + i);
          assertEquals((float) Builtins.add(x[i], y[i % 100]), (float) bcast.getDouble(i / 100, i % 100));
        }
        // Leave dirt behind for the next round.
        Tensor.full(DType.FLOAT32, Float.NaN, 3000);
      }
    }
  }

  @Test
  void workerThreadsOfTheOpsOwnSplitUseScopeTensors() {
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build());
        var _ = TensorScope.open()) {
      int n = (int) (4 * Parallel.grainSize()); // large enough to split across two threads
      Tensor a = Tensor.randn(7, DType.FLOAT32, n);
      Tensor b = Tensor.randn(8, DType.FLOAT32, n);
      float[] x = a.toFloatArray();
      float[] y = b.toFloatArray();
      float[] sum = a.add(b).toFloatArray();
      Tensor out = Tensor.empty(DType.FLOAT32, n);
      Ops.mul(a, b, out);
      for (int i = 0; i < n; i++) {
        assertEquals((float) Builtins.add(x[i], y[i]), sum[i], "add element " + i);
        assertEquals((float) Builtins.mul(x[i], y[i]), (float) out.getDouble(i), "mul element " + i);
      }
    }
  }

  @Test
  void anotherThreadCannotCloseOrUseAScope() throws Exception {
    Tensor shared = Tensor.full(DType.FLOAT64, 3.0, 8); // outside any scope: shared freely
    try (var scope = TensorScope.open()) {
      Tensor t = Tensor.full(DType.FLOAT64, 2.0, 8);
      IllegalStateException close =
          assertThrows(IllegalStateException.class, () -> join(CompletableFuture.runAsync(scope::close)));
      assertTrue(close.getMessage().contains("closed by the thread that opened it"), close.getMessage());
      WrongThreadException use =
          assertThrows(WrongThreadException.class, () -> join(CompletableFuture.runAsync(() -> t.getDouble(0))));
      assertTrue(use.getMessage().contains("TensorScope of another thread"), use.getMessage());
      assertEquals(2.0, t.getDouble(7), "still open and usable on its own thread");
      assertEquals(3.0, CompletableFuture.supplyAsync(() -> shared.getDouble(0)).get());
    }
  }

  @Test
  void anotherThreadsScopesAreItsOwn() throws Exception {
    AtomicReference<Tensor> other = new AtomicReference<>();
    try (var _ = TensorScope.open()) {
      Thread th =
          new Thread(
              () -> {
                // Not in the main thread's scope: GC-managed, so it outlives that scope.
                other.set(Tensor.full(DType.INT64, 5, 3));
                try (var _ = TensorScope.open()) {
                  Tensor mine = Tensor.full(DType.INT64, 6, 3);
                  assertEquals(11, mine.add(other.get()).getLong(2));
                }
              });
      th.start();
      th.join();
    }
    assertEquals(5, other.get().getLong(0));
  }

  @Test
  void scopesInALoopKeepMemoryFlat() {
    try (var _ = TensorScope.open()) {
      Tensor.empty(DType.FLOAT32, 1 << 16); // the thread's first chunk
    }
    long before = NativeMemory.outstandingBytes();
    Tensor x = Tensor.ones(DType.FLOAT32, 1 << 16);
    for (int i = 0; i < 2000; i++) {
      try (var _ = TensorScope.open()) {
        Tensor y = x.add(x).mul(x);
        assertEquals(2.0, y.getDouble(i));
      }
    }
    // Nothing in the loop was GC-managed: the scopes reused the same chunk every iteration.
    assertTrue(NativeMemory.outstandingBytes() - before < (4L << 20),
        "outstanding grew by " + (NativeMemory.outstandingBytes() - before) + " bytes");
  }

  /**
   * Issue 23, item 10: each thread's first chunk is sized to use. 2,000 virtual threads, each
   * holding a scope with one 64-byte tensor open at the same time, took a 1 MiB chunk each
   * (2 GiB); now 4 KiB each. When the threads end, the collection returns the chunks, and the
   * pools keep no more than the slack of them.
   */
  @Test
  void scopesOnManyVirtualThreadsTakeSmallChunksAndGiveThemBack() throws Exception {
    int threads = 2000;
    System.gc();
    long before = NativeMemory.outstandingBytes();
    NativeMemory.resetPeak();
    CountDownLatch allOpen = new CountDownLatch(threads);
    AtomicLong sum = new AtomicLong();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long value = t;
      started.add(Thread.ofVirtual().start(() -> {
        try (var _ = TensorScope.open()) {
          Tensor mine = Tensor.full(DType.INT64, value, 8); // 64 bytes
          allOpen.countDown();
          allOpen.await(); // every thread's scope is open at once
          sum.addAndGet(mine.getLong(7));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    for (Thread t : started) {
      t.join();
    }
    assertEquals((long) threads * (threads - 1) / 2, sum.get());
    long peak = NativeMemory.peakOutstandingBytes() - before;
    assertTrue(peak <= threads * (8L << 10),
        "2000 open scopes of 64 bytes held " + peak + " bytes (1 MiB chunks: 2 GiB)");
    started.clear();
    long after = Long.MAX_VALUE;
    // Up to 10 s: the reference handler queues the chunks' references soon after a collection, but
    // on a loaded machine (CI) it may wait for a core far longer than a quiet one would.
    for (int attempt = 0; attempt < 200 && after > (4L << 20); attempt++) {
      System.gc();
      Thread.sleep(50);
      after = NativeMemory.outstandingBytes() - before;
    }
    assertTrue(after <= (4L << 20), after + " bytes still outstanding after the threads ended");
    assertTrue(NativeMemory.cachedBytes() <= NativeMemory.slackBytes(),
        NativeMemory.cachedBytes() + " bytes pooled, more than the slack " + NativeMemory.slackBytes());
  }

  @Test
  void largeAndOddSizedTensorsInAScope() {
    try (var _ = TensorScope.open()) {
      Tensor big = Tensor.full(DType.FLOAT32, 1.0, 3 << 20); // 12 MiB: mapped, beyond a chunk
      Tensor mid = Tensor.full(DType.FLOAT32, 2.0, 300_000); // 1.2 MB: a chunk of its own
      Tensor odd = Tensor.full(DType.INT8, 3, 13);
      assertEquals(0, odd.segment().address() % NativeMemory.ALIGNMENT);
      assertEquals(0, mid.segment().address() % NativeMemory.ALIGNMENT);
      assertEquals(3.0, big.narrow(0, 0, 300_000).add(mid).getDouble(299_999));
      assertEquals(3, odd.getLong(12));
    }
    if (NativeMemory.hugePagesAvailable()) {
      assertTrue(NativeMemory.cachedBytes() >= (12L << 20), "the mapped block went back to the cache");
    }
  }

  private static void join(CompletableFuture<?> f) throws Throwable {
    try {
      f.get();
    } catch (ExecutionException e) {
      throw e.getCause();
    }
  }
}
