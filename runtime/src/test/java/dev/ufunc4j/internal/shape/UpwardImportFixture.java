package dev.ufunc4j.internal.shape;

import dev.ufunc4j.Tensor;

/**
 * A deliberate layer violation, for {@code LayerRulesTest.theRulesCatchViolations} only: an
 * internal class that names the public {@link Tensor}. Test code, never imported by the check of
 * the runtime's own classes.
 */
public final class UpwardImportFixture {
  private UpwardImportFixture() {}

  /** The upward dependency. */
  public static long numel(Tensor t) {
    return t.numel();
  }
}
