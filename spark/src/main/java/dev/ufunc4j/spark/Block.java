package dev.ufunc4j.spark;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.spark.util.KnownSizeEstimation;

/**
 * One row block of a {@link DistTensor}: rows {@code [startRow, startRow + rows)} of the global
 * tensor, as one contiguous local {@link Tensor}. Also the wrapper that ships a local operand to
 * the executors ({@code startRow} is then -1).
 *
 * <p>A tensor lives in native memory, which Java serialization cannot see, so a block serializes
 * as its dtype name, its shape and its elements' bytes, copied from the tensor's memory segment in
 * chunks (no intermediate array of the whole block); deserializing allocates a new tensor and
 * copies the bytes in. This is what Spark's default (Java) serializer calls for every block that
 * crosses a process boundary: a task's input, a broadcast variable, a shuffle or a collect.
 *
 * <p>The elements live in native memory, which Spark's {@code SizeEstimator} cannot see by walking
 * the object graph; {@link #estimatedSize()} tells it, so that cached blocks count at their real
 * size in Spark's storage memory and are evicted (and recomputed from lineage) when it is full.
 */
final class Block implements Serializable, KnownSizeEstimation {
  @Serial private static final long serialVersionUID = 1L;
  private static final int CHUNK = 1 << 16;

  final long startRow;
  transient Tensor tensor;

  Block(long startRow, Tensor tensor) {
    this.startRow = startRow;
    this.tensor = tensor.contiguous();
  }

  /** Rows in this block (the size of dimension 0; 1 for a zero-dim tensor). */
  long rows() {
    return tensor.ndim() == 0 ? 1 : tensor.shape()[0];
  }

  /** Number of bytes the elements occupy, for the cost model (docs/scale-out.md). */
  long dataBytes() {
    return tensor.numel() * tensor.dtype().byteSize();
  }

  /** What Spark's storage memory accounts for this block: its elements plus the objects. */
  @Override
  public long estimatedSize() {
    return dataBytes() + 512;
  }

  @Serial
  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    out.writeUTF(tensor.dtype().torchName());
    long[] shape = tensor.shape();
    out.writeInt(shape.length);
    for (long s : shape) {
      out.writeLong(s);
    }
    long bytes = dataBytes();
    long at = tensor.offset() * tensor.dtype().byteSize();
    MemorySegment segment = tensor.segment();
    byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(bytes, 1))];
    for (long done = 0; done < bytes; ) {
      int n = (int) Math.min(buf.length, bytes - done);
      MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, at + done, buf, 0, n);
      out.write(buf, 0, n);
      done += n;
    }
  }

  @Serial
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    DType dtype = DType.fromName(in.readUTF());
    int ndim = in.readInt();
    if (ndim < 0 || ndim > 64) {
      throw new IOException("corrupt block: " + ndim + " dimensions");
    }
    long[] shape = new long[ndim];
    for (int i = 0; i < ndim; i++) {
      shape[i] = in.readLong();
    }
    Tensor t = Tensor.empty(dtype, shape);
    long bytes = t.numel() * dtype.byteSize();
    MemorySegment segment = t.segment();
    byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(bytes, 1))];
    for (long done = 0; done < bytes; ) {
      int n = (int) Math.min(buf.length, bytes - done);
      in.readFully(buf, 0, n);
      MemorySegment.copy(buf, 0, segment, ValueLayout.JAVA_BYTE, done, n);
      done += n;
    }
    tensor = t;
  }
}
