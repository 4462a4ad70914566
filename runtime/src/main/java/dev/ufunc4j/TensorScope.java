package dev.ufunc4j;

import dev.ufunc4j.internal.memory.NativeMemory;
import dev.ufunc4j.internal.memory.ScopeMemory;
import java.lang.foreign.MemorySegment;

/**
 * A region whose tensors' memory is reclaimed deterministically when it closes, instead of by the
 * GC, and reused at once by the next scope: wrap the body of a hot loop in one.
 *
 * <pre>{@code
 * for (int step = 0; step < steps; step++) {
 *   try (var _ = TensorScope.open()) {
 *     Tensor y = x.mul(w).add(b);   // temporaries: reclaimed at the end of each iteration
 *     Ops.add(acc, y, acc);         // results that must live on go into tensors made outside
 *   }
 * }
 * }</pre>
 *
 * <p>Every tensor whose storage is allocated on the opening thread while the scope is the innermost
 * open one belongs to it; views share their base's storage and owner. Opening and closing an empty
 * scope costs 35–60 ns of the thread's CPU time, a small op in a scope 15–130 ns more than the same
 * op fresh, and a tensor in it a pointer bump (measured by {@code dev.ufunc4j.ScopeCostProbe} in
 * the runtime's test sources; {@code docs/runtime.md}); the next scope writes the same, cache-hot
 * memory.
 *
 * <p>Rules: scopes nest and close innermost first, on the thread that opened them (another thread's
 * {@link #close} throws {@link IllegalStateException}). A scope's tensors are confined to the
 * opening thread, like an {@link java.lang.foreign.Arena#ofConfined() Arena.ofConfined()}'s
 * memory: the runtime's own worker threads use them inside an op, but another thread that touches
 * one gets a {@link WrongThreadException}. Using a tensor of a closed scope throws {@link
 * IllegalStateException}: its memory has been handed to other tensors.
 */
public final class TensorScope implements AutoCloseable {

  private final ScopeMemory.Frame frame;

  private TensorScope(ScopeMemory.Frame frame) {
    this.frame = frame;
  }

  /**
   * Opens a scope on the current thread; new tensors on this thread belong to it until it closes.
   *
   * @return the scope; close it to free its tensors
   */
  public static TensorScope open() {
    return new TensorScope(ScopeMemory.open());
  }

  /**
   * Reclaims the memory of every tensor allocated in this scope; using one afterwards throws
   * {@link IllegalStateException}. Idempotent.
   *
   * @throws IllegalStateException when called by another thread than the opening one, or while a
   *     scope opened inside this one is still open
   */
  @Override
  public void close() {
    frame.close();
  }

  /**
   * Storage for a new tensor: in the current thread's innermost open scope, else GC-managed;
   * zeroed when {@code zeroed}, else with unspecified contents (the caller writes every element).
   */
  static MemorySegment allocate(long bytes, boolean zeroed) {
    MemorySegment scoped = ScopeMemory.allocateInScope(bytes, zeroed);
    return scoped != null ? scoped : NativeMemory.allocate(bytes, zeroed);
  }
}
