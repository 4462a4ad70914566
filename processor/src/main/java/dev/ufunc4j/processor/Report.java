package dev.ufunc4j.processor;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Collects the problems found while validating one round, then prints them at once: on the
 * element, on the value of one of its annotations (as Dagger does, so the caret lands on {@code
 * name = "log-sum"}), or with {@link Trees#printMessage} on the exact sub-tree of a body so the
 * caret lands on the offending sub-expression.
 */
final class Report {

  private record Problem(
      String message,
      Element element,
      AnnotationMirror annotation,
      AnnotationValue value,
      TreePath path) {}

  private final List<Problem> problems = new ArrayList<>();

  void error(Element element, Message message, Object... args) {
    problems.add(new Problem(message.format(args), element, null, null, null));
  }

  /** An error about an annotation's value, shown at that value. */
  void error(Element element, AnnotationMirror annotation, AnnotationValue value, Message message,
      Object... args) {
    problems.add(new Problem(message.format(args), element, annotation, value, null));
  }

  void error(TreePath path, Message message, Object... args) {
    problems.add(new Problem(message.format(args), null, null, null, path));
  }

  int size() {
    return problems.size();
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  /** Prints every collected problem as an error and forgets them. */
  void printTo(Messager messager, Trees trees) {
    for (Problem p : problems) {
      if (p.path() != null) {
        trees.printMessage(
            Diagnostic.Kind.ERROR, p.message(), p.path().getLeaf(), p.path().getCompilationUnit());
      } else if (p.value() != null) {
        messager.printMessage(
            Diagnostic.Kind.ERROR, p.message(), p.element(), p.annotation(), p.value());
      } else {
        messager.printMessage(Diagnostic.Kind.ERROR, p.message(), p.element());
      }
    }
    problems.clear();
  }
}
