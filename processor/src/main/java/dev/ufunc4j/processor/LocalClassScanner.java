package dev.ufunc4j.processor;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Refuses {@code @Elementwise} methods of local and anonymous classes, which javac does not show
 * annotation processors: {@code RoundEnvironment.getElementsAnnotatedWith} visits the members of
 * the round's classes, and a class declared in a method body becomes an element only when javac
 * attributes that body, after processing. Such a method would silently get no kernels, so this
 * walks the source trees of the round's classes for them ({@code [Elementwise/EnclosingClass]} at
 * the method).
 *
 * <p>The trees are not attributed yet, so the annotation is recognized by how the source names it:
 * {@code @dev.ufunc4j.annotation.Elementwise}, or {@code @Elementwise} in a file that imports it
 * (or its package with {@code .*}). javac runs the processor only when some class of the
 * compilation carries one of its annotations where javac looks (a member method or class): a
 * compilation whose only {@code @Elementwise} methods are in local classes is not seen at all.
 */
final class LocalClassScanner {

  private static final String PACKAGE = "dev.ufunc4j.annotation";

  private final Trees trees;

  LocalClassScanner(Trees trees) {
    this.trees = trees;
  }

  /** Reports every {@code @Elementwise} method of a local class in the files of {@code roots}. */
  void scan(Set<? extends Element> roots) {
    Set<CompilationUnitTree> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Element root : roots) {
      TreePath path = trees.getPath(root);
      if (path != null && seen.add(path.getCompilationUnit())) {
        CompilationUnitTree unit = path.getCompilationUnit();
        new Finder(unit, importsElementwise(unit)).scan(unit, null);
      }
    }
  }

  private static boolean importsElementwise(CompilationUnitTree unit) {
    if (unit.getPackageName() != null && unit.getPackageName().toString().equals(PACKAGE)) {
      return true;
    }
    for (ImportTree i : unit.getImports()) {
      String name = i.getQualifiedIdentifier().toString();
      if (!i.isStatic()
          && (name.equals(OpCollector.ELEMENTWISE) || name.equals(PACKAGE + ".*"))) {
        return true;
      }
    }
    return false;
  }

  private final class Finder extends TreePathScanner<Void, Void> {

    private final CompilationUnitTree unit;
    private final boolean simpleNameIsOurs;
    /** How many local (or anonymous) classes enclose the current tree. */
    private int localDepth;

    Finder(CompilationUnitTree unit, boolean simpleNameIsOurs) {
      this.unit = unit;
      this.simpleNameIsOurs = simpleNameIsOurs;
    }

    @Override
    public Void visitClass(ClassTree node, Void unused) {
      Tree parent = getCurrentPath().getParentPath().getLeaf();
      boolean local = !(parent instanceof ClassTree || parent instanceof CompilationUnitTree);
      localDepth += local ? 1 : 0;
      try {
        return super.visitClass(node, unused);
      } finally {
        localDepth -= local ? 1 : 0;
      }
    }

    @Override
    public Void visitMethod(MethodTree node, Void unused) {
      if (localDepth > 0
          && node.getModifiers().getAnnotations().stream().anyMatch(this::isElementwise)) {
        trees.printMessage(Diagnostic.Kind.ERROR,
            Message.LOCAL_CLASS.format(node.getName()), node, unit);
      }
      return super.visitMethod(node, unused);
    }

    private boolean isElementwise(AnnotationTree annotation) {
      Tree type = annotation.getAnnotationType();
      return type instanceof IdentifierTree id
          ? simpleNameIsOurs && id.getName().contentEquals("Elementwise")
          : type.toString().equals(OpCollector.ELEMENTWISE);
    }
  }
}
