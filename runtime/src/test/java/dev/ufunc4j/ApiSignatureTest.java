package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The public methods {@link Ops} and {@link Tensor} had before their op methods were generated
 * from {@code Builtins} (issue 11) must all still exist: same name, parameter types, return type
 * and static-ness. Methods may be added, none removed. One deliberate removal (issue 11, item 5):
 * {@code Tensor.wrap(...)}/{@code wrapComplex}, the dispatcher's wrapped-number factories, are
 * internal now (a Java number passed to an op is wrapped by the op itself), so their four lines
 * were taken out of {@code Tensor.txt}.
 *
 * <p>The lists under {@code src/test/resources/api/} were recorded once, by reflection, from
 * main's classes at commit 06290c7 (the hand-written Ops and Tensor), with this class's {@code
 * main}:
 *
 * <pre>
 * java -cp runtime/target/classes:runtime/target/test-classes:annotations/target/classes \
 *     dev.ufunc4j.ApiSignatureTest runtime/src/test/resources/api
 * </pre>
 *
 * Do not re-record them after a change: they are the old surface the new one must keep.
 */
class ApiSignatureTest {

  @ParameterizedTest
  @ValueSource(classes = {Ops.class, Tensor.class})
  void everyRecordedPublicMethodStillExists(Class<?> type) {
    List<String> recorded = recorded(type);
    TreeSet<String> now = signatures(type);
    List<String> missing = recorded.stream().filter(s -> !now.contains(s)).toList();
    assertEquals(List.of(), missing, type.getSimpleName() + " lost public methods");
    assertTrue(recorded.size() > 100, "the recording of " + type.getSimpleName() + " is there");
  }

  /**
   * One line per public method, inherited ones included: {@code static dev.ufunc4j.Tensor
   * add(dev.ufunc4j.Tensor, java.lang.Number)}.
   */
  static TreeSet<String> signatures(Class<?> type) {
    TreeSet<String> lines = new TreeSet<>();
    for (Method m : type.getMethods()) {
      // Bridges count: a public method inherited from a package-private superclass is one.
      String params = Arrays.stream(m.getParameterTypes())
          .map(Class::getTypeName)
          .collect(Collectors.joining(", "));
      if (m.isVarArgs()) {
        params = params.substring(0, params.length() - 2) + "...";
      }
      lines.add((Modifier.isStatic(m.getModifiers()) ? "static " : "")
          + m.getReturnType().getTypeName() + " " + m.getName() + "(" + params + ")");
    }
    return lines;
  }

  private static List<String> recorded(Class<?> type) {
    String resource = "/api/" + type.getSimpleName() + ".txt";
    try (InputStream in = ApiSignatureTest.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      List<String> lines = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          lines.add(line.strip());
        }
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Records the lists into directory {@code args[0]} (see the class comment: once, from main). */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    Files.createDirectories(dir);
    for (Class<?> type : List.of(Ops.class, Tensor.class)) {
      Files.write(dir.resolve(type.getSimpleName() + ".txt"), signatures(type));
    }
  }
}
