package dev.ufunc4j.spark;

import org.apache.spark.sql.SparkSession;

/** One local[2] Spark session shared by the test classes of this module (starting one costs seconds). */
final class SparkTestSession {
  private static SparkSession session;
  private static int users;

  private SparkTestSession() {}

  static synchronized SparkSession get() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2]")
          .appName("ufunc4j-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "4")
          .getOrCreate();
      session.sparkContext().setLogLevel("WARN");
    }
    users++;
    return session;
  }

  static synchronized void release() {
    // Surefire runs the classes one after another in one JVM: keep the session for the next one
    // and let the JVM's shutdown hook stop it.
    users--;
  }
}
