package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Npy#write} never loses the file it replaces: a refused or failed write leaves an existing
 * file byte-identical (and creates none where there was none), and leaves no temporary file behind
 * (issue 12, item 2).
 */
class NpyAtomicWriteTest {

  @TempDir Path dir;

  private Path existing() throws IOException {
    Path p = dir.resolve("old.npy");
    Npy.write(p, Tensor.arange(0, 100, 1).to(DType.FLOAT32));
    return p;
  }

  private List<Path> listing() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  @Test
  void refusedWritesLeaveTheFileByteIdentical() throws IOException {
    Path p = existing();
    byte[] before = Files.readAllBytes(p);
    List<Path> filesBefore = listing();
    Tensor closed;
    try (var _ = TensorScope.open()) {
      closed = Tensor.ones(DType.FLOAT32, 1000);
    }
    List<Tensor> refused =
        List.of(
            closed,
            Tensor.zeros(DType.COMPLEX32, 3),
            Tensor.zeros(DType.FLOAT8_E4M3FN, 3),
            Tensor.zeros(DType.FLOAT8_E5M2, 3));
    for (Tensor t : refused) {
      assertThrows(RuntimeException.class, () -> Npy.write(p, t), t.dtype().toString());
      assertArrayEquals(before, Files.readAllBytes(p), "after refusing " + t.dtype());
      assertEquals(filesBefore, listing(), "after refusing " + t.dtype());
    }
    assertThrows(IllegalArgumentException.class, () -> Npy.write(p, null));
    assertThrows(IllegalArgumentException.class, () -> Npy.write(null, Tensor.zeros(DType.INT8)));
    assertArrayEquals(before, Files.readAllBytes(p));
  }

  @Test
  void aRefusedWriteCreatesNoFile() {
    Path fresh = dir.resolve("fresh.npy");
    Tensor closed;
    try (var _ = TensorScope.open()) {
      closed = Tensor.ones(DType.INT32, 10);
    }
    assertThrows(IllegalStateException.class, () -> Npy.write(fresh, closed));
    assertFalse(Files.exists(fresh));
  }

  @Test
  void anInterruptedWriteLeavesTheOldFile() throws IOException {
    Path p = existing();
    byte[] before = Files.readAllBytes(p);
    List<Path> filesBefore = listing();
    Tensor big = Tensor.ones(DType.FLOAT64, 1 << 16);
    Thread.currentThread().interrupt(); // the channel's first write then fails, as mid-write would
    try {
      assertThrows(ClosedByInterruptException.class, () -> Npy.write(p, big));
    } finally {
      Thread.interrupted();
    }
    assertArrayEquals(before, Files.readAllBytes(p));
    assertEquals(filesBefore, listing());
  }

  @Test
  void aDirectoryIsNotReplaced() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("sub.npy"));
    assertThrows(IOException.class, () -> Npy.write(sub, Tensor.zeros(DType.INT8, 2)));
    assertTrue(Files.isDirectory(sub));
    assertEquals(List.of(sub), listing());
  }

  @Test
  void aSuccessfulWriteReplacesTheFileAndLeavesNothingElse() throws IOException {
    Path p = existing();
    Npy.write(p, Tensor.of(new int[] {7, 8, 9}));
    assertArrayEquals(new int[] {7, 8, 9}, Npy.read(p).toIntArray());
    assertEquals(List.of(p), listing());
  }

  @Test
  void aWriteFailingMidwayLeavesTheOldFile() throws IOException {
    Path p = existing();
    byte[] before = Files.readAllBytes(p);
    List<Path> filesBefore = listing();
    int[] chunks = {0};
    Runnable failOnThird =
        () -> {
          if (++chunks[0] == 3) {
            throw new IllegalStateException("injected failure after chunk 3");
          }
        };
    Tensor big = Tensor.ones(DType.FLOAT64, 1 << 12);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> Npy.write(p, big, 4096, failOnThird));
    assertEquals("injected failure after chunk 3", e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(p));
    assertEquals(filesBefore, listing());
  }

  @Test
  void keepsThePermissionsOfTheReplacedFileAndTheDefaultsOfANewOne() throws IOException {
    Assumptions.assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "not POSIX");
    Path p = existing();
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r-----"));
    Npy.write(p, Tensor.zeros(DType.INT8, 4));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
    Path plain = Files.createFile(dir.resolve("plain"));
    Path fresh = dir.resolve("fresh.npy");
    Npy.write(fresh, Tensor.zeros(DType.INT8, 4));
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(fresh));
  }

  @Test
  void writesThroughASymbolicLink() throws IOException {
    Path real = existing();
    Path link;
    try {
      link = Files.createSymbolicLink(dir.resolve("link.npy"), real.getFileName());
    } catch (UnsupportedOperationException | IOException e) {
      Assumptions.abort("no symbolic links here: " + e);
      return;
    }
    Npy.write(link, Tensor.of(new long[] {4, 5}));
    assertTrue(Files.isSymbolicLink(link));
    assertArrayEquals(new long[] {4, 5}, Npy.read(real).toLongArray());
    assertEquals(List.of(link, real), listing());
  }
}
