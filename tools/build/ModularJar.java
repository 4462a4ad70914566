import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * Puts a module's module-info.class into the jar that maven-jar-plugin built without it (the
 * parent POM's {@code modular-jar} profile says why), using the jar tool of the JDK that runs this
 * file: the toolchain's JDK 25, which reads a Java 25 descriptor and records ModulePackages.
 *
 * <p>Leaves a jar that already holds this descriptor untouched, so that an unchanged module does
 * not make the modules after it in the reactor recompile.
 *
 * <pre>java tools/build/ModularJar.java target/x.jar target/classes</pre>
 */
public final class ModularJar {
  private ModularJar() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: ModularJar <jar> <classes directory>");
    }
    Path jar = Path.of(args[0]);
    Path classes = Path.of(args[1]);
    ModuleDescriptor built = read(classes.resolve("module-info.class"));
    try (var zip = FileSystems.newFileSystem(jar)) {
      Path inJar = zip.getPath("module-info.class");
      if (Files.exists(inJar) && declarations(read(inJar)).equals(declarations(built))) {
        System.out.println(jar.getFileName() + " already holds this module-info.class");
        return;
      }
    }
    ToolProvider tool = ToolProvider.findFirst("jar").orElseThrow();
    int status = tool.run(System.out, System.err,
        "--update", "--file", jar.toString(), "-C", classes.toString(), "module-info.class");
    if (status != 0) {
      System.exit(status);
    }
    System.out.println("added module-info.class to " + jar.getFileName());
  }

  private static ModuleDescriptor read(Path file) throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      return ModuleDescriptor.read(in);
    }
  }

  /** What module-info.java declares (the jar tool adds the package list, so that is left out). */
  private static List<Object> declarations(ModuleDescriptor d) {
    return List.of(d.toNameAndVersion(), d.modifiers(), d.requires(), d.exports(), d.opens(),
        d.uses(), d.provides(), d.mainClass());
  }
}
