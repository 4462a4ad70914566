package dev.ufunc4j.processor;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Collects the problems found while validating one round, then prints them at once: on the
 * element, or with {@link Trees#printMessage} on the exact sub-tree of a body so the caret lands on
 * the offending sub-expression.
 */
final class Report {

  private record Problem(Diagnostic.Kind kind, String message, Element element, TreePath path) {}

  private final List<Problem> problems = new ArrayList<>();

  void error(Element element, Message message, Object... args) {
    problems.add(new Problem(Diagnostic.Kind.ERROR, message.format(args), element, null));
  }

  void error(TreePath path, Message message, Object... args) {
    problems.add(new Problem(Diagnostic.Kind.ERROR, message.format(args), null, path));
  }

  /** A note: information that does not stop generation (a gradient that is zero everywhere). */
  void note(Element element, Message message, Object... args) {
    problems.add(new Problem(Diagnostic.Kind.NOTE, message.format(args), element, null));
  }

  void note(TreePath path, Message message, Object... args) {
    problems.add(new Problem(Diagnostic.Kind.NOTE, message.format(args), null, path));
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
      } else {
        messager.printMessage(p.kind(), p.message(), p.element());
      }
    }
    problems.clear();
  }
}
