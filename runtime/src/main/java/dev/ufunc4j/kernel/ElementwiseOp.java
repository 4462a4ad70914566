package dev.ufunc4j.kernel;

import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.loops.StridedBox;
import dev.ufunc4j.internal.Tunables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The runtime description of one generated op: its operands, its promotion mode and the table of
 * kernels, one per accepted combination of operand dtypes. Built by generated code through {@link
 * #builder}; read by the planner.
 *
 * <p>Table lookup costs an array read: for up to two promoting tensor operands the key is the
 * mixed-radix number of their dtype ordinals; ops with three or more promoting operands have fused
 * kernels only where every promoting operand has the same dtype, keyed by that dtype (other
 * combinations are converted to the compute dtype first by the planner). Condition operands (BOOL,
 * {@code where}'s {@code c}) do not join promotion and are not part of the key.
 *
 * <p>An op with {@code @Scalar} parameters can compute in a dtype the tensors alone would not give
 * (PyTorch: {@code int32 tensor * 2.5 -> float32}); its table therefore also keys on the promoted
 * dtype, and the planner looks entries up with {@link #entryPromotedTo}.
 */
public final class ElementwiseOp {

  /** One scalar parameter's declared Java type. */
  public enum ScalarKind {
    /** A {@code double} parameter: a Java number that promotes like a Python float. */
    DOUBLE,
    /** A {@code long} parameter: a Java number that promotes like a Python int. */
    LONG,
    /** A {@code boolean} parameter. */
    BOOLEAN
  }

  /**
   * How the gradient with respect to one tensor operand is computed (docs/gradients.md). The
   * processor derives it from the op's {@code double} body or takes it from a {@code @Derivative}.
   */
  public enum Gradient {
    /** No gradient: a condition operand, or an op without a floating body, or a predicate. */
    NONE,
    /** Zero wherever the op is defined ({@code sign}, {@code floor}). */
    ZERO,
    /** The incoming gradient itself ({@code add}). */
    IDENTITY,
    /**
     * {@link #backward(int)} computes it: an op over {@code (grad, x1, ..., xn)} and the same
     * scalars, whose result is the gradient before it is summed to the operand's shape.
     */
    OP
  }

  private static final int NUM_DTYPES = DType.values().length;

  /** The largest {@link #cost()} a descriptor may declare (the processor writes at most 8). */
  static final int MAX_COST = 64;

  private final String name;
  private final String declaringClass;
  private final List<String> tensorParams;
  private final boolean[] conditionOperand;
  private final List<String> scalarParams;
  private final List<ScalarKind> scalarKinds;
  private final Promote promote;
  private final boolean predicate;
  private final List<String> resultNames;
  private final boolean[] boolResult;
  private final boolean mayThrow;
  private final boolean scalarInFloat32;
  private final List<DType> dtypes;
  private final Identity identity;
  private final boolean associative;
  private final int cost;
  private final boolean keyedByPromoted;
  private final int[] keyToEntry;
  private final DType[] entryPromoted;
  private final DType[][] entryInputs;
  private final DType[] entryCompute;
  private final DType[] entryResult;
  private final KernelFactory factory;
  private final ElementwiseKernel[] kernels;
  /** Each kernel as the loop driver's {@link StridedBox}, made once (no allocation per call). */
  private final StridedBox[] boxes;
  private final Gradient[] gradients;
  private final ElementwiseOp[] backward;
  /** The tuning profile's grain per entry (0: none), and the tunables it came from. */
  private volatile TunedGrains tunedGrains;

  private record TunedGrains(Object generation, long[] perEntry) {}

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
    this.resultNames = List.copyOf(b.resultNames);
    this.boolResult = new boolean[resultNames.size()];
    for (int k = 0; k < boolResult.length; k++) {
      boolResult[k] = b.boolResults.contains(resultNames.get(k));
    }
    this.mayThrow = b.mayThrow;
    this.scalarInFloat32 = b.scalarInFloat32;
    this.dtypes = List.copyOf(b.dtypes);
    this.identity = b.identity;
    this.associative = b.associative;
    this.cost = b.cost;
    this.keyedByPromoted = !scalarParams.isEmpty();
    this.factory = Objects.requireNonNull(b.factory, "factory");
    int n = b.inputs.size();
    this.entryInputs = b.inputs.toArray(new DType[0][]);
    this.entryPromoted = b.promoted.toArray(new DType[0]);
    this.entryCompute = b.compute.toArray(new DType[0]);
    this.entryResult = b.result.toArray(new DType[0]);
    this.kernels = new ElementwiseKernel[n];
    this.boxes = new StridedBox[n];
    this.gradients = new Gradient[tensorParams.size()];
    this.backward = new ElementwiseOp[tensorParams.size()];
    Arrays.fill(gradients, Gradient.NONE);
    for (Map.Entry<Integer, Gradient> g : b.gradients.entrySet()) {
      int operand = g.getKey();
      if (operand < 0 || operand >= gradients.length || conditionOperand[operand]) {
        throw new IllegalArgumentException(
            "op " + name + ": operand " + operand + " of " + tensorParams
                + " cannot have a gradient (out of range or a condition)");
      }
      gradients[operand] = g.getValue();
      backward[operand] = b.backward.get(operand);
    }
    this.keyToEntry =
        new int[keySpace(promotingArity()) * (keyedByPromoted ? NUM_DTYPES : 1)];
    Arrays.fill(keyToEntry, -1);
    for (int i = 0; i < n; i++) {
      int key = key(entryPromoted[i], entryInputs[i]);
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

  private int promotingArity() {
    int count = 0;
    for (boolean condition : conditionOperand) {
      if (!condition) {
        count++;
      }
    }
    return count;
  }

  /** The table key, or -1 when no kernel can exist for these dtypes. */
  private int key(DType promoted, DType[] dtypes) {
    int arity = tensorParams.size();
    if (dtypes.length != arity) {
      throw new IllegalArgumentException(
          "op " + name + " takes " + arity + " tensor operands, got " + dtypes.length);
    }
    int promoting = 0;
    int key = 0;
    DType first = null;
    for (int i = 0; i < arity; i++) {
      if (conditionOperand[i]) {
        if (dtypes[i] != DType.BOOL) {
          return -1;
        }
        continue;
      }
      promoting++;
      if (first == null) {
        first = dtypes[i];
      } else if (dtypes[i] != first && promotingArity() > 2) {
        return -1;
      }
      if (promotingArity() <= 2) {
        key = key * NUM_DTYPES + dtypes[i].ordinal();
      }
    }
    if (promoting > 2) {
      key = first.ordinal();
    }
    return keyedByPromoted ? key * NUM_DTYPES + promoted.ordinal() : key;
  }

  /**
   * {@return the table entry for these operand dtypes (one per tensor parameter, in order), or -1
   * when the op has no kernel for exactly this combination} For ops without {@code @Scalar}
   * parameters, whose compute dtype follows from the tensors alone.
   *
   * @param operandDtypes the operand dtypes
   * @throws IllegalStateException if the op has {@code @Scalar} parameters: use {@link
   *     #entryPromotedTo}
   */
  public int entry(DType... operandDtypes) {
    if (keyedByPromoted) {
      throw new IllegalStateException(
          "op " + name + " has @Scalar parameters: look entries up with entryPromotedTo");
    }
    int key = key(null, operandDtypes);
    return key < 0 ? -1 : keyToEntry[key];
  }

  /**
   * {@return the table entry for these operand dtypes whose promotion (tensors and wrapped scalars
   * together, after the op's {@link Promote} mode) gives {@code promoted}, or -1 when there is
   * none}
   *
   * @param promoted the dtype they promote to
   * @param operandDtypes the operand dtypes
   */
  public int entryPromotedTo(DType promoted, DType... operandDtypes) {
    if (!keyedByPromoted) {
      int index = entry(operandDtypes);
      return index >= 0 && entryPromoted[index] == promoted ? index : -1;
    }
    int key = key(Objects.requireNonNull(promoted, "promoted"), operandDtypes);
    return key < 0 ? -1 : keyToEntry[key];
  }

  /**
   * {@return the kernel of table entry {@code index}, created on first use}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public ElementwiseKernel kernel(int index) {
    ElementwiseKernel k = kernels[index];
    if (k == null) {
      // Kernels are stateless: a racing second creation is harmless.
      k = factory.create(index);
      kernels[index] = k;
    }
    return k;
  }

  /**
   * The generated fold and scan loops of the op's {@code (dtype, dtype) -> dtype} entry ({@link
   * FoldKernel}), or null when it has none: the processor generates them for binary ufuncs, for
   * float32 and float64 with a floating body and for the integral dtypes with an integral body
   * that does not divide (docs/ufuncs.md, "Generated kernels").
   *
   * @param dtype the entry's operand and result dtype
   * @return the entry's fold loops, or null
   */
  public FoldKernel foldKernel(DType dtype) {
    // Only those entries fold (a class with fold loops holds that one entry).
    if (keyedByPromoted || arity() != 2) {
      return null;
    }
    int e = entry(dtype, dtype);
    if (e < 0 || entryResult(e) != dtype || entryCompute(e) != dtype) {
      return null;
    }
    return kernel(e) instanceof FoldKernel f ? f : null;
  }

  /** Table entry {@code index}'s kernel as a loop body for the driver ({@link KernelLoops}). */
  StridedBox box(int index) {
    StridedBox b = boxes[index];
    if (b == null) {
      // Like the kernels: a racing second adapter is harmless.
      b = kernel(index)::box;
      boxes[index] = b;
    }
    return b;
  }

  /**
   * The grain a tuning profile chose for table entry {@code index} (docs/tuning.md), or 0 when it
   * chose none: the dispatcher passes it to {@code Parallel.grainFor}. Looked up once per entry.
   */
  long tunedGrain(int index) {
    Object generation = Tunables.generation();
    TunedGrains g = tunedGrains;
    if (g == null || g.generation() != generation) {
      long[] perEntry = new long[entryInputs.length];
      for (int i = 0; i < perEntry.length; i++) {
        perEntry[i] = Tunables.opGrain(declaringClass, name, List.of(entryInputs[i]));
      }
      g = new TunedGrains(generation, perEntry);
      tunedGrains = g;
    }
    return g.perEntry()[index];
  }

  /**
   * What an element costs relative to an add's, at least 1: the processor's estimate from the op's
   * body (1, plus 3 per transcendental function it calls, at most 8). The dispatcher divides the
   * runtime-wide grain by it ({@code Parallel.grainFor}), so compute-bound ops split earlier.
   */
  int cost() {
    return cost;
  }

  /**
   * {@return the number of entries (operand dtype combinations with a kernel) in the op's table}
   */
  public int entryCount() {
    return entryInputs.length;
  }

  /**
   * {@return the operand dtypes of table entry {@code index}}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public List<DType> entryInputs(int index) {
    return List.of(entryInputs[index]);
  }

  /**
   * {@return the dtype promotion gives for table entry {@code index} (FLOAT16 for two FLOAT16
   * operands); the result dtype of a non-predicate op}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public DType entryPromoted(int index) {
    return entryPromoted[index];
  }

  /**
   * {@return the dtype table entry {@code index} computes in (FLOAT32 for FLOAT16 operands)}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public DType entryCompute(int index) {
    return entryCompute[index];
  }

  /**
   * {@return the dtype table entry {@code index} stores}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public DType entryResult(int index) {
    return entryResult[index];
  }

  /**
   * {@return the dtype table entry {@code index} stores into the tensor of component {@code
   * component} of an op with several results: bool for a boolean component, else {@link
   * #entryResult(int)}}
   *
   * @param index the table entry
   * @param component the component's index in {@link #resultNames()}
   */
  public DType entryResult(int index, int component) {
    return boolResult[component] ? DType.BOOL : entryResult[index];
  }

  /**
   * {@return the components of the record an op with several results returns, in order (its
   * kernels write one tensor each, first in the operand order); empty for an op with one result}
   */
  public List<String> resultNames() {
    return resultNames;
  }

  /**
   * {@return whether component {@code component} of an op with several results is boolean (its
   * tensor is bool)}
   *
   * @param component the component's index in {@link #resultNames()}
   */
  public boolean isBoolResult(int component) {
    return boolResult[component];
  }

  /** {@return the op's name: the method's, or {@code @Elementwise(name)}} */
  public String name() {
    return name;
  }

  /**
   * Binary name of the class that declares the op's scalar methods.
   *
   * @return the binary name of the class declaring the op's scalar methods
   */
  public String declaringClass() {
    return declaringClass;
  }

  /** {@return the names of the tensor operands, conditions included, in declaration order} */
  public List<String> tensorParams() {
    return tensorParams;
  }

  /** {@return the number of tensor operands, conditions included} */
  public int arity() {
    return tensorParams.size();
  }

  /**
   * {@return true when tensor operand {@code i} is a BOOL condition that does not join promotion}
   *
   * @param i the operand's position
   */
  public boolean isConditionOperand(int i) {
    return conditionOperand[i];
  }

  /** {@return the names of the {@code @Scalar} parameters, in declaration order} */
  public List<String> scalarParams() {
    return scalarParams;
  }

  /**
   * {@return the Java type of each {@code @Scalar} parameter, in the order of {@link
   * #scalarParams()}}
   */
  public List<ScalarKind> scalarKinds() {
    return scalarKinds;
  }

  /** {@return how operand dtypes combine into the compute dtype ({@code @Elementwise(promote)})} */
  public Promote promote() {
    return promote;
  }

  /**
   * {@return true when the op's result is BOOL whatever its operands (comparisons, {@code
   * isclose})}
   */
  public boolean isPredicate() {
    return predicate;
  }

  /**
   * {@return true when some integral kernels of this op divide and throw {@link
   * ArithmeticException} on a zero divisor} Such a kernel may have written part of its output
   * before it throws: a caller that must leave an {@code out=} or in-place target untouched runs it
   * into a temporary first.
   */
  public boolean mayThrow() {
    return mayThrow;
  }

  /**
   * {@return true when a second tensor operand that holds a single value of another dtype enters
   * the computation at float32 precision beside float16 or bfloat16 operands, instead of being
   * rounded to the 16-bit dtype first ({@code @Elementwise(scalarInFloat32)}; PyTorch's {@code
   * mul}, {@code div}, {@code floor_divide})}
   */
  public boolean scalarInFloat32() {
    return scalarInFloat32;
  }

  /**
   * {@return the dtypes the op was generated for ({@code @Elementwise(dtypes)}), or an empty list
   * when its declaration does not restrict them}
   */
  public List<DType> dtypes() {
    return dtypes;
  }

  /**
   * {@return the op's identity element ({@code @Elementwise(identity)}): what a reduction over an
   * empty extent gives; {@link Identity#NONE} when it has none}
   */
  public Identity identity() {
    return identity;
  }

  /**
   * {@return whether the op is declared associative ({@code @Elementwise(associative)}): reductions
   * may group its operands in a tree and reduce several dims at once}
   */
  public boolean isAssociative() {
    return associative;
  }

  /**
   * {@return how the gradient with respect to tensor operand {@code operand} is computed}
   *
   * @param operand the operand's position
   */
  public Gradient gradient(int operand) {
    return gradients[operand];
  }

  /**
   * {@return the op that computes the gradient with respect to tensor operand {@code operand} from
   * the incoming gradient and the forward operands ({@code (grad, x1, ..., xn)}, the same scalars),
   * or null unless {@link #gradient(int)} is {@link Gradient#OP}} Its kernels cover operands that
   * all share one floating dtype; other combinations are converted first, as for any op with three
   * or more operands.
   *
   * @param operand the operand's position
   */
  public ElementwiseOp backward(int operand) {
    return backward[operand];
  }

  @Override
  public String toString() {
    return declaringClass + "." + name + tensorParams;
  }

  /**
   * {@return a builder for an op's descriptor (generated code calls it)}
   *
   * @param name the op's name
   * @param declaringClass binary name of the class that declares its scalar methods
   */
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
    private final List<String> resultNames = new ArrayList<>();
    private final List<String> boolResults = new ArrayList<>();
    private boolean mayThrow;
    private boolean scalarInFloat32;
    private final List<DType> dtypes = new ArrayList<>();
    private Identity identity = Identity.NONE;
    private boolean associative;
    private int cost = 1;
    private final List<DType[]> inputs = new ArrayList<>();
    private final List<DType> promoted = new ArrayList<>();
    private final List<DType> compute = new ArrayList<>();
    private final List<DType> result = new ArrayList<>();
    private KernelFactory factory;
    private final Map<Integer, Gradient> gradients = new TreeMap<>();
    private final Map<Integer, ElementwiseOp> backward = new TreeMap<>();

    private Builder(String name, String declaringClass) {
      this.name = Objects.requireNonNull(name, "name");
      this.declaringClass = Objects.requireNonNull(declaringClass, "declaringClass");
    }

    /**
     * Adds a tensor operand that joins promotion.
     *
     * @param param the parameter's name
     * @return this builder
     */
    public Builder tensor(String param) {
      tensorParams.add(param);
      return this;
    }

    /**
     * {@return a BOOL condition operand that does not join promotion ({@code where(c, a, b)})}
     *
     * @param param the parameter's name
     */
    public Builder condition(String param) {
      tensorParams.add(param);
      conditionParams.add(param);
      return this;
    }

    /**
     * Adds a {@code @Scalar} parameter of Java type {@code kind}.
     *
     * @param param the parameter's name
     * @param kind its Java type
     * @return this builder
     */
    public Builder scalar(String param, ScalarKind kind) {
      scalarParams.add(param);
      scalarKinds.add(kind);
      return this;
    }

    /**
     * See {@link ElementwiseOp#promote()}.
     *
     * @param mode the value
     * @return this builder
     */
    public Builder promote(Promote mode) {
      this.promote = Objects.requireNonNull(mode, "promote");
      return this;
    }

    /**
     * See {@link ElementwiseOp#isPredicate()}.
     *
     * @param isPredicate the value
     * @return this builder
     */
    public Builder predicate(boolean isPredicate) {
      this.predicate = isPredicate;
      return this;
    }

    /**
     * Adds a component of the record an op with several results returns, in order (see {@link
     * ElementwiseOp#resultNames()}).
     *
     * @param component the component's name
     * @param bool whether it is boolean (its tensor is bool)
     * @return this builder
     */
    public Builder result(String component, boolean bool) {
      resultNames.add(component);
      if (bool) {
        boolResults.add(component);
      }
      return this;
    }

    /**
     * See {@link ElementwiseOp#mayThrow()}.
     *
     * @param throwsArithmetic the value
     * @return this builder
     */
    public Builder mayThrow(boolean throwsArithmetic) {
      this.mayThrow = throwsArithmetic;
      return this;
    }

    /**
     * See {@link ElementwiseOp#scalarInFloat32()}.
     *
     * @param inFloat32 the value
     * @return this builder
     */
    public Builder scalarInFloat32(boolean inFloat32) {
      this.scalarInFloat32 = inFloat32;
      return this;
    }

    /**
     * See {@link ElementwiseOp#dtypes()}.
     *
     * @param generatedFor the value
     * @return this builder
     */
    public Builder dtypes(DType... generatedFor) {
      this.dtypes.addAll(List.of(generatedFor));
      return this;
    }

    /**
     * See {@link ElementwiseOp#identity()}.
     *
     * @param element the value
     * @return this builder
     */
    public Builder identity(Identity element) {
      this.identity = Objects.requireNonNull(element, "identity");
      return this;
    }

    /**
     * See {@link ElementwiseOp#isAssociative()}.
     *
     * @param isAssociative the value
     * @return this builder
     */
    public Builder associative(boolean isAssociative) {
      this.associative = isAssociative;
      return this;
    }

    /**
     * See {@link ElementwiseOp#cost()}: from 1 (an add's, the default) to 64.
     *
     * @param perElement what an element costs relative to an add's
     * @return this builder
     * @throws IllegalArgumentException for a cost outside that range
     */
    public Builder cost(int perElement) {
      if (perElement < 1 || perElement > MAX_COST) {
        throw new IllegalArgumentException(
            "op " + name + ": cost must be from 1 to " + MAX_COST + ", got " + perElement);
      }
      this.cost = perElement;
      return this;
    }

    /**
     * Adds table entry number {@code entryCount()}: these operand dtypes, the dtype they promote
     * to, the dtype the kernel computes in and the dtype it stores.
     *
     * @param promoted the dtype the operands promote to
     * @param compute the dtype the kernel computes in
     * @param result the result's dtype
     * @param operandDtypes the operand dtypes
     * @return this builder
     */
    public Builder entry(DType promoted, DType compute, DType result, DType... operandDtypes) {
      this.inputs.add(operandDtypes.clone());
      this.promoted.add(promoted);
      this.compute.add(compute);
      this.result.add(result);
      return this;
    }

    /**
     * {@return the gradient with respect to tensor operand {@code operand} is computed by {@code
     * op}}
     *
     * @param operand the operand's position
     * @param op the op computing the gradient
     */
    public Builder backward(int operand, ElementwiseOp op) {
      gradients.put(operand, Gradient.OP);
      backward.put(operand, Objects.requireNonNull(op, "op"));
      return this;
    }

    /**
     * {@return the gradient with respect to tensor operand {@code operand} is the incoming
     * gradient}
     *
     * @param operand the operand's position
     */
    public Builder backwardIdentity(int operand) {
      gradients.put(operand, Gradient.IDENTITY);
      return this;
    }

    /**
     * {@return the gradient with respect to tensor operand {@code operand} is zero}
     *
     * @param operand the operand's position
     */
    public Builder backwardZero(int operand) {
      gradients.put(operand, Gradient.ZERO);
      return this;
    }

    /**
     * {@return the factory that creates the kernel of a table entry on first use}
     *
     * @param factory makes the op's kernels on first use
     */
    public Builder kernels(KernelFactory factory) {
      this.factory = factory;
      return this;
    }

    /** {@return the op's descriptor} */
    public ElementwiseOp build() {
      return new ElementwiseOp(this);
    }
  }
}
