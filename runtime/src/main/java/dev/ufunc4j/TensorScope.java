package dev.ufunc4j;

import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A region whose tensors' memory is freed deterministically when it closes, instead of by the GC.
 *
 * <pre>{@code
 * try (var _ = TensorScope.open()) {
 *   Tensor t = Tensor.zeros(DType.FLOAT32, 4096, 4096); // freed at the end of the block
 * }
 * }</pre>
 *
 * <p>Every tensor whose storage is allocated on the opening thread while the scope is the innermost
 * open one belongs to it; views share their base's storage and owner. Reading a tensor of a closed
 * scope throws {@link IllegalStateException}: the memory is gone. A scope's memory is shared
 * (readable from the runtime's worker threads), and scopes nest; they must close innermost first.
 */
public final class TensorScope implements AutoCloseable {

  private static final ThreadLocal<Deque<TensorScope>> OPEN =
      ThreadLocal.withInitial(ArrayDeque::new);

  private final Arena arena = Arena.ofShared();
  private final Thread owner = Thread.currentThread();
  private boolean closed;

  private TensorScope() {}

  /** Opens a scope on the current thread; it becomes where new tensors allocate until closed. */
  public static TensorScope open() {
    TensorScope scope = new TensorScope();
    OPEN.get().push(scope);
    return scope;
  }

  /** The arena new storage on this thread goes to, or null for GC-managed storage. */
  static Arena currentArena() {
    TensorScope top = OPEN.get().peek();
    return top == null ? null : top.arena;
  }

  /** Frees the memory of every tensor allocated in this scope. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "a TensorScope must be closed by the thread that opened it (" + owner.getName() + ")");
    }
    Deque<TensorScope> open = OPEN.get();
    if (open.peek() != this) {
      throw new IllegalStateException(
          "TensorScopes close innermost first: an inner scope opened after this one is still open");
    }
    open.pop();
    closed = true;
    arena.close();
  }
}
