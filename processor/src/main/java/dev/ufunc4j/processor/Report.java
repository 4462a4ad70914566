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
 * caret lands on the offending sub-expression. Errors stop generation; notes (a gradient that is
 * zero everywhere) do not.
 */
final class Report {

  private record Problem(
      Diagnostic.Kind kind,
      String message,
      Element element,
      AnnotationMirror annotation,
      AnnotationValue value,
      TreePath path) {}

  private final List<Problem> problems = new ArrayList<>();

  void error(Element element, Message message, Object... args) {
    problems.add(
        new Problem(Diagnostic.Kind.ERROR, message.format(args), element, null, null, null));
  }

  /** An error about an annotation's value, shown at that value. */
  void error(Element element, AnnotationMirror annotation, AnnotationValue value, Message message,
      Object... args) {
    problems.add(new Problem(
        Diagnostic.Kind.ERROR, message.format(args), element, annotation, value, null));
  }

  /**
   * An error on a sub-tree of a body. A body lowered twice (a helper inlined into several ops, an
   * op called by another) reports each of its errors once.
   */
  void error(TreePath path, Message message, Object... args) {
    String text = message.format(args);
    if (reportedAt.add(new Reported(text, path.getLeaf()))) {
      problems.add(new Problem(Diagnostic.Kind.ERROR, text, null, null, null, path));
    }
  }

  /** Errors on sub-trees so far; trees compare by identity. */
  private final java.util.Set<Reported> reportedAt = new java.util.HashSet<>();

  private record Reported(String message, com.sun.source.tree.Tree leaf) {}

  /** A note: information that does not stop generation (a gradient that is zero everywhere). */
  void note(Element element, Message message, Object... args) {
    problems.add(
        new Problem(Diagnostic.Kind.NOTE, message.format(args), element, null, null, null));
  }

  void note(TreePath path, Message message, Object... args) {
    problems.add(new Problem(Diagnostic.Kind.NOTE, message.format(args), null, null, null, path));
  }

  boolean hasErrors() {
    return problems.stream().anyMatch(p -> p.kind() == Diagnostic.Kind.ERROR);
  }

  int size() {
    return problems.size();
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  /** Prints every collected problem (errors and notes) and forgets them. */
  void printTo(Messager messager, Trees trees) {
    for (Problem p : problems) {
      if (p.path() != null) {
        trees.printMessage(
            p.kind(), p.message(), p.path().getLeaf(), p.path().getCompilationUnit());
      } else if (p.value() != null) {
        messager.printMessage(p.kind(), p.message(), p.element(), p.annotation(), p.value());
      } else {
        messager.printMessage(p.kind(), p.message(), p.element());
      }
    }
    problems.clear();
  }
}
