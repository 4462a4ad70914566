package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link Tensor#toString()} prints a bounded number of elements whatever the rank (issue 12, item
 * 3). PyTorch's summarisation keeps every index of a dimension of at most 6, so a {@code [2]^20}
 * tensor prints all 2^20 elements there; ufunc4j also cuts the outermost dimensions to their first
 * sub-tensor until at most 10,000 elements remain. The exact text is checked against PyTorch in
 * {@link FormatGoldenTest}; this test checks the bound on tensors too large for golden files.
 */
class FormatBudgetTest {

  private static final int MAX_PRINTED = 10_000;

  /** Printed elements: the numbers in the text ("0." for the zeros printed here). */
  private static long printed(String s) {
    return Arrays.stream(s.split("[\\[\\], \\n()]+")).filter(w -> w.equals("0.")).count();
  }

  private static String print(Tensor t) {
    try {
      return t.toString();
    } catch (OutOfMemoryError e) {
      fail("toString of shape " + Arrays.toString(t.shape()) + " ran out of memory");
      return null;
    }
  }

  @Test
  void aTwentyDimensionalTensorPrintsABoundedText() {
    long[] shape = new long[20];
    Arrays.fill(shape, 2);
    String s = print(Tensor.zeros(DType.FLOAT32, shape));
    assertTrue(printed(s) <= MAX_PRINTED, "printed " + printed(s));
    assertTrue(s.length() < 200_000, "length " + s.length());
    assertTrue(s.startsWith("tensor(" + "[".repeat(20) + "0., 0.]"), s.substring(0, 40));
    assertTrue(s.endsWith("...])"), s.substring(s.length() - 40));
  }

  @Test
  void aHugeExpandedViewPrintsABoundedText() {
    long[] shape = new long[20];
    Arrays.fill(shape, 4);
    Tensor t = Tensor.zeros(DType.FLOAT32, 1).expand(shape); // 2^40 elements over 4 bytes
    String s = print(t);
    assertEquals(4096, printed(s)); // the innermost six dimensions whole: 4^6 <= 10,000 < 4^7
    assertTrue(s.length() < 100_000, "length " + s.length());
  }

  @Test
  void everyRankStaysUnderTheBound() {
    for (int rank = 1; rank <= 40; rank++) {
      for (long size : new long[] {2, 3, 7, 1000}) {
        long[] shape = new long[rank];
        Arrays.fill(shape, size);
        Tensor t;
        try {
          t = Tensor.zeros(DType.FLOAT32, 1).expand(shape);
        } catch (IllegalArgumentException tooMany) {
          continue; // more than 2^63 - 1 elements: not a tensor
        }
        String s = print(t);
        assertTrue(printed(s) <= MAX_PRINTED, rank + " x " + size + ": printed " + printed(s));
      }
    }
  }
}
