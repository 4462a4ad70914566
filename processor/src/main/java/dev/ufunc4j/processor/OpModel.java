package dev.ufunc4j.processor;

import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import java.util.List;
import java.util.Optional;

/**
 * One op: every {@code @Elementwise} overload of one name in one class. Immutable; built by {@link
 * OpCollector}, read by the generators.
 *
 * @param name the op's name (the method's, or {@code @Elementwise(name)})
 * @param declaringClass the class that declares the scalar methods
 * @param tensors tensor parameters in declaration order, conditions included
 * @param scalars {@code @Scalar} parameters in declaration order
 * @param predicate true when the overloads return boolean (BOOL result)
 * @param overloads at most one per body type, sorted by {@link ValueType}
 * @param scalarInFloat32 {@code @Elementwise(scalarInFloat32)}: a single-valued second operand
 *     beside float16/bfloat16 enters the computation at float32 precision
 * @param dtypes {@code @Elementwise(dtypes)} resolved: the dtypes kernels are generated for, in
 *     declaration order; empty when the op does not restrict them
 * @param identity {@code @Elementwise(identity)}: what a reduction over an empty extent gives
 * @param associative {@code @Elementwise(associative)}: reductions may use the pairwise tree
 * @param results the record the op returns when it has several results (issue 26), else null
 */
record OpModel(
    String name,
    DeclaringClass declaringClass,
    Promote promote,
    List<TensorParam> tensors,
    List<ScalarParam> scalars,
    boolean predicate,
    List<Overload> overloads,
    boolean scalarInFloat32,
    List<DType> dtypes,
    Identity identity,
    boolean associative,
    Results results) {

  OpModel {
    tensors = List.copyOf(tensors);
    scalars = List.copyOf(scalars);
    overloads = List.copyOf(overloads);
    dtypes = List.copyOf(dtypes);
  }

  /** An op with one result. */
  OpModel(String name, DeclaringClass declaringClass, Promote promote, List<TensorParam> tensors,
      List<ScalarParam> scalars, boolean predicate, List<Overload> overloads,
      boolean scalarInFloat32, List<DType> dtypes, Identity identity, boolean associative) {
    this(name, declaringClass, promote, tensors, scalars, predicate, overloads, scalarInFloat32,
        dtypes, identity, associative, null);
  }

  /** An op without the ufunc attributes (no identity, not associative). */
  OpModel(String name, DeclaringClass declaringClass, Promote promote, List<TensorParam> tensors,
      List<ScalarParam> scalars, boolean predicate, List<Overload> overloads,
      boolean scalarInFloat32, List<DType> dtypes) {
    this(name, declaringClass, promote, tensors, scalars, predicate, overloads, scalarInFloat32,
        dtypes, Identity.NONE, false);
  }

  /** An op that does not restrict its dtypes. */
  OpModel(String name, DeclaringClass declaringClass, Promote promote, List<TensorParam> tensors,
      List<ScalarParam> scalars, boolean predicate, List<Overload> overloads,
      boolean scalarInFloat32) {
    this(name, declaringClass, promote, tensors, scalars, predicate, overloads, scalarInFloat32,
        List.of());
  }

  /**
   * The record an op with several results returns ({@code record DivMod(long quotient, long
   * remainder)}): its kernels write one tensor per component, and its facade returns the record's
   * tensor twin (docs/processor.md, "Several results").
   *
   * @param simpleName the record's simple name, which its generated twin in the facade takes
   * @param canonicalName the record's source name, for javadoc
   * @param components the record's components in declaration order
   */
  record Results(String simpleName, String canonicalName, List<Component> components) {
    Results {
      components = List.copyOf(components);
    }
  }

  /** A record component: its name and type ({@code double}, {@code long} or {@code boolean}). */
  record Component(String name, ValueType type) {}

  /** Whether the op returns a record: several results, one tensor each. */
  boolean hasSeveralResults() {
    return results != null;
  }

  /** Whether kernels may be generated for {@code d}: in {@link #dtypes}, or no restriction. */
  boolean allows(DType d) {
    return dtypes.isEmpty() || dtypes.contains(d);
  }

  /**
   * @param packageName package of the generated classes (the declaring class's)
   * @param flatName simple names from the top-level class down, joined by {@code _}
   * @param binaryName {@code Class.forName} name
   * @param canonicalName source name, for javadoc links
   */
  record DeclaringClass(
      String packageName, String flatName, String binaryName, String canonicalName) {}

  /** A tensor operand; a condition is a BOOL operand that does not join promotion. */
  record TensorParam(String name, boolean condition) {}

  /** A wrapped Java scalar, with the Java type the overloads declare for it. */
  record ScalarParam(String name, ValueType type) {}

  /**
   * One scalar method.
   *
   * @param bodyType what the body computes in: DOUBLE, LONG or BOOLEAN (all-boolean)
   * @param javadocSignature {@code add(double, double)}, for {@code {@link}}
   * @param body the lowered body the kernels compute, without marks
   * @param marked the same body with its calls to ops that declare a {@code @Derivative} still
   *     marked ({@link Expr.OpCall}), which {@link Derivatives} differentiates
   */
  record Overload(ValueType bodyType, String javadocSignature, Body body, Body marked) {

    /** The overload of a lowered body, marked or not. */
    Overload(ValueType bodyType, String javadocSignature, Body lowered) {
      this(bodyType, javadocSignature, lowered.unmarked(), lowered);
    }
  }

  Optional<Overload> overload(ValueType bodyType) {
    return overloads.stream().filter(o -> o.bodyType() == bodyType).findFirst();
  }

  /**
   * Whether the op is a binary ufunc: exactly two tensor operands, both promoting, no {@code
   * @Scalar} and one result; its facade then holds a {@code BinaryUfunc} field of its name, and
   * only it may declare an identity or associativity.
   */
  boolean isBinaryUfunc() {
    return results == null && tensors.size() == 2 && promotingArity() == 2 && scalars.isEmpty();
  }

  int promotingArity() {
    return (int) tensors.stream().filter(t -> !t.condition()).count();
  }
}
