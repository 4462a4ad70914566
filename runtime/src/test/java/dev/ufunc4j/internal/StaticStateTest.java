package dev.ufunc4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.ReferenceQueue;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime keeps its state in one {@link RuntimeContext} (issue 25, item 1): no class of the
 * runtime's main code (hand-written or generated) has another static field that is not final, or
 * a final one whose type is there to be mutated (atomics, thread-locals, reference queues,
 * executors). Each exception below says why it is not context state; a new static field of either
 * kind fails this test until it moves into the context or is added here with its reason.
 */
class StaticStateTest {
  /** The allowed fields, {@code class#field}, with the reason. */
  private static final Map<String, String> ALLOWED = Map.ofEntries(
      Map.entry("dev.ufunc4j.internal.RuntimeContext#current",
          "the one holder of the runtime context"),
      Map.entry("dev.ufunc4j.internal.loops.Loops#kernelBox",
          "written once; not final so that C2 cannot inline through the handle (Loops.box)"),
      Map.entry("dev.ufunc4j.internal.memory.ScopeMemory#OF_THREAD",
          "each thread's own scope stack: per-thread by definition"),
      Map.entry("dev.ufunc4j.internal.memory.ScopeMemory#opened",
          "set once any scope opened, so that a thread before then skips the thread-local"),
      Map.entry("dev.ufunc4j.kernel.KernelLoops#GATHER", "per-thread scratch, no state between calls"),
      Map.entry("dev.ufunc4j.internal.loops.Tiling#SCRATCH", "per-thread scratch, no state between calls"),
      Map.entry("dev.ufunc4j.kernel.reduce.ReduceLoops#SCRATCH", "per-thread scratch, no state between calls"),
      Map.entry("dev.ufunc4j.kernel.HalfChunks#BUFFERS", "per-thread scratch, no state between calls"),
      Map.entry("dev.ufunc4j.kernel.HalfChunks#HALVES", "per-thread scratch, no state between calls"),
      Map.entry("dev.ufunc4j.kernel.LaneScratch#BLOCKS", "per-thread scratch, no state between calls"),
      Map.entry("dev.ufunc4j.GradGraph#NO_GRAD_DEPTH",
          "the no-grad mode is per thread, as torch.no_grad is"),
      Map.entry("dev.ufunc4j.internal.parallel.PieceTimeline#COUNT",
          "a diagnostic timeline, on only with -Dufunc4j.timeline"),
      // Not yet moved: PyTorch keeps its default generator in the global context too; it moves
      // into RuntimeContext with the layering of issue 25 item 2 (dev.ufunc4j -> internal).
      Map.entry("dev.ufunc4j.DefaultGenerator#generator", "to move: the default generator"),
      Map.entry("dev.ufunc4j.DefaultGenerator#seed", "to move: the default generator's seed"));

  private static final List<Class<?>> MUTABLE_TYPES =
      List.of(Number.class, ThreadLocal.class, ReferenceQueue.class, Executor.class);

  @Test
  void noStaticMutableFieldOutsideTheContext() throws IOException, ClassNotFoundException {
    Path classes = Path.of(RuntimeContext.class.getProtectionDomain().getCodeSource().getLocation()
        .getPath());
    TreeSet<String> found = new TreeSet<>();
    int scanned = 0;
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
        String rel = classes.relativize(f).toString();
        if (rel.equals("module-info.class")) {
          continue;
        }
        String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
        Class<?> c = Class.forName(name, false, RuntimeContext.class.getClassLoader());
        scanned++;
        for (Field fld : c.getDeclaredFields()) {
          int m = fld.getModifiers();
          if (!Modifier.isStatic(m) || fld.isSynthetic()) {
            continue;
          }
          boolean mutableType = MUTABLE_TYPES.stream()
              .anyMatch(t -> t.isAssignableFrom(fld.getType()) && !fld.getType().isPrimitive()
                  && !(Number.class == t && !fld.getType().getName().startsWith(
                      "java.util.concurrent.atomic.")));
          if (!Modifier.isFinal(m) || mutableType) {
            found.add(c.getName() + "#" + fld.getName());
          }
        }
      }
    }
    assertTrue(scanned > 300, "scanned the runtime's classes (" + scanned + ") in " + classes);
    TreeMap<String, String> unexpected = new TreeMap<>();
    for (String f : found) {
      if (!ALLOWED.containsKey(f)) {
        unexpected.put(f, "not allowed");
      }
    }
    assertEquals(Map.of(), unexpected,
        "static mutable fields outside the RuntimeContext: move them into it (or list them here"
            + " with the reason they are not runtime state)");
    TreeSet<String> stale = new TreeSet<>(ALLOWED.keySet());
    stale.removeAll(found);
    assertEquals(new TreeSet<>(), stale, "allowed fields that no longer exist: drop them here");
  }
}
