package dev.ufunc4j.kernel;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The runtime description of one generated op: its operands, its promotion mode and the table of
 * kernels, one per accepted combination of operand dtypes. Built by generated code through {@link
 * #builder}; read by the planner.
 *
 * <p>Table lookup costs an array read: for up to two tensor operands the key is the mixed-radix
 * number of their dtype ordinals; ops with three or more operands have fused kernels only where
 * every operand has the same dtype, keyed by that dtype (other combinations are converted to the
 * compute dtype first by the planner).
 */
public final class ElementwiseOp {

  /** One scalar parameter's declared Java type. */
  public enum ScalarKind {
    DOUBLE,
    LONG,
    BOOLEAN
  }

  private static final int NUM_DTYPES = DType.values().length;

  private final String name;
  private final String declaringClass;
  private final List<String> tensorParams;
  private final boolean[] conditionOperand;
  private final List<String> scalarParams;
  private final List<ScalarKind> scalarKinds;
  private final Promote promote;
  private final boolean predicate;
  private final int[] keyToEntry;
  private final DType[][] entryInputs;
  private final DType[] entryCompute;
  private final DType[] entryResult;
  private final KernelFactory factory;
  private final ElementwiseKernel[] kernels;

  private ElementwiseOp(Builder b) {
    this.name = b.name;
    this.declaringClass = b.declaringClass;
    this.tensorParams = List.copyOf(b.tensorParams);
    this.conditionOperand = new boolean[tensorParams.size()];
    for (int i = 0; i < conditionOperand.length; i++) {
      conditionOperand[i] = b.conditionParams.contains(tensorParams.get(i));
    }
    this.scalarParams = List.copyOf(b.scalarParams);
    this.scalarKinds = List.copyOf(b.scalarKinds);
    this.promote = b.promote;
    this.predicate = b.predicate;
    this.factory = Objects.requireNonNull(b.factory, "factory");
    int n = b.inputs.size();
    this.entryInputs = b.inputs.toArray(new DType[0][]);
    this.entryCompute = b.compute.toArray(new DType[0]);
    this.entryResult = b.result.toArray(new DType[0]);
    this.kernels = new ElementwiseKernel[n];
    this.keyToEntry = new int[keySpace(tensorParams.size())];
    Arrays.fill(keyToEntry, -1);
    for (int i = 0; i < n; i++) {
      int key = key(entryInputs[i]);
      if (key < 0) {
        throw new IllegalArgumentException(
            "op " + name + ": entry " + Arrays.toString(entryInputs[i])
                + " mixes dtypes in an op with three or more tensor operands");
      }
      if (keyToEntry[key] >= 0) {
        throw new IllegalArgumentException(
            "op " + name + ": duplicate entry " + Arrays.toString(entryInputs[i]));
      }
      keyToEntry[key] = i;
    }
  }

  private static int keySpace(int arity) {
    return switch (arity) {
      case 0 -> 1;
      case 1 -> NUM_DTYPES;
      case 2 -> NUM_DTYPES * NUM_DTYPES;
      default -> NUM_DTYPES;
    };
  }

  private int key(DType[] dtypes) {
    int arity = tensorParams.size();
    if (dtypes.length != arity) {
      throw new IllegalArgumentException(
          "op " + name + " takes " + arity + " tensor operands, got " + dtypes.length);
    }
    return switch (arity) {
      case 0 -> 0;
      case 1 -> dtypes[0].ordinal();
      case 2 -> dtypes[0].ordinal() * NUM_DTYPES + dtypes[1].ordinal();
      default -> {
        for (DType d : dtypes) {
          if (d != dtypes[0]) {
            yield -1;
          }
        }
        yield dtypes[0].ordinal();
      }
    };
  }

  /**
   * The table entry for these operand dtypes (one per tensor parameter, in order), or -1 when the
   * op has no kernel for exactly this combination.
   */
  public int entry(DType... operandDtypes) {
    int key = key(operandDtypes);
    return key < 0 ? -1 : keyToEntry[key];
  }

  /** The kernel of table entry {@code index}, created on first use. */
  public ElementwiseKernel kernel(int index) {
    ElementwiseKernel k = kernels[index];
    if (k == null) {
      // Kernels are stateless: a racing second creation is harmless.
      k = factory.create(index);
      kernels[index] = k;
    }
    return k;
  }

  public int entryCount() {
    return entryInputs.length;
  }

  /** The operand dtypes of table entry {@code index}. */
  public List<DType> entryInputs(int index) {
    return List.of(entryInputs[index]);
  }

  /** The dtype table entry {@code index} computes in (FLOAT32 for FLOAT16 operands). */
  public DType entryCompute(int index) {
    return entryCompute[index];
  }

  /** The dtype table entry {@code index} stores. */
  public DType entryResult(int index) {
    return entryResult[index];
  }

  public String name() {
    return name;
  }

  /** Binary name of the class that declares the op's scalar methods. */
  public String declaringClass() {
    return declaringClass;
  }

  public List<String> tensorParams() {
    return tensorParams;
  }

  public int arity() {
    return tensorParams.size();
  }

  /** True when tensor operand {@code i} is a BOOL condition that does not join promotion. */
  public boolean isConditionOperand(int i) {
    return conditionOperand[i];
  }

  public List<String> scalarParams() {
    return scalarParams;
  }

  public List<ScalarKind> scalarKinds() {
    return scalarKinds;
  }

  public Promote promote() {
    return promote;
  }

  /** True when the op's result is BOOL whatever its operands (comparisons, {@code isclose}). */
  public boolean isPredicate() {
    return predicate;
  }

  @Override
  public String toString() {
    return declaringClass + "." + name + tensorParams;
  }

  public static Builder builder(String name, String declaringClass) {
    return new Builder(name, declaringClass);
  }

  /** Assembles an op; used by generated code. */
  public static final class Builder {
    private final String name;
    private final String declaringClass;
    private final List<String> tensorParams = new ArrayList<>();
    private final List<String> conditionParams = new ArrayList<>();
    private final List<String> scalarParams = new ArrayList<>();
    private final List<ScalarKind> scalarKinds = new ArrayList<>();
    private Promote promote = Promote.PROMOTE;
    private boolean predicate;
    private final List<DType[]> inputs = new ArrayList<>();
    private final List<DType> compute = new ArrayList<>();
    private final List<DType> result = new ArrayList<>();
    private KernelFactory factory;

    private Builder(String name, String declaringClass) {
      this.name = Objects.requireNonNull(name, "name");
      this.declaringClass = Objects.requireNonNull(declaringClass, "declaringClass");
    }

    public Builder tensor(String param) {
      tensorParams.add(param);
      return this;
    }

    /** A BOOL condition operand that does not join promotion ({@code where(c, a, b)}). */
    public Builder condition(String param) {
      tensorParams.add(param);
      conditionParams.add(param);
      return this;
    }

    public Builder scalar(String param, ScalarKind kind) {
      scalarParams.add(param);
      scalarKinds.add(kind);
      return this;
    }

    public Builder promote(Promote mode) {
      this.promote = Objects.requireNonNull(mode, "promote");
      return this;
    }

    public Builder predicate(boolean isPredicate) {
      this.predicate = isPredicate;
      return this;
    }

    /** Adds table entry number {@code entryCount()}: these operand dtypes, compute and result. */
    public Builder entry(DType compute, DType result, DType... operandDtypes) {
      this.inputs.add(operandDtypes.clone());
      this.compute.add(compute);
      this.result.add(result);
      return this;
    }

    public Builder kernels(KernelFactory factory) {
      this.factory = factory;
      return this;
    }

    public ElementwiseOp build() {
      return new ElementwiseOp(this);
    }
  }
}
