package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Generates an op's descriptor class {@code <Declaring>_<op>}: the {@code ElementwiseOp} with its
 * operands and kernel table, and the factory switch that loads a kernel's class on first use.
 */
final class DescriptorGenerator {

  static final ClassName ELEMENTWISE_OP = ClassName.get("dev.ufunc4j.kernel", "ElementwiseOp");
  static final ClassName DTYPE = ClassName.get("dev.ufunc4j.dtype", "DType");
  static final ClassName PROMOTE = ClassName.get("dev.ufunc4j.annotation", "Promote");

  private DescriptorGenerator() {}

  static String className(OpModel op) {
    return op.declaringClass().flatName() + "_" + op.name();
  }

  static JavaFile generate(OpModel op, List<KernelGenerator.Kernel> kernels, Generated generated) {
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
    boolean mayThrow = entries.stream().anyMatch(e -> e.bodyType() == ValueType.LONG)
        && op.overload(ValueType.LONG).map(o -> o.body().divides()).orElse(false);
    init.add("\n.mayThrow($L)", mayThrow);
    for (KernelEntry e : entries) {
      init.add("\n.entry($T.$L, $T.$L, $T.$L$L)", DTYPE, e.promoted().name(), DTYPE,
          e.compute().name(), DTYPE, e.result().name(),
          e.operands().stream().map(d -> ", DType." + d.name()).collect(Collectors.joining()));
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
        .addJavadoc("The op {@code $L} declared by {@link $L}: its operands and kernel table ($L"
                + " entries).\n", op.name(), op.declaringClass().canonicalName(), entries.size());
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
}
