#!/usr/bin/env python3
"""Builds and runs the README's quickstart as a new user would: from the README's own text.

The README marks each code block a user copies with an HTML comment on the line before it:

    <!-- readme-project: pom.xml -->                  the block is that file of the project
    <!-- readme-project: pom.xml </plugins> -->       the block goes into pom.xml, before its last
                                                      </plugins> (as the README tells the reader)
    <!-- readme-project: run -->                      the command to run in the project directory
    <!-- readme-project: output -->                   what the program prints

A block is the fenced (```) or indented code block that follows the marker. This script writes the
files into a new directory (a temporary one, or --dir), runs the command there exactly as written
(plus any --maven-arg, for a private local repository), prints its output, and fails unless the
program's output contains the README's output lines, in order, as consecutive lines.

Usage: tools/readme/quickstart.py [--readme README.md] [--dir DIR] [--maven-arg ARG]...
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- readme-project: (.+?) -->\s*$")


def blocks(readme_text):
    """Yields (target, block text) for every marked code block, in README order."""
    lines = readme_text.split("\n")
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        target = m.group(1).strip()
        i += 1
        if i < len(lines) and lines[i].startswith("```"):
            start = i + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if end == len(lines):
                sys.exit(f"README: the block after '<!-- readme-project: {target} -->' never closes")
            yield target, "\n".join(lines[start:end]) + "\n"
            i = end + 1
        elif i < len(lines) and lines[i].startswith("    "):
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            yield target, "\n".join(body) + "\n"
        else:
            sys.exit(f"README: no code block right after '<!-- readme-project: {target} -->'")


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--readme", default=os.path.join(here, "..", "..", "README.md"))
    parser.add_argument("--dir", help="write the project here (default: a new temporary directory)")
    parser.add_argument("--maven-arg", action="append", default=[],
                        help="appended to the README's mvn command (e.g. -Dmaven.repo.local=...)")
    args = parser.parse_args()

    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    files, inserts, run, expected = {}, [], None, None
    for target, block in blocks(text):
        if target == "run":
            run = block.strip()
        elif target == "output":
            expected = block.rstrip("\n").split("\n")
        elif " " in target:
            path, anchor = target.split(" ", 1)
            inserts.append((path, anchor, block))
        else:
            files[target] = block
    if run is None or expected is None or "pom.xml" not in files:
        sys.exit("README: needs marked blocks for pom.xml, run and output")

    for path, anchor, block in inserts:
        if path not in files:
            sys.exit(f"README: a block goes into {path}, but no block is {path} itself")
        files[path] = insert_before_last(files[path], anchor, block, path)

    project = args.dir or tempfile.mkdtemp(prefix="ufunc4j-readme-")
    for path, content in files.items():
        full = os.path.join(project, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(content)
    command = shlex.split(run) + args.maven_arg
    print(f"README project in {project}: {', '.join(sorted(files))}", flush=True)
    print("$ " + " ".join(command), flush=True)
    result = subprocess.run(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    print(result.stdout, flush=True)
    if result.returncode != 0:
        sys.exit(f"the README's run command failed (exit {result.returncode})")
    out = result.stdout.split("\n")
    n = len(expected)
    if not any(out[k:k + n] == expected for k in range(len(out) - n + 1)):
        sys.exit("the program did not print the README's output:\n" + "\n".join(expected))
    print("README quickstart: built from the README's blocks, printed the README's output")


if __name__ == "__main__":
    main()
