package dev.ufunc4j;

import java.util.function.Function;

/**
 * The autograd node of a shape operation over several inputs ({@code cat}, {@code stack}) or of a
 * copy that moves elements ({@code flip}, {@code roll}, {@code repeat}, {@code indexSelect}, ...):
 * one function maps the result's gradient to every input's. Recorded once, by {@link #record}.
 */
final class CompositeNode extends GradNode {
  private final String name;
  private final Function<Tensor, Tensor[]> backward;

  private CompositeNode(String name, GradNode[] next, Function<Tensor, Tensor[]> backward) {
    super(next);
    this.name = name;
    this.backward = backward;
  }

  @Override
  String name() {
    return name;
  }

  @Override
  Tensor[] apply(Tensor grad) {
    return backward.apply(grad);
  }

  /**
   * Gives {@code result} its node when grad mode is on and some floating input requires
   * gradients; {@code backward} returns one gradient per input (null where none is needed).
   * Returns {@code result}.
   */
  static Tensor record(
      Tensor[] inputs, Tensor result, String name, Function<Tensor, Tensor[]> backward) {
    if (!result.dtype().isFloatingPoint() || !GradGraph.recording(null, inputs)) {
      return result;
    }
    GradNode[] next = new GradNode[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      next[i] = GradGraph.edge(inputs[i]);
    }
    result.autogradMeta().gradFn = new CompositeNode(name, next, backward);
    return result;
  }

  /** {@link #record} for one input. */
  static Tensor record(Tensor input, Tensor result, String name, Function<Tensor, Tensor> backward) {
    return record(new Tensor[] {input}, result, name, g -> new Tensor[] {backward.apply(g)});
  }
}
