package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a static scalar method as an elementwise tensor op. The ufunc4j annotation processor
 * expands it into one Vector API kernel per promoted dtype pair and rank, and a facade class
 * {@code <DeclaringClass>Ops} with static methods over tensors (named otherwise with {@link
 * Facade}). The method's javadoc becomes the description of the op's facade methods.
 *
 * <p>Overloads of one name are one op: a {@code long} body gives the integral and bool kernels, a
 * {@code double} body the floating ones, an all-{@code boolean} body the logical ones.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Elementwise {
  /** {@return how operand dtypes combine into the compute dtype} */
  Promote promote() default Promote.PROMOTE;

  /** {@return the op's name in the facade and registry; empty means the method's name} */
  String name() default "";

  /**
   * {@return the name of the op's methods in the facade; empty means the op's name} Two ops may
   * share one, as long as their methods' parameter types differ: the built-in {@code addScaled}
   * (with a {@code @Scalar alpha}) has the methods {@code add(a, b, alpha)}, beside {@code add}'s
   * {@code add(a, b)}, as PyTorch's {@code add} takes an optional alpha.
   */
  String methodName() default "";

  /**
   * Also generate the methods that take every promoting tensor operand after the first parameter
   * as a Java {@code Number}, all together ({@code clamp(x, 0, 6)}, {@code where(c, 1.0, 0.0)}).
   * Without it, only an op with exactly two promoting operands takes a number, in either one
   * alone ({@code add(t, 2)}, {@code add(2, t)}).
   *
   * @return whether every promoting operand after the first may also be a Java number
   */
  boolean numbersAfterFirst() default false;

  /**
   * Beside float16 or bfloat16, read a second operand that is a single value of another dtype (a
   * Java number, a zero-dim tensor, a tensor of one element) at float32 precision, the precision
   * the kernel computes in, instead of rounding it to the 16-bit dtype first: {@code float16 0.5 *
   * 1e5} is then 49984 (1e5 rounded to float16 first is inf), {@code float16 65504 * 1.0004} is
   * inf. The result is still rounded once to the 16-bit dtype. PyTorch's {@code mul}, {@code div}
   * and {@code floor_divide} kernels do this (the built-in ops of those names declare it); its other
   * ops, and ops without this, round the value to the common dtype first, as {@code
   * TensorIterator} casts every operand.
   *
   * @return whether a single value beside float16 or bfloat16 is read at float32 precision
   */
  boolean scalarInFloat32() default false;

  /**
   * {@return the dtypes the op is generated for; empty (the default) means every dtype its bodies
   * can compute} Each name is a dtype ({@code "float32"}, {@code "int64"}, {@code "bool"},
   * PyTorch's names) or a category: {@code "floating"} (float16, bfloat16, float32, float64),
   * {@code "integral"} (the signed and unsigned integer dtypes, not bool), {@code "complex"}
   * (complex32, complex64, complex128). Kernels are generated only for operand dtypes in the set
   * that promote to a dtype in the set, so {@code dtypes = "float32"} generates one kernel where
   * the full matrix has dozens; a call whose operands or promoted dtype fall outside it is refused
   * with a message naming the set, except that mixed operands promoting to a dtype of the set are
   * converted to it first (the slower path of {@code docs/ops.md}). An unknown name, a float8
   * dtype, an explicitly empty set, or a set for which no body computes anything is a compile error
   * at the value.
   */
  String[] dtypes() default {};

  /**
   * {@return the op's identity element, for ops with exactly two tensor operands and no {@code
   * Scalar} parameter (the ufunc methods of {@code dev.ufunc4j.BinaryUfunc}): a reduction over an
   * empty extent gives it; {@link Identity#NONE} (the default) refuses one} Declaring one on any
   * other op, or {@link Identity#MINUS_ONE} on an op without a {@code long} body, is a compile
   * error at the value.
   */
  Identity identity() default Identity.NONE;

  /**
   * {@return whether {@code op(op(a, b), c) == op(a, op(b, c))} (in exact arithmetic: floating
   * {@code add} is associative here, as NumPy treats it)} An associative op reduces in a fixed
   * pairwise tree and over several dims at once; any other reduces in a strict left fold along one
   * dim, and a reduction over more than one dim is refused, as NumPy refuses it. Only for ops with
   * exactly two tensor operands and no {@code @Scalar}, like {@link #identity}.
   */
  boolean associative() default false;
}
