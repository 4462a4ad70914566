package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Runs the recorded graph backwards (PyTorch's engine, on the caller's thread): from the output's
 * node, each node once all the gradients flowing into it have arrived and been summed, in
 * dependency order (Kahn's algorithm over the reachable nodes). Leaves receive their total
 * gradient once per run, added into {@link Tensor#grad()}. Nothing is recorded while it runs.
 *
 * <p>Differences from PyTorch, in docs/gradients.md: the graph is kept after a backward (as with
 * {@code retain_graph=True}), and backward ops are not recorded (no {@code create_graph}, so no
 * gradients of gradients).
 */
final class GradEngine {

  private GradEngine() {}

  /** {@link Tensor#backward()} and {@link Tensor#backward(Tensor)}. */
  static void backward(Tensor output, Tensor gradient) {
    Tensor root = rootGradient(output, gradient, "backward");
    run(GradGraph.edge(output), root, Map.of(), true);
  }

  /** {@link Autograd#grad}: the gradients of {@code output} with respect to {@code inputs}. */
  static Tensor[] grad(Tensor output, Tensor gradOutput, Tensor[] inputs, boolean allowUnused) {
    if (output == null) {
      throw new IllegalArgumentException("grad(): output must not be null");
    }
    if (inputs == null || inputs.length == 0) {
      throw new IllegalArgumentException("grad(): give at least one input to differentiate with"
          + " respect to");
    }
    Map<GradNode, Integer> capture = new IdentityHashMap<>();
    GradNode[] nodes = new GradNode[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      Tensor t = inputs[i];
      if (t == null) {
        throw new IllegalArgumentException("grad(): input " + i + " is null");
      }
      if (!GradGraph.requiresGrad(t)) {
        throw new IllegalArgumentException(
            "grad(): one of the differentiated Tensors (input " + i + ") does not require grad");
      }
      nodes[i] = GradGraph.edge(t);
      capture.put(nodes[i], i);
    }
    Tensor root = rootGradient(output, gradOutput, "grad");
    Map<GradNode, Tensor> captured = run(GradGraph.edge(output), root, capture, false);
    Tensor[] grads = new Tensor[inputs.length];
    Set<MemorySegment> handedOut = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < inputs.length; i++) {
      Tensor g = captured.get(nodes[i]);
      if (g == null) {
        if (!allowUnused) {
          throw new IllegalArgumentException(
              "grad(): the differentiated Tensor at index " + i + " appears to not have been"
                  + " used in the graph of the output");
        }
        continue;
      }
      grads[i] = owned(g, root, handedOut);
    }
    return grads;
  }

  /** The gradient the run starts from, after PyTorch's checks. */
  private static Tensor rootGradient(Tensor output, Tensor gradient, String method) {
    if (!GradGraph.requiresGrad(output)) {
      throw new IllegalStateException(
          method + "(): element 0 of tensors does not require grad and does not have a grad_fn");
    }
    if (gradient == null) {
      if (output.numel() != 1) {
        throw new IllegalArgumentException(
            method + "(): grad can be implicitly created only for scalar outputs; this output"
                + " has shape " + Arrays.toString(output.shapeRef()) + ": pass a gradient");
      }
      return Tensor.ones(output.dtype(), output.shape());
    }
    if (!Arrays.equals(gradient.shapeRef(), output.shapeRef())) {
      throw new IllegalArgumentException(
          method + "(): Mismatch in shape: grad_output[0] has a shape of "
              + Arrays.toString(gradient.shapeRef()) + " and output[0] has a shape of "
              + Arrays.toString(output.shapeRef()) + ".");
    }
    DType d = gradient.dtype();
    if (d.isComplex() || d.isFloat8()) {
      throw new IllegalArgumentException(
          method + "(): the gradient has dtype " + d.torchName() + "; give a real tensor (it is"
              + " cast to the output's dtype " + output.dtype().torchName() + ")");
    }
    try (var _ = GradGraph.noGrad()) {
      return d == output.dtype() ? gradient : gradient.to(output.dtype());
    }
  }

  /**
   * Runs the graph from {@code root} with {@code gradient}; returns the total gradient that
   * reached each node of {@code capture}. With {@code accumulate}, leaves add theirs into {@link
   * Tensor#grad()}.
   */
  private static Map<GradNode, Tensor> run(GradNode root, Tensor gradient,
      Map<GradNode, Integer> capture, boolean accumulate) {
    Map<GradNode, Tensor> captured = new IdentityHashMap<>();
    if (root == null) {
      return captured;
    }
    Map<GradNode, Integer> waiting = dependencies(root);
    Map<GradNode, Tensor> pending = new IdentityHashMap<>();
    pending.put(root, gradient);
    Deque<GradNode> ready = new ArrayDeque<>();
    ready.push(root);
    Set<MemorySegment> handedOut = Collections.newSetFromMap(new IdentityHashMap<>());
    try (var _ = GradGraph.noGrad()) {
      while (!ready.isEmpty()) {
        GradNode node = ready.pop();
        Tensor g = pending.remove(node);
        if (g != null && capture.containsKey(node)) {
          captured.put(node, g);
        }
        if (node instanceof GradNode.Accumulate leaf) {
          if (accumulate && g != null) {
            accumulate(leaf.leaf, g, gradient, handedOut);
          }
          continue;
        }
        Tensor[] grads = g == null ? new Tensor[node.next.length] : node.apply(g);
        for (int i = 0; i < node.next.length; i++) {
          GradNode next = node.next[i];
          if (next == null) {
            continue;
          }
          if (grads[i] != null) {
            pending.merge(next, grads[i], Tensor::add);
          }
          if (waiting.merge(next, -1, Integer::sum) == 0) {
            ready.push(next);
          }
        }
      }
    }
    return captured;
  }

  /** For every node reachable from {@code root}: how many edges of reachable nodes lead to it. */
  private static Map<GradNode, Integer> dependencies(GradNode root) {
    Map<GradNode, Integer> count = new IdentityHashMap<>();
    Set<GradNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<GradNode> stack = new ArrayDeque<>();
    stack.push(root);
    seen.add(root);
    while (!stack.isEmpty()) {
      GradNode node = stack.pop();
      for (GradNode next : node.next) {
        if (next == null) {
          continue;
        }
        count.merge(next, 1, Integer::sum);
        if (seen.add(next)) {
          stack.push(next);
        }
      }
    }
    return count;
  }

  /** Adds a leaf's total gradient of this run into its {@link Tensor#grad()}. */
  private static void accumulate(Tensor leaf, Tensor g, Tensor root,
      Set<MemorySegment> handedOut) {
    GradGraph.Meta m = leaf.autogradMeta();
    // One backward at a time per leaf, as PyTorch's AccumulateGrad mutex: threads running their
    // own graphs into a shared leaf would otherwise lose each other's additions.
    synchronized (m) {
      if (m.grad == null) {
        m.grad = owned(g, root, handedOut);
      } else {
        // In place, as PyTorch's AccumulateGrad: a grad() the caller holds sees the sum.
        Ops.add(m.grad, g, m.grad);
      }
    }
  }

  /**
   * {@code g} itself when nothing else can see its storage (a dense tensor the run computed and
   * handed to no one else), else a copy: the caller's gradient, its views, an expanded view, and
   * a gradient two leaves received are copied.
   */
  private static Tensor owned(Tensor g, Tensor root, Set<MemorySegment> handedOut) {
    boolean dense = g.isContiguous() && g.offset() == 0 && g.storageSize() == g.numel()
        && !g.isWrappedNumber();
    if (dense && g.segment() != root.segment() && handedOut.add(g.segment())) {
      return g;
    }
    return g.copy();
  }
}
