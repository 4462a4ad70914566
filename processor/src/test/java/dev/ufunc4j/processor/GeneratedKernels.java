package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;

/**
 * The kernels the processor writes for a test's source, read as text: what {@link
 * MathEmitterCostTest} and {@link SpecialMathEmitterTest} count operations in.
 */
final class GeneratedKernels {

  private GeneratedKernels() {}

  /**
   * Runs the processor alone (the runtime is not on this module's class path) on {@code source}
   * (class {@code test.Ops}) for {@code dtypes}; the directory it wrote the sources to.
   */
  static Path generate(String source, String dtypes) throws Exception {
    Path dir = Files.createTempDirectory("kernels");
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    JavaFileObject file = com.google.testing.compile.JavaFileObjects.forSourceString("test.Ops",
        source);
    JavaCompiler.CompilationTask task = compiler.getTask(null, null, d -> { },
        List.of("-proc:only", "-Aufunc4j.dtypes=" + dtypes, "-s", dir.toString(), "-classpath",
            System.getProperty("java.class.path")), null, List.of(file));
    task.setProcessors(List.of(new ElementwiseProcessor()));
    task.call();
    return dir;
  }

  /**
   * The contiguous loop's body for {@code dtype} of the kernel {@code test/Ops_<op>_w<width>}
   * in {@code dir}.
   */
  static String contiguousLoop(Path dir, String op, String dtype, int width) throws Exception {
    String kernel = Files.readString(dir.resolve("test/Ops_" + op + "_w" + width + ".java"));
    int method = kernel.indexOf(dtype + "_contiguous(long n");
    assertThat(method).isAtLeast(0);
    int start = kernel.indexOf("for (long i = 0", method);
    int end = kernel.indexOf("intoMemorySegment", start);
    return kernel.substring(start, end);
  }
}
