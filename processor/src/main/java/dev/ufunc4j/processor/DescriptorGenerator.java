package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.ufunc4j.annotation.Identity;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Generates an op's descriptor class {@code <Declaring>_<op>}: the {@code ElementwiseOp} with its
 * operands and kernel table, and the factory switch that loads a kernel's class on first use.
 */
final class DescriptorGenerator {

  static final ClassName ELEMENTWISE_OP = ClassName.get("dev.ufunc4j.kernel", "ElementwiseOp");
  static final ClassName DTYPE = ClassName.get("dev.ufunc4j.dtype", "DType");
  static final ClassName PROMOTE = ClassName.get("dev.ufunc4j.annotation", "Promote");
  static final ClassName IDENTITY = ClassName.get("dev.ufunc4j.annotation", "Identity");

  private DescriptorGenerator() {}

  static String className(OpModel op) {
    return op.declaringClass().flatName() + "_" + op.name();
  }

  static JavaFile generate(OpModel op, List<KernelGenerator.Kernel> kernels, Generated generated) {
    return generate(op, kernels, List.of(), generated);
  }

  /**
   * The descriptor of {@code op}, with its gradients ({@link Derivatives}) registered: {@code
   * .backward(i, <backward descriptor>.OP)}, or {@code backwardIdentity}/{@code backwardZero}
   * where no kernel is needed.
   */
  static JavaFile generate(OpModel op, List<KernelGenerator.Kernel> kernels,
      List<Derivatives.Gradient> gradients, Generated generated) {
    return generate(op, kernels, gradients, generated,
        CodeBlock.of("The op {@code $L} declared by {@link $L}: its operands and kernel table ($L"
            + " entries).\n", op.name(), op.declaringClass().canonicalName(), kernels.size()));
  }

  /**
   * The descriptor of a backward op ({@link Derivatives}), whose javadoc shows the formula its
   * kernels compute, as Java.
   */
  static JavaFile generateBackward(OpModel forward, Derivatives.Gradient gradient,
      List<KernelGenerator.Kernel> kernels, Generated generated) {
    OpModel backward = gradient.backward();
    String operand = forward.tensors().get(gradient.operand()).name();
    String formula = BodyPrinter.print(backward.overload(ValueType.DOUBLE).orElseThrow().body());
    return generate(backward, kernels, List.of(), generated, CodeBlock.builder()
        .add("The gradient of {@link $L#$L} with respect to {@code $L}, $L: an op over the"
                + " incoming gradient and the operands the formula reads, one kernel per floating"
                + " dtype ($L). Per element it computes\n",
            forward.declaringClass().canonicalName(),
            forward.overload(ValueType.DOUBLE).orElseThrow().javadocSignature(), operand,
            gradient.declared() ? "as its {@code @Derivative} declares it"
                : "derived from the op's body", kernels.size())
        .add("<pre>{@code\n$L\n}</pre>\n", formula)
        .build());
  }

  private static JavaFile generate(OpModel op, List<KernelGenerator.Kernel> kernels,
      List<Derivatives.Gradient> gradients, Generated generated, CodeBlock javadoc) {
    String name = className(op);
    List<KernelEntry> entries = kernels.stream().map(KernelGenerator.Kernel::entry).toList();
    CodeBlock.Builder init = CodeBlock.builder()
        .add("$T.builder($S, $S)", ELEMENTWISE_OP, op.name(), op.declaringClass().binaryName())
        .indent().indent();
    for (OpModel.TensorParam t : op.tensors()) {
      init.add("\n.$L($S)", t.condition() ? "condition" : "tensor", t.name());
    }
    for (OpModel.ScalarParam s : op.scalars()) {
      init.add("\n.scalar($S, $T.ScalarKind.$L)", s.name(), ELEMENTWISE_OP, s.type().name());
    }
    init.add("\n.promote($T.$L)", PROMOTE, op.promote().name());
    init.add("\n.predicate($L)", op.predicate());
    if (op.hasSeveralResults()) {
      // Several results (issue 26): one output per component, bool for a boolean one.
      for (OpModel.Component c : op.results().components()) {
        init.add("\n.result($S, $L)", c.name(), c.type() == ValueType.BOOLEAN);
      }
    }
    boolean mayThrow = entries.stream().anyMatch(e -> e.bodyType() == ValueType.LONG)
        && op.overload(ValueType.LONG).map(o -> o.body().divides()).orElse(false);
    init.add("\n.mayThrow($L)", mayThrow);
    if (op.scalarInFloat32()) {
      // Only when declared, so the descriptors of other ops read as before.
      init.add("\n.scalarInFloat32(true)");
    }
    if (!op.dtypes().isEmpty()) {
      // Only when declared, as scalarInFloat32.
      init.add("\n.dtypes($L)", CodeBlock.join(op.dtypes().stream()
          .map(d -> CodeBlock.of("$T.$L", DTYPE, d.name())).toList(), ", "));
    }
    if (op.identity() != Identity.NONE) {
      // Only when declared, as scalarInFloat32.
      init.add("\n.identity($T.$L)", IDENTITY, op.identity().name());
    }
    if (op.associative()) {
      init.add("\n.associative(true)");
    }
    int cost = perElementCost(op);
    if (cost > 1) {
      // Only above an add's, so the descriptors of other ops read as before.
      init.add("\n.cost($L)", cost);
    }
    for (Derivatives.Gradient g : gradients) {
      switch (g.kind()) {
        case OP -> init.add("\n.backward($L, $L.OP)", g.operand(), className(g.backward()));
        case IDENTITY -> init.add("\n.backwardIdentity($L)", g.operand());
        case ZERO -> init.add("\n.backwardZero($L)", g.operand());
      }
    }
    for (KernelEntry e : entries) {
      init.add("\n.entry($T.$L, $T.$L, $T.$L$L)", DTYPE, e.promoted().name(), DTYPE,
          e.compute().name(), DTYPE, e.result().name(),
          CodeBlock.join(e.operands().stream()
              .map(d -> CodeBlock.of(", $T.$L", DTYPE, d.name())).toList(), ""));
    }
    init.add("\n.kernels($L::kernel)", name);
    init.add("\n.build()").unindent().unindent();

    MethodSpec.Builder factory = MethodSpec.methodBuilder("kernel")
        .addJavadoc("The kernel of table entry {@code index}; its class loads on first use.\n")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(KernelGenerator.KERNEL)
        .addParameter(TypeName.INT, "index")
        .beginControlFlow("return switch (index)");
    for (int i = 0; i < entries.size(); i++) {
      factory.addStatement("case $L -> $L", i, KernelClassGenerator.reference(op, kernels.get(i)));
    }
    factory.addStatement(
        "default -> throw new $T($S + index)", IndexOutOfBoundsException.class,
        "no kernel entry ");
    factory.endControlFlow("");

    TypeSpec.Builder type = TypeSpec.classBuilder(name)
        .addModifiers(Modifier.FINAL)
        .addJavadoc(javadoc);
    generated.annotate(type);
    type.addField(FieldSpec.builder(ELEMENTWISE_OP, "OP", Modifier.STATIC, Modifier.FINAL)
        .initializer(init.build())
        .build());
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    type.addMethod(factory.build());
    return JavaFile.builder(op.declaringClass().packageName(), type.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /** The largest cost written: a split's pieces then hold at least an eighth of the grain. */
  private static final int MAX_COST = 8;

  /**
   * What an element of {@code op} costs relative to an add's, for the runtime's split decision
   * ({@code Parallel.grainFor}): 1, plus 3 per call of a function that is not a few instructions
   * (exp, log, sin, tanh, pow, ...; docs/vector-math.md measures exp at about four adds' time per
   * element on one core), at most {@value #MAX_COST}. A count from the body, not a measurement:
   * the default grain divided by it splits exp, sigmoid, silu and tanh at 64K elements.
   */
  static int perElementCost(OpModel op) {
    long calls = op.overload(ValueType.DOUBLE)
        .map(o -> {
          Body body = o.body();
          long n = body.results().stream().mapToLong(DescriptorGenerator::costlyCalls).sum();
          for (Body.Local l : body.locals()) {
            n += costlyCalls(l.init());
          }
          return n;
        })
        .orElse(0L);
    return (int) Math.min(MAX_COST, 1 + 3 * calls);
  }

  private static long costlyCalls(Expr e) {
    return switch (e) {
      case Expr.Unary u -> costlyCalls(u.operand());
      case Expr.Binary b -> costlyCalls(b.left()) + costlyCalls(b.right());
      case Expr.Conditional c ->
          costlyCalls(c.condition()) + costlyCalls(c.whenTrue()) + costlyCalls(c.whenFalse());
      case Expr.Call c -> (cheap(c.function()) ? 0 : 1)
          + c.args().stream().mapToLong(DescriptorGenerator::costlyCalls).sum();
      default -> 0;
    };
  }

  /**
   * Functions of a few vector instructions; any other (a new one too) counts as costly. The
   * functions of a float's bits ({@link FloatBitsEmitter}: a reinterpretation, an integer step or
   * an exponent field read or written, and a few blends) are as cheap as {@code copySign}.
   */
  private static boolean cheap(MathFunction fn) {
    return switch (fn) {
      case ABS, MIN, MAX, SQRT, FMA, FLOOR, CEIL, RINT, SIGNUM, COPY_SIGN, TO_RADIANS, TO_DEGREES,
          NEXT_UP, NEXT_DOWN, NEXT_AFTER, ULP, GET_EXPONENT, SCALB -> true;
      default -> false;
    };
  }
}
