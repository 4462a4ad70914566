package dev.ufunc4j.processor;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
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

  BodyLowering(Trees trees, Report report) {
    this.trees = trees;
    this.report = report;
  }

  /**
   * Lowers {@code method}'s body, computing in {@code bodyType}; {@code params} maps parameter
   * names to their operand or scalar references. Empty when an error was reported.
   */
  Optional<Body> lower(ExecutableElement method, ValueType bodyType, Map<String, Expr> params) {
    TreePath methodPath = trees.getPath(method);
    MethodTree methodTree = (MethodTree) methodPath.getLeaf();
    BlockTree block = methodTree.getBody();
    if (block == null) {
      report.error(method, Message.NO_BODY, method.getSimpleName());
      return Optional.empty();
    }
    Scope scope = new Scope(bodyType, params);
    int errorsBefore = report.size();
    TreePath blockPath = new TreePath(methodPath, block);
    List<Body.Local> locals = new ArrayList<>();
    Expr result = null;
    List<? extends StatementTree> statements = block.getStatements();
    for (int i = 0; i < statements.size(); i++) {
      StatementTree st = statements.get(i);
      TreePath path = new TreePath(blockPath, st);
      boolean last = i == statements.size() - 1;
      if (st instanceof VariableTree v && !last) {
        lowerLocal(path, v, scope, locals);
      } else if (st instanceof ReturnTree r && last && r.getExpression() != null) {
        result = scope.lower(new TreePath(path, r.getExpression()));
      } else {
        report.error(path, Message.UNSUPPORTED_STATEMENT, describe(st));
      }
    }
    if (report.size() > errorsBefore || result == null) {
      return Optional.empty();
    }
    return Optional.of(new Body(locals, result));
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
      report.error(
          path,
          Message.LOCAL_TYPE,
          name,
          type,
          scope.bodyType.javaName(),
          scope.bodyType.javaName());
      return;
    }
    if (v.getInitializer() == null) {
      report.error(path, Message.ASSIGNMENT, "local " + name + " without an initializer");
      return;
    }
    Expr init = scope.lower(new TreePath(path, v.getInitializer()));
    if (init != null) {
      locals.add(new Body.Local(name, init));
      scope.locals.put(name, new Expr.LocalRef(name, localType));
    }
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

    Scope(ValueType bodyType, Map<String, Expr> params) {
      this.bodyType = bodyType;
      this.params = params;
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
          report.error(path, Message.UNSUPPORTED_LITERAL, tree);
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
          report.error(path, Message.ALLOCATION, tree);
          yield null;
        }
        case ASSIGNMENT, PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT,
            PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
            REMAINDER_ASSIGNMENT, AND_ASSIGNMENT, OR_ASSIGNMENT, XOR_ASSIGNMENT,
            LEFT_SHIFT_ASSIGNMENT, RIGHT_SHIFT_ASSIGNMENT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> {
          report.error(path, Message.ASSIGNMENT, tree);
          yield null;
        }
        default -> {
          report.error(path, Message.UNSUPPORTED_EXPRESSION, describeExpression(tree));
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
        report.error(path, Message.UNSUPPORTED_LITERAL, path.getLeaf());
        return null;
      }
      Number n = (Number) value;
      if (bodyType == ValueType.DOUBLE) {
        return new Expr.Literal(n.doubleValue(), ValueType.DOUBLE);
      }
      if (n instanceof Double || n instanceof Float) {
        if (bodyType == ValueType.LONG) {
          report.error(path, Message.FLOATING_IN_INTEGRAL_BODY, "literal " + path.getLeaf());
        } else {
          report.error(path, Message.UNSUPPORTED_LITERAL, path.getLeaf());
        }
        return null;
      }
      if (bodyType == ValueType.BOOLEAN) {
        report.error(path, Message.UNSUPPORTED_LITERAL, path.getLeaf());
        return null;
      }
      return new Expr.Literal(n.longValue(), ValueType.LONG);
    }

    private Expr name(TreePath path) {
      Element e = trees.getElement(path);
      String text = path.getLeaf().toString();
      if (e == null) {
        report.error(path, Message.UNSUPPORTED_EXPRESSION, text);
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
      report.error(path, Message.FIELD_ACCESS, text);
      return null;
    }

    private Expr call(TreePath path, MethodInvocationTree tree) {
      Element e = trees.getElement(path);
      String shown = tree.getMethodSelect().toString();
      MathFunction.Owner ownerClass = e instanceof ExecutableElement m
          && m.getEnclosingElement() instanceof TypeElement owner
          ? MathFunction.owner(owner.getQualifiedName()).orElse(null)
          : null;
      if (ownerClass == null) {
        report.error(path, Message.UNSUPPORTED_CALL, shown + "(...)", MathFunction.supportedList());
        return null;
      }
      ExecutableElement method = (ExecutableElement) e;
      String name = method.getSimpleName().toString();
      String qualified = ownerClass.simpleName + "." + name;
      MathFunction fn = MathFunction.byName(ownerClass, name).orElse(null);
      if (fn == null) {
        report.error(path, Message.UNSUPPORTED_CALL, qualified, MathFunction.supportedList());
        return null;
      }
      boolean floatingForm =
          method.getReturnType().getKind() == TypeKind.DOUBLE
              || method.getReturnType().getKind() == TypeKind.FLOAT;
      if (bodyType == ValueType.LONG && (floatingForm || !fn.hasLongForm())) {
        report.error(path, Message.FLOATING_IN_INTEGRAL_BODY, qualified);
        return null;
      }
      // SpecialMath.ipow: only its long form exists; javac already refused other argument types
      // in a double body only if they do not widen, so say it here.
      if (bodyType == ValueType.DOUBLE && fn.integralOnly()) {
        report.error(path, Message.UNSUPPORTED_CALL, qualified + " in a double body",
            MathFunction.supportedList());
        return null;
      }
      if (bodyType == ValueType.BOOLEAN) {
        report.error(path, Message.UNSUPPORTED_CALL, qualified + " on boolean operands",
            MathFunction.supportedList());
        return null;
      }
      List<Expr> args = new ArrayList<>();
      boolean ok = true;
      for (ExpressionTree arg : tree.getArguments()) {
        Expr a = lowerNumeric(new TreePath(path, arg));
        ok &= a != null;
        args.add(a);
      }
      return ok ? new Expr.Call(fn, args, bodyType) : null;
    }

    /** Lowers an operand that must be numeric in the body type. */
    private Expr lowerNumeric(TreePath path) {
      Expr e = checkedLower(path);
      if (e != null && e.type() != bodyType) {
        report.error(
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
      if (isIntLike(k) && !isConstantLike(tree)) {
        report.error(path, Message.INT_ARITHMETIC, tree, bodyType.javaName());
        return null;
      }
      if ((k == TypeKind.DOUBLE || k == TypeKind.FLOAT) && bodyType != ValueType.DOUBLE) {
        if (bodyType == ValueType.LONG) {
          report.error(path, Message.FLOATING_IN_INTEGRAL_BODY, tree);
        } else {
          report.error(path, Message.UNSUPPORTED_OPERATOR, tree, "boolean", "no arithmetic");
        }
        return null;
      }
      return lower(path);
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
        report.error(
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
        report.error(path, Message.UNSUPPORTED_CAST, tree.getType(), "double", "double");
        return null;
      }
      return isIntLike(source) || source == TypeKind.LONG || source == TypeKind.FLOAT
          ? lower(inner)
          : checkedLower(inner);
    }

    private Expr conditional(TreePath path, ConditionalExpressionTree tree) {
      Expr c = checkedLower(new TreePath(path, tree.getCondition()));
      Expr t = checkedLower(new TreePath(path, tree.getTrueExpression()));
      Expr f = checkedLower(new TreePath(path, tree.getFalseExpression()));
      if (c == null || t == null || f == null) {
        return null;
      }
      if (t.type() != f.type()) {
        report.error(path, Message.UNSUPPORTED_OPERATOR, "?:", t.type().javaName() + " and "
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
            report.error(path, Message.UNSUPPORTED_OPERATOR, "-", "boolean", "negate numbers");
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
            report.error(path, Message.UNSUPPORTED_OPERATOR, "~", e.type().javaName(),
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
        report.error(path, Message.INT_ARITHMETIC, tree, bodyType.javaName());
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
          : checkedLower(rightPath);
      if (left == null || right == null) {
        return null;
      }
      ValueType operands = left.type();
      if (operands != right.type()) {
        report.error(path, Message.UNSUPPORTED_OPERATOR, op.symbol,
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
        report.error(path, Message.UNSUPPORTED_OPERATOR, op.symbol, operands.javaName(), refusal);
        return null;
      }
      ValueType type = op.isComparison() || operands == ValueType.BOOLEAN
          ? ValueType.BOOLEAN
          : operands;
      return new Expr.Binary(op, left, right, type);
    }
  }
}
