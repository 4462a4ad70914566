package dev.ufunc4j.internal;

import dev.ufunc4j.BroadcastDims;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.invoke.MethodHandles;

/**
 * The runtime's other packages' door to {@link Tensor}'s package-private members (the JDK's {@code
 * SharedSecrets} pattern): {@code dev.ufunc4j.kernel.Dispatch} and the helpers of this package
 * need a tensor's shape without a copy and need to make tensors, and neither belongs in Tensor's
 * public API. Internal API: the package is not exported by the module.
 *
 * <p>Tensor installs the one implementation when it is initialised; {@link #get()} makes sure
 * that has happened. Callers keep the instance in a {@code static final} field, so the JIT sees
 * one receiver class and inlines every call.
 */
public abstract class TensorInternals {
  private static TensorInternals installed;

  /** For Tensor's implementation only. */
  protected TensorInternals() {}

  /**
   * Called once, by Tensor's static initialiser.
   *
   * @throws IllegalStateException when called a second time or from another class
   */
  public static synchronized void install(TensorInternals impl) {
    Class<?> caller =
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass();
    if (caller != Tensor.class || installed != null) {
      throw new IllegalStateException(
          "TensorInternals is installed once, by dev.ufunc4j.Tensor; called by "
              + caller.getName());
    }
    installed = impl;
  }

  /** The implementation, initialising {@link Tensor} first if nothing has yet. */
  public static synchronized TensorInternals get() {
    if (installed == null) {
      try {
        MethodHandles.lookup().ensureInitialized(Tensor.class);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
    if (installed == null) {
      throw new IllegalStateException("dev.ufunc4j.Tensor did not install its internals");
    }
    return installed;
  }

  /** The tensor's sizes without a copy: callers must not modify the array. */
  public abstract long[] shapeRef(Tensor t);

  /** The tensor's strides without a copy: callers must not modify the array. */
  public abstract long[] stridesRef(Tensor t);

  /**
   * A new tensor laid out with {@code strides} (a permutation of the contiguous strides of {@code
   * shape}) whose contents are unspecified: the caller writes every element.
   */
  public abstract Tensor emptyStrided(DType dtype, long[] shape, long[] strides);

  /** A new C-contiguous tensor whose contents are unspecified: the caller writes every element. */
  public abstract Tensor emptyUninitialized(DType dtype, long[] shape);

  /** A Java integer as a wrapped number (a zero-dim INT64 tensor that promotes as a Python int). */
  public abstract Tensor wrap(long value);

  /** A Java floating number as a wrapped number (promotes as a Python float). */
  public abstract Tensor wrap(double value);

  /**
   * The two operands with the lower-rank one lifted by XLA's broadcast dimensions (the rules and
   * messages of {@code Broadcast.inDimOperands}); {@code op} names the op in messages.
   */
  public abstract Tensor[] liftWithDims(String op, Tensor a, Tensor b, BroadcastDims dims);
}
