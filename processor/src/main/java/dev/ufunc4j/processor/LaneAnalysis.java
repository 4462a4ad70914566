package dev.ufunc4j.processor;

import dev.ufunc4j.dtype.DType;

/**
 * The lane analysis of one kernel, before any of its code is written: the widest lane type its
 * code touches, in bytes (a complex element counting both components). {@code LANES} is a
 * preferred-size vector of that width, and whether a byte or short operand travels packed (fewer
 * than 64 bits per step, {@link KernelGenerator}) follows from it, so the loops need it while they
 * are written. A pure function of the entry, the op's operands and results, and the lowered body.
 *
 * <p>Why the body hardly matters: a body computes in the entry's compute lanes (a floating body's
 * bit tricks use the integer lanes of the same width, {@link MathEmitter}, {@link
 * FloatBitsEmitter}); the wider lanes come from the conversions between the operands' and results'
 * storage and the compute lanes ({@link KernelGenerator#toCompute}, {@link VectorCode}): an
 * unsigned int32 widens to long lanes on its way to floating lanes, float16 goes through int and
 * float lanes. The species set itself is recorded as the code is written ({@link VectorCode}
 * records what it names), and {@link KernelGenerator#generate} checks that its widest lane is this
 * one: an emitter that starts touching a wider lane fails the build there, not silently.
 */
final class LaneAnalysis {

  private LaneAnalysis() {}

  /** The bytes of {@code LANES}'s lane type when the code touches no lanes at all. */
  static final int NO_LANES = 4;

  /**
   * The widest lane {@code entry}'s code touches, in bytes. {@code vectorCode}: whether any of its
   * loops is vector code (false for a fused float16 kernel, whose loops are all scalar).
   */
  static int widestBytes(OpModel op, KernelEntry entry, boolean vectorCode) {
    if (!vectorCode) {
      return NO_LANES;
    }
    Lane compute = entry.lanes();
    // The fast loops' bound names the compute species (pair species for a complex kernel).
    int widest = entry.complex() ? 2 * compute.bytes : compute.bytes;
    for (int k = 0; k < op.tensors().size(); k++) {
      widest = Math.max(widest, operandBytes(entry, entry.operands().get(k),
          op.tensors().get(k).condition()));
    }
    if (!op.hasSeveralResults()) {
      widest = Math.max(widest, resultBytes(entry, entry.result()));
    } else {
      for (OpModel.Component c : op.results().components()) {
        widest = Math.max(widest, resultBytes(entry,
            c.type() == ValueType.BOOLEAN ? DType.BOOL : entry.result()));
      }
    }
    return widest;
  }

  /** The widest lane loading an operand of {@code dtype} and converting it to compute touches. */
  private static int operandBytes(KernelEntry entry, DType dtype, boolean condition) {
    Lane storage = Lane.storage(dtype);
    if (dtype.isComplex()) {
      // Loaded as pairs; complex32 widens to float pairs (through int pairs).
      return dtype == DType.COMPLEX32 ? 2 * Lane.FLOAT.bytes : 2 * storage.bytes;
    }
    if (entry.bodyType() != ValueType.DOUBLE || condition) {
      return storage.bytes; // converted straight to the compute lanes
    }
    int widest = storage.bytes;
    switch (dtype) {
      case FLOAT16, BFLOAT16 -> widest = Math.max(widest, Lane.FLOAT.bytes);
      case FLOAT32, FLOAT64 -> { }
      default -> {
        // VectorCode#integralToFloating: unsigned and bool values zero-extend first.
        if (dtype.isUnsigned() || dtype == DType.BOOL) {
          widest = Math.max(widest, storage.bytes < Lane.INT.bytes ? Lane.INT.bytes
              : Lane.LONG.bytes);
        }
        DType promoted = entry.promoted().componentType();
        if (promoted == DType.FLOAT16 || promoted == DType.BFLOAT16) {
          widest = Math.max(widest, Lane.FLOAT.bytes); // rounded through float16 bits
        }
      }
    }
    return widest;
  }

  /** The widest lane converting the compute lanes to a result of {@code dtype} touches. */
  private static int resultBytes(KernelEntry entry, DType dtype) {
    Lane storage = Lane.storage(dtype);
    if (dtype.isComplex()) {
      return dtype == DType.COMPLEX32 ? 2 * Lane.INT.bytes : 2 * storage.bytes;
    }
    boolean halfBits = entry.bodyType() == ValueType.DOUBLE
        && (dtype == DType.FLOAT16 || dtype == DType.BFLOAT16);
    return halfBits ? Math.max(storage.bytes, Lane.INT.bytes) : storage.bytes;
  }
}
