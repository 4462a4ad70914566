package dev.ufunc4j.dtype;

/**
 * The promotion matrix as data: the result of promoting the row dtype with the column dtype.
 *
 * <p>The grid is PyTorch's {@code c10::promoteTypes} (c10/core/ScalarType.cpp), widened to the 18
 * dtypes ufunc4j has, in {@link DType} order. Cell codes:
 *
 * <ul>
 *   <li>{@code f4} etc.: the result dtype, under both policies;
 *   <li>{@code i4*}: a ufunc4j extension (DESIGN.md, "Type promotion"): the {@link
 *       PromotionPolicy#DEFAULT} result where PyTorch refuses uint16/32/64 with a non-floating
 *       type, so {@link PromotionPolicy#TORCH} raises PyTorch's uint error instead;
 *   <li>{@code --}: refused under both policies (float8 with another dtype).
 * </ul>
 *
 * The extension cells follow NumPy 2 for integer pairs (unsigned + signed gives the smallest signed
 * type holding both ranges; uint64 + signed gives float64) and give the floating or complex type
 * for unsigned + floating/complex, as PyTorch does for the floating types.
 */
final class PromotionTable {
  private PromotionTable() {}

  // Column order = row order = DType order. Read row "u2", column "i1": uint16 + int8 -> int32.
  private static final String[] GRID = {
    //        b1  u1  i1  i2  i4  i8  u2  u4  u8  f2  bf  f4  f8  c2  c4  c8  e4  e5
    /* b1 */ "b1  u1  i1  i2  i4  i8  u2* u4* u8* f2  bf  f4  f8  c2  c4  c8  --  --",
    /* u1 */ "u1  u1  i2  i2  i4  i8  u2* u4* u8* f2  bf  f4  f8  c2  c4  c8  --  --",
    /* i1 */ "i1  i2  i1  i2  i4  i8  i4* i8* f8* f2  bf  f4  f8  c2  c4  c8  --  --",
    /* i2 */ "i2  i2  i2  i2  i4  i8  i4* i8* f8* f2  bf  f4  f8  c2  c4  c8  --  --",
    /* i4 */ "i4  i4  i4  i4  i4  i8  i4* i8* f8* f2  bf  f4  f8  c2  c4  c8  --  --",
    /* i8 */ "i8  i8  i8  i8  i8  i8  i8* i8* f8* f2  bf  f4  f8  c2  c4  c8  --  --",
    /* u2 */ "u2* u2* i4* i4* i4* i8* u2  u4* u8* f2  bf  f4  f8  c2* c4* c8* --  --",
    /* u4 */ "u4* u4* i8* i8* i8* i8* u4* u4  u8* f2  bf  f4  f8  c2* c4* c8* --  --",
    /* u8 */ "u8* u8* f8* f8* f8* f8* u8* u8* u8  f2  bf  f4  f8  c2* c4* c8* --  --",
    /* f2 */ "f2  f2  f2  f2  f2  f2  f2  f2  f2  f2  f4  f4  f8  c2  c4  c8  --  --",
    /* bf */ "bf  bf  bf  bf  bf  bf  bf  bf  bf  f4  bf  f4  f8  c4  c4  c8  --  --",
    /* f4 */ "f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f8  c4  c4  c8  --  --",
    /* f8 */ "f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  c8  c8  c8  --  --",
    /* c2 */ "c2  c2  c2  c2  c2  c2  c2* c2* c2* c2  c4  c4  c8  c2  c4  c8  --  --",
    /* c4 */ "c4  c4  c4  c4  c4  c4  c4* c4* c4* c4  c4  c4  c8  c4  c4  c8  --  --",
    /* c8 */ "c8  c8  c8  c8  c8  c8  c8* c8* c8* c8  c8  c8  c8  c8  c8  c8  --  --",
    /* e4 */ "--  --  --  --  --  --  --  --  --  --  --  --  --  --  --  --  e4  --",
    /* e5 */ "--  --  --  --  --  --  --  --  --  --  --  --  --  --  --  --  --  e5",
  };

  // PyTorch's short names (c10/core/ScalarType.cpp uses u1, i1, f4, c4, b1 ...), in DType order.
  private static final String[] CODES = {
    "b1", "u1", "i1", "i2", "i4", "i8", "u2", "u4", "u8", "f2", "bf", "f4", "f8", "c2", "c4", "c8",
    "e4", "e5"
  };

  /** One parsed cell: the DEFAULT result (null when refused) and whether TORCH refuses it. */
  record Cell(DType result, boolean extension) {}

  private static final Cell[][] CELLS = parse();

  static Cell cell(DType a, DType b) {
    return CELLS[a.ordinal()][b.ordinal()];
  }

  private static Cell[][] parse() {
    DType[] dtypes = DType.values();
    if (CODES.length != dtypes.length || GRID.length != dtypes.length) {
      throw new IllegalStateException(
          "promotion grid is " + GRID.length + " rows for " + dtypes.length + " dtypes");
    }
    Cell[][] cells = new Cell[dtypes.length][dtypes.length];
    for (int row = 0; row < dtypes.length; row++) {
      String[] codes = GRID[row].strip().split("\\s+");
      if (codes.length != dtypes.length) {
        throw new IllegalStateException(
            "promotion grid row " + dtypes[row] + " has " + codes.length + " cells");
      }
      for (int col = 0; col < dtypes.length; col++) {
        cells[row][col] = parseCell(codes[col], dtypes[row], dtypes[col]);
      }
    }
    return cells;
  }

  private static Cell parseCell(String code, DType row, DType col) {
    if (code.equals("--")) {
      return new Cell(null, false);
    }
    boolean extension = code.endsWith("*");
    String name = extension ? code.substring(0, code.length() - 1) : code;
    for (int i = 0; i < CODES.length; i++) {
      if (CODES[i].equals(name)) {
        return new Cell(DType.values()[i], extension);
      }
    }
    throw new IllegalStateException(
        "promotion grid cell (" + row + ", " + col + ") has unknown code '" + code + "'");
  }
}
