package dev.ufunc4j.processor;

/** The Java type of a value in an {@code @Elementwise} body. */
enum ValueType {
  DOUBLE("double"),
  LONG("long"),
  BOOLEAN("boolean");

  private final String javaName;

  ValueType(String javaName) {
    this.javaName = javaName;
  }

  String javaName() {
    return javaName;
  }
}
