package dev.ufunc4j.internal;

import java.util.Set;

/**
 * The ops on the class path, by qualified name ({@code class.op}), against which {@link Tunables}
 * checks a tuning profile's per-op records. Ops are the kernel layer's ({@code OpLibrary}), so the
 * kernel layer provides this as a {@link java.util.ServiceLoader} service ({@code
 * dev.ufunc4j.kernel.catalog.ClassPathOps}) and this package does not name the SPI above it
 * (docs/architecture.md, "Layers").
 */
public interface OpCatalog {
  /**
   * {@return the qualified name ({@code class.op}) of every op the class path declares, or null
   * when they cannot be listed}
   */
  Set<String> qualifiedOps();
}
