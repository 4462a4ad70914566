package dev.ufunc4j.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.apache.spark.SparkException;

/**
 * Runs the Spark actions of {@link DistTensor} and {@link SparkTensors} and gives a failed job back
 * as the exception the failing block threw, so that a distributed call fails with the type the
 * local call and our javadoc document ({@link IllegalArgumentException} and its subclasses such as
 * {@code BroadcastException}, {@link ArithmeticException} for an integral division by zero, ...).
 *
 * <p>Spark reports a failed task to the driver as an {@link SparkException} ("Job aborted due to
 * stage failure"), a checked exception its Java API throws without declaring it, whose cause is
 * the task's own exception (serialized from the executor). The action helpers here walk the cause
 * chain past Spark's wrappers and rethrow that exception itself (its type, message and the
 * executor's stack trace intact), with a copy of Spark's exception attached as suppressed for the
 * driver's stack and the task that failed. A failure that is not a block's (a lost executor, a
 * cancelled job, an {@link Error}) stays the {@link SparkException} Spark threw.
 */
final class SparkJobs {
  private SparkJobs() {}

  /** An action that may throw an {@link IOException}: reading or writing shards. */
  @FunctionalInterface
  interface IoAction<T> {
    T run() throws IOException;
  }

  /** Runs {@code action}; a failed job throws the failing block's unchecked exception. */
  static <T> T run(Supplier<T> action) {
    try {
      return action.get();
    } catch (Exception e) { // SparkException is checked but undeclared: only Exception catches it
      throw unwrapped(e);
    }
  }

  /**
   * Runs {@code action}; a failed job throws the failing block's {@link IOException} (or the one an
   * {@link UncheckedIOException} carries) or its unchecked exception.
   */
  static <T> T runIo(IoAction<T> action) throws IOException {
    try {
      return action.run();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      Throwable failure = e instanceof SparkException ? taskFailure(e) : e;
      IOException io = failure instanceof UncheckedIOException u ? u.getCause()
          : failure instanceof IOException i ? i
          : null;
      if (io == null) {
        throw unwrapped(e);
      }
      if (failure != io) {
        for (Throwable s : failure.getSuppressed()) {
          io.addSuppressed(s);
        }
      }
      if (e instanceof SparkException spark) {
        io.addSuppressed(driverSide(spark));
      }
      throw io;
    }
  }

  private static RuntimeException unwrapped(Exception e) {
    if (!(e instanceof SparkException spark)) {
      // Ours, thrown on the driver (or already unwrapped by a nested call).
      return e instanceof RuntimeException r ? r : sneaky(e);
    }
    if (taskFailure(spark) instanceof RuntimeException failure) {
      failure.addSuppressed(driverSide(spark));
      return failure;
    }
    return sneaky(spark);
  }

  /** The first exception in the cause chain that is not Spark's wrapper: the task's own. */
  private static Throwable taskFailure(Exception spark) {
    for (Throwable t = spark.getCause(); t != null; t = t.getCause()) {
      if (!(t instanceof SparkException)) {
        return t;
      }
    }
    return null;
  }

  /**
   * Spark's exception without its cause (which is the exception it is attached to: a cycle that
   * stack-trace printers would flag), keeping its message (the stage, task and executor that
   * failed) and the driver's stack trace (where the action was called).
   */
  private static SparkException driverSide(SparkException spark) {
    SparkException copy = new SparkException(spark.getMessage());
    copy.setStackTrace(spark.getStackTrace());
    return copy;
  }

  /**
   * Throws {@code e} without declaring it, as Spark's Java API throws its checked {@link
   * SparkException}: a failure that is not a block's stays exactly what Spark threw.
   */
  @SuppressWarnings("unchecked")
  private static <E extends Exception> RuntimeException sneaky(Exception e) throws E {
    throw (E) e;
  }
}
