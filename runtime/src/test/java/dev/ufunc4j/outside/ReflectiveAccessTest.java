package dev.ufunc4j.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Code outside {@code dev.ufunc4j} (users' frameworks, scripting bridges, acceptance checks) may
 * call the public surface reflectively. A public method inherited from a package-private class
 * cannot be invoked that way (the JDK checks the declaring class), so every public method of
 * {@link Ops} and {@link Tensor} must be declared in a public class. This test lives in another
 * package on purpose.
 */
class ReflectiveAccessTest {

  @Test
  void everyPublicMethodOfOpsAndTensorIsCallableFromAnotherPackage() {
    Tensor receiver = Tensor.zeros(dev.ufunc4j.dtype.DType.FLOAT32, 2);
    List<String> refused = new ArrayList<>();
    for (Class<?> type : List.of(Ops.class, Tensor.class)) {
      for (Method m : type.getMethods()) {
        Object target = Modifier.isStatic(m.getModifiers()) ? null : receiver;
        if (m.getDeclaringClass() != Object.class && !m.canAccess(target)) {
          refused.add(m.getDeclaringClass().getName() + "." + m.getName());
        }
      }
    }
    assertEquals(List.of(), refused.stream().distinct().toList());
  }

  @Test
  void opsSumInvokedReflectivelyMatchesTheDirectCall() throws Exception {
    Tensor x = Tensor.of(new float[] {1, 2, 3.5f}, 3);
    Method sum = Ops.class.getMethod("sum", Tensor.class);
    Tensor viaReflection = (Tensor) sum.invoke(null, x);
    assertTrue(Ops.sum(x).equal(viaReflection));
    assertEquals(6.5, viaReflection.getDouble(), 0.0);
  }
}
