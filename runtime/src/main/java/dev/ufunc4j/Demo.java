package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;

/** The README's main job until the benchmark runner exists: prints ufunc4j's dtypes. */
public final class Demo {
  private Demo() {}

  public static void main(String[] args) {
    System.out.println("ufunc4j dtypes:");
    for (DType t : DType.values()) {
      System.out.printf("  %-14s %2d byte(s)%n", t.torchName(), t.byteSize());
    }
  }
}
