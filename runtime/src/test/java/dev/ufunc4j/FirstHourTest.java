package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 item 7, the first hour's small surprises, against real PyTorch, NumPy and ml_dtypes
 * (tools/oracle/gen_first_hour.py): a tensor in autograd prints {@code requires_grad=True} or
 * {@code grad_fn=<...>} as PyTorch does; {@code .npz} archives read and write as {@code np.savez}
 * and {@code np.load}; bfloat16 is written as ml_dtypes reads it; the shape prints readably.
 */
class FirstHourTest {
  @TempDir Path dir;

  private static final float[] A = {1, 2, 3};
  private static final float[] B = {10, 20, 30};
  private static final double[] M = {0.5, -1.25, 3.0, 1e3, 2.0, -7.5};

  private static Tensor leaf(float[] v) {
    return Tensor.of(v.clone(), v.length).requiresGrad(true);
  }

  /** GradFormat recipes, built as tools/oracle/gen_first_hour.py's RECIPES build them in torch. */
  private static Tensor build(String recipe) {
    return switch (recipe) {
      case "leaf" -> leaf(A);
      case "leaf_float16" -> Tensor.of(new double[] {1, 2, 3}, DType.FLOAT16, 3).requiresGrad(true);
      case "leaf_float64_2d" -> Tensor.of(M.clone(), DType.FLOAT64, 2, 3).requiresGrad(true);
      case "add" -> Ops.add(leaf(A), leaf(B));
      case "mul" -> Ops.mul(leaf(A), leaf(B));
      case "sub" -> Ops.sub(leaf(A), leaf(B));
      case "exp" -> Ops.exp(leaf(A));
      case "sigmoid" -> Ops.sigmoid(leaf(A));
      case "sum" -> leaf(A).sum();
      case "expand" -> leaf(A).view(3, 1).expand(3, 2);
      case "permute" ->
          Tensor.of(M.clone(), DType.FLOAT32, 2, 3).requiresGrad(true).permute(1, 0);
      case "to_float64" -> leaf(A).to(DType.FLOAT64);
      case "float64_2d_mul" ->
          Ops.mul(Tensor.of(M.clone(), DType.FLOAT64, 2, 3).requiresGrad(true), 2.0);
      case "no_grad_add" -> {
        try (var _ = Autograd.noGrad()) {
          yield Ops.add(leaf(A), leaf(B));
        }
      }
      case "no_requires_grad" -> Tensor.of(A.clone(), 3);
      default -> throw new IllegalArgumentException("no recipe " + recipe);
    };
  }

  @SuppressWarnings("unchecked")
  @TestFactory
  Stream<DynamicTest> gradSuffixesPrintAsPyTorch() {
    Map<String, Object> root = (Map<String, Object>) Json.resource("/golden/grad_format.json");
    return ((List<Map<String, Object>>) root.get("cases")).stream()
        .map(c -> DynamicTest.dynamicTest((String) c.get("recipe"),
            () -> assertEquals(c.get("str"), build((String) c.get("recipe")).toString())));
  }

  @Test
  void shapeStringIsReadable() {
    assertEquals("[2, 3]", Tensor.zeros(DType.FLOAT32, 2, 3).shapeString());
    assertEquals("[]", Tensor.scalar(1.0).shapeString());
    assertEquals("[0]", Tensor.zeros(DType.FLOAT32, 0).shapeString());
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> expectedArrays() {
    return (List<Map<String, Object>>)
        ((Map<String, Object>) Json.resource("/golden/npz/arrays.json")).get("arrays");
  }

  private Path copyResource(String name) throws IOException {
    Path p = dir.resolve(name);
    try (InputStream in = FirstHourTest.class.getResourceAsStream("/golden/npz/" + name)) {
      Files.copy(in, p);
    }
    return p;
  }

  /** np.savez and np.savez_compressed archives read back as np.load gives them, in order. */
  @SuppressWarnings("unchecked")
  @Test
  void readsNumpysNpzArchives() throws IOException {
    for (String archive : new String[] {"savez.npz", "savez_compressed.npz"}) {
      Map<String, Tensor> got = Npy.readNpz(copyResource(archive));
      List<String> names = new ArrayList<>();
      for (Map<String, Object> e : expectedArrays()) {
        String name = (String) e.get("name");
        names.add(name);
        Tensor t = got.get(name);
        assertEquals(DType.fromName((String) e.get("dtype")), t.dtype(), archive + " " + name);
        assertArrayEquals(ViewGoldenTest.longs(e.get("shape")), t.shape(), archive + " " + name);
        List<Object> values = (List<Object>) e.get("values");
        double[] actual = t.to(DType.FLOAT64).contiguous().toDoubleArray();
        for (int i = 0; i < values.size(); i++) {
          Object v = values.get(i);
          double want = v instanceof Boolean b ? (b ? 1 : 0)
              : v instanceof String s ? Double.parseDouble(s) : ((Number) v).doubleValue();
          assertEquals(want, actual[i], archive + " " + name + "[" + i + "]");
        }
      }
      assertEquals(names, new ArrayList<>(got.keySet()), archive);
    }
  }

  /**
   * Npy.writeNpz writes what np.savez writes: the same members in the same order, each stored,
   * with the same bytes (np.save's, byte for byte) as NumPy's archive of the same arrays.
   */
  @Test
  void writesNpzAsNumpySavez() throws IOException {
    Path numpys = copyResource("savez.npz");
    Map<String, Tensor> arrays = new LinkedHashMap<>(Npy.readNpz(numpys));
    Path ours = dir.resolve("ours.npz");
    Npy.writeNpz(ours, arrays);
    try (ZipFile want = new ZipFile(numpys.toFile()); ZipFile got = new ZipFile(ours.toFile())) {
      List<String> wantNames = want.stream().map(ZipEntry::getName).toList();
      assertEquals(wantNames, got.stream().map(ZipEntry::getName).toList());
      for (String name : wantNames) {
        assertEquals(ZipEntry.STORED, got.getEntry(name).getMethod(), name);
        assertArrayEquals(want.getInputStream(want.getEntry(name)).readAllBytes(),
            got.getInputStream(got.getEntry(name)).readAllBytes(), name);
      }
    }
    Map<String, Tensor> back = Npy.readNpz(ours);
    for (Map.Entry<String, Tensor> e : arrays.entrySet()) {
      assertTrue(back.get(e.getKey()).equal(e.getValue()), e.getKey());
    }
  }

  @Test
  void npzRefusalsNameTheProblem() throws IOException {
    Path archive = copyResource("savez.npz");
    IOException e = assertThrows(IOException.class, () -> Npy.read(archive));
    assertTrue(e.getMessage().contains("an .npz archive") && e.getMessage().contains("readNpz"),
        e.getMessage());
    Path npy = dir.resolve("a.npy");
    Npy.write(npy, Tensor.of(A.clone(), 3));
    e = assertThrows(IOException.class, () -> Npy.readNpz(npy));
    assertTrue(e.getMessage().contains("not a zip archive"), e.getMessage());
    Map<String, Tensor> bad = new LinkedHashMap<>();
    bad.put("ok", Tensor.of(A.clone(), 3));
    bad.put("", Tensor.of(A.clone(), 3));
    Path target = dir.resolve("bad.npz");
    assertThrows(IllegalArgumentException.class, () -> Npy.writeNpz(target, bad));
    bad.remove("");
    bad.put("c32", Tensor.zeros(DType.COMPLEX32, 2));
    assertThrows(IllegalArgumentException.class, () -> Npy.writeNpz(target, bad));
    assertTrue(Files.notExists(target), "nothing is written when an entry is refused");
  }

  /**
   * bfloat16 is written with descr 'bfloat16', byte for byte the file the golden script checked
   * that NumPy with ml_dtypes loads as an ml_dtypes.bfloat16 array (and plain NumPy refuses by
   * name); that file and '<V2' (numpy.save of an ml_dtypes array) both read as BFLOAT16.
   */
  @SuppressWarnings("unchecked")
  @Test
  void bfloat16IsWrittenAsMlDtypesReadsIt() throws IOException {
    Map<String, Object> g = (Map<String, Object>) Json.resource("/golden/npz/bfloat16.json");
    double[] values = ((List<String>) g.get("values")).stream()
        .mapToDouble(v -> v.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(v))
        .toArray(); // Python's repr: "inf" for infinity
    Tensor t = Tensor.of(values, DType.BFLOAT16, values.length);
    Path ours = dir.resolve("ours.npy");
    Npy.write(ours, t);
    Path golden = copyResource("bfloat16.npy");
    assertArrayEquals(Files.readAllBytes(golden), Files.readAllBytes(ours));
    Tensor back = Npy.read(golden);
    assertEquals(DType.BFLOAT16, back.dtype());
    assertArrayEquals(values, back.toDoubleArray());
    byte[] v2 = new String(Files.readAllBytes(golden), StandardCharsets.ISO_8859_1)
        .replace("'descr': 'bfloat16'", "'descr': '<V2'     ")
        .getBytes(StandardCharsets.ISO_8859_1);
    Path voidFile = dir.resolve("v2.npy");
    Files.write(voidFile, v2);
    Tensor fromVoid = Npy.read(voidFile);
    assertEquals(DType.BFLOAT16, fromVoid.dtype());
    assertArrayEquals(values, fromVoid.toDoubleArray());
  }
}
