"""AMLS from Python: compile DML or AMLS IR once, call it on NumPy arrays.

    import numpy as np, amls
    s = amls.Session(threads=2)
    f = s.compile_dml("G = t(X) %*% X\\nb = t(X) %*% y\\ns = sum(X * X)\\n")
    out = f(X=X, y=y)                  # a dict of the script's variables
    G, b, total = out["G"], out["b"], out["s"]
    s.stats()                          # compilations, cache hits, times
    amls.run_dml("B = t(X) %*% X", X=X)["B"]

Matrices are 2-D NumPy arrays (a 1-D array is a column). float64 arrays
that are C- or F-contiguous are read in place by the compiled code (a
column-major one as the row-major transpose); float32 and int64 arrays are
converted once for DML (an AMLS IR function may take them as they are);
anything else goes through `numpy.asarray(x, dtype=float64)`; scipy.sparse
matrices go in as CSR. Result matrices are float64 arrays over the buffer
the program allocated (no copy), or with Session(csr_results=True)
scipy.sparse.csr_matrix where the program computed them CSR. A function
compiles once per kind of input (matrix, float, int, bool) and the session
once per input signature (sizes, dtypes, formats, rounded sparsity,
layout): calling it in a loop with same-shaped inputs never recompiles.
Large arrays are compiled for their offset from a 64-byte boundary (full
reductions start their vector loads on the next one); amls.aligned(x) makes
an array that element-wise loops read faster too (64-byte aligned).
docs/python.md has the details.
"""

import os
import sys
import threading

import numpy as _np

# The JIT-compiled programs call AMLS's runtime, which the native module
# brings in; it must be visible to the whole process.
_flags = sys.getdlopenflags()
sys.setdlopenflags(_flags | os.RTLD_GLOBAL | os.RTLD_NOW)
try:
    from . import _amls
finally:
    sys.setdlopenflags(_flags)
from ._version import __version__  # noqa: E402

__all__ = ["Session", "Function", "Plan", "RowBlock", "Error", "CompileError",
           "RunError", "run_dml", "Matrix", "Scalar", "array", "scalar",
           "read", "compute", "explain", "call", "get_session",
           "set_session", "ones", "zeros", "full", "rand", "seq", "cbind",
           "rbind"]


class Error(Exception):
    """What AMLS reports: the message with its source position
    (file:line:col and the line)."""


class CompileError(Error):
    """A program that does not import, parse, verify or compile, or an
    input that contradicts it."""


class RunError(Error):
    """A program that failed while it ran: a check of its sizes or indices,
    a file it cannot read, `stop()`, the memory limit, on any thread of the
    program's parallel loops and parfor workers too. The process and the
    session go on (docs/c-api.md, "Errors", has the limits)."""


def _kind(name, value):
    """The DML kind of a Python argument, and the value to pass."""
    if isinstance(value, (bool, _np.bool_)):
        return "bool", bool(value)
    if isinstance(value, (int, _np.integer)):
        return "int", int(value)
    if isinstance(value, (float, _np.floating)):
        return "float", float(value)
    if _is_sparse(value):
        return "matrix", _csr(name, value)
    if isinstance(value, (_np.ndarray, list, tuple)) or hasattr(
            value, "__array__"):
        return "matrix", _matrix(name, value)
    raise TypeError(
        f"argument '{name}': expected a NumPy array (or a nested list), "
        f"float, int or bool, "
        f"found {type(value).__name__}")


def _matrix(name, value):
    array = _np.asarray(value)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2:
        raise TypeError(f"argument '{name}': expected a 1-D or 2-D array, "
                        f"found {array.ndim} dimensions")
    if array.dtype not in (_np.float64, _np.float32, _np.int64):
        array = array.astype(_np.float64)
    if not (array.flags.c_contiguous or array.flags.f_contiguous):
        array = _np.ascontiguousarray(array)
    return array


def _is_sparse(value):
    """A scipy.sparse matrix or array: SciPy's own test, where SciPy is
    loaded (a sparse value implies it is; amls does not import it)."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(value)


class _CSR(tuple):
    """('csr', rows, cols, row offsets int64, column indices int32,
    values float64): what the native layer passes as a CSR matrix."""


def _csr(name, value):
    """A scipy.sparse matrix as CSR arrays AMLS takes in place: a
    csr_matrix/csr_array with float64 data, int32 indices and canonical
    (sorted, no duplicates) rows crosses without a copy of its values and
    indices; its int32 row offsets are widened (rows + 1 numbers). Other
    formats and types are converted once."""
    if value.ndim != 2:
        raise TypeError(f"argument '{name}': expected a 2-D sparse matrix, "
                        f"found {value.ndim} dimensions")
    csr = value.tocsr()
    if not csr.has_canonical_format:
        csr = csr.copy()
        csr.sum_duplicates()            # also sorts the indices
    indices = csr.indices
    if indices.dtype != _np.int32:
        if csr.shape[1] > _np.iinfo(_np.int32).max:
            raise TypeError(f"argument '{name}': a sparse matrix with more "
                            f"than 2^31 - 1 columns")
        indices = indices.astype(_np.int32)
    return _CSR(("csr", csr.shape[0], csr.shape[1],
                 _np.ascontiguousarray(csr.indptr, dtype=_np.int64),
                 _np.ascontiguousarray(indices),
                 _np.ascontiguousarray(csr.data, dtype=_np.float64)))


class RowBlock:
    """This process's block of rows of a matrix split by rows over the MPI
    ranks of a distributed session (Session(distributed=True) under
    mpirun): each rank passes `RowBlock(its_rows)` for the same argument,
    and the program computes on the whole matrix, as one process would on
    the rows stacked in rank order. A rank's block must be its share,
    `rows[session.row_range(n)]` of a matrix of n rows (n / N rows, the
    first n % N ranks one more). `value`: a NumPy array (anything numpy
    takes) or a scipy.sparse matrix."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        shape = getattr(self.value, "shape", None)
        return f"amls.RowBlock(shape={shape})"


def _result(value):
    """A result as Python sees it: a CSR result (the native layer's
    ('csr', rows, cols, row offsets, column indices, values) over the
    program's arrays) as a scipy.sparse.csr_matrix; the rest as they are."""
    if not (isinstance(value, tuple) and value and value[0] == "csr"):
        return value
    import scipy.sparse
    _, rows, cols, offsets, columns, values = value
    # The values and column indices are used as they are; SciPy takes one
    # index type for both index arrays, so the row offsets (rows + 1
    # numbers) become int32 where the column indices are.
    return scipy.sparse.csr_matrix((values, columns, offsets),
                                   shape=(rows, cols), copy=False)


def _run(program, arguments, row_blocks=()):
    try:
        return [_result(value)
                for value in program.run(arguments, list(row_blocks))]
    except _amls.RunError as error:
        raise RunError(str(error)) from None
    except _amls.Error as error:
        raise CompileError(str(error)) from None


class Plan:
    """An optimized plan as Graphviz DOT text (str(plan)); render() draws
    it with Graphviz's `dot`, and Jupyter shows it inline (_repr_svg_)."""

    def __init__(self, dot):
        self.dot = dot

    def __str__(self):
        return self.dot

    def __repr__(self):
        return f"amls.Plan({self.dot.count(' [label=')} nodes)"

    def render(self, format="svg"):
        """The plan as format "dot" (the text), "svg" (text) or "png"
        (bytes), drawn by `dot` (Debian's graphviz package)."""
        if format == "dot":
            return self.dot
        if format not in ("svg", "png"):
            raise ValueError(f"explain: expected format 'dot', 'svg' or "
                             f"'png', found {format!r}")
        import shutil
        import subprocess
        dot = shutil.which("dot")
        if dot is None:
            raise RuntimeError(f"explain(format={format!r}) needs Graphviz's "
                               f"`dot` on PATH (apt-get install graphviz); "
                               f"format 'dot' gives the text without it")
        done = subprocess.run([dot, f"-T{format}"], input=self.dot.encode(),
                              capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"dot -T{format} failed: "
                               f"{done.stderr.decode(errors='replace')}")
        return done.stdout.decode() if format == "svg" else done.stdout

    def _repr_svg_(self):
        return self.render("svg")


class Function:
    """A compiled DML script or AMLS IR function; call it with keyword
    arguments, one per input, to get a dict of its results."""

    def __init__(self, session, compile, fixed=None, name="<function>"):
        self._session = session
        self._compile = compile
        self._programs = {}
        self._fixed = fixed
        self._lock = threading.Lock()
        self.__name__ = name

    def _program(self, signature):
        with self._lock:
            program = self._programs.get(signature)
            if program is None:
                try:
                    program = self._compile(signature)
                except _amls.Error as error:
                    raise CompileError(str(error)) from None
                self._programs[signature] = program
            return program

    def __call__(self, **arguments):
        program, values, row_blocks = self._bind(arguments)
        report = self._session._verbose
        if not report:
            return dict(zip(program.result_names,
                            _run(program, values, row_blocks)))
        native = self._session._native
        before = native.stats()
        results = _run(program, values, row_blocks)
        after = native.stats()
        times = {key: after[key] - before[key] for key in
                 ("optimize_ms", "compile_ms", "execute_ms", "compilations")}
        times["name"] = self.__name__
        if callable(report):
            report(times)
        else:
            compiled = (f"compiled in {times['optimize_ms'] + times['compile_ms']:.0f}"
                        f" ms (optimizer {times['optimize_ms']:.0f} ms, code "
                        f"generation {times['compile_ms']:.0f} ms), "
                        if times["compilations"] else "cached, ")
            print(f"amls: {self.__name__}: {compiled}ran in "
                  f"{times['execute_ms']:.1f} ms", file=sys.stderr,
                  flush=True)
        return dict(zip(program.result_names, results))

    def explain(self, format=None, **arguments):
        """The optimized plan for these arguments (as the call takes them)
        as a picture: an amls.Plan (Jupyter shows it inline, str() is
        the Graphviz text), or format "dot" (the text), "svg" or "png"
        (bytes) as Graphviz's `dot` renders it. One node per op
        with its shape, sparsity and format; fused operators are clusters
        named by their template. Compiles for the arguments (a later call
        with them reuses it) and runs nothing."""
        program, values, row_blocks = self._bind(arguments)
        try:
            graph = program.explain_plan(values, list(row_blocks))
        except _amls.Error as error:
            raise CompileError(str(error)) from None
        return Plan(graph) if format is None else Plan(graph).render(format)

    def _bind(self, arguments):
        """The program for `arguments` and the values it takes."""
        if self._fixed is not None:
            return self._bind_fixed(arguments)
        inputs, values, texts, row_blocks = [], [], [], []
        for name in sorted(arguments):
            if isinstance(arguments[name], str):
                # A string binds $name as amls-run's --arg does: a
                # constant of the program (a file name, an option).
                texts.append((name, arguments[name]))
                continue
            kind, value = self._argument(name, arguments[name], row_blocks,
                                         len(values))
            inputs.append((name, kind))
            values.append(value)
        program = self._program((tuple(inputs), tuple(texts)))
        return program, values, row_blocks

    @staticmethod
    def _argument(name, given, row_blocks, index):
        """The kind and value of argument `name`; a RowBlock's index (in the
        values passed) goes into `row_blocks`."""
        if not isinstance(given, RowBlock):
            return _kind(name, given)
        kind, value = _kind(name, given.value)
        if kind != "matrix":
            raise TypeError(f"argument '{name}': a RowBlock holds a "
                            f"matrix, found a {kind}")
        row_blocks.append(index)
        return kind, value

    def _bind_fixed(self, arguments):
        program = self._fixed
        names, kinds = program.parameter_names, program.parameter_kinds
        unknown = sorted(set(arguments) - set(names))
        if unknown:
            raise TypeError(f"unknown argument '{unknown[0]}'; the parameters "
                            f"are {', '.join(names)}")
        values, row_blocks = [], []
        for name, kind in zip(names, kinds):
            if name not in arguments:
                raise TypeError(f"missing argument '{name}'")
            given, value = self._argument(name, arguments[name], row_blocks,
                                          len(values))
            if (given == "matrix") != (kind == "matrix"):
                raise TypeError(f"argument '{name}': expected a "
                                f"{'matrix' if kind == 'matrix' else 'scalar'}"
                                f", found a {given}")
            values.append(value)
        return program, values, row_blocks

    @property
    def parameters(self):
        """The parameter names (AMLS IR functions; a DML function takes
        whatever inputs it is called with)."""
        return list(self._fixed.parameter_names) if self._fixed else None


class Session:
    """A compilation and execution session: options, compiled programs and
    their caches. Sessions are independent; threads may use different
    sessions at once, and the GIL is released while a program runs.

    threads: threads of parallel loops and BLAS (1: sequential code);
    memory_limit: bytes the programs' buffers may take (0: 80% of memory);
    rewrites, fusion, formats, sums, blas, sparsity_estimator ("mnc",
    "metadata" or "worst"): as amls-run's flags;
    target: None (the default: the CPU), "cpu", or "gpu" (parallel loops
    as CUDA kernels on device 0; a ValueError says why where no usable GPU
    is); gpu_chip: the chip the kernels are compiled for, e.g. "sm_90"
    (default: the device's);
    distributed: run every program on all the ranks of the MPI job this
    process was launched in (mpirun -np N python3 script.py; target
    "mpi"; without a launcher, one rank); matrices passed as RowBlock are
    split by rows over the ranks, each rank passing its own rows, and the
    results are whole on every rank (docs/python.md, "Distributed runs");
    verbose: True reports each run of a program on stderr, as
    "amls: NAME: compiled in T ms (optimizer T1 ms, code generation T2 ms),
    ran in T3 ms" ("cached" where it compiled nothing); a callable is
    called with a dict of name, optimize_ms, compile_ms, execute_ms and
    compilations instead; the estimators' and library functions' own
    verbose prints their iterations (iteration, objective);
    csr_results: matrices the program computes in CSR (a sparse input
    scaled, a sparse product) come back as scipy.sparse.csr_matrix over
    the program's arrays instead of as dense arrays (default False: every
    matrix result is a NumPy array); builtins: a directory (or a list of
    them) of DML library functions (NAME.dml defining m_NAME, as amls-run
    --builtins) searched before AMLS's own library, which the package
    finds beside its native library in the build tree and the install
    alike."""

    # Lazy graphs whose programs a session keeps (the oldest goes first).
    GRAPH_CACHE_SIZE = 256

    def __init__(self, threads=2, memory_limit=0, rewrites="all",
                 fusion="cost", formats="auto", sums="kahan", blas="auto",
                 target=None, gpu_chip=None, csr_results=False,
                 builtins=None, distributed=False, verbose=False,
                 sparsity_estimator="mnc"):
        if isinstance(builtins, (str, os.PathLike)):
            builtins = [builtins]
        if distributed:
            if target not in (None, "mpi"):
                raise ValueError(f"distributed=True runs on target 'mpi', "
                                 f"not '{target}'")
            target = "mpi"
        try:
            self._native = _amls.Session(threads, memory_limit, rewrites,
                                         fusion, formats, sums, blas,
                                         target or "",
                                         gpu_chip or "", bool(csr_results),
                                         ":".join(os.fspath(d) for d in
                                                  builtins or []),
                                         sparsity_estimator)
        except _amls.Error as error:
            raise ValueError(str(error)) from None
        self._verbose = verbose
        self._count = 0
        self._graphs = {}
        self._signatures = {}
        self._graph_lock = threading.Lock()

    @property
    def rank(self):
        """This process's rank among those that run each program (0 unless
        the session is distributed under an MPI launcher)."""
        return self._native.process_rank()[0]

    @property
    def num_ranks(self):
        """How many processes run each program together (1 unless the
        session is distributed under an MPI launcher)."""
        return self._native.process_rank()[1]

    def row_range(self, rows):
        """This rank's rows of a matrix of `rows` rows split by rows over
        the ranks, as a slice: `RowBlock(X[session.row_range(len(X))])`
        is the block this rank passes for X."""
        if int(rows) < 0:
            raise ValueError(f"row_range: expected a row count, found {rows}")
        begin, count = self._native.row_block(int(rows))
        return slice(begin, begin + count)

    def _name(self, suffix):
        self._count += 1
        return f"<amls {self._count}>{suffix}"

    def compile_dml(self, source, outputs=None, name=None):
        """A DML script as a function. Its inputs are the variables it reads
        without assigning them first and its `$name` arguments, passed by
        keyword; it returns a dict of every top-level variable it assigns
        (matrices, numbers, booleans), or of `outputs` only."""
        name = name or self._name(".dml")
        outputs = list(outputs) if outputs is not None else None
        native = self._native
        return Function(
            self, lambda signature: native.compile_dml(
                source, name, list(signature[0]), outputs,
                list(signature[1])), name=name)

    def compile_mlir(self, source, entry="main", name=None):
        """An AMLS IR function (MLIR text) as a function; arguments bind by
        parameter name (the `amls.name` argument attribute)."""
        name = name or self._name(".mlir")
        try:
            program = self._native.compile_mlir(source, name, entry)
        except _amls.Error as error:
            raise CompileError(str(error)) from None
        return Function(self, None, fixed=program, name=name)

    def _graph_program(self, key, sources, nodes, outputs):
        """The compiled program of a lazy graph (amls/lazy.py), compiled
        once per structure."""
        with self._graph_lock:
            function = self._graphs.get(key)
            if function is None:
                name = self._name(".py")
                try:
                    program = self._native.compile_graph(
                        name, sources, nodes,
                        [(f"out{i}", node) for i, node in enumerate(outputs)])
                except _amls.Error as error:
                    raise CompileError(str(error)) from None
                function = Function(self, None, fixed=program, name=name)
                if len(self._graphs) >= self.GRAPH_CACHE_SIZE:
                    self._graphs.pop(next(iter(self._graphs)))
                self._graphs[key] = function
            return function

    def _library_signature(self, name):
        with self._graph_lock:
            if name not in self._signatures:
                try:
                    self._signatures[name] = self._native.library_function(
                        name)
                except _amls.Error as error:
                    raise CompileError(str(error)) from None
            return self._signatures[name]

    def stats(self):
        """runs, compilations, cache_hits, failed_runs, optimize_ms,
        compile_ms, execute_ms, peak_memory_bytes, input_copies and
        input_copy_bytes (target "gpu": inputs copied where the device
        reaches them), input_layout_copies and input_layout_copy_bytes
        (inputs copied into row-major order or the parameter's dtype; the
        others were read in place)."""
        return self._native.stats()


ALIGNMENT = 64


def aligned(array, dtype=None):
    """`array` (anything numpy.asarray takes) as a C-contiguous array whose
    data starts on a 64-byte boundary: the array itself when it already
    is one, else a copy. NumPy starts large arrays 16 bytes past such a
    boundary, which splits the vector loads of AMLS's compiled loops
    across two cache lines. Full reductions are compiled for the offset
    and do not need this; element-wise loops over an array used in many
    calls run faster on it aligned (docs/python.md)."""
    array = _np.asarray(array, dtype=dtype)
    if array.flags.c_contiguous and array.ctypes.data % ALIGNMENT == 0:
        return array
    extra = ALIGNMENT // array.itemsize
    buffer = _np.empty(array.size + extra, dtype=array.dtype)
    start = (-buffer.ctypes.data % ALIGNMENT) // array.itemsize
    out = buffer[start:start + array.size].reshape(array.shape)
    out[...] = array
    return out


_default = None
_default_lock = threading.Lock()


def run_dml(source, **arguments):
    """Compiles and runs a DML script once (in a shared session)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Session()
    return _default.compile_dml(source)(**arguments)


from .lazy import (Matrix, Scalar, array, scalar, read, compute,  # noqa: E402
                   explain, call, get_session, set_session, ones, zeros,
                   full, rand, seq, cbind, rbind)


def as_scalar(x):
    """DML's as.scalar: the one cell of a 1 x 1 matrix as a number."""
    return call("as.scalar", x)


def as_matrix(x):
    """DML's as.matrix: a number as a 1 x 1 matrix."""
    return call("as.matrix", x)


def __getattr__(name):
    """Every other DML builtin and library function: amls.rowSums(X),
    amls.solve(A, b), amls.lm(X, y, reg=1e-3), amls.kmeans(X, k=3) (a
    tuple where it returns several)."""
    if name.startswith("_"):
        raise AttributeError(f"module 'amls' has no attribute '{name}'")
    if name == "sklearn":  # a submodule, imported on first use
        import importlib
        return importlib.import_module(".sklearn", __name__)

    def function(*args, **kwargs):
        return call(name, *args, **kwargs)

    function.__name__ = name
    function.__doc__ = f"DML's {name} on lazy values (amls.call)."
    return function
