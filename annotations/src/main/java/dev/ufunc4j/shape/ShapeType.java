package dev.ufunc4j.shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The shape part of an MLIR tensor type: ranked, with one {@link Dim} per dimension ({@code
 * tensor<?x2xf32>} has the shape {@code ?x2}; {@code tensor<f32>} is ranked with rank 0), or
 * unranked ({@code tensor<*xf32>}). The element type is not part of it: {@link Broadcastable} does
 * not look at element types. A value: immutable, compared by its dimensions.
 */
public final class ShapeType {
  private static final ShapeType UNRANKED = new ShapeType(null);

  private final List<Dim> dims; // null when unranked

  private ShapeType(List<Dim> dims) {
    this.dims = dims;
  }

  /** {@return the unranked shape {@code *}} */
  public static ShapeType unranked() {
    return UNRANKED;
  }

  /**
   * {@return the ranked shape with {@code dims} (none: rank 0)}
   *
   * @param dims the dimensions, outermost first
   * @throws IllegalArgumentException when {@code dims} or one of them is null
   */
  public static ShapeType ranked(Dim... dims) {
    if (dims == null) {
      throw new IllegalArgumentException("ShapeType.ranked: the dimensions are null");
    }
    return ranked(Arrays.asList(dims));
  }

  /**
   * {@link #ranked(Dim...)} from a list (copied).
   *
   * @param dims the dimensions, outermost first
   * @return the shape
   */
  public static ShapeType ranked(List<Dim> dims) {
    if (dims == null) {
      throw new IllegalArgumentException("ShapeType.ranked: the dimensions are null");
    }
    List<Dim> copy = new ArrayList<>(dims);
    for (int i = 0; i < copy.size(); i++) {
      if (copy.get(i) == null) {
        throw new IllegalArgumentException(
            "ShapeType.ranked: dimension " + i + " is null in " + dims);
      }
    }
    return new ShapeType(Collections.unmodifiableList(copy));
  }

  /**
   * {@return the static shape with {@code sizes}, as a tensor's {@code shape()}}
   *
   * @param sizes the sizes, outermost first
   * @throws IllegalArgumentException when {@code sizes} is null or a size is negative
   */
  public static ShapeType of(long... sizes) {
    if (sizes == null) {
      throw new IllegalArgumentException("ShapeType.of: the sizes are null");
    }
    Dim[] dims = new Dim[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 0) {
        throw new IllegalArgumentException(
            "ShapeType.of: size " + sizes[i] + " at dimension " + i + " of "
                + Arrays.toString(sizes) + " is negative");
      }
      dims[i] = Dim.of(sizes[i]);
    }
    return ranked(dims);
  }

  /**
   * {@return a shape written as in an MLIR tensor type: {@code "*"} (unranked), {@code ""} (rank
   * 0), or dimensions joined by {@code x}, each {@code ?} or a size ({@code "?x2x3"})}
   *
   * @param text the shape's text, as {@link #toString} writes it
   * @throws IllegalArgumentException for anything else, naming the text
   */
  public static ShapeType parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("ShapeType.parse: the text is null");
    }
    if (text.equals("*")) {
      return UNRANKED;
    }
    if (text.isEmpty()) {
      return ranked();
    }
    String[] parts = text.split("x", -1);
    Dim[] dims = new Dim[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        dims[i] = Dim.parse(parts[i]);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "ShapeType.parse: '" + text + "' is not a shape such as '?x2x3', '' or '*': "
                + e.getMessage(), e);
      }
    }
    return ranked(dims);
  }

  /** {@return true when the rank is known (the dimensions may still be dynamic)} */
  public boolean isRanked() {
    return dims != null;
  }

  /**
   * {@return the number of dimensions}
   *
   * @throws IllegalStateException when unranked
   */
  public int rank() {
    return ranked("rank").size();
  }

  /**
   * {@return the dimensions, unmodifiable}
   *
   * @throws IllegalStateException when unranked
   */
  public List<Dim> dims() {
    return ranked("dims");
  }

  /**
   * Dimension {@code i}.
   *
   * @param i the dimension's index, outermost 0
   * @return the dimension
   * @throws IllegalStateException when unranked
   * @throws IndexOutOfBoundsException when {@code i} is not in {@code [0, rank)}
   */
  public Dim dim(int i) {
    List<Dim> d = ranked("dim");
    if (i < 0 || i >= d.size()) {
      throw new IndexOutOfBoundsException(
          "dimension " + i + " of shape " + this + " of rank " + d.size());
    }
    return d.get(i);
  }

  /**
   * Ranked with every dimension static.
   *
   * @return whether the rank and every size are known
   */
  public boolean isStatic() {
    return dims != null && dims.stream().allMatch(Dim::isStatic);
  }

  /**
   * {@return the sizes of a static shape, a new array}
   *
   * @throws IllegalStateException when unranked or a dimension is dynamic
   */
  public long[] sizes() {
    if (!isStatic()) {
      throw new IllegalStateException("shape " + this + " is not static");
    }
    return dims.stream().mapToLong(Dim::size).toArray();
  }

  /**
   * {@return the MLIR form {@link #parse} reads: {@code "?x2"}, {@code ""} for rank 0, {@code "*"}}
   */
  public String toMlir() {
    if (dims == null) {
      return "*";
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < dims.size(); i++) {
      s.append(i == 0 ? "" : "x").append(dims.get(i));
    }
    return s.toString();
  }

  private List<Dim> ranked(String what) {
    if (dims == null) {
      throw new IllegalStateException("an unranked shape has no " + what);
    }
    return dims;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShapeType other
        && (dims == null ? other.dims == null : dims.equals(other.dims));
  }

  @Override
  public int hashCode() {
    return dims == null ? 0 : dims.hashCode() + 1;
  }

  /** {@code [?, 2]}, {@code []} for rank 0, {@code [*]} when unranked. */
  @Override
  public String toString() {
    return dims == null ? "[*]" : dims.toString();
  }
}
