package dev.ufunc4j;

import java.util.Arrays;

/**
 * One recorded operation of the autograd graph (PyTorch's {@code Node}): how the gradient of its
 * one output becomes the gradients of its inputs. Its {@link #next} edges point at the nodes of
 * the inputs that require gradients: their own recorded operations, or the {@link Accumulate}
 * node of a leaf. Built by {@link GradGraph}, run by {@link GradEngine}; users never see one.
 */
abstract class GradNode {

  /** Per input: the node its gradient flows to, or null where the input requires none. */
  final GradNode[] next;

  GradNode(GradNode[] next) {
    this.next = next;
  }

  /** The operation's name in messages: {@code mul}, {@code sum}, {@code expand}. */
  abstract String name();

  /**
   * The gradients of the inputs, given the gradient of the output; an entry may be null where
   * {@link #next} is null. Each has its input's shape and dtype. Runs without recording.
   */
  abstract Tensor[] apply(Tensor grad);

  /**
   * A tensor the backward reads, with the version it had when the operation ran: PyTorch's {@code
   * SavedVariable}. An in-place write between the forward and the backward is detected at {@link
   * #get}.
   */
  static final class Saved {
    private final Tensor tensor;
    private final int version;

    Saved(Tensor tensor) {
      this.tensor = tensor;
      this.version = tensor.versionCounter().value();
    }

    /** The tensor, after checking no in-place op wrote it since it was saved. */
    Tensor get(GradNode node) {
      int now = tensor.versionCounter().value();
      if (now != version) {
        throw new IllegalStateException(
            "one of the variables needed for gradient computation has been modified by an"
                + " in-place operation: [" + tensor.dtype().torchName() + " "
                + Arrays.toString(tensor.shapeRef()) + "], which is saved by " + node.name()
                + ", is at version " + now + "; expected version " + version + " instead. Hint:"
                + " an in-place op (addInPlace, an out= target, a setter) wrote it, or a view of"
                + " it, after " + node.name() + " ran; use the out-of-place op or a copy()");
      }
      return tensor;
    }
  }

  /**
   * The node of a leaf that requires gradients: it has no inputs and adds the gradient it
   * receives into the leaf's {@link Tensor#grad()} (PyTorch's {@code AccumulateGrad}).
   */
  static final class Accumulate extends GradNode {
    final Tensor leaf;

    Accumulate(Tensor leaf) {
      super(new GradNode[0]);
      this.leaf = leaf;
    }

    @Override
    String name() {
      return "AccumulateGrad";
    }

    @Override
    Tensor[] apply(Tensor grad) {
      return new Tensor[0];
    }
  }
}
