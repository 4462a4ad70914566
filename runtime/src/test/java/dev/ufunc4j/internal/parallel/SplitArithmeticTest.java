package dev.ufunc4j.internal.parallel;

import dev.ufunc4j.internal.Tunables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The split rule's arithmetic (issue 23, item 2) against exact integers: no element count or
 * grain overflows it ({@code 2 * grain} wrapped negative for a grain of 2^62).
 */
class SplitArithmeticTest {
  private static final long TWO_31 = 1L << 31;

  @Test
  void splitArithmeticDoesNotOverflow() {
    long[] counts = {0, 1, 2, 3, TWO_31 - 1, TWO_31, 1L << 62, Long.MAX_VALUE - 1, Long.MAX_VALUE};
    long[] grains = {1, 2, 3, TWO_31 - 1, TWO_31, Tunables.MAX_GRAIN, 1L << 62, Long.MAX_VALUE};
    for (long numel : counts) {
      for (long grain : grains) {
        BigInteger n = BigInteger.valueOf(numel);
        BigInteger g = BigInteger.valueOf(grain);
        boolean two = n.compareTo(g.shiftLeft(1)) >= 0;
        assertEquals(two, Parallel.atLeastTwoGrains(numel, grain), numel + " / " + grain);
        BigInteger half = n.shiftLeft(1).divide(g);
        long got = Parallel.halfGrains(numel, grain);
        // Exact, or Long.MAX_VALUE ("more than any split takes") from 2^62 half grains up.
        boolean huge = half.compareTo(BigInteger.valueOf(Long.MAX_VALUE / 2)) >= 0;
        assertTrue(BigInteger.valueOf(got).equals(half) || (huge && got == Long.MAX_VALUE),
            numel + " / " + grain + ": " + got + ", want " + half);
      }
    }
  }

}
