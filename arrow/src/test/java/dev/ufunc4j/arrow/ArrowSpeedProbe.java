package dev.ufunc4j.arrow;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Issue 30's speed figures (item 5), measured, not asserted: export + import of a 1 GiB tensor
 * through the C Data Interface, and mapping a 1 GiB IPC file. Run from the repo root after
 * {@code mvn -o -pl arrow -am test-compile}:
 *
 * <pre>
 * CP=arrow/target/test-classes:arrow/target/classes:runtime/target/classes:annotations/target/classes:\
 * ~/.m2/repository/org/apache/arrow/arrow-format/19.0.0/arrow-format-19.0.0.jar:\
 * ~/.m2/repository/com/google/flatbuffers/flatbuffers-java/25.2.10/flatbuffers-java-25.2.10.jar
 * java --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp $CP \
 *     dev.ufunc4j.arrow.ArrowSpeedProbe [dir for the 1 GiB file, default: the temp dir]
 * </pre>
 */
public final class ArrowSpeedProbe {
  private ArrowSpeedProbe() {}

  /** @param a the directory for the file (optional) */
  public static void main(String[] a) throws Exception {
    Tensor t = Tensor.zeros(DType.FLOAT32, 1L << 28); // 1 GiB
    long[] ns = new long[21];
    for (int r = 0; r < ns.length; r++) {
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment array = arena.allocate(CData.ARRAY);
        MemorySegment schema = arena.allocate(CData.SCHEMA);
        long t0 = System.nanoTime();
        ArrowTensors.exportTo(t, array, schema);
        Tensor back = ArrowTensors.importFrom(array, schema, arena);
        ns[r] = System.nanoTime() - t0;
        if (back.segment().address() != t.segment().address()) throw new AssertionError();
      }
    }
    Arrays.sort(ns);
    System.out.printf("export+import 1 GiB: median %.1f us (min %.1f, max %.1f), 21 runs%n",
        ns[10] / 1e3, ns[0] / 1e3, ns[20] / 1e3);
    Path dir = a.length > 0 ? Path.of(a[0]) : Path.of(System.getProperty("java.io.tmpdir"));
    Path f = dir.resolve("ufunc4j-arrow-speed-probe.arrow");
    long w0 = System.nanoTime();
    ArrowIpc.write(f, Map.of("x", t));
    System.out.printf("write 1 GiB file: %.0f ms%n", (System.nanoTime() - w0) / 1e6);
    long[] rs = new long[11];
    for (int r = 0; r < rs.length; r++) {
      long r0 = System.nanoTime();
      Tensor x = ArrowIpc.read(f).get("x");
      rs[r] = System.nanoTime() - r0;
      if (x.numel() != 1L << 28) throw new AssertionError();
    }
    Arrays.sort(rs);
    System.out.printf("read (map) 1 GiB file: median %.2f ms (min %.2f, max %.2f), 11 runs%n",
        rs[5] / 1e6, rs[0] / 1e6, rs[10] / 1e6);
    Files.delete(f);
  }
}
