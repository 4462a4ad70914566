package golden;

import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * The ops declared by {@link golden.Ops}, registered in {@code META-INF/services} so the runtime finds them.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
public final class OpsOpLibrary implements OpLibrary {
  private static final List<ElementwiseOp> OPS = List.of(
      Ops_sigmoid.OP,
      Ops_silu.OP);

  /**
   * For {@link java.util.ServiceLoader}.
   */
  public OpsOpLibrary() {
  }

  @Override
  public List<ElementwiseOp> ops() {
    return OPS;
  }
}
