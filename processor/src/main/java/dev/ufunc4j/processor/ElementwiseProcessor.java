package dev.ufunc4j.processor;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.JavaFile;
import com.sun.source.util.Trees;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Expands {@code @Elementwise} methods into Vector API kernels. Per declaring class, in steps:
 * validate and lower the bodies ({@link OpCollector}) into an immutable {@link OpModel}, derive
 * each floating op's gradients ({@link DerivativeCollector}, {@link Derivatives}: backward ops,
 * themselves {@link OpModel}s), plan each op's kernel table ({@link EntryPlanner}), then generate —
 * one kernel class per entry, one descriptor class per op and per backward op, one {@code
 * OpLibrary} and one public facade ({@link FacadeGenerator}) per class. Every generated file originates from
 * its declaring class only (Gradle: isolating); the {@code META-INF/services} registry is written
 * by {@link OpLibraryServiceProcessor}.
 *
 * <p>Option {@code -Aufunc4j.dtypes=float32,int32,...} restricts the dtypes kernels are generated
 * for (smaller jars; focused golden tests). Nothing escapes {@link #process}: an internal failure
 * is reported as an error with its stack trace.
 */
@AutoService(Processor.class)
public final class ElementwiseProcessor extends AbstractProcessor {

  static final String DTYPES_OPTION = "ufunc4j.dtypes";

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(OpCollector.ELEMENTWISE, DerivativeCollector.DERIVATIVE);
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(DTYPES_OPTION);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    String current = "the round";
    try {
      Trees trees = Trees.instance(processingEnv);
      TypeElement annotation =
          processingEnv.getElementUtils().getTypeElement(OpCollector.ELEMENTWISE);
      if (annotation == null) {
        return false;
      }
      Map<String, TypeElement> classes = new TreeMap<>();
      Map<String, List<ExecutableElement>> methods = new TreeMap<>();
      for (Element e : round.getElementsAnnotatedWith(annotation)) {
        if (e instanceof ExecutableElement m && m.getEnclosingElement() instanceof TypeElement t) {
          String key = t.getQualifiedName().toString();
          classes.put(key, t);
          methods.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
        }
      }
      Map<String, List<ExecutableElement>> derivatives = derivativeMethods(round, classes);
      Generated generated = new Generated(
          processingEnv.getElementUtils().getTypeElement(Generated.GENERATED.canonicalName())
              != null);
      EntryPlanner planner = new EntryPlanner(dtypes());
      for (Map.Entry<String, TypeElement> c : classes.entrySet()) {
        current = c.getKey();
        Report report = new Report();
        OpCollector collector =
            new OpCollector(processingEnv.getElementUtils(), trees, report);
        List<OpModel> ops = collector.collect(c.getValue(), methods.get(c.getKey()));
        if (!report.isEmpty()) {
          report.printTo(processingEnv.getMessager(), trees);
          continue;
        }
        if (ops.isEmpty()) {
          continue;
        }
        // Gradients: @Derivative declarations checked, backward ops derived (Derivatives).
        Map<String, List<Derivatives.Gradient>> gradients =
            new DerivativeCollector(processingEnv.getElementUtils(), trees, report).gradients(
                c.getValue(), ops, methods.get(c.getKey()),
                derivatives.getOrDefault(c.getKey(), List.of()));
        boolean refused = report.hasErrors();
        report.printTo(processingEnv.getMessager(), trees);
        if (refused) {
          continue;
        }
        TypeElement origin = topLevel(c.getValue());
        for (OpModel op : ops) {
          List<KernelEntry> entries = planner.plan(op);
          for (KernelEntry entry : entries) {
            write(new KernelGenerator(op, entry, generated).generate(), origin);
          }
          List<Derivatives.Gradient> opGradients = gradients.getOrDefault(op.name(), List.of());
          for (Derivatives.Gradient g : opGradients) {
            if (g.kind() == Derivatives.Kind.OP) {
              List<KernelEntry> backward = Derivatives.entries(g.backward(), dtypes());
              for (KernelEntry entry : backward) {
                write(new KernelGenerator(g.backward(), entry, generated).generate(), origin);
              }
              write(DescriptorGenerator.generateBackward(op, g, backward, generated), origin);
            }
          }
          write(DescriptorGenerator.generate(op, entries, opGradients, generated), origin);
        }
        write(LibraryGenerator.generate(ops.get(0).declaringClass(), ops, generated), origin);
        write(new FacadeGenerator(ops.get(0).declaringClass(), accessible(c.getValue()), generated)
            .generate(ops), c.getValue());
      }
    } catch (Throwable t) {
      StringWriter trace = new StringWriter();
      t.printStackTrace(new PrintWriter(trace));
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Message.INTERNAL_ERROR.format(current, t + " at " + firstFrame(t), trace));
    }
    return false;
  }

  /**
   * The {@code @Derivative} methods by declaring class; one in a class without {@code
   * @Elementwise} methods names an op that is not there, which is reported here.
   */
  private Map<String, List<ExecutableElement>> derivativeMethods(RoundEnvironment round,
      Map<String, TypeElement> classes) {
    Map<String, List<ExecutableElement>> byClass = new TreeMap<>();
    TypeElement annotation =
        processingEnv.getElementUtils().getTypeElement(DerivativeCollector.DERIVATIVE);
    if (annotation == null) {
      return byClass;
    }
    for (Element e : round.getElementsAnnotatedWith(annotation)) {
      if (e instanceof ExecutableElement m && m.getEnclosingElement() instanceof TypeElement t) {
        String key = t.getQualifiedName().toString();
        if (classes.containsKey(key)) {
          byClass.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
        } else {
          processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
              Message.DERIVATIVE_OP.format(m.getSimpleName(), "?", t.getSimpleName(), "none"), m);
        }
      }
    }
    return byClass;
  }

  private static String firstFrame(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return frames.length == 0 ? "?" : frames[0].toString();
  }

  private Set<DType> dtypes() {
    String option = processingEnv.getOptions().get(DTYPES_OPTION);
    Set<DType> set = EnumSet.noneOf(DType.class);
    if (option == null || option.isBlank()) {
      for (DType d : DType.values()) {
        if (!d.isFloat8()) {
          set.add(d);
        }
      }
      return set;
    }
    for (String name : option.split(",")) {
      set.add(DType.fromName(name.strip().toLowerCase(Locale.ROOT)));
    }
    return set;
  }

  /** Public, and every enclosing class public too (members of interfaces are implicitly). */
  private static boolean accessible(TypeElement t) {
    Element e = t;
    while (e instanceof TypeElement type) {
      boolean inInterface = type.getEnclosingElement().getKind().isInterface();
      if (!inInterface && !type.getModifiers().contains(Modifier.PUBLIC)) {
        return false;
      }
      e = type.getEnclosingElement();
    }
    return true;
  }

  private static TypeElement topLevel(TypeElement t) {
    Element e = t;
    while (e.getEnclosingElement() instanceof TypeElement outer) {
      e = outer;
    }
    return (TypeElement) e;
  }

  private void write(JavaFile file, TypeElement origin) throws IOException {
    String name = file.packageName().isEmpty()
        ? file.typeSpec().name()
        : file.packageName() + "." + file.typeSpec().name();
    JavaFileObject source = processingEnv.getFiler().createSourceFile(name, origin);
    try (Writer w = source.openWriter()) {
      file.writeTo(w);
    }
  }
}
