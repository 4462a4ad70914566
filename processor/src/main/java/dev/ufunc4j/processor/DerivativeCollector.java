package dev.ufunc4j.processor;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;

/**
 * The gradient step of the processor, between validation and generation: reads the {@code
 * @Derivative} methods of one class, checks them against the ops they name, and plans each op's
 * gradients ({@link Derivatives#of}). Problems go to the {@link Report}; a gradient that comes out
 * zero everywhere without being declared so gets a note on the sub-expression that cuts it.
 */
final class DerivativeCollector {

  static final String DERIVATIVE = "dev.ufunc4j.annotation.Derivative";

  private final Elements elements;
  private final Trees trees;
  private final BodyLowering lowering;
  private final Report report;

  DerivativeCollector(Elements elements, Trees trees, Report report) {
    this.elements = elements;
    this.trees = trees;
    // A derivative body is not differentiated again: no calls to mark.
    this.lowering = new BodyLowering(trees, report, false);
    this.report = report;
  }

  /**
   * The gradients of each op, by op name.
   *
   * @param ops the class's validated ops
   * @param opMethods the class's {@code @Elementwise} methods (to find each op's declaration)
   * @param derivativeMethods the class's {@code @Derivative} methods
   */
  Map<String, List<Derivatives.Gradient>> gradients(TypeElement type, List<OpModel> ops,
      List<ExecutableElement> opMethods, List<ExecutableElement> derivativeMethods) {
    Map<String, OpModel> byName = new TreeMap<>();
    ops.forEach(op -> byName.put(op.name(), op));
    Map<String, Map<Integer, Body>> declared = new TreeMap<>();
    Map<String, ExecutableElement> declaredBy = new TreeMap<>();
    for (ExecutableElement m : derivativeMethods) {
      declaration(type, m, byName, opMethods).ifPresent(d -> {
        String key = d.op().name() + "." + d.operand();
        ExecutableElement earlier = declaredBy.putIfAbsent(key, m);
        if (earlier != null) {
          report.error(m, Message.DERIVATIVE_DUPLICATE, m.getSimpleName(), d.op().name(),
              d.op().tensors().get(d.operand()).name(), earlier.getSimpleName());
          return;
        }
        declared.computeIfAbsent(d.op().name(), k -> new TreeMap<>()).put(d.operand(), d.body());
      });
    }
    Map<String, List<Derivatives.Gradient>> gradients = new LinkedHashMap<>();
    for (OpModel op : ops) {
      for (OpModel.TensorParam t : op.tensors()) {
        String backward = Derivatives.backwardName(op, t.name());
        if (byName.containsKey(backward) && Derivatives.differentiable(op)) {
          report.error(forward(op, opMethods).orElseThrow(), Message.BACKWARD_NAME, backward,
              op.name(), t.name());
        }
      }
      List<Derivatives.Gradient> g = Derivatives.of(op, declared.getOrDefault(op.name(), Map.of()));
      for (Derivatives.Gradient gradient : g) {
        if (gradient.kind() == Derivatives.Kind.ZERO && !gradient.declared()) {
          noteZero(op, gradient.operand(), opMethods);
        }
      }
      gradients.put(op.name(), g);
    }
    return gradients;
  }

  /** A validated {@code @Derivative}: its op, operand index and gradient body. */
  private record Declaration(OpModel op, int operand, Body body) {}

  private Optional<Declaration> declaration(TypeElement type, ExecutableElement m,
      Map<String, OpModel> ops, List<ExecutableElement> opMethods) {
    String name = m.getSimpleName().toString();
    if (!m.getModifiers().contains(Modifier.STATIC) || !m.getTypeParameters().isEmpty()
        || m.getReturnType().getKind() != TypeKind.DOUBLE) {
      report.error(m, Message.DERIVATIVE_METHOD, name);
      return Optional.empty();
    }
    String opName = "";
    String operandName = "";
    AnnotationMirror annotation = annotation(m).orElseThrow();
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        elements.getElementValuesWithDefaults(annotation).entrySet()) {
      String key = e.getKey().getSimpleName().toString();
      if (key.equals("op")) {
        opName = e.getValue().getValue().toString();
      } else if (key.equals("operand")) {
        operandName = e.getValue().getValue().toString();
      }
    }
    OpModel op = ops.get(opName);
    if (op == null) {
      report.error(m, Message.DERIVATIVE_OP, name, opName, type.getSimpleName(),
          ops.isEmpty() ? "none" : String.join(", ", ops.keySet()));
      return Optional.empty();
    }
    if (!Derivatives.differentiable(op)) {
      report.error(m, Message.DERIVATIVE_NOT_DIFFERENTIABLE, name, opName, op.predicate()
          ? "it is a predicate (its result is boolean)"
          : op.hasSeveralResults()
              ? "it returns a record (ops with several results have no gradients yet)"
              : "it has no double body (only floating ops have gradients)");
      return Optional.empty();
    }
    List<String> floating = op.tensors().stream().filter(t -> !t.condition())
        .map(OpModel.TensorParam::name).toList();
    int operand = -1;
    if (operandName.isEmpty()) {
      if (floating.size() != 1) {
        report.error(m, Message.DERIVATIVE_OPERAND, name,
            "name the operand (operand = \"...\")", opName, floating);
        return Optional.empty();
      }
      operandName = floating.get(0);
    }
    for (int i = 0; i < op.tensors().size(); i++) {
      if (op.tensors().get(i).name().equals(operandName)) {
        operand = i;
      }
    }
    if (operand < 0 || op.tensors().get(operand).condition()) {
      String wanted = operandName;
      String why = operand >= 0
          ? "'" + operandName + "' is a boolean condition, which has no gradient"
          : op.scalars().stream().anyMatch(s -> s.name().equals(wanted))
              ? "'" + operandName + "' is @Scalar, which has no gradient"
              : "op '" + opName + "' has no tensor parameter '" + operandName + "'";
      report.error(m, Message.DERIVATIVE_OPERAND, name, why, opName, floating);
      return Optional.empty();
    }
    ExecutableElement forward = forward(op, opMethods).orElseThrow();
    Optional<Parameters> params = parameters(m, forward);
    if (params.isEmpty()) {
      return Optional.empty();
    }
    Optional<Body> body = lowering.lower(m, ValueType.DOUBLE, params.get().names());
    if (body.isEmpty()) {
      return Optional.empty();
    }
    Body b = body.get();
    // The partial-derivative form is multiplied by the gradient as a derived one would be.
    Body gradient = params.get().withGradient()
        ? b
        : new Body(b.locals(), Simplify.timesGradient(
            new Expr.Operand(0, "grad", ValueType.DOUBLE), b.result()));
    return Optional.of(new Declaration(op, operand, gradient));
  }

  /** The names a derivative body sees, and whether it takes the gradient first. */
  private record Parameters(Map<String, Expr> names, boolean withGradient) {}

  /**
   * Matches the derivative's parameters to the forward method's, position by position (names may
   * differ); maps them to backward numbering (forward tensor {@code j} is operand {@code j + 1}).
   */
  private Optional<Parameters> parameters(ExecutableElement m, ExecutableElement forward) {
    List<? extends VariableElement> fp = forward.getParameters();
    List<? extends VariableElement> dp = m.getParameters();
    String expected = fp.stream().map(p -> (hasScalar(p) ? "@Scalar " : "") + p.asType())
        .collect(Collectors.joining(", "));
    String signature = OpCollector.signature(forward);
    boolean withGradient = dp.size() == fp.size() + 1;
    if (dp.size() != fp.size() && !withGradient) {
      report.error(m, Message.DERIVATIVE_PARAMETERS, m.getSimpleName(), signature, expected,
          "it takes " + dp.size());
      return Optional.empty();
    }
    Map<String, Expr> names = new LinkedHashMap<>();
    int shift = 0;
    if (withGradient) {
      VariableElement g = dp.get(0);
      if (g.asType().getKind() != TypeKind.DOUBLE || hasScalar(g)) {
        report.error(g, Message.DERIVATIVE_PARAMETERS, m.getSimpleName(), signature, expected,
            "the gradient parameter " + g.getSimpleName() + " must be a plain double");
        return Optional.empty();
      }
      names.put(g.getSimpleName().toString(), new Expr.Operand(0, "grad", ValueType.DOUBLE));
      shift = 1;
    }
    int tensor = 0;
    int scalar = 0;
    boolean ok = true;
    for (int i = 0; i < fp.size(); i++) {
      VariableElement f = fp.get(i);
      VariableElement d = dp.get(i + shift);
      ValueType type = f.asType().getKind() == TypeKind.BOOLEAN
          ? ValueType.BOOLEAN
          : f.asType().getKind() == TypeKind.LONG ? ValueType.LONG : ValueType.DOUBLE;
      if (d.asType().getKind() != f.asType().getKind() || hasScalar(d) != hasScalar(f)) {
        report.error(d, Message.DERIVATIVE_PARAMETERS, m.getSimpleName(), signature, expected,
            "parameter " + d.getSimpleName() + " is " + (hasScalar(d) ? "@Scalar " : "")
                + d.asType() + " where " + f.getSimpleName() + " is "
                + (hasScalar(f) ? "@Scalar " : "") + f.asType());
        ok = false;
        continue;
      }
      String key = d.getSimpleName().toString();
      if (hasScalar(f)) {
        names.put(key, new Expr.ScalarRef(scalar++, f.getSimpleName().toString(), type));
      } else {
        names.put(key, new Expr.Operand(1 + tensor++, f.getSimpleName().toString(), type));
      }
    }
    return ok ? Optional.of(new Parameters(names, withGradient)) : Optional.empty();
  }

  /** The {@code double} overload that declares {@code op}. */
  private static Optional<ExecutableElement> forward(OpModel op,
      List<ExecutableElement> opMethods) {
    String signature = op.overload(ValueType.DOUBLE).map(OpModel.Overload::javadocSignature)
        .orElse(null);
    return opMethods.stream().filter(m -> OpCollector.signature(m).equals(signature)).findFirst();
  }

  private static boolean hasScalar(VariableElement p) {
    return p.getAnnotationMirrors().stream().anyMatch(a -> ((TypeElement) a.getAnnotationType()
        .asElement()).getQualifiedName().contentEquals(OpCollector.SCALAR));
  }

  private static Optional<AnnotationMirror> annotation(ExecutableElement m) {
    for (AnnotationMirror a : m.getAnnotationMirrors()) {
      if (((TypeElement) a.getAnnotationType().asElement()).getQualifiedName()
          .contentEquals(DERIVATIVE)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  // ---------------------------------------------------------------------------- zero notes

  /**
   * Notes a derived gradient that is zero everywhere although the operand is used: on the first
   * {@code floor}/{@code ceil}/{@code rint}/{@code signum} call or comparison that reads it, the
   * sub-expressions that cut the gradient.
   */
  private void noteZero(OpModel op, int operand, List<ExecutableElement> opMethods) {
    Optional<ExecutableElement> method = forward(op, opMethods);
    Body body = op.overload(ValueType.DOUBLE).orElseThrow().body();
    if (method.isEmpty()
        || !Derivatives.operandsRead(body, body.result()).contains(operand)) {
      return; // an unused operand has a zero gradient by nature: nothing to explain
    }
    String param = method.get().getParameters().stream()
        .filter(p -> !hasScalar(p)).skip(operand).findFirst()
        .map(p -> p.getSimpleName().toString()).orElse(op.tensors().get(operand).name());
    TreePath root = trees.getPath(method.get());
    // The cut that reads the parameter itself, else the first cut (it may read a local).
    TreePath[] found = {null, null};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        if (found[0] != null || tree == null) {
          return null;
        }
        TreePath path = new TreePath(getCurrentPath(), tree);
        if (cuts(tree)) {
          if (mentions(tree, param)) {
            found[0] = path;
            return null;
          }
          if (found[1] == null) {
            found[1] = path;
          }
        }
        return super.scan(tree, unused);
      }
    }.scan(root, null);
    if (found[0] == null) {
      found[0] = found[1];
    }
    String why = "floor, ceil, rint, signum and comparisons";
    if (found[0] != null) {
      report.note(found[0], Message.ZERO_GRADIENT, op.name(), param, param, why, param);
    } else {
      report.note(method.get(), Message.ZERO_GRADIENT, op.name(), param, param, why, param);
    }
  }

  private static final Set<String> STEP_FUNCTIONS = Set.of("floor", "ceil", "rint", "signum");

  private static boolean cuts(Tree tree) {
    if (tree instanceof MethodInvocationTree call) {
      String select = call.getMethodSelect().toString();
      return STEP_FUNCTIONS.contains(select.substring(select.lastIndexOf('.') + 1));
    }
    if (tree instanceof BinaryTree b) {
      return switch (b.getKind()) {
        case LESS_THAN, LESS_THAN_EQUAL, GREATER_THAN, GREATER_THAN_EQUAL, EQUAL_TO,
            NOT_EQUAL_TO -> true;
        default -> false;
      };
    }
    return false;
  }

  private static boolean mentions(Tree tree, String name) {
    boolean[] seen = {false};
    new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree id, Void unused) {
        seen[0] |= id.getName().contentEquals(name);
        return null;
      }
    }.scan(tree, null);
    return seen[0];
  }
}
