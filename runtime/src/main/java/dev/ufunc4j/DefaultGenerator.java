package dev.ufunc4j;

import java.util.SplittableRandom;

/**
 * The random generator of {@code rand}, {@code randn} and {@code randint} without a seed argument
 * (PyTorch's default CPU generator): {@link Tensor#manualSeed} resets it, and each call draws its
 * own seed from it, so that a program that sets a seed and then makes the same calls in the same
 * order gets the same tensors, whatever the thread count. Thread-safe: draws are serialised; calls
 * made from several threads at once get distinct seeds in an order the threads decide.
 */
final class DefaultGenerator {
  /** PyTorch's {@code torch.initial_seed()} in a new process. */
  static final long INITIAL_SEED = 67280421310721L;

  private static final Object LOCK = new Object();
  private static SplittableRandom generator = new SplittableRandom(INITIAL_SEED);
  private static long seed = INITIAL_SEED;

  private DefaultGenerator() {}

  static void manualSeed(long newSeed) {
    synchronized (LOCK) {
      generator = new SplittableRandom(newSeed);
      seed = newSeed;
    }
  }

  static long initialSeed() {
    synchronized (LOCK) {
      return seed;
    }
  }

  /** The seed of the next seedless call. */
  static long nextSeed() {
    synchronized (LOCK) {
      return generator.nextLong();
    }
  }
}
