package dev.ufunc4j.processor;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.dtype.PromotionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Enumerates an op's kernel table from the promotion matrix: every combination of operand dtypes
 * (all pairs for one or two promoting operands; one dtype for all of three or more) whose promoted
 * dtype one of the op's overloads computes. A complex promoted dtype is computed by the {@code
 * double} overload when {@link ComplexBodyEmitter#liftable} says complex arithmetic can; otherwise
 * the op has no complex entries (and the runtime says why). Deterministic: dtypes in declaration
 * order.
 */
final class EntryPlanner {

  private final Set<DType> dtypes;

  /** @param dtypes the dtypes to generate kernels for (all but float8 by default) */
  EntryPlanner(Set<DType> dtypes) {
    this.dtypes = dtypes;
  }

  /** A planner for every dtype but float8 (the default without {@code -Aufunc4j.dtypes}). */
  static EntryPlanner all() {
    Set<DType> all = java.util.EnumSet.allOf(DType.class);
    all.removeIf(DType::isFloat8);
    return new EntryPlanner(all);
  }

  /**
   * The op's kernel table: the entries of the promotion matrix over the planner's dtypes that the
   * op's bodies compute, less those {@code @Elementwise(dtypes)} leaves out (an operand or the
   * promoted dtype outside the op's set).
   */
  List<KernelEntry> plan(OpModel op) {
    List<KernelEntry> entries = planAll(op);
    entries.removeIf(e -> !op.allows(e.promoted()) || !operandsAllowed(op, e));
    return entries;
  }

  private static boolean operandsAllowed(OpModel op, KernelEntry e) {
    for (int i = 0; i < e.operands().size(); i++) {
      if (!op.tensors().get(i).condition() && !op.allows(e.operands().get(i))) {
        return false;
      }
    }
    return true;
  }

  private List<KernelEntry> planAll(OpModel op) {
    List<KernelEntry> entries = new ArrayList<>();
    List<DType> candidates = dtypes.stream().sorted().toList();
    int promoting = op.promotingArity();
    List<List<DType>> tuples = new ArrayList<>();
    if (promoting <= 2) {
      tuples.add(List.of());
      for (int i = 0; i < promoting; i++) {
        List<List<DType>> next = new ArrayList<>();
        for (List<DType> t : tuples) {
          for (DType d : candidates) {
            List<DType> n = new ArrayList<>(t);
            n.add(d);
            next.add(n);
          }
        }
        tuples = next;
      }
    } else {
      for (DType d : candidates) {
        tuples.add(java.util.Collections.nCopies(promoting, d));
      }
    }
    boolean doubleScalar =
        op.scalars().stream().anyMatch(s -> s.type() == ValueType.DOUBLE);
    boolean longScalar = op.scalars().stream().anyMatch(s -> s.type() == ValueType.LONG);
    for (List<DType> tuple : tuples) {
      DType promoted = tuple.get(0);
      for (DType d : tuple) {
        promoted = promoted == null ? null : promoteOrNull(promoted, d);
      }
      if (promoted == null || promoted.isFloat8()) {
        continue;
      }
      List<DType> operands = withConditions(op, tuple);
      DType moded = op.promote() == Promote.INT_TO_FLOAT && !promoted.isFloatingPoint()
              && !promoted.isComplex()
          ? DType.FLOAT32
          : promoted;
      entry(op, operands, moded, false).ifPresent(entries::add);
      if (!moded.isFloatingPoint() && !moded.isComplex()) {
        if (doubleScalar) {
          entry(op, operands, DType.FLOAT32, true).ifPresent(entries::add);
        }
        // bool tensors with an integral wrapped scalar compute in int64, also where a double
        // overload declares the op's scalars and a long overload takes long ones.
        if (moded == DType.BOOL
            && (longScalar || doubleScalar && op.overload(ValueType.LONG).isPresent())) {
          entry(op, operands, DType.INT64, true).ifPresent(entries::add);
        }
      }
    }
    return entries;
  }

  /** The default policy's promotion, or null where it refuses (float8 with anything else). */
  private static DType promoteOrNull(DType a, DType b) {
    try {
      return Promotion.promoteTypes(a, b);
    } catch (PromotionException e) {
      return null;
    }
  }

  private static List<DType> withConditions(OpModel op, List<DType> promotingDtypes) {
    List<DType> all = new ArrayList<>();
    int next = 0;
    for (OpModel.TensorParam t : op.tensors()) {
      all.add(t.condition() ? DType.BOOL : promotingDtypes.get(next++));
    }
    return all;
  }

  private Optional<KernelEntry> entry(
      OpModel op, List<DType> operands, DType promoted, boolean scalarPromoted) {
    DType result = op.predicate() ? DType.BOOL : promoted;
    if (promoted.isComplex()) {
      // Lifted to complex arithmetic; COMPLEX32 computes in COMPLEX64, as float16 in float32.
      Optional<OpModel.Overload> floating = op.overload(ValueType.DOUBLE);
      if (floating.isEmpty() || op.hasSeveralResults()
          || !ComplexBodyEmitter.liftable(op, floating.get().body())) {
        return Optional.empty();
      }
      DType compute = promoted == DType.COMPLEX128 ? DType.COMPLEX128 : DType.COMPLEX64;
      Lane lanes = compute == DType.COMPLEX128 ? Lane.DOUBLE : Lane.FLOAT;
      return Optional.of(new KernelEntry(
          operands, promoted, compute, result, ValueType.DOUBLE, lanes, false, scalarPromoted));
    }
    if (promoted.isFloatingPoint()) {
      if (op.overload(ValueType.DOUBLE).isEmpty()) {
        return Optional.empty();
      }
      DType compute = promoted == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
      Lane lanes = compute == DType.FLOAT64 ? Lane.DOUBLE : Lane.FLOAT;
      return Optional.of(new KernelEntry(
          operands, promoted, compute, result, ValueType.DOUBLE, lanes, false, scalarPromoted));
    }
    if (promoted == DType.BOOL && op.overload(ValueType.BOOLEAN).isPresent()) {
      return Optional.of(new KernelEntry(
          operands, promoted, DType.BOOL, result, ValueType.BOOLEAN, Lane.BYTE, true,
          scalarPromoted));
    }
    Optional<OpModel.Overload> integral = op.overload(ValueType.LONG);
    if (integral.isEmpty()) {
      return Optional.empty();
    }
    Body body = integral.get().body();
    return IntegerLanes.choose(body, promoted, !op.predicate() && promoted == DType.BOOL)
        .map(lanes -> new KernelEntry(
            operands, promoted, promoted, result, ValueType.LONG, lanes,
            promoted == DType.UINT64
                || lanes != Lane.LONG && (promoted.isUnsigned() || promoted == DType.BOOL),
            scalarPromoted));
  }
}
