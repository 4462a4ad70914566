package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.samples.BlendsOps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockManagerMaster;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark with executors in other JVMs ({@code mvn -Pcluster}: a {@code local-cluster[2,1,1024]}
 * master, see {@link SparkTestSession}): the executors are other processes, and a killed executor
 * JVM costs a recomputation from lineage, never a wrong or missing block (docs/scale-out.md,
 * "Recovery"). Tagged {@code cluster}: the default {@code local[2]} run leaves it out (killing an
 * "executor" there would kill the build's JVM).
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTest extends SparkTestSession {
  static final long DRIVER_PID = ProcessHandle.current().pid();

  @TempDir
  Path dir;

  @BeforeAll
  static void onlyAcrossJvms() {
    assumeTrue(clusterMode(), "needs a local-cluster master (mvn -Pcluster)");
  }

  /** Executor id to process id, for the executors that ran one of many short tasks. */
  static Map<String, Long> executorPids() {
    List<String> seen = sc.parallelize(IntStream.range(0, 16).boxed().toList(), 16)
        .map(i -> {
          Thread.sleep(100); // spreads the tasks over every executor's core
          return SparkEnv.get().executorId() + " " + ProcessHandle.current().pid();
        })
        .distinct()
        .collect();
    Map<String, Long> pids = new HashMap<>();
    for (String s : seen) {
      String[] parts = s.split(" ");
      pids.put(parts[0], Long.parseLong(parts[1]));
    }
    return pids;
  }

  @Test
  @Order(1)
  void executorsAreOtherJvms() {
    Map<String, Long> pids = executorPids();
    assertEquals(2, pids.size(), "executors seen: " + pids);
    assertEquals(2, Set.copyOf(pids.values()).size(), "two executor JVMs: " + pids);
    assertFalse(pids.containsValue(DRIVER_PID), "the driver's pid " + DRIVER_PID + " in " + pids);
    // and a user op of another module (generated-samples) loads and runs there, as locally
    Tensor x = Tensor.randn(11, DType.FLOAT32, 200, 16);
    Tensor y = Tensor.randn(12, DType.FLOAT32, 200, 16);
    assertTrue(DistTensor.of(sc, x, 4).apply(BlendsOps::hypot, y).toTensor()
        .equal(BlendsOps.hypot(x, y)));
  }

  /**
   * The user ops reach the executors as a {@code spark-submit --jars} jar does: through {@code
   * spark.jars}, fetched from the driver into each executor's work directory and loaded by the
   * executor's class loader for added jars, not from the executors' class path. ufunc4j itself
   * (on the executors' class path, as if installed on the cluster) then runs ops whose classes its
   * own class loader cannot see.
   */
  @Test
  @Order(1)
  void userOpJarIsShippedThroughSparkJars() {
    List<String> jars = CollectionConverters.asJava(sc.sc().listJars());
    assertTrue(jars.stream().anyMatch(j -> j.endsWith("/" + USER_OP_JAR)), "spark.jars: " + jars);
    List<String> seen = sc.parallelize(List.of(0, 1, 2, 3), 4).map(i -> {
      ClassLoader system = ClassLoader.getSystemClassLoader();
      return (Ops.class.getClassLoader() == system ? "ufunc4j from the class path, " : "ufunc4j"
          + " from an added jar, ") + (BlendsOps.class.getClassLoader() == system
          ? "ops from the class path " : "ops from an added jar ")
          + BlendsOps.class.getProtectionDomain().getCodeSource().getLocation();
    }).distinct().collect();
    for (String where : seen) {
      assertTrue(where.startsWith("ufunc4j from the class path, ops from an added jar ")
          && where.endsWith("/" + USER_OP_JAR), "on an executor: " + where);
    }
    Tensor x = Tensor.randn(15, DType.FLOAT32, 300, 8);
    Tensor y = Tensor.randn(16, DType.FLOAT32, 300, 8);
    assertTrue(DistTensor.apply((a, b) -> BlendsOps.hypot(a, b), DistTensor.of(sc, x, 4),
        DistTensor.of(sc, y, 4)).toTensor().equal(BlendsOps.hypot(x, y)));
  }

  /**
   * The block of partition {@code victim}, unchanged, after killing this executor JVM the first
   * time any task gets here (the marker file records the killed pid, and its existence makes every
   * later attempt pass). Never kills the driver: {@code driver} is its pid, passed along because
   * an executor initialises {@link #DRIVER_PID} with its own.
   */
  static Tensor haltOnce(Tensor block, int victim, String marker, long driver) {
    long pid = ProcessHandle.current().pid();
    if (pid != driver && TaskContext.getPartitionId() == victim) {
      try {
        Files.writeString(Path.of(marker), Long.toString(pid), StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        return block;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().halt(42);
    }
    return block;
  }

  @Test
  @Order(2)
  void jobSurvivesAnExecutorKilledMidJob() throws IOException {
    Tensor x = Tensor.randn(13, DType.FLOAT32, 4000, 32);
    String marker = dir.resolve("killed").toString();
    long driver = DRIVER_PID;
    // block 2 of 4 kills its executor on its first attempt; Spark reruns the lost tasks (and the
    // blocks the dead executor had computed) from lineage on the remaining and new executors
    DistTensor r = DistTensor.of(sc, x, 4).map(t -> Ops.exp(haltOnce(t, 2, marker, driver)));
    Tensor local = Ops.exp(x);
    assertTrue(r.toTensor().equal(local));
    long killed = Long.parseLong(Files.readString(Path.of(marker)));
    assertNotEquals(DRIVER_PID, killed);
    assertFalse(ProcessHandle.of(killed).map(ProcessHandle::isAlive).orElse(false),
        "executor JVM " + killed + " still alive");
    // a reduction over the same lineage after the loss: the same total as the local sum
    assertTrue(r.sum().allClose(local.sum(), 1e-4, 1e-4, false));
  }

  @Test
  @Order(3)
  void cachedBlocksOfAKilledExecutorAreRecomputed() throws InterruptedException {
    Tensor x = Tensor.randn(14, DType.FLOAT32, 4000, 32);
    LongAccumulator computed = sc.sc().longAccumulator("blocks computed");
    // counts the real blocks (the driver also calls the op on a zero-row proxy of the operands)
    DistTensor d = DistTensor.of(sc, x, 4).map(t -> {
      computed.add(t.shape()[0] > 0 ? 1 : 0);
      return Ops.exp(t);
    }).materialize();
    assertEquals(4, computed.value());
    int rdd = d.blocks().id();
    BlockManagerMaster blocks = SparkEnv.get().blockManager().master();
    String victim = location(blocks, rdd, 0).executorId();
    long lost = IntStream.range(0, 4)
        .filter(i -> victim.equals(location(blocks, rdd, i).executorId())).count();

    // kill the JVM holding block 0, then wait until the driver has dropped its blocks
    Long pid = null;
    for (int tries = 0; pid == null && tries < 5; tries++) {
      pid = executorPids().get(victim);
    }
    assertTrue(pid != null && pid != DRIVER_PID, "executor " + victim + " pid " + pid);
    ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!blocks.getLocations(new RDDBlockId(rdd, 0)).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "block 0 still listed on a killed executor");
      Thread.sleep(200);
    }

    // the lost blocks are computed again (the accumulator counts them), the others come from the
    // cache, and the result is the local one
    assertTrue(d.toTensor().equal(Ops.exp(x)));
    assertEquals(4 + lost, computed.value(), "blocks computed (" + lost + " lost)");
  }

  static BlockManagerId location(BlockManagerMaster blocks, int rdd, int block) {
    List<BlockManagerId> where =
        CollectionConverters.asJava(blocks.getLocations(new RDDBlockId(rdd, block)));
    assertEquals(1, where.size(), "cached block " + block + " at " + where);
    return where.get(0);
  }
}
