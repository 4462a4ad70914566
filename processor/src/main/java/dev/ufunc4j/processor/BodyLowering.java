package dev.ufunc4j.processor;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.ufunc4j.processor.Expr.BinaryOp;
import dev.ufunc4j.processor.Expr.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Reads an {@code @Elementwise} method body through the javac Trees API and lowers it to {@link
 * Body}. Every unsupported construct is reported on its own sub-tree; lowering goes on after an
 * error so that one compile shows every problem of a body.
 */
final class BodyLowering {

  private final Trees trees;
  private final Report report;
  /** Errors reported while lowering: a body lowered without new ones is complete. */
  private int errors;
  /** The methods being lowered, outermost first: the op's, then the ones it inlines. */
  private final List<ExecutableElement> inProgress = new ArrayList<>();
  /**
   * The bodies of called methods, lowered once per body type over {@link Expr.Operand}
   * placeholders for their parameters (empty after an error), then inlined at every call.
   */
  private final Map<Callee, Optional<Body>> callees = new HashMap<>();

  private record Callee(ExecutableElement method, ValueType bodyType) {}

  /**
   * Whether an inlined call to an op that declares a {@code @Derivative} is marked ({@link
   * Expr.OpCall}), so that the caller's gradient uses the declared derivative for the call's part.
   */
  private final boolean markCalls;
  /** Per called op: its body and declared derivatives, empty when it declares none. */
  private final Map<ExecutableElement, Optional<Derivatives.Callee>> derivativesOfCallees =
      new HashMap<>();
  /**
   * Lowers the {@code @Derivative} methods of called ops, without marks and without reporting:
   * the op's own class checks and reports them ({@link DerivativeCollector}).
   */
  private BodyLowering derivativeLowering;

  BodyLowering(Trees trees, Report report) {
    this(trees, report, true);
  }

  /** @param markCalls whether to mark calls to ops that declare a derivative (see above) */
  BodyLowering(Trees trees, Report report, boolean markCalls) {
    this.trees = trees;
    this.report = report;
    this.markCalls = markCalls;
  }

  /**
   * Lowers {@code method}'s body, computing in {@code bodyType}; {@code params} maps parameter
   * names to their operand or scalar references. Empty when an error was reported.
   */
  Optional<Body> lower(ExecutableElement method, ValueType bodyType, Map<String, Expr> params) {
    return lower(method, bodyType, params, null);
  }

  /**
   * Lowers the body of an op that returns {@code results} (a record: several results), or of
   * one that returns a single value when {@code results} is null.
   */
  Optional<Body> lower(ExecutableElement method, ValueType bodyType, Map<String, Expr> params,
      OpModel.Results results) {
    TreePath methodPath = trees.getPath(method);
    MethodTree methodTree = (MethodTree) methodPath.getLeaf();
    BlockTree block = methodTree.getBody();
    if (block == null) {
      report.error(method, Message.NO_BODY, method.getSimpleName());
      return Optional.empty();
    }
    // The body's own names, so that the locals inlined calls add take other ones.
    Set<String> taken = new HashSet<>(params.keySet());
    for (StatementTree st : block.getStatements()) {
      if (st instanceof VariableTree v) {
        taken.add(v.getName().toString());
      }
    }
    List<Body.Local> locals = new ArrayList<>();
    Scope scope = new Scope(bodyType, params, locals, taken);
    int errorsBefore = errors;
    TreePath blockPath = new TreePath(methodPath, block);
    Expr result = null;
    List<Expr> components = null;
    inProgress.add(method);
    try {
      List<? extends StatementTree> statements = block.getStatements();
      for (int i = 0; i < statements.size(); i++) {
        StatementTree st = statements.get(i);
        TreePath path = new TreePath(blockPath, st);
        boolean last = i == statements.size() - 1;
        if (st instanceof VariableTree v && !last) {
          lowerLocal(path, v, scope, locals);
        } else if (st instanceof ReturnTree r && last && r.getExpression() != null
            && results != null) {
          components = components(new TreePath(path, r.getExpression()), method, results, scope);
        } else if (st instanceof ReturnTree r && last && r.getExpression() != null) {
          result = scope.lower(new TreePath(path, r.getExpression()));
        } else {
          error(path, Message.UNSUPPORTED_STATEMENT, describe(st));
        }
      }
    } finally {
      inProgress.remove(inProgress.size() - 1);
    }
    if (errors > errorsBefore || (results == null ? result == null : components == null)) {
      return Optional.empty();
    }
    return Optional.of(results == null ? new Body(locals, result)
        : new Body(locals, null, components));
  }

  /**
   * The components of {@code return new R(e1, e2, ...)}, each lowered as its component's type
   * asks; null after reporting a return of another form ({@code [Elementwise/RecordReturn]}, at
   * the returned expression) or an error in a component.
   */
  private List<Expr> components(TreePath path, ExecutableElement method, OpModel.Results results,
      Scope scope) {
    Tree tree = path.getLeaf();
    while (tree instanceof ParenthesizedTree p) {
      path = new TreePath(path, p.getExpression());
      tree = p.getExpression();
    }
    List<OpModel.Component> wanted = results.components();
    boolean canonical = tree instanceof NewClassTree n
        && n.getClassBody() == null && n.getEnclosingExpression() == null
        && n.getArguments().size() == wanted.size()
        && trees.getElement(path) instanceof ExecutableElement constructor
        && constructor.getEnclosingElement() instanceof TypeElement owner
        && owner.getQualifiedName().contentEquals(results.canonicalName());
    if (!canonical) {
      error(path, Message.RECORD_RETURN, method.getSimpleName(), results.simpleName(),
          results.simpleName(), wanted.stream().map(c -> c.type().javaName() + " " + c.name())
              .collect(Collectors.joining(", ")), tree);
      return null;
    }
    List<Expr> lowered = new ArrayList<>();
    List<? extends ExpressionTree> args = ((NewClassTree) tree).getArguments();
    for (int i = 0; i < args.size(); i++) {
      TreePath arg = new TreePath(path, args.get(i));
      Expr e = wanted.get(i).type() == ValueType.BOOLEAN ? scope.checkedLower(arg)
          : scope.lowerNumeric(arg);
      if (e != null && e.type() != wanted.get(i).type()) {
        error(arg, Message.UNSUPPORTED_OPERATOR, "with operand " + args.get(i),
            e.type().javaName(), "component " + wanted.get(i).name() + " is "
                + wanted.get(i).type().javaName());
        e = null;
      }
      lowered.add(e);
    }
    return lowered.contains(null) ? null : lowered;
  }

  /** Reports an error on a sub-tree and counts it (the report drops a repeated one). */
  private void error(TreePath path, Message message, Object... args) {
    errors++;
    report.error(path, message, args);
  }

  private void lowerLocal(TreePath path, VariableTree v, Scope scope, List<Body.Local> locals) {
    String name = v.getName().toString();
    Element element = trees.getElement(path);
    TypeMirror type = element != null ? element.asType() : trees.getTypeMirror(path);
    ValueType localType = switch (type.getKind()) {
      case BOOLEAN -> ValueType.BOOLEAN;
      case DOUBLE -> scope.bodyType == ValueType.DOUBLE ? ValueType.DOUBLE : null;
      case LONG -> scope.bodyType == ValueType.LONG ? ValueType.LONG : null;
      default -> null;
    };
    if (localType == null || scope.bodyType == ValueType.BOOLEAN && localType != ValueType.BOOLEAN) {
      error(
          path,
          Message.LOCAL_TYPE,
          name,
          type,
          scope.bodyType.javaName(),
          scope.bodyType.javaName());
      return;
    }
    if (v.getInitializer() == null) {
      error(path, Message.ASSIGNMENT, "local " + name + " without an initializer");
      return;
    }
    Expr init = scope.lower(new TreePath(path, v.getInitializer()));
    if (init != null) {
      locals.add(new Body.Local(name, init));
      scope.locals.put(name, new Expr.LocalRef(name, localType));
    }
  }

  /** {@code e} with the template's parameters and locals replaced by the call's values. */
  private static Expr substitute(Expr e, List<Expr> args, Map<String, Expr> locals) {
    return Expr.mapLeaves(e, leaf -> switch (leaf) {
      case Expr.Operand o -> args.get(o.index());
      case Expr.LocalRef l -> locals.get(l.name());
      default -> leaf;
    });
  }

  /** How often the template reads parameter {@code index}. */
  private static int uses(Body template, int index) {
    int[] count = {0};
    template.any(x -> {
      if (x instanceof Expr.Operand o && o.index() == index) {
        count[0]++;
      }
      return false;
    });
    return count[0];
  }

  // ------------------------------------------------------------ derivatives of called ops

  /**
   * The body and declared derivatives of {@code method} when it is an {@code @Elementwise} op
   * whose class declares a {@code @Derivative} for it; empty otherwise (a helper, or an op whose
   * derivative is derived from its body anyway).
   */
  private Optional<Derivatives.Callee> derivatives(ExecutableElement method, Body template) {
    Optional<Derivatives.Callee> known = derivativesOfCallees.get(method);
    if (known == null) {
      Optional<String> op = annotationValues(method, OpCollector.ELEMENTWISE)
          .map(values -> values.getOrDefault("name", ""))
          .map(name -> name.isEmpty() ? method.getSimpleName().toString() : name);
      Map<Integer, Body> declared = op.isEmpty() ? Map.of() : declaredDerivatives(method, op.get());
      known = declared.isEmpty() ? Optional.empty() : Optional.of(new Derivatives.Callee(
          op.get(), method.getParameters().size(), template, declared));
      derivativesOfCallees.put(method, known);
    }
    return known;
  }

  /**
   * The {@code @Derivative} methods of {@code op}, declared in {@code method}'s class, as gradient
   * bodies over {@link Derivatives.Callee}'s placeholders, by the operand's parameter position. A
   * declaration that does not fit is skipped here: the op's own class reports it, and fails the
   * compilation.
   */
  private Map<Integer, Body> declaredDerivatives(ExecutableElement method, String op) {
    List<? extends VariableElement> params = method.getParameters();
    int n = params.size();
    Map<Integer, Body> declared = new HashMap<>();
    for (Element member : method.getEnclosingElement().getEnclosedElements()) {
      if (!(member instanceof ExecutableElement d)
          || !d.getModifiers().contains(Modifier.STATIC)
          || d.getReturnType().getKind() != TypeKind.DOUBLE) {
        continue;
      }
      Optional<Map<String, String>> values =
          annotationValues(d, DerivativeCollector.DERIVATIVE);
      if (values.isEmpty() || !op.equals(values.get().get("op"))) {
        continue;
      }
      List<? extends VariableElement> dp = d.getParameters();
      int shift = dp.size() - n;
      if (shift != 0 && shift != 1) {
        continue;
      }
      Map<String, Expr> placeholders = new LinkedHashMap<>();
      Expr.Operand grad = new Expr.Operand(n, "grad", ValueType.DOUBLE);
      if (shift == 1) {
        placeholders.put(dp.get(0).getSimpleName().toString(), grad);
      }
      boolean fits = true;
      for (int i = 0; i < n; i++) {
        VariableElement p = params.get(i);
        fits &= dp.get(i + shift).asType().getKind() == p.asType().getKind();
        placeholders.put(dp.get(i + shift).getSimpleName().toString(),
            new Expr.Operand(i, p.getSimpleName().toString(), valueType(p.asType())));
      }
      int operand = operand(params, values.get().getOrDefault("operand", ""));
      if (!fits || operand < 0 || declared.containsKey(operand)) {
        continue;
      }
      if (derivativeLowering == null) {
        derivativeLowering = new BodyLowering(trees, new Report(), false);
      }
      Optional<Body> body = derivativeLowering.lower(d, ValueType.DOUBLE, placeholders);
      // The partial-derivative form is multiplied by the gradient, as DerivativeCollector does.
      body.ifPresent(b -> declared.put(operand, shift == 1 ? b
          : new Body(b.locals(), Simplify.timesGradient(grad, b.result()))));
    }
    return declared;
  }

  /**
   * The position of the floating tensor parameter named {@code name}, or of the only one when
   * {@code name} is empty; -1 when there is none.
   */
  private static int operand(List<? extends VariableElement> params, String name) {
    int found = -1;
    for (int i = 0; i < params.size(); i++) {
      VariableElement p = params.get(i);
      boolean floating = p.asType().getKind() == TypeKind.DOUBLE
          && annotationValues(p, OpCollector.SCALAR).isEmpty();
      if (floating && (name.isEmpty() || p.getSimpleName().contentEquals(name))) {
        if (found >= 0) {
          return -1; // an unnamed operand of an op with several
        }
        found = i;
      }
    }
    return found;
  }

  /** The explicit string values of {@code e}'s annotation {@code annotation}, if it has one. */
  private static Optional<Map<String, String>> annotationValues(Element e, String annotation) {
    for (javax.lang.model.element.AnnotationMirror a : e.getAnnotationMirrors()) {
      if (((TypeElement) a.getAnnotationType().asElement()).getQualifiedName()
          .contentEquals(annotation)) {
        Map<String, String> values = new HashMap<>();
        a.getElementValues().forEach((k, v) ->
            values.put(k.getSimpleName().toString(), String.valueOf(v.getValue())));
        return Optional.of(values);
      }
    }
    return Optional.empty();
  }

  private static ValueType valueType(TypeMirror t) {
    return switch (t.getKind()) {
      case DOUBLE -> ValueType.DOUBLE;
      case LONG -> ValueType.LONG;
      case BOOLEAN -> ValueType.BOOLEAN;
      default -> null;
    };
  }

  private static String describe(Tree t) {
    return switch (t.getKind()) {
      case FOR_LOOP, ENHANCED_FOR_LOOP -> "a for loop";
      case WHILE_LOOP -> "a while loop";
      case DO_WHILE_LOOP -> "a do-while loop";
      case IF -> "an if statement";
      case SWITCH -> "a switch statement";
      case TRY -> "a try statement";
      case THROW -> "a throw statement";
      case RETURN -> "a return before the last statement";
      case EXPRESSION_STATEMENT -> "an expression statement";
      case VARIABLE -> "a local declaration after the return";
      default -> "a " + t.getKind().toString().toLowerCase(Locale.ROOT).replace('_', ' ');
    };
  }

  /** The names in scope and the lowering of expressions. */
  private final class Scope {
    final ValueType bodyType;
    final Map<String, Expr> params;
    final Map<String, Expr> locals = new HashMap<>();
    /** The body's locals in order: the declared ones and those inlined calls add. */
    final List<Body.Local> bodyLocals;
    /** Every name the body's locals and parameters use. */
    final Set<String> taken;
    /**
     * How many {@code ?:} branches or right sides of {@code &&}/{@code ||} enclose the node being
     * lowered: Java evaluates it only in some lanes there.
     */
    int conditional;

    Scope(ValueType bodyType, Map<String, Expr> params, List<Body.Local> bodyLocals,
        Set<String> taken) {
      this.bodyType = bodyType;
      this.params = params;
      this.bodyLocals = bodyLocals;
      this.taken = taken;
    }

    /**
     * {@code value} as a new local of the body named after {@code name}, computed once though
     * read several times (an argument an inlined method reads twice, a step of {@code
     * Long.bitCount}); a leaf stays itself. A long division under a condition stays in place
     * (read where it is used): as a local it would be computed, and could throw, in lanes where
     * Java does not evaluate it.
     */
    Expr bind(Expr value, String name) {
      if (value instanceof Expr.Operand || value instanceof Expr.ScalarRef
          || value instanceof Expr.LocalRef || value instanceof Expr.Literal
          || conditional > 0 && new Body(List.of(), value).divides()) {
        return value;
      }
      String unique = name;
      for (int i = 2; !taken.add(unique); i++) {
        unique = name + i;
      }
      bodyLocals.add(new Body.Local(unique, value));
      return new Expr.LocalRef(unique, value.type());
    }

    /** Lowers a node that Java evaluates only in some lanes (see {@link #conditional}). */
    private Expr lowerConditionally(TreePath path) {
      conditional++;
      try {
        return checkedLower(path);
      } finally {
        conditional--;
      }
    }

    /** The lowered expression, or null after reporting an error. */
    Expr lower(TreePath path) {
      Tree tree = path.getLeaf();
      return switch (tree.getKind()) {
        case PARENTHESIZED ->
            lower(new TreePath(path, ((ParenthesizedTree) tree).getExpression()));
        case INT_LITERAL, LONG_LITERAL, FLOAT_LITERAL, DOUBLE_LITERAL, BOOLEAN_LITERAL ->
            literal(path, ((LiteralTree) tree).getValue());
        case CHAR_LITERAL, STRING_LITERAL, NULL_LITERAL -> {
          error(path, Message.UNSUPPORTED_LITERAL, tree);
          yield null;
        }
        case IDENTIFIER, MEMBER_SELECT -> name(path);
        case METHOD_INVOCATION -> call(path, (MethodInvocationTree) tree);
        case TYPE_CAST -> cast(path, (TypeCastTree) tree);
        case CONDITIONAL_EXPRESSION -> conditional(path, (ConditionalExpressionTree) tree);
        case UNARY_MINUS, UNARY_PLUS, LOGICAL_COMPLEMENT, BITWISE_COMPLEMENT ->
            unary(path, (UnaryTree) tree);
        case PLUS, MINUS, MULTIPLY, DIVIDE, REMAINDER, LESS_THAN, LESS_THAN_EQUAL, GREATER_THAN,
            GREATER_THAN_EQUAL, EQUAL_TO, NOT_EQUAL_TO, CONDITIONAL_AND, CONDITIONAL_OR, AND, OR,
            XOR, LEFT_SHIFT, RIGHT_SHIFT, UNSIGNED_RIGHT_SHIFT ->
            binary(path, (BinaryTree) tree);
        case NEW_CLASS, NEW_ARRAY -> {
          error(path, Message.ALLOCATION, tree);
          yield null;
        }
        case ASSIGNMENT, PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT,
            PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
            REMAINDER_ASSIGNMENT, AND_ASSIGNMENT, OR_ASSIGNMENT, XOR_ASSIGNMENT,
            LEFT_SHIFT_ASSIGNMENT, RIGHT_SHIFT_ASSIGNMENT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> {
          error(path, Message.ASSIGNMENT, tree);
          yield null;
        }
        default -> {
          error(path, Message.UNSUPPORTED_EXPRESSION, describeExpression(tree));
          yield null;
        }
      };
    }

    private String describeExpression(Tree tree) {
      return switch (tree.getKind()) {
        case ARRAY_ACCESS -> "array access " + tree;
        case LAMBDA_EXPRESSION -> "a lambda";
        case MEMBER_REFERENCE -> "a method reference";
        case INSTANCE_OF -> "instanceof";
        case SWITCH_EXPRESSION -> "a switch expression";
        default -> tree.toString();
      };
    }

    private TypeKind javaType(TreePath path) {
      TypeMirror t = trees.getTypeMirror(path);
      if (t == null) {
        // javac attributes a class's method bodies when asked for an element in them; until
        // then its expressions have no type (a body whose first node is a binary operation).
        trees.getElement(path);
        t = trees.getTypeMirror(path);
      }
      return t == null ? TypeKind.ERROR : t.getKind();
    }

    private static boolean isIntLike(TypeKind k) {
      return k == TypeKind.INT || k == TypeKind.SHORT || k == TypeKind.BYTE || k == TypeKind.CHAR;
    }

    /** A constant in the body's numeric type (or boolean). */
    private Expr literal(TreePath path, Object value) {
      if (value instanceof Boolean b) {
        return new Expr.Literal(b, ValueType.BOOLEAN);
      }
      if (value instanceof Character || value instanceof String) {
        error(path, Message.UNSUPPORTED_LITERAL, path.getLeaf());
        return null;
      }
      Number n = (Number) value;
      if (bodyType == ValueType.DOUBLE) {
        return new Expr.Literal(n.doubleValue(), ValueType.DOUBLE);
      }
      if (n instanceof Double || n instanceof Float) {
        if (bodyType == ValueType.LONG) {
          error(path, Message.FLOATING_IN_INTEGRAL_BODY, "literal " + path.getLeaf());
        } else {
          error(path, Message.UNSUPPORTED_LITERAL, path.getLeaf());
        }
        return null;
      }
      if (bodyType == ValueType.BOOLEAN) {
        error(path, Message.UNSUPPORTED_LITERAL, path.getLeaf());
        return null;
      }
      return new Expr.Literal(n.longValue(), ValueType.LONG);
    }

    private Expr name(TreePath path) {
      Element e = trees.getElement(path);
      String text = path.getLeaf().toString();
      if (e == null) {
        error(path, Message.UNSUPPORTED_EXPRESSION, text);
        return null;
      }
      switch (e.getKind()) {
        case PARAMETER -> {
          Expr p = params.get(e.getSimpleName().toString());
          if (p != null) {
            return p;
          }
        }
        case LOCAL_VARIABLE -> {
          Expr l = locals.get(e.getSimpleName().toString());
          if (l != null) {
            return l;
          }
          // A local whose declaration failed was already reported.
          return null;
        }
        case FIELD -> {
          Object constant = ((VariableElement) e).getConstantValue();
          if (constant != null) {
            return literal(path, constant);
          }
        }
        default -> {}
      }
      error(path, Message.FIELD_ACCESS, text);
      return null;
    }

    /**
     * A call, resolved in this order (a new kernel function is an entry of the first or second
     * table, nothing else):
     *
     * <ol>
     *   <li>{@link MathFunction}: the functions the emitters compute lanewise ({@code Math.exp});
     *   <li>{@link JdkFunctions}: the JDK's other elementwise functions, written out in the body
     *       language ({@code Math.round}, {@code Long.bitCount});
     *   <li>a static method of this compilation, an {@code @Elementwise} op or a helper: its body
     *       is inlined ({@link #inline});
     *   <li>anything else is refused, naming the nearest function of the first two tables, or
     *       saying how to make a method of another compilation callable.
     * </ol>
     */
    private Expr call(TreePath path, MethodInvocationTree tree) {
      Element e = trees.getElement(path);
      String shown = tree.getMethodSelect().toString();
      if (!(e instanceof ExecutableElement method)
          || !(method.getEnclosingElement() instanceof TypeElement owner)) {
        error(path, Message.UNKNOWN_CALL, shown + "(...)", Callables.list());
        return null;
      }
      String ownerName = owner.getQualifiedName().toString();
      String name = method.getSimpleName().toString();
      String qualified = owner.getSimpleName() + "." + name;
      Optional<MathFunction> math = MathFunction.of(ownerName, name);
      if (math.isPresent()) {
        return mathCall(path, tree, method, math.get(), qualified);
      }
      Optional<JdkFunctions.Function> jdk = JdkFunctions.of(ownerName, name);
      if (jdk.isPresent()) {
        return jdkCall(path, tree, jdk.get());
      }
      if (trees.getPath(method) != null) {
        return inline(path, tree, method);
      }
      if (ownerName.startsWith("java.")) {
        error(path, Message.UNSUPPORTED_CALL, qualified, Callables.nearest(name),
            Callables.list());
      } else if (annotationValues(method, OpCollector.ELEMENTWISE).isPresent()) {
        // An op of a library or of the built-ins: javac gives its signature and annotations
        // from the class file, but not its body (docs/processor.md, "Ops of other jars").
        String op = annotationValues(method, OpCollector.ELEMENTWISE).get()
            .getOrDefault("name", "");
        error(path, Message.FOREIGN_OP, qualified, op.isEmpty() ? name : op, ownerName);
      } else {
        error(path, Message.UNKNOWN_CALL, qualified + "(...)", Callables.list());
      }
      return null;
    }

    private Expr mathCall(TreePath path, MethodInvocationTree tree, ExecutableElement method,
        MathFunction fn, String qualified) {
      boolean floatingForm =
          method.getReturnType().getKind() == TypeKind.DOUBLE
              || method.getReturnType().getKind() == TypeKind.FLOAT;
      if (bodyType == ValueType.LONG && (floatingForm || !fn.hasLongForm())) {
        error(path, Message.FLOATING_IN_INTEGRAL_BODY, qualified);
        return null;
      }
      // SpecialMath.ipow has only its long form.
      if (bodyType == ValueType.DOUBLE && fn.integralOnly()) {
        error(path, Message.INTEGRAL_IN_FLOATING_BODY, qualified);
        return null;
      }
      if (bodyType == ValueType.BOOLEAN) {
        error(path, Message.BOOLEAN_CALL, qualified);
        return null;
      }
      List<Expr> args = lowerArguments(path, tree);
      if (args != null && fn == MathFunction.SCALB && !(args.get(1) instanceof Expr.Literal)) {
        error(path, Message.SCALB_SCALE, tree.getArguments().get(1));
        return null;
      }
      return args == null ? null : new Expr.Call(fn, args, bodyType);
    }

    private Expr jdkCall(TreePath path, MethodInvocationTree tree, JdkFunctions.Function fn) {
      if (!fn.bodies().contains(bodyType)) {
        if (bodyType == ValueType.BOOLEAN) {
          error(path, Message.BOOLEAN_CALL, fn.shown());
        } else if (bodyType == ValueType.LONG) {
          error(path, Message.FLOATING_IN_INTEGRAL_BODY, fn.shown());
        } else {
          error(path, Message.INTEGRAL_IN_FLOATING_BODY, fn.shown());
        }
        return null;
      }
      List<Expr> args = lowerArguments(path, tree);
      return args == null ? null : fn.expansion().expand(args, bodyType, this::bind);
    }

    /** The arguments of a kernel function, each numeric in the body type; null after an error. */
    private List<Expr> lowerArguments(TreePath path, MethodInvocationTree tree) {
      List<Expr> args = new ArrayList<>();
      boolean ok = true;
      for (ExpressionTree arg : tree.getArguments()) {
        Expr a = lowerNumeric(new TreePath(path, arg));
        ok &= a != null;
        args.add(a);
      }
      return ok ? args : null;
    }

    /**
     * A static method of this compilation, inlined: its body (lowered once per body type, with
     * placeholders for its parameters) with the arguments in place of the parameters, its locals
     * and every argument it reads more than once becoming locals of this body ({@link #bind}).
     * The kernel computes the call within its one fused loop; the method itself stays ordinary
     * Java. Derivatives see the inlined expression, so they flow through the call.
     */
    private Expr inline(TreePath path, MethodInvocationTree tree, ExecutableElement method) {
      String shown = method.getSimpleName() + "(...)";
      if (!method.getModifiers().contains(Modifier.STATIC)) {
        error(path, Message.CALL_NOT_STATIC, shown);
        return null;
      }
      if (inProgress.contains(method)) {
        error(path, Message.RECURSION, shown, inProgress.stream()
            .map(m -> m.getSimpleName().toString())
            .collect(Collectors.joining(" -> ", "", " -> " + method.getSimpleName())));
        return null;
      }
      List<ValueType> paramTypes = new ArrayList<>();
      for (VariableElement p : method.getParameters()) {
        paramTypes.add(valueType(p.asType()));
      }
      ValueType returnType = valueType(method.getReturnType());
      List<ValueType> allTypes = new ArrayList<>(paramTypes);
      allTypes.add(returnType);
      for (ValueType t : allTypes) {
        if (t == null || t != bodyType && t != ValueType.BOOLEAN) {
          if (bodyType == ValueType.LONG && t == ValueType.DOUBLE) {
            error(path, Message.FLOATING_IN_INTEGRAL_BODY, "the call " + tree);
          } else {
            error(path, Message.CALL_TYPES, shown, OpCollector.signature(method),
                method.getReturnType(), bodyType.javaName());
          }
          return null;
        }
      }
      List<Expr> args = new ArrayList<>();
      boolean ok = true;
      for (int i = 0; i < paramTypes.size(); i++) {
        TreePath argPath = new TreePath(path, tree.getArguments().get(i));
        Expr a = paramTypes.get(i) == ValueType.BOOLEAN ? checkedLower(argPath)
            : lowerNumeric(argPath);
        ok &= a != null;
        args.add(a);
      }
      if (!ok) {
        return null;
      }
      Optional<Body> template = template(method);
      if (template.isEmpty()) {
        error(path, Message.CALL_NOT_INLINED, shown);
        return null;
      }
      String prefix = method.getSimpleName().toString();
      List<Expr> bound = new ArrayList<>();
      for (int i = 0; i < args.size(); i++) {
        boolean readOnce = uses(template.get(), i) == 1;
        bound.add(readOnce ? args.get(i)
            : bind(args.get(i), prefix + "_" + method.getParameters().get(i).getSimpleName()));
      }
      Map<String, Expr> inlinedLocals = new HashMap<>();
      for (Body.Local l : template.get().locals()) {
        inlinedLocals.put(l.name(),
            bind(substitute(l.init(), bound, inlinedLocals), prefix + "_" + l.name()));
      }
      Expr value = substitute(template.get().result(), bound, inlinedLocals);
      if (markCalls && bodyType == ValueType.DOUBLE) {
        Optional<Derivatives.Callee> callee = derivatives(method, template.get());
        if (callee.isPresent()) {
          return new Expr.OpCall(value, bound, callee.get());
        }
      }
      return value;
    }

    /** The method's body over placeholders for its parameters, lowered in this body type. */
    private Optional<Body> template(ExecutableElement method) {
      Callee key = new Callee(method, bodyType);
      Optional<Body> known = callees.get(key);
      if (known == null) {
        Map<String, Expr> placeholders = new LinkedHashMap<>();
        List<? extends VariableElement> params = method.getParameters();
        for (int i = 0; i < params.size(); i++) {
          String pname = params.get(i).getSimpleName().toString();
          placeholders.put(pname, new Expr.Operand(i, pname, valueType(params.get(i).asType())));
        }
        if (((MethodTree) trees.getPath(method).getLeaf()).getBody() == null) {
          known = Optional.empty();
        } else {
          known = BodyLowering.this.lower(method, bodyType, placeholders);
        }
        callees.put(key, known);
      }
      return known;
    }
    /** Lowers an operand that must be numeric in the body type. */
    private Expr lowerNumeric(TreePath path) {
      Expr e = checkedLower(path);
      if (e != null && e.type() != bodyType) {
        error(
            path,
            Message.UNSUPPORTED_OPERATOR,
            "with operand " + path.getLeaf(),
            e.type().javaName(),
            "a " + bodyType.javaName() + " operand is expected here");
        return null;
      }
      return e;
    }

    /**
     * Lowers after checking the javac type of the node: int arithmetic and floating values in a
     * long body are refused here, on the node itself.
     */
    private Expr checkedLower(TreePath path) {
      TypeKind k = javaType(path);
      Tree tree = path.getLeaf();
      if (isIntLike(k) && !isConstantLike(tree) && !isExactIntCall(path)) {
        error(path, Message.INT_ARITHMETIC, tree, bodyType.javaName());
        return null;
      }
      if ((k == TypeKind.DOUBLE || k == TypeKind.FLOAT) && bodyType != ValueType.DOUBLE) {
        if (bodyType == ValueType.LONG) {
          error(path, Message.FLOATING_IN_INTEGRAL_BODY, tree);
        } else {
          error(path, Message.UNSUPPORTED_OPERATOR, tree, "boolean", "no arithmetic");
        }
        return null;
      }
      return lower(path);
    }

    /** A call whose int result is exact ({@code Long.bitCount}): see {@link JdkFunctions}. */
    private boolean isExactIntCall(TreePath path) {
      return path.getLeaf() instanceof MethodInvocationTree
          && trees.getElement(path) instanceof ExecutableElement m
          && m.getEnclosingElement() instanceof TypeElement owner
          && JdkFunctions.intResultIsExact(owner.getQualifiedName().toString(),
              m.getSimpleName().toString());
    }

    /** Int-typed trees we accept: literals and constants, possibly negated or chosen by ?:. */
    private boolean isConstantLike(Tree tree) {
      return switch (tree.getKind()) {
        case INT_LITERAL, CHAR_LITERAL, IDENTIFIER, MEMBER_SELECT -> true;
        case PARENTHESIZED -> isConstantLike(((ParenthesizedTree) tree).getExpression());
        case UNARY_MINUS, UNARY_PLUS, BITWISE_COMPLEMENT ->
            isConstantLike(((UnaryTree) tree).getExpression());
        case CONDITIONAL_EXPRESSION ->
            isConstantLike(((ConditionalExpressionTree) tree).getTrueExpression())
                && isConstantLike(((ConditionalExpressionTree) tree).getFalseExpression());
        default -> false;
      };
    }

    private Expr cast(TreePath path, TypeCastTree tree) {
      TypeKind target = tree.getType() instanceof PrimitiveTypeTree primitive
          ? primitive.getPrimitiveTypeKind()
          : javaType(path);
      ValueType wanted = switch (target) {
        case DOUBLE -> ValueType.DOUBLE;
        case LONG -> ValueType.LONG;
        case BOOLEAN -> ValueType.BOOLEAN;
        default -> null;
      };
      if (wanted == null || wanted != bodyType && wanted != ValueType.BOOLEAN) {
        error(
            path,
            Message.UNSUPPORTED_CAST,
            tree.getType(),
            bodyType.javaName(),
            bodyType.javaName());
        return null;
      }
      TreePath inner = new TreePath(path, tree.getExpression());
      TypeKind source = javaType(inner);
      if (bodyType == ValueType.DOUBLE
          && source != TypeKind.DOUBLE
          && source != TypeKind.BOOLEAN
          && !isConstantLike(tree.getExpression())
          && !(tree.getExpression() instanceof LiteralTree)) {
        error(path, Message.UNSUPPORTED_CAST, tree.getType(), "double", "double");
        return null;
      }
      return isIntLike(source) || source == TypeKind.LONG || source == TypeKind.FLOAT
          ? lower(inner)
          : checkedLower(inner);
    }

    private Expr conditional(TreePath path, ConditionalExpressionTree tree) {
      Expr c = checkedLower(new TreePath(path, tree.getCondition()));
      Expr t = lowerConditionally(new TreePath(path, tree.getTrueExpression()));
      Expr f = lowerConditionally(new TreePath(path, tree.getFalseExpression()));
      if (c == null || t == null || f == null) {
        return null;
      }
      if (t.type() != f.type()) {
        error(path, Message.UNSUPPORTED_OPERATOR, "?:", t.type().javaName() + " and "
            + f.type().javaName(), "both branches must have one type");
        return null;
      }
      return new Expr.Conditional(c, t, f, t.type());
    }

    private Expr unary(TreePath path, UnaryTree tree) {
      TreePath inner = new TreePath(path, tree.getExpression());
      Expr e = isIntLike(javaType(path)) ? lower(inner) : checkedLower(inner);
      if (e == null) {
        return null;
      }
      return switch (tree.getKind()) {
        case UNARY_PLUS -> e;
        case UNARY_MINUS -> {
          if (e.type() == ValueType.BOOLEAN) {
            error(path, Message.UNSUPPORTED_OPERATOR, "-", "boolean", "negate numbers");
            yield null;
          }
          if (e instanceof Expr.Literal lit) {
            yield lit.type() == ValueType.DOUBLE
                ? new Expr.Literal(-lit.doubleValue(), ValueType.DOUBLE)
                : new Expr.Literal(-lit.longValue(), ValueType.LONG);
          }
          yield new Expr.Unary(UnaryOp.NEG, e, e.type());
        }
        case LOGICAL_COMPLEMENT -> new Expr.Unary(UnaryOp.NOT, e, ValueType.BOOLEAN);
        default -> {
          if (e.type() != ValueType.LONG) {
            error(path, Message.UNSUPPORTED_OPERATOR, "~", e.type().javaName(),
                "~ applies to long operands");
            yield null;
          }
          yield e instanceof Expr.Literal lit
              ? new Expr.Literal(~lit.longValue(), ValueType.LONG)
              : new Expr.Unary(UnaryOp.BIT_NOT, e, ValueType.LONG);
        }
      };
    }

    private Expr binary(TreePath path, BinaryTree tree) {
      TypeKind resultKind = javaType(path);
      if (isIntLike(resultKind)) {
        error(path, Message.INT_ARITHMETIC, tree, bodyType.javaName());
        return null;
      }
      if (resultKind == TypeKind.LONG && bodyType == ValueType.DOUBLE) {
        // Only a long-valued call (Math.round) gets here: long arithmetic would wrap at 2^63
        // where the double body's arithmetic rounds.
        error(path, Message.LONG_IN_DOUBLE_BODY, tree);
        return null;
      }
      BinaryOp op = switch (tree.getKind()) {
        case PLUS -> BinaryOp.ADD;
        case MINUS -> BinaryOp.SUB;
        case MULTIPLY -> BinaryOp.MUL;
        case DIVIDE -> BinaryOp.DIV;
        case REMAINDER -> BinaryOp.REM;
        case LESS_THAN -> BinaryOp.LT;
        case LESS_THAN_EQUAL -> BinaryOp.LE;
        case GREATER_THAN -> BinaryOp.GT;
        case GREATER_THAN_EQUAL -> BinaryOp.GE;
        case EQUAL_TO -> BinaryOp.EQ;
        case NOT_EQUAL_TO -> BinaryOp.NE;
        case CONDITIONAL_AND -> BinaryOp.AND;
        case CONDITIONAL_OR -> BinaryOp.OR;
        case AND -> BinaryOp.BIT_AND;
        case OR -> BinaryOp.BIT_OR;
        case XOR -> BinaryOp.BIT_XOR;
        case LEFT_SHIFT -> BinaryOp.SHL;
        case RIGHT_SHIFT -> BinaryOp.SHR;
        default -> BinaryOp.USHR;
      };
      TreePath rightPath = new TreePath(path, tree.getRightOperand());
      Expr left = checkedLower(new TreePath(path, tree.getLeftOperand()));
      // A shift count may be an int constant: Java masks it the same way whatever its type.
      Expr right = op.isShift() && isIntLike(javaType(rightPath))
          ? lower(rightPath)
          : op == BinaryOp.AND || op == BinaryOp.OR
              ? lowerConditionally(rightPath)
              : checkedLower(rightPath);
      if (left == null || right == null) {
        return null;
      }
      ValueType operands = left.type();
      if (operands != right.type()) {
        error(path, Message.UNSUPPORTED_OPERATOR, op.symbol,
            left.type().javaName() + " and " + right.type().javaName(),
            "both operands must have the body's type");
        return null;
      }
      String refusal = switch (operands) {
        case DOUBLE -> switch (op) {
          case AND, OR, BIT_AND, BIT_OR, BIT_XOR, SHL, SHR, USHR ->
              "bitwise and shift operators apply to long operands";
          default -> null;
        };
        case LONG -> op == BinaryOp.AND || op == BinaryOp.OR ? "&& and || need booleans" : null;
        case BOOLEAN -> switch (op) {
          case AND, OR, BIT_AND, BIT_OR, BIT_XOR, EQ, NE -> null;
          default -> "booleans support && || & | ^ == != and !";
        };
      };
      if (refusal != null) {
        error(path, Message.UNSUPPORTED_OPERATOR, op.symbol, operands.javaName(), refusal);
        return null;
      }
      ValueType type = op.isComparison() || operands == ValueType.BOOLEAN
          ? ValueType.BOOLEAN
          : operands;
      return new Expr.Binary(op, left, right, type);
    }
  }
}
