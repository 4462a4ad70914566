package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code GENERATED.md} shows real processor output: every block headed by a generated file's
 * path must equal that file in {@code target/generated-sources/annotations}. With {@code
 * -Dufunc4j.updateGoldens=true} (the command {@link GoldenSourcesTest#REGENERATE}) the blocks are
 * rewritten instead.
 */
class GeneratedDocTest {

  private static final Pattern BLOCK =
      Pattern.compile("#### `([^`]+)`\n\n```java\n(.*?)```\n", Pattern.DOTALL);

  @Test
  void generatedMdShowsTheRealGeneratedSources() throws IOException {
    Path doc = Path.of(System.getProperty("ufunc4j.generatedDoc", "GENERATED.md"));
    Path generated = Path.of(System.getProperty(
        "ufunc4j.generatedSources", "target/generated-sources/annotations"));
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    Matcher m = BLOCK.matcher(text);
    StringBuilder updated = new StringBuilder();
    List<String> problems = new ArrayList<>();
    int blocks = 0;
    while (m.find()) {
      blocks++;
      Path source = generated.resolve(m.group(1));
      if (!Files.exists(source)) {
        problems.add(doc + " shows " + m.group(1) + ", which is no longer generated (looked in "
            + generated + ")");
        continue;
      }
      String actual = Files.readString(source, StandardCharsets.UTF_8);
      if (!actual.endsWith("\n")) {
        actual += "\n";
      }
      if (!actual.equals(m.group(2))) {
        problems.add(doc + ": the block for " + m.group(1) + " differs from " + source);
      }
      m.appendReplacement(updated, Matcher.quoteReplacement(
          "#### `" + m.group(1) + "`\n\n```java\n" + actual + "```\n"));
    }
    m.appendTail(updated);
    assertFalse(blocks == 0, doc + " has no #### `path` + ```java blocks");
    if (Boolean.getBoolean("ufunc4j.updateGoldens")) {
      Files.writeString(doc, updated.toString(), StandardCharsets.UTF_8);
      return;
    }
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems) + "\nIf the change is intended, rewrite the blocks with:\n  "
          + GoldenSourcesTest.REGENERATE);
    }
  }
}
