#!/usr/bin/env python3
"""The runtime module's size after a build: generated source files and lines, kernel classes
among them, the jar's bytes and class files. docs/architecture.md's size table ("Why a box") is
this script's output; rerun it after a change to the generated code and let it rewrite the table.

Reads runtime/target (build it first: mvn -B -ntp -o -pl runtime -am package -DskipTests).

Usage: tools/size/runtime_size.py            print the figures
       tools/size/runtime_size.py --write    also rewrite the "now" column of docs/architecture.md
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TARGET = os.path.join(ROOT, "runtime", "target")
DOC = os.path.join(ROOT, "docs", "architecture.md")
# A kernel class: the classes the processor names <Declaring>_<op>_w<lanes> (one per op and vector
# width; the same pattern keeps them out of javadoc's input in the root pom).
KERNEL = re.compile(r"_w\d+\.java$")


def measure():
    sources = glob.glob(os.path.join(TARGET, "generated-sources", "annotations", "**", "*.java"),
                        recursive=True)
    if not sources:
        sys.exit("no generated sources under runtime/target: build the runtime first")
    lines = 0
    for path in sources:
        with open(path, "rb") as f:
            lines += f.read().count(b"\n")
    jars = [j for j in glob.glob(os.path.join(TARGET, "ufunc4j-runtime-*.jar"))
            if not re.search(r"-(tests|sources|javadoc)\.jar$", j)]
    if len(jars) != 1:
        sys.exit("expected one runtime jar in runtime/target, found %s: run package" % jars)
    with zipfile.ZipFile(jars[0]) as z:
        classes = sum(1 for n in z.namelist() if n.endswith(".class"))
    return [
        ("generated source files", len(sources)),
        ("kernel classes among them", sum(1 for p in sources if KERNEL.search(p))),
        ("generated source lines", lines),
        ("`ufunc4j-runtime` jar", "%s bytes" % format(os.path.getsize(jars[0]), ",")),
        ("class files in the jar", classes),
    ]


def cell(value):
    return format(value, ",") if isinstance(value, int) else value


def write(rows):
    """Rewrites the last column of the table whose rows are named as in measure()."""
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    header = re.compile(r"^(\| runtime module \| before \(main `06290c7`\) \| )now \([^|]*\|$",
                        re.M)
    if not header.search(text):
        sys.exit("the size table's header was not found in docs/architecture.md")
    text = header.sub(lambda m: m.group(1) + "now (`tools/size/runtime_size.py`, at `%s`) |"
                      % commit, text)
    for name, value in rows:
        row = re.compile(r"^(\| %s \| [^|]* \| )[^|]* \|$" % re.escape(name), re.M)
        if not row.search(text):
            sys.exit("row %r not found in docs/architecture.md's size table" % name)
        text = row.sub(lambda m: m.group(1) + cell(value) + " |", text)
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true",
                        help="rewrite the table's last column in docs/architecture.md")
    args = parser.parse_args()
    rows = measure()
    for name, value in rows:
        print("%-28s %s" % (name, cell(value)))
    if args.write:
        write(rows)


if __name__ == "__main__":
    main()
