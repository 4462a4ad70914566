package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ufunc4j.dtype.DType;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime and annotations modules as a user's modular program sees them. The other tests run
 * on the class path (Surefire's {@code useModulePath=false}, docs/architecture.md), as most users
 * do; this one resolves the built modules in a layer of their own, reads their descriptors, and
 * runs an op through them.
 */
class ModuleDescriptorTest {
  private static final String RUNTIME = "dev.ufunc4j.runtime";
  private static final String ANNOTATIONS = "dev.ufunc4j.annotations";

  private static ModuleFinder built;

  @BeforeAll
  static void findBuiltModules() throws URISyntaxException {
    Path runtime = Path.of(Tensor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path annotations =
        Path.of(DType.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    built = ModuleFinder.of(runtime, annotations);
    assumeTrue(
        built.find(ANNOTATIONS).isPresent(),
        "the annotations on the class path come without module-info (" + annotations
            + "): build with -am so that the reactor's own annotations module is used");
  }

  private static ModuleDescriptor descriptor(String name) {
    return built.find(name).orElseThrow().descriptor();
  }

  private static Set<String> exports(ModuleDescriptor d) {
    return d.exports().stream()
        .map(e -> {
          assertTrue(e.targets().isEmpty(), "qualified export " + e);
          return e.source();
        })
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void runtimeExportsTheUserPackagesAndTheKernelSpiOnly() {
    ModuleDescriptor d = descriptor(RUNTIME);
    assertEquals(Set.of("dev.ufunc4j", "dev.ufunc4j.kernel"), exports(d));
    assertTrue(d.packages().contains("dev.ufunc4j.internal"), d.packages().toString());
    assertTrue(d.packages().contains("dev.ufunc4j.demo"), d.packages().toString());
    assertTrue(d.opens().isEmpty(), "opens " + d.opens());
    Set<String> transitive = d.requires().stream()
        .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
        .map(ModuleDescriptor.Requires::name)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of(ANNOTATIONS, "java.compiler", "jdk.incubator.vector"), transitive);
  }

  @Test
  void runtimeUsesAndProvidesTheOpLibraryService() {
    ModuleDescriptor d = descriptor(RUNTIME);
    assertEquals(Set.of("dev.ufunc4j.kernel.OpLibrary", "dev.ufunc4j.internal.OpCatalog"), d.uses());
    Map<String, List<String>> provides = new TreeMap<>();
    for (ModuleDescriptor.Provides p : d.provides()) {
      provides.put(p.service(), p.providers());
    }
    assertEquals(
        Map.of(
            // The same provider the processor lists in META-INF/services for the class path.
            "dev.ufunc4j.kernel.OpLibrary", List.of("dev.ufunc4j.BuiltinsOpLibrary"),
            // The kernel layer's op list for the tunables (internal), which cannot name the SPI.
            "dev.ufunc4j.internal.OpCatalog", List.of("dev.ufunc4j.kernel.catalog.ClassPathOps")),
        provides);
  }

  @Test
  void annotationsExportEveryPackage() {
    assertEquals(
        Set.of("dev.ufunc4j.annotation", "dev.ufunc4j.dtype", "dev.ufunc4j.math",
            "dev.ufunc4j.shape", "dev.ufunc4j.tuning"),
        exports(descriptor(ANNOTATIONS)));
  }

  /**
   * In a layer of their own the modules resolve against the boot layer's JDK modules, find the
   * built-in ops as a service, compute an op, and keep {@code dev.ufunc4j.internal} shut.
   */
  @Test
  @SuppressWarnings("restricted") // enableNativeAccess: the layer's runtime maps storage
  void modulesResolveRunAnOpAndHideTheInternalPackage() throws Exception {
    ModuleLayer boot = ModuleLayer.boot();
    Configuration cf =
        boot.configuration().resolveAndBind(built, ModuleFinder.of(), Set.of(RUNTIME));
    ModuleLayer.Controller controller =
        ModuleLayer.defineModulesWithOneLoader(
            cf, List.of(boot), ClassLoader.getPlatformClassLoader());
    ModuleLayer layer = controller.layer();
    Module runtime = layer.findModule(RUNTIME).orElseThrow();
    controller.enableNativeAccess(runtime);
    ClassLoader loader = layer.findLoader(RUNTIME);

    assertTrue(runtime.isExported("dev.ufunc4j"));
    assertTrue(runtime.isExported("dev.ufunc4j.kernel"));
    assertFalse(runtime.isExported("dev.ufunc4j.internal"));
    assertFalse(runtime.isExported("dev.ufunc4j.demo"));

    Class<?> library = loader.loadClass("dev.ufunc4j.kernel.OpLibrary");
    List<String> providers = ServiceLoader.load(layer, library).stream()
        .map(p -> p.type().getName())
        .toList();
    assertEquals(List.of("dev.ufunc4j.BuiltinsOpLibrary"), providers);

    // [1.5, 2.5, 3.5] + [1, 2, 4] through the module's own Tensor, Ops and Dispatch.
    Class<?> tensor = loader.loadClass("dev.ufunc4j.Tensor");
    Object a = tensor.getMethod("of", float[].class, long[].class)
        .invoke(null, new float[] {1.5f, 2.5f, 3.5f}, new long[0]);
    Object b = tensor.getMethod("of", float[].class, long[].class)
        .invoke(null, new float[] {1f, 2f, 4f}, new long[0]);
    Object sum = tensor.getMethod("add", tensor).invoke(a, b);
    float[] values = (float[]) tensor.getMethod("toFloatArray").invoke(sum);
    assertArrayEquals(
        new float[] {
          (float) Builtins.add(1.5, 1.0), (float) Builtins.add(2.5, 2.0),
          (float) Builtins.add(3.5, 4.0)
        },
        values);

    // Autograd through the module (Dispatch records, then runs the plain op through the kernel SPI):
    // the gradient of sum(a * b) with respect to a is b.
    tensor.getMethod("requiresGrad", boolean.class).invoke(a, true);
    Object total = tensor.getMethod("sum").invoke(tensor.getMethod("mul", tensor).invoke(a, b));
    tensor.getMethod("backward").invoke(total);
    Object grad = tensor.getMethod("grad").invoke(a);
    assertArrayEquals(
        new float[] {1f, 2f, 4f}, (float[]) tensor.getMethod("toFloatArray").invoke(grad));

    // The internal package is not exported: its public classes are out of a user's reach.
    Class<?> shapes = loader.loadClass("dev.ufunc4j.internal.shape.Shapes");
    Method numelOf = shapes.getMethod("numelOf", long[].class);
    assertThrows(IllegalAccessException.class, () -> numelOf.invoke(null, (Object) new long[0]));
  }
}
