package dev.ufunc4j;

/**
 * The result of {@link Tensor#max(int, boolean)} and {@link Tensor#min(int, boolean)}: PyTorch's
 * named tuple {@code (values, indices)}. The indices are INT64; ties give the first index.
 *
 * @param values the extreme values along the dimension
 * @param indices where they are, as INT64
 */
public record ValuesIndices(Tensor values, Tensor indices) {}
