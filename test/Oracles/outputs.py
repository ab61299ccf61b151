"""Keeps a test's input files and clears what earlier runs wrote, so that
each configuration's results are checked, not a previous run's files.

  outputs.py mark DIR    records the files now under DIR as its inputs
  outputs.py clear DIR   removes every other file under DIR

Used through lit's %mark_inputs and %clear_outputs (test/lit.cfg.py) by the
tests that run several configurations of a program into one folder.
"""

import os
import sys

MANIFEST = ".inputs"


def files_under(directory):
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.relpath(os.path.join(root, name), directory)
            if path != MANIFEST:
                yield path


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("mark", "clear"):
        sys.exit(__doc__)
    action, directory = sys.argv[1:]
    manifest = os.path.join(directory, MANIFEST)
    if action == "mark":
        with open(manifest, "w") as out:
            out.write("\n".join(sorted(files_under(directory))) + "\n")
        return
    if not os.path.exists(manifest):
        sys.exit(f"outputs.py: {directory} has no inputs marked "
                 f"(run 'outputs.py mark {directory}' after writing them)")
    inputs = set(open(manifest).read().split("\n"))
    for path in list(files_under(directory)):
        if path not in inputs:
            os.remove(os.path.join(directory, path))


if __name__ == "__main__":
    main()
