package dev.ufunc4j.internal.shape;

import dev.ufunc4j.dtype.DType;
import java.lang.foreign.MemorySegment;

/**
 * A strided view of native memory, as the inner layers see a tensor: its storage, dtype, shape,
 * strides and offset (both in elements). The public layer makes one from a {@code Tensor}
 * ({@code Tensor.strided()}); nothing below {@code dev.ufunc4j} knows the {@code Tensor} class
 * (docs/architecture.md, "Layers"). The arrays are the tensor's own, not copies: read them only.
 *
 * @param segment the storage
 * @param dtype the element type
 * @param shape the size of each dimension
 * @param strides the element step of each dimension
 * @param offset the element index of the first element in {@code segment}
 */
public record StridedView(
    MemorySegment segment, DType dtype, long[] shape, long[] strides, long offset) {

  /** {@return the number of elements} */
  public long numel() {
    long n = 1;
    for (long size : shape) {
      n *= size;
    }
    return n;
  }
}
