package dev.ufunc4j.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DTypeTest {
  @Test
  void namesRoundTrip() {
    for (DType t : DType.values()) {
      assertEquals(t, DType.fromName(t.torchName()));
      assertEquals(t, DType.fromName("torch." + t.torchName()));
    }
    assertEquals(DType.FLOAT32, DType.fromName("float"));
    assertEquals(DType.INT64, DType.fromName("long"));
  }

  @Test
  void unknownNameIsRefusedWithTheName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DType.fromName("float31"));
    assertTrue(e.getMessage().contains("'float31'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DType.fromName(null));
  }

  /** Issue 29 item 7: valueOf("float32") throws; of(...) takes both spellings. */
  @Test
  void ofAcceptsTorchNamesAndConstantNames() {
    for (DType t : DType.values()) {
      assertEquals(t, DType.of(t.torchName()));
      assertEquals(t, DType.of("torch." + t.torchName()));
      assertEquals(t, DType.of(t.name()));
      assertEquals(t, DType.of(t.name().toLowerCase(java.util.Locale.ROOT)));
    }
    assertEquals(DType.FLOAT32, DType.of("float"));
    assertEquals(DType.INT64, DType.of(" Long "));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DType.of("float31"));
    assertTrue(e.getMessage().contains("'float31'") && e.getMessage().contains("FLOAT32")
        && e.getMessage().contains("float32"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DType.of(null));
  }
}
