package dev.ufunc4j.spark;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;

/**
 * The base of this module's test classes: one Spark session shared by all of them (starting one
 * costs seconds). Surefire runs the classes one after another in one JVM; the session stays up
 * for the next class and Spark's shutdown hook stops it with the JVM.
 *
 * <p>The master is {@code local[2]} (one JVM), or the system property {@code
 * ufunc4j.spark.master}: {@code mvn -Pcluster} sets it to {@code local-cluster[2,1,1024]}, a Spark
 * standalone master and two workers whose executors are separate JVMs (docs/scale-out.md, "A
 * cluster on one machine"), so that the same tests run across JVMs.
 */
abstract class SparkTestSession {
  /** The master of a cluster run: a standalone master, 2 workers of 1 core and 1024 MB each. */
  static final String LOCAL_CLUSTER = "local-cluster[2,1,1024]";

  /**
   * The file name of the user-op jar a cluster run ships through {@code spark.jars}: the
   * installed generated-samples jar, or (in a reactor build, where the module is a classes
   * directory) that directory packed into this jar under {@code target/}.
   */
  static final String USER_OP_JAR = "user-ops.jar";

  /** The test classes, the application, shipped through {@code spark.jars} too. */
  static final String TEST_JAR = "spark-tests.jar";

  static SparkSession spark;
  static JavaSparkContext sc;

  @BeforeAll
  static synchronized void startSpark() {
    if (spark == null) {
      String master = System.getProperty("ufunc4j.spark.master", "local[2]");
      SparkSession.Builder builder = SparkSession.builder()
          .master(master)
          .appName("ufunc4j-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "4");
      if (master.startsWith("local-cluster")) {
        configureExecutors(builder);
      }
      spark = builder.getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    }
  }

  /** Whether the executors are other JVMs than this one (a {@code local-cluster} master). */
  static boolean clusterMode() {
    return sc.master().startsWith("local-cluster");
  }

  /**
   * What a worker needs to launch an executor JVM from Maven's jars alone (the recipe of
   * docs/scale-out.md): {@code $SPARK_HOME/jars} holding Spark's classpath (here: links to every
   * jar of the test class path that is not ufunc4j's), and the application's classes — ufunc4j's
   * modules, the user ops of generated-samples, these test classes — on the executors' class
   * path with absolute paths (executors run in {@code $SPARK_HOME/work/app-.../N/}), and the JVM
   * flags ufunc4j and Spark need. The application is not on that class path: the user ops
   * (generated-samples, a jar of ops the processor generated in another module) and the code that
   * calls them (these test classes) travel as a user's jars do with {@code spark-submit --jars},
   * through {@code spark.jars}, so each executor fetches them from the driver and loads them
   * through its own class loader for added jars ({@link #USER_OP_JAR}, {@link #TEST_JAR}; {@code
   * ClusterTest} checks it): ufunc4j installed on the cluster, the user's ops submitted. The pom's {@code cluster} profile sets
   * {@code SPARK_HOME}, {@code SPARK_SCALA_VERSION} and the flags ({@code
   * ufunc4j.executorJavaOptions}).
   */
  private static void configureExecutors(SparkSession.Builder builder) {
    String home = System.getenv("SPARK_HOME");
    String flags = System.getProperty("ufunc4j.executorJavaOptions");
    if (home == null || System.getenv("SPARK_SCALA_VERSION") == null || flags == null) {
      throw new IllegalStateException("a local-cluster master needs SPARK_HOME, SPARK_SCALA_VERSION"
          + " and -Dufunc4j.executorJavaOptions (mvn -Pcluster sets them): SPARK_HOME="
          + home + ", SPARK_SCALA_VERSION=" + System.getenv("SPARK_SCALA_VERSION")
          + ", ufunc4j.executorJavaOptions=" + flags);
    }
    List<String> application = new ArrayList<>();
    List<String> shipped = new ArrayList<>();
    try {
      Path jars = Files.createDirectories(Path.of(home, "jars"));
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        Path path = Path.of(entry).toAbsolutePath();
        String name = path.getFileName().toString();
        if (path.toString().contains("generated-samples")) {
          shipped.add(asJar(path, USER_OP_JAR).toString());
        } else if (path.endsWith("test-classes")) {
          shipped.add(asJar(path, TEST_JAR).toString());
        } else if (Files.isDirectory(path) || name.startsWith("ufunc4j-")) {
          application.add(path.toString());
        } else if (name.endsWith(".jar")) {
          Path link = jars.resolve(name);
          Files.deleteIfExists(link);
          Files.createSymbolicLink(link, path);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare SPARK_HOME " + home, e);
    }
    if (shipped.size() != 2) {
      throw new IllegalStateException("generated-samples (the user ops) or the test classes are"
          + " not on the test class path: " + System.getProperty("java.class.path"));
    }
    builder.config("spark.jars", String.join(",", shipped))
        .config("spark.executor.extraClassPath", String.join(File.pathSeparator, application))
        .config("spark.executor.extraJavaOptions", flags)
        .config("spark.executor.memory", System.getProperty("ufunc4j.executorMemory", "768m"));
  }

  /**
   * A class path entry as a jar named {@code name} in {@code target/}: a copy of the jar, or a
   * classes directory (a reactor build's) packed into one (spark.jars takes jars, not directories).
   */
  private static Path asJar(Path classes, String name) throws IOException {
    Path jar = Path.of("target", name).toAbsolutePath();
    if (Files.isRegularFile(classes)) {
      return Files.copy(classes, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    return jar;
  }
}
