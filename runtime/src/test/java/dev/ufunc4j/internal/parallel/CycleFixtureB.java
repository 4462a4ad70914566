package dev.ufunc4j.internal.parallel;

import dev.ufunc4j.internal.loops.CycleFixtureA;

/** With {@link CycleFixtureA}, a deliberate package cycle for {@code LayerRulesTest} only. */
public final class CycleFixtureB {
  private CycleFixtureB() {}

  /** parallel → loops. */
  public static int depth(int n) {
    return n <= 0 ? 0 : 1 + CycleFixtureA.depth(n - 1);
  }
}
