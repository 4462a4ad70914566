package dev.ufunc4j;

import dev.ufunc4j.internal.VectorModule;

/**
 * The hand-written part of {@link Ops}: operations that are not elementwise, so not generated from
 * {@code Builtins}. The generated {@code Ops} extends this class, so they are called as {@code
 * Ops.sum(x)} like every other op. Reductions: {@code docs/reductions.md}.
 *
 * <p>Public only so that its methods can also be called reflectively through {@code Ops} from
 * other packages (the JDK refuses a reflective call to a public static method declared in a
 * package-private class); call them as {@code Ops.sum(x)}. Not for subclassing: the only
 * constructor is package-private.
 */
public class OpsBase {
  static {
    // Ops is where a program without tensors yet may start; say what is missing here too.
    VectorModule.require();
  }

  OpsBase() {}

  /** {@link Tensor#sum()}: all elements. */
  public static Tensor sum(Tensor x) {
    return Reductions.sum(x, null, false, null);
  }

  /** {@link Tensor#sum(int...)}. */
  public static Tensor sum(Tensor x, int... dims) {
    return Reductions.sum(x, dims, false, null);
  }

  /** {@link Tensor#sum(int[], boolean)}. */
  public static Tensor sum(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.sum(x, dims, keepDim, null);
  }

  /**
   * {@link Tensor#sum(int[], boolean)} into {@code out}, which must have the result's shape and a
   * dtype the result casts to; nothing is written when a check fails.
   */
  public static Tensor sum(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.sum(x, dims, keepDim, requireOut("sum", out));
  }

  /** {@link Tensor#mean()}. */
  public static Tensor mean(Tensor x) {
    return Reductions.mean(x, null, false, null);
  }

  /** {@link Tensor#mean(int...)}. */
  public static Tensor mean(Tensor x, int... dims) {
    return Reductions.mean(x, dims, false, null);
  }

  /** {@link Tensor#mean(int[], boolean)}. */
  public static Tensor mean(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.mean(x, dims, keepDim, null);
  }

  /** {@link Tensor#mean(int[], boolean)} into {@code out} (the result's shape, a castable dtype). */
  public static Tensor mean(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.mean(x, dims, keepDim, requireOut("mean", out));
  }

  /** {@link Tensor#amax()}. */
  public static Tensor amax(Tensor x) {
    return Reductions.amax(x, null, false, null);
  }

  /** {@link Tensor#amax(int...)}. */
  public static Tensor amax(Tensor x, int... dims) {
    return Reductions.amax(x, dims, false, null);
  }

  /** {@link Tensor#amax(int[], boolean)}. */
  public static Tensor amax(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.amax(x, dims, keepDim, null);
  }

  /** {@link Tensor#amax(int[], boolean)} into {@code out} (the result's shape, the input's dtype). */
  public static Tensor amax(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.amax(x, dims, keepDim, requireOut("amax", out));
  }

  /** {@link Tensor#amin()}. */
  public static Tensor amin(Tensor x) {
    return Reductions.amin(x, null, false, null);
  }

  /** {@link Tensor#amin(int...)}. */
  public static Tensor amin(Tensor x, int... dims) {
    return Reductions.amin(x, dims, false, null);
  }

  /** {@link Tensor#amin(int[], boolean)}. */
  public static Tensor amin(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.amin(x, dims, keepDim, null);
  }

  /** {@link Tensor#amin(int[], boolean)} into {@code out} (the result's shape, the input's dtype). */
  public static Tensor amin(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.amin(x, dims, keepDim, requireOut("amin", out));
  }

  /** {@link Tensor#sumToShape(long...)}. */
  public static Tensor sumToShape(Tensor x, long... shape) {
    return Reductions.sumToShape(x, shape);
  }

  private static Tensor requireOut(String name, Tensor out) {
    if (out == null) {
      throw new IllegalArgumentException(name + "(): out must not be null; call the form without out");
    }
    return out;
  }
}
