package dev.ufunc4j.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeSpec;

/** Adds {@code @Generated("dev.ufunc4j.processor.ElementwiseProcessor")}, without a date. */
record Generated(boolean available) {

  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");

  void annotate(TypeSpec.Builder type) {
    if (available) {
      type.addAnnotation(AnnotationSpec.builder(GENERATED)
          .addMember("value", "$S", KernelGenerator.PROCESSOR)
          .build());
    }
  }
}
