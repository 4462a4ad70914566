package dev.ufunc4j.spark;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The measured inputs of docs/scale-out.md's cost model: a {@code [rows, 1024]} float32 tensor
 * plus a broadcast {@code (1024,)} operand, on one machine (ufunc4j's local call) and as a
 * {@link DistTensor} in {@code local[1]} and {@code local[2]} (the blocks already computed and
 * cached in executor memory, the result computed and kept on the executors: the job's own cost),
 * plus the Java serialization of one block each way and the gather of a result to the driver.
 * Repeats are interleaved between the systems; medians with [min–max].
 *
 * <pre>
 * mvn -B -ntp -pl spark -Pbench verify            (or: exec:exec@scale-out-cost after test-compile)
 * </pre>
 *
 * Arguments: {@code [rows] [blocks] [repeats] [markdown output path]}; the side-by-side runner
 * puts that markdown into RESULTS.md.
 */
public final class ScaleOutCost {
  private ScaleOutCost() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 16_384;
    int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 9;
    Path markdown = args.length > 3 ? Path.of(args[3]) : null;
    Tensor x = Tensor.randn(1, DType.FLOAT32, rows, 1024);
    Tensor bias = Tensor.randn(2, DType.FLOAT32, 1024);
    Tensor expected = Ops.add(x, bias);
    Map<String, List<Double>> ms = new LinkedHashMap<>();

    for (String master : new String[] {"local[1]", "local[2]"}) {
      SparkSession spark = SparkSession.builder().master(master).appName("ufunc4j-scale-out-cost")
          .config("spark.ui.enabled", "false").getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      DistTensor d = DistTensor.of(sc, x, blocks).materialize();
      if (!d.apply(Ops::add, bias).toTensor().equal(expected)) {
        throw new AssertionError("the distributed result differs from the local one");
      }
      for (int r = 0; r < repeats + 2; r++) {
        boolean keep = r >= 2; // two warm-up rounds
        time(ms, keep, "local ufunc4j", () -> Ops.add(x, bias));
        time(ms, keep, "spark " + master, () -> {
          d.apply(Ops::add, bias).blocks().foreach(b -> { });
          return null;
        });
        time(ms, keep, "spark " + master + ", identity op (the jobs' own cost)", () -> {
          d.map(t -> t).blocks().foreach(b -> { });
          return null;
        });
        if (master.equals("local[2]")) {
          DistTensor result = d.apply(Ops::add, bias).materialize();
          time(ms, keep, "gather to driver (toTensor)", result::toTensor);
          result.blocks().unpersist(true);
        }
      }
      spark.stop();
    }

    Block block = new Block(0, x.narrow(0, 0, rows / blocks));
    byte[][] bytes = new byte[1][];
    for (int r = 0; r < repeats + 2; r++) {
      boolean keep = r >= 2;
      time(ms, keep, "serialize one block", () -> bytes[0] = serialize(block));
      time(ms, keep, "deserialize one block", () -> deserialize(bytes[0]));
    }

    double local = median(ms.get("local ufunc4j"));
    StringBuilder out = new StringBuilder();
    out.append("\n## Scale-out on Spark (`ScaleOutCost`, local mode)\n\n");
    out.append(String.format(Locale.ROOT,
        "A `[%d, 1024]` float32 `DistTensor` in %d blocks of %.1f MiB plus a local `(1024,)`"
            + " operand (a Spark broadcast variable), `x.apply(Ops::add, bias)` with the result"
            + " kept on the executors, against ufunc4j's local `Ops.add` on the same data; %d"
            + " interleaved repeats after 2 warm-up ones, medians [min-max]; written %s, load"
            + " average %.2f. The cost model built on these numbers: docs/scale-out.md.%n%n",
        rows, blocks, block.dataBytes() / 1048576.0, repeats, java.time.Instant.now(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()
            .getSystemLoadAverage()));
    out.append("| what | median ms [min-max] | ratio to local |\n|---|---|---|\n");
    for (Map.Entry<String, List<Double>> e : ms.entrySet()) {
      double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
      out.append(String.format(Locale.ROOT, "| %s | %.2f [%.2f-%.2f] | %.2f |%n", e.getKey(),
          median(e.getValue()), v[0], v[v.length - 1], median(e.getValue()) / local));
    }
    double ser = median(ms.get("serialize one block"));
    double de = median(ms.get("deserialize one block"));
    out.append(String.format(Locale.ROOT,
        "%nJava serialization of one block: %.0f MB/s out, %.0f MB/s in.%n",
        block.dataBytes() / ser / 1e3, block.dataBytes() / de / 1e3));
    System.out.print(out);
    if (markdown != null) {
      Files.createDirectories(markdown.toAbsolutePath().getParent());
      Files.writeString(markdown, out.toString());
    }
  }

  private static void time(Map<String, List<Double>> ms, boolean keep, String what,
      Supplier<?> call) {
    long t0 = System.nanoTime();
    Object sink = call.get();
    double elapsed = (System.nanoTime() - t0) / 1e6;
    if (sink == ms) {
      throw new AssertionError(); // keeps the result alive to here
    }
    if (keep) {
      ms.computeIfAbsent(what, k -> new ArrayList<>()).add(elapsed);
    }
  }

  private static double median(List<Double> v) {
    double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static byte[] serialize(Block b) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(b);
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
    return bytes.toByteArray();
  }

  private static Block deserialize(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return (Block) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new RuntimeException(e);
    }
  }
}
