#!/usr/bin/env python3
"""Measures what ufunc4j ops cost a user's project: clean build time, generated files and lines,
class files, and the cold start of the first op (time to first result in a fresh JVM).

Two projects, each with and without @Elementwise(dtypes = "float32") on every op:
  quickstart  the README's quickstart, written from the README's marked blocks (one op, huber)
  eight-ops   the same pom with eight ops of one's own (below), huber called first
Rounds interleave the four builds; each build is followed by --runs cold starts. Prints a
Markdown table of medians with [min-max]. Needs the ufunc4j artifacts installed in the local
repository (or --repo) and runs Maven offline.

Cold starts interleave this runtime, an older runtime jar (--before-runtime, optional) and this
runtime with a JDK 25 AOT cache (-XX:AOTCacheOutput, made by one training run of the probe).

Usage: tools/buildcost/measure.py [--rounds 3] [--runs 5] [--repo ~/.m2/repository] [--keep DIR]
                                  [--before-runtime OLD.jar]
"""
import argparse
import resource
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "readme"))
import quickstart  # noqa: E402  (the README's blocks)

JAVA = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"

EIGHT_OPS = """package com.example.quickstart;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Facade;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.annotation.Scalar;

/** Eight ops a user might write: losses, activations, a three-operand lerp. */
@Facade("MoreOps")
public final class More {
  private More() {}

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double silu(double x) { return x / (1 + Math.exp(-x)); }

  @Elementwise
  public static double softplus(double x) { return x > 20 ? x : Math.log1p(Math.exp(x)); }

  @Elementwise
  public static double gelu(double x) {
    final double inner = 0.7978845608028654 * (x + 0.044715 * x * x * x);
    return 0.5 * x * (1 + Math.tanh(inner));
  }

  @Elementwise
  public static double lerp(double a, double b, double w) { return a + w * (b - a); }

  @Elementwise
  public static double squaredError(double p, double t) { return (p - t) * (p - t); }

  @Elementwise
  public static double logLoss(double z, double y) { return Math.log1p(Math.exp(-y * z)); }

  @Elementwise
  public static double clip(double x, @Scalar double lo, @Scalar double hi) {
    return Math.min(Math.max(x, lo), hi);
  }
}
"""

# The probe: the README's Main, timed. Uptime (ms since the JVM started) at the first result is
# the cold start; the phases are measured with nanoTime inside main.
PROBE = """package com.example.quickstart;

import dev.ufunc4j.Tensor;

public final class Probe {
  public static void main(String[] args) {
    long t0 = System.nanoTime();
    Tensor predictions = Tensor.of(new int[] {0, 1, 4}, 3, 1);
    Tensor targets = Tensor.of(new float[] {0.5f, 1f, 2f, 3.5f}, 4);
    long t1 = System.nanoTime();
    Tensor loss = LossOps.huber(predictions, targets, 1.0);
    double first = loss.getDouble(0, 0);
    long t2 = System.nanoTime();
    Tensor again = LossOps.huber(predictions, targets, 1.0);
    double second = again.getDouble(0, 0);
    long t3 = System.nanoTime();
    long uptime = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    System.out.println("probe main_to_first_ms=" + (t2 - t0) / 1e6 + " tensors_ms=" + (t1 - t0) / 1e6
        + " first_op_ms=" + (t2 - t1) / 1e6 + " second_op_ms=" + (t3 - t2) / 1e6
        + " uptime_ms=" + uptime + " check=" + (first + second));
  }
}
"""


def write_project(root, eight, restricted):
    with open(quickstart.__file__.replace("quickstart.py", "../../README.md"), encoding="utf-8") as f:
        text = f.read()
    files, inserts = {}, []
    for kind, target, block, _, _ in quickstart.blocks(text):
        if kind != "project" or target in ("run", "output"):
            continue  # the README's other blocks are checked by quickstart.py itself
        if " " in target:
            path, anchor = target.split(" ", 1)
            inserts.append((path, anchor, block))
        else:
            files[target] = block
    for path, anchor, block in inserts:
        files[path] = quickstart.insert_before_last(files[path], anchor, block, path)
    src = "src/main/java/com/example/quickstart/"
    files[src + "Probe.java"] = PROBE
    if eight:
        files[src + "More.java"] = EIGHT_OPS
    if restricted:
        for path in list(files):
            if path.endswith(".java"):
                files[path] = re.sub(r"@Elementwise\(promote = ", '@Elementwise(dtypes = "float32", promote = ',
                                     files[path])
                files[path] = re.sub(r"@Elementwise\n", '@Elementwise(dtypes = "float32")\n', files[path])
    for path, content in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(content)


def mvn(project, repo, *goals, offline=True):
    cmd = ["mvn", "-B", "-ntp", "-q", f"-Dmaven.repo.local={repo}"] + (["-o"] if offline else []) + list(goals)
    return subprocess.run(cmd, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure_build(project, repo):
    start = time.monotonic()
    cpu = children_cpu()
    # The README project's test (LossesTest) is not part of what an op costs the build.
    r = mvn(project, repo, "clean", "package", "-Dmaven.test.skip=true")
    elapsed = time.monotonic() - start
    cpu = children_cpu() - cpu
    if r.returncode != 0:
        sys.exit(f"build of {project} failed:\n{r.stdout}")
    gen = glob.glob(os.path.join(project, "target/generated-sources/annotations/**/*.java"), recursive=True)
    lines = sum(sum(1 for _ in open(p, encoding="utf-8")) for p in gen)
    classes = glob.glob(os.path.join(project, "target/classes/**/*.class"), recursive=True)
    size = sum(os.path.getsize(p) for p in classes)
    return elapsed, len(gen), lines, len(classes), size, cpu


def classpath(project, repo, runtime_jar=None):
    """The project's jar and its dependencies (jars only, as the JDK's AOT cache requires)."""
    out = os.path.join(project, "cp.txt")
    if not os.path.exists(out):
        # Not offline: the dependency plugin may not be in the local repository yet.
        r = mvn(project, repo, "dependency:build-classpath", f"-Dmdep.outputFile={out}", offline=False)
        if r.returncode != 0:
            sys.exit(r.stdout)
    with open(out) as f:
        deps = f.read().strip().split(":")
    if runtime_jar:
        deps = [runtime_jar if "ufunc4j-runtime" in d else d for d in deps]
    jar = glob.glob(os.path.join(project, "target/*.jar"))[0]
    return ":".join([jar] + deps)


def cold_start(project, repo, runtime_jar=None, aot=None):
    """One fresh JVM running the probe; with aot, using (and first creating) that AOT cache."""
    flags = ["--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"]
    cp = classpath(project, repo, runtime_jar)
    if aot:
        if not os.path.exists(aot):
            # The training run: JDK 25's one-step AOT cache (JEP 514), classes loaded and linked.
            subprocess.run([JAVA] + flags + [f"-XX:AOTCacheOutput={aot}", "-cp", cp,
                            "com.example.quickstart.Probe"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, check=True)
        flags.append(f"-XX:AOTCache={aot}")
    cmd = [JAVA] + flags + ["-cp", cp, "com.example.quickstart.Probe"]
    start = time.monotonic()
    cpu = children_cpu()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = (time.monotonic() - start) * 1000
    cpu = (children_cpu() - cpu) * 1000
    m = dict(re.findall(r"(\w+)=([\d.]+)", r.stdout))
    if "uptime_ms" not in m:
        sys.exit(f"probe failed:\n{r.stdout}")
    return {"wall_ms": wall, "cpu_ms": cpu, **{k: float(v) for k, v in m.items()}}


def fmt(values, digits=0):
    med = statistics.median(values)
    f = f"{{:,.{digits}f}}"
    return f"{f.format(med)} [{f.format(min(values))}–{f.format(max(values))}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repo", default=os.path.expanduser("~/.m2/repository"))
    ap.add_argument("--keep", help="write the projects here instead of a temporary directory")
    ap.add_argument("--before-runtime", help="an older ufunc4j-runtime jar: its cold starts too")
    args = ap.parse_args()
    root = args.keep or tempfile.mkdtemp(prefix="ufunc4j-buildcost-")
    configs = [(name, eight, restricted) for name, eight in (("quickstart", False), ("eight-ops", True))
               for restricted in (False, True)]
    for name, eight, restricted in configs:
        write_project(os.path.join(root, f"{name}-{'f32' if restricted else 'all'}"), eight, restricted)
    builds = {c: [] for c in configs}
    starts = {c: [] for c in configs}
    before = {c: [] for c in configs}
    aot = {c: [] for c in configs}
    for rnd in range(args.rounds):
        for c in configs:
            project = os.path.join(root, f"{c[0]}-{'f32' if c[2] else 'all'}")
            builds[c].append(measure_build(project, args.repo))
            cache = os.path.join(project, "target", "app.aot")
            for _ in range(args.runs):
                # Interleaved: this runtime, the older one, this one with an AOT cache.
                starts[c].append(cold_start(project, args.repo))
                if args.before_runtime and not c[2]:  # (an older runtime lacks dtypes())
                    before[c].append(cold_start(project, args.repo, args.before_runtime))
                aot[c].append(cold_start(project, args.repo, aot=cache))
            print(f"round {rnd + 1} {c[0]} {'float32' if c[2] else 'all dtypes'}: build "
                  f"{builds[c][-1][0]:.1f} s, first result at {starts[c][-1]['uptime_ms']:.0f} ms",
                  file=sys.stderr, flush=True)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"load average at the end: {' '.join(load)}; {args.rounds} builds and "
          f"{args.rounds * args.runs} cold starts per row, medians [min–max]\n")
    print("| project | dtypes | clean build (s) | build CPU (s) | generated files | generated lines |"
          " class files | classes (KB) | JVM start to first result (ms) | first op call (ms) |"
          " second call (ms) | whole run (ms) | whole run CPU (ms) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in configs:
        b, s = builds[c], starts[c]
        print(f"| {c[0]} | {'float32' if c[2] else 'all'} | {fmt([x[0] for x in b], 1)} |"
              f" {fmt([x[5] for x in b], 1)} | {b[-1][1]} |"
              f" {b[-1][2]:,} | {b[-1][3]} | {b[-1][4] // 1024:,} |"
              f" {fmt([x['uptime_ms'] for x in s])} | {fmt([x['first_op_ms'] for x in s], 1)} |"
              f" {fmt([x['second_op_ms'] for x in s], 2)} | {fmt([x['wall_ms'] for x in s])} |"
              f" {fmt([x['cpu_ms'] for x in s])} |")
    print("\nCold start, time from JVM start to the first result (ms), medians [min–max]:\n")
    print("| project | dtypes |" + (" older runtime |" if args.before_runtime else "")
          + " this runtime | this runtime, AOT cache |")
    print("|---|---|" + ("---|" if args.before_runtime else "") + "---|---|")
    for c in configs:
        cells = [fmt([x["uptime_ms"] for x in before[c]]) if before[c] else "–"] if args.before_runtime else []
        cells += [fmt([x["uptime_ms"] for x in starts[c]]), fmt([x["uptime_ms"] for x in aot[c]])]
        print(f"| {c[0]} | {'float32' if c[2] else 'all'} | " + " | ".join(cells) + " |")
    print("\nCold start, CPU time of the whole JVM run (ms; less sensitive to other load):\n")
    print("| project | dtypes |" + (" older runtime |" if args.before_runtime else "")
          + " this runtime | this runtime, AOT cache |")
    print("|---|---|" + ("---|" if args.before_runtime else "") + "---|---|")
    for c in configs:
        cells = [fmt([x["cpu_ms"] for x in before[c]]) if before[c] else "–"] if args.before_runtime else []
        cells += [fmt([x["cpu_ms"] for x in starts[c]]), fmt([x["cpu_ms"] for x in aot[c]])]
        print(f"| {c[0]} | {'float32' if c[2] else 'all'} | " + " | ".join(cells) + " |")
    print("\nFirst op call alone (ms):\n")
    print("| project | dtypes |" + (" older runtime |" if args.before_runtime else "")
          + " this runtime | this runtime, AOT cache |")
    print("|---|---|" + ("---|" if args.before_runtime else "") + "---|---|")
    for c in configs:
        cells = [fmt([x["first_op_ms"] for x in before[c]], 1) if before[c] else "–"] if args.before_runtime else []
        cells += [fmt([x["first_op_ms"] for x in starts[c]], 1),
                  fmt([x["first_op_ms"] for x in aot[c]], 1)]
        print(f"| {c[0]} | {'float32' if c[2] else 'all'} | " + " | ".join(cells) + " |")
    print(f"\nprojects in {root}")


if __name__ == "__main__":
    main()
