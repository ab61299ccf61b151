#!/usr/bin/env python3
"""How many of SystemDS's DML files AMLS imports (issue 18's coverage target).

Runs `amls-translate --import-dml` on every .dml file under a SystemDS
checkout's scripts/ and src/test/scripts/ (the builtin library, the
algorithms and the test scripts) and reports the share that imports, with
the first error of the others grouped by message, so that the features
stopping the most files show first. Nothing of SystemDS is copied: the
files are read where they are.

The files run from the checkout's root, as SystemDS's tests do (its
scripts source others by paths relative to it).

Command-line arguments (`$X`, `$1`) are bound as SystemDS's test harness
would bind them: to a file path where the script reads or writes with
them (directly or through a variable holding one, or builds a string with
them), to "text" where they name a format ("csv" in scripts that read
frames), to "," and "STRING" where they name a separator or a frame's
schema, to ifdef()'s default where it
is a string, to the number 1 otherwise.

Excluded, as the issue says: federated scripts (a path containing
"federated") and the test templates whose `$$name$$` placeholders the Java
tests substitute before running them.

Usage:
  scripts/dml-coverage.py --systemds DIR [--amls-translate PATH]
                          [--jobs N] [--top N] [--list-failures FILE]

DIR is a SystemDS checkout (or any tree with its scripts/ and
src/test/scripts/). A file that imports still may not run: this measures
the front end (parsing, name resolution, builtins, types), not execution.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

ROOTS = ("scripts", os.path.join("src", "test", "scripts"))
LOCATION = re.compile(r"^[^:]*\.dml:\d+:\d+: error: ")


def dml_files(systemds):
    """(included, excluded) paths of the .dml files under ROOTS."""
    included, excluded = [], []
    for root in ROOTS:
        top = os.path.join(systemds, root)
        for directory, _, names in os.walk(top):
            for name in sorted(names):
                if not name.endswith(".dml"):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, systemds)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if "federated" in relative.lower() or "$$" in text:
                    excluded.append(relative)
                else:
                    included.append(relative)
    return sorted(included), sorted(excluded)


ARGUMENT = re.compile(r"\$(\w+)")
PATH_USE = [
    re.compile(r"\b(?:read|write|source)\s*\([^)]*?\$(\w+)"),
    re.compile(r"\$(\w+)\s*\+\s*\""),
    re.compile(r"\"\s*\+\s*\$(\w+)"),
]
# `name = $arg` and `name = ifdef($arg, default)`: the variables that hold
# an argument, to follow them into read/write and format=.
HOLDER = re.compile(r"(\w+)\s*=\s*(?:ifdef\s*\(\s*)?\$(\w+)")
FILE_OF = [
    re.compile(r"\b(?:read)\s*\(\s*(\w+)\s*[,)]"),
    re.compile(r"\bwrite\s*\([^,()]*(?:\([^()]*\)[^,()]*)*,\s*(\w+)\s*[,)]"),
]
FORMAT_ARG = re.compile(r"\bformat\s*=\s*\$(\w+)")
FORMAT_VAR = re.compile(r"\bformat\s*=\s*(\w+)")
SEP_ARG = re.compile(r"\bsep\s*=\s*\$(\w+)")
SCHEMA_ARG = re.compile(r"\bschema\s*=\s*\$(\w+)")
FRAME_READ = re.compile(r"data_type\s*=\s*[\"']frame[\"']")
STRING_DEFAULT = re.compile(r"ifdef\s*\(\s*\$(\w+)\s*,\s*[\"']([^\"']*)[\"']")


def argument_bindings(text):
    """--dml-arg NAME=VALUE for every $NAME in the script.

    As SystemDS's test harness would bind them: a file path where the
    script reads or writes with the argument (directly or through a
    variable that holds it) or builds a string with it, "text" where it is
    a format ("csv" in a script that reads frames: SystemDS's frame and
    transform tests run on CSV), "," where it is a separator, "STRING"
    where it is a frame's schema, the default where ifdef() gives a string
    one, else 1."""
    paths = {m for pattern in PATH_USE for m in pattern.findall(text)}
    formats = set(FORMAT_ARG.findall(text))
    holders = collections.defaultdict(set)
    for variable, argument in HOLDER.findall(text):
        holders[variable].add(argument)
    for pattern in FILE_OF:
        for variable in pattern.findall(text):
            paths |= holders.get(variable, set())
    for variable in FORMAT_VAR.findall(text):
        formats |= holders.get(variable, set())
    defaults = dict(STRING_DEFAULT.findall(text))
    separators = set(SEP_ARG.findall(text))
    schemas = set(SCHEMA_ARG.findall(text))
    format_value = "csv" if FRAME_READ.search(text) else "text"
    bindings = []
    for name in sorted(set(ARGUMENT.findall(text))):
        if name in formats:
            value = format_value
        elif name in separators:
            value = ","
        elif name in schemas:
            value = "STRING"
        elif name in paths:
            value = f"/tmp/amls-dml-coverage/{name}"
        elif name in defaults:
            value = defaults[name]
        else:
            value = "1"
        bindings += ["--dml-arg", f"{name}={value}"]
    return bindings


def import_file(translate, systemds, relative, timeout):
    """(relative, None) when the file imports, else (relative, message)."""
    path = os.path.join(systemds, relative)
    with open(path, encoding="utf-8", errors="replace") as f:
        bindings = argument_bindings(f.read())
    try:
        done = subprocess.run(
            [translate, "--import-dml", path] + bindings,
            cwd=systemds, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True,
            errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return relative, f"timed out after {timeout} s"
    if done.returncode == 0:
        return relative, None
    if done.returncode < 0:
        return relative, f"killed by signal {-done.returncode}"
    for line in done.stderr.splitlines():
        if " error: " in line:
            return relative, LOCATION.sub("", line).strip()
    first = done.stderr.strip().splitlines()
    return relative, first[0] if first else f"exit status {done.returncode}"


def category(message):
    """The message with names and numbers blanked, to group alike errors."""
    generic = re.sub(r"'[^']*'", "'…'", message)
    generic = re.sub(r'"[^"]*"', '"…"', generic)
    return re.sub(r"\b\d+\b", "N", generic)


FRAME_SUITES = ("src/test/scripts/functions/transform",
                "src/test/scripts/functions/frame")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--systemds", required=True,
                        help="a SystemDS checkout")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--amls-translate",
                        default=os.path.join(here, "build", "bin",
                                             "amls-translate"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--top", type=int, default=25,
                        help="error groups and names to list")
    parser.add_argument("--list-failures",
                        help="write 'file<TAB>first error' lines here")
    options = parser.parse_args()
    if not os.path.isdir(os.path.join(options.systemds, "scripts")):
        sys.exit(f"dml-coverage: {options.systemds} has no scripts/ "
                 "directory: expected a SystemDS checkout")
    # The files import from the checkout's root: a relative path to
    # amls-translate would not resolve there.
    options.amls_translate = os.path.abspath(options.amls_translate)
    if not os.access(options.amls_translate, os.X_OK):
        sys.exit(f"dml-coverage: {options.amls_translate} is not an "
                 "executable: build AMLS first or pass --amls-translate")

    included, excluded = dml_files(options.systemds)
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        results = list(pool.map(
            lambda f: import_file(options.amls_translate, options.systemds,
                                  f, options.timeout), included))
    failures = [(f, m) for f, m in results if m is not None]
    imported = len(included) - len(failures)
    share = 100.0 * imported / max(len(included), 1)
    print(f"{len(included)} DML files ({len(excluded)} federated or "
          f"$$-template files excluded): {imported} import ({share:.1f}%)")

    by_root = collections.Counter()
    failed_by_root = collections.Counter()
    for f, m in results:
        root = "scripts/builtin" if f.startswith("scripts/builtin") else \
            f.split(os.sep)[0] if not f.startswith("src") else \
            "src/test/scripts"
        by_root[root] += 1
        failed_by_root[root] += m is not None
    for root in sorted(by_root):
        ok = by_root[root] - failed_by_root[root]
        print(f"  {root}: {ok} of {by_root[root]} "
              f"({100.0 * ok / by_root[root]:.1f}%)")

    # Issue 46's share: the tests of frames and of feature transformation.
    for suite in FRAME_SUITES:
        files = [(f, m) for f, m in results
                 if f.startswith(suite + os.sep)]
        ok = sum(m is None for _, m in files)
        print(f"  {suite}: {ok} of {len(files)} "
              f"({100.0 * ok / max(len(files), 1):.1f}%)")

    groups = collections.Counter(category(m) for _, m in failures)
    print(f"\nFirst errors, grouped ({len(groups)} groups):")
    for message, count in groups.most_common(options.top):
        print(f"  {count:5d}  {message}")
    names = collections.Counter()
    for _, m in failures:
        match = re.match(r"unknown function '([^']*)'", m)
        if match:
            names[match.group(1)] += 1
    if names:
        print("\nUnknown functions, by files stopped:")
        print("  " + ", ".join(f"{n} {c}" for n, c in
                               names.most_common(options.top)))
    if options.list_failures:
        with open(options.list_failures, "w") as out:
            for f, m in failures:
                out.write(f"{f}\t{m}\n")


if __name__ == "__main__":
    main()
