package dev.ufunc4j.kernel;

import java.util.List;

/**
 * A set of ops generated for one declaring class. The processor writes one implementation per
 * class holding {@code @Elementwise} methods and registers it in {@code
 * META-INF/services/dev.ufunc4j.kernel.OpLibrary}, so the runtime finds ops in any jar.
 */
public interface OpLibrary {

  /** {@return the ops of this library, sorted by name} */
  List<ElementwiseOp> ops();
}
