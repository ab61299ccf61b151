"""python3 -m amls SCRIPT.dml [--arg NAME=value ...]: runs a DML script as
amls-run does, through the package (no amls-run needed)."""

import argparse
import sys

from . import CompileError, RunError, Session, __version__


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m amls",
        description="Run a DML script with AMLS: --arg NAME=value (or "
                    "--input NAME=path) binds $NAME, as amls-run's do.")
    parser.add_argument("script", help="the DML script")
    parser.add_argument("--arg", "--input", action="append", default=[],
                        metavar="NAME=value", dest="args",
                        help="bind $NAME to value (may be repeated)")
    parser.add_argument("--threads", type=int, default=2,
                        help="threads of parallel loops and BLAS (default 2)")
    parser.add_argument("--stats", action="store_true",
                        help="print the session's statistics on stderr")
    parser.add_argument("--explain", choices=["dot"],
                        help="print the optimized plan as a Graphviz graph "
                             "instead of running the script")
    parser.add_argument("--version", action="version",
                        version=f"amls {__version__}")
    options = parser.parse_args(argv)

    bindings = {}
    for binding in options.args:
        name, equals, value = binding.partition("=")
        if not equals or not name:
            parser.error(f"--arg expects NAME=value, found '{binding}'")
        if name in bindings:
            parser.error(f"argument '${name}' is bound twice")
        bindings[name] = value
    try:
        with open(options.script, encoding="utf-8") as file:
            source = file.read()
    except OSError as error:
        print(f"error: cannot read '{options.script}': {error.strerror}",
              file=sys.stderr)
        return 1

    session = Session(threads=options.threads)
    script = session.compile_dml(source, outputs=[], name=options.script)
    try:
        if options.explain:
            sys.stdout.write(script.explain("dot", **bindings))
        else:
            script(**bindings)
    except (CompileError, RunError) as error:
        sys.stdout.flush()
        print(error, file=sys.stderr)
        return 1
    finally:
        sys.stdout.flush()
    if options.stats:
        for key, value in session.stats().items():
            print(f"{key}: {value}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
