package dev.ufunc4j.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One static method of a facade (a "form" of an op, as PyTorch's overloads {@code add.Tensor},
 * {@code add.Scalar}, {@code add.out}): which tensor operands it takes as Java numbers, and
 * whether a target ({@code out}) or broadcast dimensions come last. {@link #of} lists an op's
 * forms in the facade's order; {@link Instance} derives the instance forms from them, so every
 * op gets its whole family by construction.
 *
 * @param operands per tensor operand, what this form takes there: a tensor, or a Java {@code
 *     Number} or {@code boolean} that the method wraps
 */
record Form(FacadeModel.Op op, List<Operand> operands, Tail tail) {

  Form {
    operands = List.copyOf(operands);
  }

  /**
   * What a form takes in place of a tensor operand: the tensor, or a Java value wrapped as PyTorch
   * wraps a Python scalar (a {@code Number} as an int or a float, a {@code boolean} as a bool).
   */
  enum Operand {
    TENSOR,
    NUMBER,
    BOOLEAN
  }

  /** What follows the operands and scalars. */
  enum Tail {
    NONE,
    OUT,
    DIMS
  }

  /** What a parameter is. */
  enum Kind {
    TENSOR,
    NUMBER,
    BOOLEAN,
    SCALAR,
    TARGET,
    DIMS
  }

  /**
   * A parameter of the form.
   *
   * @param index the tensor operand's or scalar's index in the op, -1 for a target or dims
   */
  record Param(String name, Kind kind, int index) {}

  /**
   * The op's forms, in order: the plain form and its {@code out=} form; then, each with its
   * {@code out=} form, a Java number in place of either of exactly two promoting operands (never
   * both: PyTorch has {@code add(t, 2)} and {@code add(2, t)}, not {@code add(2, 3)}), and with
   * {@code numbersAfterFirst} every promoting operand after the first together ({@code clamp(x,
   * 0, 6)}); then the same positions again with a Java {@code boolean} in one or more of them
   * ({@code add(t, true)}, {@code clamp(x, true, 5)}: PyTorch takes a Python bool wherever it
   * takes a number); last, for exactly two tensor operands, both promoting, the {@code
   * BroadcastDims} form.
   */
  static List<Form> of(FacadeModel.Op op) {
    OpModel model = op.model();
    int n = model.tensors().size();
    List<Integer> promoting = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!model.tensors().get(i).condition()) {
        promoting.add(i);
      }
    }
    Set<Set<Integer>> numberSets = new LinkedHashSet<>();
    if (promoting.size() == 2) {
      for (int i : promoting) {
        numberSets.add(Set.of(i));
      }
    }
    if (op.numbersAfterFirst()) {
      Set<Integer> afterFirst = promoting.stream().filter(i -> i > 0).collect(Collectors.toSet());
      if (!afterFirst.isEmpty()) {
        numberSets.add(afterFirst);
      }
    }
    List<List<Operand>> valued = new ArrayList<>();
    for (Set<Integer> set : numberSets) {
      valued.add(operands(n, set, Set.of()));
    }
    for (Set<Integer> set : numberSets) {
      // Every way of making some of the set's positions boolean and the rest Number: clamp(x,
      // true, 5) as well as clamp(x, true, false). All-Number is the form above.
      List<Integer> positions = set.stream().sorted().toList();
      for (int mask = (1 << positions.size()) - 1; mask > 0; mask--) {
        Set<Integer> booleans = new HashSet<>();
        for (int k = 0; k < positions.size(); k++) {
          if ((mask & (1 << (positions.size() - 1 - k))) != 0) {
            booleans.add(positions.get(k));
          }
        }
        valued.add(operands(n, set, booleans));
      }
    }
    List<Form> forms = new ArrayList<>();
    forms.add(new Form(op, operands(n, Set.of(), Set.of()), Tail.NONE));
    forms.add(new Form(op, operands(n, Set.of(), Set.of()), Tail.OUT));
    for (List<Operand> operands : valued) {
      forms.add(new Form(op, operands, Tail.NONE));
      forms.add(new Form(op, operands, Tail.OUT));
    }
    if (n == 2 && promoting.size() == 2) {
      forms.add(new Form(op, operands(n, Set.of(), Set.of()), Tail.DIMS));
    }
    return forms;
  }

  /** Per operand: a boolean in {@code booleans}, else a Number in {@code values}, else a tensor. */
  private static List<Operand> operands(int n, Set<Integer> values, Set<Integer> booleans) {
    List<Operand> operands = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      operands.add(booleans.contains(i) ? Operand.BOOLEAN
          : values.contains(i) ? Operand.NUMBER
          : Operand.TENSOR);
    }
    return operands;
  }

  /** Whether the form takes a Java value (number or boolean) for this operand, and wraps it. */
  boolean isWrapped(int operand) {
    return operands.get(operand) != Operand.TENSOR;
  }

  /** The names of the op's operands and scalars, which the other names must avoid. */
  private Set<String> operandNames() {
    Set<String> names = new HashSet<>();
    op.model().tensors().forEach(t -> names.add(t.name()));
    op.model().scalars().forEach(s -> names.add(s.name()));
    return names;
  }

  /**
   * The target's name ({@code out}, or {@code out_} beside an operand named out), whether or not
   * this form has a target.
   */
  String targetName() {
    return unused("out", operandNames());
  }

  String dimsName() {
    return unused("dims", operandNames());
  }

  /** A free name for a local, e.g. the lifted operands of the {@code BroadcastDims} form. */
  String localName(String wanted) {
    Set<String> names = operandNames();
    names.add(dimsName());
    names.add(targetName());
    return unused(wanted, names);
  }

  List<Param> params() {
    List<Param> params = new ArrayList<>();
    for (int i = 0; i < op.model().tensors().size(); i++) {
      params.add(new Param(op.model().tensors().get(i).name(), switch (operands.get(i)) {
        case TENSOR -> Kind.TENSOR;
        case NUMBER -> Kind.NUMBER;
        case BOOLEAN -> Kind.BOOLEAN;
      }, i));
    }
    for (int i = 0; i < op.model().scalars().size(); i++) {
      params.add(new Param(op.model().scalars().get(i).name(), Kind.SCALAR, i));
    }
    switch (tail) {
      case OUT -> {
        if (op.model().hasSeveralResults()) {
          // One target per component (issue 26): divmod(a, b, quotientOut, remainderOut).
          for (OpModel.Component c : op.model().results().components()) {
            params.add(new Param(unused(c.name() + "Out", operandNames()), Kind.TARGET, -1));
          }
        } else {
          params.add(new Param(targetName(), Kind.TARGET, -1));
        }
      }
      case DIMS -> params.add(new Param(dimsName(), Kind.DIMS, -1));
      case NONE -> {}
    }
    return params;
  }

  /** The Java type of a parameter, as the facade declares it. */
  String javaType(Param p) {
    return switch (p.kind()) {
      case TENSOR, TARGET -> "Tensor";
      case NUMBER -> "Number";
      case BOOLEAN -> "boolean";
      case DIMS -> "BroadcastDims";
      case SCALAR -> op.model().scalars().get(p.index()).type() == ValueType.BOOLEAN
          ? "boolean"
          : "Number";
    };
  }

  /** {@code add(Tensor, Number)}: the method's name and parameter types. */
  String signature() {
    return op.methodName() + params().stream().map(this::javaType)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  /** Whether this form has an instance form: its first parameter is a promoting tensor. */
  boolean hasReceiver() {
    return !isWrapped(0) && !op.model().tensors().get(0).condition();
  }

  /** {@code name}, or {@code name_}, {@code name__} ... if a parameter already has it. */
  static String unused(String name, Set<String> names) {
    while (names.contains(name)) {
      name += "_";
    }
    return name;
  }

  /**
   * An instance form: the static form with its first operand as the receiver ({@code
   * a.add(b)}), or, for an {@code out=} form, the receiver also as the target ({@code
   * a.addInPlace(b)}).
   */
  record Instance(Form form) {

    /** The instance forms of these static forms, in the same order: plain ones, then in place. */
    static List<Instance> of(List<Form> forms) {
      List<Instance> plain = new ArrayList<>();
      List<Instance> inPlace = new ArrayList<>();
      for (Form f : forms) {
        if (f.hasReceiver()) {
          (f.tail() == Tail.OUT ? inPlace : plain).add(new Instance(f));
        }
      }
      plain.addAll(inPlace);
      return plain;
    }

    boolean inPlace() {
      return form.tail() == Tail.OUT;
    }

    String name() {
      return form.op().methodName() + (inPlace() ? "InPlace" : "");
    }

    /** The parameters after the receiver (and without the target when in place). */
    List<Param> params() {
      List<Param> all = form.params();
      return all.subList(1, inPlace() ? all.size() - 1 : all.size());
    }

    String signature() {
      return name() + params().stream().map(form::javaType)
          .collect(Collectors.joining(", ", "(", ")"));
    }
  }
}
