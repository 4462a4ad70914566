package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The package lists under tools/javadoc, through which the runtime's and spark's javadoc link the
 * javadoc of the modules they use (their poms' offlineLinks), are those modules' exports: a
 * package exported later and missing there would show unlinked.
 */
class JavadocLinksTest {

  private static List<String> exports(Path moduleInfo) throws Exception {
    Matcher m = Pattern.compile("(?m)^\\s*exports\\s+([\\w.]+)\\s*;").matcher(
        Files.readString(moduleInfo));
    return m.results().map(r -> r.group(1)).sorted().toList();
  }

  private static List<String> elementList(String artifact) throws Exception {
    return Files.readAllLines(Path.of("..", "tools", "javadoc", artifact, "element-list")).stream()
        .filter(l -> !l.isBlank()).sorted().toList();
  }

  @Test
  void theLinkedPackageListsAreTheModulesExports() throws Exception {
    // Surefire runs in the module's directory
    assertEquals(exports(Path.of("..", "annotations", "src", "main", "java", "module-info.java")),
        elementList("ufunc4j-annotations"));
    assertEquals(exports(Path.of("src", "main", "java", "module-info.java")),
        elementList("ufunc4j-runtime"));
  }
}
