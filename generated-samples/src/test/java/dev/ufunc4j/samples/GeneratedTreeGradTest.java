package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import org.junit.jupiter.api.Test;

/**
 * The backward of an associative reduction replays the forward's tree (docs/gradients.md, "Ufunc
 * methods"): the generated fold loops' tree of docs/reductions.md, over every reduced dim at once.
 * {@link TreeProbe#halfQuarter}'s gradient is the path of each element through the tree, and the
 * expected paths are computed here from the text of docs/reductions.md ("Accuracy and
 * reproducibility") with nothing of the implementation.
 */
class GeneratedTreeGradTest {
  private static final int LEAF = 2048;

  /** Runs of three whole leaves and a tail: the split above the leaves, short last blocks. */
  @Test
  void rowReductionsFollowTheRunsTree() {
    int n = 3 * LEAF + 37;
    for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
      Tensor x = Tensor.rand(5, dtype, 3, n).detach().requiresGrad(true);
      TreeProbeOps.halfQuarter.reduce(x, 1).sum().backward();
      double[] row = weights(n, dtype == DType.FLOAT32 ? 64 : 32);
      double[] expected = new double[3 * n];
      for (int r = 0; r < 3; r++) {
        System.arraycopy(row, 0, expected, r * n, n);
      }
      assertArrayEquals(expected, x.grad().toDoubleArray(), 0.0, dtype.toString());
    }
  }

  /**
   * Several dims of a layout the forward would otherwise fold in another order (dims 0 and 2 of
   * [40, 3, 50], strided by the kept dim 1): one run of the 2,000 reduced elements in their
   * row-major order, shorter than a leaf.
   */
  @Test
  void severalDimsAreOneRunInTheirRowMajorOrder() {
    Tensor x = Tensor.rand(6, DType.FLOAT32, 40, 3, 50).detach().requiresGrad(true);
    TreeProbeOps.halfQuarter.reduce(x, new int[] {0, 2}, false).sum().backward();
    double[] run = weights(40 * 50, 64);
    double[] expected = new double[40 * 3 * 50];
    for (int i = 0; i < 40; i++) {
      for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 50; k++) {
          expected[(i * 3 + j) * 50 + k] = run[i * 50 + k];
        }
      }
    }
    assertArrayEquals(expected, x.grad().toDoubleArray(), 0.0);
  }

  /** Each element's weight in the fold of a contiguous run of {@code n} by {@code lanes}. */
  private static double[] weights(int n, int lanes) {
    double[] w = new double[n];
    run(0, n, 1.0, lanes, w);
    return w;
  }

  /** A run: split at {@code max(1, floor(floor(n / 2048) / 2)) * 2048} while longer than a leaf. */
  private static void run(int lo, int n, double weight, int lanes, double[] w) {
    if (n > LEAF) {
      int mid = Math.max(1, (n / LEAF) / 2) * LEAF;
      run(lo, mid, weight * 0.5, lanes, w);
      run(lo + mid, n - mid, weight * 0.25, lanes, w);
      return;
    }
    // A leaf: accumulators start as the first elements; element i folds into i mod lanes in order;
    // then for h = lanes/2 ... 1, acc[j] = op(acc[j], acc[j + h]) for the accumulators reached.
    double[] acc = new double[lanes];
    acc[0] = weight;
    int[] levels = new int[32];
    int[] reachedAt = new int[32];
    int count = 0;
    int valid = Math.min(n, lanes);
    for (int h = lanes / 2; h >= 1; h /= 2) {
      if (valid > h) {
        levels[count] = h;
        reachedAt[count++] = valid;
        valid = h;
      }
    }
    for (int c = count - 1; c >= 0; c--) { // the last halving first
      int h = levels[c];
      for (int j = 0; j + h < reachedAt[c]; j++) {
        acc[j + h] = acc[j] * 0.25;
        acc[j] *= 0.5;
      }
    }
    for (int j = 0; j < Math.min(n, lanes); j++) {
      int elements = (n - j + lanes - 1) / lanes; // j, j + lanes, ...
      for (int t = 0; t < elements; t++) {
        double step = t == 0 ? 1.0 : 0.25;
        w[lo + j + t * lanes] = acc[j] * step * Math.pow(0.5, elements - 1 - t);
      }
    }
  }
}
