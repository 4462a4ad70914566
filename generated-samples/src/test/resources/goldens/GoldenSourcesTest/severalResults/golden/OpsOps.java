package golden;

import dev.ufunc4j.BroadcastDims;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.Tensor;
import javax.annotation.processing.Generated;

/**
 * The {@code @Elementwise} ops of {@link golden.Ops} as static methods. Each broadcasts its tensor operands
 * against each other, promotes them to a common dtype as PyTorch does and returns a new tensor;
 * the form with a last {@code out} tensor writes the result there instead (in place when it is
 * the first operand). Each method names the dtypes it computes.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
public final class OpsOps {
  private OpsOps() {
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static DivMod divmod(Tensor a, Tensor b) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, null, a, b);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code quotientOut} and {@code remainderOut}:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>Each target must have the broadcast shape, its component's dtype must cast to its dtype
   * (PyTorch's same-kind rule), and no target may overlap another or partially overlap an operand.
   * Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param quotientOut a target
   * @param remainderOut a target
   * @return the tensors of the components: the targets
   */
  public static DivMod divmod(Tensor a, Tensor b, Tensor quotientOut, Tensor remainderOut) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, new Tensor[] {quotientOut, remainderOut},
        a, b);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static DivMod divmod(Number a, Tensor b) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, null,
        Dispatch.wrap(Ops_divmod.OP, 0, a), b);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code quotientOut} and {@code remainderOut}:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>Each target must have the broadcast shape, its component's dtype must cast to its dtype
   * (PyTorch's same-kind rule), and no target may overlap another or partially overlap an operand.
   * Nothing is written when a check fails.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @param quotientOut a target
   * @param remainderOut a target
   * @return the tensors of the components: the targets
   */
  public static DivMod divmod(Number a, Tensor b, Tensor quotientOut, Tensor remainderOut) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, new Tensor[] {quotientOut, remainderOut},
        Dispatch.wrap(Ops_divmod.OP, 0, a), b);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static DivMod divmod(Tensor a, Number b) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, null,
        a, Dispatch.wrap(Ops_divmod.OP, 1, b));
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code quotientOut} and {@code remainderOut}:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>Each target must have the broadcast shape, its component's dtype must cast to its dtype
   * (PyTorch's same-kind rule), and no target may overlap another or partially overlap an operand.
   * Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param quotientOut a target
   * @param remainderOut a target
   * @return the tensors of the components: the targets
   */
  public static DivMod divmod(Tensor a, Number b, Tensor quotientOut, Tensor remainderOut) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, new Tensor[] {quotientOut, remainderOut},
        a, Dispatch.wrap(Ops_divmod.OP, 1, b));
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * @param a a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param b a tensor operand
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static DivMod divmod(boolean a, Tensor b) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, null,
        Dispatch.wrap(Ops_divmod.OP, 0, a), b);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code quotientOut} and {@code remainderOut}:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>Each target must have the broadcast shape, its component's dtype must cast to its dtype
   * (PyTorch's same-kind rule), and no target may overlap another or partially overlap an operand.
   * Nothing is written when a check fails.
   *
   * @param a a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param b a tensor operand
   * @param quotientOut a target
   * @param remainderOut a target
   * @return the tensors of the components: the targets
   */
  public static DivMod divmod(boolean a, Tensor b, Tensor quotientOut, Tensor remainderOut) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, new Tensor[] {quotientOut, remainderOut},
        Dispatch.wrap(Ops_divmod.OP, 0, a), b);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * @param a a tensor operand
   * @param b a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static DivMod divmod(Tensor a, boolean b) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, null,
        a, Dispatch.wrap(Ops_divmod.OP, 1, b));
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code quotientOut} and {@code remainderOut}:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>Each target must have the broadcast shape, its component's dtype must cast to its dtype
   * (PyTorch's same-kind rule), and no target may overlap another or partially overlap an operand.
   * Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param quotientOut a target
   * @param remainderOut a target
   * @return the tensors of the components: the targets
   */
  public static DivMod divmod(Tensor a, boolean b, Tensor quotientOut, Tensor remainderOut) {
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, new Tensor[] {quotientOut, remainderOut},
        a, Dispatch.wrap(Ops_divmod.OP, 1, b));
    return new DivMod(results[0], results[1]);
  }

  /**
   * Java's quotient and remainder.
   *
   * <p>Applies {@link golden.Ops#divmod(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code DivMod}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>With XLA's explicit broadcasting: the lower-rank operand is first lifted by {@code dims}
   * ({@link dev.ufunc4j.Broadcast#inDim}).
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param dims XLA's {@code broadcast_dimensions} for the lower-rank operand
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static DivMod divmod(Tensor a, Tensor b, BroadcastDims dims) {
    Tensor[] operands = Dispatch.liftWithDims(Ops_divmod.OP, a, b, dims);
    Tensor[] results = Dispatch.applyResults(Ops_divmod.OP, null, operands);
    return new DivMod(results[0], results[1]);
  }

  /**
   * Applies {@link golden.Ops#split(double, double)} (floating dtypes)
   * to each element of the broadcast operands:
   * one kernel computes the body once per element and writes a tensor per component of {@code Split}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code x} and {@code scale}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * @param x a tensor operand
   * @param scale a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return the tensors of the components, new, of the broadcast shape
   */
  public static Split split(Tensor x, Number scale) {
    Tensor[] results = Dispatch.applyResults(Ops_split.OP, null, new Tensor[] {x},
        new Object[] {scale});
    return new Split(results[0], results[1], results[2]);
  }

  /**
   * Applies {@link golden.Ops#split(double, double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code wholeOut} and {@code fractionOut} and {@code negativeOut}:
   * one kernel computes the body once per element and writes a tensor per component of {@code Split}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code x} and {@code scale}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. A boolean component's tensor is bool.
   *
   * <p>Each target must have the broadcast shape, its component's dtype must cast to its dtype
   * (PyTorch's same-kind rule), and no target may overlap another or partially overlap an operand.
   * Nothing is written when a check fails.
   *
   * @param x a tensor operand
   * @param scale a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param wholeOut a target
   * @param fractionOut a target
   * @param negativeOut a target
   * @return the tensors of the components: the targets
   */
  public static Split split(Tensor x, Number scale, Tensor wholeOut, Tensor fractionOut,
      Tensor negativeOut) {
    Tensor[] results = Dispatch.applyResults(Ops_split.OP, new Tensor[] {wholeOut, fractionOut, negativeOut},
        new Tensor[] {x}, new Object[] {scale});
    return new Split(results[0], results[1], results[2]);
  }

  /**
   * The results of an op that returns {@code golden.Ops.DivMod}: one tensor per component, named as its
   * components, all of the broadcast shape.
   *
   * @param quotient the tensor of component {@code quotient} (the result dtype)
   * @param remainder the tensor of component {@code remainder} (the result dtype)
   */
  public record DivMod(Tensor quotient, Tensor remainder) {
  }

  /**
   * The results of an op that returns {@code golden.Ops.Split}: one tensor per component, named as its
   * components, all of the broadcast shape.
   *
   * @param whole the tensor of component {@code whole} (the result dtype)
   * @param fraction the tensor of component {@code fraction} (the result dtype)
   * @param negative the tensor of component {@code negative} (dtype bool)
   */
  public record Split(Tensor whole, Tensor fraction, Tensor negative) {
  }
}
