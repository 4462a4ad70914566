package dev.ufunc4j;

/**
 * Reverse-mode automatic differentiation, PyTorch's in Java words (docs/gradients.md). Mark
 * floating leaves with {@link Tensor#requiresGrad(boolean)}; every op on them records how its
 * result was made; {@link Tensor#backward()} adds the gradients into each leaf's {@link
 * Tensor#grad()}, and {@link #grad} returns them instead.
 *
 * <pre>{@code
 * Tensor a = Tensor.of(new float[] {1, 2, 3}, 1, 3).requiresGrad(true);
 * Tensor b = Tensor.of(new float[] {10, 20}, 2, 1).requiresGrad(true);
 * a.add(b).sum().backward();
 * a.grad();   // [[2, 2, 2]]: each a[j] was added to both rows
 * b.grad();   // [[3], [3]]: each b[i] to three columns
 *
 * try (var _ = Autograd.noGrad()) {
 *   a.subInPlace(a.grad().mul(0.1));   // an update that is not recorded
 * }
 * }</pre>
 */
public final class Autograd {

  private Autograd() {}

  /**
   * {@return the gradients of {@code output} with respect to {@code inputs} ({@code
   * torch.autograd.grad}), in the inputs' order, each with its input's shape and dtype; nothing is
   * added into any {@link Tensor#grad()}}
   *
   * @param output the tensor differentiated
   * @param gradOutput the gradient of {@code output} (its shape; cast to its dtype), or null for a
   *     one-element output (a gradient of 1)
   * @param inputs tensors that require gradients (leaves or computed tensors) that {@code output}
   *     depends on
   * @throws IllegalArgumentException for null arguments, an input that does not require grad or
   *     that the output does not depend on, or a {@code gradOutput} of another shape
   * @throws IllegalStateException when {@code output} does not require grad, or a tensor the
   *     backward needs was modified in place after it was used
   */
  public static Tensor[] grad(Tensor output, Tensor gradOutput, Tensor... inputs) {
    return GradEngine.grad(output, gradOutput, inputs, false);
  }

  /**
   * Opens a region, on this thread, in which nothing is recorded ({@code torch.no_grad()}):
   * results of ops do not require gradients, and leaves that require them may be updated in
   * place. Close it to return to the previous mode; regions nest.
   *
   * <pre>{@code
   * try (var _ = Autograd.noGrad()) {
   *   weights.subInPlace(weights.grad().mul(learningRate));
   * }
   * }</pre>
   *
   * @return the region; close it to record again
   */
  public static NoGrad noGrad() {
    return GradGraph.noGrad();
  }

  /** {@return true unless a {@link #noGrad()} region is open on this thread} */
  public static boolean isGradEnabled() {
    return GradGraph.enabled();
  }

  /** A region without recording, from {@link Autograd#noGrad()}; close it on the same thread. */
  public static final class NoGrad implements AutoCloseable {
    /** The opening thread's count of open regions. */
    private final int[] depth;
    private final Thread owner;
    private boolean closed;

    NoGrad(int[] depth, Thread owner) {
      this.depth = depth;
      this.owner = owner;
    }

    /**
     * Ends the region (once; closing again does nothing).
     *
     * @throws IllegalStateException on a thread other than the one that opened it: the mode is
     *     per thread, and closing it from elsewhere would turn recording back on in the middle of
     *     the opener's region
     */
    @Override
    public void close() {
      Thread current = Thread.currentThread();
      if (current != owner) {
        throw new IllegalStateException(
            "Autograd.noGrad(): a region opened on thread '" + owner.getName()
                + "' can only be closed on that thread, not on '" + current.getName() + "'");
      }
      if (!closed) {
        closed = true;
        depth[0]--;
      }
    }
  }
}
