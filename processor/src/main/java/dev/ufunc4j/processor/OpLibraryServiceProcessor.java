package dev.ufunc4j.processor;

import com.google.auto.service.AutoService;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes {@code META-INF/services/dev.ufunc4j.kernel.OpLibrary}, listing the {@code OpLibrary} of
 * every class that declares {@code @Elementwise} methods, once processing is over. Aggregating (for
 * Gradle) and kept apart from the isolating {@link ElementwiseProcessor}. Entries already in the
 * file (an incremental compile) are kept, as AutoService does.
 */
@AutoService(Processor.class)
public final class OpLibraryServiceProcessor extends AbstractProcessor {
  /** The processor javac finds through {@code META-INF/services}; nothing to configure. */
  public OpLibraryServiceProcessor() {}

  static final String SERVICE_FILE = "META-INF/services/dev.ufunc4j.kernel.OpLibrary";

  private final Set<String> libraries = new TreeSet<>();

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(OpCollector.ELEMENTWISE);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    try {
      Elements elements = processingEnv.getElementUtils();
      TypeElement annotation = elements.getTypeElement(OpCollector.ELEMENTWISE);
      if (annotation != null) {
        for (Element e : round.getElementsAnnotatedWith(annotation)) {
          if (e instanceof ExecutableElement && e.getEnclosingElement() instanceof TypeElement t) {
            libraries.add(libraryName(elements, t));
          }
        }
      }
      if (round.processingOver() && !libraries.isEmpty() && !round.errorRaised()) {
        writeServiceFile();
      }
    } catch (Throwable t) {
      StringWriter trace = new StringWriter();
      t.printStackTrace(new PrintWriter(trace));
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Message.INTERNAL_ERROR.format(SERVICE_FILE, t, trace));
    }
    return false;
  }

  private static String libraryName(Elements elements, TypeElement type) {
    String pkg = elements.getPackageOf(type).getQualifiedName().toString();
    StringBuilder flat = new StringBuilder();
    Element e = type;
    while (e instanceof TypeElement t) {
      flat.insert(0, flat.isEmpty() ? t.getSimpleName() : t.getSimpleName() + "_");
      e = t.getEnclosingElement();
    }
    String simple = flat + "OpLibrary";
    return pkg.isEmpty() ? simple : pkg + "." + simple;
  }

  private void writeServiceFile() throws IOException {
    Set<String> all = new TreeSet<>(libraries);
    try {
      FileObject existing = processingEnv.getFiler()
          .getResource(StandardLocation.CLASS_OUTPUT, "", SERVICE_FILE);
      try (Reader r = new InputStreamReader(existing.openInputStream(), StandardCharsets.UTF_8);
          BufferedReader lines = new BufferedReader(r)) {
        lines.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .forEach(all::add);
      }
    } catch (IOException | IllegalArgumentException noFileYet) {
      // First compile: nothing to merge.
    }
    FileObject file = processingEnv.getFiler()
        .createResource(StandardLocation.CLASS_OUTPUT, "", SERVICE_FILE);
    try (Writer w = new java.io.OutputStreamWriter(file.openOutputStream(),
        StandardCharsets.UTF_8)) {
      for (String library : all) {
        w.write(library);
        w.write('\n');
      }
    }
  }
}
