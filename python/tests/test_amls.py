"""The amls package against NumPy: dtypes and layouts, the compile cache,
results that own the program's buffers, errors, and sessions used from
two Python threads at once. Run by `make check` (test/Python)."""

import re
import subprocess
import sys
import threading

import numpy as np
import scipy.sparse
import pytest

import amls

GRAM = "G = t(X) %*% X\nb = t(X) %*% y\ns = sum(X * X)\n"


@pytest.fixture(scope="module")
def session():
    return amls.Session(threads=2)


def data(rows=50, cols=4, seed=1):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((rows, cols)), rng.standard_normal(rows)


def check_gram(out, X, y):
    X64 = np.asarray(X, dtype=np.float64)
    np.testing.assert_allclose(out["G"], X64.T @ X64, rtol=1e-12)
    np.testing.assert_allclose(out["b"][:, 0], X64.T @ y, rtol=1e-12,
                               atol=1e-12)
    assert out["s"] == pytest.approx(float((X64 * X64).sum()), rel=1e-12)


def test_readme_quick_start(session):
    X, y = data()
    f = session.compile_dml(GRAM)
    out = f(X=X, y=y)
    assert sorted(out) == ["G", "b", "s"]
    assert isinstance(out["G"], np.ndarray) and isinstance(out["s"], float)
    check_gram(out, X, y)
    np.testing.assert_allclose(amls.run_dml("B = t(X) %*% X", X=X)["B"],
                               X.T @ X, rtol=1e-12)


@pytest.mark.parametrize("layout", ["C", "F", "strided", "float32", "int64",
                                    "list"])
def test_dtypes_and_layouts(session, layout):
    X, y = data(seed=2)
    if layout == "F":
        X = np.asfortranarray(X)
    elif layout == "strided":
        X = np.repeat(X, 2, axis=1)[:, ::2]        # a view with a gap
        assert not X.flags.c_contiguous and not X.flags.f_contiguous
    elif layout == "float32":
        X = X.astype(np.float32)
    elif layout == "int64":
        X = np.rint(X * 10).astype(np.int64)
    elif layout == "list":
        X = X.tolist()
    f = session.compile_dml(GRAM)
    check_gram(f(X=X, y=y), np.asarray(X), y)


def test_contiguous_float64_inputs_are_not_copied():
    # The package hands C- and F-contiguous float64 arrays to the C API as
    # they are (which borrows them); others are converted once.
    X, _ = data()
    assert amls._matrix("X", X) is X
    F = np.asfortranarray(X)
    assert amls._matrix("X", F) is F
    assert amls._matrix("X", X[:, ::2]) is not X
    assert amls._matrix("X", X.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("script", [GRAM, "Z = X + 1\nr = rowSums(X)\n"
                                    "c = colSums(X)\nW = X[2:5, 1:3]\n"
                                    "s = sum(X * X)\n"])
def test_fortran_order_is_read_in_place(script):
    # A column-major float64 array is the row-major transpose: the program
    # takes it in place (no layout copy) and computes what it computes on
    # the same data in C order (differential) and in NumPy.
    s = amls.Session(threads=2)
    f = s.compile_dml(script)
    X, y = data(rows=300, cols=7, seed=6)
    F = np.asfortranarray(X)
    extra = {"y": y} if script == GRAM else {}
    out_c, out_f = f(X=X, **extra), f(X=F, **extra)
    assert s.stats()["input_layout_copies"] == 0
    assert s.stats()["compilations"] == 2          # one per layout
    for name in out_c:
        np.testing.assert_allclose(out_f[name], out_c[name], rtol=1e-13,
                                   atol=1e-13)
    if script == GRAM:
        check_gram(out_f, X, y)
    else:
        np.testing.assert_allclose(out_f["Z"], X + 1, rtol=0, atol=0)
        np.testing.assert_allclose(out_f["r"][:, 0], X.sum(axis=1),
                                   rtol=1e-13)
        np.testing.assert_allclose(out_f["c"][0], X.sum(axis=0), rtol=1e-13)
        np.testing.assert_array_equal(out_f["W"], X[1:5, 0:3])
    # A float32 array for a DML (float64) parameter is converted once by
    # the run (a strided view is made contiguous by the package first).
    f(X=X.astype(np.float32), **extra)
    stats = s.stats()
    assert stats["input_layout_copies"] == 1
    assert stats["input_layout_copy_bytes"] == X.size * 8


def test_aligned_arrays():
    X = np.random.default_rng(8).standard_normal((1000, 3))
    A = amls.aligned(X)
    assert A.ctypes.data % amls.ALIGNMENT == 0 and A.flags.c_contiguous
    np.testing.assert_array_equal(A, X)
    assert amls.aligned(A) is A                    # already aligned
    F = amls.aligned(np.asfortranarray(X))         # made C-contiguous
    assert F.flags.c_contiguous and F.ctypes.data % amls.ALIGNMENT == 0
    np.testing.assert_array_equal(F, X)
    ints = amls.aligned([[1, 2], [3, 4]], dtype=np.int64)
    assert ints.dtype == np.int64 and ints.ctypes.data % 64 == 0
    # The same results from aligned and NumPy-allocated inputs.
    f = amls.Session(threads=2).compile_dml("s = sum(X * X)\nr = rowSums(X)")
    a, b = f(X=A), f(X=X)
    assert a["s"] == pytest.approx(b["s"], rel=1e-14)
    np.testing.assert_allclose(a["r"], b["r"], rtol=1e-14)


def test_results_own_the_programs_buffer(session):
    X, y = data()
    out = session.compile_dml(GRAM)(X=X, y=y)
    G = out["G"]
    # A view over the program's buffer, kept alive by a capsule: no copy.
    assert not G.flags.owndata
    assert type(G.base).__name__ == "PyCapsule"
    del out
    np.testing.assert_allclose(G, X.T @ X, rtol=1e-12)
    G[0, 0] = 1.0                                  # writable, ours now


def test_scalars_booleans_and_arguments(session):
    f = session.compile_dml("n = $k + 1\nbig = x > 10\nh = x / 2\n")
    out = f(k=41, x=12.5)
    assert out == {"n": 42.0, "big": True, "h": 6.25}
    assert isinstance(out["big"], bool)
    assert f(k=1, x=3.0)["big"] is False


def test_string_arguments_bind_dollar_names(session, tmp_path):
    # A string binds $name as amls-run's --arg: here the file the script
    # reads and writes.
    X, _ = data(rows=6, cols=3)
    np.savetxt(tmp_path / "X.csv", X, delimiter=",")
    f = session.compile_dml('A = read($X)\nwrite(A * 2, $out, format="csv")\n'
                            's = sum(A)\n')
    out = f(X=str(tmp_path / "X.csv"), out=str(tmp_path / "Y.csv"))
    assert out["s"] == pytest.approx(X.sum(), rel=1e-12)
    np.testing.assert_allclose(np.loadtxt(tmp_path / "Y.csv", delimiter=","),
                               2 * X, rtol=1e-12)


def test_outputs_restrict_the_results(session):
    X, y = data()
    out = session.compile_dml(GRAM, outputs=["s"])(X=X, y=y)
    assert list(out) == ["s"]


def test_same_shapes_never_recompile():
    s = amls.Session(threads=1)
    f = s.compile_dml(GRAM)
    for seed in range(5):
        X, y = data(seed=seed)
        check_gram(f(X=X, y=y), X, y)
    stats = s.stats()
    assert stats["runs"] == 5
    assert stats["compilations"] == 1 and stats["cache_hits"] == 4
    X, y = data(rows=80)
    f(X=X, y=y)
    assert s.stats()["compilations"] == 2
    assert set(stats) >= {"optimize_ms", "compile_ms", "execute_ms",
                          "peak_memory_bytes"}


def test_compile_mlir_binds_by_name(session):
    g = session.compile_mlir("""
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %w: f64 {amls.name = "w"}) -> !amls.matrix<?x?xf64> {
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s = amls.mul %t, %w : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %s : !amls.matrix<?x?xf64>
}""")
    X, _ = data()
    assert g.parameters == ["X", "w"]
    np.testing.assert_allclose(g(X=X, w=3.0)["result0"], 3.0 * X.T)
    with pytest.raises(TypeError, match="unknown argument 'Y'"):
        g(X=X, w=1.0, Y=X)
    with pytest.raises(TypeError, match="missing argument 'w'"):
        g(X=X)
    with pytest.raises(TypeError, match="argument 'w': expected a scalar"):
        g(X=X, w=X)


def test_arrays_off_a_cache_line():
    # A large array passed in place that starts k cells past a 64-byte
    # boundary (NumPy's start 2 past one) is compiled for the first call's
    # offset: the full reductions over it start their blocks on the next
    # boundary. Calls with arrays at other offsets, or X and Y at different
    # ones, reuse that code (never a recompilation). The integer-valued sums
    # are exact in any order, so each must give NumPy's value exactly.
    s = amls.Session(threads=2)
    f = s.compile_dml("t = sum(X * Y)\nu = sum(X)\n")
    n = 100003
    xs = amls.aligned(np.zeros(n + 8))
    ys = amls.aligned(np.zeros(n + 8))
    values = np.arange(n + 8) % 97.0
    xs[:], ys[:] = values, values[::-1]
    for k in (2, 0, 1, 3, 4, 5, 6, 7):
        X, Y = xs[k:k + n].reshape(n, 1), ys[k:k + n].reshape(n, 1)
        assert X.ctypes.data % 64 == 8 * k
        out = f(X=X, Y=Y)
        assert out["t"] == np.sum(X * Y) and out["u"] == np.sum(X)
    mixed = f(X=xs[2:2 + n].reshape(n, 1), Y=ys[5:5 + n].reshape(n, 1))
    assert mixed["t"] == np.sum(xs[2:2 + n] * ys[5:5 + n])
    assert s.stats()["compilations"] == 1
    # A session whose first call has X and Y at different offsets compiles
    # no head (no offset fits both), and is as exact.
    s2 = amls.Session(threads=2)
    g = s2.compile_dml("t = sum(X * Y)\n")
    assert g(X=xs[2:2 + n].reshape(n, 1),
             Y=ys[5:5 + n].reshape(n, 1))["t"] == mixed["t"]


def test_errors_carry_the_position(session):
    with pytest.raises(amls.CompileError,
                       match=r"\.dml:2:9: error: undefined variable 'Z'"):
        session.compile_dml("a = 1\nb = X + Z\n")(X=np.ones((2, 2)))
    with pytest.raises(amls.CompileError, match=r"custom op 'amls.nope'"):
        session.compile_mlir("func.func @main() {\n  amls.nope\n}\n")
    with pytest.raises(TypeError, match="argument 'X': expected a NumPy"):
        session.compile_dml("a = X")(X={"not": "a matrix"})
    # A string binds $X, not the variable X.
    with pytest.raises(amls.CompileError, match="undefined variable 'X'"):
        session.compile_dml("a = X")(X="text")
    with pytest.raises(ValueError, match="expected fusion"):
        amls.Session(fusion="everything")


def test_run_failures_raise_and_the_session_goes_on():
    s = amls.Session(threads=2)
    f = s.compile_dml('if (n > 2) { stop("n is too large: " + n) }\n'
                      'y = n * 2\n')
    assert f(n=1) == {"y": 2.0}
    with pytest.raises(amls.RunError, match="stop: n is too large: 5"):
        f(n=5)
    # The same compiled function, and the session, still work.
    assert f(n=2) == {"y": 4.0}
    g = s.compile_dml("i = n + 1\nv = as.scalar(X[i, 1])\n")
    with pytest.raises(amls.RunError,
                       match=r"'amls.slice' at .*\.dml:2:16: row range is "
                             r"out of bounds"):
        g(X=np.ones((3, 3)), n=5)
    assert g(X=np.arange(9.0).reshape(3, 3), n=1)["v"] == 3.0
    with pytest.raises(amls.RunError, match="cannot open the file"):
        s.compile_dml("X = read($path)\nt = sum(X)\n")(
            path="/nonexistent/amls/x.csv")
    # A run failure is an amls.Error, not a CompileError.
    assert issubclass(amls.RunError, amls.Error)
    assert not issubclass(amls.RunError, amls.CompileError)
    stats = s.stats()
    assert stats["failed_runs"] == 3 and stats["runs"] == 6


MEMORY_LIMIT_SCRIPT = """
import amls
s = amls.Session(threads=1, memory_limit=1 << 20)
f = s.compile_dml("Y = matrix(1, rows=n, cols=n)\\nt = sum(Y)\\n")
try:
    f(n=1000)                  # 8 MB, over the 1 MiB limit, known at run time
except amls.RunError as error:
    print("RunError:", error)
print("t =", f(n=100)["t"])
"""


def test_run_failure_of_the_memory_limit():
    # The memory limit is process-wide: in a process of its own.
    run = subprocess.run([sys.executable, "-c", MEMORY_LIMIT_SCRIPT],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "RunError:" in run.stdout and "out of memory: 8000000 bytes" in \
        run.stdout
    assert "t = 10000.0" in run.stdout


PARFOR_FAILURE = ("R = matrix(0, rows=400, cols=1)\n"
                  "parfor (i in 1:400) {\n"
                  "  if (i == bad) { stop(\"failed at \" + i) }\n"
                  "  R[i, 1] = sum(rand(rows=100, cols=100, seed=i))\n"
                  "}\n")

# A parallel loop (an OpenMP region) whose iteration 700 fails its check.
PARALLEL_LOOP_FAILURE = """
llvm.mlir.global internal constant @msg("iteration 700 failed\\00")
func.func private @amls_rt_check(i32, !llvm.ptr)
func.func @main(%bad: index {amls.name = "bad"}) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ne = arith.cmpi ne, %i, %bad : index
    %ok = arith.extui %ne : i1 to i32
    %p = llvm.mlir.addressof @msg : !llvm.ptr
    func.call @amls_rt_check(%ok, %p) : (i32, !llvm.ptr) -> ()
    scf.reduce
  }
  %r = arith.constant 2.5 : f64
  return %r : f64
}
"""


def test_a_failure_in_a_parallel_region_returns():
    # stop() in one of a parfor's workers, and a check failing on a thread
    # of a parallel loop: the region's threads join, the run raises, and
    # the process and the session go on.
    s = amls.Session(threads=2)
    f = s.compile_dml(PARFOR_FAILURE)
    for _ in range(3):
        with pytest.raises(amls.RunError, match="stop: failed at 300"):
            f(bad=300)
    # The same program completes, as on one thread (the differential
    # oracle: the parfor's plan changes nothing but the threads).
    parallel = f(bad=0)["R"]
    sequential = amls.Session(threads=1).compile_dml(PARFOR_FAILURE)(bad=0)
    np.testing.assert_array_equal(parallel, sequential["R"])
    g = s.compile_mlir(PARALLEL_LOOP_FAILURE)
    with pytest.raises(amls.RunError, match="iteration 700 failed"):
        g(bad=700)
    assert g(bad=-1) == {"result0": 2.5}
    stats = s.stats()
    assert stats["failed_runs"] == 4 and stats["runs"] == 6


SPARSE = "y = A %*% x\nt = sum(A)\nc = colSums(A)\nB = A * 2\n"


def test_scipy_sparse_inputs_against_dense():
    scipy_sparse = scipy.sparse
    s = amls.Session(threads=2)
    f = s.compile_dml(SPARSE)
    A = scipy_sparse.random(300, 200, density=0.02, format="csr",
                            random_state=3)
    x = np.random.default_rng(3).standard_normal((200, 1))
    dense = f(A=A.toarray(), x=x)
    for given in (A, A.tocoo(), A.tocsc(), A.astype(np.float32),
                  scipy_sparse.csr_matrix((A.data, A.indices.astype(np.int64),
                                           A.indptr), shape=A.shape)):
        out = f(A=given, x=x)
        expected = given.astype(np.float64).toarray()
        np.testing.assert_allclose(out["y"], expected @ x, rtol=1e-12,
                                   atol=1e-12)
        assert out["t"] == pytest.approx(expected.sum(), rel=1e-12)
        np.testing.assert_allclose(out["c"], expected.sum(axis=0,
                                                          keepdims=True),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(out["B"], 2 * expected, rtol=0, atol=0)
    # Dense and CSR inputs: the same results (differential).
    out = f(A=A, x=x)
    np.testing.assert_allclose(out["y"], dense["y"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out["B"], dense["B"], rtol=0, atol=0)
    # Duplicates and unsorted columns are summed and sorted first.
    messy = scipy_sparse.coo_matrix(([1.0, 2.0, 3.0], ([0, 0, 1], [2, 2, 0])),
                                    shape=(2, 3))
    assert f(A=messy, x=np.ones((3, 1)))["t"] == 6.0


def test_a_large_sparse_input_is_never_dense():
    # 10^6 x 10^6 with 2 * 10^6 non-zeros: 8 TB dense, 24 MB as CSR.
    scipy_sparse = scipy.sparse
    n, k = 1_000_000, 2_000_000
    rng = np.random.default_rng(4)
    A = scipy_sparse.csr_matrix(
        (rng.random(k), (rng.integers(0, n, k), rng.integers(0, n, k))),
        shape=(n, n))
    x = np.ones((n, 1))
    s = amls.Session(threads=2)
    out = s.compile_dml("y = A %*% x\n")(A=A, x=x)
    np.testing.assert_allclose(out["y"][:, 0], A @ x[:, 0], rtol=1e-12)
    # The result (8 MB) and the kernels' scratch, not a copy of A.
    assert s.stats()["peak_memory_bytes"] < 64 << 20


def test_csr_results_against_scipy():
    scipy_sparse = scipy.sparse
    A = scipy_sparse.random(300, 200, density=0.02, format="csr",
                            random_state=5)
    x = np.random.default_rng(5).standard_normal((200, 1))
    script = "B = A * 2\nT = t(A)\nP = A * A\nI = A\ny = A %*% x\n"
    sparse = amls.Session(threads=2, csr_results=True).compile_dml(script)
    dense = amls.Session(threads=2).compile_dml(script)
    out, reference = sparse(A=A, x=x), dense(A=A, x=x)
    expected = {"B": 2 * A, "T": A.T, "P": A.multiply(A), "I": A}
    # The input returned as it is comes back as the program's own copy.
    assert not np.shares_memory(out["I"].data, A.data)
    for name, matrix in expected.items():
        result = out[name]
        assert scipy_sparse.isspmatrix_csr(result), name
        assert result.shape == matrix.shape
        assert result.has_sorted_indices
        np.testing.assert_allclose(result.toarray(), matrix.toarray(),
                                   rtol=1e-15, atol=0)
        # The same cells as the dense result (differential), and the
        # values are the program's buffer, not a copy.
        np.testing.assert_array_equal(result.toarray(), reference[name])
        assert not result.data.flags.owndata
        assert not result.indices.flags.owndata
    # A dense result stays a NumPy array.
    assert isinstance(out["y"], np.ndarray)
    np.testing.assert_allclose(out["y"], A @ x, rtol=1e-12, atol=1e-12)
    # The arrays outlive the function and the session's other results.
    B = out["B"]
    del out, sparse
    np.testing.assert_allclose(B.toarray(), 2 * A.toarray(), rtol=0, atol=0)


def test_bad_sparse_inputs():
    scipy_sparse = scipy.sparse
    s = amls.Session(threads=1)
    f = s.compile_dml("t = sum(A)\n")
    unsorted = scipy_sparse.csr_matrix(
        (np.array([1.0, 2.0]), np.array([1, 0], dtype=np.int32),
         np.array([0, 2])), shape=(1, 3))
    unsorted.has_canonical_format = True      # claims what it is not
    with pytest.raises(amls.CompileError,
                       match="row 1's column indices are not ascending"):
        f(A=unsorted)


TYPED = """
func.func @main(%X: !amls.matrix<?x?xf32> {amls.name = "X"},
                %N: !amls.matrix<?x?xi64> {amls.name = "N"})
    -> (f32 {amls.name = "s"}, i64 {amls.name = "n"}) {
  %0 = amls.agg sum all %X : !amls.matrix<?x?xf32> -> f32
  %1 = amls.agg sum all %N : !amls.matrix<?x?xi64> -> i64
  return %0, %1 : f32, i64
}
"""


def test_float32_and_int64_matrices_of_ir_functions():
    # An IR function's f32 and i64 parameters take such arrays in place:
    # integers above 2^53, which f64 cannot hold, sum exactly.
    f = amls.Session(threads=1).compile_mlir(TYPED)
    X = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    big = 2 ** 53 + 1
    N = np.array([[big, 1], [2, -big]], dtype=np.int64)
    out = f(X=X, N=N)
    assert out == {"s": 16.5, "n": 3}
    # Other layouts and types are converted once, to the parameter's type.
    out = f(X=np.asfortranarray(X), N=np.array([[big, 3]], dtype=np.int64))
    assert out["s"] == 16.5 and out["n"] == big + 3
    assert f(X=X.astype(np.float64), N=np.ones((2, 2)))["n"] == 4


def test_gpu_target_runs_or_says_why_not():
    # Without a usable GPU (this project's CI) the session says why; with
    # one, a program runs there and agrees with the CPU.
    with pytest.raises(ValueError, match="expected target 'cpu', 'gpu' or 'mpi'"):
        amls.Session(target="tpu")
    X, _ = data(rows=400, cols=30, seed=5)
    script = "s = sum(X * X)\nR = rowSums(X)\n"
    try:
        gpu = amls.Session(target="gpu")
    except ValueError as error:
        assert re.search(r"--target=gpu: (no CUDA driver|no CUDA device|"
                         r"this AMLS was built without the CUDA runtime)",
                         str(error)), str(error)
        return
    cpu = amls.Session().compile_dml(script)(X=X)
    out = gpu.compile_dml(script)(X=X)
    assert out["s"] == pytest.approx(cpu["s"], rel=1e-12)
    np.testing.assert_allclose(out["R"], cpu["R"], rtol=1e-12)
    assert gpu.stats()["input_copies"] == 1
    assert gpu.stats()["input_copy_bytes"] == X.nbytes


def test_two_threads_two_sessions():
    # Each thread its own session; the GIL is released while AMLS runs.
    results, errors = {}, []

    def work(k):
        try:
            s = amls.Session(threads=1)
            f = s.compile_dml(GRAM)
            for seed in range(4):
                X, y = data(rows=300, seed=10 * k + seed)
                check_gram(f(X=X, y=y), X, y)
            results[k] = s.stats()["runs"]
        except Exception as error:             # reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert results == {0: 4, 1: 4}
