package dev.ufunc4j.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;

/**
 * The base of this module's test classes: one local[2] Spark session shared by all of them
 * (starting one costs seconds). Surefire runs the classes one after another in one JVM; the
 * session stays up for the next class and Spark's shutdown hook stops it with the JVM.
 */
abstract class SparkTestSession {
  static SparkSession spark;
  static JavaSparkContext sc;

  @BeforeAll
  static synchronized void startSpark() {
    if (spark == null) {
      spark = SparkSession.builder()
          .master("local[2]")
          .appName("ufunc4j-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "4")
          .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    }
  }
}
