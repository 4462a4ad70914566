package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The behaviour of the everyday vocabulary that golden values do not show: shape-only factories
 * default to float32, the default generator's reproducibility and thread safety, item's refusal,
 * fill's in-place rules (views write through; an expanded target or a leaf that requires grad is
 * refused with nothing written), and split/chunk returning views. The values themselves are in
 * {@link VocabGoldenTest}.
 */
@Isolated("resets the default generator")
class VocabularyTest {

  @Test
  void shapeOnlyFactoriesUseTheDefaultFloat32() {
    for (Tensor t : List.of(Tensor.zeros(3, 4), Tensor.ones(3, 4), Tensor.empty(3, 4),
        Tensor.rand(3, 4), Tensor.randn(3, 4))) {
      assertEquals(DType.FLOAT32, t.dtype());
      assertArrayEquals(new long[] {3, 4}, t.shape());
    }
    assertEquals(1.0, Tensor.ones(2).getDouble(1));
    assertEquals("[3, 4]", Tensor.zeros(3, 4).shapeString());
    // the dtype-first forms are unchanged
    assertEquals(DType.INT32, Tensor.zeros(DType.INT32, 3).dtype());
  }

  @Test
  void likeFactoriesKeepShapeAndDtype() {
    Tensor x = Tensor.arange(6).view(2, 3).to(DType.INT16);
    assertEquals(DType.INT16, Tensor.zerosLike(x).dtype());
    assertArrayEquals(new long[] {2, 3}, Tensor.onesLike(x).shape());
    assertEquals(7, Tensor.fullLike(x, 7.9).getLong(1, 2)); // converted like torch.full_like
    assertEquals(DType.FLOAT64, Tensor.zerosLike(x, DType.FLOAT64).dtype());
    assertEquals(0, Tensor.emptyLike(x).countNonzero().itemLong());
    Tensor r = Tensor.randLike(Tensor.zeros(DType.FLOAT64, 100));
    assertEquals(DType.FLOAT64, r.dtype());
    assertTrue(r.amin().item() >= 0 && r.amax().item() < 1);
    assertThrows(IllegalArgumentException.class, () -> Tensor.randLike(x)); // rand needs a float
  }

  @Test
  void manualSeedMakesSeedlessCallsReproducible() {
    Tensor.manualSeed(42);
    Tensor a = Tensor.rand(16);
    Tensor b = Tensor.randn(DType.FLOAT64, 4);
    Tensor.manualSeed(42);
    assertTrue(a.equal(Tensor.rand(16)));
    assertTrue(b.equal(Tensor.randn(DType.FLOAT64, 4)));
    assertEquals(42, Tensor.initialSeed());
    Tensor.manualSeed(43);
    assertFalse(a.equal(Tensor.rand(16)));
  }

  @Test
  void theDefaultGeneratorIsSafeUnderManyThreads() throws InterruptedException {
    Tensor.manualSeed(7);
    int threads = 8;
    int draws = 200;
    ConcurrentLinkedQueue<Double> firsts = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    Thread[] ts = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      ts[i] = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
        for (int j = 0; j < draws; j++) {
          firsts.add(Tensor.rand(DType.FLOAT64, 1).item());
        }
      });
      ts[i].start();
    }
    start.countDown();
    for (Thread t : ts) {
      t.join();
    }
    // every call drew its own seed: no two of the 1600 calls saw the same stream
    Set<Double> distinct = new HashSet<>(firsts);
    assertEquals(threads * draws, distinct.size());
    // and the same 1600 values come from one thread after the same seed, in some order
    Tensor.manualSeed(7);
    Set<Double> serial = new HashSet<>();
    for (int j = 0; j < threads * draws; j++) {
      serial.add(Tensor.rand(DType.FLOAT64, 1).item());
    }
    assertEquals(serial, distinct);
  }

  @Test
  void itemReadsOneElementAndRefusesMore() {
    assertEquals(2.5, Tensor.scalar(2.5).item());
    assertEquals(7, Tensor.of(new long[] {7}, 1, 1).itemLong());
    assertTrue(Tensor.of(new boolean[] {true}).itemBoolean());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(2).item());
    assertEquals("a Tensor with 2 elements cannot be converted to Scalar", e.getMessage());
  }

  @Test
  void fillWritesThroughViewsAndConvertsLikeFill_() {
    Tensor x = Tensor.zeros(DType.INT32, 2, 3);
    Tensor row = x.select(0, 1).fill(1.5); // PyTorch: fill_(1.5) on int32 stores 1
    assertEquals(1, x.getLong(1, 2));
    assertEquals(0, x.getLong(0, 0));
    assertTrue(row.equal(Tensor.full(DType.INT32, 1L, 3)));
    assertEquals(3, x.fill(3L).getLong(0, 1));
  }

  @Test
  void fillRefusesAnExpandedTargetAndALeafRequiringGradWritingNothing() {
    Tensor base = Tensor.zeros(DType.FLOAT32, 1, 3);
    Tensor expanded = base.expand(4, 3);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> expanded.fill(2.0));
    assertTrue(e.getMessage().contains("more than one element of the written-to tensor"));
    assertEquals(0, base.countNonzero().itemLong());

    Tensor leaf = Tensor.zeros(3).requiresGrad(true);
    assertThrows(IllegalStateException.class, () -> leaf.fill(1.0));
    assertEquals(0, leaf.countNonzero().itemLong());
    try (var _ = Autograd.noGrad()) {
      leaf.fill(1.0); // allowed inside noGrad, as in PyTorch
    }
    assertEquals(3, leaf.countNonzero().itemLong());
  }

  @Test
  void splitAndChunkReturnViews() {
    Tensor x = Tensor.zeros(6, 2);
    Tensor[] pieces = x.split(4);
    assertEquals(2, pieces.length);
    pieces[1].fill(5.0);
    assertEquals(5.0, x.getDouble(5, 1));
    assertEquals(0.0, x.getDouble(3, 1));
    Tensor[] chunks = x.chunk(3, 1); // only 2 columns: 2 pieces, as PyTorch
    assertEquals(2, chunks.length);
    chunks[0].fill(-1.0);
    assertEquals(-1.0, x.getDouble(0, 0));
  }

  @Test
  void movedimIsAView() {
    Tensor x = Tensor.zeros(2, 3, 4);
    Tensor m = x.movedim(0, 2);
    assertArrayEquals(new long[] {3, 4, 2}, m.shape());
    m.setDouble(9, 1, 2, 1);
    assertEquals(9.0, x.getDouble(1, 1, 2));
  }

  @Test
  void allCloseWithTorchsThreeArgumentForm() {
    Tensor a = Tensor.of(new double[] {1.0, 2.0});
    assertTrue(a.allClose(Tensor.of(new double[] {1.0 + 1e-3, 2.0}), 1e-3, 0));
    assertFalse(a.allClose(Tensor.of(new double[] {1.0 + 1e-2, 2.0}), 1e-3, 0));
  }

  @Test
  void zeroGradClearsTheGradient() {
    Tensor w = Tensor.ones(3).requiresGrad(true);
    w.mul(2).sum().backward();
    assertEquals(2.0, w.grad().getDouble(0));
    w.zeroGrad();
    assertNull(w.grad());
  }

  @Test
  void indexErrorsNameTheIndexAndTheSizeAndWriteNothing() {
    Tensor x = Tensor.arange(12).view(3, 4);
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
        () -> x.indexSelect(0, Tensor.of(new long[] {0, 1, 3})));
    assertTrue(e.getMessage().contains("index 3") && e.getMessage().contains("size 3"),
        e.getMessage());
    assertThrows(IndexOutOfBoundsException.class,
        () -> x.take(Tensor.of(new long[] {12})));
  }

  @Test
  void catJoinsListsAndStacksAlongANewDim() {
    Tensor a = Tensor.ones(2, 2);
    Tensor b = Tensor.zeros(1, 2);
    Tensor c = Ops.cat(List.of(a, b), 0);
    assertArrayEquals(new long[] {3, 2}, c.shape());
    assertEquals(6, Tensor.cat(a, a, a).size(0));
    assertArrayEquals(new long[] {2, 2, 2}, Tensor.stack(a, a).shape());
  }
}
