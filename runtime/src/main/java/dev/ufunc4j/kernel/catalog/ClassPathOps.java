package dev.ufunc4j.kernel.catalog;

import dev.ufunc4j.internal.OpCatalog;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * The qualified ops ({@code class.op}) of every {@link OpLibrary} the context class loader sees:
 * the runtime's {@link OpCatalog}, registered as a service (module-info and {@code
 * META-INF/services}) so that the tunables reach it without depending on the kernel SPI.
 */
public final class ClassPathOps implements OpCatalog {
  /** For {@link java.util.ServiceLoader}. */
  public ClassPathOps() {}

  @Override
  public Set<String> qualifiedOps() {
    Set<String> ops = new TreeSet<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try {
      for (OpLibrary lib :
          ServiceLoader.load(OpLibrary.class, loader != null ? loader : OpLibrary.class.getClassLoader())) {
        for (ElementwiseOp op : lib.ops()) {
          ops.add(op.declaringClass() + "." + op.name());
        }
      }
    } catch (ServiceConfigurationError | RuntimeException e) {
      return null;
    }
    return Set.copyOf(ops);
  }
}
