package dev.ufunc4j.processor;

import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * Builds the {@link FacadeModel} of one declaring class from its valid ops, its {@code @Facade}
 * and its {@code @Rule} methods, after checking them: the facade's and the instance class's names,
 * that no two methods of the facade share their parameter types, and that every rule names a
 * facade method and parameters it has. Problems go to the {@link Report}, on the annotation value
 * they are about where there is one.
 */
final class FacadeCollector {

  static final String FACADE = "dev.ufunc4j.annotation.Facade";
  static final String RULE = "dev.ufunc4j.annotation.Rule";
  static final String TENSOR = "dev.ufunc4j.Tensor";
  private static final String NUMBER = "java.lang.Number";

  /** Zero-parameter methods of {@code Object}, and the instance class's own {@code self()}. */
  private static final Set<String> RESERVED_INSTANCE_SIGNATURES = Set.of("self()", "hashCode()",
      "toString()", "getClass()", "notify()", "notifyAll()", "wait()", "clone()", "finalize()");

  private final Elements elements;
  private final Trees trees;
  private final Report report;

  FacadeCollector(Elements elements, Trees trees, Report report) {
    this.elements = elements;
    this.trees = trees;
    this.report = report;
  }

  /**
   * @param ops the class's valid ops
   * @param firstMethods the first overload of each op, for diagnostics
   * @param rules the class's {@code @Rule} methods
   * @param owners facade and instance class names already given out in this compilation
   *     (qualified name to declaring class); this class's are added on success
   */
  Optional<FacadeModel> collect(TypeElement type, OpModel.DeclaringClass declaring,
      List<FacadeModel.Op> ops, Map<String, ExecutableElement> firstMethods,
      List<ExecutableElement> rules, Map<String, String> owners) {
    int before = report.size();
    AnnotationMirror facade = annotation(type, FACADE).orElse(null);
    String className = declaring.flatName() + "Ops";
    String instanceClassName = "";
    String superclassName = "";
    boolean isPublic = accessible(type);
    AnnotationValue value = facade == null ? null : explicitValue(facade, "value");
    if (value != null && !value.getValue().toString().isEmpty()) {
      className = value.getValue().toString();
      checkName(type, declaring, facade, value, "facade name", className, owners);
    } else {
      // The default name is checked alike: a class ClashOps beside Clash made javac's Filer throw.
      checkName(type, declaring, facade, null, "default facade name", className, owners);
    }
    if (facade != null) {
      AnnotationValue instance = explicitValue(facade, "instanceMethods");
      if (instance != null && !instance.getValue().toString().isEmpty()) {
        instanceClassName = instance.getValue().toString();
        if (instanceClassName.equals(className)) {
          report.error(type, facade, instance, Message.FACADE_NAME, "instance class name",
              instanceClassName, type.getQualifiedName(), "is also the facade's name");
        } else {
          checkName(type, declaring, facade, instance, "instance class name", instanceClassName,
              owners);
        }
      }
      AnnotationValue superclass = explicitValue(facade, "superclass");
      if (superclass != null && !superclass.getValue().toString().isEmpty()) {
        superclassName = superclass.getValue().toString();
        if (!OpCollector.isName(superclassName)
            || elements.getTypeElement(qualified(declaring, superclassName)) == null) {
          report.error(type, facade, superclass, Message.FACADE_NAME, "superclass",
              superclassName, type.getQualifiedName(),
              "names no class of package " + declaring.packageName());
        }
      }
      AnnotationValue visibility = explicitValue(facade, "visibility");
      if (visibility != null) {
        String v = visibility.getValue().toString();
        isPublic = v.equals("PUBLIC") || (v.equals("DECLARING_CLASS") && isPublic);
      }
    }
    List<FacadeModel.Op> sorted = new ArrayList<>(ops);
    sorted.sort(Comparator.comparing(FacadeModel.Op::methodName)
        .thenComparing(o -> o.model().name()));
    checkClashes(sorted, firstMethods, !instanceClassName.isEmpty());
    List<FacadeModel.RuleModel> ruleModels = new ArrayList<>();
    for (ExecutableElement r : rules) {
      rule(r, type, sorted).ifPresent(ruleModels::add);
    }
    if (report.size() > before) {
      return Optional.empty();
    }
    owners.put(qualified(declaring, className), type.getQualifiedName().toString());
    if (!instanceClassName.isEmpty()) {
      owners.put(qualified(declaring, instanceClassName), type.getQualifiedName().toString());
    }
    return Optional.of(new FacadeModel(declaring, className, isPublic,
        accessible(type) || !isPublic, instanceClassName, superclassName,
        OpCollector.javadoc(elements, type),
        sorted, ruleModels));
  }

  private static String qualified(OpModel.DeclaringClass declaring, String simpleName) {
    return declaring.packageName().isEmpty()
        ? simpleName
        : declaring.packageName() + "." + simpleName;
  }

  /**
   * A generated class's name: a Java identifier that names no class of the compilation (a class
   * compiled earlier, such as a stale generated one, does not count), no other facade, and none
   * of the classes the processor writes for this class.
   */
  private void checkName(TypeElement type, OpModel.DeclaringClass declaring,
      AnnotationMirror facade, AnnotationValue value, String what, String name,
      Map<String, String> owners) {
    String qualified = qualified(declaring, name);
    String problem = null;
    TypeElement existing = elements.getTypeElement(qualified);
    if (!OpCollector.isName(name)) {
      problem = "is not a Java identifier";
    } else if (existing != null && trees.getPath(existing) != null) {
      problem = "clashes with " + qualified + ", a class of this compilation; choose another name";
    } else if (owners.containsKey(qualified)
        && !owners.get(qualified).equals(type.getQualifiedName().toString())) {
      problem = "is already generated for " + owners.get(qualified) + "; choose another name";
    } else if (name.equals(LibraryGenerator.className(declaring))
        || name.startsWith(declaring.flatName() + "_")) {
      problem = "is the name of a class the processor generates for the kernels of "
          + type.getQualifiedName() + "; choose another name";
    }
    if (problem == null) {
      return;
    }
    if (value == null) {
      // No name was given: the refusal says where to give one.
      report.error(type, Message.FACADE_NAME, what, name, type.getQualifiedName(),
          problem.replace("choose another name", "name the facade with @Facade(\"...\") on "
              + type.getSimpleName()));
    } else {
      report.error(type, facade, value, Message.FACADE_NAME, what, name, type.getQualifiedName(),
          problem);
    }
  }

  /** No two methods of the facade (or of the instance class) may share their parameter types. */
  private void checkClashes(List<FacadeModel.Op> ops, Map<String, ExecutableElement> firstMethods,
      boolean instanceMethods) {
    Map<String, FacadeModel.Op> statics = new HashMap<>();
    Map<String, FacadeModel.Op> instances = new HashMap<>();
    Map<String, FacadeModel.Op> twins = new HashMap<>();
    for (FacadeModel.Op op : ops) {
      OpModel.Results results = op.model().results();
      if (results != null) {
        // The facade nests one tensor twin per record simple name (FacadeGenerator#twin).
        FacadeModel.Op other = twins.putIfAbsent(results.simpleName(), op);
        if (other != null
            && !other.model().results().canonicalName().equals(results.canonicalName())) {
          report.error(firstMethods.get(op.model().name()), Message.FACADE_TWIN,
              op.model().name(), results.canonicalName(), other.model().name(),
              other.model().results().canonicalName(), results.simpleName());
        }
      }
      List<Form> forms = Form.of(op);
      for (Form form : forms) {
        FacadeModel.Op other = statics.putIfAbsent(form.signature(), op);
        if (other != null && other != op) {
          report.error(firstMethods.get(op.model().name()), Message.FACADE_CLASH, form.signature(),
              op.model().name(), form.signature(), other.model().name());
        }
      }
      if (!instanceMethods) {
        continue;
      }
      for (Form.Instance instance : Form.Instance.of(forms)) {
        String signature = instance.signature();
        FacadeModel.Op other = instances.putIfAbsent(signature, op);
        if (RESERVED_INSTANCE_SIGNATURES.contains(signature)) {
          report.error(firstMethods.get(op.model().name()), Message.FACADE_RESERVED, signature,
              op.model().name(),
              signature.equals("self()") ? "the instance class's self()" : "Object's " + signature);
        } else if (other != null && other != op) {
          report.error(firstMethods.get(op.model().name()), Message.FACADE_CLASH,
              "instance method " + signature, op.model().name(), signature, other.model().name());
        }
      }
    }
  }

  private Optional<FacadeModel.RuleModel> rule(ExecutableElement r, TypeElement type,
      List<FacadeModel.Op> ops) {
    int before = report.size();
    String name = r.getSimpleName().toString();
    Set<Modifier> modifiers = r.getModifiers();
    if (!modifiers.contains(Modifier.STATIC) || modifiers.contains(Modifier.PRIVATE)) {
      report.error(r, Message.RULE_METHOD, name);
    }
    AnnotationMirror mirror = annotation(r, RULE).orElseThrow();
    AnnotationValue guardsValue = explicitValue(mirror, "value");
    String guards = guardsValue == null ? "" : guardsValue.getValue().toString();
    List<FacadeModel.Op> guarded =
        ops.stream().filter(o -> o.methodName().equals(guards)).toList();
    if (guarded.isEmpty()) {
      Set<String> names = new TreeSet<>();
      ops.forEach(o -> names.add(o.methodName()));
      report.error(r, mirror, guardsValue, Message.RULE_TARGET, name, guards,
          type.getQualifiedName(), String.join(", ", names));
      return Optional.empty();
    }
    AnnotationValue scalarValue = explicitValue(mirror, "scalar");
    String scalar = scalarValue == null ? "" : scalarValue.getValue().toString();
    Set<String> scalars = new LinkedHashSet<>();
    Map<String, OpModel.ScalarParam> scalarParams = new HashMap<>();
    Set<String> operands = new LinkedHashSet<>();
    Set<String> targets = new LinkedHashSet<>();
    for (FacadeModel.Op op : guarded) {
      op.model().tensors().forEach(t -> operands.add(t.name()));
      op.model().scalars().forEach(s -> {
        scalars.add(s.name());
        scalarParams.put(s.name(), s);
      });
      targets.add(new Form(op, List.of(), Form.Tail.NONE).targetName());
    }
    TypeMirror returned = r.getReturnType();
    FacadeModel.RuleModel.Kind kind;
    if (!scalar.isEmpty()) {
      kind = FacadeModel.RuleModel.Kind.SCALAR;
      if (!scalars.contains(scalar)) {
        report.error(r, mirror, scalarValue, Message.RULE_SCALAR, name, scalar, guards,
            scalars.isEmpty() ? "none" : String.join(", ", scalars));
      }
      if (returned.getKind() == TypeKind.VOID) {
        report.error(r, Message.RULE_RETURN, name, returned);
      }
    } else if (returned.getKind() == TypeKind.VOID) {
      kind = FacadeModel.RuleModel.Kind.CHECK;
    } else if (isType(returned, TENSOR)) {
      kind = FacadeModel.RuleModel.Kind.ANSWER;
    } else {
      kind = FacadeModel.RuleModel.Kind.CHECK;
      report.error(r, Message.RULE_RETURN, name, returned);
    }
    List<FacadeModel.RuleModel.Param> params = new ArrayList<>();
    for (VariableElement p : r.getParameters()) {
      String pname = p.getSimpleName().toString();
      TypeMirror t = p.asType();
      FacadeModel.RuleModel.Type ptype = isType(t, TENSOR) ? FacadeModel.RuleModel.Type.TENSOR
          : isType(t, NUMBER) ? FacadeModel.RuleModel.Type.NUMBER
          : FacadeModel.RuleModel.Type.OTHER;
      String problem = null;
      if (targets.contains(pname)) {
        if (ptype != FacadeModel.RuleModel.Type.TENSOR) {
          problem = "is the target of facade method '" + guards + "': declare it Tensor (null"
              + " where the method has no target)";
        }
      } else if (operands.contains(pname)) {
        if (ptype == FacadeModel.RuleModel.Type.OTHER) {
          problem = "is a tensor operand of facade method '" + guards + "': declare it Tensor, or"
              + " Number for the methods that take a Java number there";
        }
      } else if (scalarParams.containsKey(pname)) {
        boolean bool = scalarParams.get(pname).type() == ValueType.BOOLEAN;
        if (bool ? t.getKind() != TypeKind.BOOLEAN : ptype != FacadeModel.RuleModel.Type.NUMBER) {
          problem = "is a @Scalar of facade method '" + guards + "': declare it "
              + (bool ? "boolean" : "Number");
        }
      } else {
        List<String> all = new ArrayList<>(operands);
        all.addAll(scalars);
        all.addAll(targets);
        problem = "names no parameter of facade method '" + guards + "'; its parameters: "
            + String.join(", ", all);
      }
      if (problem != null) {
        report.error(p, Message.RULE_PARAMETER, pname, name, problem);
      }
      params.add(new FacadeModel.RuleModel.Param(pname, ptype));
    }
    if (report.size() > before) {
      return Optional.empty();
    }
    FacadeModel.RuleModel model = new FacadeModel.RuleModel(name, guards, kind, scalar, params,
        OpCollector.javadoc(elements, r));
    boolean fitsOne = guarded.stream().flatMap(o -> Form.of(o).stream()).anyMatch(model::fits);
    if (!fitsOne) {
      report.error(r, Message.RULE_UNUSED, name, guards);
      return Optional.empty();
    }
    return Optional.of(model);
  }

  private static boolean isType(TypeMirror t, String qualifiedName) {
    return t.getKind() == TypeKind.DECLARED && t.toString().equals(qualifiedName);
  }

  /** Public, and every enclosing class public too (members of interfaces are implicitly). */
  static boolean accessible(TypeElement t) {
    Element e = t;
    while (e instanceof TypeElement type) {
      boolean inInterface = type.getEnclosingElement().getKind().isInterface();
      if (!inInterface && !type.getModifiers().contains(Modifier.PUBLIC)) {
        return false;
      }
      e = type.getEnclosingElement();
    }
    return true;
  }

  /** The value written for {@code name} in the annotation, or null when it takes the default. */
  private static AnnotationValue explicitValue(AnnotationMirror mirror, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        mirror.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  static Optional<AnnotationMirror> annotation(Element e, String name) {
    for (AnnotationMirror a : e.getAnnotationMirrors()) {
      TypeElement t = (TypeElement) a.getAnnotationType().asElement();
      if (t.getQualifiedName().contentEquals(name)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }
}
