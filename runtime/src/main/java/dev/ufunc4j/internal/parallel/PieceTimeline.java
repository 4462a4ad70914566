package dev.ufunc4j.internal.parallel;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A diagnostic: when the system property {@code ufunc4j.timeline} is {@code true}, {@link Parallel}
 * records when each split op was posted and when each of its pieces started and ended, on which
 * side (the caller, or a worker). {@code TimelineBench} (benchmarks) prints the record as per-thread
 * timelines. Off by default; the check is a {@code static final} the JIT folds away.
 *
 * <p>The record is a ring of the last {@link #CAPACITY} pieces, written without locks: read it
 * only once the ops being examined have returned.
 */
public final class PieceTimeline {
  /** Whether {@link Parallel} records pieces ({@code -Dufunc4j.timeline=true}). */
  public static final boolean ENABLED = Boolean.getBoolean("ufunc4j.timeline");

  /** Pieces kept: the most recent ones win. */
  public static final int CAPACITY = 1 << 16;

  private static final long[] PIECES = new long[ENABLED ? 5 * CAPACITY : 0];
  private static final long[] POSTED = new long[ENABLED ? CAPACITY : 0];
  private static final AtomicLong COUNT = new AtomicLong();

  private PieceTimeline() {}

  /** Records that split op number {@code job} was posted to the workers at {@code nanos}. */
  static void posted(long job, long nanos) {
    POSTED[(int) (job & (CAPACITY - 1))] = nanos;
  }

  /** Records piece {@code piece} of op {@code job}, run by the caller or a worker. */
  static void piece(long job, int piece, boolean byCaller, long startNanos, long endNanos) {
    int i = (int) (COUNT.getAndIncrement() & (CAPACITY - 1));
    PIECES[5 * i] = job;
    PIECES[5 * i + 1] = piece;
    PIECES[5 * i + 2] = byCaller ? 1 : 0;
    PIECES[5 * i + 3] = startNanos;
    PIECES[5 * i + 4] = endNanos;
  }

  /** One recorded piece; times in nanoseconds from its op's posting. */
  public record Piece(long job, int piece, boolean byCaller, long start, long end) {}

  /** The recorded pieces of op number {@code job} (the ring's content, oldest first). */
  public static java.util.List<Piece> pieces(long job) {
    long posted = POSTED[(int) (job & (CAPACITY - 1))];
    long count = COUNT.get();
    java.util.List<Piece> out = new java.util.ArrayList<>();
    for (long k = Math.max(0, count - CAPACITY); k < count; k++) {
      int i = (int) (k & (CAPACITY - 1));
      if (PIECES[5 * i] == job) {
        out.add(new Piece(job, (int) PIECES[5 * i + 1], PIECES[5 * i + 2] == 1,
            PIECES[5 * i + 3] - posted, PIECES[5 * i + 4] - posted));
      }
    }
    return out;
  }

  /** The number of the most recent split op with a recorded piece, or 0 when there is none. */
  public static long lastJob() {
    long count = COUNT.get();
    return count == 0 ? 0 : PIECES[5 * (int) ((count - 1) & (CAPACITY - 1))];
  }
}
