package golden;

import dev.ufunc4j.BroadcastDims;
import dev.ufunc4j.Tensor;
import javax.annotation.processing.Generated;

/**
 * The instance forms of {@link Calc}'s methods: {@code x.op(b)} is {@code Calc.op(x, b)},
 * {@code x.opInPlace(b)} is {@code Calc.op(x, b, x)}, for every op whose first parameter is a promoting
 * tensor operand. A class of this package that extends it and returns itself from {@link #self}
 * has them as its methods.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
abstract class CalcMethods {
  /**
   * The receiver of the instance forms: the first operand, and the target in place.
   *
   * @return the tensor the methods apply to
   */
  abstract Tensor self();

  /**
   * {@code x} within {@code [lo, hi]}.
   *
   * <p>As {@link Calc#clamp(Tensor, Tensor, Tensor)} with this tensor as {@code x}.
   *
   * @param lo a tensor operand
   * @param hi a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public Tensor clamp(Tensor lo, Tensor hi) {
    return Calc.clamp(self(), lo, hi);
  }

  /**
   * {@code x} within {@code [lo, hi]}.
   *
   * <p>As {@link Calc#clamp(Tensor, Number, Number)} with this tensor as {@code x}.
   *
   * @param lo a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param hi a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public Tensor clamp(Number lo, Number hi) {
    return Calc.clamp(self(), lo, hi);
  }

  /**
   * {@code x} within {@code [lo, hi]}.
   *
   * <p>In place: as {@link Calc#clamp(Tensor, Tensor, Tensor, Tensor)} with this tensor as {@code x} and as {@code out}.
   * This tensor's shape and dtype never change: the broadcast shape must equal its shape, and the result
   * dtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused). Nothing is written
   * when a check fails.
   *
   * @param lo a tensor operand
   * @param hi a tensor operand
   * @return this tensor
   */
  public Tensor clampInPlace(Tensor lo, Tensor hi) {
    return Calc.clamp(self(), lo, hi, self());
  }

  /**
   * {@code x} within {@code [lo, hi]}.
   *
   * <p>In place: as {@link Calc#clamp(Tensor, Number, Number, Tensor)} with this tensor as {@code x} and as {@code out}.
   * This tensor's shape and dtype never change: the broadcast shape must equal its shape, and the result
   * dtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused). Nothing is written
   * when a check fails.
   *
   * @param lo a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param hi a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return this tensor
   */
  public Tensor clampInPlace(Number lo, Number hi) {
    return Calc.clamp(self(), lo, hi, self());
  }

  /**
   * {@code a - b}, elementwise.
   *
   * <p>As {@link Calc#sub(Tensor, Tensor)} with this tensor as {@code a}.
   *
   * @param b a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public Tensor sub(Tensor b) {
    return Calc.sub(self(), b);
  }

  /**
   * {@code a - b}, elementwise.
   *
   * <p>As {@link Calc#sub(Tensor, Number)} with this tensor as {@code a}.
   *
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public Tensor sub(Number b) {
    return Calc.sub(self(), b);
  }

  /**
   * {@code a - b}, elementwise.
   *
   * <p>As {@link Calc#sub(Tensor, Tensor, BroadcastDims)} with this tensor as {@code a}.
   *
   * @param b a tensor operand
   * @param dims XLA's {@code broadcast_dimensions} for the lower-rank operand
   * @return a new tensor of the broadcast shape
   */
  public Tensor sub(Tensor b, BroadcastDims dims) {
    return Calc.sub(self(), b, dims);
  }

  /**
   * {@code a - b}, elementwise.
   *
   * <p>In place: as {@link Calc#sub(Tensor, Tensor, Tensor)} with this tensor as {@code a} and as {@code out}.
   * This tensor's shape and dtype never change: the broadcast shape must equal its shape, and the result
   * dtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused). Nothing is written
   * when a check fails.
   *
   * @param b a tensor operand
   * @return this tensor
   */
  public Tensor subInPlace(Tensor b) {
    return Calc.sub(self(), b, self());
  }

  /**
   * {@code a - b}, elementwise.
   *
   * <p>In place: as {@link Calc#sub(Tensor, Number, Tensor)} with this tensor as {@code a} and as {@code out}.
   * This tensor's shape and dtype never change: the broadcast shape must equal its shape, and the result
   * dtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused). Nothing is written
   * when a check fails.
   *
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return this tensor
   */
  public Tensor subInPlace(Number b) {
    return Calc.sub(self(), b, self());
  }

  /**
   * {@code a - alpha * b}, elementwise.
   *
   * <p>As {@link Calc#sub(Tensor, Tensor, Number)} with this tensor as {@code a}.
   *
   * @param b a tensor operand
   * @param alpha a Java number, passed as its rule says
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public Tensor sub(Tensor b, Number alpha) {
    return Calc.sub(self(), b, alpha);
  }

  /**
   * {@code a - alpha * b}, elementwise.
   *
   * <p>As {@link Calc#sub(Tensor, Number, Number)} with this tensor as {@code a}.
   *
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param alpha a Java number, passed as its rule says
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public Tensor sub(Number b, Number alpha) {
    return Calc.sub(self(), b, alpha);
  }

  /**
   * {@code a - alpha * b}, elementwise.
   *
   * <p>As {@link Calc#sub(Tensor, Tensor, Number, BroadcastDims)} with this tensor as {@code a}.
   *
   * @param b a tensor operand
   * @param alpha a Java number, passed as its rule says
   * @param dims XLA's {@code broadcast_dimensions} for the lower-rank operand
   * @return a new tensor of the broadcast shape
   */
  public Tensor sub(Tensor b, Number alpha, BroadcastDims dims) {
    return Calc.sub(self(), b, alpha, dims);
  }

  /**
   * {@code a - alpha * b}, elementwise.
   *
   * <p>In place: as {@link Calc#sub(Tensor, Tensor, Number, Tensor)} with this tensor as {@code a} and as {@code out}.
   * This tensor's shape and dtype never change: the broadcast shape must equal its shape, and the result
   * dtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused). Nothing is written
   * when a check fails.
   *
   * @param b a tensor operand
   * @param alpha a Java number, passed as its rule says
   * @return this tensor
   */
  public Tensor subInPlace(Tensor b, Number alpha) {
    return Calc.sub(self(), b, alpha, self());
  }

  /**
   * {@code a - alpha * b}, elementwise.
   *
   * <p>In place: as {@link Calc#sub(Tensor, Number, Number, Tensor)} with this tensor as {@code a} and as {@code out}.
   * This tensor's shape and dtype never change: the broadcast shape must equal its shape, and the result
   * dtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused). Nothing is written
   * when a check fails.
   *
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param alpha a Java number, passed as its rule says
   * @return this tensor
   */
  public Tensor subInPlace(Number b, Number alpha) {
    return Calc.sub(self(), b, alpha, self());
  }
}
