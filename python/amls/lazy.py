"""Lazy matrices: Python expressions that AMLS compiles as one program.

    import numpy as np, amls
    X = amls.array(np.random.rand(1000, 10)); y = amls.array(np.random.rand(1000))
    b = amls.solve(X.T @ X + 0.1 * amls.diag(amls.ones(10)), X.T @ y)
    r = ((X @ b - y) ** 2).sum()
    b_np, r_value = amls.compute(b, r)   # one program for both

Operators, methods and functions build a graph through the C API
(amls-c/Graph.h), not DML text; `compute()`, `numpy()`, `float()` and
printing compile the whole graph with the full optimizer and run it. A
computed value is kept: later expressions over it read it as an input, so a
Python loop that builds the same expression each iteration compiles once.
Every DML builtin and library function is a function of the package
(`amls.lm(X, y, reg=1e-3)`); docs/python.md lists what maps to what.
"""

import linecache
import os
import sys
import threading

import numpy as _np

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# Builtins whose value is a number (the class of their lazy value; the
# program's result decides what compute() returns either way).
_SCALAR_BUILTINS = frozenset({
    "sum", "mean", "avg", "var", "sd", "prod", "trace", "det", "nrow", "ncol",
    "length", "nnz", "as.scalar", "as.double", "as.integer", "as.logical",
    "median", "moment", "cov", "interQuartileMean", "countDistinct",
    "countDistinctApprox", "sumSq", "time", "toString",
})
# Builtins with several results and how many.
_MULTI_RESULT_BUILTINS = {"eigen": 2, "qr": 2, "lu": 3, "svd": 3}


def _location():
    """(file, line, column) of the innermost frame outside this package:
    the user's line that builds the node."""
    frame = sys._getframe(1)
    while frame is not None and os.path.dirname(
            os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return None
    code = frame.f_code
    line, column = frame.f_lineno, 1
    try:
        positions = list(code.co_positions())
        position = positions[frame.f_lasti // 2]
        if position[0] == line and position[2] is not None:
            column = position[2] + 1
    except (AttributeError, IndexError):
        pass
    return (code.co_filename, line, column)


class _Node:
    """One operation of the graph. kind: input, number, bool, string, unary,
    binary, call, result, index; args: the nodes it reads (None for an
    absent index bound); data: an input's value."""

    __slots__ = ("kind", "text", "args", "names", "results", "loc", "data",
                 "input_kind", "value", "__weakref__")

    def __init__(self, kind, text=None, args=(), names=(), results=1,
                 loc=None, value=None):
        self.kind, self.text, self.args = kind, text, tuple(args)
        self.names, self.results, self.loc = tuple(names), results, loc
        self.value = value
        self.data = None
        self.input_kind = None

    def materialize(self, data, kind):
        """Becomes an input holding its computed value."""
        self.kind, self.text, self.args, self.names = "input", None, (), ()
        self.results, self.value = 1, None
        self.data, self.input_kind = data, kind


def _literal(value, loc):
    if isinstance(value, (bool, _np.bool_)):
        return _Node("bool", value=bool(value), loc=loc)
    if isinstance(value, (int, _np.integer)):
        return _Node("number", value=(float(value), True), loc=loc)
    if isinstance(value, (float, _np.floating)):
        return _Node("number", value=(float(value), False), loc=loc)
    if isinstance(value, str):
        return _Node("string", value=value, loc=loc)
    return None


def _node_of(value, loc):
    """The node of an operand: a lazy value's, a literal's, or an input
    holding an array."""
    if isinstance(value, Matrix):
        return value._node
    literal = _literal(value, loc)
    if literal is not None:
        return literal
    return array(value)._node


def _wrap(node, scalar=False):
    return (Scalar if scalar else Matrix)(node)


def _binary(op, lhs, rhs, scalar=None):
    loc = _location()
    left, right = _node_of(lhs, loc), _node_of(rhs, loc)
    if scalar is None:
        scalar = all(isinstance(v, Scalar) or _literal(v, None) is not None
                     for v in (lhs, rhs))
    return _wrap(_Node("binary", op, (left, right), loc=loc), scalar)


def call(name, *args, results=None, **kwargs):
    """A call of the DML builtin or library function `name` (positional
    and named arguments as in DML; None leaves an argument out). A function
    with several results gives a tuple; `results` overrides how many."""
    loc = _location()
    nodes, names = [], []
    for value in args:
        nodes.append(_node_of(value, loc))
        names.append("")
    for key, value in kwargs.items():
        if value is None:
            continue
        nodes.append(_node_of(value, loc))
        names.append(key)
    kinds = None
    if results is None:
        signature = _library_signature(name)
        if signature is not None:
            kinds = [kind for _, kind in signature[1]]
            results = len(kinds)
        else:
            results = _MULTI_RESULT_BUILTINS.get(name, 1)
    node = _Node("call", name, nodes, names, results, loc=loc)
    if results == 1:
        scalar = (kinds[0] != "matrix" if kinds else
                  name in _SCALAR_BUILTINS and not
                  (name in ("sum", "mean", "var", "sd") and len(nodes) > 1))
        return _wrap(node, scalar)
    if results == 0:
        return _wrap(node)
    return tuple(
        _wrap(_Node("result", None, (node,), value=i, loc=loc),
              bool(kinds) and kinds[i] != "matrix")
        for i in range(results))


def _library_signature(name):
    """(parameters, results) of library function `name` from the DML
    library as the default session finds it, or None for a builtin."""
    return get_session()._library_signature(name)


class Matrix:
    """A lazy matrix (or, as Scalar, a lazy number): the graph of the
    operations that compute it, run by compute()."""

    __slots__ = ("_node", "__weakref__")
    __array_priority__ = 1000  # ndarray @ Matrix comes here

    def __init__(self, node):
        self._node = node

    # -- evaluation ------------------------------------------------------
    def compute(self, session=None):
        """Compiles the graph (or takes it from the session's cache) and
        runs it: a NumPy array (a scipy.sparse matrix for a CSR result with
        Session(csr_results=True)), float, int or bool."""
        return compute(self, session=session)

    def numpy(self):
        return _np.asarray(self.compute())

    def __array__(self, dtype=None, copy=None):
        value = self.compute()
        if hasattr(value, "toarray"):
            value = value.toarray()
        return _np.asarray(value, dtype=dtype)

    def __float__(self):
        return float(_as_number(self.compute()))

    def __int__(self):
        return int(_as_number(self.compute()))

    def __index__(self):
        return int(self)

    def __bool__(self):
        return bool(_as_number(self.compute()))

    def __str__(self):
        return str(self.compute())

    def __repr__(self):
        node = self._node
        where = f" at {node.loc[0]}:{node.loc[1]}" if node.loc else ""
        what = {"input": "input", "call": f"{node.text}(...)",
                "binary": f"'{node.text}'", "unary": f"'{node.text}'",
                "index": "indexing", "result": "result"}.get(node.kind,
                                                             node.kind)
        return f"amls.{type(self).__name__}(lazy {what}{where})"

    def explain(self, format=None, session=None):
        """The optimized program that computes this value as a picture of
        its plan: an amls.Plan (Jupyter draws it; str() is the DOT text), or
        format "dot", "svg" or "png" (rendered by `dot`)."""
        return explain(self, format=format, session=session)

    # -- operators -------------------------------------------------------
    def __matmul__(self, other):
        return _binary("%*%", self, other, scalar=False)

    def __rmatmul__(self, other):
        return _binary("%*%", other, self, scalar=False)

    def __add__(self, other):
        return _binary("+", self, other)

    def __radd__(self, other):
        return _binary("+", other, self)

    def __sub__(self, other):
        return _binary("-", self, other)

    def __rsub__(self, other):
        return _binary("-", other, self)

    def __mul__(self, other):
        return _binary("*", self, other)

    def __rmul__(self, other):
        return _binary("*", other, self)

    def __truediv__(self, other):
        return _binary("/", self, other)

    def __rtruediv__(self, other):
        return _binary("/", other, self)

    def __floordiv__(self, other):
        return _binary("%/%", self, other)

    def __rfloordiv__(self, other):
        return _binary("%/%", other, self)

    def __mod__(self, other):
        return _binary("%%", self, other)

    def __rmod__(self, other):
        return _binary("%%", other, self)

    def __pow__(self, other):
        return _binary("^", self, other)

    def __rpow__(self, other):
        return _binary("^", other, self)

    def __lt__(self, other):
        return _binary("<", self, other)

    def __le__(self, other):
        return _binary("<=", self, other)

    def __gt__(self, other):
        return _binary(">", self, other)

    def __ge__(self, other):
        return _binary(">=", self, other)

    def __eq__(self, other):
        return _binary("==", self, other)

    def __ne__(self, other):
        return _binary("!=", self, other)

    def __and__(self, other):
        return _binary("&", self, other)

    def __rand__(self, other):
        return _binary("&", other, self)

    def __or__(self, other):
        return _binary("|", self, other)

    def __ror__(self, other):
        return _binary("|", other, self)

    def __neg__(self):
        loc = _location()
        return _wrap(_Node("unary", "-", (self._node,), loc=loc),
                     isinstance(self, Scalar))

    def __pos__(self):
        return self

    def __invert__(self):
        loc = _location()
        return _wrap(_Node("unary", "!", (self._node,), loc=loc),
                     isinstance(self, Scalar))

    def __abs__(self):
        return call("abs", self)

    __hash__ = object.__hash__

    # -- indexing --------------------------------------------------------
    def __getitem__(self, key):
        """NumPy-style: 0-based, end-exclusive slices (no steps), integers
        and lazy scalars; `X[i]` is row i, `X[:, j]` column j."""
        loc = _location()
        if not isinstance(key, tuple):
            key = (key, slice(None))
        if len(key) != 2:
            raise IndexError(f"a matrix takes 2 indices, found {len(key)}")
        bounds = []
        for axis, item in enumerate(key):
            bounds.extend(self._bounds(axis, item, loc))
        return _wrap(_Node("index", None, (self._node, *bounds), loc=loc))

    def _bounds(self, axis, item, loc):
        def one_based(value):
            if isinstance(value, Matrix):
                return _Node("binary", "+", (value._node, _literal(1, loc)),
                             loc=loc)
            value = _as_index(value)
            if value < 0:
                raise IndexError(f"negative index {value}: AMLS indices "
                                 "count from the start")
            return _literal(value + 1, loc)

        if isinstance(item, slice):
            if item.step not in (None, 1):
                raise IndexError("slices with a step are not supported")
            if item.start is None and item.stop is None:
                return [None, None]
            begin = one_based(0 if item.start is None else item.start)
            if item.stop is None:
                end = _Node("call", "nrow" if axis == 0 else "ncol",
                            (self._node,), ("",), loc=loc)
            elif isinstance(item.stop, Matrix):
                end = item.stop._node
            else:
                stop = _as_index(item.stop)
                if stop < 0:
                    raise IndexError(f"negative index {stop}: AMLS indices "
                                     "count from the start")
                end = _literal(stop, loc)
            return [begin, end]
        return [one_based(item), None]

    # -- methods ---------------------------------------------------------
    @property
    def T(self):
        return call("t", self)

    def t(self):
        return call("t", self)

    def sum(self, axis=None):
        return _axis_call(self, axis, "sum", "colSums", "rowSums")

    def mean(self, axis=None):
        return _axis_call(self, axis, "mean", "colMeans", "rowMeans")

    def max(self, axis=None):
        return _axis_call(self, axis, "max", "colMaxs", "rowMaxs")

    def min(self, axis=None):
        return _axis_call(self, axis, "min", "colMins", "rowMins")

    def var(self, axis=None, ddof=1):
        """Variance with `ddof` (1, DML's sample variance, by default)."""
        result = _axis_call(self, axis, "var", "colVars", "rowVars")
        return _rescale_ddof(self, result, axis, ddof)

    def std(self, axis=None, ddof=1):
        result = _axis_call(self, axis, "sd", "colSds", "rowSds")
        if ddof == 1:
            return result
        return _rescale_ddof(self, result ** 2, axis, ddof) ** 0.5

    def rowSums(self):
        return call("rowSums", self)

    def colSums(self):
        return call("colSums", self)

    def rowMeans(self):
        return call("rowMeans", self)

    def colMeans(self):
        return call("colMeans", self)

    def nrow(self):
        return call("nrow", self)

    def ncol(self):
        return call("ncol", self)

    def exp(self):
        return call("exp", self)

    def log(self):
        return call("log", self)

    def sqrt(self):
        return call("sqrt", self)

    def abs(self):
        return call("abs", self)

    def round(self):
        return call("round", self)

    def reshape(self, rows, cols):
        """Row-major, as DML's matrix(X, rows, cols)."""
        return call("matrix", self, rows=rows, cols=cols)


class Scalar(Matrix):
    """A lazy number (a sum, a mean, a computed scalar)."""

    __slots__ = ()


def _as_number(value):
    if hasattr(value, "shape") and getattr(value, "size", 2) == 1:
        return _np.asarray(value).reshape(())[()]
    return value


def _as_index(value):
    if isinstance(value, (bool, _np.bool_)) or not isinstance(
            value, (int, _np.integer)):
        raise IndexError(f"an index is an int, a slice or a lazy scalar, "
                         f"found {type(value).__name__}")
    return int(value)


def _axis_call(x, axis, whole, columns, rows):
    if axis is None:
        return call(whole, x)
    if axis in (0, -2):
        return call(columns, x)
    if axis in (1, -1):
        return call(rows, x)
    raise ValueError(f"axis {axis}: a matrix has axes 0 and 1")


def _rescale_ddof(x, variance, axis, ddof):
    if ddof == 1:
        return variance
    count = (call("length", x) if axis is None else
             call("nrow" if axis in (0, -2) else "ncol", x))
    return variance * (count - 1) / (count - ddof)


# -- constructors --------------------------------------------------------

def array(value, session=None):
    """A lazy matrix holding `value`: a NumPy array (1-D: a column), a
    scipy.sparse matrix, a pandas DataFrame or Series, anything
    numpy.asarray takes; a Python number gives a lazy scalar input."""
    if isinstance(value, Matrix):
        return value
    node = _Node("input")
    if hasattr(value, "to_numpy") and not hasattr(value, "tocsr"):
        value = value.to_numpy(dtype=_np.float64)
    if isinstance(value, (bool, _np.bool_)):
        node.materialize(bool(value), "bool")
        return Scalar(node)
    if isinstance(value, (int, _np.integer)):
        node.materialize(int(value), "int")
        return Scalar(node)
    if isinstance(value, (float, _np.floating)):
        node.materialize(float(value), "float")
        return Scalar(node)
    if not hasattr(value, "tocsr"):
        value = _np.asarray(value)
        if value.ndim == 0:
            node.materialize(float(value), "float")
            return Scalar(node)
        if value.ndim > 2:
            raise ValueError(f"amls.array: a matrix has 1 or 2 dimensions, "
                             f"found {value.ndim}")
    node.materialize(value, "matrix")
    return Matrix(node)


def scalar(value):
    """A Python number as an input of the program rather than a constant
    in it: a loop changing it does not recompile."""
    return array(value)


def read(path, **options):
    """A lazy matrix read from `path` when the program runs (DML's read:
    format, rows, cols, ... as named options; the .mtd file otherwise)."""
    return call("read", os.fspath(path), **options)


def ones(rows, cols=1):
    return call("matrix", 1, rows=rows, cols=cols)


def zeros(rows, cols=1):
    return call("matrix", 0, rows=rows, cols=cols)


def full(rows, cols, value):
    return call("matrix", value, rows=rows, cols=cols)


def rand(rows, cols, min=0.0, max=1.0, sparsity=1.0, seed=None,
         pdf="uniform"):
    return call("rand", rows=rows, cols=cols, min=min, max=max,
                sparsity=sparsity, seed=seed, pdf=pdf)


def seq(start, stop, step=None):
    """DML's seq: start to stop inclusive."""
    return call("seq", start, stop, *(() if step is None else (step,)))


def cbind(*matrices):
    return call("cbind", *matrices)


def rbind(*matrices):
    return call("rbind", *matrices)


# -- compilation -----------------------------------------------------------

_default_session = None
_default_lock = threading.Lock()


def get_session():
    """The session lazy values compute in unless told otherwise."""
    global _default_session
    with _default_lock:
        if _default_session is None:
            from . import Session
            _default_session = Session()
        return _default_session


def set_session(session):
    """Makes `session` the one lazy values compute in."""
    global _default_session
    with _default_lock:
        _default_session = session


def _graph(outputs):
    """The graph of `outputs`: (key, sources, nodes, inputs) where nodes are
    the native layer's tuples in order, inputs the input nodes in parameter
    order, key what the compile cache knows the graph by (its structure,
    literals and positions, not the inputs' data)."""
    ids, nodes, key, inputs = {}, [], [], []
    sources, source_ids = [], {}

    def location(loc):
        if loc is None:
            return (-1, 0, 0)
        file, line, column = loc
        source = source_ids.get(file)
        if source is None:
            lines = linecache.getlines(file)
            if len(lines) < line:
                lines = lines + ["\n"] * (line - len(lines))
            source = source_ids[file] = len(sources)
            sources.append((file, "".join(lines)))
        return (source, line, column)

    def emit(node):
        ref = lambda n: -1 if n is None else ids[id(n)]  # noqa: E731
        loc = location(node.loc)
        if node.kind == "input":
            kind = node.input_kind
            name = f"in{len(inputs)}"
            inputs.append(node)
            entry = ("input", name, kind)
            key.append(("input", kind))
        elif node.kind == "number":
            entry = ("number", node.value[0], node.value[1], loc)
        elif node.kind == "bool":
            entry = ("bool", node.value, loc)
        elif node.kind == "string":
            entry = ("string", node.value, loc)
        elif node.kind in ("unary", "binary"):
            entry = (node.kind, node.text, *map(ref, node.args), loc)
        elif node.kind == "call":
            entry = ("call", node.text, tuple(ref(a) for a in node.args),
                     tuple(node.names), node.results, loc)
        elif node.kind == "result":
            entry = ("result", ref(node.args[0]), node.value)
        else:  # index
            entry = ("index", *map(ref, node.args), loc)
        if node.kind != "input":
            key.append((entry, node.loc))
        ids[id(node)] = len(nodes)
        nodes.append(entry)

    # Post-order without recursion: Python loops build deep graphs.
    for output in outputs:
        stack = [(output, False)]
        while stack:
            node, expanded = stack.pop()
            if node is None or id(node) in ids:
                continue
            if expanded:
                emit(node)
                continue
            stack.append((node, True))
            for arg in reversed(node.args):
                if arg is not None and id(arg) not in ids:
                    stack.append((arg, False))
    key.append(("outputs", tuple(ids[id(o)] for o in outputs)))
    return (tuple(key), sources, nodes, inputs,
            [ids[id(o)] for o in outputs])


def _program(session, values):
    nodes = [value._node for value in values]
    key, sources, graph_nodes, inputs, output_ids = _graph(nodes)
    return session._graph_program(key, sources, graph_nodes, output_ids), \
        inputs


def compute(*values, session=None):
    """Computes lazy values in one program: one value gives its result,
    several a tuple. Each value keeps its result, so later expressions over
    it do not compute it again."""
    if not values:
        return ()
    for value in values:
        if not isinstance(value, Matrix):
            raise TypeError(f"amls.compute takes lazy values, found "
                            f"{type(value).__name__}")
    session = session or get_session()
    pending = [v for v in values if v._node.kind != "input"]
    if pending:
        program, inputs = _program(session, pending)
        results = program(**{f"in{i}": node.data
                             for i, node in enumerate(inputs)})
        for i, value in enumerate(pending):
            result = results[f"out{i}"]
            kind = ("matrix" if hasattr(result, "shape") else
                    "bool" if isinstance(result, bool) else
                    "int" if isinstance(result, int) else "float")
            value._node.materialize(result, kind)
    out = tuple(v._node.data for v in values)
    return out[0] if len(out) == 1 else out


def explain(*values, format=None, session=None):
    """The optimized program computing `values` as a picture of its plan
    (an amls.Plan, or format "dot", "svg", "png": Function.explain). Compiles for the inputs; computes nothing."""
    for value in values:
        if not isinstance(value, Matrix):
            raise TypeError(f"amls.explain takes lazy values, found "
                            f"{type(value).__name__}")
    computed = [v for v in values if v._node.kind == "input"]
    if computed and len(computed) == len(values):
        raise ValueError("explain: the values are computed (or inputs): "
                         "their programs are gone; explain() an expression "
                         "before compute() runs it")
    session = session or get_session()
    program, inputs = _program(session, list(values))
    return program.explain(format, **{f"in{i}": node.data
                                      for i, node in enumerate(inputs)})
