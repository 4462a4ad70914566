package dev.ufunc4j.dtype;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The element types of ufunc4j, named and ordered as in PyTorch.
 *
 * <p>Storage: {@link #BOOL} is one byte holding 0 or 1; {@link #FLOAT16} and {@link #BFLOAT16} are
 * stored as their 16-bit patterns; complex types are interleaved (re, im) pairs of their component
 * type. {@link #FLOAT8_E4M3FN} and {@link #FLOAT8_E5M2} are storage-only: they load, store and
 * cast, and refuse promotion and arithmetic, as in PyTorch.
 */
public enum DType {
  /** bool: 0 or 1, stored as one byte. */
  BOOL("bool", "Bool", 1, Kind.BOOL),
  /** uint8: unsigned 8-bit integer. */
  UINT8("uint8", "Byte", 1, Kind.UNSIGNED),
  /** int8: signed 8-bit integer. */
  INT8("int8", "Char", 1, Kind.SIGNED),
  /** int16: signed 16-bit integer. */
  INT16("int16", "Short", 2, Kind.SIGNED),
  /** int32: signed 32-bit integer. */
  INT32("int32", "Int", 4, Kind.SIGNED),
  /** int64: signed 64-bit integer (Java {@code long}); Java integral numbers promote as it. */
  INT64("int64", "Long", 8, Kind.SIGNED),
  /** uint16: unsigned 16-bit integer. */
  UINT16("uint16", "UInt16", 2, Kind.UNSIGNED),
  /** uint32: unsigned 32-bit integer. */
  UINT32("uint32", "UInt32", 4, Kind.UNSIGNED),
  /** uint64: unsigned 64-bit integer. */
  UINT64("uint64", "UInt64", 8, Kind.UNSIGNED),
  /** float16: IEEE half precision, stored as its bit pattern, computed in float32. */
  FLOAT16("float16", "Half", 2, Kind.FLOATING),
  /** bfloat16: the upper half of a float32, stored as its bit pattern, computed in float32. */
  BFLOAT16("bfloat16", "BFloat16", 2, Kind.FLOATING),
  /** float32: IEEE single precision; the default float dtype. */
  FLOAT32("float32", "Float", 4, Kind.FLOATING),
  /** float64: IEEE double precision (Java {@code double}). */
  FLOAT64("float64", "Double", 8, Kind.FLOATING),
  /** complex32: two float16 (real, imaginary), computed in complex64. */
  COMPLEX32("complex32", "ComplexHalf", 4, Kind.COMPLEX),
  /** complex64: two float32 (real, imaginary), interleaved. */
  COMPLEX64("complex64", "ComplexFloat", 8, Kind.COMPLEX),
  /** complex128: two float64 (real, imaginary), interleaved. */
  COMPLEX128("complex128", "ComplexDouble", 16, Kind.COMPLEX),
  /** float8_e4m3fn: storage only (load, store, cast; no arithmetic). */
  FLOAT8_E4M3FN("float8_e4m3fn", "Float8_e4m3fn", 1, Kind.FLOAT8),
  /** float8_e5m2: storage only (load, store, cast; no arithmetic). */
  FLOAT8_E5M2("float8_e5m2", "Float8_e5m2", 1, Kind.FLOAT8);

  private enum Kind {
    BOOL,
    UNSIGNED,
    SIGNED,
    FLOATING,
    COMPLEX,
    FLOAT8
  }

  private final String torchName;
  private final String scalarTypeName;
  private final int byteSize;
  private final Kind kind;

  DType(String torchName, String scalarTypeName, int byteSize, Kind kind) {
    this.torchName = torchName;
    this.scalarTypeName = scalarTypeName;
    this.byteSize = byteSize;
    this.kind = kind;
  }

  /**
   * {@return PyTorch's name without the {@code torch.} prefix: {@code "float32"}, {@code
   * "complex64"}}
   */
  public String torchName() {
    return torchName;
  }

  /**
   * {@return PyTorch's {@code c10::ScalarType} name as it appears in PyTorch's error messages:
   * {@code "Float"}, {@code "Int"}, {@code "ComplexFloat"}}
   */
  public String scalarTypeName() {
    return scalarTypeName;
  }

  /** {@return bytes one element occupies in storage (a complex element is both components)} */
  public int byteSize() {
    return byteSize;
  }

  /** {@return true for the real floating types, float8 included; false for complex} */
  public boolean isFloatingPoint() {
    return kind == Kind.FLOATING || kind == Kind.FLOAT8;
  }

  /**
   * {@return true for complex32, complex64 and complex128 (interleaved real and imaginary parts)}
   */
  public boolean isComplex() {
    return kind == Kind.COMPLEX;
  }

  /**
   * {@return true for the integer types, and for {@link #BOOL} when {@code includeBool} is set}
   *
   * @param includeBool whether BOOL counts as integral
   */
  public boolean isIntegral(boolean includeBool) {
    return kind == Kind.SIGNED || kind == Kind.UNSIGNED || (includeBool && kind == Kind.BOOL);
  }

  /** {@return true for UINT8, UINT16, UINT32 and UINT64 (not for BOOL)} */
  public boolean isUnsigned() {
    return kind == Kind.UNSIGNED;
  }

  /** {@return true for the storage-only 8-bit float types} */
  public boolean isFloat8() {
    return kind == Kind.FLOAT8;
  }

  /** {@return the real type of one component: COMPLEX64 gives FLOAT32; a real type gives itself} */
  public DType componentType() {
    return switch (this) {
      case COMPLEX32 -> FLOAT16;
      case COMPLEX64 -> FLOAT32;
      case COMPLEX128 -> FLOAT64;
      default -> this;
    };
  }

  /** {@return the complex type whose components are this type: FLOAT32 gives COMPLEX64} */
  public DType toComplex() {
    return switch (this) {
      case FLOAT16, COMPLEX32 -> COMPLEX32;
      case FLOAT32, COMPLEX64 -> COMPLEX64;
      case FLOAT64, COMPLEX128 -> COMPLEX128;
      default ->
          throw new IllegalArgumentException("dtype " + torchName + " has no complex counterpart");
    };
  }

  private static final Map<String, DType> BY_NAME = buildNames();

  private static Map<String, DType> buildNames() {
    Map<String, DType> names = new TreeMap<>();
    for (DType t : values()) {
      names.put(t.torchName, t);
    }
    // PyTorch's aliases (torch.float, torch.half, torch.long, ...).
    names.put("float", FLOAT32);
    names.put("double", FLOAT64);
    names.put("half", FLOAT16);
    names.put("short", INT16);
    names.put("int", INT32);
    names.put("long", INT64);
    names.put("cfloat", COMPLEX64);
    names.put("cdouble", COMPLEX128);
    names.put("chalf", COMPLEX32);
    return names;
  }

  /**
   * The dtype with PyTorch name {@code name} ({@code "float32"}, {@code "torch.int64"}, or an alias
   * such as {@code "float"} or {@code "long"}); case-insensitive. {@link #of(String)} also accepts
   * the enum constants' names ({@code "FLOAT32"}).
   *
   * @param name a PyTorch dtype name
   * @return the dtype
   * @throws IllegalArgumentException naming the unknown name and the known ones
   */
  public static DType fromName(String name) {
    if (name == null) {
      throw new IllegalArgumentException("dtype name must not be null");
    }
    String key = name.strip().toLowerCase(Locale.ROOT);
    if (key.startsWith("torch.")) {
      key = key.substring("torch.".length());
    }
    DType t = BY_NAME.get(key);
    if (t == null) {
      throw new IllegalArgumentException(
          "unknown dtype name '" + name + "'; known names: " + BY_NAME.keySet());
    }
    return t;
  }

  /**
   * The dtype named {@code name}, by either spelling: PyTorch's name ({@code "float32"}, {@code
   * "torch.int64"}, an alias such as {@code "float"} or {@code "long"}) or this enum's constant
   * ({@code "FLOAT32"}, {@code "INT64"}); case-insensitive. The one lookup to use for a name from
   * text (a configuration file, a command line, Python): {@link #valueOf(String)}, which every Java
   * enum has, accepts only the exact constant ({@code valueOf("float32")} throws), and {@link
   * #fromName(String)} only PyTorch's names.
   *
   * @param name a PyTorch dtype name or an enum constant's name
   * @return the dtype
   * @throws IllegalArgumentException naming the unknown name and the known ones
   */
  public static DType of(String name) {
    if (name == null) {
      throw new IllegalArgumentException("dtype name must not be null");
    }
    String key = name.strip().toUpperCase(Locale.ROOT);
    for (DType t : values()) {
      if (t.name().equals(key)) {
        return t;
      }
    }
    try {
      return fromName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown dtype name '" + name + "'; known: PyTorch's names " + BY_NAME.keySet()
              + " or the constants " + java.util.Arrays.toString(values()).toUpperCase(Locale.ROOT),
          e);
    }
  }

  @Override
  public String toString() {
    return torchName;
  }
}
