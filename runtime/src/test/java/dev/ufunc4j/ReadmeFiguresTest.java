package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.Tunables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's figures about the runtime's behaviour, read from the README and checked against
 * the code (issue 25, item 7: a figure is produced by a committed command or checked by a test).
 */
class ReadmeFiguresTest {

  private static String readme() throws Exception {
    return Files.readString(Path.of("..", "README.md")); // Surefire runs in the module's directory
  }

  private static long figure(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertTrue(m.find(), "README.md no longer says /" + regex + "/: update this test with it");
    return Long.parseLong(m.group(1));
  }

  /** The size from which an op splits across threads, by default: at least two grains. */
  @Test
  void opsSplitAcrossCoresFromTheSizeTheReadmeGives() throws Exception {
    long k = figure(readme(), "Ops of (\\d+)K elements or more run on all cores");
    long n = k * 1024;
    assertTrue(Parallel.atLeastTwoGrains(n, Tunables.DEFAULT_GRAIN),
        n + " elements do not split at the default grain " + Tunables.DEFAULT_GRAIN);
    assertFalse(Parallel.atLeastTwoGrains(n - 1, Tunables.DEFAULT_GRAIN),
        (n - 1) + " elements already split at the default grain " + Tunables.DEFAULT_GRAIN
            + ": the README's figure is too large");
  }
}
