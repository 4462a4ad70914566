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
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Expands {@code @Elementwise} methods into Vector API kernels. Per declaring class, in steps:
 * validate and lower the bodies ({@link OpCollector}) into an immutable {@link OpModel}, check the
 * facade's names and rules ({@link FacadeCollector}), derive each floating op's gradients ({@link
 * DerivativeCollector}, {@link Derivatives}: backward ops, themselves {@link OpModel}s), plan each
 * op's kernel table ({@link EntryPlanner}), then generate — kernel classes per op and per backward
 * op ({@link KernelClassGenerator}), one descriptor class per op and per backward op, one {@code
 * OpLibrary}, and the facade ({@link FacadeGenerator}: {@code <Class>Ops} or the {@code @Facade}
 * name, and on request a class of instance forms). Every generated file originates from its
 * declaring class only (Gradle: isolating); the {@code META-INF/services} registry is written
 * by {@link OpLibraryServiceProcessor}.
 *
 * <p>Option {@code -Aufunc4j.dtypes=float32,int32,...} restricts the dtypes kernels are generated
 * for (smaller jars; focused golden tests). Option {@code -Aufunc4j.tuning=<path>} reads a tuning
 * profile ({@link KernelTuning}, docs/tuning.md) and generates the variant it chose per kernel
 * class. Nothing escapes {@link #process}: an internal failure
 * while generating one class is reported as an error with its stack trace on that class's
 * declaration, and the other classes are still generated (as auto-common's processing steps do).
 * Option {@value #FAIL_ON_OPTION}{@code =<qualified class name>} is for the processor's own tests
 * only: it makes the generation of that class fail with an internal error, so the tests can see
 * the report and the other classes' output.
 */
@AutoService(Processor.class)
public final class ElementwiseProcessor extends AbstractProcessor {

  static final String DTYPES_OPTION = "ufunc4j.dtypes";
  static final String FAIL_ON_OPTION = "ufunc4j.testing.failOn";

  /** Facade and instance class names given out so far (qualified name to declaring class). */
  private final Map<String, String> facadeOwners = new TreeMap<>();

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(OpCollector.ELEMENTWISE, FacadeCollector.FACADE, FacadeCollector.RULE,
        DerivativeCollector.DERIVATIVE);
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(DTYPES_OPTION, FAIL_ON_OPTION, KernelTuning.OPTION);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    Map<String, TypeElement> classes = new TreeMap<>();
    Map<String, List<ExecutableElement>> methods = new TreeMap<>();
    Map<String, List<ExecutableElement>> rules = new TreeMap<>();
    Map<String, List<ExecutableElement>> derivatives = new TreeMap<>();
    try {
      collectAnnotated(round, OpCollector.ELEMENTWISE, classes, methods);
      collectAnnotated(round, FacadeCollector.RULE, classes, rules);
      TypeElement facade =
          processingEnv.getElementUtils().getTypeElement(FacadeCollector.FACADE);
      if (facade != null) {
        for (Element e : round.getElementsAnnotatedWith(facade)) {
          if (e instanceof TypeElement t) {
            classes.put(t.getQualifiedName().toString(), t);
          }
        }
      }
      derivativeMethods(round, classes, derivatives);
    } catch (RuntimeException | Error e) {
      reportInternalError(null, "the round", e);
      return false;
    }
    for (Map.Entry<String, TypeElement> c : classes.entrySet()) {
      String key = c.getKey();
      try {
        process(c.getValue(), methods.getOrDefault(key, List.of()),
            rules.getOrDefault(key, List.of()), derivatives.getOrDefault(key, List.of()));
      } catch (IOException | RuntimeException | Error e) {
        reportInternalError(c.getValue(), key, e);
      }
    }
    return false;
  }

  /** Adds the methods annotated with {@code annotationName}, by enclosing class. */
  private void collectAnnotated(RoundEnvironment round, String annotationName,
      Map<String, TypeElement> classes, Map<String, List<ExecutableElement>> byClass) {
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(annotationName);
    if (annotation == null) {
      return;
    }
    for (Element e : round.getElementsAnnotatedWith(annotation)) {
      if (e instanceof ExecutableElement m && m.getEnclosingElement() instanceof TypeElement t) {
        String key = t.getQualifiedName().toString();
        classes.put(key, t);
        byClass.computeIfAbsent(key, k -> new ArrayList<>()).add(m);
      }
    }
  }

  /**
   * Adds the {@code @Derivative} methods, by declaring class; one in a class without ops names an
   * op that is not there, which is reported here.
   */
  private void derivativeMethods(RoundEnvironment round, Map<String, TypeElement> classes,
      Map<String, List<ExecutableElement>> byClass) {
    TypeElement annotation =
        processingEnv.getElementUtils().getTypeElement(DerivativeCollector.DERIVATIVE);
    if (annotation == null) {
      return;
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
  }

  /** Validates one class's declarations and generates its classes. */
  private void process(TypeElement type, List<ExecutableElement> methods,
      List<ExecutableElement> rules, List<ExecutableElement> derivativeMethods)
      throws IOException {
    Trees trees = Trees.instance(processingEnv);
    Report report = new Report();
    OpCollector collector = new OpCollector(processingEnv.getElementUtils(), trees, report);
    List<FacadeModel.Op> ops = collector.collect(type, methods);
    if (!report.isEmpty()) {
      report.printTo(processingEnv.getMessager(), trees);
      return;
    }
    if (ops.isEmpty()) {
      if (FacadeCollector.annotation(type, FacadeCollector.FACADE).isPresent()
          || !rules.isEmpty()) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
            Message.FACADE_WITHOUT_OPS.format(type.getQualifiedName()), type);
      }
      return;
    }
    OpModel.DeclaringClass declaring = ops.get(0).model().declaringClass();
    FacadeModel facade = new FacadeCollector(processingEnv.getElementUtils(), trees, report)
        .collect(type, declaring, ops, collector.firstMethods(), rules, facadeOwners)
        .orElse(null);
    if (facade == null) {
      report.printTo(processingEnv.getMessager(), trees);
      return;
    }
    List<OpModel> models = ops.stream().map(FacadeModel.Op::model).toList();
    // Gradients: @Derivative declarations checked, backward ops derived (Derivatives).
    Map<String, List<Derivatives.Gradient>> gradients =
        new DerivativeCollector(processingEnv.getElementUtils(), trees, report)
            .gradients(type, models, methods, derivativeMethods);
    boolean refused = report.hasErrors();
    report.printTo(processingEnv.getMessager(), trees);
    if (refused) {
      return;
    }
    Generated generated = new Generated(
        processingEnv.getElementUtils().getTypeElement(Generated.GENERATED.canonicalName())
            != null);
    EntryPlanner planner = new EntryPlanner(dtypes());
    Set<String> opNames = new java.util.TreeSet<>();
    for (OpModel op : models) {
      opNames.add(op.name());
      for (Derivatives.Gradient g : gradients.getOrDefault(op.name(), List.of())) {
        if (g.kind() == Derivatives.Kind.OP) {
          opNames.add(g.backward().name());
        }
      }
    }
    tuning().noteStaleRecords(declaring.binaryName(), opNames,
        m -> processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE, m, type));
    TypeElement origin = topLevel(type);
    for (OpModel op : models) {
      // What the op costs the user's build, in a note per op (kernels, files, lines).
      Cost cost = new Cost();
      List<KernelGenerator.Kernel> kernels = kernels(op, planner.plan(op));
      for (JavaFile file : KernelClassGenerator.generate(op, kernels, generated, tuning())) {
        cost.add(write(file, origin));
      }
      int backwardKernels = 0;
      List<Derivatives.Gradient> opGradients = gradients.getOrDefault(op.name(), List.of());
      for (Derivatives.Gradient g : opGradients) {
        if (g.kind() == Derivatives.Kind.OP) {
          // A backward op is an ordinary op: the same kernel classes, one entry per dtype.
          List<KernelGenerator.Kernel> backward =
              kernels(g.backward(), Derivatives.entries(g.backward(), dtypes()));
          backwardKernels += backward.size();
          for (JavaFile file : KernelClassGenerator.generate(g.backward(), backward, generated,
              tuning())) {
            cost.add(write(file, origin));
          }
          cost.add(write(DescriptorGenerator.generateBackward(op, g, backward, generated), origin));
        }
      }
      cost.add(write(DescriptorGenerator.generate(op, kernels, opGradients, generated), origin));
      processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE, Message.COST.format(
          op.name(), kernels.size() + backwardKernels,
          kernels.size() + backwardKernels == 1 ? "" : "s", kernels.size(), backwardKernels,
          cost.files, cost.files == 1 ? "" : "s", cost.lines, op.dtypes().isEmpty()
              ? "; @Elementwise(dtypes = ...) generates fewer"
              : " (dtypes " + op.dtypes() + ")"), collector.firstMethods().get(op.name()));
    }
    if (type.getQualifiedName().contentEquals(
        processingEnv.getOptions().getOrDefault(FAIL_ON_OPTION, ""))) {
      throw new IllegalStateException("-A" + FAIL_ON_OPTION + " asked generation to fail here");
    }
    write(LibraryGenerator.generate(declaring, models, generated), origin);
    FacadeGenerator generator = new FacadeGenerator(facade, generated);
    write(generator.generate(), type);
    if (!facade.instanceClassName().isEmpty()) {
      write(generator.generateInstanceMethods(), type);
    }
  }

  private static List<KernelGenerator.Kernel> kernels(OpModel op, List<KernelEntry> entries) {
    return entries.stream().map(entry -> new KernelGenerator(op, entry).generate()).toList();
  }

  /** An internal error: on the class it happened in (null: the round), with its stack trace. */
  private void reportInternalError(Element where, String what, Throwable t) {
    StringWriter trace = new StringWriter();
    t.printStackTrace(new PrintWriter(trace));
    String message = Message.INTERNAL_ERROR.format(what, t + " at " + firstFrame(t), trace);
    if (where == null) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, message);
    } else {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, message, where);
    }
  }

  private static String firstFrame(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return frames.length == 0 ? "?" : frames[0].toString();
  }

  private KernelTuning tuning;

  /** The {@code -Aufunc4j.tuning} profile, read on first use (one warning if it is unusable). */
  private KernelTuning tuning() {
    if (tuning == null) {
      String path = processingEnv.getOptions().get(KernelTuning.OPTION);
      tuning = path == null || path.isBlank()
          ? KernelTuning.NONE
          : KernelTuning.read(path, dev.ufunc4j.tuning.Fingerprint.current(0),
              m -> processingEnv.getMessager().printMessage(Diagnostic.Kind.WARNING, m));
    }
    return tuning;
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

  private static TypeElement topLevel(TypeElement t) {
    Element e = t;
    while (e.getEnclosingElement() instanceof TypeElement outer) {
      e = outer;
    }
    return (TypeElement) e;
  }

  /** Generated files and lines, summed over an op's files. */
  private static final class Cost {
    int files;
    long lines;

    void add(long fileLines) {
      files++;
      lines += fileLines;
    }
  }

  /** Writes {@code file} and returns its number of lines. */
  private long write(JavaFile file, TypeElement origin) throws IOException {
    String name = file.packageName().isEmpty()
        ? file.typeSpec().name()
        : file.packageName() + "." + file.typeSpec().name();
    JavaFileObject source = processingEnv.getFiler().createSourceFile(name, origin);
    String text = file.toString();
    try (Writer w = source.openWriter()) {
      w.write(text);
    }
    return text.lines().count();
  }
}
