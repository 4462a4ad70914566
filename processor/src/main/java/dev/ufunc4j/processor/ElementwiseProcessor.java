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
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
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
 * Expands {@code @Elementwise} methods into Vector API kernels. Per declaring class, in five phases,
 * each handing an immutable record to the next: <b>collect</b> the round's annotated methods by
 * class ({@code Declarations}); <b>validate</b> and lower the bodies ({@link OpCollector}) into
 * immutable {@link OpModel}s and check the facade's names and rules ({@link FacadeCollector}:
 * {@code Validated}); <b>derive</b> each floating op's gradients ({@link DerivativeCollector},
 * {@link Derivatives}: backward ops, themselves {@link OpModel}s; {@code Derived}); <b>plan</b>
 * each op's kernel table ({@link EntryPlanner}) and which ops run another's rows ({@link
 * Mirrors}: {@code Plan}); then <b>emit</b> — kernel classes per op and per backward op ({@link
 * KernelGenerator}, whose lane analysis ({@link LaneAnalysis}) comes before any code, and {@link
 * KernelClassGenerator}), one descriptor class per op and per backward op, one {@code
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
  /** The processor javac finds through {@code META-INF/services}; nothing to configure. */
  public ElementwiseProcessor() {}

  static final String DTYPES_OPTION = "ufunc4j.dtypes";
  static final String FAIL_ON_OPTION = "ufunc4j.testing.failOn";
  /** {@code -Aufunc4j.verbose}: one cost note per op instead of one summary per compilation. */
  static final String VERBOSE_OPTION = "ufunc4j.verbose";

  /** Facade and instance class names given out so far (qualified name to declaring class). */
  private final Map<String, String> facadeOwners = new TreeMap<>();

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(OpCollector.ELEMENTWISE, FacadeCollector.FACADE, FacadeCollector.RULE,
        DerivativeCollector.DERIVATIVE);
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(DTYPES_OPTION, FAIL_ON_OPTION, VERBOSE_OPTION, KernelTuning.OPTION);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  /**
   * The stack of the thread the processor works in. Every step recurses over a body's expression
   * tree (lowering, simplification, derivatives, emission), with more frames per level than javac
   * needs to compile the body itself: on javac's thread (1 MB of stack by default) 1000 nested
   * {@code ?:} overflowed it. Reserved, not committed: only what the recursion touches is used.
   */
  private static final long STACK_BYTES = 512L << 20;

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    // The round runs in a thread of its own with a large stack while javac's thread waits, so
    // javac's objects are never used by two threads at once (start and join order the accesses).
    Throwable[] escaped = new Throwable[1];
    Thread worker = new Thread(null, () -> {
      try {
        processRound(round);
      } catch (Throwable t) {
        escaped[0] = t;
      }
    }, "ufunc4j-processor", STACK_BYTES);
    worker.start();
    boolean interrupted = false;
    while (true) {
      try {
        worker.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (escaped[0] != null) {
      reportInternalError(null, "the round", escaped[0]);
    }
    if (round.processingOver() && total.ops > 0 && !verbose()) {
      // one line for the whole compilation: a build of many ops stays quiet (issue 29)
      processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE, Message.COST_SUMMARY.format(
          total.ops, total.ops == 1 ? "" : "s", total.kernels, total.kernels == 1 ? "" : "s",
          total.files, total.files == 1 ? "" : "s", total.lines));
    }
    return false;
  }

  /** Whether {@code -Aufunc4j.verbose} asks for a cost note per op. */
  private boolean verbose() {
    // javac maps -Aufunc4j.verbose (no value) to a key with a null value
    Map<String, String> options = processingEnv.getOptions();
    return options.containsKey(VERBOSE_OPTION) && !"false".equals(options.get(VERBOSE_OPTION));
  }

  /** What the ops of this compilation cost its build, for the summary note. */
  private static final class Totals {
    int ops;
    long kernels;
    long files;
    long lines;
  }

  private final Totals total = new Totals();

  private void processRound(RoundEnvironment round) {
    Map<String, TypeElement> classes = new TreeMap<>();
    Map<String, List<ExecutableElement>> methods = new TreeMap<>();
    Map<String, List<ExecutableElement>> rules = new TreeMap<>();
    Map<String, List<ExecutableElement>> derivatives = new TreeMap<>();
    try {
      new LocalClassScanner(Trees.instance(processingEnv)).scan(round.getRootElements());
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
      return;
    }
    for (Map.Entry<String, TypeElement> c : classes.entrySet()) {
      String key = c.getKey();
      try {
        process(new Declarations(c.getValue(), methods.getOrDefault(key, List.of()),
            rules.getOrDefault(key, List.of()), derivatives.getOrDefault(key, List.of())));
      } catch (StackOverflowError e) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
            Message.TOO_DEEP.format(key, STACK_BYTES >> 20), c.getValue());
      } catch (IOException | RuntimeException | Error e) {
        reportInternalError(c.getValue(), key, e);
      }
    }
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

  // ------------------------------------------------------------------------------ phases
  //
  // One declaring class goes through five phases, each handing an immutable result to the next
  // (docs/architecture.md, "The processor's phases"): collect (processRound: the round's annotated
  // elements, by class) -> validate -> derive -> plan -> emit. A phase that reports an error
  // stops the class there: nothing of it is generated.

  /** Phase 1, collect: one class's annotated methods, as the round found them. */
  private record Declarations(TypeElement type, List<ExecutableElement> methods,
      List<ExecutableElement> rules, List<ExecutableElement> derivatives) {}

  /**
   * Phase 2, validate: the class's ops, validated and lowered ({@link OpCollector}), and its
   * facade checked ({@link FacadeCollector}).
   *
   * @param firstMethods each op's first {@code @Elementwise} method, where its errors and notes go
   */
  private record Validated(Declarations declared, OpModel.DeclaringClass declaring,
      List<OpModel> ops, Map<String, ExecutableElement> firstMethods, FacadeModel facade) {}

  /** Phase 3, derive: each op's gradients ({@link DerivativeCollector}), by op name. */
  private record Derived(Validated validated, Map<String, List<Derivatives.Gradient>> gradients) {

    List<Derivatives.Gradient> of(OpModel op) {
      return gradients.getOrDefault(op.name(), List.of());
    }

    /** The backward ops of {@code op}: the gradients that are ops of their own. */
    List<Derivatives.Gradient> backwardOps(OpModel op) {
      return of(op).stream().filter(g -> g.kind() == Derivatives.Kind.OP).toList();
    }
  }

  /**
   * Phase 4, plan: the kernel table of every op and backward op ({@link EntryPlanner}), by op
   * name, and the ops that compute as an earlier op with the operands swapped ({@link
   * Mirrors#across}: lt as gt), whose kernels run that op's rows.
   *
   * @param across such an op's name to the op whose rows it runs
   * @param sharing the ops whose rows another op runs (package-private rows)
   */
  private record Plan(Derived derived, Map<String, List<KernelEntry>> tables,
      Map<String, OpModel> across, Set<String> sharing) {}

  /** Runs one class through the phases and writes its generated classes. */
  private void process(Declarations declared) throws IOException {
    Trees trees = Trees.instance(processingEnv);
    Report report = new Report();
    Validated validated = validate(declared, trees, report);
    if (validated == null) {
      return;
    }
    Derived derived = derive(validated, trees, report);
    if (derived == null) {
      return;
    }
    Plan plan = plan(derived, report);
    if (report.hasErrors()) {
      report.printTo(processingEnv.getMessager(), trees);
      return;
    }
    emit(plan);
  }

  /** Phase 2: the class's ops and facade, or null once the refusals are reported. */
  private Validated validate(Declarations declared, Trees trees, Report report) {
    TypeElement type = declared.type();
    OpCollector collector = new OpCollector(processingEnv.getElementUtils(), trees, report);
    List<FacadeModel.Op> ops = collector.collect(type, declared.methods());
    if (!report.isEmpty()) {
      report.printTo(processingEnv.getMessager(), trees);
      return null;
    }
    if (ops.isEmpty()) {
      if (FacadeCollector.annotation(type, FacadeCollector.FACADE).isPresent()
          || !declared.rules().isEmpty()) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
            Message.FACADE_WITHOUT_OPS.format(type.getQualifiedName()), type);
      }
      return null;
    }
    OpModel.DeclaringClass declaring = ops.get(0).model().declaringClass();
    FacadeModel facade = new FacadeCollector(processingEnv.getElementUtils(), trees, report)
        .collect(type, declaring, ops, collector.firstMethods(), declared.rules(), facadeOwners)
        .orElse(null);
    if (facade == null) {
      report.printTo(processingEnv.getMessager(), trees);
      return null;
    }
    return new Validated(declared, declaring, ops.stream().map(FacadeModel.Op::model).toList(),
        Collections.unmodifiableMap(collector.firstMethods()), facade);
  }

  /**
   * Phase 3: {@code @Derivative} declarations checked, backward ops derived ({@link
   * Derivatives}); null once the refusals are reported. Its warnings are printed either way.
   */
  private Derived derive(Validated validated, Trees trees, Report report) {
    Declarations declared = validated.declared();
    Map<String, List<Derivatives.Gradient>> gradients =
        new DerivativeCollector(processingEnv.getElementUtils(), trees, report)
            .gradients(declared.type(), validated.ops(), declared.methods(),
                declared.derivatives());
    boolean refused = report.hasErrors();
    report.printTo(processingEnv.getMessager(), trees);
    return refused ? null : new Derived(validated, Collections.unmodifiableMap(gradients));
  }

  /**
   * Phase 4: the kernel table of every op and backward op, after checking that each kernel's
   * methods fit the JVM's 255 parameter slots ({@code [Elementwise/TooManyOperands]} at the op's
   * first method otherwise: javac would refuse the generated file); then which ops run another's
   * rows.
   */
  private Plan plan(Derived derived, Report report) {
    Validated validated = derived.validated();
    EntryPlanner planner = new EntryPlanner(dtypes());
    Map<String, List<KernelEntry>> tables = new TreeMap<>();
    for (OpModel op : validated.ops()) {
      ExecutableElement declaration = validated.firstMethods().get(op.name());
      List<KernelEntry> forward = planner.plan(op);
      tables.put(op.name(), forward);
      // One refusal per op: its backward ops have at least as many operands.
      boolean fits = fitsParameterSlots(op, forward, null, declaration, report);
      for (Derivatives.Gradient g : derived.backwardOps(op)) {
        List<KernelEntry> backward = Derivatives.entries(g.backward(), dtypes());
        tables.put(g.backward().name(), backward);
        fits = fits && fitsParameterSlots(g.backward(), backward, op, declaration, report);
      }
    }
    Map<String, OpModel> across = new HashMap<>();
    Set<String> sharing = new HashSet<>();
    for (OpModel op : validated.ops()) {
      Mirrors.across(op, validated.ops()).ifPresent(other -> {
        across.put(op.name(), other);
        sharing.add(other.name());
      });
    }
    return new Plan(derived, Collections.unmodifiableMap(tables),
        Collections.unmodifiableMap(across), Collections.unmodifiableSet(sharing));
  }

  /**
   * Phase 5, emit: the kernel classes, descriptors, op library and facade of the planned class,
   * all generated before any is written (a class whose generation fails, or whose generated names
   * are taken, leaves nothing behind); then a cost note per op.
   */
  private void emit(Plan plan) throws IOException {
    Derived derived = plan.derived();
    Validated validated = derived.validated();
    TypeElement type = validated.declared().type();
    Set<String> opNames = new java.util.TreeSet<>(plan.tables().keySet());
    tuning().noteStaleRecords(validated.declaring().binaryName(), opNames,
        m -> processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE, m, type));
    Generated generated = new Generated(
        processingEnv.getElementUtils().getTypeElement(Generated.GENERATED.canonicalName())
            != null);
    List<Output> outputs = kernelOutputs(plan, generated);
    if (type.getQualifiedName().contentEquals(
        processingEnv.getOptions().getOrDefault(FAIL_ON_OPTION, ""))) {
      throw new IllegalStateException("-A" + FAIL_ON_OPTION + " asked generation to fail here");
    }
    outputs.add(new Output(LibraryGenerator.generate(validated.declaring(), validated.ops(),
        generated), topLevel(type), null, "the op library"));
    FacadeGenerator generator = new FacadeGenerator(validated.facade(), generated);
    outputs.add(new Output(generator.generate(), type, null, "the facade"));
    if (!validated.facade().instanceClassName().isEmpty()) {
      outputs.add(new Output(generator.generateInstanceMethods(), type, null,
          "the instance methods"));
    }
    if (!namesFree(type, outputs)) {
      return;
    }
    Map<OpModel, Cost> costs = new java.util.IdentityHashMap<>();
    for (Output output : outputs) {
      long lines = write(output.file(), output.origin());
      if (output.op() != null) {
        costs.computeIfAbsent(output.op(), op -> new Cost()).add(lines);
      }
    }
    noteCosts(plan, costs);
  }

  /**
   * The kernel classes and descriptors of every op, in declaration order, each op's backward
   * ops' after its own kernel classes.
   */
  private List<Output> kernelOutputs(Plan plan, Generated generated) {
    Derived derived = plan.derived();
    TypeElement origin = topLevel(derived.validated().declared().type());
    List<Output> outputs = new ArrayList<>();
    Map<String, List<KernelGenerator.Kernel>> made = new HashMap<>();
    for (OpModel op : derived.validated().ops()) {
      OpModel other = plan.across().get(op.name());
      List<KernelGenerator.Kernel> kernels = other == null
          ? kernels(op, plan.tables().get(op.name()), true, plan.sharing().contains(op.name()))
          : kernelsAcross(op, plan.tables().get(op.name()), other, made.get(other.name()));
      made.put(op.name(), kernels);
      for (JavaFile file : KernelClassGenerator.generate(op, kernels, generated, tuning())) {
        outputs.add(new Output(file, origin, op, "the kernels of op '" + op.name() + "'"));
      }
      for (Derivatives.Gradient g : derived.backwardOps(op)) {
        // A backward op is an ordinary op: the same kernel classes, one entry per dtype.
        List<KernelGenerator.Kernel> backward =
            kernels(g.backward(), plan.tables().get(g.backward().name()), false, false);
        String what = "the backward op '" + g.backward().name() + "'";
        for (JavaFile file : KernelClassGenerator.generate(g.backward(), backward, generated,
            tuning())) {
          outputs.add(new Output(file, origin, op, what));
        }
        outputs.add(new Output(DescriptorGenerator.generateBackward(op, g, backward, generated),
            origin, op, what));
      }
      outputs.add(new Output(DescriptorGenerator.generate(op, kernels, derived.of(op), generated),
          origin, op, "the descriptor of op '" + op.name() + "'"));
    }
    return outputs;
  }

  /** What each op costs the user's build (kernels, files, lines): the totals, and a note per op. */
  private void noteCosts(Plan plan, Map<OpModel, Cost> costs) {
    Validated validated = plan.derived().validated();
    for (OpModel op : validated.ops()) {
      Cost cost = costs.get(op);
      int forwardKernels = plan.tables().get(op.name()).size();
      int backwardKernels = 0;
      for (Derivatives.Gradient g : plan.derived().backwardOps(op)) {
        backwardKernels += plan.tables().get(g.backward().name()).size();
      }
      total.ops++;
      total.kernels += forwardKernels + backwardKernels;
      total.files += cost.files;
      total.lines += cost.lines;
      if (!verbose()) {
        continue;
      }
      processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE, Message.COST.format(
          op.name(), forwardKernels + backwardKernels,
          forwardKernels + backwardKernels == 1 ? "" : "s", forwardKernels, backwardKernels,
          cost.files, cost.files == 1 ? "" : "s", cost.lines, op.dtypes().isEmpty()
              ? "; @Elementwise(dtypes = ...) generates fewer"
              : " (dtypes " + op.dtypes() + ")"), validated.firstMethods().get(op.name()));
    }
  }

  /**
   * A generated file before it is written.
   *
   * @param origin the element it originates from (Gradle's isolating mode)
   * @param op the op whose cost it adds to, or null
   * @param what what it holds, for a refusal of its name
   */
  private record Output(JavaFile file, TypeElement origin, OpModel op, String what) {

    String qualifiedName() {
      return file.packageName().isEmpty()
          ? file.typeSpec().name()
          : file.packageName() + "." + file.typeSpec().name();
    }
  }

  /**
   * Refuses, at the declaring class, generated names that a class of this compilation already has
   * ({@code [Elementwise/GeneratedName]}): javac's Filer would throw instead. Facade names are
   * checked earlier, at {@code @Facade} ({@link FacadeCollector}); this catches the kernel
   * classes' names ({@code C_<op>_w32}, {@code COpLibrary}).
   */
  private boolean namesFree(TypeElement type, List<Output> outputs) {
    Trees trees = Trees.instance(processingEnv);
    boolean free = true;
    for (Output output : outputs) {
      TypeElement existing =
          processingEnv.getElementUtils().getTypeElement(output.qualifiedName());
      if (existing != null && trees.getPath(existing) != null) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
            Message.GENERATED_NAME.format(output.qualifiedName(), type.getQualifiedName(),
                output.what(), output.op() == null
                    ? "rename that class"
                    : "rename that class or the op (@Elementwise(name = \"...\"))"),
            type);
        free = false;
      }
    }
    return free;
  }

  /**
   * Refuses {@code op} (a backward op of {@code forward}, or null) when a kernel's strided loop
   * would take more JVM parameter slots than the JVM allows (the message names the limit), and
   * says whether it fits.
   */
  private static boolean fitsParameterSlots(OpModel op, List<KernelEntry> entries,
      OpModel forward, ExecutableElement declaration, Report report) {
    for (KernelEntry entry : entries) {
      int slots = KernelGenerator.parameterSlots(op, entry);
      if (slots <= KernelGenerator.MAX_PARAMETER_SLOTS) {
        continue;
      }
      int tensors = op.tensors().size();
      int scalarSlots = slots - (2 + 5 * (tensors + 1));
      // n and the result take 7 slots, each tensor operand 5.
      int most = (KernelGenerator.MAX_PARAMETER_SLOTS - 7 - scalarSlots) / 5;
      String scalars = op.scalars().isEmpty() ? "" : " beside its @Scalars";
      if (forward == null) {
        report.error(declaration, Message.TOO_MANY_OPERANDS, "op '" + op.name() + "'", tensors,
            "", entry.promoted().torchName(), slots, "at most " + most + " tensor operands" + scalars);
      } else {
        report.error(declaration, Message.TOO_MANY_OPERANDS,
            "the backward op '" + op.name() + "' of op '" + forward.name() + "'", tensors,
            " (the incoming gradient and the " + (tensors - 1) + " operands its derivative"
                + " reads)", entry.promoted().torchName(), slots,
            "at most " + (most - 1) + " tensor operands" + scalars + " when the gradient reads"
                + " them all");
      }
      return false;
    }
    return true;
  }

  /**
   * The kernels of {@code entries}, in table order: a mirrored entry ({@link Mirrors}) gets only a
   * box method that runs its source's rows, an entry whose code an earlier one's is runs that
   * kernel ({@link SharedKernels}). {@code forward}: a declared op (a backward op is no ufunc: it
   * gets no fold loops).
   */
  private List<KernelGenerator.Kernel> kernels(OpModel op, List<KernelEntry> entries,
      boolean forward, boolean sharingRows) {
    Map<KernelEntry, KernelEntry> mirrors = Mirrors.sources(op, entries, op, entries);
    List<KernelGenerator.Kernel> own = new ArrayList<>();
    for (KernelEntry entry : entries) {
      if (!mirrors.containsKey(entry)) {
        KernelGenerator g = new KernelGenerator(op, entry, forward);
        own.add((sharingRows ? g.sharingRows() : g).generate());
      }
    }
    // Shared first, so that a mirror runs the rows that remain.
    Map<KernelEntry, KernelGenerator.Kernel> generated = new java.util.IdentityHashMap<>();
    share(op, own).forEach(k -> generated.put(k.entry(), k));
    return share(op, entries.stream()
        .map(entry -> mirrors.containsKey(entry)
            ? KernelGenerator.mirror(op, entry,
                SharedKernels.resolve(generated.get(mirrors.get(entry))))
            : generated.get(entry))
        .toList());
  }

  /** {@link SharedKernels#share} with the tuned vector size of a fold kernel's class. */
  private List<KernelGenerator.Kernel> share(OpModel op, List<KernelGenerator.Kernel> kernels) {
    return SharedKernels.share(kernels,
        k -> KernelClassGenerator.capBits(op, List.of(k), tuning()));
  }

  /**
   * The kernels of {@code op}, which {@link Mirrors#across} found to compute as {@code other}
   * with the operands swapped: an entry whose swapped entry {@code other} has runs its rows (in
   * {@code other}'s class), any other entry gets a kernel of its own. {@code otherKernels}: {@code
   * other}'s, in its table order.
   */
  private List<KernelGenerator.Kernel> kernelsAcross(OpModel op, List<KernelEntry> entries,
      OpModel other, List<KernelGenerator.Kernel> otherKernels) {
    Map<KernelEntry, KernelGenerator.Kernel> byEntry = new java.util.HashMap<>();
    otherKernels.forEach(k -> byEntry.put(k.entry(), k));
    Map<KernelEntry, KernelEntry> mirrors = Mirrors.sources(op, entries, other,
        otherKernels.stream().map(KernelGenerator.Kernel::entry).toList());
    return share(op, entries.stream().map(entry -> {
      KernelEntry source = mirrors.get(entry);
      if (source == null) {
        return new KernelGenerator(op, entry, true).generate();
      }
      KernelGenerator.Kernel k = SharedKernels.resolve(byEntry.get(source));
      if (k.methods().size() == 1) {
        return new KernelGenerator(op, entry, true).generate(); // itself a mirror: no rows
      }
      return KernelGenerator.mirror(other, entry, k, com.palantir.javapoet.ClassName.get(
          op.declaringClass().packageName(), KernelClassGenerator.className(other, k)));
    }).toList());
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
    String name = new Output(file, origin, null, "").qualifiedName();
    JavaFileObject source = processingEnv.getFiler().createSourceFile(name, origin);
    String text = file.toString();
    try (Writer w = source.openWriter()) {
      w.write(text);
    }
    return text.lines().count();
  }
}
