package dev.ufunc4j.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.lang.model.element.Modifier;

/**
 * Puts an op's kernels ({@link KernelGenerator}) into classes: one class {@code
 * <Declaring>_<op>_<suffix>} per way of computing {@code LANES} ({@link
 * KernelGenerator.LaneConstants#classSuffix}), so that its kernels share the species constants
 * and one constant pool. A kernel is a constant of its class ({@code UINT8_FLOAT32}), an instance
 * whose {@code box} calls the kernel's own box method.
 *
 * <p>Why classes of many kernels: the Vector API names it calls (species, vector classes, their
 * method descriptors) are most of a kernel class file, and kernels of one op and lane width name
 * the same ones. One class per kernel repeated them 4,776 times in the runtime jar.
 */
final class KernelClassGenerator {

  private KernelClassGenerator() {}

  /**
   * The class holding {@code kernel}. A kernel with fold loops has a class of its own ({@code
   * Builtins_add_w64f}, an integral one {@code Builtins_add_w64f_int64}, as int64 and uint64 have
   * the lane width of float64): its constants are then only the species its own body needs, so
   * that {@code sum} of float64 does not depend on the int32 species of the op's other 64-bit
   * kernels (which do not exist with 64-bit vectors, {@code -XX:MaxVectorSize=8}).
   */
  static String className(OpModel op, KernelGenerator.Kernel kernel) {
    String fold = !kernel.folds() ? ""
        : kernel.entry().result().isFloatingPoint() ? "f"
        : "f_" + kernel.entry().result().name().toLowerCase(Locale.ROOT);
    return DescriptorGenerator.className(op) + "_" + kernel.lanes().classSuffix() + fold;
  }

  /**
   * The expression naming {@code kernel}: {@code Samples_add_w32.INT8_FLOAT32}; for a shared one
   * ({@link SharedKernels}), the kernel whose code it runs.
   */
  static String reference(OpModel op, KernelGenerator.Kernel kernel) {
    KernelGenerator.Kernel own = SharedKernels.resolve(kernel);
    return className(op, own) + "." + constant(own);
  }

  private static String constant(KernelGenerator.Kernel kernel) {
    return kernel.name().toUpperCase(Locale.ROOT);
  }

  /**
   * One file per class, sorted by class name; kernels in table order inside. A shared kernel
   * ({@link SharedKernels}) has no code, but its entry still votes for its class's tuned vector
   * size, as before it was shared.
   */
  static List<JavaFile> generate(OpModel op, List<KernelGenerator.Kernel> kernels,
      Generated generated, KernelTuning tuning) {
    Map<String, List<KernelGenerator.Kernel>> classes = new TreeMap<>();
    for (KernelGenerator.Kernel k : kernels) {
      classes.computeIfAbsent(className(op, k), c -> new ArrayList<>()).add(k);
    }
    List<JavaFile> files = new ArrayList<>();
    for (Map.Entry<String, List<KernelGenerator.Kernel>> c : classes.entrySet()) {
      List<KernelGenerator.Kernel> own =
          c.getValue().stream().filter(k -> k.sharedWith() == null).toList();
      if (!own.isEmpty()) {
        int capBits = capBits(op, c.getValue(), tuning);
        files.add(generateClass(op, c.getKey(), own, generated, capBits));
      }
    }
    return files;
  }

  /** The vector size {@code tuning} chose for the class of {@code kernels} (0: none). */
  static int capBits(OpModel op, List<KernelGenerator.Kernel> kernels, KernelTuning tuning) {
    return tuning.vectorBitsCap(op, kernels.stream().map(KernelGenerator.Kernel::entry).toList());
  }

  private static JavaFile generateClass(OpModel op, String className,
      List<KernelGenerator.Kernel> kernels, Generated generated, int capBits) {
    KernelGenerator.LaneConstants lanes = kernels.get(0).lanes();
    TypeSpec.Builder type = TypeSpec.classBuilder(className)
        .addModifiers(Modifier.FINAL)
        .addSuperinterface(KernelGenerator.KERNEL)
        .addJavadoc("Kernels of the op {@code $L} declared by {@link $L} whose widest lane type is"
                + " $L bits$L.\n", op.name(), op.declaringClass().canonicalName(),
            8 * lanes.widestBytes(),
            lanes.minLanes() > 1 ? " and that step at least " + lanes.minLanes() + " elements"
                : "")
        .addJavadoc("\n<p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it"
            + " runs a box of {@code rows}\n× {@code cols} elements (the runtime walks the"
            + " dimensions above), each row with {@code\ne_contiguous} when every operand is"
            + " contiguous, {@code e_splatX} when input {@code x} is broadcast\nalong it (stride"
            + " 0) and the others contiguous, and {@code e_strided} for any other strides and"
            + " for\nthe last {@code cols % LANES} elements.\n");
    generated.annotate(type);
    boolean single = kernels.size() == 1;
    for (int i = 0; i < kernels.size(); i++) {
      type.addField(FieldSpec.builder(KernelGenerator.KERNEL, constant(kernels.get(i)),
              Modifier.STATIC, Modifier.FINAL)
          .initializer(single ? CodeBlock.of("new $L()", className)
              : CodeBlock.of("new $L($L)", className, i))
          .build());
    }
    type.addFields(used(KernelGenerator.fields(kernels.stream()
        .map(KernelGenerator.Kernel::lanes).toList(), capBits), kernels));
    MethodSpec.Builder constructor = MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE);
    if (!single) {
      type.addField(TypeName.INT, "entry", Modifier.PRIVATE, Modifier.FINAL);
      constructor.addParameter(TypeName.INT, "entry").addStatement("this.entry = entry");
    }
    type.addMethod(constructor.build());

    MethodSpec.Builder box = MethodSpec.methodBuilder("box")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(TypeName.LONG, "rows")
        .addParameter(TypeName.LONG, "cols")
        .addParameter(ArrayTypeName.of(KernelGenerator.MEMORY_SEGMENT), "segments")
        .addParameter(ArrayTypeName.of(TypeName.LONG), "offsets")
        .addParameter(ArrayTypeName.of(TypeName.LONG), "strides")
        .addParameter(ArrayTypeName.of(TypeName.DOUBLE), "floatScalars")
        .addParameter(ArrayTypeName.of(TypeName.LONG), "intScalars");
    String args = "rows, cols, segments, offsets, strides, floatScalars, intScalars";
    if (single) {
      box.addStatement("$N($L)", kernels.get(0).name(), args);
    } else {
      CodeBlock.Builder cases = CodeBlock.builder().beginControlFlow("switch (entry)");
      for (int i = 0; i < kernels.size(); i++) {
        cases.addStatement("case $L -> $N($L)", i, kernels.get(i).name(), args);
      }
      box.addCode(cases.endControlFlow().build());
    }
    type.addMethod(box.build());
    if (kernels.get(0).folds()) {
      addFoldKernel(type, kernels.get(0)); // alone in its class (className)
    }
    for (KernelGenerator.Kernel k : kernels) {
      type.addMethods(k.methods());
    }
    return JavaFile.builder(op.declaringClass().packageName(), type.build())
        .addStaticImport(KernelGenerator.VECTOR_OPERATORS, "*")
        .addStaticImport(KernelGenerator.VALUE_LAYOUT, "*")
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /**
   * The constants of {@code constants} that the kernels' code names, directly or through another
   * kept constant's initializer ({@code LANES} through a species): a class of mirrored kernels,
   * whose box methods only call another class's rows ({@code lt}'s, running {@code gt}'s), needs
   * none, and a kernel class declares no species its rows do not load. The constants' names are
   * reserved ({@link KernelGenerator#RESERVED}), so no local of the code spells one.
   */
  private static List<FieldSpec> used(List<FieldSpec> constants,
      List<KernelGenerator.Kernel> kernels) {
    StringBuilder code = new StringBuilder();
    for (KernelGenerator.Kernel k : kernels) {
      k.methods().forEach(m -> code.append(m).append('\n'));
      if (k.folds()) {
        code.append(k.lanes().constantLane().species).append('\n'); // LEAF_ROTATIONS' species
      }
    }
    // A constant's initializer names only constants declared before it: deciding from the last
    // to the first sees every reader of a constant before the constant.
    List<FieldSpec> kept = new ArrayList<>();
    for (int i = constants.size() - 1; i >= 0; i--) {
      FieldSpec f = constants.get(i);
      if (Pattern.compile("\\b" + Pattern.quote(f.name()) + "\\b").matcher(code).find()) {
        kept.add(0, f);
        code.append(f.initializer()).append('\n');
      }
    }
    return kept;
  }

  /**
   * The class's one kernel, a {@code (T, T) -> T} one ({@code KernelGenerator.folds}), also folds
   * and scans: the class implements {@code FoldKernel} with that kernel's loops (its pair step as
   * {@code pair} for a floating T, {@code pairLong} for an integral one).
   */
  private static void addFoldKernel(TypeSpec.Builder type, KernelGenerator.Kernel k) {
    TypeName seg = KernelGenerator.MEMORY_SEGMENT;
    type.addSuperinterface(KernelGenerator.FOLD_KERNEL);
    type.addMethod(MethodSpec.methodBuilder("fold")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(seg, "acc").addParameter(TypeName.LONG, "accOff")
        .addParameter(seg, "in").addParameter(TypeName.LONG, "off")
        .addParameter(TypeName.LONG, "rowStride").addParameter(TypeName.LONG, "rows")
        .addParameter(TypeName.INT, "cols")
        .addStatement("$N(acc, accOff, in, off, rowStride, rows, cols)", k.name() + "_fold")
        .build());
    type.addMethod(MethodSpec.methodBuilder("scan")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(seg, "in").addParameter(TypeName.LONG, "off")
        .addParameter(TypeName.LONG, "inRow").addParameter(seg, "out")
        .addParameter(TypeName.LONG, "outOff").addParameter(TypeName.LONG, "outRow")
        .addParameter(TypeName.LONG, "rows").addParameter(TypeName.INT, "cols")
        .addStatement("$N(in, off, inRow, out, outOff, outRow, rows, cols)", k.name() + "_scan")
        .build());
    TypeName carrier = k.lanes().constantLane().floating ? TypeName.DOUBLE : TypeName.LONG;
    type.addMethod(MethodSpec.methodBuilder(carrier.equals(TypeName.DOUBLE) ? "pair" : "pairLong")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(carrier)
        .addParameter(carrier, "a").addParameter(carrier, "b")
        .addStatement("return $N(a, b)", k.name() + "_pair")
        .build());
    String leaf = k.name() + "_leaf";
    if (k.methods().stream().anyMatch(m -> m.name().equals(leaf))) {
      Lane l = k.lanes().constantLane();
      type.addField(FieldSpec.builder(
              ArrayTypeName.of(ParameterizedTypeName.get(ComplexBodyEmitter.VECTOR_SHUFFLE,
                  l.boxed())), "LEAF_ROTATIONS", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .addJavadoc("The leaf loop's lane rotations, by {@code LANES / 2, ..., 1}: made once per"
              + " class, not per call.\n")
          .initializer("$T.leafRotations($N)", ClassName.get("dev.ufunc4j.kernel", "FoldKernel"),
              l.species)
          .build());
      type.addMethod(MethodSpec.methodBuilder("leaf")
          .addAnnotation(Override.class)
          .addModifiers(Modifier.PUBLIC)
          .returns(TypeName.BOOLEAN)
          .addParameter(seg, "in").addParameter(TypeName.LONG, "off")
          .addParameter(TypeName.INT, "n").addParameter(TypeName.INT, "k")
          .addParameter(seg, "park")
          .addStatement("return $N(in, off, n, k, park)", leaf)
          .build());
    }
  }
}
