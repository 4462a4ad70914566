package dev.ufunc4j.processor;

import java.util.List;

/**
 * The facade of one declaring class: what {@link FacadeGenerator} writes. Immutable; built by
 * {@link FacadeCollector} from {@code @Facade}, the ops and their {@code @Rule}s.
 *
 * @param className the facade's simple name ({@code <Class>Ops}, or {@code @Facade}'s value)
 * @param isPublic whether the facade is public
 * @param linksDeclarations whether the javadoc may {@code {@link}} the declaring class: not when
 *     the facade is more visible than it (the runtime's public {@code Ops} of its package-private
 *     {@code Builtins})
 * @param instanceClassName the simple name of the class of instance forms, or empty for none
 * @param superclassName the simple name of the hand-written class the facade extends, or empty
 * @param description the declaring class's javadoc, or empty
 * @param ops sorted by method name, then op name
 * @param rules in source order
 */
record FacadeModel(
    OpModel.DeclaringClass declaring,
    String className,
    boolean isPublic,
    boolean linksDeclarations,
    String instanceClassName,
    String superclassName,
    String description,
    List<Op> ops,
    List<RuleModel> rules) {

  FacadeModel {
    ops = List.copyOf(ops);
    rules = List.copyOf(rules);
  }

  /**
   * An op as the facade shows it.
   *
   * @param methodName the facade methods' name ({@code @Elementwise(methodName)}, else the op's)
   * @param numbersAfterFirst whether a form takes every promoting operand after the first as Java
   *     numbers together
   * @param description the javadoc of the op's first documented overload (source order), or empty
   */
  record Op(OpModel model, String methodName, boolean numbersAfterFirst, String description) {}

  /**
   * A {@code @Rule} method.
   *
   * @param method the rule method's name in the declaring class
   * @param guards the facade method name it guards
   * @param scalar for {@link Kind#SCALAR}, the {@code @Scalar} it computes; else empty
   * @param params its parameters, each naming a parameter of the guarded methods
   * @param description its javadoc, or empty
   */
  record RuleModel(
      String method, String guards, Kind kind, String scalar, List<Param> params,
      String description) {

    RuleModel {
      params = List.copyOf(params);
    }

    /** What a rule returns: nothing, an answer, or a scalar's value. */
    enum Kind {
      CHECK,
      ANSWER,
      SCALAR
    }

    /** A rule parameter: a {@code Tensor}, a {@code Number}, or another type (a boolean scalar). */
    record Param(String name, Type type) {}

    enum Type {
      TENSOR,
      NUMBER,
      OTHER
    }

    /**
     * Whether the rule fits {@code form}: each parameter names one of the form's parameters (or
     * its target, which may be absent), and a {@code Number} operand parameter needs a Java number
     * in that position (not a tensor, nor a boolean).
     */
    boolean fits(Form form) {
      // An op with several results has no target named out for a rule to read: no rules yet.
      if (!form.op().methodName().equals(guards) || form.op().model().hasSeveralResults()) {
        return false;
      }
      if (kind == Kind.SCALAR && form.op().model().scalars().stream()
          .noneMatch(s -> s.name().equals(scalar))) {
        return false;
      }
      for (Param p : params) {
        if (p.name().equals(form.targetName())) {
          continue;
        }
        Form.Param match = form.params().stream()
            .filter(f -> f.name().equals(p.name()))
            .findFirst()
            .orElse(null);
        if (match == null) {
          return false;
        }
        if (p.type() == Type.NUMBER
            && (match.kind() == Form.Kind.TENSOR || match.kind() == Form.Kind.BOOLEAN)) {
          return false;
        }
      }
      return true;
    }
  }
}
