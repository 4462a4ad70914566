package dev.ufunc4j.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Generates the code of one kernel: the rows of one op for one combination of operand dtypes, and
 * the box method that runs them over a two-dimensional box. A pure function of the op model and
 * the entry; {@link KernelClassGenerator} puts the kernels that share a lane count into one class.
 *
 * <p>Shape of the code, for an entry named {@code e} ({@code uint8_float32}): {@code e} runs a box
 * of {@code rows} × {@code cols} (the runtime walks every dimension above those two) and picks a
 * row loop for each row by stride pattern: with a contiguous output, one loop per combination of
 * contiguous (vector load) and stride-0 (splat hoisted out of the loop) inputs, up to two inputs
 * ({@code e_contiguous}, {@code e_splatB}, ...); the strided loop {@code e_strided}, which gathers
 * lanes through small arrays, takes every other pattern and the fast loops' tails. Species and
 * operators are constants, so every vector operation is intrinsified.
 *
 * <p>In the fast loops, contiguous float16 inputs and a float16 output go through float arrays a
 * chunk at a time ({@code HalfChunks}: auto-vectorized hardware conversions), the body loading
 * and storing floats; splat and strided float16 operands convert in registers ({@link
 * VectorCode#halfToFloat}, {@link VectorCode#floatToHalfBits}). A float16 row whose inputs are all
 * float16 (contiguous or splat) and whose body is plain arithmetic is instead one fused scalar
 * loop that C2 vectorizes ({@link #fusedHalfRow}).
 *
 * <p>A complex entry steps {@code LANES} complex elements: complex operands load {@code 2 * LANES}
 * interleaved components as one vector of a pair species, real operands load {@code LANES} lanes,
 * convert as usual and widen to (x, 0) pairs; {@link ComplexBodyEmitter} computes the body.
 */
final class KernelGenerator {

  static final String PROCESSOR = "dev.ufunc4j.processor.ElementwiseProcessor";
  static final ClassName KERNEL = ClassName.get("dev.ufunc4j.kernel", "ElementwiseKernel");
  static final ClassName MEMORY_SEGMENT = ClassName.get("java.lang.foreign", "MemorySegment");
  static final ClassName VALUE_LAYOUT = ClassName.get("java.lang.foreign", "ValueLayout");
  static final ClassName BYTE_ORDER = ClassName.get("java.nio", "ByteOrder");
  static final ClassName VECTOR_OPERATORS = ClassName.get(Lane.VECTOR_PACKAGE, "VectorOperators");
  static final ClassName VECTOR_SHAPE = ClassName.get(Lane.VECTOR_PACKAGE, "VectorShape");
  static final ClassName VECTOR_SPECIES = ClassName.get(Lane.VECTOR_PACKAGE, "VectorSpecies");
  static final ClassName INT_VECTOR = Lane.INT.vector;
  static final ClassName HALF_CHUNKS = ClassName.get("dev.ufunc4j.kernel", "HalfChunks");
  static final ClassName LANE_SCRATCH = ClassName.get("dev.ufunc4j.kernel", "LaneScratch");
  static final ClassName FOLD_KERNEL = ClassName.get("dev.ufunc4j.kernel", "FoldKernel");

  /** Fast loops exist for every contiguous/splat combination up to this many inputs. */
  private static final int MAX_PATTERN_INPUTS = 2;

  /**
   * Names the generated code uses for itself (class constants, the box method's parameters and
   * the loops' locals): an op parameter with one of these names gets another local name.
   */
  static final List<String> RESERVED = List.of("LANES", "ORDER", "BYTES", "SHORTS", "INTS",
      "LONGS", "FLOATS", "DOUBLES", "BYTES_PACKED", "SHORTS_PACKED", "i", "n", "bound", "count",
      "k", "done", "rows", "cols", "r", "segments", "offsets", "strides", "floatScalars",
      "intScalars", "entry", "live", "chunk", "chunks", "len", "j");

  /**
   * The code of one kernel for {@link KernelClassGenerator}.
   *
   * @param entry the table entry
   * @param name the entry's name in its class: operand dtypes ({@code uint8_float32}), {@code
   *     _as_<dtype>} when a wrapped scalar raised the dtype; its box method's name and the prefix
   *     of its rows
   * @param lanes what the class's constants must give this kernel: lane count and species
   * @param methods the box method first, then the rows (and the fold and scan loops)
   * @param folds whether the methods include the fold and scan loops ({@link #folds(OpModel,
   *     KernelEntry)}), which the class then offers as its {@code FoldKernel}
   * @param sharedWith the kernel this entry runs, whose code is the same ({@link SharedKernels});
   *     then this one has no methods. Null for a kernel of its own
   */
  record Kernel(KernelEntry entry, String name, LaneConstants lanes, List<MethodSpec> methods,
      boolean folds, Kernel sharedWith) {

    Kernel(KernelEntry entry, String name, LaneConstants lanes, List<MethodSpec> methods,
        boolean folds) {
      this(entry, name, lanes, methods, folds, null);
    }

    /** The kernel of {@code entry} when it is {@code source}'s code ({@link SharedKernels}). */
    static Kernel sharing(KernelEntry entry, Kernel source) {
      return new Kernel(entry, entry.kernelName(), source.lanes(), List.of(), source.folds(),
          source);
    }
  }

  /**
   * The constants a kernel's code names: {@code LANES} (a preferred-size vector of the widest lane
   * type, {@code widestBytes}, and at least {@code minLanes} lanes when that is above 1), the
   * species of each lane type it touches (and of complex pairs), which byte and short species
   * travel packed, and the complex kernels' masks and shuffles (of the compute lane type).
   */
  record LaneConstants(
      int widestBytes,
      int minLanes,
      Set<Lane> lanes,
      Set<Lane> pairLanes,
      Set<Lane> packable,
      Set<ComplexBodyEmitter.Constant> constants,
      Lane constantLane) {

    /**
     * Kernels of one op whose {@code LANES} is computed the same way share a class (and so its
     * constants): {@code w32} (widest lane 32 bits), {@code w64min2} (and at least 2 lanes).
     */
    String classSuffix() {
      return "w" + 8 * widestBytes + (minLanes > 1 ? "min" + minLanes : "");
    }
  }

  private final OpModel op;
  private final KernelEntry entry;
  private final OpModel.Overload overload;
  private final String kernelName;

  /** The entry whose box method {@link #box} writes: {@link #entry}, or a mirror of it. */
  private KernelEntry boxEntry;
  /**
   * Where the box reads each input: operand {@code outputs + inputSlots[k]} for input {@code k};
   * null for the declared order ({@link #mirror}).
   */
  private int[] inputSlots;
  /** The class whose rows a mirror's box calls, when not its own ({@link #mirror}). */
  private ClassName rowsClass;
  /** The rows' modifiers: private, unless another op's mirrors call them ({@link #sharingRows}). */
  private Modifier[] rowModifiers = {Modifier.PRIVATE, Modifier.STATIC};

  /**
   * The widest lane the code touches, in bytes ({@link LaneAnalysis}, known before any code is
   * written): {@code LANES} and the packing of byte and short operands follow from it.
   */
  private final int widestBytes;
  // What the code names, recorded as it is written (VectorCode#species): the class's constants.
  private final Set<Lane> lanes = VectorCode.newLaneSet();
  /** Component lane types of complex values (pair species: two lanes per element). */
  private final Set<Lane> pairLanes = VectorCode.newLaneSet();
  private final Set<ComplexBodyEmitter.Constant> constants = ComplexBodyEmitter.newConstantSet();
  // The names of the generated methods' operands and scalars: set by the constructor.
  private NameAllocator classNames;
  private List<String> inputNames;
  private List<String> scalarNames;

  /** Whether the kernel also gets the fold and scan loops ({@link #folds}). */
  private final boolean folds;

  /**
   * @param forward a declared op, not a backward op (which is no ufunc and gets no fold loops)
   */
  KernelGenerator(OpModel op, KernelEntry entry, boolean forward) {
    this.folds = forward && folds(op, entry);
    this.op = op;
    this.entry = entry;
    this.overload = op.overload(entry.bodyType()).orElseThrow();
    this.kernelName = entry.kernelName();
    this.boxEntry = entry;
    allocateNames();
    this.widestBytes = LaneAnalysis.widestBytes(op, entry, !fusedHalfLoop());
  }

  /** Writes the kernel's methods (once per generator), then its constants from what they name. */
  Kernel generate() {
    List<MethodSpec> methods = buildMethods();
    int max = maxBytes();
    if (max != widestBytes) {
      throw new IllegalStateException("the lane analysis of " + entry.describe() + " found "
          + widestBytes + "-byte lanes the widest, but its code touches " + max
          + "-byte lanes: LaneAnalysis must learn what the emitters now do");
    }
    int min = minBytes();
    // A complex kernel steps at least 2 elements, so that real float and int species and the
    // pair species of shorts fill 64 bits; a real one at least 32 bits of its narrowest lanes.
    int floor = entry.complex() ? Math.max(2, 4 / min) : 4 / min;
    int minLanes = !entry.complex() && (max == min || floor <= 1) ? 1 : floor;
    return new Kernel(entry, kernelName,
        new LaneConstants(max, minLanes, lanes, pairLanes, packable(), constants, computeLane()),
        methods, folds);
  }

  /** Bytes per element of the widest lane type: a complex element counts both components. */
  private int maxBytes() {
    int real = lanes.stream().mapToInt(l -> l.bytes).max().orElse(0);
    int pair = pairLanes.stream().mapToInt(l -> 2 * l.bytes).max().orElse(0);
    return real == 0 && pair == 0 ? 4 : Math.max(real, pair);
  }

  private int minBytes() {
    return java.util.stream.Stream.concat(lanes.stream(), pairLanes.stream())
        .mapToInt(l -> l.bytes).min().orElse(4);
  }

  /**
   * Whether {@code l}, a storage lane type, may hold fewer than 64 bits' worth of LANES on some
   * vector size (then its values travel packed in one int when they do).
   */
  private boolean packed(Lane l) {
    return widestBytes / l.bytes >= 4 && (l == Lane.BYTE || l == Lane.SHORT);
  }

  /** The packed lane types among those the code touches, for the class's constants. */
  private Set<Lane> packable() {
    Set<Lane> packable = VectorCode.newLaneSet();
    lanes.stream().filter(this::packed).forEach(packable::add);
    return packable;
  }

  /**
   * The constants of a kernel class whose kernels need {@code all} (one lane count); {@code
   * capBits}, when above 0, caps the vector size {@code LANES} is computed from (a tuning profile's
   * choice, docs/tuning.md).
   */
  static List<FieldSpec> fields(List<LaneConstants> all, int capBits) {
    LaneConstants first = all.get(0);
    Set<Lane> lanes = VectorCode.newLaneSet();
    Set<Lane> pairLanes = VectorCode.newLaneSet();
    Set<Lane> packable = VectorCode.newLaneSet();
    java.util.Map<ComplexBodyEmitter.Constant, Lane> constants =
        new java.util.EnumMap<>(ComplexBodyEmitter.Constant.class);
    for (LaneConstants c : all) {
      if (!c.classSuffix().equals(first.classSuffix())) {
        throw new IllegalStateException("kernels of one class compute LANES alike: "
            + c.classSuffix() + " vs " + first.classSuffix());
      }
      lanes.addAll(c.lanes());
      pairLanes.addAll(c.pairLanes());
      packable.addAll(c.packable());
      for (ComplexBodyEmitter.Constant k : c.constants()) {
        Lane previous = constants.put(k, c.constantLane());
        if (previous != null && previous != c.constantLane()) {
          throw new IllegalStateException("complex constant " + k + " of two lane types");
        }
      }
    }
    int max = first.widestBytes();
    List<FieldSpec> fields = new ArrayList<>();
    CodeBlock bitSize = capBits > 0
        ? CodeBlock.of("Math.min($T.preferredShape().vectorBitSize(), $L)", VECTOR_SHAPE, capBits)
        : CodeBlock.of("$T.preferredShape().vectorBitSize()", VECTOR_SHAPE);
    CodeBlock lanesInit = first.minLanes() <= 1
        ? CodeBlock.of("$L / $L", bitSize, 8 * max)
        : CodeBlock.of("Math.max($L / $L, $L)", bitSize, 8 * max, first.minLanes());
    fields.add(FieldSpec.builder(TypeName.INT, "LANES", Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc("Elements per step: a preferred-size vector of the widest lane type ($L"
                + " bits$L)$L$L.\n", 8 * max,
            pairLanes.isEmpty() ? "" : "; a complex element counts both components",
            first.minLanes() > 1 ? ", and at least " + first.minLanes() : "",
            capBits > 0 ? "; at most " + capBits + " bits, as the tuning profile chose" : "")
        .initializer(lanesInit)
        .build());
    for (Lane l : lanes) {
      TypeName speciesType = ParameterizedTypeName.get(VECTOR_SPECIES, l.boxed());
      CodeBlock bits = packable.contains(l)
          ? CodeBlock.of("Math.max(64, LANES * $L)", 8 * l.bytes)
          : CodeBlock.of("LANES * $L", 8 * l.bytes);
      fields.add(FieldSpec.builder(speciesType, l.species, Modifier.PRIVATE, Modifier.STATIC,
              Modifier.FINAL)
          .initializer("$T.of($T.class, $T.forBitSize($L))", VECTOR_SPECIES, l.primitive,
              VECTOR_SHAPE, bits)
          .build());
      if (packable.contains(l)) {
        fields.add(FieldSpec.builder(TypeName.BOOLEAN, packedFlag(l), Modifier.PRIVATE,
                Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("True when LANES $L values fill less than the smallest vector: they"
                + " travel through memory as one int.\n", l.primitive)
            .initializer("LANES * $L == 32", 8 * l.bytes)
            .build());
      }
    }
    for (Lane l : pairLanes) {
      TypeName speciesType = ParameterizedTypeName.get(VECTOR_SPECIES, l.boxed());
      fields.add(FieldSpec.builder(speciesType, l.pairSpecies(), Modifier.PRIVATE,
              Modifier.STATIC, Modifier.FINAL)
          .addJavadoc("Interleaved (re, im) $L components of LANES complex elements.\n",
              l.primitive)
          .initializer("$T.of($T.class, $T.forBitSize(LANES * $L))", VECTOR_SPECIES, l.primitive,
              VECTOR_SHAPE, 2 * 8 * l.bytes)
          .build());
    }
    for (java.util.Map.Entry<ComplexBodyEmitter.Constant, Lane> c : constants.entrySet()) {
      fields.add(c.getKey().field(c.getValue()));
    }
    fields.add(FieldSpec.builder(BYTE_ORDER, "ORDER", Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .initializer("$T.nativeOrder()", BYTE_ORDER)
        .build());
    return fields;
  }

  private static String packedFlag(Lane l) {
    return l.species + "_PACKED";
  }

  // ------------------------------------------------------------------------------ methods

  private record Operand(String name, DType dtype, String data, String offset, String stride) {}

  /** The first (for most ops the only) result. */
  private Operand output;
  /** Every result: {@link #output} alone, or one per record component (several results). */
  private List<Operand> outputs;
  private List<Operand> inputs;

  private List<MethodSpec> buildMethods() {
    List<MethodSpec> methods = new ArrayList<>();
    methods.add(box());
    for (List<Boolean> pattern : patterns()) {
      methods.add(fastRow(pattern));
    }
    methods.add(stridedRow());
    if (folds) {
      methods.add(foldRows());
      if (registerLoops()) {
        methods.addAll(leafRows());
      }
      methods.add(scanRows());
      methods.add(pairRow());
    }
    return methods;
  }

  /**
   * The kernel of {@code mirrored}, an entry {@link Mirrors} found to compute as {@code source}'s
   * with the two operands swapped: only a box method, which runs {@code source}'s rows with input
   * 0 read from operand 2 and input 1 from operand 1. It shares {@code source}'s lane constants
   * and so its class.
   */
  static Kernel mirror(OpModel op, KernelEntry mirrored, Kernel source) {
    return mirror(op, mirrored, source, null);
  }

  /**
   * As {@link #mirror(OpModel, KernelEntry, Kernel)}, for an entry of another op ({@link
   * Mirrors#across}: {@code lt(a, b)} is {@code gt(b, a)}) whose rows are those of {@code source},
   * a kernel of {@code sourceOp} in class {@code rowsClass} (generated with {@link
   * #sharingRows}).
   */
  static Kernel mirror(OpModel sourceOp, KernelEntry mirrored, Kernel source,
      ClassName rowsClass) {
    KernelGenerator g = new KernelGenerator(sourceOp, source.entry(), false);
    g.boxEntry = mirrored;
    g.inputSlots = new int[] {1, 0};
    g.rowsClass = rowsClass;
    return new Kernel(mirrored, mirrored.kernelName(), source.lanes(), List.of(g.box()), false);
  }

  /**
   * Makes the rows package-private instead of private: another op's mirrored kernels call them
   * ({@link Mirrors#across}).
   */
  KernelGenerator sharingRows() {
    rowModifiers = new Modifier[] {Modifier.STATIC};
    return this;
  }

  /** {@code Other.} before a row's name when the rows are another class's, else nothing. */
  private CodeBlock rowsOwner() {
    return rowsClass == null ? CodeBlock.of("") : CodeBlock.of("$T.", rowsClass);
  }

  /** The names of the operands, scalars and outputs in the generated methods. */
  private void allocateNames() {
    classNames = new NameAllocator();
    for (String reserved : RESERVED) {
      classNames.newName(reserved, reserved);
    }
    if (entry.complex()) {
      for (Lane l : Lane.values()) {
        classNames.newName(l.pairSpecies(), l.pairSpecies());
      }
      for (ComplexBodyEmitter.Constant c : ComplexBodyEmitter.Constant.values()) {
        classNames.newName(c.name(), c.name());
      }
    }
    inputNames = new ArrayList<>();
    inputs = new ArrayList<>();
    for (int k = 0; k < op.tensors().size(); k++) {
      String name = classNames.newName(op.tensors().get(k).name(), "tensor" + k);
      inputNames.add(name);
      inputs.add(new Operand(name, entry.operands().get(k),
          classNames.newName(name + "Data"), classNames.newName(name + "Off"),
          classNames.newName(name + "Stride")));
    }
    scalarNames = new ArrayList<>();
    for (int s = 0; s < op.scalars().size(); s++) {
      scalarNames.add(classNames.newName(op.scalars().get(s).name(), "scalar" + s));
    }
    outputs = new ArrayList<>();
    if (!op.hasSeveralResults()) {
      outputs.add(new Operand("out", entry.result(), classNames.newName("outData"),
          classNames.newName("outOff"), classNames.newName("outStride")));
    } else {
      // One output per component, first in the operand order (issue 26): quotientOutData, ...
      for (OpModel.Component c : op.results().components()) {
        String name = classNames.newName(c.name() + "Out");
        outputs.add(new Operand(name, resultDtype(c), classNames.newName(name + "Data"),
            classNames.newName(name + "Off"), classNames.newName(name + "Stride")));
      }
    }
    output = outputs.get(0);
  }

  /** The operand index (outputs first) of element {@code k} of {@link #all()}. */
  private int slot(int k) {
    int n = outputs.size();
    return k < n || inputSlots == null ? k : n + inputSlots[k - n];
  }

  private List<Operand> all() {
    List<Operand> all = new ArrayList<>(outputs);
    all.addAll(inputs);
    return all;
  }

  /** A component's stored dtype: bool for a boolean one, else the entry's result dtype. */
  private DType resultDtype(OpModel.Component c) {
    return c.type() == ValueType.BOOLEAN ? DType.BOOL : entry.result();
  }

  /**
   * The fast loops: each list says, per input, whether it is splat (stride 0) rather than
   * contiguous. Not all inputs splat: such a row has one value, and the runtime computes its first
   * element only (when it cannot, the strided loop takes the row).
   */
  private List<List<Boolean>> patterns() {
    List<List<Boolean>> patterns = new ArrayList<>();
    int n = inputs.size();
    if (n > MAX_PATTERN_INPUTS) {
      patterns.add(java.util.Collections.nCopies(n, false));
      return patterns;
    }
    for (int bits = 0; bits < (1 << n) - 1; bits++) {
      List<Boolean> p = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        p.add((bits >> (n - 1 - k) & 1) == 1);
      }
      patterns.add(p);
    }
    return patterns;
  }

  private String fastRowName(List<Boolean> pattern) {
    if (!pattern.contains(true)) {
      return kernelName + "_contiguous";
    }
    StringBuilder sb = new StringBuilder(kernelName).append("_splat");
    for (int k = 0; k < pattern.size(); k++) {
      if (pattern.get(k)) {
        String n = inputs.get(k).name();
        sb.append(Character.toUpperCase(n.charAt(0))).append(n.substring(1));
      }
    }
    return sb.toString();
  }

  private TypeName scalarType(int s) {
    return scalarType(op.scalars().get(s), entry);
  }

  /** A {@code @Scalar}'s Java type in the kernel methods: the lane's primitive, or boolean. */
  private static TypeName scalarType(OpModel.ScalarParam s, KernelEntry entry) {
    return s.type() == ValueType.BOOLEAN ? TypeName.BOOLEAN : entry.lanes().primitive;
  }

  private void addScalarParams(MethodSpec.Builder m) {
    for (int s = 0; s < scalarNames.size(); s++) {
      m.addParameter(scalarType(s), scalarNames.get(s));
    }
  }

  /** {@code , s0, s1}: the scalars as the last arguments of a row call. */
  private CodeBlock scalarArgs() {
    return CodeBlock.join(scalarNames.stream().map(s -> CodeBlock.of(", $N", s)).toList(), "");
  }

  /**
   * The kernel's box: reads its arguments once, then runs each row with the loop for its stride
   * pattern and the strided loop for whatever that left.
   */
  private MethodSpec box() {
    MethodSpec.Builder m = MethodSpec.methodBuilder(boxEntry.kernelName())
        .addJavadoc("$L$L.\n", capitalize(boxEntry.describe()), boxEntry == entry ? ""
            : ": the rows of " + (rowsClass == null ? "" : "{@code " + op.name() + "}'s ")
                + "{@code " + kernelName + "} with the two operands swapped")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addParameter(TypeName.LONG, "rows")
        .addParameter(TypeName.LONG, "cols")
        .addParameter(ArrayTypeName.of(MEMORY_SEGMENT), "segments")
        .addParameter(ArrayTypeName.of(TypeName.LONG), "offsets")
        .addParameter(ArrayTypeName.of(TypeName.LONG), "strides")
        .addParameter(ArrayTypeName.of(TypeName.DOUBLE), "floatScalars")
        .addParameter(ArrayTypeName.of(TypeName.LONG), "intScalars");
    List<Operand> all = all();
    for (int k = 0; k < all.size(); k++) {
      m.addStatement("$T $N = segments[$L]", MEMORY_SEGMENT, all.get(k).data(), slot(k));
    }
    for (int s = 0; s < scalarNames.size(); s++) {
      ValueType t = op.scalars().get(s).type();
      if (t == ValueType.BOOLEAN) {
        m.addStatement("boolean $N = intScalars[$L] != 0", scalarNames.get(s), s);
      } else if (entry.bodyType() == ValueType.DOUBLE) {
        m.addStatement(entry.lanes() == Lane.DOUBLE ? "double $N = floatScalars[$L]"
            : "float $N = (float) floatScalars[$L]", scalarNames.get(s), s);
      } else {
        Lane l = entry.lanes();
        if (l == Lane.LONG) {
          m.addStatement("long $N = intScalars[$L]", scalarNames.get(s), s);
        } else {
          m.addStatement("$T $N = ($T) intScalars[$L]", l.primitive, scalarNames.get(s),
              l.primitive, s);
        }
      }
    }
    for (int k = 0; k < all.size(); k++) {
      m.addStatement("long $N = strides[$L]", all.get(k).stride(), 2 * slot(k) + 1);
    }
    m.beginControlFlow("for (long r = 0; r < rows; r++)");
    for (int k = 0; k < all.size(); k++) {
      m.addStatement("long $N = offsets[$L] + r * strides[$L]", all.get(k).offset(), slot(k),
          2 * slot(k));
    }
    m.addStatement("long done = 0");
    boolean first = true;
    for (List<Boolean> pattern : patterns()) {
      List<CodeBlock> cond = new ArrayList<>();
      List<CodeBlock> args = new ArrayList<>(List.of(CodeBlock.of("cols")));
      for (Operand out : outputs) {
        cond.add(CodeBlock.of("$N == 1", out.stride()));
        args.add(CodeBlock.of("$N, $N", out.data(), out.offset()));
      }
      for (int k = 0; k < inputs.size(); k++) {
        Operand in = inputs.get(k);
        cond.add(CodeBlock.of(pattern.get(k) ? "$N == 0" : "$N == 1", in.stride()));
        args.add(CodeBlock.of("$N, $N", in.data(), in.offset()));
      }
      if (first) {
        m.beginControlFlow("if ($L)", CodeBlock.join(cond, " && "));
        first = false;
      } else {
        m.nextControlFlow("else if ($L)", CodeBlock.join(cond, " && "));
      }
      m.addStatement("done = $L$N($L$L)", rowsOwner(), fastRowName(pattern),
          CodeBlock.join(args, ", "), scalarArgs());
    }
    m.endControlFlow();
    m.beginControlFlow("if (done < cols)");
    List<CodeBlock> args = new ArrayList<>(List.of(CodeBlock.of("cols - done")));
    for (Operand o : all) {
      args.add(CodeBlock.of("$N, $N + done * $N, $N", o.data(), o.offset(), o.stride(),
          o.stride()));
    }
    m.addStatement("$L$N($L$L)", rowsOwner(), kernelName + "_strided", CodeBlock.join(args, ", "),
        scalarArgs());
    m.endControlFlow();
    m.endControlFlow();
    return m.build();
  }

  private static String capitalize(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private Lane computeLane() {
    return entry.lanes();
  }

  /**
   * A row loop's method: {@code n}, then per operand (outputs first) its segment and offset, and
   * its stride when {@code strided}, then the scalars.
   */
  private MethodSpec.Builder rowMethod(String name, boolean strided) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(name)
        .addModifiers(rowModifiers)
        .addParameter(TypeName.LONG, "n");
    for (Operand o : all()) {
      m.addParameter(MEMORY_SEGMENT, o.data());
      m.addParameter(TypeName.LONG, o.offset());
      if (strided) {
        m.addParameter(TypeName.LONG, o.stride());
      }
    }
    addScalarParams(m);
    return m;
  }

  private MethodSpec fastRow(List<Boolean> pattern) {
    MethodSpec.Builder m = rowMethod(fastRowName(pattern), false).returns(TypeName.LONG);
    NameAllocator names = classNames.clone();
    CodeBlock.Builder body = CodeBlock.builder();
    if (fusedHalfLoop()) {
      m.addCode(fusedHalfRow(pattern, names));
      return m.build();
    }
    VectorCode vc = new VectorCode(body, names, lanes);
    if (entry.complex()) {
      body.addStatement("long bound = n - n % LANES");
    } else {
      if (packed(computeLane())) {
        // The strided loop runs this loop on exactly LANES elements: its species must have LANES.
        throw new IllegalStateException("packed compute lanes in " + entry.describe());
      }
      body.addStatement("long bound = $N.loopBound(n)", vc.species(computeLane()));
    }
    // float16 operands and results go through float chunks (HalfChunks) in this loop.
    List<String> halfFloats = new ArrayList<>();
    for (int k = 0; k < inputs.size(); k++) {
      halfFloats.add(!entry.complex() && !pattern.get(k) && inputs.get(k).dtype() == DType.FLOAT16
          ? names.newName(inputs.get(k).name() + "Floats") : null);
    }
    String outFloats =
        !entry.complex() && outputs.size() == 1 && output.dtype() == DType.FLOAT16
            && computeLane() == Lane.FLOAT ? names.newName("outFloats") : null;
    int chunkArrays = (int) halfFloats.stream().filter(f -> f != null).count()
        + (outFloats != null ? 1 : 0);
    if (chunkArrays > 0) {
      body.beginControlFlow("if (bound == 0)");
      body.addStatement("return 0");
      body.endControlFlow();
    }
    List<Value> values = splatInputs(vc, pattern);
    if (chunkArrays == 0) {
      body.beginControlFlow("for (long i = 0; i < bound; i += LANES)");
    } else {
      openChunks(body, pattern, halfFloats, outFloats, chunkArrays);
    }
    for (int k = 0; k < inputs.size(); k++) {
      if (!pattern.get(k)) {
        Value operand;
        if (halfFloats.get(k) != null) {
          Value f = Value.vector(CodeBlock.of("$T.fromArray($N, $N, j)", Lane.FLOAT.vector,
              vc.species(Lane.FLOAT), halfFloats.get(k)), Lane.FLOAT);
          operand = vc.convert(f, computeLane(), false);
        } else {
          operand = operandValue(vc, loadContiguous(vc, inputs.get(k)), k);
        }
        values.set(k, vc.declare(inputNames.get(k), operand));
      }
    }
    storeRow(vc, values, outFloats);
    body.endControlFlow();
    if (chunkArrays > 0) {
      if (outFloats != null) {
        body.addStatement("$T.toHalves($N, len, $N, $N + chunk)", HALF_CHUNKS, outFloats,
            output.data(), output.offset());
      }
      body.endControlFlow();
    }
    body.addStatement("return bound");
    m.addCode(body.build());
    return m.build();
  }

  /**
   * The fast loop's splat inputs (stride 0), each broadcast once before the loop, by input; null
   * for the contiguous ones, which the loop loads.
   */
  private List<Value> splatInputs(VectorCode vc, List<Boolean> pattern) {
    List<Value> values = new ArrayList<>();
    for (int k = 0; k < inputs.size(); k++) {
      values.add(null);
      if (pattern.get(k)) {
        Operand in = inputs.get(k);
        if (in.dtype().isComplex()) {
          values.set(k, vc.declare(inputNames.get(k), splatComplex(vc, in)));
          continue;
        }
        Lane s = Lane.storage(in.dtype());
        Value raw = Value.vector(CodeBlock.of("$T.broadcast($N, $N.getAtIndex($L, $N))", s.vector,
            vc.species(s), in.data(), s.layout, in.offset()), s);
        values.set(k, vc.declare(inputNames.get(k), operandValue(vc, raw, k)));
      }
    }
    return values;
  }

  /**
   * Opens the fast loop over float16 chunks ({@code HalfChunks}): the float arrays, then per chunk
   * its contiguous float16 inputs converted, and the loop over its vectors ({@code i} the
   * element's index when a segment is read or written in it).
   */
  private void openChunks(CodeBlock.Builder body, List<Boolean> pattern, List<String> halfFloats,
      String outFloats, int chunkArrays) {
    body.addStatement("float[][] chunks = $T.buffers($L)", HALF_CHUNKS, chunkArrays);
    int next = 0;
    for (String f : halfFloats) {
      if (f != null) {
        body.addStatement("float[] $N = chunks[$L]", f, next++);
      }
    }
    if (outFloats != null) {
      body.addStatement("float[] $N = chunks[$L]", outFloats, next);
    }
    body.beginControlFlow("for (long chunk = 0; chunk < bound; chunk += $T.CHUNK)", HALF_CHUNKS);
    body.addStatement("int len = (int) Math.min($T.CHUNK, bound - chunk)", HALF_CHUNKS);
    for (int k = 0; k < inputs.size(); k++) {
      if (halfFloats.get(k) != null) {
        Operand in = inputs.get(k);
        body.addStatement("$T.toFloats($N, $N + chunk, $N, len)", HALF_CHUNKS, in.data(),
            in.offset(), halfFloats.get(k));
      }
    }
    body.beginControlFlow("for (int j = 0; j < len; j += LANES)");
    boolean segmentAccess = outFloats == null;
    for (int k = 0; k < inputs.size(); k++) {
      segmentAccess |= !pattern.get(k) && halfFloats.get(k) == null;
    }
    if (segmentAccess) {
      body.addStatement("long i = chunk + j");
    }
  }

  /** The fast loop's step: the body on {@code values}, each result stored (or into its chunk). */
  private void storeRow(VectorCode vc, List<Value> values, String outFloats) {
    CodeBlock.Builder body = vc.out;
    if (outFloats != null) {
      Value result = vc.temp("result", vc.vector(compute(vc, values)));
      body.addStatement("$L.intoArray($N, j)", vc.canonicalNaN(result).code(), outFloats);
    } else if (op.hasSeveralResults()) {
      // The body once, then each component stored into its output (in-register conversions).
      List<Value> results = computeAll(vc, values);
      for (int k = 0; k < outputs.size(); k++) {
        Operand out = outputs.get(k);
        Value result = vc.temp("result", vc.vector(results.get(k)));
        storeContiguous(vc, out, vc.named("stored", toStorage(vc, result, out.dtype())));
      }
    } else {
      storeContiguous(vc, output, computeAndConvert(vc, values));
    }
  }

  /**
   * Whether the fast row loops are each one fused scalar loop over float16 ({@link #fusedHalfRow}),
   * and so no vector code at all ({@link LaneAnalysis}): a float16
   * result computed in float lanes from float16 inputs only (contiguous or splat), by a body of
   * plain float arithmetic ({@link #plainArithmetic}), which gives the same bits in scalar and
   * vector code.
   */
  private boolean fusedHalfLoop() {
    if (entry.complex() || outputs.size() > 1 || output.dtype() != DType.FLOAT16
        || computeLane() != Lane.FLOAT) {
      return false;
    }
    for (Operand in : inputs) {
      if (in.dtype() != DType.FLOAT16) {
        return false;
      }
    }
    Body b = overload.body();
    return !b.any(e -> !plainArithmetic(e));
  }

  /**
   * A node C2's auto-vectorizer (SuperWord) vectorizes in a float loop and that means the same in
   * scalar Java as in the Vector API body: operands, non-boolean scalars, locals, literals, unary
   * minus, and {@code + - * /}, all of type double (float lanes). Anything else (conditionals,
   * comparisons, {@code %}, {@code Math} calls) keeps the chunked vector loop.
   */
  private boolean plainArithmetic(Expr e) {
    if (e.type() != ValueType.DOUBLE) {
      return false;
    }
    return switch (e) {
      case Expr.Operand o -> true;
      case Expr.ScalarRef r -> op.scalars().get(r.index()).type() == ValueType.DOUBLE;
      case Expr.LocalRef l -> true;
      case Expr.Literal l -> true;
      case Expr.Unary u -> u.op() == Expr.UnaryOp.NEG;
      case Expr.Binary b -> switch (b.op()) {
        case ADD, SUB, MUL, DIV -> true;
        default -> false;
      };
      default -> false;
    };
  }

  /**
   * The fused float16 row: per chunk of {@code HalfChunks.CHUNK} elements, one scalar loop loads
   * and converts each float16 input ({@code Float.float16ToFloat}), computes the body in float and
   * stores {@code Float.floatToFloat16} of it into this thread's {@code short[]} chunk, which C2
   * vectorizes into F16C/AVX-512 conversions (it would not if the loop stored into the output
   * segment: JDK 25 does not vectorize a loop between two native segments that may overlap); then
   * {@code HalfChunks.storeHalves} makes NaNs canonical and copies the chunk out. One pass per
   * element where the chunked loop has four; it takes every length, so nothing is left over. A
   * splat input is converted once, before the loop.
   */
  private CodeBlock fusedHalfRow(List<Boolean> pattern, NameAllocator names) {
    CodeBlock.Builder body = CodeBlock.builder();
    List<String> operands = new ArrayList<>(inputNames);
    for (int k = 0; k < inputs.size(); k++) {
      if (pattern.get(k)) {
        Operand in = inputs.get(k);
        body.addStatement("float $N = Float.float16ToFloat($N.getAtIndex(JAVA_SHORT_UNALIGNED, $N))",
            inputNames.get(k), in.data(), in.offset());
      }
    }
    String halves = names.newName("halves");
    body.addStatement("short[] $N = $T.halves()", halves, HALF_CHUNKS);
    body.beginControlFlow("for (long chunk = 0; chunk < n; chunk += $T.CHUNK)", HALF_CHUNKS);
    body.addStatement("int len = (int) Math.min($T.CHUNK, n - chunk)", HALF_CHUNKS);
    body.beginControlFlow("for (int j = 0; j < len; j++)");
    Map<String, String> locals = new java.util.HashMap<>();
    for (int k = 0; k < inputs.size(); k++) {
      if (!pattern.get(k)) {
        Operand in = inputs.get(k);
        body.addStatement("float $N = Float.float16ToFloat($N.getAtIndex(JAVA_SHORT_UNALIGNED, "
            + "$N + chunk + j))", inputNames.get(k), in.data(), in.offset());
      }
    }
    Body b = overload.body();
    ScalarFloat scalar = new ScalarFloat(Lane.FLOAT, body, names, operands, scalarNames, locals,
        Expr.heights(b));
    for (Body.Local l : b.locals()) {
      String init = scalar.code(l.init(), true);
      String name = names.newName(l.name());
      body.addStatement("float $N = $L", name, init);
      locals.put(l.name(), name);
    }
    body.addStatement("$N[j] = Float.floatToFloat16($L)", halves, scalar.code(b.result(), true));
    body.endControlFlow();
    body.addStatement("$T.storeHalves($N, len, $N, $N + chunk)", HALF_CHUNKS, halves,
        output.data(), output.offset());
    body.endControlFlow();
    body.addStatement("return n");
    return body.build();
  }

  /**
   * Writes {@link #plainArithmetic} expressions as scalar float Java into {@code body}, with a
   * local every {@link Expr#SPILL_HEIGHT} levels (javac parses and attributes each parenthesized
   * level with a recursion).
   */
  private record ScalarFloat(Lane lane, CodeBlock.Builder body, NameAllocator names,
      List<String> operands,
      List<String> scalars, Map<String, String> locals, Map<Expr, Integer> heights) {

    /** {@code e} as Java, parenthesized unless {@code top}. */
    String code(Expr e, boolean top) {
      String code = switch (e) {
        case Expr.Operand o -> operands.get(o.index());
        case Expr.ScalarRef r -> scalars.get(r.index());
        case Expr.LocalRef l -> locals.get(l.name());
        case Expr.Literal l -> {
          String lit = VectorCode.literal(lane, l.value()).toString();
          yield top || !lit.startsWith("-") ? lit : "(" + lit + ")";
        }
        case Expr.Unary u -> {
          String x = code(u.operand(), false);
          yield top ? "-" + x : "(-" + x + ")";
        }
        case Expr.Binary bin -> {
          String x = code(bin.left(), false) + " " + bin.op().symbol + " "
              + code(bin.right(), false);
          yield top ? x : "(" + x + ")";
        }
        default -> throw new IllegalStateException("not plain arithmetic: " + e);
      };
      if (!top && Expr.spills(heights.getOrDefault(e, 0))) {
        String name = names.newName("part" + (heights.get(e) / Expr.SPILL_HEIGHT));
        body.addStatement("$T $N = $L", lane.primitive, name, code);
        return name;
      }
      return code;
    }
  }

  private Value computeAndConvert(VectorCode vc, List<Value> values) {
    if (entry.complex()) {
      return complexComputeAndConvert(vc, values);
    }
    Value result = vc.temp("result", vc.vector(compute(vc, values)));
    return vc.named("stored", toStorage(vc, result, entry.result()));
  }

  private List<Value> scalarValues() {
    List<Value> scalars = new ArrayList<>();
    for (int s = 0; s < scalarNames.size(); s++) {
      scalars.add(new Value(CodeBlock.of("$N", scalarNames.get(s)), computeLane(),
          op.scalars().get(s).type() == ValueType.BOOLEAN
              ? Value.Kind.SCALAR_BOOLEAN : Value.Kind.SCALAR));
    }
    return scalars;
  }

  /** The body of a real kernel, in compute lanes. */
  private Value compute(VectorCode vc, List<Value> values) {
    BodyEmitter emitter =
        new BodyEmitter(vc, computeLane(), entry.unsignedLanes(), values, scalarValues());
    // Every lane is live: the strided loop repeats a real element into its spare lanes.
    return emitter.emit(overload.body(), null);
  }

  /** The body of an op with several results: each component's value, in compute lanes. */
  private List<Value> computeAll(VectorCode vc, List<Value> values) {
    BodyEmitter emitter =
        new BodyEmitter(vc, computeLane(), entry.unsignedLanes(), values, scalarValues());
    return emitter.emitAll(overload.body(), null);
  }

  private Value complexComputeAndConvert(VectorCode vc, List<Value> values) {
    VectorCode pairs = vc.pairs(pairLanes);
    ComplexBodyEmitter emitter = new ComplexBodyEmitter(pairs, vc, computeLane(), values,
        scalarValues(), constants);
    Value result = emitter.emit(overload.body());
    if (result.kind() == Value.Kind.MASK) {
      return vc.named("stored", toStorage(vc, vc.temp("result", result), entry.result()));
    }
    return pairs.named("stored", complexToStorage(pairs, pairs.temp("result", result)));
  }

  private Value loadContiguous(VectorCode vc, Operand in) {
    if (in.dtype().isComplex()) {
      Lane s = Lane.storage(in.dtype());
      return Value.vector(CodeBlock.of("$T.fromMemorySegment($N, $N, ($N + i) * $L, ORDER)",
          s.vector, vc.pairs(pairLanes).species(s), in.data(), in.offset(),
          in.dtype().byteSize()), s);
    }
    Lane s = Lane.storage(in.dtype());
    CodeBlock byteOffset = s.bytes == 1
        ? CodeBlock.of("$N + i", in.offset())
        : CodeBlock.of("($N + i) * $L", in.offset(), s.bytes);
    CodeBlock load = CodeBlock.of("$T.fromMemorySegment($N, $N, $L, ORDER)", s.vector,
        vc.species(s), in.data(), byteOffset);
    if (packed(s)) {
      load = CodeBlock.of("($N\n    ? $T.broadcast($T.SPECIES_64, $N.get(JAVA_INT_UNALIGNED, $L))"
              + ".reinterpretAs$Ls()\n    : $L)",
          packedFlag(s), INT_VECTOR, INT_VECTOR, in.data(), byteOffset,
          s == Lane.BYTE ? "Byte" : "Short", load);
    }
    return Value.vector(load, s);
  }

  private void storeContiguous(VectorCode vc, Operand output, Value stored) {
    Lane s = Lane.storage(output.dtype());
    if (output.dtype().isComplex()) {
      vc.out.addStatement("$L.intoMemorySegment($N, ($N + i) * $L, ORDER)", stored.code(),
          output.data(), output.offset(), output.dtype().byteSize());
      return;
    }
    CodeBlock byteOffset = s.bytes == 1
        ? CodeBlock.of("$N + i", output.offset())
        : CodeBlock.of("($N + i) * $L", output.offset(), s.bytes);
    if (packed(s)) {
      vc.out.beginControlFlow("if ($N)", packedFlag(s));
      vc.out.addStatement("$N.set(JAVA_INT_UNALIGNED, $L, $L.reinterpretAsInts().lane(0))",
          output.data(), byteOffset, stored.code());
      vc.out.nextControlFlow("else");
      vc.out.addStatement("$L.intoMemorySegment($N, $L, ORDER)", stored.code(), output.data(),
          byteOffset);
      vc.out.endControlFlow();
    } else {
      vc.out.addStatement("$L.intoMemorySegment($N, $L, ORDER)", stored.code(), output.data(),
          byteOffset);
    }
  }

  /** The JVM's limit on a static method's parameters, in slots (JVMS 4.3.3). */
  static final int MAX_PARAMETER_SLOTS = 255;

  /**
   * The JVM parameter slots of {@code entry}'s strided loop, its kernel method with the most
   * parameters ({@link #stridedRow}): {@code n}, then data, offset and stride of the result and of
   * each tensor operand, then the {@code @Scalar}s. A long or double takes two slots.
   */
  static int parameterSlots(OpModel op, KernelEntry entry) {
    int results = op.hasSeveralResults() ? op.results().components().size() : 1;
    int slots = 2 + 5 * (op.tensors().size() + results);
    for (OpModel.ScalarParam s : op.scalars()) {
      TypeName t = scalarType(s, entry);
      slots += t.equals(TypeName.LONG) || t.equals(TypeName.DOUBLE) ? 2 : 1;
    }
    return slots;
  }

  /**
   * The strided loop: gathers {@code LANES} elements of each input into this thread's scratch
   * blocks ({@code LaneScratch}), repeating the last one when fewer are left (so that no lane sees
   * a value its row does not hold: an integer division stays as safe as the row), runs the
   * contiguous loop on the blocks and scatters the output's {@code count} elements back.
   */
  private MethodSpec stridedRow() {
    assert parameterSlots(op, entry) <= MAX_PARAMETER_SLOTS;
    MethodSpec.Builder m = rowMethod(kernelName + "_strided", true);
    NameAllocator names = classNames.clone();
    CodeBlock.Builder body = CodeBlock.builder();
    List<Operand> all = all();
    String blocks = names.newName("blocks");
    String element = names.newName("e");
    int widest = all.stream().mapToInt(o -> o.dtype().byteSize()).max().orElse(1);
    body.addStatement("$T[] $N = $T.blocks($L, LANES * $L)", MEMORY_SEGMENT, blocks, LANE_SCRATCH,
        all.size(), widest);
    List<String> scratch = new ArrayList<>();
    for (int k = 0; k < all.size(); k++) {
      String block = names.newName(all.get(k).name() + "Lanes");
      scratch.add(block);
      body.addStatement("$T $N = $N[$L]", MEMORY_SEGMENT, block, blocks, k);
    }
    body.beginControlFlow("for (long i = 0; i < n; i += LANES)");
    body.addStatement("int count = (int) Math.min(LANES, n - i)");
    body.beginControlFlow("for (int k = 0; k < LANES; k++)");
    body.addStatement("long $N = i + Math.min(k, count - 1)", element);
    for (int k = 0; k < inputs.size(); k++) {
      Operand in = inputs.get(k);
      Lane s = Lane.storage(in.dtype());
      if (in.dtype().isComplex()) {
        // Offsets and strides count complex elements; element e is components 2e and 2e + 1.
        for (String part : List.of("", " + 1")) {
          body.addStatement("$N.setAtIndex($L, 2 * k$L, $N.getAtIndex($L, 2 * ($N + $N * $N)$L))",
              scratch.get(k + outputs.size()), s.layout, part, in.data(), s.layout, in.offset(), element,
              in.stride(), part);
        }
      } else {
        body.addStatement("$N.setAtIndex($L, k, $N.getAtIndex($L, $N + $N * $N))",
            scratch.get(k + outputs.size()), s.layout, in.data(), s.layout, in.offset(), element, in.stride());
      }
    }
    body.endControlFlow();
    List<CodeBlock> args = new ArrayList<>(List.of(CodeBlock.of("LANES")));
    for (String block : scratch) {
      args.add(CodeBlock.of("$N, 0", block));
    }
    body.addStatement("$N($L$L)", fastRowName(java.util.Collections.nCopies(inputs.size(), false)),
        CodeBlock.join(args, ", "), scalarArgs());
    body.beginControlFlow("for (int k = 0; k < count; k++)");
    for (int r = 0; r < outputs.size(); r++) {
      Operand output = outputs.get(r);
      Lane out = Lane.storage(output.dtype());
      if (output.dtype().isComplex()) {
        for (String part : List.of("", " + 1")) {
          body.addStatement(
              "$N.setAtIndex($L, 2 * ($N + (i + k) * $N)$L, $N.getAtIndex($L, 2 * k$L))",
              output.data(), out.layout, output.offset(), output.stride(), part, scratch.get(r),
              out.layout, part);
        }
      } else {
        body.addStatement("$N.setAtIndex($L, $N + (i + k) * $N, $N.getAtIndex($L, k))",
            output.data(), out.layout, output.offset(), output.stride(), scratch.get(r),
            out.layout);
      }
    }
    body.endControlFlow();
    body.endControlFlow();
    m.addCode(body.build());
    return m.build();
  }

  // ------------------------------------------------------------------------------ folds

  /**
   * Whether {@code entry} gets the fold and scan loops the runtime's reductions and {@code
   * accumulate} run (docs/ufuncs.md, "Generated kernels"): the {@code (T, T) -> T} entry of a
   * binary ufunc computed in T, for T float32 or float64 with a floating body, or an integral T
   * (int8 to uint64, not bool) with an integral body that does not divide (a division by zero
   * throws, and the masked loops would divide dead lanes too). The body's lanes must be T's own
   * (the loops load and store the accumulators in them): a shift of int8 to int32, computed in
   * 64-bit lanes, gets none. Other dtypes compose the elementwise kernels.
   */
  static boolean folds(OpModel op, KernelEntry entry) {
    DType t = entry.result();
    boolean floating = entry.bodyType() == ValueType.DOUBLE
        && (t == DType.FLOAT32 || t == DType.FLOAT64);
    boolean integral = entry.bodyType() == ValueType.LONG && t.isIntegral(false)
        && !op.overload(ValueType.LONG).map(o -> o.body().divides()).orElse(true);
    return op.isBinaryUfunc() && (floating || integral) && !entry.scalarPromoted()
        && entry.compute() == t && entry.lanes().bytes == t.byteSize()
        && entry.operands().equals(List.of(t, t));
  }

  /** {@code Vector.fromMemorySegment} of element {@code index} of {@code data}, maybe masked. */
  private static CodeBlock load(VectorCode vc, Lane l, String data, String index, String mask) {
    return CodeBlock.of("$T.fromMemorySegment($N, $N, ($L) * $L, ORDER$L)", l.vector,
        vc.species(l), data, index, l.bytes, mask == null ? "" : ", " + mask);
  }

  /** {@code acc = op(acc, x)}: the body on the accumulator (first operand) and the element. */
  private void step(VectorCode vc, Value acc, CodeBlock element) {
    Value x = vc.temp("x", Value.vector(element, computeLane()));
    vc.out.addStatement("$L = $L", acc.code(), vc.vector(compute(vc, List.of(acc, x))).code());
  }

  /**
   * The fold loop ({@code FoldKernel.fold}): {@code acc[accOff + j] = op(acc[accOff + j], in[off
   * + r * rowStride + j])} for rows {@code r} in order, vectorised across the {@code cols}
   * contiguous columns. An associative op with a small body ({@link #registerLoops}) keeps four
   * vectors of columns in registers (four independent chains); the last columns, and all of a
   * larger body's, run under a mask.
   */
  private MethodSpec foldRows() {
    Lane l = computeLane();
    FoldMethod f = new FoldMethod("_fold", "The fold loop of $L: see {@code FoldKernel.fold}.\n");
    String acc = f.param(MEMORY_SEGMENT, "acc");
    String accOff = f.param(TypeName.LONG, "accOff");
    String in = f.param(MEMORY_SEGMENT, "in");
    String off = f.param(TypeName.LONG, "off");
    String rowStride = f.param(TypeName.LONG, "rowStride");
    f.method.addParameter(TypeName.LONG, "rows").addParameter(TypeName.INT, "cols");
    CodeBlock.Builder body = f.body;
    VectorCode vc = f.vc;
    body.addStatement("int j = 0");
    if (registerLoops()) {
      body.beginControlFlow("for (; j + 4 * LANES <= cols; j += 4 * LANES)");
      List<Value> a = new ArrayList<>();
      for (int q = 0; q < 4; q++) {
        a.add(vc.temp("a" + q, Value.vector(
            load(vc, l, acc, accOff + " + j + " + q + " * LANES", null), l)));
      }
      body.beginControlFlow("for (long r = 0; r < rows; r++)");
      body.addStatement("long i = $N + r * $N + j", off, rowStride);
      for (int q = 0; q < 4; q++) {
        step(vc, a.get(q), load(vc, l, in, "i + " + q + " * LANES", null));
      }
      body.endControlFlow();
      for (int q = 0; q < 4; q++) {
        body.addStatement("$L.intoMemorySegment($N, ($N + j + $L * LANES) * $L, ORDER)",
            a.get(q).code(), acc, accOff, q, l.bytes);
      }
      body.endControlFlow();
    }
    body.beginControlFlow("for (; j < cols; j += LANES)");
    String live = f.names.newName("live");
    body.addStatement("$T $N = $N.indexInRange(j, cols)", VectorCode.maskType(l), live,
        vc.species(l));
    Value a = vc.temp("a", Value.vector(load(vc, l, acc, accOff + " + j", live), l));
    body.beginControlFlow("for (long r = 0; r < rows; r++)");
    step(vc, a, load(vc, l, in, off + " + r * " + rowStride + " + j", live));
    body.endControlFlow();
    body.addStatement("$L.intoMemorySegment($N, ($N + j) * $L, ORDER, $N)", a.code(), acc, accOff,
        l.bytes, live);
    body.endControlFlow();
    return f.build();
  }

  /**
   * The most characters of Java one step of the body ({@code acc = op(acc, x)}, with its load) may
   * take for the loops that write it several times in one method: the four-vector fold loop (five
   * copies with the masked loop) and the leaf ({@link #leafRows}, thirteen: four in the blocks,
   * four in the tail, one in the parked halves, three joining the four vectors, one in the
   * rotations). {@code maximum}'s step is about 220 characters, {@code add}'s 130; a step with a
   * transcendental call is thousands. A user's {@code logAddExp} with its body five times in the
   * fold loop (3,975 bytes of bytecode for float32, 4,750 for float64: below HotSpot's 8,000-byte
   * HugeMethodLimit, so that limit was not the cause) reduced a [4096, 4096] in 19 s: the
   * vector calls of such a method are not all inlined (C2's inlining budget), and a Vector API
   * call that is not inlined boxes its vectors.
   */
  static final int REGISTER_STEP_CHARS = 800;

  /**
   * Whether this fold kernel gets the loops that keep several accumulator vectors in registers
   * (the four-vector fold loop, {@link #leafRows}): an associative op whose step is small enough
   * to be written thirteen times in one compiled method ({@link #REGISTER_STEP_CHARS}). A larger
   * body is compute-bound, so one vector chain at a time costs it nothing.
   */
  private boolean registerLoops() {
    if (!op.associative()) {
      return false;
    }
    CodeBlock.Builder probe = CodeBlock.builder();
    VectorCode vc = new VectorCode(probe, classNames.clone(), lanes);
    Lane l = computeLane();
    Value a = vc.temp("a", Value.vector(load(vc, l, "acc", "0", null), l));
    step(vc, a, load(vc, l, "in", "0", null));
    String all = probe.build().toString();
    return all.length() - all.indexOf(';') <= REGISTER_STEP_CHARS;
  }

  /**
   * The leaf loop ({@code FoldKernel.leaf}): a contiguous leaf of {@code n >= k} elements by the
   * tree of docs/reductions.md, in one call: element {@code i} into accumulator {@code i mod k}
   * (each starting as its first element), then the accumulators folded in halves, {@code acc[j] =
   * op(acc[j], acc[j + h])} for {@code h = k / 2, ..., 1}. Four vectors of accumulators stay in
   * registers for a pass over the leaf, the tail (fewer than {@code k} elements, the last of each
   * accumulator) folded in under a mask before the pass ends. Narrower vectors take more passes
   * (the leaf is in L1 after the first), park each pass in {@code park} and fold the halves above
   * four vectors there; with {@code k} four vectors wide (AVX-512) nothing is parked, as in the
   * hand-written sum leaf this replaced. The lanes of the last vector fold by the rotations of
   * {@code LEAF_ROTATIONS}, made once per class ({@code FoldKernel.leafRotations}). Returns false,
   * computing nothing, when four vectors exceed {@code k} elements.
   */
  private List<MethodSpec> leafRows() {
    Lane l = computeLane();
    FoldMethod f = new FoldMethod("_leaf", "The leaf loop of $L: see {@code FoldKernel.leaf}.\n");
    String in = f.param(MEMORY_SEGMENT, "in");
    String off = f.param(TypeName.LONG, "off");
    f.method.addParameter(TypeName.INT, "n").addParameter(TypeName.INT, "k");
    String park = f.param(MEMORY_SEGMENT, "park");
    f.method.returns(TypeName.BOOLEAN);
    CodeBlock.Builder body = f.body;
    VectorCode vc = f.vc;
    // k is docs/reductions.md's 256 bytes of accumulators: as a constant, the loads' offsets
    // are linear in the loop counter with a constant scale, so C2 hoists their bounds checks (a
    // parameter as the scale kept four checks per block).
    body.addStatement("final int leafK = $L", 256 / l.bytes);
    body.beginControlFlow("if (k != leafK || 4 * LANES > leafK)");
    body.addStatement("return false");
    body.endControlFlow();
    body.addStatement("int blocks = n / leafK");
    body.addStatement("int tail = n - blocks * leafK");
    body.addStatement("int g = 0");
    List<Value> a = new ArrayList<>();
    for (int q = 0; q < 4; q++) {
      a.add(vc.temp("a" + q, Value.vector(load(vc, l, in, off + " + " + q + " * LANES", null), l)));
    }
    body.beginControlFlow("while (true)");
    body.addStatement("long at = $N + g", off);
    body.beginControlFlow("for (int b = 1; b < blocks; b++)");
    body.addStatement("long i = at + (long) b * leafK");
    for (int q = 0; q < 4; q++) {
      step(vc, a.get(q), load(vc, l, in, "i + " + q + " * LANES", null));
    }
    body.endControlFlow();
    // The tail's elements these accumulators take, last, under a mask (leafTail).
    body.addStatement("int left = tail - g");
    body.beginControlFlow("if (left > 0)");
    body.addStatement("long i = at + (long) blocks * leafK");
    for (int q = 0; q < 4; q++) {
      body.beginControlFlow("if (left > $L * LANES)", q);
      body.addStatement("$L = $N_leafTail($L, $N, i, $L * LANES, left)", a.get(q).code(),
          kernelName, a.get(q).code(), in, q);
      body.endControlFlow();
    }
    body.endControlFlow();
    body.beginControlFlow("if (g + 4 * LANES >= leafK)");
    body.addStatement("break");
    body.endControlFlow();
    for (int q = 0; q < 4; q++) {
      body.addStatement("$L.intoMemorySegment($N, (g + $L * LANES) * $L, ORDER)", a.get(q).code(),
          park, q, l.bytes);
    }
    body.addStatement("g += 4 * LANES");
    for (int q = 0; q < 4; q++) {
      body.addStatement("$L = $L", a.get(q).code(),
          load(vc, l, in, off + " + g + " + q + " * LANES", null));
    }
    body.endControlFlow();
    // More than one pass: the halves above four vectors on the parked accumulators (leafHalves),
    // then aligned reloads of the first four vectors (a load at a lane offset would wait for the
    // store).
    body.beginControlFlow("if (4 * LANES < leafK)");
    for (int q = 0; q < 4; q++) {
      body.addStatement("$L.intoMemorySegment($N, (g + $L * LANES) * $L, ORDER)", a.get(q).code(),
          park, q, l.bytes);
    }
    body.addStatement("$N_leafHalves($N, leafK)", kernelName, park);
    for (int q = 0; q < 4; q++) {
      body.addStatement("$L = $L", a.get(q).code(), load(vc, l, park, q + " * LANES", null));
    }
    body.endControlFlow();
    body.addStatement("$N_leafLanes($L, $L, $L, $L, $N)", kernelName, a.get(0).code(),
        a.get(1).code(), a.get(2).code(), a.get(3).code(), park);
    body.addStatement("return true");
    return List.of(f.build(), leafTail(), leafHalves(), leafLanes());
  }

  /**
   * The leaf's tail step for one accumulator vector: {@code op(acc, x)} on the lanes from {@code
   * lane} below {@code left}, {@code acc} kept on the others (a blend: an op need not leave it
   * alone with a zero operand). A method of its own, as are {@link #leafHalves} and {@link
   * #leafLanes}, to keep the leaf within C1's limits: C1 inlines every Vector API call's Java
   * fallback, and the whole leaf (the body thirteen times) ran out of C1's virtual registers
   * ("COMPILE SKIPPED: out of virtual registers in LIR generator") for {@code maximum}, {@code
   * minimum}, {@code mul}, the bitwise ops and float64 {@code add}. A method first compiled by C1
   * without profiling (tier 2, when C2's queue is long) then never reaches C2, as its tier 3
   * fails: it stayed on C1's code, which boxes every vector, and {@code maximum.reduce} of a
   * [4096, 4096] float32 took 15-30 ns per element. C2 inlines these helpers (hot, small), so its
   * code is the one-method leaf's.
   */
  private MethodSpec leafTail() {
    Lane l = computeLane();
    FoldMethod f =
        new FoldMethod("_leafTail", "The leaf's tail step of $L (the leaf loop's helper).\n");
    String acc = f.param(l.vector, "acc");
    String in = f.param(MEMORY_SEGMENT, "in");
    String i = f.param(TypeName.LONG, "i");
    String lane = f.param(TypeName.INT, "lane");
    String left = f.param(TypeName.INT, "left");
    f.method.returns(l.vector);
    String live = f.names.newName("live");
    f.body.addStatement("$T $N = $N.indexInRange($N, $N)", VectorCode.maskType(l), live,
        f.vc.species(l), lane, left);
    Value r = f.vc.temp("r", Value.vector(CodeBlock.of("$N", acc), l));
    step(f.vc, r, load(f.vc, l, in, i + " + " + lane, live));
    f.body.addStatement("return $N.blend($L, $N)", acc, r.code(), live);
    return f.build();
  }

  /**
   * The halves above four vectors on the parked accumulators, {@code park[j] = op(park[j], park[j
   * + h])} for {@code h = leafK / 2, ..., 4 * LANES} (narrower vectors than {@code leafK / 4}
   * lanes; a method of its own for C1, see {@link #leafTail}).
   */
  private MethodSpec leafHalves() {
    Lane l = computeLane();
    FoldMethod f =
        new FoldMethod("_leafHalves", "The parked halves of $L's leaf (the leaf loop's helper).\n");
    String park = f.param(MEMORY_SEGMENT, "park");
    f.method.addParameter(TypeName.INT, "leafK");
    CodeBlock.Builder body = f.body;
    VectorCode vc = f.vc;
    body.beginControlFlow("for (int h = leafK / 2; h >= 4 * LANES; h /= 2)");
    body.beginControlFlow("for (int j = 0; j < h; j += LANES)");
    Value c = vc.temp("c", Value.vector(load(vc, l, park, "j", null), l));
    step(vc, c, load(vc, l, park, "j + h", null));
    body.addStatement("$L.intoMemorySegment($N, j * $L, ORDER)", c.code(), park, l.bytes);
    body.endControlFlow();
    body.endControlFlow();
    return f.build();
  }

  /**
   * The leaf's last halves in registers: {@code h = 2 * LANES} pairs {@code a0} with {@code a2}
   * and {@code a1} with {@code a3}, {@code h = LANES} the two results, then the lanes of {@code
   * a0} in halves by the rotations ({@code LEAF_ROTATIONS}); lane 0 is stored at {@code park[0]}
   * (a method of its own for C1, see {@link #leafTail}).
   */
  private MethodSpec leafLanes() {
    Lane l = computeLane();
    FoldMethod f =
        new FoldMethod("_leafLanes", "The last halves of $L's leaf (the leaf loop's helper).\n");
    List<Value> a = new ArrayList<>();
    for (int q = 0; q < 4; q++) {
      a.add(Value.vector(CodeBlock.of("$N", f.param(l.vector, "a" + q)), l));
    }
    String park = f.param(MEMORY_SEGMENT, "park");
    CodeBlock.Builder body = f.body;
    VectorCode vc = f.vc;
    step(vc, a.get(0), a.get(2).code());
    step(vc, a.get(1), a.get(3).code());
    step(vc, a.get(0), a.get(1).code());
    // The lanes in halves: lane j (< h) of the rotation by h is lane j + h.
    String rotation = f.names.newName("rotation");
    body.beginControlFlow("for ($T $N : LEAF_ROTATIONS)",
        ParameterizedTypeName.get(ComplexBodyEmitter.VECTOR_SHUFFLE, l.boxed()), rotation);
    step(vc, a.get(0), CodeBlock.of("$L.rearrange($N)", a.get(0).code(), rotation));
    body.endControlFlow();
    body.addStatement("$L.intoMemorySegment($N, 0, ORDER)", a.get(0).code(), park);
    return f.build();
  }

  /**
   * {@code FoldKernel.pair}: {@code op(a, b)} of two partial results, the body on two broadcast
   * vectors (lane 0 read back: the lanes' bits, as the loops give). A reduction combines its
   * leaves' results with it; through {@code fold} each pair took a masked one-column call.
   * Floating results travel as doubles, integral ones as longs ({@code FoldKernel.pairLong}).
   */
  private MethodSpec pairRow() {
    Lane l = computeLane();
    FoldMethod f = new FoldMethod("_pair", "The pair step of $L: see {@code FoldKernel.pair}.\n");
    // float32 results travel as doubles (exactly), narrower integers as longs (their value, as
    // Java widens the lane's primitive): narrowed back here; float64 and int64 need no cast.
    TypeName carrier = l.floating ? TypeName.DOUBLE : TypeName.LONG;
    String first = f.param(carrier, "first");
    String second = f.param(carrier, "second");
    f.method.returns(carrier);
    CodeBlock.Builder body = f.body;
    VectorCode vc = f.vc;
    String cast = l == Lane.DOUBLE || l == Lane.LONG ? "" : "(" + l.primitive + ") ";
    Value a = vc.temp("a", Value.vector(CodeBlock.of("$T.broadcast($N, $L$N)", l.vector,
        vc.species(l), cast, first), l));
    step(vc, a, CodeBlock.of("$T.broadcast($N, $L$N)", l.vector, vc.species(l), cast, second));
    body.addStatement("return $L.lane(0)", a.code());
    return f.build();
  }

  /**
   * A method of the fold loops being written ({@link #foldRows}, {@link #leafRows}, ...): private
   * and static, named {@code kernelName + suffix}, its javadoc {@code javadoc} with the entry's
   * description for {@code $L}; its own names (the class's taken), its body, and a {@link
   * VectorCode} writing into the body. Parameters are added in order, named through {@link
   * #param} when an operand's name could take theirs.
   */
  private final class FoldMethod {
    final MethodSpec.Builder method;
    final NameAllocator names = classNames.clone();
    final CodeBlock.Builder body = CodeBlock.builder();
    final VectorCode vc = new VectorCode(body, names, lanes);

    FoldMethod(String suffix, String javadoc) {
      method = MethodSpec.methodBuilder(kernelName + suffix)
          .addJavadoc(javadoc, entry.describe())
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC);
    }

    /** The next parameter, of {@code type}, named {@code name} unless that name is taken. */
    String param(TypeName type, String name) {
      String allocated = names.newName(name);
      method.addParameter(type, allocated);
      return allocated;
    }

    MethodSpec build() {
      return method.addCode(body.build()).build();
    }
  }

  /** Elements per block of the scalar scan loop ({@link #scanRows}): the int index's range. */
  static final int SCAN_BLOCK = 1 << 20;

  /**
   * The scan loop ({@code FoldKernel.scan}): {@code out[0] = in[0]}, {@code out[r] = op(out[r -
   * 1], in[r])} down the rows in order, vectorised across the {@code cols} contiguous columns
   * (under a mask). One contiguous column of a body of plain arithmetic runs as scalar Java, which
   * gives the lanes' bits ({@link #plainArithmetic}) without a vector per element, in int-indexed
   * blocks over slices of at most {@link #SCAN_BLOCK} elements: C2 drops the bounds checks of such
   * a loop and unrolls it, so the running value's chain of adds is all that is left of each step,
   * where a long index scaled by {@code inRow} kept a check and a multiply per access and took
   * twice as long ({@code cumsum} of 16M float32: 34 against 19 ms, issue 24). A column with a
   * row stride (the last column of a block, rare) takes the vector loop under a one-lane mask,
   * which gives the same bits.
   */
  private MethodSpec scanRows() {
    Lane l = computeLane();
    FoldMethod f = new FoldMethod("_scan", "The scan loop of $L: see {@code FoldKernel.scan}.\n");
    String in = f.param(MEMORY_SEGMENT, "in");
    String off = f.param(TypeName.LONG, "off");
    String inRow = f.param(TypeName.LONG, "inRow");
    String out = f.param(MEMORY_SEGMENT, "out");
    String outOff = f.param(TypeName.LONG, "outOff");
    String outRow = f.param(TypeName.LONG, "outRow");
    f.method.addParameter(TypeName.LONG, "rows").addParameter(TypeName.INT, "cols");
    NameAllocator names = f.names;
    CodeBlock.Builder body = f.body;
    Body b = overload.body();
    if (l.floating && !b.any(e -> !plainArithmetic(e))) {
      body.beginControlFlow("if (cols == 1 && $N == 1 && $N == 1)", inRow, outRow);
      String a = names.newName("a");
      String x = names.newName("x");
      String m = names.newName("m");
      String k = names.newName("k");
      String inBlock = names.newName("inBlock");
      String outBlock = names.newName("outBlock");
      body.addStatement("$T $N = $N.getAtIndex($L, $N)", l.primitive, a, in, l.layout, off);
      body.addStatement("$N.setAtIndex($L, $N, $N)", out, l.layout, outOff, a);
      body.addStatement("long r = 1");
      body.beginControlFlow("while (r < rows)");
      body.addStatement("int $N = (int) Math.min(rows - r, $L)", m, SCAN_BLOCK);
      body.addStatement("$T $N = $N.asSlice(($N + r) * $L, (long) $N * $L)", MEMORY_SEGMENT,
          inBlock, in, off, l.bytes, m, l.bytes);
      body.addStatement("$T $N = $N.asSlice(($N + r) * $L, (long) $N * $L)", MEMORY_SEGMENT,
          outBlock, out, outOff, l.bytes, m, l.bytes);
      body.beginControlFlow("for (int $N = 0; $N < $N; $N++)", k, k, m, k);
      body.addStatement("$T $N = $N.getAtIndex($L, $N)", l.primitive, x, inBlock, l.layout, k);
      Map<String, String> locals = new java.util.HashMap<>();
      ScalarFloat scalar = new ScalarFloat(l, body, names, List.of(a, x), List.of(), locals,
          Expr.heights(b));
      for (Body.Local local : b.locals()) {
        String init = scalar.code(local.init(), true);
        String name = names.newName(local.name());
        body.addStatement("$T $N = $L", l.primitive, name, init);
        locals.put(local.name(), name);
      }
      body.addStatement("$N = $L", a, scalar.code(b.result(), true));
      body.addStatement("$N.setAtIndex($L, $N, $N)", outBlock, l.layout, k, a);
      body.endControlFlow();
      body.addStatement("r += $N", m);
      body.endControlFlow();
      body.addStatement("return");
      body.endControlFlow();
    }
    VectorCode vc = f.vc;
    body.beginControlFlow("for (int j = 0; j < cols; j += LANES)");
    String live = names.newName("live");
    body.addStatement("$T $N = $N.indexInRange(j, cols)", VectorCode.maskType(l), live,
        vc.species(l));
    Value a = vc.temp("a", Value.vector(load(vc, l, in, off + " + j", live), l));
    body.addStatement("$L.intoMemorySegment($N, ($N + j) * $L, ORDER, $N)", a.code(), out, outOff,
        l.bytes, live);
    body.beginControlFlow("for (long r = 1; r < rows; r++)");
    step(vc, a, load(vc, l, in, off + " + r * " + inRow + " + j", live));
    body.addStatement("$L.intoMemorySegment($N, ($N + r * $N + j) * $L, ORDER, $N)", a.code(), out,
        outOff, outRow, l.bytes, live);
    body.endControlFlow();
    body.endControlFlow();
    return f.build();
  }

  // ------------------------------------------------------------------------------ conversions

  /**
   * A loaded operand as the body sees it: {@link #toCompute} for real kernels; in a complex kernel,
   * a pair vector of the compute lane (a real operand converted as promotion requires, then (x, 0)).
   */
  private Value operandValue(VectorCode vc, Value raw, int operand) {
    if (!entry.complex()) {
      return toCompute(vc, raw, operand);
    }
    DType dtype = entry.operands().get(operand);
    VectorCode pairs = vc.pairs(pairLanes);
    if (dtype.isComplex()) {
      Value components = dtype == DType.COMPLEX32 ? pairs.halfToFloat(raw) : raw;
      return pairs.convert(components, computeLane(), false);
    }
    Value real = vc.named("real", toCompute(vc, raw, operand));
    return Value.vector(CodeBlock.of("(($T) $L.reinterpretShape($N, 0)).rearrange($N)",
        computeLane().vector, real.code(), pairs.species(computeLane()),
        constant(ComplexBodyEmitter.Constant.WIDEN)), computeLane());
  }

  private String constant(ComplexBodyEmitter.Constant c) {
    constants.add(c);
    return c.name();
  }

  /** A stride-0 complex operand: its two components read once, as (re, im) pairs. */
  private Value splatComplex(VectorCode vc, Operand in) {
    Lane s = Lane.storage(in.dtype());
    Lane c = computeLane();
    CodeBlock[] parts = new CodeBlock[2];
    for (int part = 0; part < 2; part++) {
      CodeBlock read = CodeBlock.of(part == 0 ? "$N.getAtIndex($L, 2 * $N)"
          : "$N.getAtIndex($L, 2 * $N + 1)", in.data(), s.layout, in.offset());
      parts[part] = in.dtype() == DType.COMPLEX32
          ? CodeBlock.of("Float.float16ToFloat($L)", read)
          : read;
    }
    return Value.vector(CodeBlock.of("$T.broadcast($N, $L).blend($L, $N)", c.vector,
        vc.pairs(pairLanes).species(c), parts[0], parts[1],
        constant(ComplexBodyEmitter.Constant.IM_LANES)), c);
  }

  /** A complex result (pair vector of the compute lane) as the result dtype's pair storage. */
  private Value complexToStorage(VectorCode pairs, Value result) {
    if (entry.result() == DType.COMPLEX32) {
      return pairs.convert(pairs.floatToHalfBits(result), Lane.SHORT, false);
    }
    return pairs.convert(result, Lane.storage(entry.result()), false);
  }

  /** A loaded storage vector of {@code dtype} as the body sees it. */
  private Value toCompute(VectorCode vc, Value raw, int operand) {
    DType dtype = entry.operands().get(operand);
    Lane c = computeLane();
    if (entry.bodyType() == ValueType.BOOLEAN || op.tensors().get(operand).condition()) {
      Value widened = vc.convert(raw, c, true);
      return Value.mask(CodeBlock.of("$L.compare(NE, $L)", widened.code(),
          VectorCode.literal(c, 0)), c);
    }
    if (entry.bodyType() == ValueType.LONG) {
      boolean zero = dtype.isUnsigned() || dtype == DType.BOOL;
      return vc.convert(raw, c, zero);
    }
    // Floating body; a real operand of a complex kernel is cast to the components' dtype.
    DType promoted = entry.promoted().componentType();
    Value f = switch (dtype) {
      case FLOAT16 -> vc.halfToFloat(raw);
      case BFLOAT16 -> vc.bfloat16ToFloat(raw);
      case FLOAT32, FLOAT64 -> raw;
      default -> {
        Value converted = vc.integralToFloating(raw, dtype, c);
        if (promoted == DType.FLOAT16) {
          // PyTorch casts the operand to the promoted dtype first: round through float16.
          yield vc.halfToFloat(vc.floatToHalfBits(converted));
        }
        if (promoted == DType.BFLOAT16) {
          yield vc.bfloat16ToFloat(vc.floatToBfloat16Bits(converted));
        }
        yield converted;
      }
    };
    return vc.convert(f, c, false);
  }

  /** The body's result as the storage vector of {@code stored}, the result dtype. */
  private Value toStorage(VectorCode vc, Value result, DType stored) {
    Lane out = Lane.storage(stored);
    if (result.kind() == Value.Kind.MASK) {
      return vc.convert(vc.maskToZeroOne(result), out, false);
    }
    if (entry.bodyType() == ValueType.LONG) {
      if (stored == DType.BOOL) {
        Value m = Value.mask(CodeBlock.of("$L.compare(NE, $L)", result.code(),
            VectorCode.literal(result.lane(), 0)), result.lane());
        return vc.convert(vc.maskToZeroOne(m), out, false);
      }
      return vc.convert(result, out, false);
    }
    return switch (stored) {
      case FLOAT16 -> vc.convert(vc.floatToHalfBits(result), Lane.SHORT, false);
      case BFLOAT16 -> vc.convert(vc.floatToBfloat16Bits(result), Lane.SHORT, false);
      default -> vc.convert(result, out, false);
    };
  }
}
