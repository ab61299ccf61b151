"""Random DML programs as DAGs over AMLS's op families, with a NumPy
evaluation of the same DAG (the oracle) under DML's documented semantics
(docs/dml.md, "Numbers"): the idea of Csmith and NNSmith, for AMLS.

A program is a list of nodes in topological order. A node is an input
matrix (read from a CSV file), a constant scalar, or an op over earlier
nodes with a known result shape. Besides the expression ops, a node may be
a statement whose value DML computes with control flow: a for or while
loop that updates a matrix (`loop`), an if/else on an aggregate of the
data (`branch`), a parfor that writes a result column by column
(`parfor`), a left-indexing write into a copy (`assign`), or a
data-dependent op whose shape the data decides (`removeEmpty`, which with
`empty.return=FALSE` makes the 0-row and 0-column matrices that later ops
take). `to_dml` prints the script, `evaluate` computes every node with
NumPy, `random_program` builds one from a seed.
"""

import math
import random
from dataclasses import dataclass, field

import numpy as np

# Sparsities of generated inputs (fractions of non-zeros) and values that
# stress IEEE semantics.
SPARSITIES = [0.0, 1e-4, 0.05, 0.4, 0.8, 1.0]
SPECIAL_VALUES = [math.nan, math.inf, -math.inf, -0.0]


@dataclass
class Node:
    kind: str            # "input", "scalar" or an op name of OPS
    args: list = field(default_factory=list)   # operand node indices
    shape: tuple = ()    # (rows, cols); () for a scalar
    value: object = None  # inputs: the matrix; scalars: the number
    extra: dict = field(default_factory=dict)  # op parameters (slices)


def _round(x):
    # DML's round: floor(x + 0.5), round(NaN) = 0 (docs/dml.md).
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(x), 0.0, np.floor(x + 0.5))


def _cmp(f):
    def apply(a, b):
        with np.errstate(invalid="ignore"):
            return f(a, b).astype(np.float64)
    return apply


# Element-wise binary ops: DML spelling, NumPy semantics.
BINARY = {
    "+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide,
    "^": np.power, "min": np.minimum, "max": np.maximum,
    ">": _cmp(np.greater), "<": _cmp(np.less), "==": _cmp(np.equal),
    "!=": _cmp(np.not_equal),
}
UNARY = {
    "abs": np.abs, "sqrt": np.sqrt, "exp": np.exp, "round": _round,
    "sign": np.sign, "neg": np.negative,
    "cumsum": lambda x: np.cumsum(x, axis=0), "rev": lambda x: x[::-1].copy(),
}
# Updates a loop may apply (no *: its factors would need to be finite).
LOOP_OPS = ["+", "-", "min", "max"]
# Aggregates: DML name -> (NumPy reduction, axis, result shape kind).
AGGREGATES = {
    "sum": (np.sum, None), "min": (np.min, None), "max": (np.max, None),
    "mean": (np.mean, None), "rowSums": (np.sum, 1), "colSums": (np.sum, 0),
    "rowMaxs": (np.max, 1), "colMins": (np.min, 0), "rowMeans": (np.mean, 1),
}


def random_matrix(rng, rows, cols, sparsity, special):
    values = rng.uniform(-2.0, 2.0, size=(rows, cols))
    values = np.where(rng.random((rows, cols)) < sparsity, values, 0.0)
    if special and rows * cols > 0:
        for _ in range(rng.integers(1, 3)):
            i, j = rng.integers(rows), rng.integers(cols)
            values[i, j] = SPECIAL_VALUES[rng.integers(len(SPECIAL_VALUES))]
    return values


class Builder:
    """Adds random nodes of the right shapes to a program."""

    def __init__(self, seed, ieee_sparse=False):
        self.ieee_sparse = ieee_sparse
        self.py = random.Random(seed)
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        # A few dimensions shared by the inputs, so that shapes meet.
        dims = [self.py.choice([1, 2, 3, 5, 8, 13, 40, 101]) for _ in range(3)]
        self.dims = sorted(set(dims + [1]))

    def add(self, node):
        self.nodes.append(node)
        return len(self.nodes) - 1

    def new_input(self, shape=None, finite=False):
        rows, cols = shape or (self.py.choice(self.dims),
                               self.py.choice(self.dims))
        if rows == 0 or cols == 0:
            # A CSV file holds no 0-row matrix: the empty matrix is the
            # removeEmpty of zeros with empty.return=FALSE.
            zeros = self.add(Node("input", [], (max(rows, 1), max(cols, 1)),
                                  np.zeros((max(rows, 1), max(cols, 1)))))
            if rows == 0:
                zeros = self.add(Node("removeEmpty", [zeros], (0, max(cols, 1)),
                                      extra={"margin": "rows",
                                             "empty_return": False}))
            if cols == 0:
                zeros = self.add(Node("removeEmpty", [zeros], (rows, 0),
                                      extra={"margin": "cols",
                                             "empty_return": False}))
            return zeros
        special = not finite and self.py.random() < 0.3
        sparsity = self.py.choice(SPARSITIES)
        value = random_matrix(self.rng, rows, cols, sparsity, special)
        return self.add(Node("input", [], (rows, cols), value))

    def new_scalar(self):
        value = self.py.choice([0.0, 1.0, -1.0, 2.5, 0.5, -3.0, 1e-3])
        return self.add(Node("scalar", [], (), value))

    def matrices(self, pred=lambda s: True, finite=False):
        values = evaluate(self.nodes) if finite else None
        return [i for i, n in enumerate(self.nodes)
                if n.shape and pred(n.shape) and
                (not finite or np.isfinite(values[i]).all())]

    def pick_matrix(self, pred=lambda s: True, shape=None, finite=False):
        candidates = self.matrices(pred, finite)
        if candidates and self.py.random() < 0.8:
            return self.py.choice(candidates)
        return self.new_input(shape, finite)

    def grow(self):
        """Adds one op node (and the inputs it needs)."""
        choice = self.py.choice(["binary", "binary", "binary", "unary",
                                 "aggregate", "matmul", "transpose",
                                 "bind", "slice", "ifelse", "loop", "branch",
                                 "parfor", "assign", "removeEmpty"])
        if choice in ("ifelse", "removeEmpty") or choice in STATEMENTS:
            return getattr(self, "grow_" + choice)()
        if choice == "binary":
            op = self.py.choice(list(BINARY))
            # X * Y over a CSR X keeps X's pattern: an implicit zero times
            # NaN or Inf stays 0 (as SciPy and SystemDS), where dense IEEE
            # gives NaN (docs/testing.md, "Random programs"); unless asked
            # to, the factors of * are finite.
            finite = op == "*" and not self.ieee_sparse
            a = self.pick_matrix(finite=finite)
            rows, cols = self.nodes[a].shape
            form = self.py.choice(["same", "same", "scalar", "scalar-left",
                                   "row", "col"])
            if form == "scalar":
                b = self.new_scalar()
                return self.add(Node(op, [a, b], (rows, cols)))
            if form == "scalar-left":
                b = self.new_scalar()
                return self.add(Node(op, [b, a], (rows, cols)))
            if form == "row":
                b = self.pick_matrix(lambda s: s == (1, cols), (1, cols),
                                     finite)
            elif form == "col":
                b = self.pick_matrix(lambda s: s == (rows, 1), (rows, 1),
                                     finite)
            else:
                b = self.pick_matrix(lambda s: s == (rows, cols), (rows, cols),
                                     finite)
            return self.add(Node(op, [a, b], (rows, cols)))
        if choice == "unary":
            a = self.pick_matrix()
            return self.add(Node(self.py.choice(list(UNARY)), [a],
                                 self.nodes[a].shape))
        if choice == "aggregate":
            a = self.pick_matrix(lambda s: s[0] * s[1] > 0)
            name = self.py.choice(list(AGGREGATES))
            rows, cols = self.nodes[a].shape
            axis = AGGREGATES[name][1]
            shape = {None: (), 1: (rows, 1), 0: (1, cols)}[axis]
            return self.add(Node(name, [a], shape))
        if choice == "matmul":
            # Likewise for products over CSR (0 x Inf = 0).
            finite = not self.ieee_sparse
            a = self.pick_matrix(finite=finite)
            rows, inner = self.nodes[a].shape
            cols = self.py.choice(self.dims)
            b = self.pick_matrix(lambda s: s[0] == inner, (inner, cols),
                                 finite)
            return self.add(Node("%*%", [a, b],
                                 (rows, self.nodes[b].shape[1])))
        if choice == "transpose":
            a = self.pick_matrix()
            rows, cols = self.nodes[a].shape
            return self.add(Node("t", [a], (cols, rows)))
        if choice == "bind":
            a = self.pick_matrix()
            rows, cols = self.nodes[a].shape
            if self.py.random() < 0.5:
                b = self.pick_matrix(lambda s: s[0] == rows,
                                     (rows, self.py.choice(self.dims)))
                return self.add(Node("cbind", [a, b],
                                     (rows, cols + self.nodes[b].shape[1])))
            b = self.pick_matrix(lambda s: s[1] == cols,
                                 (self.py.choice(self.dims), cols))
            return self.add(Node("rbind", [a, b],
                                 (rows + self.nodes[b].shape[0], cols)))
        # slice: a non-empty block of rows and columns (1-based, inclusive).
        a = self.pick_matrix(lambda s: s[0] * s[1] > 0)
        rows, cols = self.nodes[a].shape
        r0 = self.py.randint(1, rows)
        r1 = self.py.randint(r0, rows)
        c0 = self.py.randint(1, cols)
        c1 = self.py.randint(c0, cols)
        return self.add(Node("slice", [a], (r1 - r0 + 1, c1 - c0 + 1),
                             extra={"rows": (r0, r1), "cols": (c0, c1)}))


    def grow_ifelse(self):
        c = self.pick_matrix()
        shape = self.nodes[c].shape
        a = self.pick_matrix(lambda s: s == shape, shape)
        b = self.pick_matrix(lambda s: s == shape, shape)
        return self.add(Node("ifelse", [c, a, b], shape))

    def grow_loop(self):
        """for (it in 1:n) or while (it <= n): X = X op (S * it)."""
        x = self.pick_matrix()
        shape = self.nodes[x].shape
        step = (self.new_scalar() if self.py.random() < 0.4 else
                self.pick_matrix(lambda s: s == shape, shape))
        form = self.py.choice(["for", "while"])
        # `for (it in 1:0)` would count down (1, 0), as in R; while may
        # not run at all.
        count = self.py.randint(1 if form == "for" else 0, 4)
        return self.add(Node("loop", [x, step], shape,
                             extra={"op": self.py.choice(LOOP_OPS),
                                    "form": form, "count": count}))

    def grow_branch(self):
        """if (agg(C) > t) X + Y else X - Y, t away from agg(C) so that the
        order of a sum cannot decide the branch."""
        c = self.pick_matrix(nonempty)
        shape = self.pick_shape()
        a = self.pick_matrix(lambda s: s == shape, shape)
        b = self.pick_matrix(lambda s: s == shape, shape)
        agg = self.py.choice(["sum", "mean", "max"])
        with np.errstate(all="ignore"):
            value = float(_apply(Node(agg, [c]), [evaluate(self.nodes)[c]]))
        if math.isfinite(value):
            threshold = value + self.py.choice([-1, 1]) * 0.25 * max(
                1.0, abs(value))
        else:
            threshold = self.py.choice([-1.0, 0.0, 1.0])
        return self.add(Node("branch", [c, a, b], shape,
                             extra={"agg": agg, "threshold": threshold}))

    def grow_parfor(self):
        """parfor over the columns (rows) of A: each iteration writes
        f(A[, j]) + j into its column (row) of a zero matrix, or sum(A[, j])
        into its cell of a column vector."""
        a = self.pick_matrix(nonempty)
        rows, cols = self.nodes[a].shape
        by = self.py.choice(["cols", "rows"])
        body = self.py.choice(["abs", "exp", "neg", "round", "sum"])
        n = cols if by == "cols" else rows
        if body == "sum":
            shape = (n, 1)
        else:
            shape = (rows, cols)
        return self.add(Node("parfor", [a], shape,
                             extra={"by": by, "body": body}))

    def grow_assign(self):
        """Y = X; Y[r0:r1, c0:c1] = B (or a number): X must keep its cells."""
        x = self.pick_matrix(nonempty)
        rows, cols = self.nodes[x].shape
        r0 = self.py.randint(1, rows)
        r1 = self.py.randint(r0, rows)
        c0 = self.py.randint(1, cols)
        c1 = self.py.randint(c0, cols)
        block = (r1 - r0 + 1, c1 - c0 + 1)
        if block == (1, 1) and self.py.random() < 0.5:
            b = self.new_scalar()
        else:
            b = self.pick_matrix(lambda s: s == block, block)
        return self.add(Node("assign", [x, b], (rows, cols),
                             extra={"rows": (r0, r1), "cols": (c0, c1)}))

    def grow_removeEmpty(self):
        x = self.pick_matrix()
        margin = self.py.choice(["rows", "cols"])
        empty_return = self.py.random() < 0.7
        node = Node("removeEmpty", [x], (), extra={
            "margin": margin, "empty_return": empty_return})
        with np.errstate(all="ignore"):
            node.shape = _apply(node, [evaluate(self.nodes)[x]]).shape
        return self.add(node)

    def pick_shape(self):
        candidates = self.matrices()
        if candidates and self.py.random() < 0.8:
            return self.nodes[self.py.choice(candidates)].shape
        return (self.py.choice(self.dims), self.py.choice(self.dims))


# Node kinds whose DML is more than one expression (_statement_dml).
STATEMENTS = ["loop", "branch", "parfor", "assign"]


def nonempty(shape):
    return shape[0] * shape[1] > 0


def random_program(seed, size=None, ieee_sparse=False):
    """A program of `size` ops (4 to 12 when None) from `seed`; with
    `ieee_sparse`, NaN and infinities may meet the implicit zeros of CSR
    operands of * and %*%."""
    py = random.Random(seed)
    builder = Builder(seed, ieee_sparse)
    for _ in range(size or py.randint(4, 12)):
        builder.grow()
    nodes = builder.nodes
    used = {a for n in nodes for a in n.args}
    outputs = [i for i, n in enumerate(nodes)
               if n.kind not in ("input", "scalar") and i not in used]
    return nodes, outputs


def evaluate(nodes):
    """Every node's value (NumPy, DML semantics)."""
    values = []
    for node in nodes:
        args = [values[a] for a in node.args]
        with np.errstate(all="ignore"):
            values.append(_apply(node, args))
    return values


def _apply(node, args):
    kind = node.kind
    if kind in ("input", "scalar"):
        return node.value
    if kind in BINARY and len(args) == 2:
        a, b = (np.asarray(x, dtype=np.float64) for x in args)
        return np.broadcast_to(BINARY[kind](a, b), node.shape).copy()
    if kind in UNARY:
        return UNARY[kind](args[0])
    if kind in AGGREGATES:
        reduce, axis = AGGREGATES[kind]
        if axis is None:
            return float(reduce(args[0]))
        return reduce(args[0], axis=axis, keepdims=True)
    if kind == "%*%":
        return args[0] @ args[1]
    if kind == "t":
        return args[0].T.copy()
    if kind == "cbind":
        return np.hstack(args)
    if kind == "rbind":
        return np.vstack(args)
    if kind == "slice":
        (r0, r1), (c0, c1) = node.extra["rows"], node.extra["cols"]
        return args[0][r0 - 1:r1, c0 - 1:c1].copy()
    if kind == "ifelse":
        c, a, b = args
        return np.where(c > 0, a, b)
    if kind == "loop":
        x, step = args
        op, count = BINARY[node.extra["op"]], node.extra["count"]
        x = np.array(x, dtype=np.float64)
        for it in range(1, count + 1):
            x = np.broadcast_to(op(x, np.multiply(step, it)), node.shape)
        return np.array(x)
    if kind == "branch":
        c, a, b = args
        agg = _apply(Node(node.extra["agg"], [0]), [c])
        return a + b if agg > node.extra["threshold"] else a - b
    if kind == "parfor":
        a = args[0] if node.extra["by"] == "cols" else args[0].T
        body = node.extra["body"]
        index = np.arange(1, a.shape[1] + 1, dtype=np.float64)
        if body == "sum":
            return a.sum(axis=0).reshape(-1, 1)
        result = UNARY[body](a) + index
        return result if node.extra["by"] == "cols" else result.T.copy()
    if kind == "assign":
        x, b = args
        (r0, r1), (c0, c1) = node.extra["rows"], node.extra["cols"]
        y = np.array(x, dtype=np.float64)
        y[r0 - 1:r1, c0 - 1:c1] = b
        return y
    if kind == "removeEmpty":
        x = args[0]
        rows = node.extra["margin"] == "rows"
        keep = (x != 0).any(axis=1 if rows else 0)
        y = x[keep, :] if rows else x[:, keep]
        if y.size == 0 and node.extra["empty_return"]:
            # empty.return=TRUE: one row (column) of zeros, as SystemDS.
            return np.zeros((1, x.shape[1]) if rows else (x.shape[0], 1))
        return y.copy()
    raise ValueError(f"no evaluation for {kind}")


def to_dml(nodes, outputs):
    """The DML script: inputs read from $Xi, outputs written to $Ri (CSV;
    scalars as 1x1 matrices) and their shapes to $Di."""
    lines = []
    name = lambda i: f"v{i}"
    for i, node in enumerate(nodes):
        args = [name(a) for a in node.args]
        kind = node.kind
        if kind == "input":
            expr = f"read($X{i})"
        elif kind == "scalar":
            expr = repr(float(node.value))
        elif kind in AGGREGATES and len(args) == 1:
            expr = f"{kind}({args[0]})"
        elif kind in ("min", "max"):
            expr = f"{kind}({args[0]}, {args[1]})"
        elif kind in BINARY:
            expr = f"({args[0]} {kind} {args[1]})"
        elif kind == "neg":
            expr = f"(-{args[0]})"
        elif kind in UNARY:
            expr = f"{kind}({args[0]})"
        elif kind == "%*%":
            expr = f"({args[0]} %*% {args[1]})"
        elif kind == "t":
            expr = f"t({args[0]})"
        elif kind in ("cbind", "rbind"):
            expr = f"{kind}({args[0]}, {args[1]})"
        elif kind == "slice":
            (r0, r1), (c0, c1) = node.extra["rows"], node.extra["cols"]
            expr = f"{args[0]}[{r0}:{r1}, {c0}:{c1}]"
        elif kind == "ifelse":
            expr = f"ifelse({args[0]} > 0, {args[1]}, {args[2]})"
        elif kind == "cumsum":
            expr = f"cumsum({args[0]})"
        elif kind == "rev":
            expr = f"rev({args[0]})"
        elif kind == "removeEmpty":
            flag = "TRUE" if node.extra["empty_return"] else "FALSE"
            expr = (f'removeEmpty(target={args[0]}, '
                    f'margin="{node.extra["margin"]}", empty.return={flag})')
        elif kind in STATEMENTS:
            lines.extend(_statement_dml(name(i), node, args))
            continue
        else:
            raise ValueError(kind)
        lines.append(f"{name(i)} = {expr}")
    for k, i in enumerate(outputs):
        value = name(i) if nodes[i].shape else f"as.matrix({name(i)})"
        lines.append(f'write({value}, $R{k}, format="csv")')
        # The shape on its own: a CSV file of a 0-row matrix shows none.
        lines.append(f'write(cbind(as.matrix(nrow({value})), '
                     f'as.matrix(ncol({value}))), $D{k}, format="csv")')
    return "\n".join(lines) + "\n"


def _statement_dml(out, node, args):
    """The DML lines that compute a statement node into `out`."""
    kind, extra = node.kind, node.extra
    if kind == "loop":
        op, count = extra["op"], extra["count"]
        update = (f"{out} = {op}({out}, {args[1]} * it)"
                  if op in ("min", "max") else
                  f"{out} = ({out} {op} ({args[1]} * it))")
        if extra["form"] == "for":
            return [f"{out} = {args[0]}",
                    f"for (it in 1:{count}) {{", f"  {update}", "}"]
        return [f"{out} = {args[0]}", "it = 1",
                f"while (it <= {count}) {{", f"  {update}",
                "  it = it + 1", "}"]
    if kind == "branch":
        return [f"if ({extra['agg']}({args[0]}) > {extra['threshold']!r}) {{",
                f"  {out} = {args[1]} + {args[2]}", "} else {",
                f"  {out} = {args[1]} - {args[2]}", "}"]
    if kind == "parfor":
        a, body, by = args[0], extra["body"], extra["by"]
        rows, cols = node.shape
        part = f"{a}[, j]" if by == "cols" else f"{a}[j, ]"
        n = rows if body == "sum" else (cols if by == "cols" else rows)
        if body == "sum":
            return [f"{out} = matrix(0, rows={rows}, cols=1)",
                    f"parfor (j in 1:{n}) {{",
                    f"  {out}[j, 1] = sum({part})", "}"]
        call = f"(-{part})" if body == "neg" else f"{body}({part})"
        target = f"{out}[, j]" if by == "cols" else f"{out}[j, ]"
        return [f"{out} = matrix(0, rows={rows}, cols={cols})",
                f"parfor (j in 1:{n}) {{", f"  {target} = {call} + j", "}"]
    if kind == "assign":
        (r0, r1), (c0, c1) = extra["rows"], extra["cols"]
        return [f"{out} = {args[0]}",
                f"{out}[{r0}:{r1}, {c0}:{c1}] = {args[1]}"]
    raise ValueError(kind)
