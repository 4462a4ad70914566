#!/usr/bin/env python3
"""Builds, tests and runs the README's quickstart as a new user would, from the README's own text,
and compiles every other Java block of the README (running the ones that print).

The README marks each code block a user copies with an HTML comment on the line before it:

    <!-- readme-project: pom.xml -->                  the block is that file of the project
    <!-- readme-project: pom.xml </plugins> -->       the block goes into pom.xml, before its last
                                                      </plugins> (as the README tells the reader)
    <!-- readme-project: run -->                      the command to run in the project directory
    <!-- readme-project: output -->                   what the program prints

and every other ```java block with how to check it:

    <!-- readme-check: main -->                       statements: compiled as a method body (with
                                                      the imports of SNIPPET_IMPORTS and the
                                                      block's own import lines); when it prints,
                                                      run, and its output must be the expected one
    <!-- readme-check: main; given: DECLARATIONS -->  the same, after DECLARATIONS (the variables
                                                      the README's text introduced before)
    <!-- readme-check: into Losses.java -->           members added to the class Losses, as the
                                                      README says ("added to Losses")
    <!-- readme-check: into Losses.java; fails -->    the same, in a copy that must fail to compile
                                                      with the error of the next fenced block
    <!-- readme-check: main; with spark -->        compiled with ufunc4j-spark and Spark
    <!-- readme-check: main; with arrow -->        compiled with ufunc4j-arrow
    <!-- readme-check: output -->                     (before a fenced block) the output of the
                                                      previous main block

A main block's expected output is the README's output block after it, or else the trailing
comments of its System.out.println lines (a println's `// text` and the comment-only lines under
it, each one line of output). A ```java block without a marker fails the check: every Java block
of the README is compiled.

Checks, in order (each prints its command and wall time):
1. the project made of the readme-project blocks, with the README's run command: it must print
   the README's output and run the README's test (Surefire reports it);
2. in that project, a bare `mvn exec:exec` (no phase): it must print the same;
3. a copy with a test that fails on purpose: `mvn test` must fail, naming the test;
4. a copy with every readme-check block (unless --skip-snippets): `mvn test` compiles them all and
   runs the printing ones (as JUnit tests, with the README pom's Surefire flags), whose output must
   be what the README says; each `fails` block in its own copy must fail with its README error.

Usage: tools/readme/quickstart.py [--readme README.md] [--dir DIR] [--maven-arg ARG]...
                                  [--skip-snippets]
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"^<!-- readme-project: (.+?) -->\s*$")
CHECK = re.compile(r"^<!-- readme-check: (.+?) -->\s*$")
SNIPPET_IMPORTS = [
    "com.example.quickstart.*", "dev.ufunc4j.*", "dev.ufunc4j.dtype.*", "java.nio.file.*",
    "java.util.*",
]
SPARK_IMPORTS = ["dev.ufunc4j.spark.*", "org.apache.spark.sql.*"]
ARROW_IMPORTS = ["dev.ufunc4j.arrow.*"]
# The README's DuckDB example gets a query result as a C stream through DuckDB's JDBC driver,
# which hands it over as arrow-java's classes (arrow-c-data, with arrow-memory-unsafe).
ARROW_DEPENDENCIES = """
  <dependency>
    <groupId>dev.ufunc4j</groupId>
    <artifactId>ufunc4j-arrow</artifactId>
    <version>0.1.0-SNAPSHOT</version>
    <scope>test</scope>
  </dependency>
  <dependency>
    <groupId>org.duckdb</groupId>
    <artifactId>duckdb_jdbc</artifactId>
    <version>1.5.6.0</version>
    <scope>test</scope>
  </dependency>
  <dependency>
    <groupId>org.apache.arrow</groupId>
    <artifactId>arrow-c-data</artifactId>
    <version>19.0.0</version>
    <scope>test</scope>
  </dependency>
  <dependency>
    <groupId>org.apache.arrow</groupId>
    <artifactId>arrow-memory-unsafe</artifactId>
    <version>19.0.0</version>
    <scope>test</scope>
  </dependency>
"""
# arrow-java's memory layer reads a private field of java.nio's buffers: its documented flag.
ARROW_JVM_FLAG = "--add-opens=java.base/java.nio=ALL-UNNAMED"
SPARK_DEPENDENCIES = """
  <dependency>
    <groupId>dev.ufunc4j</groupId>
    <artifactId>ufunc4j-spark</artifactId>
    <version>0.1.0-SNAPSHOT</version>
    <scope>test</scope>
  </dependency>
  <dependency>
    <groupId>org.apache.spark</groupId>
    <artifactId>spark-sql_2.13</artifactId>
    <version>4.2.0</version>
    <scope>test</scope>
  </dependency>
"""


def fenced(lines, i):
    """The fenced block opening at line i: (language, text, index after it)."""
    lang = lines[i][3:].strip()
    end = i + 1
    while end < len(lines) and not lines[end].startswith("```"):
        end += 1
    if end == len(lines):
        sys.exit(f"README: the block at line {i + 1} never closes")
    return lang, "\n".join(lines[i + 1:end]) + "\n", end + 1


def blocks(readme_text):
    """Yields (kind, target, block text, language, line) for every marked block and every unmarked
    java block (kind 'unmarked'), in README order."""
    lines = readme_text.split("\n")
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i]) or CHECK.match(lines[i])
        if not m:
            if lines[i].startswith("```"):
                lang, text, after = fenced(lines, i)
                if lang == "java":
                    yield "unmarked", None, text, lang, i + 1
                i = after
            else:
                i += 1
            continue
        kind = "project" if MARKER.match(lines[i]) else "check"
        target = m.group(1).strip()
        i += 1
        start = i + 1  # the block's first line, 1-based, for messages
        if i < len(lines) and lines[i].startswith("```"):
            lang, text, i = fenced(lines, i)
            yield kind, target, text, lang, start
        elif i < len(lines) and lines[i].startswith("    "):
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            yield kind, target, "\n".join(body) + "\n", "", start
        else:
            sys.exit(f"README: no code block right after the marker '{target}' (line {i})")


def insert_before_last(text, anchor, block, path):
    at = text.rfind(anchor)
    if at < 0:
        sys.exit(f"README: {path} has no '{anchor}' to put the marked block before")
    line_start = text.rfind("\n", 0, at) + 1
    indent = text[line_start:at]
    if indent.strip():
        indent = ""
    # The block is indented one level (two spaces) deeper than the anchor's line.
    inner = indent + "  "
    added = "".join(inner + l + "\n" if l.strip() else "\n" for l in block.rstrip("\n").split("\n"))
    return text[:line_start] + added + text[line_start:]


def write_project(project, files):
    for path, content in files.items():
        full = os.path.join(project, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(content)


def run(command, cwd, what):
    """Runs command in cwd, prints it, its output and its wall time; returns (exit code, output)."""
    print(f"$ (cd {cwd} && {' '.join(command)})", flush=True)
    start = time.monotonic()
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    took = time.monotonic() - start
    print(result.stdout, flush=True)
    print(f"timeline: {what}: {took:.0f} s (exit {result.returncode})", flush=True)
    return result.returncode, result.stdout


def contains_lines(output, expected):
    out = output.split("\n")
    n = len(expected)
    return any(out[k:k + n] == expected for k in range(len(out) - n + 1))


def comment_output(java):
    """The output a block's println comments promise: each println's trailing `// text` and the
    comment-only lines right under it, aligned by the comment's column."""
    expected = []
    lines = java.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.search(r"System\.out\.println\(.*\);\s*//( ?)(.*)$", line)
        i += 1
        if not m:
            continue
        column = m.start(2)
        expected.append(m.group(2).rstrip())
        while i < len(lines) and re.match(r"^\s*//", lines[i]) and lines[i].index("//") + 2 <= column:
            expected.append(lines[i][column:].rstrip() if len(lines[i]) > column else "")
            i += 1
    return expected


class Snippet:
    def __init__(self, number, line, options, java):
        self.number, self.line, self.java = number, line, java
        self.options = options  # e.g. {"main": "", "given": "...", "spark": ""}
        self.expected = None

    @property
    def name(self):
        return f"Snippet{self.number}"

    def source(self):
        imports = [l for l in self.java.split("\n") if l.startswith("import ")]
        body = [l for l in self.java.split("\n") if not l.startswith("import ")]
        names = (SNIPPET_IMPORTS + (SPARK_IMPORTS if "with spark" in self.options else [])
                 + (ARROW_IMPORTS if "with arrow" in self.options else []))
        head = "".join(f"import {n};\n" for n in names) + "\n".join(imports)
        given = self.options.get("given", "")
        code = "\n".join("    " + l for l in body)
        return (f"package readme;\n\n{head}\n\n"
                f"/** README.md line {self.line}. */\n"
                f"final class {self.name} {{\n"
                f"  @SuppressWarnings(\"unused\")\n"
                f"  static void run() throws Exception {{\n"
                f"    {given}\n{code}\n  }}\n}}\n")

    def prints(self):
        return "System.out.print" in self.java


def parse_options(target):
    options = {}
    target, _, given = target.partition("given:")  # the declarations hold semicolons of their own
    if given:
        options["given"] = given.strip()
    for part in target.split(";"):
        if not part.strip():
            continue
        part = part.strip()
        key, _, value = part.partition(":")
        options[key.strip()] = value.strip()
    return options


def snippet_test(snippets):
    """A JUnit class running each printing snippet with System.out captured into
    target/readme-snippets/<name>.out."""
    methods = []
    for s in snippets:
        if s.prints():
            methods.append(f"""
  @Test
  void {s.name.lower()}() throws Exception {{
    capture("{s.name}", {s.name}::run);
  }}""")
    return ("package readme;\n\n"
            "import java.io.ByteArrayOutputStream;\n"
            "import java.io.PrintStream;\n"
            "import java.nio.charset.StandardCharsets;\n"
            "import java.nio.file.Files;\n"
            "import java.nio.file.Path;\n"
            "import org.junit.jupiter.api.Test;\n\n"
            "class ReadmeSnippetsTest {\n"
            "  interface Body { void run() throws Exception; }\n\n"
            "  static void capture(String name, Body body) throws Exception {\n"
            "    ByteArrayOutputStream bytes = new ByteArrayOutputStream();\n"
            "    PrintStream old = System.out;\n"
            "    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));\n"
            "    try {\n"
            "      body.run();\n"
            "    } finally {\n"
            "      System.setOut(old);\n"
            "    }\n"
            "    Path out = Path.of(\"target/readme-snippets\", name + \".out\");\n"
            "    Files.createDirectories(out.getParent());\n"
            "    Files.write(out, bytes.toByteArray());\n"
            "  }\n"
            + "".join(methods) + "\n}\n")


def add_members(losses, members):
    """Losses.java with members added above its first method's javadoc (the README adds them
    "above huber"), and an import of the annotations they name that Losses does not import yet
    (Identity, ...), after the last import so that the line numbers of the members stay the
    README's."""
    imported = set(re.findall(r"^import dev\.ufunc4j\.annotation\.(\w+);", losses, re.M))
    named = set(re.findall(r"\bIdentity|\bPromote|\bDerivative|\bRule", members))
    missing = sorted(named - imported)
    at = losses.index("  /**")
    text = losses[:at] + members.rstrip("\n") + "\n\n" + losses[at:]
    if missing:
        last = text.rindex("import dev.ufunc4j.annotation.")
        end = text.index("\n", last) + 1
        text = text[:end] + "".join(f"import dev.ufunc4j.annotation.{n};\n" for n in missing) + text[end:]
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--readme", default=os.path.join(here, "..", "..", "README.md"))
    parser.add_argument("--dir", help="write the project here (default: a new temporary directory)")
    parser.add_argument("--maven-arg", action="append", default=[],
                        help="appended to every mvn command (e.g. -Dmaven.repo.local=...)")
    parser.add_argument("--skip-snippets", action="store_true",
                        help="only the quickstart project (checks 1 to 3)")
    parser.add_argument("--only-snippets", action="store_true",
                        help="only the README's other Java blocks (check 4; it needs ufunc4j-spark"
                             " installed too)")
    args = parser.parse_args()

    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    files, inserts, run_command, expected = {}, [], None, None
    snippets, members, failing, unmarked = [], [], [], []
    previous_main = None
    for kind, target, block, lang, line in blocks(text):
        if kind == "unmarked":
            unmarked.append(line)
        elif kind == "project":
            if target == "run":
                run_command = block.strip()
            elif target == "output":
                expected = block.rstrip("\n").split("\n")
            elif " " in target:
                path, anchor = target.split(" ", 1)
                inserts.append((path, anchor, block))
            else:
                files[target] = block
        elif target == "output":
            if previous_main is None:
                sys.exit(f"README line {line}: an output block with no main block before it")
            previous_main.expected = block.rstrip("\n").split("\n")
        elif target == "error":
            if not failing or failing[-1][2] is not None:
                sys.exit(f"README line {line}: an error block with no failing block before it")
            failing[-1][2] = block.strip().split("\n")[0]
        else:
            options = parse_options(target)
            if "into Losses.java" in options:
                if "fails" in options:
                    failing.append([line, block, None])
                else:
                    members.append(block)
            elif "main" in options:
                previous_main = Snippet(len(snippets) + 1, line, options, block)
                snippets.append(previous_main)
            else:
                sys.exit(f"README line {line}: unknown readme-check '{target}'")
    if unmarked:
        sys.exit("README: java blocks without a readme-project or readme-check marker (every Java"
                 f" block is compiled) at lines {unmarked}")
    if run_command is None or expected is None or "pom.xml" not in files:
        sys.exit("README: needs marked blocks for pom.xml, run and output")
    for path, anchor, block in inserts:
        if path not in files:
            sys.exit(f"README: a block goes into {path}, but no block is {path} itself")
        files[path] = insert_before_last(files[path], anchor, block, path)

    project = args.dir or tempfile.mkdtemp(prefix="ufunc4j-readme-")
    write_project(project, files)
    print(f"README project in {project}: {', '.join(sorted(files))}", flush=True)
    mvn_args = args.maven_arg

    if not args.only_snippets:
        check_project(project, files, run_command, expected, mvn_args)
    if args.skip_snippets:
        return
    check_snippets(project, files, snippets, members, failing, mvn_args)


def check_project(project, files, run_command, expected, mvn_args):
    """Checks 1 to 3: the README's run command, a bare exec:exec, a failing test."""
    # 1. The README's run command: builds, runs the README's test, prints the README's output.
    code, out = run(shlex.split(run_command) + mvn_args, project, "README run command")
    if code != 0:
        sys.exit(f"the README's run command failed (exit {code})")
    if not contains_lines(out, expected):
        sys.exit("the program did not print the README's output:\n" + "\n".join(expected))
    tests = [p for p in files if p.startswith("src/test/java/")]
    for t in tests:
        name = os.path.basename(t)[:-len(".java")]
        if not re.search(r"Tests run: [1-9]\d*, Failures: 0, Errors: 0, Skipped: 0, .* in [\w.]*"
                         + name, out):
            sys.exit(f"the README's test {name} did not run (no Surefire line for it)")
    print(f"README quickstart: built from the README's blocks, ran {len(tests)} test class(es),"
          " printed the README's output", flush=True)

    # 2. A bare exec:exec (no phase before it) must run on JDK 25 too.
    code, out = run(["mvn", "-B", "-ntp", "exec:exec"] + mvn_args, project, "bare mvn exec:exec")
    if code != 0 or not contains_lines(out, expected):
        sys.exit("a bare `mvn exec:exec` did not print the README's output")

    # 3. Tests run: a copy with a test that fails on purpose fails the build.
    broken = project + "-failing-test"
    shutil.rmtree(broken, ignore_errors=True)
    shutil.copytree(project, broken, ignore=shutil.ignore_patterns("target"))
    test_dir = os.path.join(broken, "src/test/java/com/example/quickstart")
    os.makedirs(test_dir, exist_ok=True)
    with open(os.path.join(test_dir, "FailsOnPurposeTest.java"), "w", encoding="utf-8") as f:
        f.write("package com.example.quickstart;\n\n"
                "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
                "import org.junit.jupiter.api.Test;\n\n"
                "class FailsOnPurposeTest {\n"
                "  @Test\n"
                "  void failsOnPurpose() {\n"
                "    assertEquals(1, 2, \"fails on purpose\");\n"
                "  }\n"
                "}\n")
    code, out = run(["mvn", "-B", "-ntp", "test"] + mvn_args, broken, "failing-test copy")
    if code == 0 or "FailsOnPurposeTest" not in out:
        sys.exit("a test that fails on purpose did not fail the README project's build: its tests"
                 " do not run")
    print("README pom: a failing test fails the build", flush=True)


def check_snippets(project, files, snippets, members, failing, mvn_args):
    """Check 4: every other Java block compiles; the printing ones print what the README says;
    the failing ones fail with the README's error."""
    # 4. Every other Java block: compiled, and the printing ones run.
    checked = project + "-snippets"
    shutil.rmtree(checked, ignore_errors=True)
    snippet_files = dict(files)
    for m in members:
        snippet_files["src/main/java/com/example/quickstart/Losses.java"] = add_members(
            snippet_files["src/main/java/com/example/quickstart/Losses.java"], m)
    if any("with spark" in s.options for s in snippets):
        pom = snippet_files["pom.xml"]
        # The project's own dependencies: the first list (the `tune` profile has one after it).
        at = pom.index("</dependencies>")
        snippet_files["pom.xml"] = pom[:at] + SPARK_DEPENDENCIES.lstrip("\n") + pom[at:]
    if any("with arrow" in s.options for s in snippets):
        pom = snippet_files["pom.xml"]
        at = pom.index("</dependencies>")
        pom = pom[:at] + ARROW_DEPENDENCIES.lstrip("\n") + pom[at:]
        native = "--enable-native-access=ALL-UNNAMED"
        if native not in pom:
            sys.exit("the README pom's Surefire argLine has no " + native)
        snippet_files["pom.xml"] = pom.replace(native, native + " " + ARROW_JVM_FLAG)
    for s in snippets:
        snippet_files[f"src/test/java/readme/{s.name}.java"] = s.source()
        if s.expected is None and s.prints():
            s.expected = comment_output(s.java)
    snippet_files["src/test/java/readme/ReadmeSnippetsTest.java"] = snippet_test(snippets)
    write_project(checked, snippet_files)
    code, out = run(["mvn", "-B", "-ntp", "test"] + mvn_args, checked,
                    f"{len(snippets)} README blocks and {len(members)} added members")
    if code != 0:
        sys.exit("the README's Java blocks do not all compile and run (see above)")
    for s in snippets:
        if not s.prints():
            continue
        with open(os.path.join(checked, "target/readme-snippets", s.name + ".out"),
                  encoding="utf-8") as f:
            got = f.read().rstrip("\n").split("\n")
        if got != s.expected:
            sys.exit(f"README line {s.line}: the block printed\n" + "\n".join(got)
                     + "\nbut the README says\n" + "\n".join(s.expected))
    for line, block, error in failing:
        if error is None:
            sys.exit(f"README line {line}: a failing block needs its error block after it")
        copy = project + f"-fails-{line}"
        shutil.rmtree(copy, ignore_errors=True)
        copy_files = dict(files)
        losses = "src/main/java/com/example/quickstart/Losses.java"
        copy_files[losses] = add_members(copy_files[losses], block)
        write_project(copy, copy_files)
        code, out = run(["mvn", "-B", "-ntp", "compile"] + mvn_args, copy,
                        f"README block at line {line}, which must not compile")
        where = re.match(r"^(\S+?):(\d+): error: (.*)$", error)
        if not where:
            sys.exit(f"README line {line}: the error block's first line is not javac's form")
        path, number, message = where.groups()
        if code == 0 or not re.search(re.escape(os.path.basename(path)) + r":\[" + number
                                      + r",\d+\] error: " + re.escape(message), out):
            sys.exit(f"README line {line}: the build did not fail with the README's error:\n"
                     + error)
    print(f"README blocks: {len(snippets)} compiled ({sum(s.prints() for s in snippets)} run, output"
          f" as the README says), {len(members)} added to Losses, {len(failing)} refused as the"
          " README says", flush=True)


if __name__ == "__main__":
    main()
