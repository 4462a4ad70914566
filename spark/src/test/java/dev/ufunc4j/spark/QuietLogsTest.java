package dev.ufunc4j.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 5: the tests that make tasks fail on purpose must not print Spark's executor stack
 * traces into the build's console. With Spark started (its logging initialised as in every other
 * test class), no appender writes to the console, and the logs go to target/spark-tests.log
 * (src/test/resources/log4j2.properties); without that file, Spark's default configuration logs
 * to the console.
 */
class QuietLogsTest extends SparkTestSession {
  @Test
  void sparkLogsGoToAFileNotTheConsole() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    boolean file = false;
    for (Appender a : context.getConfiguration().getAppenders().values()) {
      assertFalse(a instanceof ConsoleAppender,
          "a console appender '" + a.getName() + "' from " + context.getConfiguration().getName());
      file |= a instanceof FileAppender f && f.getFileName().endsWith("spark-tests.log");
    }
    assertTrue(file, "no appender to target/spark-tests.log: "
        + context.getConfiguration().getAppenders().keySet());
  }
}
