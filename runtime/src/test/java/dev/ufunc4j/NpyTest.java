package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpyTest {

  @TempDir Path dir;

  private static final DType[] NPY_DTYPES = {
    DType.BOOL, DType.UINT8, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT16,
    DType.UINT32, DType.UINT64, DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64,
    DType.COMPLEX64, DType.COMPLEX128
  };

  private static Tensor sample(DType d) {
    if (d.isComplex()) {
      return Tensor.ofComplex(new double[] {1, -2, 3.5, 0, -0.0, 7, 1e-3, 2, 9, 9, -1, 1}, d, 2, 3);
    }
    return Tensor.randint(d.ordinal(), -100, 100, DType.INT64, 2, 3).to(d);
  }

  @Test
  void roundTripsEveryNumpyDtypeThroughJava() throws IOException {
    for (DType d : NPY_DTYPES) {
      Tensor t = sample(d).t(); // non-contiguous on purpose
      Path p = dir.resolve(d + ".npy");
      Npy.write(p, t);
      assertEquals(0, (Files.size(p) - t.numel() * d.byteSize()) % 64, "data 64-byte aligned");
      Tensor back = Npy.read(p);
      assertEquals(d, back.dtype());
      assertArrayEquals(t.shape(), back.shape());
      assertTrue(back.equal(t), d + ": " + back + " vs " + t);
    }
  }

  @Test
  void writesNumpysHeaderByteForByte() throws IOException {
    Path p = dir.resolve("h.npy");
    Npy.write(p, Tensor.of(new float[] {1, 2, 3}));
    byte[] b = Files.readAllBytes(p);
    String header = new String(b, 10, 118, StandardCharsets.US_ASCII);
    assertEquals("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", header.strip());
    assertEquals(128 + 12, b.length);
  }

  @Test
  void readsBigEndianFortranAndVersions2And3() throws IOException {
    // shape (2, 3) big-endian int32 in Fortran order: columns first.
    int[] cOrder = {1, 2, 3, 4, 5, 6};
    int[] fOrder = {1, 4, 2, 5, 3, 6};
    ByteBuffer data = ByteBuffer.allocate(24).order(ByteOrder.BIG_ENDIAN);
    for (int v : fOrder) {
      data.putInt(v);
    }
    for (int major = 1; major <= 3; major++) {
      Path p = dir.resolve("f" + major + ".npy");
      Files.write(p, npy(major, "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }",
          data.array()));
      Tensor t = Npy.read(p);
      assertArrayEquals(new long[] {2, 3}, t.shape());
      assertArrayEquals(cOrder, t.toIntArray());
    }
  }

  @Test
  void readsZeroDimAndEmptyArrays() throws IOException {
    Path p = dir.resolve("z.npy");
    Npy.write(p, Tensor.scalar(2.5));
    assertEquals(0, Npy.read(p).ndim());
    assertEquals(2.5, Npy.read(p).getDouble());
    Npy.write(p, Tensor.zeros(DType.INT16, 0, 4));
    assertArrayEquals(new long[] {0, 4}, Npy.read(p).shape());
  }

  @Test
  void refusesWhatNumpyCannotHoldWithAConversionHint() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> Npy.write(dir.resolve("x.npy"), Tensor.zeros(DType.FLOAT8_E4M3FN, 2)));
    assertTrue(e.getMessage().contains("to(DType.FLOAT32)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Npy.write(dir.resolve("x.npy"), Tensor.zeros(DType.COMPLEX32, 2)));
    assertTrue(e.getMessage().contains("COMPLEX64"), e.getMessage());
  }

  @Test
  void hostileHeadersAreRefusedWithTheValue() throws IOException {
    byte[] ok = new byte[16];
    record Bad(byte[] file, String expected) {}
    List<Bad> cases = new ArrayList<>();
    cases.add(new Bad("NOTNPY".getBytes(StandardCharsets.US_ASCII), "truncated"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", ok)
        .clone(), null)); // valid control
    byte[] wrongMagic = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", ok);
    wrongMagic[1] = 'X';
    cases.add(new Bad(wrongMagic, "wrong magic"));
    byte[] version = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", ok);
    version[6] = 9;
    cases.add(new Bad(version, "version 9.0"));
    cases.add(new Bad(npy(1,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000, 100000000000), }", ok),
        "more than 2^63 elements"));
    cases.add(new Bad(npy(1,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4000000000,), }", ok),
        "needs 16000000000 bytes of data, the file has 16"));
    cases.add(new Bad(npy(1,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", ok),
        "too large"));
    cases.add(new Bad(npy(1, "{'descr': '<U5', 'fortran_order': False, 'shape': (4,), }", ok),
        "unsupported dtype '<U5'"));
    cases.add(new Bad(npy(1, "{'descr': 'O', 'fortran_order': False, 'shape': (4,), }", ok),
        "unsupported dtype 'O'"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (4,), }", ok),
        "unexpected header value"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }", ok),
        "non-negative integers"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'shape': (4,), }", ok), "header keys"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), "
        + "'evil': True}", ok), "header keys"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)", ok),
        "header ends early"));
    cases.add(new Bad(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ("
        + "1, ".repeat(65) + "), }", ok), "more than 64 dimensions"));
    byte[] hugeHeader = npy(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", ok);
    ByteBuffer.wrap(hugeHeader).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 0x7FFF_FFF0);
    cases.add(new Bad(hugeHeader, "exceeds the limit"));
    for (Bad c : cases) {
      Path p = dir.resolve("bad.npy");
      Files.write(p, c.file);
      if (c.expected == null) {
        assertEquals(4, Npy.read(p).numel());
        continue;
      }
      IOException e = assertThrows(IOException.class, () -> Npy.read(p), c.expected);
      assertTrue(e.getMessage().contains(c.expected), e.getMessage() + " lacks " + c.expected);
    }
  }

  /**
   * Text a refusal echoes from the file is escaped as Python's {@code repr} escapes it: a crafted
   * header cannot put terminal escapes or line breaks into a message (issue 12, item 9), and a
   * tuple shows as a tuple, not as a Java array's identity.
   */
  @Test
  void bytesEchoedFromTheFileAreEscaped() throws IOException {
    byte[] ok = new byte[16];
    record Bad(String dict, String expected) {}
    List<Bad> cases = List.of(
        new Bad("{'descr': '<f4\u001b[2J', 'fortran_order': False, 'shape': (4,), }",
            "unsupported dtype '<f4\\x1b[2J'"),
        new Bad("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'a\nb\tc': True}",
            "got ['descr', 'fortran_order', 'shape', 'a\\nb\\tc']"),
        new Bad("{'descr': \"it's\\\", 'fortran_order': False, 'shape': (4,), }",
            "unsupported dtype 'it\\'s\\\\'"),
        new Bad("{'descr': '<f4', 'fortran_order': \u0007\u00e9, 'shape': (4,), }",
            "unexpected header value at offset 34: '\\x07\\xc3\\xa9, \\'shape\\': (4,), '"),
        new Bad("{'descr': (1, 2), 'fortran_order': False, 'shape': (4,), }",
            "descr must be a string, got (1, 2)"),
        new Bad("{'descr': '<f4', 'fortran_order': False, 'shape': '\r(4,)', }",
            "shape must be a tuple of integers, got '\\r(4,)'"),
        new Bad("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'shape': (4,)}",
            "duplicate header key 'shape'"));
    for (Bad c : cases) {
      Path p = dir.resolve("bad.npy");
      Files.write(p, npy(1, c.dict, ok));
      IOException e = assertThrows(IOException.class, () -> Npy.read(p), c.dict);
      String message = e.getMessage();
      assertTrue(message.contains(c.expected), message + " lacks " + c.expected);
      assertTrue(message.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7F),
          "unescaped character in: " + message);
    }
  }

  /** Mutated bytes of valid files: every read either succeeds or throws IOException, quickly. */
  @Test
  void fuzzedFilesNeverEscapeAsOtherExceptions() throws IOException {
    Path src = dir.resolve("src.npy");
    Npy.write(src, Tensor.arange(24).view(2, 3, 4).to(DType.INT32));
    byte[] valid = Files.readAllBytes(src);
    SplittableRandom rng = new SplittableRandom(42);
    Path p = dir.resolve("fuzz.npy");
    int failures = 0;
    for (int iter = 0; iter < 3000; iter++) {
      byte[] b = valid.clone();
      int kind = rng.nextInt(4);
      if (kind == 0) {
        b = java.util.Arrays.copyOf(b, rng.nextInt(b.length));
      } else {
        int flips = 1 + rng.nextInt(4);
        for (int f = 0; f < flips; f++) {
          // Mostly hit the preamble and header, where the parser lives.
          int at = kind == 3 ? rng.nextInt(b.length) : rng.nextInt(Math.min(b.length, 128));
          b[at] = kind == 1 ? (byte) rng.nextInt(256) : (byte) "0123456789(),:'{} -9eTF".charAt(
              rng.nextInt(23));
        }
      }
      Files.write(p, b);
      try {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> Npy.read(p));
      } catch (Exception e) {
        if (!(e instanceof IOException)) {
          throw new AssertionError("iteration " + iter + " escaped as " + e, e);
        }
        failures++;
      }
    }
    assertTrue(failures > 100, "the fuzzer should produce many invalid files, got " + failures);
  }

  /**
   * Java writes every dtype, the machine's real NumPy loads, checks and rewrites them (C and
   * Fortran order, big-endian, format versions 2.0 and 3.0), and Java reads them back.
   */
  @Test
  void roundTripsThroughRealNumpy() throws Exception {
    String why = numpyMissing();
    if (why != null) {
      System.out.println("NpyTest.roundTripsThroughRealNumpy skipped: " + why);
      Assumptions.abort(why);
    }
    for (DType d : NPY_DTYPES) {
      Npy.write(dir.resolve(d + ".npy"), sample(d));
    }
    String script = """
        import numpy as np, sys, os, glob
        from numpy.lib import format as fmt
        d = sys.argv[1]
        for p in sorted(glob.glob(os.path.join(d, '*.npy'))):
            name = os.path.basename(p)[:-4]
            if name == 'bfloat16':
                # descr 'bfloat16': loads as bfloat16 once ml_dtypes is imported (golden checked
                # by tools/oracle/gen_first_hour.py); plain NumPy refuses it by name.
                try:
                    import ml_dtypes
                except ImportError:
                    print('bfloat16 uint16 (no ml_dtypes here)')
                    continue
                a = np.load(p)
                assert a.dtype == np.dtype(ml_dtypes.bfloat16), a.dtype
                a = a.view(np.uint16)
            else:
                a = np.load(p)
            assert a.shape == (2, 3), (name, a.shape)
            f = np.asfortranarray(a) if name != 'bfloat16' else a
            if name != 'bfloat16':
                np.save(os.path.join(d, name + '.fortran'), np.asfortranarray(a))
                np.save(os.path.join(d, name + '.big'), a.astype(a.dtype.newbyteorder('>')))
                for v in ((2, 0), (3, 0)):
                    with open(os.path.join(d, name + '.v%d' % v[0] + '.npy'), 'wb') as out:
                        fmt.write_array(out, a, version=v)
            print(name, a.dtype, a.reshape(-1).tolist())
        """;
    Process py = new ProcessBuilder("python3", "-c", script, dir.toString())
        .redirectErrorStream(true).start();
    String out = new String(py.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, py.waitFor(), out);
    for (DType d : NPY_DTYPES) {
      Tensor original = sample(d);
      assertTrue(out.contains(d.torchName().equals("bfloat16") ? "bfloat16 uint16" : d + " "),
          "numpy did not load " + d + ": " + out);
      if (d == DType.BFLOAT16) {
        continue;
      }
      for (String variant : new String[] {".fortran", ".big", ".v2", ".v3"}) {
        Tensor back = Npy.read(dir.resolve(d + variant + ".npy"));
        assertEquals(d, back.dtype(), variant);
        assertTrue(back.equal(original), d + variant + ": " + back + " vs " + original);
      }
    }
    // NumPy's own view of the values, for one dtype: exact decimal text.
    assertTrue(out.contains("float64 float64 " + java.util.Arrays.toString(
        sample(DType.FLOAT64).toDoubleArray())), out);
  }

  private static String numpyMissing() {
    try {
      Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor() == 0 ? null : "python3 cannot import numpy: " + out.strip();
    } catch (IOException | InterruptedException e) {
      return "python3 not runnable: " + e.getMessage();
    }
  }

  /** A .npy file of format {@code major}.0 with {@code dict} as header and {@code data}. */
  static byte[] npy(int major, String dict, byte[] data) {
    byte[] h = dict.getBytes(StandardCharsets.UTF_8);
    int pre = major == 1 ? 10 : 12;
    int len = ((pre + h.length + 1 + 63) / 64) * 64 - pre;
    ByteBuffer b = ByteBuffer.allocate(pre + len + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
    if (major == 1) {
      b.putShort((short) len);
    } else {
      b.putInt(len);
    }
    b.put(h);
    for (int i = h.length; i < len - 1; i++) {
      b.put((byte) ' ');
    }
    b.put((byte) '\n').put(data);
    return b.array();
  }
}
