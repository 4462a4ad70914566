package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Generates a declaring class's facade from its {@link FacadeModel}: the static methods over
 * {@code Tensor} ({@code <Class>Ops}, or the {@code @Facade} name), one per {@link Form} of each
 * op, and on request a class of instance forms ({@link #generateInstanceMethods}). Per op, sorted
 * by method name and op name:
 *
 * <ul>
 *   <li>{@code op(Tensor a, ..., <scalars>)}: a new result;
 *   <li>{@code op(Tensor a, ..., <scalars>, Tensor out)}: writes {@code out} and returns it;
 *   <li>both forms again with a Java {@code Number} or {@code boolean} in place of tensor operands
 *       ({@link Form#of} says which), wrapped by {@code Dispatch.wrap};
 *   <li>for an op with exactly two tensor operands, both promoting, {@code op(Tensor a, Tensor b,
 *       <scalars>, BroadcastDims dims)}: XLA's explicit broadcasting, the lower-rank operand lifted
 *       by {@code Dispatch.liftWithDims} before the ordinary broadcasting;
 *   <li>for the same kind of op without {@code @Scalar}s, a {@code BinaryUfunc} field of the op's
 *       name ({@link #ufuncField}): {@code Ops.add.reduce(x, 0)}.
 * </ul>
 *
 * <p>A method first calls the {@code @Rule}s that fit it, in source order (a check, an answer that
 * ends the call when non-null, or the value of a {@code @Scalar}), then {@code Dispatch.apply}
 * with the op's descriptor. Java numbers are wrapped before the rules when a rule reads one as a
 * tensor, else in the dispatch call. Numeric {@code @Scalar}s are {@code Number}, so the
 * argument's Java type decides how it promotes ({@code 2} as a Python int, {@code 2.5} as a Python
 * float); boolean ones are {@code boolean}. Null and type checks happen in the dispatcher, which
 * names the parameter.
 */
final class FacadeGenerator {

  static final ClassName TENSOR = ClassName.get("dev.ufunc4j", "Tensor");
  static final ClassName DISPATCH = ClassName.get("dev.ufunc4j", "Dispatch");
  static final ClassName BROADCAST_DIMS = ClassName.get("dev.ufunc4j", "BroadcastDims");
  static final ClassName BINARY_UFUNC = ClassName.get("dev.ufunc4j", "BinaryUfunc");
  private static final ClassName METHOD_HANDLES =
      ClassName.get("java.lang.invoke", "MethodHandles");
  private static final ClassName NUMBER = ClassName.get(Number.class);

  private final FacadeModel facade;
  private final Generated generated;
  private final ClassName facadeClass;
  private final ClassName declaringClass;

  FacadeGenerator(FacadeModel facade, Generated generated) {
    this.facade = facade;
    this.generated = generated;
    OpModel.DeclaringClass declaring = facade.declaring();
    this.facadeClass = ClassName.get(declaring.packageName(), facade.className());
    String pkg = declaring.packageName();
    String nested = pkg.isEmpty()
        ? declaring.canonicalName()
        : declaring.canonicalName().substring(pkg.length() + 1);
    String[] names = nested.split("\\.");
    this.declaringClass =
        ClassName.get(pkg, names[0], Arrays.copyOfRange(names, 1, names.length));
  }

  /** The facade's default name, {@code <Class>Ops}. */
  static String className(OpModel.DeclaringClass declaring) {
    return declaring.flatName() + "Ops";
  }

  /** The facade of static methods. */
  JavaFile generate() {
    CodeBlock.Builder doc = CodeBlock.builder();
    if (!facade.description().isEmpty()) {
      doc.add("$L\n\n<p>", facade.description());
    }
    // How to call the methods, not how they work (issue 29: the published javadoc is for users).
    doc.add("The {@code @Elementwise} ops of $L as static methods. Each broadcasts its tensor"
            + " operands\nagainst each other, promotes them to a common dtype as PyTorch does and"
            + " returns a new tensor;\nthe form with a last {@code out} tensor writes the result"
            + " there instead (in place when it is\nthe first operand). Each method names the"
            + " dtypes it computes.\n",
        facade.linksDeclarations()
            ? "{@link " + facade.declaring().canonicalName() + "}"
            : "{@code " + declaringClass.simpleName() + "}");
    TypeSpec.Builder type = TypeSpec.classBuilder(facade.className()).addJavadoc(doc.build());
    if (facade.isPublic()) {
      type.addModifiers(Modifier.PUBLIC);
    }
    type.addModifiers(Modifier.FINAL);
    if (!facade.superclassName().isEmpty()) {
      type.superclass(ClassName.get(facade.declaring().packageName(), facade.superclassName()));
    }
    generated.annotate(type);
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    java.util.Set<String> twins = new java.util.HashSet<>();
    for (FacadeModel.Op op : facade.ops()) {
      if (op.model().isBinaryUfunc()) {
        type.addField(ufuncField(op));
      }
      if (op.model().hasSeveralResults()) {
        if (twins.add(op.model().results().simpleName())) {
          type.addType(twin(op.model().results()));
        }
        for (Form form : Form.of(op)) {
          type.addMethod(resultsMethod(form));
        }
        continue;
      }
      for (Form form : Form.of(op)) {
        type.addMethod(method(form));
      }
    }
    return file(type.build());
  }

  /**
   * The op's {@code BinaryUfunc}, a field with the op's own name ({@code Ops.add.reduce(x, 0)},
   * NumPy's {@code np.add.reduce(x, 0)}); Java keeps fields and methods apart, so {@code
   * Ops.add(a, b)} still calls the method. It applies the op through the facade's {@code out=}
   * method, so the op's rules hold in its reductions too; the descriptor and the method are
   * named, not touched, so that initialising the facade initialises no descriptor.
   */
  private FieldSpec ufuncField(FacadeModel.Op op) {
    OpModel model = op.model();
    return FieldSpec.builder(BINARY_UFUNC, model.name(), Modifier.PUBLIC, Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc("The ufunc methods of {@code $L}: {@code reduce}, {@code accumulate}, {@code"
                + " outer},\n{@code at} and {@code reduceAt}, as NumPy's {@code np.<ufunc>.reduce}"
                + " and friends\n(identity {@code $L}$L; docs/ufuncs.md).\n",
            model.name(), model.identity().name(),
            model.associative() ? ", associative: pairwise tree" : ", not associative: left fold")
        .initializer("$T.of($T.lookup(),$W$L.class,$W$S)", BINARY_UFUNC, METHOD_HANDLES,
            DescriptorGenerator.className(model), op.methodName())
        .build();
  }

  /**
   * The class of instance forms ({@code @Facade(instanceMethods)}): abstract, package-private,
   * with {@code abstract Tensor self()}; each method calls the facade with {@code self()} as the
   * first operand (and as the target, in place).
   */
  JavaFile generateInstanceMethods() {
    TypeSpec.Builder type = TypeSpec.classBuilder(facade.instanceClassName())
        .addModifiers(Modifier.ABSTRACT)
        .addJavadoc("The instance forms of {@link $T}'s methods: {@code x.op(b)} is {@code"
                + " $L.op(x, b)},\n{@code x.opInPlace(b)} is {@code $L.op(x, b, x)}, for every op"
                + " whose first parameter is a promoting\ntensor operand. A class of this package"
                + " that extends it and returns itself from {@link #self}\nhas them as its"
                + " methods.\n",
            facadeClass, facade.className(), facade.className());
    generated.annotate(type);
    type.addMethod(MethodSpec.methodBuilder("self")
        .addModifiers(Modifier.ABSTRACT)
        .returns(TENSOR)
        .addJavadoc("The receiver of the instance forms: the first operand, and the target in"
            + " place.\n\n@return the tensor the methods apply to\n")
        .build());
    for (FacadeModel.Op op : facade.ops()) {
      if (op.model().hasSeveralResults()) {
        continue; // its static methods return the record's twin, not a Tensor (docs/processor.md)
      }
      for (Form.Instance instance : Form.Instance.of(Form.of(op))) {
        type.addMethod(instanceMethod(instance));
      }
    }
    return file(type.build());
  }

  private JavaFile file(TypeSpec type) {
    return JavaFile.builder(facade.declaring().packageName(), type)
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  private static TypeName typeName(Form form, Form.Param p) {
    return switch (form.javaType(p)) {
      case "Tensor" -> TENSOR;
      case "Number" -> NUMBER;
      case "BroadcastDims" -> BROADCAST_DIMS;
      default -> TypeName.BOOLEAN;
    };
  }

  /**
   * The descriptor whose name Java-number and broadcast-dims refusals carry: that of the op the
   * method is named after ({@code add} for the {@code add(a, b, alpha)} of {@code addScaled}),
   * when it has the same tensor operands, so the message names the method the user called.
   */
  private String namingDescriptor(FacadeModel.Op op) {
    for (FacadeModel.Op other : facade.ops()) {
      if (other.model().name().equals(op.methodName())
          && other.model().tensors().equals(op.model().tensors())) {
        return DescriptorGenerator.className(other.model());
      }
    }
    return DescriptorGenerator.className(op.model());
  }

  /**
   * One static method: lift or wrap the operands, call the rules that fit, then dispatch. The
   * locals (lifted operands, wrapped numbers, the answer, a scalar's value) are named so that they
   * read as what they hold.
   */
  private MethodSpec method(Form form) {
    FacadeModel.Op op = form.op();
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.methodName())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(TENSOR);
    for (Form.Param p : form.params()) {
      m.addParameter(ParameterSpec.builder(typeName(form, p), p.name()).build());
    }
    List<FacadeModel.RuleModel> rules =
        facade.rules().stream().filter(r -> r.fits(form)).toList();
    List<CodeBlock> operands = operands(m, form, rules);
    List<CodeBlock> scalars = new ArrayList<>();
    op.model().scalars().forEach(s -> scalars.add(CodeBlock.of("$L", s.name())));
    addRuleCalls(m, form, rules, operands, scalars);
    String descriptor = DescriptorGenerator.className(op.model());
    String target = form.tail() == Form.Tail.OUT ? form.targetName() : "null";
    if (form.tail() == Form.Tail.DIMS) {
      String lifted = form.localName("operands");
      if (scalars.isEmpty()) {
        m.addStatement("return $T.apply($L.OP, null, $L)", DISPATCH, descriptor, lifted);
      } else {
        m.addStatement("return $T.apply($L.OP, null, $L,$Wnew $T[] {$L})", DISPATCH, descriptor,
            lifted, Object.class, CodeBlock.join(scalars, ", "));
      }
    } else if (scalars.isEmpty()) {
      m.addStatement("return $T.apply($L.OP, $L,$W$L)", DISPATCH, descriptor, target,
          CodeBlock.join(operands, ", "));
    } else {
      m.addStatement("return $T.apply($L.OP, $L,$Wnew $T[] {$L},$Wnew $T[] {$L})", DISPATCH,
          descriptor, target, TENSOR, CodeBlock.join(operands, ", "), Object.class,
          CodeBlock.join(scalars, ", "));
    }
    m.addJavadoc(form.tail() == Form.Tail.DIMS ? dimsJavadoc(form, rules)
        : javadoc(form, rules));
    return m.build();
  }

  /**
   * The tensor operands as the dispatch and the rules read them: lifted by broadcast dimensions
   * into an array first, or Java numbers wrapped, in the call or (when a rule reads one as a
   * tensor) into locals before the rules.
   */
  private List<CodeBlock> operands(MethodSpec.Builder m, Form form,
      List<FacadeModel.RuleModel> rules) {
    OpModel model = form.op().model();
    String naming = namingDescriptor(form.op());
    int n = model.tensors().size();
    List<CodeBlock> operands = new ArrayList<>();
    if (form.tail() == Form.Tail.DIMS) {
      String lifted = form.localName("operands");
      m.addStatement("$T[] $L = $T.liftWithDims($L.OP, $L, $L, $L)", TENSOR, lifted, DISPATCH,
          naming, model.tensors().get(0).name(), model.tensors().get(1).name(), form.dimsName());
      for (int i = 0; i < n; i++) {
        operands.add(CodeBlock.of("$L[$L]", lifted, i));
      }
      return operands;
    }
    boolean wrapFirst = rules.stream().anyMatch(r -> r.params().stream().anyMatch(p ->
        p.type() == FacadeModel.RuleModel.Type.TENSOR && isWrappedOperand(form, p.name())));
    for (int i = 0; i < n; i++) {
      String name = model.tensors().get(i).name();
      if (!form.isWrapped(i)) {
        operands.add(CodeBlock.of("$L", name));
      } else if (wrapFirst) {
        String local = form.localName(name + "Tensor");
        m.addStatement("$T $L = $T.wrap($L.OP, $L, $L)", TENSOR, local, DISPATCH, naming, i,
            name);
        operands.add(CodeBlock.of("$L", local));
      } else {
        operands.add(CodeBlock.of("$T.wrap($L.OP, $L, $L)", DISPATCH, naming, i, name));
      }
    }
    return operands;
  }

  /**
   * The calls of the rules, in source order: a check; an answer returned when non-null; a
   * scalar's value, which then replaces the scalar in {@code scalars}.
   */
  private void addRuleCalls(MethodSpec.Builder m, Form form, List<FacadeModel.RuleModel> rules,
      List<CodeBlock> operands, List<CodeBlock> scalars) {
    List<OpModel.ScalarParam> scalarParams = form.op().model().scalars();
    String answer = null;
    for (FacadeModel.RuleModel rule : rules) {
      CodeBlock args = CodeBlock.join(rule.params().stream()
          .map(p -> ruleArgument(form, p, operands)).toList(), ", ");
      switch (rule.kind()) {
        case CHECK -> m.addStatement("$T.$L($L)", declaringClass, rule.method(), args);
        case ANSWER -> {
          if (answer == null) {
            answer = form.localName("answer");
            m.addStatement("$T $L = $T.$L($L)", TENSOR, answer, declaringClass, rule.method(),
                args);
          } else {
            m.addStatement("$L = $T.$L($L)", answer, declaringClass, rule.method(), args);
          }
          m.beginControlFlow("if ($L != null)", answer)
              .addStatement("return $L", answer)
              .endControlFlow();
        }
        case SCALAR -> {
          String local = form.localName(rule.scalar() + "Value");
          m.addStatement("$T $L = $T.$L($L)", Object.class, local, declaringClass, rule.method(),
              args);
          for (int i = 0; i < scalarParams.size(); i++) {
            if (scalarParams.get(i).name().equals(rule.scalar())) {
              scalars.set(i, CodeBlock.of("$L", local));
            }
          }
        }
      }
    }
  }

  private static boolean isWrappedOperand(Form form, String name) {
    List<OpModel.TensorParam> tensors = form.op().model().tensors();
    for (int i = 0; i < tensors.size(); i++) {
      if (tensors.get(i).name().equals(name)) {
        return form.isWrapped(i);
      }
    }
    return false;
  }

  /** What a rule parameter receives in this form (see {@code @Rule}). */
  private static CodeBlock ruleArgument(Form form, FacadeModel.RuleModel.Param p,
      List<CodeBlock> operands) {
    if (p.name().equals(form.targetName())) {
      return CodeBlock.of("$L", form.tail() == Form.Tail.OUT ? form.targetName() : "null");
    }
    List<OpModel.TensorParam> tensors = form.op().model().tensors();
    for (int i = 0; i < tensors.size(); i++) {
      if (tensors.get(i).name().equals(p.name())) {
        return p.type() == FacadeModel.RuleModel.Type.NUMBER
            ? CodeBlock.of("$L", p.name())
            : operands.get(i);
      }
    }
    return CodeBlock.of("$L", p.name()); // a @Scalar, as the caller gave it
  }

  /**
   * The tensor twin of a record an op returns (several results): a record of the same simple
   * name, nested in the facade, with a {@code Tensor} per component of the same name ({@code
   * SamplesOps.DivMod(Tensor quotient, Tensor remainder)}).
   */
  private TypeSpec twin(OpModel.Results results) {
    MethodSpec.Builder components = MethodSpec.constructorBuilder();
    CodeBlock.Builder doc = CodeBlock.builder()
        .add("The results of an op that returns {@code $L}: one tensor per component,"
            + " named as its\ncomponents, all of the broadcast shape.\n\n", results.canonicalName());
    for (OpModel.Component c : results.components()) {
      components.addParameter(TENSOR, c.name());
      doc.add("@param $L the tensor of component {@code $L} ($L)\n", c.name(), c.name(),
          c.type() == ValueType.BOOLEAN ? "dtype bool" : "the result dtype");
    }
    TypeSpec.Builder twin = TypeSpec.recordBuilder(results.simpleName())
        .recordConstructor(components.build())
        .addJavadoc(doc.build());
    if (facade.isPublic()) {
      twin.addModifiers(Modifier.PUBLIC);
    }
    return twin.build();
  }

  /**
   * One static method of an op with several results: wrap or lift the operands, then {@code
   * Dispatch.applyResults}, whose tensors become the record's twin. No {@code @Rule}s fit it.
   */
  private MethodSpec resultsMethod(Form form) {
    FacadeModel.Op op = form.op();
    OpModel.Results results = op.model().results();
    ClassName twin = facadeClass.nestedClass(results.simpleName());
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.methodName())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(twin);
    List<CodeBlock> targets = new ArrayList<>();
    for (Form.Param p : form.params()) {
      m.addParameter(ParameterSpec.builder(typeName(form, p), p.name()).build());
      if (p.kind() == Form.Kind.TARGET) {
        targets.add(CodeBlock.of("$N", p.name()));
      }
    }
    List<CodeBlock> operands = operands(m, form, List.of());
    List<CodeBlock> scalars = new ArrayList<>();
    op.model().scalars().forEach(s -> scalars.add(CodeBlock.of("$L", s.name())));
    String descriptor = DescriptorGenerator.className(op.model());
    CodeBlock outs = targets.isEmpty() ? CodeBlock.of("null")
        : CodeBlock.of("new $T[] {$L}", TENSOR, CodeBlock.join(targets, ", "));
    CodeBlock tensors = form.tail() == Form.Tail.DIMS
        ? CodeBlock.of("$L", form.localName("operands"))
        : CodeBlock.of("new $T[] {$L}", TENSOR, CodeBlock.join(operands, ", "));
    String local = form.localName("results");
    if (scalars.isEmpty()) {
      CodeBlock inputs = form.tail() == Form.Tail.DIMS ? tensors : CodeBlock.join(operands, ", ");
      m.addStatement("$T[] $L = $T.applyResults($L.OP, $L,$W$L)", TENSOR, local, DISPATCH,
          descriptor, outs, inputs);
    } else {
      m.addStatement("$T[] $L = $T.applyResults($L.OP, $L,$W$L,$Wnew $T[] {$L})", TENSOR, local,
          DISPATCH, descriptor, outs, tensors, Object.class, CodeBlock.join(scalars, ", "));
    }
    List<CodeBlock> parts = new ArrayList<>();
    for (int k = 0; k < results.components().size(); k++) {
      parts.add(CodeBlock.of("$N[$L]", local, k));
    }
    m.addStatement("return new $T($L)", twin, CodeBlock.join(parts, ", "));
    CodeBlock.Builder doc = CodeBlock.builder();
    if (!op.description().isEmpty()) {
      doc.add("$L\n\n<p>", op.description());
    }
    doc.add("Applies $L\nto each element of the broadcast operands$L:\none kernel computes the"
            + " body once per element and writes a tensor per component of {@code $L}.\n",
        declarations(op), targets.isEmpty() ? "" : CodeBlock.of(", writing $L",
            CodeBlock.join(targets.stream().map(t -> CodeBlock.of("{@code $L}", t)).toList(),
                " and ")), results.simpleName());
    doc.add("\n<p>Promotion ({@code $L}): $L A boolean component's tensor is bool.\n",
        op.model().promote().name(), promotion(op.model(), List.of()));
    if (!targets.isEmpty()) {
      doc.add("\n<p>Each target must have the broadcast shape, its component's dtype must cast"
          + " to its dtype\n(PyTorch's same-kind rule), and no target may overlap another or"
          + " partially overlap an operand.\nNothing is written when a check fails.\n");
    }
    if (form.tail() == Form.Tail.DIMS) {
      doc.add("\n<p>With XLA's explicit broadcasting: the lower-rank operand is first lifted by"
          + " {@code $L}\n({@link dev.ufunc4j.Broadcast#inDim}).\n", form.dimsName());
    }
    doc.add("\n");
    for (Form.Param p : form.params()) {
      doc.add(p.kind() == Form.Kind.TARGET
          ? CodeBlock.of("@param $L a target\n", p.name())
          : paramDoc(form, p, List.of()));
    }
    doc.add("@return the tensors of the components$L\n",
        targets.isEmpty() ? ", new, of the broadcast shape" : ": the targets");
    m.addJavadoc(doc.build());
    return m.build();
  }

  private MethodSpec instanceMethod(Form.Instance instance) {
    Form form = instance.form();
    MethodSpec.Builder m = MethodSpec.methodBuilder(instance.name())
        .addModifiers(Modifier.PUBLIC)
        .returns(TENSOR);
    CodeBlock self = CodeBlock.of("self()");
    List<CodeBlock> args = new ArrayList<>();
    args.add(self);
    for (Form.Param p : instance.params()) {
      m.addParameter(ParameterSpec.builder(typeName(form, p), p.name()).build());
      args.add(CodeBlock.of("$N", p.name()));
    }
    if (instance.inPlace()) {
      args.add(self);
    }
    m.addStatement("return $T.$L($L)", facadeClass, form.op().methodName(),
        CodeBlock.join(args, ", "));
    CodeBlock.Builder doc = CodeBlock.builder();
    if (!form.op().description().isEmpty()) {
      doc.add("$L\n\n<p>", form.op().description());
    }
    String link = "{@link " + facade.className() + "#" + form.signature() + "}";
    String receiver = form.params().get(0).name();
    if (instance.inPlace()) {
      doc.add("In place: as $L with this tensor as {@code $L} and as {@code $L}.\nThis tensor's"
          + " shape and dtype never change: the broadcast shape must equal its shape, and the"
          + " result\ndtype must cast to its dtype ({@code int32.addInPlace(float32)} is refused)."
          + " Nothing is written\nwhen a check fails.\n", link, receiver, form.targetName());
    } else {
      doc.add("As $L with this tensor as {@code $L}.\n", link, receiver);
    }
    doc.add("\n");
    List<String> ruleScalars = ruleScalars(
        facade.rules().stream().filter(r -> r.fits(form)).toList());
    for (Form.Param p : instance.params()) {
      doc.add(paramDoc(form, p, ruleScalars));
    }
    doc.add(instance.inPlace()
        ? "@return this tensor\n"
        : form.tail() == Form.Tail.DIMS
            ? "@return a new tensor of the broadcast shape\n"
            : "@return a new tensor of the broadcast shape and the "
                + (form.op().model().predicate() ? "dtype bool" : "result dtype") + "\n");
    m.addJavadoc(doc.build());
    return m.build();
  }

  private CodeBlock javadoc(Form form, List<FacadeModel.RuleModel> rules) {
    FacadeModel.Op op = form.op();
    boolean withOut = form.tail() == Form.Tail.OUT;
    String out = form.targetName();
    CodeBlock.Builder doc = CodeBlock.builder();
    if (!op.description().isEmpty()) {
      doc.add("$L\n\n<p>", op.description());
    }
    doc.add("Applies $L\nto each element of the broadcast operands$L.\n", declarations(op),
        withOut ? ", writing {@code " + out + "}" : ", into a new tensor");
    doc.add("\n<p>Promotion ({@code $L}): $L\n", op.model().promote().name(),
        promotion(op.model(), ruleScalars(rules)));
    if (withOut) {
      doc.add("\n<p>{@code $L} must have the broadcast shape, and the result dtype must cast to its"
          + " dtype\n(PyTorch's same-kind rule); it may be an operand itself (in place), but"
          + " must not partially\noverlap one. Nothing is written when a check fails.\n", out);
    }
    addRules(doc, rules);
    doc.add("\n");
    for (Form.Param p : form.params()) {
      doc.add(paramDoc(form, p, ruleScalars(rules)));
    }
    if (!withOut) {
      doc.add("@return a new tensor of the broadcast shape and the $L\n",
          op.model().predicate() ? "dtype bool" : "result dtype");
    }
    return doc.build();
  }

  private CodeBlock dimsJavadoc(Form form, List<FacadeModel.RuleModel> rules) {
    FacadeModel.Op op = form.op();
    List<Form.Param> params = form.params();
    String a = params.get(0).name();
    String b = params.get(1).name();
    String dims = form.dimsName();
    CodeBlock.Builder doc = CodeBlock.builder();
    if (!op.description().isEmpty()) {
      doc.add("$L\n\n<p>", op.description());
    }
    doc.add("{@link #$L} with XLA's explicit broadcasting: the lower-rank of {@code $L} and"
            + " {@code $L} is first\nlifted to the other's rank, its dimension {@code i}"
            + " becoming dimension {@code $L.get(i)}\n({@link dev.ufunc4j.Broadcast#inDim},"
            + " a view), then the operands broadcast as usual. For equal ranks\n{@code $L}"
            + " must be empty or the identity.\n", op.methodName(), a, b, dims, dims);
    addRules(doc, rules);
    doc.add("\n");
    doc.add("@param $L a tensor operand\n@param $L a tensor operand\n", a, b);
    for (OpModel.ScalarParam s : op.model().scalars()) {
      doc.add("@param $L a wrapped scalar, as in {@link #$L}\n", s.name(), op.methodName());
    }
    doc.add("@param $L XLA's {@code broadcast_dimensions} for the lower-rank operand\n", dims);
    doc.add("@return a new tensor of the broadcast shape\n");
    return doc.build();
  }

  private static void addRules(CodeBlock.Builder doc, List<FacadeModel.RuleModel> rules) {
    for (FacadeModel.RuleModel rule : rules) {
      if (!rule.description().isEmpty()) {
        doc.add("\n<p>$L\n", rule.description());
      }
    }
  }

  /** The {@code @Scalar}s whose values rules compute: they do not join promotion. */
  private static List<String> ruleScalars(List<FacadeModel.RuleModel> rules) {
    return rules.stream()
        .filter(r -> r.kind() == FacadeModel.RuleModel.Kind.SCALAR)
        .map(FacadeModel.RuleModel::scalar)
        .toList();
  }

  private static CodeBlock paramDoc(Form form, Form.Param p, List<String> ruleScalars) {
    OpModel model = form.op().model();
    if (p.kind() == Form.Kind.SCALAR && ruleScalars.contains(p.name())) {
      return CodeBlock.of("@param $L a Java number, passed as its rule says\n", p.name());
    }
    return switch (p.kind()) {
      case NUMBER -> CodeBlock.of("@param $L a Java number, wrapped as PyTorch wraps a Python"
          + " scalar (integral or floating by its\n    Java type; it does not raise the tensors'"
          + " dtype within its category)\n", p.name());
      case BOOLEAN -> CodeBlock.of("@param $L a Java boolean, wrapped as PyTorch wraps a Python"
          + " bool (the lowest category: it\n    never raises a tensor's dtype, and beside bool"
          + " tensors the result is bool)\n", p.name());
      case TENSOR -> model.tensors().get(p.index()).condition()
          ? CodeBlock.of("@param $L a bool tensor; it selects, and does not join promotion\n",
              p.name())
          : CodeBlock.of("@param $L a tensor operand\n", p.name());
      case SCALAR -> model.scalars().get(p.index()).type() == ValueType.BOOLEAN
          ? CodeBlock.of("@param $L a wrapped boolean scalar\n", p.name())
          : CodeBlock.of("@param $L a wrapped scalar: {@code Long}/{@code Integer} promotes as a"
              + " Python int,\n    {@code Double}/{@code Float} as a Python float\n", p.name());
      case TARGET -> CodeBlock.of("@param $L the target\n@return {@code $L}\n", p.name(),
          p.name());
      case DIMS -> CodeBlock.of("@param $L XLA's {@code broadcast_dimensions} for the"
          + " lower-rank operand\n", p.name());
    };
  }

  /** The op's scalar methods, linked when the facade may link its declaring class. */
  private CodeBlock declarations(FacadeModel.Op op) {
    boolean link = facade.linksDeclarations();
    String owner = link ? facade.declaring().canonicalName() : declaringClass.simpleName();
    return CodeBlock.join(op.model().overloads().stream()
        .map(o -> CodeBlock.of(link ? "{@link $L#$L} ($L)" : "{@code $L.$L} ($L)", owner,
            o.javadocSignature(), domain(op.model(), o.bodyType())))
        .toList(), ",\n");
  }

  /**
   * The dtypes a body of {@code bodyType} computes for {@code op}: the kind's, or the ones of the
   * op's {@code @Elementwise(dtypes)} it computes (a float32-only op's {@code double} body computes
   * float32, not "floating dtypes").
   */
  private static String domain(OpModel op, ValueType bodyType) {
    String kind = switch (bodyType) {
      case DOUBLE -> "floating dtypes";
      case LONG -> "integral and bool dtypes";
      case BOOLEAN -> "bool";
    };
    List<String> declared = op.dtypes().stream()
        .filter(d -> switch (bodyType) {
          case DOUBLE -> d.isFloatingPoint() || d.isComplex();
          case LONG -> d.isIntegral(true);
          case BOOLEAN -> d == DType.BOOL;
        })
        .map(DType::torchName)
        .toList();
    return op.dtypes().isEmpty() || declared.isEmpty() ? kind : String.join(", ", declared);
  }

  private static CodeBlock promotion(OpModel op, List<String> ruleScalars) {
    List<CodeBlock> promoting = new ArrayList<>();
    for (OpModel.TensorParam t : op.tensors()) {
      if (!t.condition()) {
        promoting.add(CodeBlock.of("{@code $L}", t.name()));
      }
    }
    for (OpModel.ScalarParam s : op.scalars()) {
      if (!ruleScalars.contains(s.name())) {
        promoting.add(CodeBlock.of("{@code $L}", s.name()));
      }
    }
    CodeBlock last = promoting.remove(promoting.size() - 1);
    CodeBlock.Builder b = CodeBlock.builder();
    b.add(promoting.isEmpty()
        ? CodeBlock.of("computes in the dtype of $L", last)
        : CodeBlock.of("computes in the common dtype of $L and $L",
            CodeBlock.join(promoting, ", "), last));
    b.add("\n(PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then"
        + " wrapped numbers)");
    if (op.promote() == Promote.INT_TO_FLOAT) {
      b.add(";\nintegral and bool inputs compute in float32");
    }
    b.add(";\nfloat16 and bfloat16 compute in float32 and round once");
    b.add(op.predicate() ? ". The result is bool." : ".");
    return b.build();
  }
}
