package dev.ufunc4j.shape;

/**
 * One dimension of a {@link ShapeType}: a static size ({@code >= 0}) or dynamic, written {@code ?}
 * (MLIR's {@code ShapedType::kDynamic}), whose size is known only at run time. A value: immutable,
 * compared by size.
 */
public final class Dim {
  /** The dynamic dimension {@code ?}. */
  public static final Dim DYNAMIC = new Dim(-1);

  private static final Dim[] SMALL = new Dim[17];

  static {
    for (int i = 0; i < SMALL.length; i++) {
      SMALL[i] = new Dim(i);
    }
  }

  private final long size; // -1 for dynamic

  private Dim(long size) {
    this.size = size;
  }

  /**
   * {@return the static dimension of {@code size}}
   *
   * @param size the size (non-negative)
   * @throws IllegalArgumentException when {@code size} is negative (use {@link #DYNAMIC} for
   *     {@code ?})
   */
  public static Dim of(long size) {
    if (size < 0) {
      throw new IllegalArgumentException(
          "Dim.of: size " + size + " is negative; a dynamic dimension is Dim.DYNAMIC");
    }
    return size < SMALL.length ? SMALL[(int) size] : new Dim(size);
  }

  /**
   * {@code "?"} or a non-negative decimal size, as MLIR writes a dimension.
   *
   * @param text the dimension's text, as {@link #toString} writes it
   * @return the dimension
   * @throws IllegalArgumentException for anything else
   */
  public static Dim parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("Dim.parse: the text is null");
    }
    if (text.equals("?")) {
      return DYNAMIC;
    }
    if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException(
          "Dim.parse: '" + text + "' is neither '?' nor a non-negative size");
    }
    try {
      return of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Dim.parse: size '" + text + "' does not fit a long", e);
    }
  }

  /** {@return true for the dynamic size {@code ?}, unknown until run time} */
  public boolean isDynamic() {
    return size < 0;
  }

  /** {@return true for a size known at compile time} */
  public boolean isStatic() {
    return size >= 0;
  }

  /**
   * {@return the static size}
   *
   * @throws IllegalStateException for the dynamic dimension
   */
  public long size() {
    if (size < 0) {
      throw new IllegalStateException("the dynamic dimension ? has no static size");
    }
    return size;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Dim other && size == other.size;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(size);
  }

  /** {@code "?"} or the size. */
  @Override
  public String toString() {
    return size < 0 ? "?" : Long.toString(size);
  }
}
