package com.example.sparktrain;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.spark.DistTensor;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Data-parallel logistic regression on Spark. The features are a table's {@code array<float>}
 * column (generated here with Spark SQL's {@code randn}); the labels are computed from them by
 * distributed ufunc4j ops; each training step runs the model and the user's loss op
 * ({@link Losses#logLoss}) on every row block with reverse mode, and the parameters' gradients are
 * summed across the partitions. The first step's gradient is checked against the same computation
 * on the gathered data.
 */
public final class Main {
  private Main() {}

  static final int FEATURES = 8;

  public static void main(String[] args) {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 40_000;
    SparkSession spark = SparkSession.builder().appName("ufunc4j-spark-train").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");

    // A table with a feature-vector column, in 4 partitions.
    StringBuilder features = new StringBuilder("cast(array(");
    for (int j = 0; j < FEATURES; j++) {
      features.append(j == 0 ? "" : ", ").append("randn(").append(11 + j).append(")");
    }
    features.append(") AS array<float>) AS features");
    Dataset<Row> table = spark.range(0, rows, 1, 4).selectExpr(features.toString());

    // The column as a distributed [rows, 8] float32 tensor; labels from a hidden weight vector.
    DistTensor x = DistTensor.fromColumn(table, "features").cache();
    Tensor trueW = Tensor.of(new float[] {2, -1, 0.5f, 0, 0, 1, -1.5f, 0.25f});
    DistTensor labels = x.apply(Ops::mul, trueW)                   // [rows, 8] * [8]
        .sumWithinRows(new int[] {1}, false)                       // [rows]
        .map(t -> Ops.gt(Ops.add(t, 0.5), 0.0).to(DType.FLOAT32))
        .cache();
    System.out.printf(Locale.ROOT, "data: %s, labels: %s%n", x, labels);

    Tensor w = Tensor.zeros(DType.FLOAT32, FEATURES);
    Tensor b = Tensor.zeros(DType.FLOAT32);
    double learningRate = 0.5;
    double first = Double.NaN;
    double last = Double.NaN;
    for (int step = 0; step <= 30; step++) {
      // Each row block's loss and gradients, packed as [dw..., db, loss], summed over all blocks.
      Tensor summed = DistTensor.sumBlocks(Main::blockGradients, x, labels, w, b);
      if (step == 0) {
        Tensor local = blockGradients(new Tensor[] {x.toTensor(), labels.toTensor(), w, b});
        double diff = Ops.sub(summed, local).abs().amax().getDouble();
        System.out.printf(Locale.ROOT, "step 0: distributed vs local gradient, max |diff| %.3g%n",
            diff);
        if (!(diff <= 1e-3 * Math.max(1, local.abs().amax().getDouble()))) {
          throw new AssertionError("distributed gradient differs from the local one by " + diff);
        }
      }
      Tensor mean = Ops.div(summed, (double) rows);
      last = mean.getDouble(FEATURES + 1);
      if (step == 0) {
        first = last;
      }
      if (step % 10 == 0) {
        System.out.printf(Locale.ROOT, "step %2d  loss %.6f%n", step, last);
      }
      w = Ops.sub(w, Ops.mul(mean.narrow(0, 0, FEATURES), learningRate)).to(DType.FLOAT32);
      b = Ops.sub(b, Ops.mul(mean.select(0, FEATURES), learningRate)).to(DType.FLOAT32);
    }
    System.out.printf(Locale.ROOT, "w = %s, b = %.3f%n", w, b.getDouble());
    spark.stop();
    if (!(last < first)) {
      System.out.printf(Locale.ROOT, "loss did not decrease: %.6f -> %.6f%n", first, last);
      System.exit(1);
    }
    System.out.printf(Locale.ROOT, "loss decreased from %.6f to %.6f%n", first, last);
  }

  /**
   * For one row block ({@code x}, {@code labels}) and the parameters ({@code w}, {@code b}): the
   * gradients of the block's summed loss and the loss itself, as one float64 vector.
   */
  static Tensor blockGradients(Tensor[] a) {
    Tensor w = a[2].detach().requiresGrad(true);
    Tensor b = a[3].detach().requiresGrad(true);
    Tensor logits = Ops.add(a[0].mul(w).sum(1), b);             // [rows]
    Tensor loss = LossesOps.logLoss(logits, a[1]).sum();
    loss.backward();
    Tensor out = Tensor.empty(DType.FLOAT64, FEATURES + 2);
    for (int j = 0; j < FEATURES; j++) {
      out.setDouble(w.grad().getDouble(j), j);
    }
    out.setDouble(b.grad().getDouble(), FEATURES);
    out.setDouble(loss.getDouble(), FEATURES + 1);
    return out;
  }
}
