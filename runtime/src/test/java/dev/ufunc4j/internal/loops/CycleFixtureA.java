package dev.ufunc4j.internal.loops;

import dev.ufunc4j.internal.parallel.CycleFixtureB;

/** With {@link CycleFixtureB}, a deliberate package cycle for {@code LayerRulesTest} only. */
public final class CycleFixtureA {
  private CycleFixtureA() {}

  /** loops → parallel. */
  public static int depth(int n) {
    return n <= 0 ? 0 : 1 + CycleFixtureB.depth(n - 1);
  }
}
