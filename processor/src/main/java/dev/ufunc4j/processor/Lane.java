package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ufunc4j.dtype.DType;

/** A Vector API lane type: the element type of one vector. */
enum Lane {
  BYTE(1, 'B', TypeName.BYTE, "ByteVector", "BYTES", "JAVA_BYTE", false),
  SHORT(2, 'S', TypeName.SHORT, "ShortVector", "SHORTS", "JAVA_SHORT_UNALIGNED", false),
  INT(4, 'I', TypeName.INT, "IntVector", "INTS", "JAVA_INT_UNALIGNED", false),
  LONG(8, 'L', TypeName.LONG, "LongVector", "LONGS", "JAVA_LONG_UNALIGNED", false),
  FLOAT(4, 'F', TypeName.FLOAT, "FloatVector", "FLOATS", "JAVA_FLOAT_UNALIGNED", true),
  DOUBLE(8, 'D', TypeName.DOUBLE, "DoubleVector", "DOUBLES", "JAVA_DOUBLE_UNALIGNED", true);

  static final String VECTOR_PACKAGE = "jdk.incubator.vector";

  final int bytes;
  final char letter;
  final TypeName primitive;
  final ClassName vector;
  /** Name of the kernel's species constant for this lane type. */
  final String species;
  /** The {@code ValueLayout} constant for one element. */
  final String layout;
  final boolean floating;

  Lane(int bytes, char letter, TypeName primitive, String vector, String species, String layout,
      boolean floating) {
    this.bytes = bytes;
    this.letter = letter;
    this.primitive = primitive;
    this.vector = ClassName.get(VECTOR_PACKAGE, vector);
    this.species = species;
    this.layout = layout;
    this.floating = floating;
  }

  /**
   * Name of the kernel's species constant for complex values whose components are this lane type:
   * interleaved (re, im), two lanes per complex element.
   */
  String pairSpecies() {
    return name() + "_PAIRS";
  }

  ClassName boxed() {
    return (ClassName) primitive.box();
  }

  /** How a dtype's elements are stored: bool as byte, 16-bit floats as their bit patterns. */
  static Lane storage(DType d) {
    return switch (d) {
      case BOOL, UINT8, INT8, FLOAT8_E4M3FN, FLOAT8_E5M2 -> BYTE;
      case INT16, UINT16, FLOAT16, BFLOAT16, COMPLEX32 -> SHORT;
      case INT32, UINT32 -> INT;
      case INT64, UINT64 -> LONG;
      case FLOAT32, COMPLEX64 -> FLOAT;
      case FLOAT64, COMPLEX128 -> DOUBLE;
    };
  }
}
