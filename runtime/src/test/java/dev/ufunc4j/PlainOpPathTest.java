package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plain op ({@link Dispatch#plain}, {@link ElementwiseCall}) sits below autograd (issue 25
 * item 2; docs/architecture.md, "Layers"): it knows nothing of gradients, so it never calls back
 * up into the entry points that ask autograd first, {@link Dispatch#apply} and the {@code Ops}
 * facade. PyTorch's {@code number / tensor} (reciprocal, then {@code mul}) runs both ops through
 * the plain path too.
 */
class PlainOpPathTest {

  @Test
  void thePlainOpCallsNoEntryPointAboveIt() {
    JavaClass call = new ClassFileImporter().importClass(ElementwiseCall.class);
    List<String> upward = call.getMethodCallsFromSelf().stream()
        .filter(PlainOpPathTest::entersAutograd)
        .map(JavaMethodCall::getDescription)
        .sorted()
        .toList();
    assertEquals(List.of(), upward);
  }

  private static boolean entersAutograd(JavaMethodCall c) {
    String owner = c.getTargetOwner().getName();
    return owner.equals(Ops.class.getName())
        || owner.equals(Dispatch.class.getName()) && c.getName().equals("apply");
  }
}
