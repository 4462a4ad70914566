package dev.ufunc4j;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.ufunc4j.internal.loops.CycleFixtureA;
import dev.ufunc4j.internal.parallel.CycleFixtureB;
import dev.ufunc4j.internal.shape.UpwardImportFixture;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The runtime's packages read one way (docs/architecture.md, "Layers"): the public API ({@code
 * dev.ufunc4j}, with the generated ops and their kernels) calls the kernel SPI ({@code
 * dev.ufunc4j.kernel..}), which calls the internals ({@code dev.ufunc4j.internal..}); nothing
 * calls back up, and no package of the runtime is in a cycle with another. Checked on the compiled
 * main classes of this module (generated ones included), so a violation fails the build instead
 * of waiting for a reviewer.
 *
 * <p>In the slow tier (docs/testing.md, "Test tiers"): importing the whole runtime, about 840K
 * generated lines compiled to classes, takes ArchUnit minutes on a loaded machine; the default
 * build, and so {@code .ci/run}, still runs it.
 */
@Tag("slow") // imports every class of the runtime: minutes under load
class LayerRulesTest {
  private static JavaClasses runtime;

  @BeforeAll
  static void importRuntime() throws URISyntaxException {
    // The runtime's own classes only (target/classes or the jar): not the tests, not the
    // annotations module's packages, which share the dev.ufunc4j prefix.
    Path classes = Path.of(Tensor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    runtime = new ClassFileImporter().importPath(classes);
  }

  /** The three layers, and the demo above them: each may use only the layers below it. */
  static final ArchRule LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("demo").definedBy("dev.ufunc4j.demo..")
          .layer("api").definedBy("dev.ufunc4j")
          .layer("kernel").definedBy("dev.ufunc4j.kernel..")
          .layer("internal").definedBy("dev.ufunc4j.internal..")
          .whereLayer("demo").mayNotBeAccessedByAnyLayer()
          .whereLayer("api").mayOnlyBeAccessedByLayers("demo")
          .whereLayer("kernel").mayOnlyBeAccessedByLayers("demo", "api")
          .whereLayer("internal").mayOnlyBeAccessedByLayers("api", "kernel");

  /**
   * The runtime's top-level packages ({@code dev.ufunc4j} itself, then {@code kernel}, {@code
   * internal}, {@code demo}, each with its subpackages) are in no cycle.
   */
  static final ArchRule NO_CYCLES_BETWEEN_LAYERS =
      slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
              String p = c.getPackageName();
              if (p.equals("dev.ufunc4j")) {
                return SliceIdentifier.of("dev.ufunc4j");
              }
              if (!p.startsWith("dev.ufunc4j.")) {
                return SliceIdentifier.ignore();
              }
              int end = p.indexOf('.', "dev.ufunc4j.".length());
              return SliceIdentifier.of(end < 0 ? p : p.substring(0, end));
            }

            @Override
            public String getDescription() {
              return "the runtime's top-level packages";
            }
          })
          .should().beFreeOfCycles();

  /**
   * The subpackages of {@code internal} (memory, loops, parallel, shape, elements) and of {@code
   * kernel} are in no cycle among themselves. (The {@code internal} package itself holds the
   * runtime context, which owns the parts and which the parts read: it is left out.)
   */
  static final ArchRule NO_CYCLES_BETWEEN_SUBPACKAGES =
      slices().matching("dev.ufunc4j.(*).(*)..").should().beFreeOfCycles();

  @Test
  void layersReadOneWay() {
    LAYERS.check(runtime);
  }

  @Test
  void layersAreFreeOfCycles() {
    NO_CYCLES_BETWEEN_LAYERS.check(runtime);
  }

  @Test
  void subpackagesAreFreeOfCycles() {
    NO_CYCLES_BETWEEN_SUBPACKAGES.check(runtime);
  }

  /**
   * The rules are not vacuous: on classes with a deliberate upward import (internal naming {@code
   * Tensor}) and a deliberate cycle (internal.loops and internal.parallel naming each other), both
   * report a violation. The fixtures are test classes, outside the import the other tests check.
   */
  @Test
  void theRulesCatchViolations() {
    JavaClasses fixtures = new ClassFileImporter().importClasses(
        Tensor.class, UpwardImportFixture.class, CycleFixtureA.class, CycleFixtureB.class);
    EvaluationResult layers = LAYERS.evaluate(fixtures);
    assertTrue(layers.hasViolation(), "no layer violation found");
    assertTrue(layers.getFailureReport().toString().contains("UpwardImportFixture"),
        layers.getFailureReport().toString());
    EvaluationResult cycles = NO_CYCLES_BETWEEN_SUBPACKAGES.evaluate(fixtures);
    assertTrue(cycles.hasViolation(), "no cycle found");
    assertTrue(cycles.getFailureReport().toString().contains("CycleFixtureA"),
        cycles.getFailureReport().toString());
  }
}
