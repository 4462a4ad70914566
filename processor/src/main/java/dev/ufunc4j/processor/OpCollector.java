package dev.ufunc4j.processor;

import com.sun.source.util.Trees;
import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Validates the {@code @Elementwise} methods of one class and builds their {@link OpModel}s, with
 * what the facade shows of them ({@link FacadeModel.Op}). Overloads of one name become one op.
 * Every problem goes to the {@link Report}.
 */
final class OpCollector {

  static final String ELEMENTWISE = "dev.ufunc4j.annotation.Elementwise";
  static final String SCALAR = "dev.ufunc4j.annotation.Scalar";

  private final Elements elements;
  private final BodyLowering lowering;
  private final Report report;
  private final Map<String, ExecutableElement> firstMethods = new TreeMap<>();

  OpCollector(Elements elements, Trees trees, Report report) {
    this.elements = elements;
    this.lowering = new BodyLowering(trees, report);
    this.report = report;
  }

  /** One validated overload, before grouping. */
  private record Method(
      ExecutableElement element,
      String opName,
      Promote promote,
      String methodName,
      boolean numbersAfterFirst,
      boolean scalarInFloat32,
      List<DType> dtypes,
      Identity identity,
      boolean associative,
      ValueType bodyType,
      boolean predicate,
      List<Role> roles,
      List<ValueType> paramTypes,
      OpModel.Results results) {}

  private enum Role {
    TENSOR,
    CONDITION,
    SCALAR
  }

  /** The ops declared in {@code type}, sorted by name; ops with errors are left out. */
  List<FacadeModel.Op> collect(TypeElement type, List<ExecutableElement> methods) {
    Optional<OpModel.DeclaringClass> declaring = declaringClass(type, methods);
    if (declaring.isEmpty()) {
      return List.of();
    }
    // Source order: an op's description is the javadoc of its first documented overload.
    List<ExecutableElement> inSourceOrder = new ArrayList<>(methods);
    List<? extends Element> members = type.getEnclosedElements();
    inSourceOrder.sort(Comparator.comparingInt(members::indexOf));
    Map<String, List<Method>> byName = new TreeMap<>();
    for (ExecutableElement m : inSourceOrder) {
      validate(m).ifPresent(v -> byName.computeIfAbsent(v.opName(), k -> new ArrayList<>()).add(v));
    }
    List<FacadeModel.Op> ops = new ArrayList<>();
    for (Map.Entry<String, List<Method>> e : byName.entrySet()) {
      List<Method> overloads = e.getValue();
      build(declaring.get(), e.getKey(), overloads).ifPresent(op -> {
        firstMethods.put(op.name(), overloads.get(0).element());
        String description = overloads.stream()
            .map(m -> javadoc(elements, m.element()))
            .filter(d -> !d.isEmpty())
            .findFirst()
            .orElse("");
        ops.add(new FacadeModel.Op(op, overloads.get(0).methodName(),
            overloads.get(0).numbersAfterFirst(), description));
      });
    }
    return ops;
  }

  /** The first overload (in source order) of each op {@link #collect} returned, by op name. */
  Map<String, ExecutableElement> firstMethods() {
    return firstMethods;
  }

  /** {@code {@link ref label}} and {@code {@linkplain ...}}, with the reference and the label. */
  private static final Pattern LINK =
      Pattern.compile("\\{@link(?:plain)?\\s+([^\\s}]+)(?:\\s+([^}]*))?}");

  /**
   * The main description of an element's javadoc (without its block tags), or empty: it goes into
   * the generated javadoc as written, except that links become code ({@code {@link Promote#X}} is
   * {@code {@code Promote.X}}): the generated file has neither the declaration's imports nor its
   * members, so a link might not resolve there.
   */
  static String javadoc(Elements elements, Element e) {
    String doc = elements.getDocComment(e);
    if (doc == null) {
      return "";
    }
    List<String> lines = new ArrayList<>();
    for (String line : doc.split("\\R", -1)) {
      String text = line.startsWith(" ") ? line.substring(1) : line;
      if (text.strip().startsWith("@")) {
        break;
      }
      lines.add(text.stripTrailing());
    }
    Matcher link = LINK.matcher(String.join("\n", lines).strip());
    StringBuilder text = new StringBuilder();
    while (link.find()) {
      String shown = link.group(2) != null && !link.group(2).isBlank()
          ? link.group(2).strip()
          : link.group(1).startsWith("#")
              ? link.group(1).substring(1)
              : link.group(1).replace('#', '.');
      link.appendReplacement(text, Matcher.quoteReplacement("{@code " + shown + "}"));
    }
    link.appendTail(text);
    return text.toString();
  }

  private Optional<OpModel.DeclaringClass> declaringClass(
      TypeElement type, List<ExecutableElement> methods) {
    List<String> names = new ArrayList<>();
    Element e = type;
    while (e instanceof TypeElement t) {
      boolean ok = t.getNestingKind() == NestingKind.TOP_LEVEL
          || t.getNestingKind() == NestingKind.MEMBER && t.getModifiers().contains(Modifier.STATIC)
          || t.getNestingKind() == NestingKind.MEMBER && t.getEnclosingElement().getKind().isInterface();
      if (!ok) {
        for (ExecutableElement m : methods) {
          report.error(m, Message.BAD_ENCLOSING_CLASS, m.getSimpleName());
        }
        return Optional.empty();
      }
      names.add(0, t.getSimpleName().toString());
      e = t.getEnclosingElement();
    }
    PackageElement pkg = elements.getPackageOf(type);
    return Optional.of(new OpModel.DeclaringClass(
        pkg.isUnnamed() ? "" : pkg.getQualifiedName().toString(),
        String.join("_", names),
        elements.getBinaryName(type).toString(),
        type.getQualifiedName().toString()));
  }

  private static ValueType valueType(TypeKind k) {
    return switch (k) {
      case DOUBLE -> ValueType.DOUBLE;
      case LONG -> ValueType.LONG;
      case BOOLEAN -> ValueType.BOOLEAN;
      default -> null;
    };
  }

  private Optional<Method> validate(ExecutableElement m) {
    int before = report.size();
    String name = m.getSimpleName().toString();
    if (!m.getModifiers().contains(Modifier.STATIC)) {
      report.error(m, Message.NOT_STATIC, name);
    }
    if (!m.getTypeParameters().isEmpty()) {
      report.error(m, Message.GENERIC_METHOD, name);
    }
    ValueType returnType = valueType(m.getReturnType().getKind());
    OpModel.Results results = null;
    if (returnType == null) {
      if (m.getReturnType() instanceof DeclaredType d
          && d.asElement().getKind() == ElementKind.RECORD) {
        // Several results (issue 26): the record's components, or null after an error.
        results = resultRecord(m, name, d);
        returnType = results == null ? null : recordBodyType(results);
      } else {
        report.error(m, Message.RETURN_TYPE, name, m.getReturnType());
      }
    }
    List<Role> roles = new ArrayList<>();
    List<ValueType> types = new ArrayList<>();
    for (VariableElement p : m.getParameters()) {
      ValueType t = valueType(p.asType().getKind());
      if (t == null) {
        report.error(p, Message.PARAMETER_TYPE, p.getSimpleName(), p.asType());
      }
      types.add(t);
      roles.add(hasAnnotation(p, SCALAR) ? Role.SCALAR : Role.TENSOR);
    }
    if (report.size() > before) {
      return Optional.empty();
    }
    ValueType bodyType = bodyType(returnType, types);
    for (int i = 0; i < types.size(); i++) {
      VariableElement p = m.getParameters().get(i);
      ValueType t = types.get(i);
      if (t == ValueType.BOOLEAN) {
        if (roles.get(i) == Role.TENSOR && bodyType != ValueType.BOOLEAN) {
          roles.set(i, Role.CONDITION);
        }
      } else if (t != bodyType) {
        report.error(p, Message.MIXED_PARAMETER_TYPES, p.getSimpleName(), p.asType(),
            bodyType.javaName());
      }
    }
    if (!roles.contains(Role.TENSOR) && !roles.contains(Role.CONDITION)) {
      report.error(m, Message.NO_TENSOR_PARAMETER, name);
    }
    if (report.size() > before) {
      return Optional.empty();
    }
    AnnotationMirror annotation = annotation(m, ELEMENTWISE).orElseThrow();
    Optional<Attributes> a = attributes(m, annotation, name);
    if (a.isEmpty()
        || !ufuncAttributes(m, annotation, name, roles, a.get().identity(), a.get().associative(),
            bodyType, results)) {
      return Optional.empty();
    }
    return Optional.of(new Method(m, a.get().opName(), a.get().promote(), a.get().methodName(),
        a.get().numbersAfterFirst(), a.get().scalarInFloat32(), a.get().dtypes(),
        a.get().identity(), a.get().associative(), bodyType,
        returnType == ValueType.BOOLEAN && results == null, roles, types, results));
  }

  /** The body type: the return type, or for a predicate the type of its numeric operands. */
  private static ValueType bodyType(ValueType returnType, List<ValueType> types) {
    if (returnType != ValueType.BOOLEAN) {
      return returnType;
    }
    for (ValueType t : types) {
      if (t != ValueType.BOOLEAN) {
        return t;
      }
    }
    return ValueType.BOOLEAN;
  }

  /** What {@code @Elementwise} on method {@code name} says, defaults filled in. */
  private record Attributes(String opName, String methodName, Promote promote,
      boolean numbersAfterFirst, boolean scalarInFloat32, List<DType> dtypes, Identity identity,
      boolean associative) {}

  /**
   * The attributes of {@code annotation} on {@code m}, or empty after reporting a bad op or method
   * name or dtype list.
   */
  private Optional<Attributes> attributes(ExecutableElement m, AnnotationMirror annotation,
      String name) {
    String opName = name;
    String methodName = "";
    Promote promote = Promote.PROMOTE;
    boolean numbersAfterFirst = false;
    boolean scalarInFloat32 = false;
    List<DType> dtypes = List.of();
    Identity identity = Identity.NONE;
    boolean associative = false;
    AnnotationValue opNameValue = null;
    AnnotationValue methodNameValue = null;
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        elements.getElementValuesWithDefaults(annotation).entrySet()) {
      String key = e.getKey().getSimpleName().toString();
      String value = e.getValue().getValue().toString();
      if (key.equals("name") && !value.isEmpty()) {
        opName = value;
        opNameValue = e.getValue();
      } else if (key.equals("methodName") && !value.isEmpty()) {
        methodName = value;
        methodNameValue = e.getValue();
      } else if (key.equals("promote")) {
        promote = Promote.valueOf(value);
      } else if (key.equals("numbersAfterFirst")) {
        numbersAfterFirst = Boolean.parseBoolean(value);
      } else if (key.equals("scalarInFloat32")) {
        scalarInFloat32 = Boolean.parseBoolean(value);
      } else if (key.equals("identity")) {
        identity = Identity.valueOf(value);
      } else if (key.equals("associative")) {
        associative = Boolean.parseBoolean(value);
      } else if (key.equals("dtypes") && annotation.getElementValues().containsKey(e.getKey())) {
        Optional<List<DType>> resolved = dtypes(m, annotation, e.getValue(), name);
        if (resolved.isEmpty()) {
          return Optional.empty();
        }
        dtypes = resolved.get();
      }
    }
    if (!isName(opName)) {
      report.error(m, annotation, opNameValue, Message.OP_NAME, opName, name);
      return Optional.empty();
    }
    if (methodName.isEmpty()) {
      methodName = opName;
    } else if (!isName(methodName)) {
      report.error(m, annotation, methodNameValue, Message.METHOD_NAME, methodName, name);
      return Optional.empty();
    }
    return Optional.of(new Attributes(opName, methodName, promote, numbersAfterFirst,
        scalarInFloat32, dtypes, identity, associative));
  }

  /**
   * The components of a record an op returns (several results), or null after reporting why it
   * cannot be one ({@code [Elementwise/ResultRecord]}, at the method): each component {@code
   * double}, {@code long} or {@code boolean} (no nested record), the numeric ones of one type
   * (the body's), at least one component, no type parameters, and the canonical constructor the
   * compiler writes (a declared one could check or change the values, which the kernel would not
   * do).
   */
  private OpModel.Results resultRecord(ExecutableElement m, String name, DeclaredType type) {
    TypeElement record = (TypeElement) type.asElement();
    String shown = record.getSimpleName().toString();
    List<OpModel.Component> components = new ArrayList<>();
    String problem = null;
    if (!record.getTypeParameters().isEmpty()) {
      problem = "it declares type parameters";
    } else if (record.getRecordComponents().isEmpty()) {
      problem = "it has no components";
    }
    for (var c : record.getRecordComponents()) {
      if (problem != null) {
        break;
      }
      ValueType t = valueType(c.asType().getKind());
      if (t == null) {
        boolean nested = c.asType() instanceof DeclaredType d
            && d.asElement().getKind() == ElementKind.RECORD;
        problem = "component " + c.getSimpleName() + " has type " + c.asType()
            + (nested ? " (a nested record; flatten its components into this one)" : "");
      } else {
        components.add(new OpModel.Component(c.getSimpleName().toString(), t));
      }
    }
    if (problem == null && components.stream().map(OpModel.Component::type)
        .filter(t -> t != ValueType.BOOLEAN).distinct().count() > 1) {
      problem = "it mixes double and long components (one body computes in one type)";
    }
    if (problem == null) {
      for (ExecutableElement c : ElementFilter.constructorsIn(record.getEnclosedElements())) {
        if (c.getParameters().size() == components.size()
            && elements.getOrigin(c) != Elements.Origin.MANDATED) {
          problem = "it declares its canonical constructor, which the kernel would not run";
        }
      }
    }
    if (problem != null) {
      report.error(m, Message.RESULT_RECORD, name, shown, problem);
      return null;
    }
    return new OpModel.Results(shown, record.getQualifiedName().toString(), components);
  }

  /** The body type of a record's results: its numeric components' type, else boolean. */
  private static ValueType recordBodyType(OpModel.Results results) {
    return results.components().stream().map(OpModel.Component::type)
        .filter(t -> t != ValueType.BOOLEAN).findFirst().orElse(ValueType.BOOLEAN);
  }

  /**
   * {@code @Elementwise(identity, associative)}: only on a binary ufunc (two promoting tensor
   * operands, no {@code @Scalar}), and {@code MINUS_ONE} (all bits set) only on a {@code long}
   * body; each refusal is at the attribute's value.
   */
  private boolean ufuncAttributes(ExecutableElement m, AnnotationMirror annotation, String name,
      List<Role> roles, Identity identity, boolean associative, ValueType bodyType,
      OpModel.Results results) {
    long tensors = roles.stream().filter(r -> r == Role.TENSOR).count();
    boolean binary = tensors == 2 && roles.size() == 2 && results == null;
    for (String attribute : List.of("identity", "associative")) {
      AnnotationValue value = explicitValue(annotation, attribute);
      boolean declared = attribute.equals("identity") ? identity != Identity.NONE : associative;
      if (declared && !binary) {
        report.error(m, annotation, value, Message.UFUNC_ATTRIBUTE, attribute, name,
            "it applies to ops with exactly two tensor operands and no @Scalar parameter (the"
                + " ufunc methods reduce, accumulate, outer, at, reduceAt); " + name + " has "
                + tensors + " tensor operand" + (tensors == 1 ? "" : "s")
                + (roles.contains(Role.SCALAR) ? " and a @Scalar" : "")
                + (roles.contains(Role.CONDITION) ? " and a boolean condition" : "")
                + (results != null ? " and several results" : ""));
        return false;
      }
    }
    if (identity == Identity.MINUS_ONE && bodyType != ValueType.LONG) {
      report.error(m, annotation, explicitValue(annotation, "identity"), Message.UFUNC_ATTRIBUTE,
          "identity", name, "MINUS_ONE means all bits set, which a " + bodyType.javaName()
              + " body cannot hold (only a long body's integral dtypes can); use LOWEST, HIGHEST,"
              + " ZERO or ONE");
      return false;
    }
    return true;
  }

  /** The value of {@code attribute} as written on the annotation, or null if defaulted. */
  private static AnnotationValue explicitValue(AnnotationMirror annotation, String attribute) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e :
        annotation.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(attribute)) {
        return e.getValue();
      }
    }
    return null;
  }

  /**
   * {@code @Elementwise(dtypes)} as given (not defaulted): each name resolved to its dtypes, in
   * declaration order; an unknown name, a float8 dtype and an empty set are refused at the value.
   */
  private Optional<List<DType>> dtypes(ExecutableElement m, AnnotationMirror annotation,
      AnnotationValue value, String opName) {
    @SuppressWarnings("unchecked")
    List<? extends AnnotationValue> names = (List<? extends AnnotationValue>) value.getValue();
    if (names.isEmpty()) {
      report.error(m, annotation, value, Message.DTYPES, opName,
          "the set is empty, so no kernel would be generated", knownDtypes());
      return Optional.empty();
    }
    EnumSet<DType> set = EnumSet.noneOf(DType.class);
    for (AnnotationValue v : names) {
      String name = v.getValue().toString();
      switch (name.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "floating" -> set.addAll(
            List.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64));
        case "integral" -> Arrays.stream(DType.values())
            .filter(d -> d.isIntegral(false)).forEach(set::add);
        case "complex" -> Arrays.stream(DType.values())
            .filter(DType::isComplex).forEach(set::add);
        default -> {
          DType d;
          try {
            d = DType.fromName(name);
          } catch (IllegalArgumentException unknown) {
            report.error(m, annotation, v, Message.DTYPES, opName,
                "'" + name + "' names no dtype or category", knownDtypes());
            return Optional.empty();
          }
          if (d.isFloat8()) {
            report.error(m, annotation, v, Message.DTYPES, opName,
                "'" + name + "' is a storage-only dtype: ufunc4j does no arithmetic on it",
                knownDtypes());
            return Optional.empty();
          }
          set.add(d);
        }
      }
    }
    return Optional.of(List.copyOf(set));
  }

  private static String knownDtypes() {
    return Arrays.stream(DType.values()).filter(d -> !d.isFloat8()).map(DType::toString)
        .collect(Collectors.joining(", "));
  }

  /** A Java identifier that is not a keyword: it names generated methods. */
  static boolean isName(String name) {
    return SourceVersion.isIdentifier(name) && !SourceVersion.isKeyword(name);
  }

  /**
   * Why overload {@code m} cannot join {@code reference} (the op's first) in one op, or null;
   * {@code bodyTypeSeen}: an earlier overload computes in {@code m}'s body type.
   */
  private static String overloadConflict(Method m, Method reference, boolean bodyTypeSeen) {
    if (m.results() != null || reference.results() != null) {
      return m != reference ? "an op that returns a record has one overload" : null;
    }
    if (bodyTypeSeen) {
      return "two overloads compute in " + m.bodyType().javaName();
    }
    if (m.roles().size() != reference.roles().size()) {
      return "they take different numbers of parameters";
    }
    if (m.predicate() != reference.predicate()) {
      return "one returns boolean and the other does not";
    }
    if (m.promote() != reference.promote()) {
      return "they declare different promote modes";
    }
    if (!m.methodName().equals(reference.methodName())) {
      return "they declare different method names";
    }
    if (m.numbersAfterFirst() != reference.numbersAfterFirst()) {
      return "they declare different numbersAfterFirst";
    }
    if (m.scalarInFloat32() != reference.scalarInFloat32()) {
      return "they declare different scalarInFloat32";
    }
    if (!m.dtypes().equals(reference.dtypes())) {
      return "they declare different dtypes";
    }
    if (m.identity() != reference.identity()) {
      return "they declare different identities";
    }
    if (m.associative() != reference.associative()) {
      return "they declare different associative";
    }
    String conflict = null;
    for (int i = 0; i < m.roles().size(); i++) {
      Role a = m.roles().get(i);
      Role b = reference.roles().get(i);
      boolean tensorLike = a != Role.SCALAR && b != Role.SCALAR;
      if (a != b && !(tensorLike && m.bodyType() == ValueType.BOOLEAN)) {
        conflict = "parameter " + (i + 1) + " is a tensor in one and @Scalar in the other";
      }
    }
    return conflict;
  }

  private Optional<OpModel> build(OpModel.DeclaringClass declaring, String opName,
      List<Method> methods) {
    methods = new ArrayList<>(methods);
    methods.sort(Comparator.comparing(Method::bodyType));
    // Roles come from a numeric overload when there is one: there a boolean is a condition.
    Method reference = methods.get(0);
    boolean ok = true;
    Map<ValueType, Method> seen = new LinkedHashMap<>();
    for (Method m : methods) {
      String conflict = overloadConflict(m, reference, seen.containsKey(m.bodyType()));
      if (conflict != null) {
        report.error(m.element(), Message.OVERLOAD_CONFLICT, signature(m.element()), opName,
            signature(reference.element()), conflict);
        ok = false;
      }
      seen.put(m.bodyType(), m);
    }
    if (!ok) {
      return Optional.empty();
    }
    List<OpModel.TensorParam> tensors = new ArrayList<>();
    List<OpModel.ScalarParam> scalars = new ArrayList<>();
    List<? extends VariableElement> params = reference.element().getParameters();
    for (int i = 0; i < params.size(); i++) {
      String pname = params.get(i).getSimpleName().toString();
      switch (reference.roles().get(i)) {
        case TENSOR -> tensors.add(new OpModel.TensorParam(pname, false));
        case CONDITION -> tensors.add(new OpModel.TensorParam(pname, true));
        case SCALAR -> {
          final int index = i;
          // A scalar is DOUBLE if any overload declares it double, else its type.
          ValueType t = methods.stream().map(m -> m.paramTypes().get(index))
              .min(Comparator.naturalOrder()).orElseThrow();
          scalars.add(new OpModel.ScalarParam(pname, t));
        }
      }
    }
    List<OpModel.Overload> overloads = new ArrayList<>();
    for (Method m : methods) {
      Map<String, Expr> names = new LinkedHashMap<>();
      int tensor = 0;
      int scalar = 0;
      for (int i = 0; i < m.roles().size(); i++) {
        String pname = m.element().getParameters().get(i).getSimpleName().toString();
        ValueType t = m.paramTypes().get(i);
        if (m.roles().get(i) == Role.SCALAR) {
          names.put(pname, new Expr.ScalarRef(scalar++, pname, t));
        } else {
          names.put(pname, new Expr.Operand(tensor++, pname, t));
        }
      }
      Optional<Body> body = lowering.lower(m.element(), m.bodyType(), names, m.results());
      if (body.isEmpty()) {
        ok = false;
        continue;
      }
      overloads.add(new OpModel.Overload(m.bodyType(), signature(m.element()), body.get()));
    }
    if (!ok) {
      return Optional.empty();
    }
    OpModel op = new OpModel(opName, declaring, reference.promote(), tensors, scalars,
        reference.predicate(), overloads, reference.scalarInFloat32(), reference.dtypes(),
        reference.identity(), reference.associative(), reference.results());
    if (!op.dtypes().isEmpty() && EntryPlanner.all().plan(op).isEmpty()) {
      AnnotationMirror annotation = annotation(reference.element(), ELEMENTWISE).orElseThrow();
      report.error(reference.element(), annotation, explicitValue(annotation, "dtypes"), Message.DTYPES,
          opName, "none of " + op.dtypes() + " is computed by its " + bodies(methods)
              + ", so no kernel would be generated (a double body computes the floating and"
              + " complex dtypes, a long body the integral ones and bool, an INT_TO_FLOAT op"
              + " float32 for integral operands)", knownDtypes());
      return Optional.empty();
    }
    return Optional.of(op);
  }

  private static String bodies(List<Method> methods) {
    return methods.stream().map(m -> m.bodyType().javaName()).collect(Collectors.joining(" and "))
        + (methods.size() == 1 ? " body" : " bodies");
  }

  /** {@code add(double, double)}, as javadoc {@code {@link}} writes it. */
  static String signature(ExecutableElement m) {
    return m.getSimpleName() + m.getParameters().stream()
        .map(p -> p.asType().toString())
        .collect(Collectors.joining(", ", "(", ")"));
  }

  private static boolean hasAnnotation(Element e, String name) {
    return annotation(e, name).isPresent();
  }

  private static Optional<AnnotationMirror> annotation(Element e, String name) {
    for (AnnotationMirror a : e.getAnnotationMirrors()) {
      TypeElement t = (TypeElement) a.getAnnotationType().asElement();
      if (t.getQualifiedName().contentEquals(name)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }
}
