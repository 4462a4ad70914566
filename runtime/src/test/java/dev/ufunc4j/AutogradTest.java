package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import org.junit.jupiter.api.Test;

/**
 * Reverse mode as a user meets it: marking leaves, backward and its accumulation, {@link
 * Autograd#grad}, {@link Autograd#noGrad()}, broadcast and mixed-dtype operands, and the refusals
 * with PyTorch's messages (checked before anything is written). Gradients of each op against
 * PyTorch: {@link AutogradGoldenTest}; against finite differences: {@link GradCheckTest}.
 */
class AutogradTest {

  private static Tensor leaf(float[] values, long... shape) {
    return Tensor.of(values, shape).requiresGrad(true);
  }

  @Test
  void broadcastOperandsGetGradientsOfTheirOwnShape() {
    // The seed's example: (1, 3) + (2, 1) -> (2, 3).
    Tensor a = leaf(new float[] {1, 2, 3}, 1, 3);
    Tensor b = leaf(new float[] {10, 20}, 2, 1);
    Tensor c = a.add(b);
    assertTrue(c.requiresGrad());
    assertFalse(c.isLeaf());
    c.sum().backward();
    assertArrayEquals(new long[] {1, 3}, a.grad().shape());
    assertArrayEquals(new long[] {2, 1}, b.grad().shape());
    assertArrayEquals(new float[] {2, 2, 2}, a.grad().toFloatArray());
    assertArrayEquals(new float[] {3, 3}, b.grad().toFloatArray());
  }

  @Test
  void backwardAccumulatesAndSetGradClears() {
    Tensor x = leaf(new float[] {1, 2}, 2);
    Tensor y = x.mul(x).sum();
    y.backward();
    Tensor first = x.grad();
    assertArrayEquals(new float[] {2, 4}, first.toFloatArray());
    y.backward(); // the graph is kept; gradients add up, into the same tensor
    assertSame(first, x.grad());
    assertArrayEquals(new float[] {4, 8}, x.grad().toFloatArray());
    x.setGrad(null);
    assertNull(x.grad());
    assertThrows(IllegalArgumentException.class, () -> x.setGrad(Tensor.zeros(DType.FLOAT32, 3)));
  }

  @Test
  void gradientsComeBackInEachOperandsDtype() {
    Tensor h = Tensor.of(new float[] {1, 2, 3}).to(DType.FLOAT16).requiresGrad(true);
    Tensor d = Tensor.of(new double[] {0.5}).requiresGrad(true);
    Tensor r = h.mul(d); // float16 * float64 (1 element, dimensioned) -> float64
    assertEquals(DType.FLOAT64, r.dtype());
    r.backward(Tensor.of(new double[] {1, 1, 1}));
    assertEquals(DType.FLOAT16, h.grad().dtype());
    assertEquals(DType.FLOAT64, d.grad().dtype());
    assertArrayEquals(new float[] {0.5f, 0.5f, 0.5f}, h.grad().to(DType.FLOAT32).toFloatArray());
    assertArrayEquals(new double[] {6}, d.grad().toDoubleArray());
  }

  @Test
  void integralOperandsGetNoGradient() {
    Tensor x = leaf(new float[] {1.5f, 2.5f}, 2);
    Tensor n = Tensor.of(new int[] {3, 4});
    Tensor r = x.mul(n);
    r.sum().backward();
    assertArrayEquals(new float[] {3, 4}, x.grad().toFloatArray());
    assertFalse(n.requiresGrad());
    // Predicates and integral results do not require grad.
    assertFalse(x.gt(2.0).requiresGrad());
  }

  @Test
  void autogradGradReturnsWithoutAccumulating() {
    Tensor x = leaf(new float[] {1, 2, 3}, 3);
    Tensor mid = x.mul(2.0);
    Tensor y = mid.mul(mid).sum();
    Tensor[] g = Autograd.grad(y, null, x, mid);
    assertArrayEquals(new float[] {8, 16, 24}, g[0].toFloatArray());
    assertArrayEquals(new float[] {4, 8, 12}, g[1].toFloatArray());
    assertNull(x.grad());
    Tensor unused = leaf(new float[] {1}, 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Autograd.grad(y, null, unused));
    assertTrue(e.getMessage().contains("appears to not have been used in the graph"),
        e.getMessage());
  }

  @Test
  void noGradRecordsNothingAndAllowsUpdatingLeaves() {
    Tensor w = leaf(new float[] {1, 2}, 2);
    try (var _ = Autograd.noGrad()) {
      assertFalse(Autograd.isGradEnabled());
      Tensor r = w.mul(3.0);
      assertFalse(r.requiresGrad());
      w.subInPlace(Tensor.of(new float[] {0.5f, 0.5f}));
    }
    assertTrue(Autograd.isGradEnabled());
    assertArrayEquals(new float[] {0.5f, 1.5f}, w.toFloatArray());
    assertTrue(w.mul(3.0).requiresGrad());
  }

  @Test
  void refusesWhatPyTorchRefuses() {
    IllegalArgumentException dtype = assertThrows(IllegalArgumentException.class,
        () -> Tensor.of(new int[] {1, 2}).requiresGrad(true));
    assertTrue(dtype.getMessage().startsWith(
        "only Tensors of floating point dtype can require gradients"), dtype.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.ofComplex(new double[] {1, 2}, 1).requiresGrad(true));
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.of(new boolean[] {true}).requiresGrad(true));

    Tensor x = leaf(new float[] {1, 2}, 2);
    IllegalStateException inPlace =
        assertThrows(IllegalStateException.class, () -> x.addInPlace(1.0));
    assertTrue(inPlace.getMessage().contains(
        "a leaf tensor that requires grad is being used in an in-place operation"));
    assertArrayEquals(new float[] {1, 2}, x.toFloatArray()); // nothing was written
    assertThrows(IllegalStateException.class, () -> x.setDouble(5, 0));
    assertArrayEquals(new float[] {1, 2}, x.toFloatArray());

    Tensor out = Tensor.zeros(DType.FLOAT32, 2);
    IllegalArgumentException outEx =
        assertThrows(IllegalArgumentException.class, () -> Ops.add(x, x, out));
    assertEquals("add(): functions with out=... arguments don't support automatic"
        + " differentiation, but one of the arguments requires grad.", outEx.getMessage());
    assertArrayEquals(new float[] {0, 0}, out.toFloatArray());

    IllegalArgumentException notScalar =
        assertThrows(IllegalArgumentException.class, () -> x.mul(2.0).backward());
    assertTrue(notScalar.getMessage().contains(
        "grad can be implicitly created only for scalar outputs"));
    IllegalStateException noGraph = assertThrows(IllegalStateException.class,
        () -> Tensor.of(new float[] {1}).backward());
    assertTrue(noGraph.getMessage().contains(
        "element 0 of tensors does not require grad and does not have a grad_fn"));
    IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
        () -> x.mul(2.0).backward(Tensor.ones(DType.FLOAT32, 3)));
    assertTrue(shape.getMessage().contains("Mismatch in shape: grad_output[0] has a shape of [3]"
        + " and output[0] has a shape of [2]."), shape.getMessage());
    IllegalStateException nonLeaf =
        assertThrows(IllegalStateException.class, () -> x.mul(2.0).requiresGrad(false));
    assertTrue(nonLeaf.getMessage().contains("you can only change requires_grad flags of leaf"));
  }

  @Test
  void detectsAnInPlaceWriteToASavedTensor() {
    Tensor a = leaf(new float[] {1, 2}, 2);
    Tensor b = a.mul(2.0);
    Tensor c = b.mul(b); // saves b
    b.addInPlace(1.0); // b is not a leaf: allowed, but c's backward needs the old b
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.sum().backward());
    assertTrue(e.getMessage().startsWith("one of the variables needed for gradient computation"
        + " has been modified by an in-place operation: [float32 [2]], which is saved by mul, is"
        + " at version 1; expected version 0 instead."), e.getMessage());
    // A view's write counts too (one version counter per storage).
    Tensor p = leaf(new float[] {1, 2, 3, 4}, 4);
    Tensor q = p.mul(1.0);
    Tensor s = q.exp(); // saves q
    try (var _ = Autograd.noGrad()) {
      q.slice(0, 0, 2, 1).mulInPlace(2.0);
    }
    assertThrows(IllegalStateException.class, () -> s.sum().backward());
    // An op whose backward saves nothing (add) does not mind.
    Tensor u = a.mul(3.0);
    Tensor v = u.add(a);
    u.mulInPlace(2.0);
    v.sum().backward();
    assertArrayEquals(new float[] {4, 4}, a.grad().toFloatArray());
  }

  @Test
  void inPlaceOnAComputedTensorRebasesItsHistory() {
    Tensor a = leaf(new float[] {1, 2}, 2);
    Tensor w = leaf(new float[] {3, 5}, 2);
    Tensor b = a.mul(2.0);
    b.mulInPlace(w); // b = 2a * w, in b's storage; the old b is kept for w's gradient
    b.sum().backward();
    assertArrayEquals(new float[] {6, 10}, a.grad().toFloatArray());
    assertArrayEquals(new float[] {2, 4}, w.grad().toFloatArray());
  }

  /**
   * Issue 23 item 3, the issue's own program: {@code v}, a view of {@code b} made before {@code
   * b *= w}, reads the product, so its gradient goes through it. Expected values from PyTorch 2
   * ({@code x.grad = [6, 6, 0, 0]}, {@code w.grad = [2, 4, 0, 0]}); more programs, several ops and
   * views, against PyTorch in {@link AutogradGoldenTest}'s "inplace" group.
   */
  @Test
  void aViewOfABaseWrittenInPlaceTakesTheBasesNewHistory() {
    Tensor x = leaf(new float[] {1, 2, 3, 4}, 4);
    Tensor w = leaf(new float[] {3, 3, 3, 3}, 4);
    Tensor b = x.mul(2);
    Tensor v = b.slice(0, 0, 2, 1);
    b.mulInPlace(w);
    v.sum().backward();
    assertArrayEquals(new float[] {6, 6, 0, 0}, x.grad().toFloatArray());
    assertArrayEquals(new float[] {2, 4, 0, 0}, w.grad().toFloatArray());

    // A view made before its base required grad joins the graph too (PyTorch: v.requires_grad).
    Tensor plain = Tensor.of(new float[] {1, 2, 3, 4});
    Tensor p = plain.slice(0, 0, 2, 1);
    assertFalse(p.requiresGrad());
    Tensor u = leaf(new float[] {3, 3, 3, 3}, 4);
    plain.mulInPlace(u);
    assertTrue(p.requiresGrad());
    p.sum().backward();
    assertArrayEquals(new float[] {1, 2, 0, 0}, u.grad().toFloatArray());

    // detach() is no differentiable view: it stays out of the graph.
    Tensor c = x.mul(2);
    Tensor d = c.detach();
    c.mulInPlace(w);
    assertFalse(d.requiresGrad());
  }

  @Test
  void inPlaceThroughAViewRewritesTheBasesHistory() {
    // PyTorch 2: b = x * 2; b[0:2].mul_(w); b.sum().backward() gives x.grad = [6, 10, 2, 2] and
    // w.grad = [2, 4] (CopySlices).
    Tensor x = leaf(new float[] {1, 2, 3, 4}, 4);
    Tensor w = leaf(new float[] {3, 5}, 2);
    Tensor b = x.mul(2);
    b.slice(0, 0, 2, 1).mulInPlace(w);
    assertTrue(b.requiresGrad());
    b.sum().backward();
    assertArrayEquals(new float[] {6, 10, 2, 2}, x.grad().toFloatArray());
    assertArrayEquals(new float[] {2, 4}, w.grad().toFloatArray());
  }

  @Test
  void refusesTheViewAndInPlaceCasesPyTorchRefuses() {
    Tensor x = leaf(new float[] {1, 2, 3, 4}, 4);
    IllegalStateException leafView = assertThrows(IllegalStateException.class,
        () -> x.slice(0, 0, 2, 1).mulInPlace(2.0));
    assertTrue(leafView.getMessage().contains(
        "a view of a leaf Variable that requires grad is being used in an in-place operation"),
        leafView.getMessage());
    assertArrayEquals(new float[] {1, 2, 3, 4}, x.toFloatArray());

    // A view made inside noGrad() of a tensor in a graph: ambiguous once the base is written.
    Tensor b = x.mul(2);
    Tensor v;
    try (var _ = Autograd.noGrad()) {
      v = b.slice(0, 0, 2, 1);
    }
    IllegalStateException modify =
        assertThrows(IllegalStateException.class, () -> v.mulInPlace(2.0));
    assertTrue(modify.getMessage().contains("A view was created in no_grad mode and is being"
        + " modified inplace with grad mode enabled"), modify.getMessage());
    assertArrayEquals(new float[] {2, 4, 6, 8}, b.detach().toFloatArray());
    b.mulInPlace(3.0);
    IllegalStateException rebased = assertThrows(IllegalStateException.class, () -> v.sum());
    assertTrue(rebased.getMessage().contains("A view was created in no_grad mode and its base or"
        + " another view of its base has been modified inplace"), rebased.getMessage());

    // An asStrided view that reaches an element twice has no gradient here (PyTorch's needs
    // per-element counts): refused when its base joins a graph, never a gradient that misses
    // the write.
    Tensor c = Tensor.of(new float[] {1, 2, 3, 4});
    Tensor s = c.asStrided(new long[] {2, 2}, new long[] {0, 1}, 0);
    c.mulInPlace(x);
    UnsupportedOperationException twice =
        assertThrows(UnsupportedOperationException.class, () -> s.sum());
    assertTrue(twice.getMessage().contains("reaches one storage element twice"),
        twice.getMessage());

    // A setter through a view of a tensor in a graph (the graph would not see the write).
    Tensor e = x.mul(1.0);
    Tensor ev = e.slice(0, 1, 3, 1);
    assertThrows(IllegalStateException.class, () -> ev.setDouble(9, 0));
    assertArrayEquals(new float[] {1, 2, 3, 4}, e.detach().toFloatArray());
  }

  @Test
  void viewsReductionsAndCastsPassGradientsBack() {
    Tensor x = leaf(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Tensor y = x.t().reshape(3, 2).slice(0, 1, 3, 1).unsqueeze(0).squeeze().to(DType.FLOAT64);
    y.amax(new int[] {1}, false).sum().backward();
    // y = [[2, 5], [3, 6]] (rows 1..2 of x^T); the max of each row is x[1][1] and x[1][2].
    assertArrayEquals(new float[] {0, 0, 0, 0, 1, 1}, x.grad().toFloatArray());
    assertEquals(DType.FLOAT32, x.grad().dtype());
    Tensor z = leaf(new float[] {2, 2, 1}, 3);
    z.amax().backward(); // a tie: shared evenly
    assertArrayEquals(new float[] {0.5f, 0.5f, 0}, z.grad().toFloatArray());
    Tensor m = leaf(new float[] {1, 2, 3, 4}, 2, 2);
    m.expand(3, 2, 2).mean().backward();
    assertArrayEquals(new float[] {0.25f, 0.25f, 0.25f, 0.25f}, m.grad().toFloatArray());
    Tensor s = leaf(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    s.sumToShape(1, 3).mul(Tensor.of(new float[] {1, 2, 3}, 1, 3)).sum().backward();
    assertArrayEquals(new float[] {1, 2, 3, 1, 2, 3}, s.grad().toFloatArray());
  }

  @Test
  void leafGradientsNeverAliasEachOtherOrTheCallersGradient() {
    Tensor a = leaf(new float[] {1, 2}, 2);
    Tensor b = leaf(new float[] {3, 4}, 2);
    Tensor g = Tensor.of(new float[] {1, 1});
    a.add(b).backward(g);
    assertNotSame(a.grad().segment(), b.grad().segment());
    assertNotSame(g.segment(), a.grad().segment());
    g.setDouble(7, 0);
    assertArrayEquals(new float[] {1, 1}, a.grad().toFloatArray());
  }

  @Test
  void detachAndNonDifferentiableViewsStopTheGraph() {
    Tensor x = leaf(new float[] {1, 2}, 2);
    Tensor d = x.detach();
    assertFalse(d.requiresGrad());
    assertTrue(d.isLeaf());
    assertThrows(UnsupportedOperationException.class,
        () -> x.asStrided(new long[] {2, 2}, new long[] {0, 1}, 0));
  }

  @Test
  void asStridedPassesGradientsThroughTheStorage() {
    // PyTorch 2: b = x * 1; (b.as_strided((2, 2), (1, 3), 1) ** 2).sum() gives x.grad =
    // [0, 4, 6, 0, 10, 12]; c.as_strided((2,), (2,), 0) of a plain c, then c.mul_(x), gives
    // x.grad = [1, 0, 3, 0] through the view's rebased history.
    Tensor x = leaf(new float[] {1, 2, 3, 4, 5, 6}, 6);
    Tensor v = x.mul(1.0).asStrided(new long[] {2, 2}, new long[] {1, 3}, 1);
    v.mul(v).sum().backward();
    assertArrayEquals(new float[] {0, 4, 6, 0, 10, 12}, x.grad().toFloatArray());
    Tensor y = leaf(new float[] {1, 2, 3, 4}, 4);
    Tensor c = Tensor.of(new float[] {1, 2, 3, 4});
    Tensor s = c.asStrided(new long[] {2}, new long[] {2}, 0);
    c.mulInPlace(y);
    s.sum().backward();
    assertArrayEquals(new float[] {1, 0, 3, 0}, y.grad().toFloatArray());
  }
}
