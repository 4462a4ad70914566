package dev.ufunc4j.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Turns the side-by-side samples into {@code RESULTS.md} and an SVG chart of the ratios. */
final class Report {
  private static final String[] MODES = {"out", "fresh", "scope"};

  private final List<BenchCase> cases;
  private final Map<String, List<Double>> samples;
  private final Map<String, String> peerErrors;
  private final Map<String, String> environment;
  /** What the tuned column's profile chose (markdown), or null when the run had none. */
  private final String tuning;

  Report(
      List<BenchCase> cases,
      Map<String, List<Double>> samples,
      Map<String, String> peerErrors,
      Map<String, String> environment,
      String tuning) {
    this.cases = cases;
    this.samples = samples;
    this.peerErrors = peerErrors;
    this.environment = environment;
    this.tuning = tuning;
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private Double med(String key) {
    List<Double> xs = samples.get(key);
    return xs == null || xs.isEmpty() ? null : median(xs);
  }

  private String cell(String key) {
    List<Double> xs = samples.get(key);
    if (xs == null || xs.isEmpty()) {
      String base = key.substring(0, key.lastIndexOf('|'));
      return peerErrors.containsKey(base) ? "n/a¹" : "—";
    }
    double m = median(xs);
    double spread = (Collections.max(xs) - Collections.min(xs)) / 2 / m * 100;
    return String.format(Locale.ROOT, "%s ±%.0f%%", time(m), spread);
  }

  static String time(double ms) {
    if (ms >= 1) {
      return String.format(Locale.ROOT, "%.2f ms", ms);
    } else if (ms >= 1e-3) {
      return String.format(Locale.ROOT, "%.2f µs", ms * 1e3);
    }
    return String.format(Locale.ROOT, "%.0f ns", ms * 1e6);
  }

  /** Best (lowest) median of ufunc4j over its thread counts. */
  Double ufunc4j(String id, String mode) {
    return min(med("ufunc4j|1|" + id + "|" + mode), med("ufunc4j|2|" + id + "|" + mode));
  }

  /** Best peer median; a scope row compares with the peers' fresh calls (they have no scopes). */
  Double bestPeer(String id, String mode) {
    String m = mode.equals("scope") ? "fresh" : mode;
    return min(
        min(med("numpy|1|" + id + "|" + m), med("torch|1|" + id + "|" + m)),
        med("torch|2|" + id + "|" + m));
  }

  private static Double min(Double a, Double b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : Math.min(a, b);
  }

  /** GB/s of STREAM add over 16M floats, best thread count, or null if not measured. */
  Double streamAddGbps() {
    Double best = null;
    for (String t : List.of("1", "2")) {
      Double ms = med("stream|" + t + "|add_16777216|out");
      if (ms != null) {
        double gbps = 12.0 * 16777216 / (ms * 1e-3) / 1e9;
        best = best == null ? gbps : Math.max(best, gbps);
      }
    }
    return best;
  }

  /**
   * The issues' target ratio to the best peer for a case and mode: 1.0 unless another is set
   * (fresh results at 1K and 1M elements, float32 and complex64, may take 1.5× outside a scope).
   */
  static double target(String id, String mode) {
    return switch (id) {
      case "int32_float32_16M", "uint8_int8_16M" -> 0.5;
      case "bfloat16_float32_16M" -> 0.25;
      case "transposed" -> 0.33;
      case "logaddexp_reduce_rows_4096" -> 1.2; // issue 24: a user's logAddExp.reduce vs logsumexp
      case "add_1K", "add_1M", "complex64_add_1M", "complex64_mul_1M" ->
          mode.equals("fresh") ? 1.5 : 1.0;
      default -> 1.0;
    };
  }

  /**
   * Default against tuned, {@code out} mode, at the default thread count (this machine's
   * processors): the ratio of the medians, and whether the samples' ranges are apart (beyond the
   * run's noise).
   */
  private void tunedTable(StringBuilder md) {
    if (samples.keySet().stream().noneMatch(k -> k.startsWith("tuned|"))) {
      return;
    }
    String cores = environment.getOrDefault("cores", "2");
    md.append("\n## Tuned (a tuning profile made in this run)\n\n");
    if (tuning != null) {
      md.append(tuning).append("\n");
    }
    md.append("**tuned ÷ default** = the median of ufunc4j *out* with the profile ÷ without it (")
        .append(cores).append(" threads, the default); below 1 means the profile made it faster. ")
        .append("*faster* / *slower*: every tuned sample below / above every default one (beyond ")
        .append("the run's noise; each system has one JVM per round, so with 2 rounds it is a hint to ")
        .append("rerun interleaved, not a test); else *same*.\n\n")
        .append("| case | default | tuned | tuned ÷ default | |\n|---|---|---|---|---|\n");
    int faster15 = 0;
    int slower = 0;
    int rows = 0;
    for (BenchCase c : cases) {
      String d = "ufunc4j|" + cores + "|" + c.id() + "|out";
      String t = "tuned|" + cores + "|" + c.id() + "|out";
      List<Double> ds = samples.get(d);
      List<Double> ts = samples.get(t);
      if (ds == null || ts == null || ds.isEmpty() || ts.isEmpty()) {
        continue;
      }
      rows++;
      double ratio = median(ts) / median(ds);
      String verdict =
          Collections.max(ts) < Collections.min(ds)
              ? "faster"
              : Collections.min(ts) > Collections.max(ds) ? "slower" : "same";
      if (verdict.equals("faster") && ratio <= 0.85) {
        faster15++;
      }
      if (verdict.equals("slower")) {
        slower++;
      }
      md.append("| ").append(c.id()).append(" | ").append(cell(d)).append(" | ").append(cell(t))
          .append(String.format(Locale.ROOT, " | %.2f | %s |%n", ratio, verdict));
    }
    md.append(String.format(Locale.ROOT,
        "%n%d cases: %d at least 15%% faster beyond the noise, %d slower beyond it.%n",
        rows, faster15, slower));
  }

  String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("# ufunc4j side by side with NumPy and PyTorch\n\n");
    md.append("Written by `dev.ufunc4j.bench.SideBySide` (see the README's benchmark command). ")
        .append("Times are medians over all rounds' samples with their spread (± half the range, ")
        .append("relative); the systems ran interleaved, round after round, on the same machine. ")
        .append("**ratio** = ufunc4j's best median (1 or 2 threads) ÷ the best peer's median ")
        .append("(NumPy 1 thread, PyTorch 1 or 2 threads); below 1 means ufunc4j is faster. ")
        .append("**% STREAM** = the minimum bytes the op moves ÷ ufunc4j's time ÷ the STREAM add ")
        .append("bandwidth of the same run (memory-bound cases only). *out*: result preallocated; ")
        .append("*fresh*: the call allocates its result; *scope*: ufunc4j allocates it inside a ")
        .append("`TensorScope` opened and closed around each call (compared with the peers' fresh ")
        .append("calls).\n\n");
    md.append("`add_backward_16M` is `c.backward(g)` for a recorded `c = a + b` (PyTorch with ")
        .append("`retain_graph=True`; NumPy has no autograd): *out* accumulates into the existing ")
        .append("gradients, *fresh* clears them first.\n\n");
    md.append("Environment: ");
    environment.forEach((k, v) -> md.append(k).append(" ").append(v).append("; "));
    md.append("\n\n## Memory bandwidth (STREAM, float32)\n\n| kernel | 1 thread | 2 threads |\n|---|---|---|\n");
    for (String op : List.of("copy", "add")) {
      for (String n : List.of("16777216", "67108864")) {
        double bytesPerElem = op.equals("copy") ? 8 : 12;
        md.append("| ").append(op).append(" ").append(Long.parseLong(n) >> 20).append("M |");
        for (String t : List.of("1", "2")) {
          Double ms = med("stream|" + t + "|" + op + "_" + n + "|out");
          md.append(ms == null ? " — |" : String.format(Locale.ROOT, " %.1f GB/s |",
              bytesPerElem * Long.parseLong(n) / (ms * 1e-3) / 1e9));
        }
        md.append("\n");
      }
    }
    Double stream = streamAddGbps();
    md.append("\n## Cases\n\n| case | mode | ufunc4j 1T | ufunc4j 2T | NumPy | PyTorch 1T | PyTorch 2T | ratio | target | % STREAM |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (BenchCase c : cases) {
      for (String mode : MODES) {
        String id = c.id();
        Double u = ufunc4j(id, mode);
        if (mode.equals("scope") && u == null) {
          continue; // scope mode runs on the loop cases only
        }
        Double p = bestPeer(id, mode);
        String ratio = u == null || p == null ? "—" : String.format(Locale.ROOT, "%.2f", u / p);
        double target = target(id, mode);
        String met = u == null || p == null ? "" : (u / p <= target ? " ✓" : " ✗");
        String bw = "";
        if (u != null && stream != null && c.memoryBound()) {
          bw = String.format(Locale.ROOT, "%.0f%%", c.minimumBytes() / (u * 1e-3) / 1e9 / stream * 100);
        }
        md.append("| ").append(id).append(" | ").append(mode)
            .append(" | ").append(cell("ufunc4j|1|" + id + "|" + mode))
            .append(" | ").append(cell("ufunc4j|2|" + id + "|" + mode))
            .append(" | ").append(cell("numpy|1|" + id + "|" + mode))
            .append(" | ").append(cell("torch|1|" + id + "|" + mode))
            .append(" | ").append(cell("torch|2|" + id + "|" + mode))
            .append(" | ").append(ratio)
            .append(" | ≤ ").append(target).append(met)
            .append(" | ").append(bw).append(" |\n");
      }
    }
    if (!peerErrors.isEmpty()) {
      md.append("\n¹ a peer could not run the case:\n\n");
      peerErrors.forEach((k, v) -> md.append("- ").append(k.replace('|', ' ')).append(": `").append(v).append("`\n"));
    }
    loopTable(md);
    tunedTable(md);
    md.append("\n![ratios](ratios.svg)\n");
    if (samples.keySet().stream().anyMatch(k -> k.startsWith("before|"))) {
      md.append("\n## Before and after (the `--baseline` build, same run)\n\n")
          .append("**after ÷ before** = this build's best median (1 or 2 threads) ÷ the baseline ")
          .append("build's best median; above 1 means this build is slower.\n\n")
          .append("| case | mode | before 1T | before 2T | after 1T | after 2T | after ÷ before |\n")
          .append("|---|---|---|---|---|---|---|\n");
      for (BenchCase c : cases) {
        for (String mode : MODES) {
          String id = c.id();
          Double before = min(med("before|1|" + id + "|" + mode), med("before|2|" + id + "|" + mode));
          Double after = ufunc4j(id, mode);
          if (before == null || after == null) {
            continue;
          }
          md.append("| ").append(id).append(" | ").append(mode)
              .append(" | ").append(cell("before|1|" + id + "|" + mode))
              .append(" | ").append(cell("before|2|" + id + "|" + mode))
              .append(" | ").append(cell("ufunc4j|1|" + id + "|" + mode))
              .append(" | ").append(cell("ufunc4j|2|" + id + "|" + mode))
              .append(String.format(Locale.ROOT, " | %.2f |%n", after / before));
        }
      }
    }
    return md.toString();
  }

  /** Systems of the loop table: key prefix and column title. */
  private List<String[]> loopSystems() {
    List<String[]> systems = new ArrayList<>();
    for (String key : samples.keySet()) {
      if (key.endsWith("|loop-p50")) {
        String[] parts = key.split("\\|");
        String sys = parts[0] + "|" + parts[1];
        if (systems.stream().noneMatch(x -> x[0].equals(sys))) {
          String name = switch (parts[0]) {
            case "numpy" -> "NumPy";
            case "torch" -> "PyTorch " + parts[1] + "T";
            default -> parts[0] + " " + parts[1] + "T";
          };
          systems.add(new String[] {sys, name});
        }
      }
    }
    systems.sort((x, y) -> Integer.compare(order(x[0]), order(y[0])));
    return systems;
  }

  private static int order(String sys) {
    return sys.startsWith("ufunc4j") ? 0 : sys.startsWith("numpy") ? 1 : 2;
  }

  /**
   * The naive-loop table: per-call median, 90th percentile and mean of each system with its
   * defaults, collections included; ratios of ufunc4j's to the best peer's.
   */
  private void loopTable(StringBuilder md) {
    List<String[]> systems = loopSystems();
    if (systems.isEmpty()) {
      return;
    }
    md.append("\n## Loop mode: what a naive user loop sees\n\n")
        .append("`c = a + b` called over and over with every default (thread counts; the JVM's ")
        .append("default collector for ufunc4j, no scope), each call timed on its own, each fresh ")
        .append("result escaping, collections included: per-call **median / 90th percentile / ")
        .append("mean**, medians over the rounds, the timer's own cost per call subtracted (shown ")
        .append("last). ufunc4j runs `LoopBench` (JMH sample mode); NumPy and PyTorch ")
        .append("`tools/bench/peers.py --loop`. **ratio** = ufunc4j ÷ the best peer, for the ")
        .append("median and for the mean.\n\n| case |");
    for (String[] sys : systems) {
      md.append(" ").append(sys[1]).append(" |");
    }
    md.append(" ratio (median) | ratio (mean) |\n|---|");
    md.append("---|".repeat(systems.size() + 2)).append("\n");
    for (String id : LoopBench.CASES) {
      if (systems.stream().noneMatch(sys -> med(sys[0] + "|" + id + "|loop-p50") != null)) {
        continue;
      }
      md.append("| ").append(id).append(" |");
      Double u50 = null;
      Double u = null;
      Double p50 = null;
      Double p = null;
      for (String[] sys : systems) {
        String k = sys[0] + "|" + id + "|loop-";
        Double m50 = med(k + "p50");
        Double m90 = med(k + "p90");
        Double mean = med(k + "mean");
        if (m50 == null) {
          md.append(" — |");
          continue;
        }
        md.append(" ").append(time(m50)).append(" / ").append(time(m90)).append(" / ")
            .append(time(mean)).append(" |");
        if (sys[0].startsWith("ufunc4j")) {
          u50 = m50;
          u = mean;
        } else {
          p50 = min(p50, m50);
          p = min(p, mean);
        }
      }
      md.append(u50 == null || p50 == null ? " — |" : String.format(Locale.ROOT, " %.2f |", u50 / p50));
      md.append(u == null || p == null ? " — |" : String.format(Locale.ROOT, " %.2f |", u / p));
      md.append("\n");
    }
    md.append("\nTimer cost per call subtracted above:");
    for (String[] sys : systems) {
      Double t = null;
      for (String id : LoopBench.CASES) {
        t = min(t, med(sys[0] + "|" + id + "|loop-timer"));
      }
      if (t != null) {
        md.append(" ").append(sys[1]).append(" ").append(time(t)).append(";");
      }
    }
    md.append("\n");
  }

  /** Horizontal bars of log2(ratio) per case and mode; the centre line is parity with the best peer. */
  String svg() {
    int rowH = 16;
    int labelW = 230;
    int plotW = 420;
    List<String[]> rows = new ArrayList<>();
    for (BenchCase c : cases) {
      for (String mode : MODES) {
        Double u = ufunc4j(c.id(), mode);
        Double p = bestPeer(c.id(), mode);
        if (u != null && p != null) {
          rows.add(new String[] {c.id() + " (" + mode + ")", Double.toString(u / p)});
        }
      }
    }
    int h = 40 + rowH * rows.size() + 30;
    int w = labelW + plotW + 60;
    double maxLog = 3; // bars are clipped at 8x either way
    double cx = labelW + plotW / 2.0;
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(String.format(Locale.ROOT,
        "<text x=\"10\" y=\"20\" font-size=\"13\">ufunc4j time ÷ best of NumPy/PyTorch (log scale; left of the line = ufunc4j faster)</text>\n"));
    for (int i = 0; i < rows.size(); i++) {
      double ratio = Double.parseDouble(rows.get(i)[1]);
      double lg = Math.max(-maxLog, Math.min(maxLog, Math.log(ratio) / Math.log(2)));
      double len = lg / maxLog * plotW / 2;
      int y = 40 + i * rowH;
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
          labelW - 6, y + 11, rows.get(i)[0]));
      s.append(String.format(Locale.ROOT,
          "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
          len < 0 ? cx + len : cx, y + 2, Math.abs(len), rowH - 4, ratio <= 1 ? "#2a9d8f" : "#e76f51"));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%.2f×</text>\n",
          Math.max(cx, cx + len) + 4, y + 11, ratio));
    }
    s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"32\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
        cx, cx, h - 25));
    for (int k = -3; k <= 3; k++) {
      double x = cx + k / maxLog * plotW / 2;
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
          x, h - 10, k < 0 ? "1/" + (1 << -k) : Integer.toString(1 << k)));
    }
    s.append("</svg>\n");
    return s.toString();
  }
}
