package dev.ufunc4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A profile path that names something other than a small regular file (issue 23, item 9): a file
 * with a 100 MB line, a FIFO, an endless device. Each used to fail the first op of a JVM with 256
 * MiB of heap ({@code OutOfMemoryError}) or block it forever (a FIFO waits for a writer); each now
 * gives one warning and the defaults, and the ops run (child JVMs, {@code -Xmx256m}).
 */
@Tag("slow") // child JVMs
class ProfileSizeTest {

  @TempDir Path dir;

  private static String probe(Path profile) throws Exception {
    return TunablesProbe.run(120, "-Xmx256m", "-Dufunc4j.tuning=" + profile,
        "-Dufunc4j.threads=2", "-Dufunc4j.grain=1");
  }

  private static void assertOneWarningAndDefaults(String out, String why) {
    assertTrue(out.contains("result=ok"), out);
    assertTrue(out.contains("source=defaults"), out);
    assertEquals(1, TunablesProbe.warnings(out), out);
    assertTrue(out.contains(why), out);
  }

  @Test
  void aHundredMegabyteLineGivesOneWarning() throws Exception {
    // One JSON line holding a 100 MiB string: reading and parsing it threw OutOfMemoryError.
    Path big = dir.resolve("big.jsonl");
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) 'x');
    try (OutputStream o = Files.newOutputStream(big)) {
      o.write("{\"format\":\"".getBytes(StandardCharsets.US_ASCII));
      for (int i = 0; i < 100; i++) {
        o.write(chunk);
      }
      o.write("\"}\n".getBytes(StandardCharsets.US_ASCII));
    }
    assertOneWarningAndDefaults(probe(big), ": 104857614 bytes, larger than a tuning profile may"
        + " be (4194304 bytes)");
  }

  @Test
  void aFifoGivesOneWarningWithoutBlocking() throws Exception {
    Path fifo = dir.resolve("tuning.jsonl");
    Process mk;
    try {
      mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("no mkfifo here: " + e);
      return;
    }
    assertTrue(mk.waitFor(30, TimeUnit.SECONDS));
    Assumptions.assumeTrue(mk.exitValue() == 0, "mkfifo failed");
    assertOneWarningAndDefaults(probe(fifo), ": not a regular file (a FIFO, device or socket)");
  }

  @Test
  void anEndlessDeviceGivesOneWarning() throws Exception {
    Path zero = Path.of("/dev/zero");
    Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero here");
    assertOneWarningAndDefaults(probe(zero), ": not a regular file (a FIFO, device or socket)");
  }
}
