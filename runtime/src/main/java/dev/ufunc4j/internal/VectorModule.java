package dev.ufunc4j.internal;

/**
 * The check that the JDK's incubating Vector API ({@code jdk.incubator.vector}) is loaded, made
 * when {@code Tensor} or {@code Ops} is first initialised. An incubator module is not resolved
 * unless the command line asks for it, and without it the program would create tensors fine and
 * die at its first op with {@code NoClassDefFoundError: jdk/incubator/vector/Vector} deep inside a
 * generated kernel; this check says what is missing and where to add it before any tensor exists.
 * Internal API.
 */
public final class VectorModule {
  private VectorModule() {}

  /** The module every kernel is written in. */
  public static final String NAME = "jdk.incubator.vector";

  /** What the error says: the flag, and each place a build or a run needs it. */
  public static final String MISSING =
      "ufunc4j needs the JDK's incubating Vector API, but the module "
          + NAME
          + " is not loaded. Add --add-modules "
          + NAME
          + " to the JVM that runs ufunc4j:\n"
          + "  java command line: java --add-modules "
          + NAME
          + " --enable-native-access=ALL-UNNAMED -cp ... your.Main\n"
          + "  Maven exec plugin (exec:exec): <argument>--add-modules="
          + NAME
          + "</argument> before <classpath/>\n"
          + "  Maven Surefire (tests): <argLine>--add-modules "
          + NAME
          + " --enable-native-access=ALL-UNNAMED</argLine>\n"
          + "  javac (projects with @Elementwise ops): <compilerArgs><arg>--add-modules="
          + NAME
          + "</arg></compilerArgs>\n"
          + "  IDE run configuration: add it to the VM options\n"
          + "(On the module path, a module that requires dev.ufunc4j.runtime gets it without the"
          + " flag.) See the README, \"Run it\" and \"Troubleshooting\".";

  /**
   * Throws when {@code jdk.incubator.vector} is not in the boot layer. An {@link Error}, not an
   * exception, so that a static initialiser passes it on unwrapped: the user sees this text, not
   * an {@code ExceptionInInitializerError}.
   */
  public static void require() {
    if (ModuleLayer.boot().findModule(NAME).isEmpty()) {
      throw new MissingVectorModuleError(MISSING);
    }
  }

  /** The error {@link #require()} throws; a {@link LinkageError}, as the missing class would be. */
  public static final class MissingVectorModuleError extends LinkageError {
    private static final long serialVersionUID = 1L;

    MissingVectorModuleError(String message) {
      super(message);
    }
  }
}
