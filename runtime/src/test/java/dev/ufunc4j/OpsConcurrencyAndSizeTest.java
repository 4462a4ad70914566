package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Ops from many threads at once, and an op over more than 2^31 elements. */
class OpsConcurrencyAndSizeTest {

  @Test
  void manyThreadsOnSharedInputsGetIdenticalResults() throws Exception {
    Tensor a = Tensor.randn(7, DType.FLOAT32, 300, 257);
    Tensor b = Tensor.randint(8, -50, 50, DType.INT32, 257);
    Tensor expected = a.mul(b).add(a.t().t(), 2);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Tensor>> results = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        results.add(pool.submit(() -> a.mul(b).add(a, 2)));
      }
      for (Future<Tensor> f : results) {
        assertTrue(expected.equal(f.get()), "a concurrent result differs");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void opsAddressMoreThan2To31Elements() {
    // A bool result of 2^31 + 4 elements (2 GiB) from a comparison of stride-0 views: the inputs
    // take a few bytes, the output is the only large allocation.
    long rows = (1L << 30) + 2;
    try (var _ = TensorScope.open()) {
      Tensor left = Tensor.of(new int[] {1, 5}, 2).expand(rows, 2);
      Tensor right = Tensor.scalar(3).to(DType.INT32);
      Tensor lt = Ops.lt(left, right);
      assertEquals(DType.BOOL, lt.dtype());
      assertEquals(2 * rows, lt.numel());
      // Column 0 is 1 < 3 (true) and column 1 is 5 < 3 (false), past element 2^31 too.
      for (long row : new long[] {0, 1L << 29, (1L << 30) - 1, rows - 1}) {
        assertTrue(lt.getBoolean(row, 0), "row " + row);
        assertTrue(!lt.getBoolean(row, 1), "row " + row);
      }
    }
  }
}
