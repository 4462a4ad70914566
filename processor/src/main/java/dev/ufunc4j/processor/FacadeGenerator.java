package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.ufunc4j.annotation.Promote;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Generates the public facade {@code <Declaring>Ops}: per op, static methods over {@code Tensor}
 * that call {@code Dispatch.apply} with the op's descriptor. Per op, sorted by name:
 *
 * <ul>
 *   <li>{@code op(Tensor a, ..., <scalars>)}: a new result;
 *   <li>{@code op(Tensor a, ..., <scalars>, Tensor out)}: writes {@code out} and returns it;
 *   <li>for an op with exactly two promoting tensor operands, both forms again with a Java {@code
 *       Number} in place of either one (never both, as PyTorch), wrapped by {@code Dispatch.wrap};
 *   <li>for an op with exactly two tensor operands, both promoting, {@code op(Tensor a, Tensor b,
 *       <scalars>, BroadcastDims dims)}: XLA's explicit broadcasting, the lower-rank operand lifted
 *       by {@code Dispatch.liftWithDims} before the ordinary broadcasting.
 * </ul>
 *
 * <p>Numeric {@code @Scalar}s are {@code Number}, so the argument's Java type decides how it
 * promotes ({@code 2} as a Python int, {@code 2.5} as a Python float); boolean ones are {@code
 * boolean}. Null and type checks happen in the dispatcher, which names the parameter.
 */
final class FacadeGenerator {

  static final ClassName TENSOR = ClassName.get("dev.ufunc4j", "Tensor");
  static final ClassName DISPATCH = ClassName.get("dev.ufunc4j.kernel", "Dispatch");
  static final ClassName BROADCAST_DIMS = ClassName.get("dev.ufunc4j", "BroadcastDims");
  private static final ClassName NUMBER = ClassName.get(Number.class);

  private final OpModel.DeclaringClass declaring;
  private final boolean isPublic;
  private final Generated generated;

  /**
   * @param isPublic whether the declaring class is accessible outside its package; the facade
   *     has the same visibility
   */
  FacadeGenerator(OpModel.DeclaringClass declaring, boolean isPublic, Generated generated) {
    this.declaring = declaring;
    this.isPublic = isPublic;
    this.generated = generated;
  }

  static String className(OpModel.DeclaringClass declaring) {
    return declaring.flatName() + "Ops";
  }

  /** @param ops the class's ops */
  JavaFile generate(List<OpModel> ops) {
    TypeSpec.Builder type = TypeSpec.classBuilder(className(declaring))
        .addJavadoc("Tensor operations for the {@code @Elementwise} methods of {@link $L}: each"
                + " method broadcasts its\ntensor operands, promotes them as PyTorch does and runs"
                + " the generated kernels through {@link $T}.\n", declaring.canonicalName(),
            DISPATCH);
    if (isPublic) {
      type.addModifiers(Modifier.PUBLIC);
    }
    type.addModifiers(Modifier.FINAL);
    generated.annotate(type);
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    List<OpModel> sorted = new ArrayList<>(ops);
    sorted.sort(Comparator.comparing(OpModel::name));
    for (OpModel op : sorted) {
      addForms(type, op);
    }
    return JavaFile.builder(declaring.packageName(), type.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  private void addForms(TypeSpec.Builder type, OpModel op) {
    type.addMethod(method(op, -1, false));
    type.addMethod(method(op, -1, true));
    List<Integer> promoting = new ArrayList<>();
    for (int i = 0; i < op.tensors().size(); i++) {
      if (!op.tensors().get(i).condition()) {
        promoting.add(i);
      }
    }
    if (promoting.size() == 2) {
      for (int number : promoting) {
        type.addMethod(method(op, number, false));
        type.addMethod(method(op, number, true));
      }
      if (op.tensors().size() == 2) {
        type.addMethod(withBroadcastDims(op));
      }
    }
  }

  /** {@code op(Tensor a, Tensor b, <scalars>, BroadcastDims dims)}: XLA's explicit broadcasting. */
  private MethodSpec withBroadcastDims(OpModel op) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(TENSOR);
    String descriptor = DescriptorGenerator.className(op);
    Set<String> names = new HashSet<>();
    List<String> tensors = new ArrayList<>();
    for (OpModel.TensorParam t : op.tensors()) {
      names.add(t.name());
      tensors.add(t.name());
      m.addParameter(ParameterSpec.builder(TENSOR, t.name()).build());
    }
    List<CodeBlock> scalarArgs = addScalarParameters(m, op, names);
    String dims = unused("dims", names);
    names.add(dims);
    String lifted = unused("operands", names);
    m.addParameter(ParameterSpec.builder(BROADCAST_DIMS, dims).build());
    m.addStatement("$T[] $L = $T.liftWithDims($L.OP, $L, $L, $L)", TENSOR, lifted, DISPATCH,
        descriptor, tensors.get(0), tensors.get(1), dims);
    if (op.scalars().isEmpty()) {
      m.addStatement("return $T.apply($L.OP, null, $L)", DISPATCH, descriptor, lifted);
    } else {
      m.addStatement("return $T.apply($L.OP, null, $L,$Wnew $T[] {$L})", DISPATCH, descriptor,
          lifted, Object.class, CodeBlock.join(scalarArgs, ", "));
    }
    m.addJavadoc(CodeBlock.builder()
        .add("{@link #$L} with XLA's explicit broadcasting: the lower-rank of {@code $L} and"
                + " {@code $L} is first\nlifted to the other's rank, its dimension {@code i}"
                + " becoming dimension {@code $L.get(i)}\n({@link dev.ufunc4j.Broadcast#inDim},"
                + " a view), then the operands broadcast as usual. For equal ranks\n{@code $L}"
                + " must be empty or the identity.\n\n", op.name(), tensors.get(0),
            tensors.get(1), dims, dims)
        .add("@param $L a tensor operand\n@param $L a tensor operand\n", tensors.get(0),
            tensors.get(1))
        .add(CodeBlock.join(op.scalars().stream()
            .map(s -> CodeBlock.of("@param $L a wrapped scalar, as in {@link #$L}\n", s.name(),
                op.name()))
            .toList(), ""))
        .add("@param $L XLA's {@code broadcast_dimensions} for the lower-rank operand\n", dims)
        .add("@return a new tensor of the broadcast shape\n")
        .build());
    return m.build();
  }

  /**
   * Adds the op's {@code @Scalar} parameters ({@code Number}, or {@code boolean} for a boolean
   * one), records their names, and returns them as the dispatcher's scalar arguments.
   */
  private static List<CodeBlock> addScalarParameters(
      MethodSpec.Builder m, OpModel op, Set<String> names) {
    List<CodeBlock> scalarArgs = new ArrayList<>();
    for (OpModel.ScalarParam s : op.scalars()) {
      names.add(s.name());
      TypeName t = s.type() == ValueType.BOOLEAN ? TypeName.BOOLEAN : NUMBER;
      m.addParameter(ParameterSpec.builder(t, s.name()).build());
      scalarArgs.add(CodeBlock.of("$L", s.name()));
    }
    return scalarArgs;
  }

  /** {@code name}, or {@code name_}, {@code name__} ... if a parameter already has it. */
  private static String unused(String name, Set<String> names) {
    while (names.contains(name)) {
      name += "_";
    }
    return name;
  }

  /**
   * One facade method.
   *
   * @param number the tensor operand given as a Java {@code Number}, or -1
   * @param withOut whether the method takes an {@code out} target
   */
  private MethodSpec method(OpModel op, int number, boolean withOut) {
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(TENSOR);
    String descriptor = DescriptorGenerator.className(op);
    List<CodeBlock> tensorArgs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < op.tensors().size(); i++) {
      OpModel.TensorParam t = op.tensors().get(i);
      names.add(t.name());
      if (i == number) {
        m.addParameter(ParameterSpec.builder(NUMBER, t.name()).build());
        tensorArgs.add(CodeBlock.of("$T.wrap($L.OP, $L, $L)", DISPATCH, descriptor, i, t.name()));
      } else {
        m.addParameter(ParameterSpec.builder(TENSOR, t.name()).build());
        tensorArgs.add(CodeBlock.of("$L", t.name()));
      }
    }
    List<CodeBlock> scalarArgs = addScalarParameters(m, op, names);
    String out = unused("out", names);
    if (withOut) {
      m.addParameter(ParameterSpec.builder(TENSOR, out).build());
    }
    CodeBlock tensors = CodeBlock.join(tensorArgs, ", ");
    String target = withOut ? out : "null";
    if (op.scalars().isEmpty()) {
      m.addStatement("return $T.apply($L.OP, $L,$W$L)", DISPATCH, descriptor, target, tensors);
    } else {
      m.addStatement("return $T.apply($L.OP, $L,$Wnew $T[] {$L},$Wnew $T[] {$L})", DISPATCH,
          descriptor, target, TENSOR, tensors, Object.class, CodeBlock.join(scalarArgs, ", "));
    }
    m.addJavadoc(javadoc(op, number, withOut, out));
    return m.build();
  }

  private CodeBlock javadoc(OpModel op, int number, boolean withOut, String out) {
    CodeBlock.Builder doc = CodeBlock.builder();
    String links = op.overloads().stream()
        .map(o -> "{@link " + declaring.canonicalName() + "#" + o.javadocSignature() + "} ("
            + domain(o.bodyType()) + ")")
        .collect(Collectors.joining(",\n"));
    doc.add("Applies $L\nto each element of the broadcast operands$L.\n", links,
        withOut ? ", writing {@code " + out + "}" : ", into a new tensor");
    doc.add("\n<p>Promotion ({@code $L}): $L\n", op.promote().name(), promotion(op));
    if (withOut) {
      doc.add("\n<p>{@code $L} must have the broadcast shape, and the result dtype must cast to its"
          + " dtype\n(PyTorch's same-kind rule); it may be an operand itself (in place), but"
          + " must not partially\noverlap one. Nothing is written when a check fails.\n", out);
    }
    doc.add("\n");
    for (int i = 0; i < op.tensors().size(); i++) {
      OpModel.TensorParam t = op.tensors().get(i);
      if (i == number) {
        doc.add("@param $L a Java number, wrapped as PyTorch wraps a Python scalar (integral or"
            + " floating by its\n    Java type; it does not raise the tensors' dtype within its"
            + " category)\n", t.name());
      } else if (t.condition()) {
        doc.add("@param $L a bool tensor; it selects, and does not join promotion\n", t.name());
      } else {
        doc.add("@param $L a tensor operand\n", t.name());
      }
    }
    for (OpModel.ScalarParam s : op.scalars()) {
      if (s.type() == ValueType.BOOLEAN) {
        doc.add("@param $L a wrapped boolean scalar\n", s.name());
      } else {
        doc.add("@param $L a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,"
            + "\n    {@code Double}/{@code Float} as a Python float\n", s.name());
      }
    }
    if (withOut) {
      doc.add("@param $L the target\n@return {@code $L}\n", out, out);
    } else {
      doc.add("@return a new tensor of the broadcast shape and the $L\n",
          op.predicate() ? "dtype bool" : "result dtype");
    }
    return doc.build();
  }

  private static String domain(ValueType bodyType) {
    return switch (bodyType) {
      case DOUBLE -> "floating dtypes";
      case LONG -> "integral and bool dtypes";
      case BOOLEAN -> "bool";
    };
  }

  private static String promotion(OpModel op) {
    List<String> promoting = new ArrayList<>();
    for (OpModel.TensorParam t : op.tensors()) {
      if (!t.condition()) {
        promoting.add("{@code " + t.name() + "}");
      }
    }
    for (OpModel.ScalarParam s : op.scalars()) {
      promoting.add("{@code " + s.name() + "}");
    }
    String last = promoting.remove(promoting.size() - 1);
    StringBuilder sb = new StringBuilder();
    sb.append(promoting.isEmpty()
        ? "computes in the dtype of " + last
        : "computes in the common dtype of " + String.join(", ", promoting) + " and " + last);
    sb.append("\n(PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then"
        + " wrapped numbers)");
    if (op.promote() == Promote.INT_TO_FLOAT) {
      sb.append(";\nintegral and bool inputs compute in float32");
    }
    sb.append(";\nfloat16 and bfloat16 compute in float32 and round once");
    sb.append(op.predicate() ? ". The result is bool." : ".");
    return sb.toString();
  }
}
