package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code <Declaring>OpLibrary}, the {@code OpLibrary} service of one declaring class.
 * Public with a public constructor because {@link java.util.ServiceLoader} instantiates it.
 */
final class LibraryGenerator {

  static final ClassName OP_LIBRARY = ClassName.get("dev.ufunc4j.kernel", "OpLibrary");

  private LibraryGenerator() {}

  static String className(OpModel.DeclaringClass declaring) {
    return declaring.flatName() + "OpLibrary";
  }

  static String qualifiedName(OpModel.DeclaringClass declaring) {
    String pkg = declaring.packageName();
    return pkg.isEmpty() ? className(declaring) : pkg + "." + className(declaring);
  }

  /** @param ops the class's ops, sorted by name */
  static JavaFile generate(OpModel.DeclaringClass declaring, List<OpModel> ops,
      Generated generated) {
    ParameterizedTypeName listType =
        ParameterizedTypeName.get(ClassName.get(List.class), DescriptorGenerator.ELEMENTWISE_OP);
    CodeBlock.Builder list = CodeBlock.builder().add("$T.of(", List.class);
    for (int i = 0; i < ops.size(); i++) {
      list.add(i == 0 ? "\n    $L.OP" : ",\n    $L.OP", DescriptorGenerator.className(ops.get(i)));
    }
    list.add(")");
    TypeSpec.Builder type = TypeSpec.classBuilder(className(declaring))
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(OP_LIBRARY)
        .addJavadoc("The ops declared by {@link $L}, registered in {@code META-INF/services} so the"
            + " runtime finds them.\n", declaring.canonicalName());
    generated.annotate(type);
    type.addField(FieldSpec.builder(listType, "OPS", Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .initializer(list.build())
        .build());
    type.addMethod(MethodSpec.constructorBuilder()
        .addJavadoc("For {@link java.util.ServiceLoader}.\n")
        .addModifiers(Modifier.PUBLIC)
        .build());
    type.addMethod(MethodSpec.methodBuilder("ops")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(listType)
        .addStatement("return OPS")
        .build());
    return JavaFile.builder(declaring.packageName(), type.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }
}
