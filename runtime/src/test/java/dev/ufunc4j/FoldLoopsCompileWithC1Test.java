package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The generated leaf loops ({@code FoldKernel.leaf}) compile with C1's profiling tier (tier 3),
 * checked in a child JVM that stops at that tier and compiles in the foreground ({@code
 * -XX:TieredStopAtLevel=3 -Xbatch -XX:+PrintCompilation}), so every compile's outcome is printed.
 *
 * <p>Before, the leaf of {@code maximum} and {@code minimum} (float32, float64 and the integral
 * dtypes), {@code mul}, the bitwise ops and float64 {@code add} was one method that ran out of
 * C1's virtual registers ("COMPILE SKIPPED: out of virtual registers in LIR generator"): C1
 * inlines every Vector API call's Java fallback. Once a method has been compiled by C1 without
 * profiling (tier 2, what HotSpot does when C2's queue is long, as it is while the runtime warms
 * up) and then fails tier 3, it is not C1-compilable any more and is never profiled for C2: it
 * stays on tier 2's code, which runs the Vector API's fallbacks and boxes every vector, and
 * {@code Ops.maximum.reduce(x, 1)} of a float32 [4096, 4096] took 15-30 ns per element instead of
 * under 1 (docs/ufuncs.md, "Generated kernels"). Whether tier 2 comes first depends on the
 * compile queue, so the test checks the cause (the bailout), not a timing.
 */
@Tag("slow") // a child JVM
class FoldLoopsCompileWithC1Test {

  /** The ops whose leaf loops the child runs: the built-in associative ops with small bodies. */
  private static final List<String> OPS = List.of("add", "mul", "maximum", "minimum",
      "bitwiseAnd", "bitwiseOr", "bitwiseXor");

  private static final List<DType> DTYPES = List.of(DType.FLOAT32, DType.FLOAT64, DType.INT8,
      DType.UINT8, DType.INT16, DType.INT32, DType.UINT32, DType.INT64, DType.UINT64);

  /**
   * The child: every op of {@link #OPS} over every dtype it has fold loops for, reduced along its
   * rows of 650 elements (ten blocks of a float32 leaf and a tail) until C1 has compiled the leaf;
   * prints "leaves=N".
   */
  public static void main(String[] args) throws Exception {
    int leaves = 0;
    for (String name : OPS) {
      BinaryUfunc op = (BinaryUfunc) Ops.class.getField(name).get(null);
      for (DType dtype : DTYPES) {
        if (dtype.isFloatingPoint() && name.startsWith("bitwise")) {
          continue;
        }
        Tensor x = Tensor.randint(11, 0, 100, dtype, 2, 650);
        for (int call = 0; call < 300; call++) {
          op.reduce(x, 1);
        }
        leaves++;
      }
    }
    System.out.println("leaves=" + leaves);
  }

  @Test
  void leafLoopsDoNotBailOutOfC1() throws Exception {
    for (String name : OPS) {
      ElementwiseOp op = ((BinaryUfunc) Ops.class.getField(name).get(null)).op();
      assertNotNull(op.foldKernel(DType.INT32), name + " has no fold loops");
    }
    String out = ChildJvm.run(
        List.of("-XX:TieredStopAtLevel=3", "-Xbatch", "-XX:+PrintCompilation"),
        FoldLoopsCompileWithC1Test.class);
    assertTrue(out.contains("leaves=" + (OPS.size() * DTYPES.size() - 3 * 2)), out);
    // A PrintCompilation line: "... dev.ufunc4j.Builtins_maximum_w32f::float32_float32_leaf
    // (1777 bytes)   COMPILE SKIPPED: out of virtual registers in LIR generator (retry ...)"
    Matcher compiled = Pattern.compile("dev\\.ufunc4j\\.Builtins_\\w+::\\w+_leaf\\w*").matcher(out);
    int leafCompiles = 0;
    while (compiled.find()) {
      leafCompiles++;
    }
    assertTrue(leafCompiles >= OPS.size(), "the child compiled " + leafCompiles + " leaf methods");
    String skipped = out.lines()
        .filter(l -> l.contains("COMPILE SKIPPED") && l.contains("dev.ufunc4j."))
        .filter(l -> l.matches(".*::\\w+_(leaf\\w*|fold|scan|pair\\w*) .*"))
        .reduce("", (a, b) -> a + b.trim() + "\n");
    assertEquals("", skipped, "generated fold loops that C1 gave up on");
  }
}
