package dev.ufunc4j.bench;

import dev.ufunc4j.internal.parallel.PieceTimeline;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Per-thread timelines of a split op: runs one benchmark case's {@code out=} call (as {@link
 * OpsBench} does) many times on the given number of threads, then prints the per-call times and,
 * from {@link PieceTimeline}, when the workers started after each op was posted, how long each
 * thread's pieces took in all, and how far apart the threads finished. It tells a slow hand-off
 * (late start, uneven ends) from a kernel that runs slower per thread when both cores work.
 *
 * <pre>
 * java --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dufunc4j.timeline=true \
 *   -cp benchmarks/target/benchmarks.jar dev.ufunc4j.bench.TimelineBench silu_16M 2 200
 * </pre>
 */
public final class TimelineBench {
  private TimelineBench() {}

  public static void main(String[] args) {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: TimelineBench <case id> <threads> [calls]");
    }
    OpsBench bench = new OpsBench();
    bench.caseId = args[0];
    bench.threads = Integer.parseInt(args[1]);
    bench.mode = "out";
    int calls = args.length > 2 ? Integer.parseInt(args[2]) : 200;
    bench.setUp();
    for (int i = 0; i < calls / 4 + 1; i++) {
      bench.run(); // warm-up, not reported
    }
    long firstJob = PieceTimeline.lastJob() + 1;
    double[] ms = new double[calls];
    for (int i = 0; i < calls; i++) {
      long t0 = System.nanoTime();
      bench.run();
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(ms);
    System.out.printf(Locale.ROOT, "%s, %d thread(s), %d calls: median %.3f ms [min %.3f, p90 %.3f]%n",
        bench.caseId, bench.threads, calls, ms[calls / 2], ms[0], ms[calls * 9 / 10]);
    long lastJob = PieceTimeline.lastJob();
    if (!PieceTimeline.ENABLED || lastJob < firstJob) {
      System.out.println(PieceTimeline.ENABLED ? "no split op recorded (one thread, or under the grain)"
          : "timelines off: run with -Dufunc4j.timeline=true");
      return;
    }
    int jobs = 0;
    double start = 0, spread = 0, callerBusy = 0, workerBusy = 0, span = 0;
    for (long job = firstJob; job <= lastJob; job++) {
      List<PieceTimeline.Piece> pieces = PieceTimeline.pieces(job);
      if (pieces.isEmpty()) {
        continue;
      }
      long workerStart = Long.MAX_VALUE, callerEnd = 0, workerEnd = 0, cBusy = 0, wBusy = 0;
      StringBuilder line = new StringBuilder();
      for (PieceTimeline.Piece p : pieces) {
        if (p.byCaller()) {
          callerEnd = Math.max(callerEnd, p.end());
          cBusy += p.end() - p.start();
        } else {
          workerStart = Math.min(workerStart, p.start());
          workerEnd = Math.max(workerEnd, p.end());
          wBusy += p.end() - p.start();
        }
        line.append(String.format(Locale.ROOT, " %s%d[%.2f-%.2f]", p.byCaller() ? "C" : "W",
            p.piece(), p.start() / 1e6, p.end() / 1e6));
      }
      jobs++;
      if (workerStart != Long.MAX_VALUE) {
        start += workerStart / 1e6;
        spread += Math.abs(callerEnd - workerEnd) / 1e6;
      }
      callerBusy += cBusy / 1e6;
      workerBusy += wBusy / 1e6;
      span += Math.max(callerEnd, workerEnd) / 1e6;
      if (job > lastJob - 3) {
        System.out.println("op " + job + " (ms from posting):" + line);
      }
    }
    System.out.printf(Locale.ROOT,
        "over %d split ops (means, ms): span %.3f; worker's first piece starts at %.3f; "
            + "busy: caller %.3f, workers %.3f; ends apart %.3f%n",
        jobs, span / jobs, start / jobs, callerBusy / jobs, workerBusy / jobs, spread / jobs);
  }
}
