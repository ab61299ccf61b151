#!/usr/bin/env python3
"""A generated straight-line AMLS program, for timing the optimizer.

generate(ops) returns the text of a func.func @main with about `ops` amls
operations (exactly `ops` unless the last pattern needs more): element-wise
ops, scalar scaling, products, transposes and aggregates of the inputs and of
earlier results, with the shapes that the optimizer's rewrites look for
mixed in (t(X) %*% X, t(t(X)), sum(X %*% Y), trace(X %*% Y), (A %*% B) %*% v,
t(X) %*% (X %*% v)). Every value that no later op uses is returned, so the
whole program is live and what the optimizer removes it removes by rewriting.
The sizes are static (n x n, n x 1), so the size-dependent rewrites apply.

count_amls_ops(text) counts the amls operations in printed IR.

Usage: gen_program.py [--ops 1000] [--n 64] [--seed 1] > program.mlir
"""

import argparse
import random
import re


class _Builder:
    """The function body under construction, with values grouped by kind."""

    def __init__(self, n, seed):
        self.rng = random.Random(seed)
        self.types = {"S": f"!amls.matrix<{n}x{n}xf64>",
                      "V": f"!amls.matrix<{n}x1xf64>",
                      "R": f"!amls.matrix<1x{n}xf64>",
                      "f": "f64"}
        self.values = {"S": [], "V": [], "f": []}
        self.kind = {}
        self.used = set()
        self.lines = []
        self.ops = 0
        self.args = []
        for i in range(4):
            self.args.append(self._input(f"%A{i}", "S", f"A{i}"))
        for i in range(2):
            self.args.append(self._input(f"%v{i}", "V", f"v{i}"))

    def _input(self, name, kind, label):
        self.values[kind].append(name)
        self.kind[name] = kind
        return f"{name}: {self.types[kind]} {{amls.name = \"{label}\"}}"

    def pick(self, kind):
        """An operand: mostly a recent value, sometimes any earlier one."""
        pool = self.values[kind]
        if self.rng.random() < 0.7:
            value = self.rng.choice(pool[-12:])
        else:
            value = self.rng.choice(pool)
        self.used.add(value)
        return value

    def emit(self, kind, text, keep=True):
        """Appends `%x = text` (text ends with the result type)."""
        name = f"%t{self.ops}"
        self.ops += 1
        self.lines.append(f"  {name} = {text}")
        self.kind[name] = kind
        if keep:
            self.values[kind].append(name)
        return name


def _step(b):
    """Emits one randomly chosen op or small pattern."""
    S, V, R, f = (b.types[k] for k in "SVRf")
    rng = b.rng
    choice = rng.choices(
        ["ew", "ewv", "scale", "unary", "matmul", "matvec", "transpose",
         "ttranspose", "gram", "sumprod", "traceprod", "chain", "mmchain",
         "sumall", "rowsums", "colsums"],
        weights=[14, 6, 6, 5, 6, 6, 5, 3, 3, 3, 3, 3, 3, 5, 4, 3])[0]
    if choice == "ew":
        op = rng.choice(["add", "sub", "mul", "max", "min"])
        x, y = b.pick("S"), b.pick("S")
        b.emit("S", f"amls.{op} {x}, {y} : {S}, {S} -> {S}")
    elif choice == "ewv":
        op = rng.choice(["add", "sub", "mul"])
        x, y = b.pick("V"), b.pick("V")
        b.emit("V", f"amls.{op} {x}, {y} : {V}, {V} -> {V}")
    elif choice == "scale":
        s, x = b.pick("f"), b.pick("S")
        b.emit("S", f"amls.mul {s}, {x} : {f}, {S} -> {S}")
    elif choice == "unary":
        op = rng.choice(["neg", "abs", "sqrt", "exp"])
        x = b.pick("S")
        b.emit("S", f"amls.{op} {x} : {S} -> {S}")
    elif choice == "matmul":
        x, y = b.pick("S"), b.pick("S")
        b.emit("S", f"amls.matmul {x}, {y} : {S}, {S} -> {S}")
    elif choice == "matvec":
        x, v = b.pick("S"), b.pick("V")
        b.emit("V", f"amls.matmul {x}, {v} : {S}, {V} -> {V}")
    elif choice == "transpose":
        x = b.pick("S")
        b.emit("S", f"amls.transpose {x} : {S} -> {S}")
    elif choice == "ttranspose":
        x = b.pick("S")
        t = b.emit("S", f"amls.transpose {x} : {S} -> {S}", keep=False)
        b.used.add(t)
        b.emit("S", f"amls.transpose {t} : {S} -> {S}")
    elif choice == "gram":
        x = b.pick("S")
        t = b.emit("S", f"amls.transpose {x} : {S} -> {S}", keep=False)
        b.used.add(t)
        b.emit("S", f"amls.matmul {t}, {x} : {S}, {S} -> {S}")
    elif choice in ("sumprod", "traceprod"):
        x, y = b.pick("S"), b.pick("S")
        p = b.emit("S", f"amls.matmul {x}, {y} : {S}, {S} -> {S}", keep=False)
        b.used.add(p)
        if choice == "sumprod":
            b.emit("f", f"amls.agg sum all {p} : {S} -> {f}")
        else:
            b.emit("f", f"amls.trace {p} : {S} -> {f}")
    elif choice == "chain":
        x, y, v = b.pick("S"), b.pick("S"), b.pick("V")
        p = b.emit("S", f"amls.matmul {x}, {y} : {S}, {S} -> {S}", keep=False)
        b.used.add(p)
        b.emit("V", f"amls.matmul {p}, {v} : {S}, {V} -> {V}")
    elif choice == "mmchain":
        x, v = b.pick("S"), b.pick("V")
        xv = b.emit("V", f"amls.matmul {x}, {v} : {S}, {V} -> {V}",
                    keep=False)
        t = b.emit("S", f"amls.transpose {x} : {S} -> {S}", keep=False)
        b.used.update((xv, t))
        b.emit("V", f"amls.matmul {t}, {xv} : {S}, {V} -> {V}")
    elif choice == "sumall":
        x = b.pick("S")
        b.emit("f", f"amls.agg sum all {x} : {S} -> {f}")
    elif choice == "rowsums":
        x = b.pick("S")
        b.emit("V", f"amls.agg sum row {x} : {S} -> {V}")
    else:
        x = b.pick("S")
        c = b.emit("R", f"amls.agg sum col {x} : {S} -> {R}", keep=False)
        b.used.add(c)
        b.emit("V", f"amls.transpose {c} : {R} -> {V}")


def generate(ops=1000, n=64, seed=1):
    """The text of a straight-line program with about `ops` amls ops."""
    b = _Builder(n, seed)
    # Scalars to scale with before the first aggregate of the loop below.
    b.emit("f", f"amls.agg sum all %A0 : {b.types['S']} -> f64")
    b.used.add("%A0")
    while b.ops < ops:
        _step(b)
    leaves = [name for name in b.kind
              if name not in b.used and not name.startswith(("%A", "%v"))]
    types = [b.types[b.kind[name]] for name in leaves]
    header = ("func.func @main(" + ",\n                ".join(b.args) +
              ")\n    -> (" + ", ".join(types) + ") {")
    body = "\n".join(b.lines)
    ret = f"  return {', '.join(leaves)} : {', '.join(types)}"
    return f"{header}\n{body}\n{ret}\n}}\n"


_OP = re.compile(r'^\s*(?:%[\w#:]+(?:\s*,\s*%[\w#:]+)*\s*=\s*)?"?amls\.\w+',
                 re.MULTILINE)


def count_amls_ops(text):
    """The number of amls operations in printed IR (one op per line)."""
    return len(_OP.findall(text))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", type=int, default=1000)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    print(generate(options.ops, options.n, options.seed), end="")


if __name__ == "__main__":
    main()
