package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Npy} touches only regular files (issue 23, item 1): a write to a FIFO, a device or a link
 * to one is refused before any file is created, and leaves the node as it was (the rename used to
 * replace it with a regular file, the system's {@code /dev/null} once); a read of one is refused
 * at once instead of waiting for a FIFO's writer or reading a device.
 */
class NpySpecialFilesTest {

  @TempDir Path dir;

  private static final Tensor DATA = Tensor.of(new int[] {1, 2, 3});

  /** A FIFO made with mkfifo in the test's directory, or the test is skipped where there is none. */
  private Path fifo(String name) throws Exception {
    Path p = dir.resolve(name);
    Process mk;
    try {
      mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("no mkfifo here: " + e);
      return p;
    }
    assertTrue(mk.waitFor(30, TimeUnit.SECONDS), "mkfifo did not finish");
    Assumptions.assumeTrue(mk.exitValue() == 0, "mkfifo failed");
    return p;
  }

  /** The S_IFMT file type of {@code p} itself (links not followed). */
  private static int type(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
  }

  private static final int FIFO = 0010000;
  private static final int CHARACTER_DEVICE = 0020000;

  private List<Path> listing() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  @Test
  void writingToAFifoIsRefusedAndTheFifoStays() throws Exception {
    Path p = fifo("pipe.npy");
    List<Path> before = listing();
    IOException e = assertThrows(IOException.class, () -> Npy.write(p, DATA));
    assertEquals("cannot write " + p + ": it is a FIFO (named pipe), not a regular file; Npy"
        + " writes only to a regular file, which it replaces, or to a new one", e.getMessage());
    assertEquals(FIFO, type(p), "the FIFO was replaced");
    assertEquals(before, listing(), "a file was left behind");
  }

  @Test
  void writingThroughALinkToAFifoIsRefusedAndBothStay() throws Exception {
    Path p = fifo("pipe");
    Path link = Files.createSymbolicLink(dir.resolve("link.npy"), p.getFileName());
    Path chain = Files.createSymbolicLink(dir.resolve("chain.npy"), link.getFileName());
    List<Path> before = listing();
    for (Path l : List.of(link, chain)) {
      IOException e = assertThrows(IOException.class, () -> Npy.write(l, DATA));
      assertTrue(e.getMessage().contains("its link target " + p + " is a FIFO"), e.getMessage());
    }
    assertEquals(FIFO, type(p), "the FIFO was replaced");
    assertTrue(Files.isSymbolicLink(link) && Files.isSymbolicLink(chain));
    assertEquals(before, listing());
  }

  @Test
  void readingAFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
    Path p = fifo("pipe.npy");
    Path link = Files.createSymbolicLink(dir.resolve("link.npy"), p.getFileName());
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      IOException e = assertThrows(IOException.class, () -> Npy.read(p));
      assertEquals("cannot read " + p + ": it is a FIFO (named pipe), not a regular file; Npy"
          + " reads only regular files", e.getMessage());
      assertThrows(IOException.class, () -> Npy.read(link));
    });
  }

  @Test
  void aLinkLoopIsRefused() throws Exception {
    Path a = dir.resolve("a.npy");
    Path b = dir.resolve("b.npy");
    Files.createSymbolicLink(a, b.getFileName());
    Files.createSymbolicLink(b, a.getFileName());
    IOException e = assertThrows(IOException.class, () -> Npy.write(a, DATA));
    assertTrue(e.getMessage().contains("a symbolic link still after 40 links"), e.getMessage());
    assertTrue(Files.isSymbolicLink(a) && Files.isSymbolicLink(b));
    assertEquals(List.of(a, b), listing());
  }

  /**
   * The system's null device is refused, directly and through a link, and is still the character
   * device afterwards. (Nothing else is done to it: the refusal comes before any file is made.)
   */
  @Test
  void theNullDeviceIsRefusedAndStaysADevice() throws Exception {
    Path devNull = Path.of("/dev/null");
    Assumptions.assumeTrue(Files.exists(devNull, LinkOption.NOFOLLOW_LINKS)
        && type(devNull) == CHARACTER_DEVICE, "no /dev/null character device here");
    Path link = Files.createSymbolicLink(dir.resolve("null.npy"), devNull);
    IOException e = assertThrows(IOException.class, () -> Npy.write(devNull, DATA));
    assertEquals("cannot write /dev/null: it is a character device, not a regular file; Npy"
        + " writes only to a regular file, which it replaces, or to a new one", e.getMessage());
    e = assertThrows(IOException.class, () -> Npy.write(link, Tensor.zeros(DType.FLOAT32, 4)));
    assertTrue(e.getMessage().contains("its link target /dev/null is a character device"),
        e.getMessage());
    assertEquals(CHARACTER_DEVICE, type(devNull), "/dev/null is no longer a character device");
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      assertThrows(IOException.class, () -> Npy.read(devNull));
      Path zero = Path.of("/dev/zero");
      if (Files.exists(zero)) {
        IOException z = assertThrows(IOException.class, () -> Npy.read(zero));
        assertTrue(z.getMessage().contains("character device"), z.getMessage());
      }
    });
  }

  @Test
  void aDanglingLinkIsWrittenThroughAsANewFile() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("new.npy"), Path.of("target.npy"));
    Npy.write(link, DATA);
    assertTrue(Files.isSymbolicLink(link));
    assertTrue(Files.isRegularFile(dir.resolve("target.npy"), LinkOption.NOFOLLOW_LINKS));
    assertEquals(List.of(1, 2, 3),
        java.util.Arrays.stream(Npy.read(link).toIntArray()).boxed().toList());
  }
}
