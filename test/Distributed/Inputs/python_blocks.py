"""A distributed session from Python (mpirun -np N python3 this.py): each
rank passes its row blocks of X and y to a compiled DML function and gets
the whole results, which must match NumPy on the whole matrices (1e-9),
on every rank. Then what a caller gets wrong: blocks that are not the
ranks' shares, blocks of different widths, a rank whose argument is
rejected, and a row block in a session that is not distributed; each is
an error on every rank, and no rank hangs. Rank 0 prints one line per
check; any other outcome exits non-zero."""

import argparse
import sys

import numpy as np
import scipy.sparse

import amls

PROGRAM = """
A = t(X) %*% X + diag(matrix(0.5, ncol(X), 1))
b = t(X) %*% y
beta = solve(A, b)
r = y - X %*% beta
rss = sum(r ^ 2)
n = nrow(X)
means = colMeans(X)
top = max(X)
fitted = X %*% beta
"""

INTEGER_PARAMETER = """
func.func @main(%K: !amls.matrix<?x?xi64> {amls.name = "K"})
    -> (i64 {amls.name = "total"}) {
  %s = amls.agg sum all %K : !amls.matrix<?x?xi64> -> i64
  return %s : i64
}"""


def oracle(X, y):
    X = X.toarray() if scipy.sparse.issparse(X) else X
    beta = np.linalg.solve(X.T @ X + 0.5 * np.eye(X.shape[1]), X.T @ y)
    r = y - X @ beta
    return {"beta": beta, "rss": float((r ** 2).sum()), "n": X.shape[0],
            "means": X.mean(axis=0, keepdims=True), "top": float(X.max()),
            "fitted": X @ beta}


def close(name, got, want):
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    if got.shape != want.shape or not np.all(np.isfinite(got)) or \
            not np.allclose(got, want, rtol=1e-9, atol=1e-9):
        sys.exit(f"rank mismatch on {name}: got {got!r}, expected {want!r}")


def expect_error(call, words):
    try:
        call()
    except amls.CompileError as error:
        if all(word in str(error) for word in words):
            return str(error)
        sys.exit(f"unexpected message: {error}")
    sys.exit(f"expected an error saying {words}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--density", type=float, default=1.0)
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args()

    session = amls.Session(distributed=True, threads=1)
    rank, ranks = session.rank, session.num_ranks
    report = print if rank == 0 else (lambda *a, **k: None)
    rng = np.random.default_rng(43)
    n, d = args.rows, args.cols
    X = rng.standard_normal((n, d))
    if args.density < 1.0:
        X = scipy.sparse.random(n, d, density=args.density, format="csr",
                                random_state=43, data_rvs=rng.standard_normal)
        X = X.tocsr()
    y = rng.standard_normal((n, 1))
    mine = session.row_range(n)
    f = session.compile_dml(PROGRAM)
    want = oracle(X, y)
    for call in range(2):
        got = f(X=amls.RowBlock(X[mine]), y=amls.RowBlock(y[mine]))
        for name, value in want.items():
            close(name, got[name], value)
    stats = session.stats()
    if stats["compilations"] != 1 or stats["cache_hits"] != 1:
        sys.exit(f"expected one compilation and one cache hit: {stats}")
    block_rows = X[mine].shape[0]
    report(f"python row blocks: {ranks} rank(s), {n}x{d}"
           f"{' CSR' if args.density < 1.0 else ''}, rank 0 holds "
           f"{block_rows} rows: as NumPy, compiled once")

    if not args.errors:
        return
    # The boundaries between the blocks one row later: rank 0 holds one
    # row more than its share.
    shifted = slice(mine.start + (rank > 0),
                    mine.stop + (rank < ranks - 1))
    message = expect_error(
        lambda: f(X=amls.RowBlock(X[shifted]), y=amls.RowBlock(y[shifted])),
        ["row blocks of 'X'", "not the ranks' shares", "rank 0 of",
         "row_range"])
    report("not the shares:", message.splitlines()[0])
    # Rank 1's block is one column narrower.
    narrow = X[mine] if rank != 1 else X[mine][:, :d - 1]
    message = expect_error(
        lambda: f(X=amls.RowBlock(narrow), y=amls.RowBlock(y[mine])),
        ["row blocks of 'X' have", "columns on different ranks"])
    report("widths:", message.splitlines()[0])
    # Rank 1's block is CSR, rank 0's dense: the ranks would compile
    # different code.
    mixed = X[mine] if rank != 1 else scipy.sparse.csr_matrix(X[mine])
    message = expect_error(
        lambda: f(X=amls.RowBlock(mixed), y=amls.RowBlock(y[mine])),
        ["row blocks of 'X' are CSR on some ranks and dense on others"])
    report("formats:", message.splitlines()[0])
    # Rank 1 passes 0.5 for an integer matrix: it says why, the others that
    # it was rejected.
    g = session.compile_mlir(INTEGER_PARAMETER)
    K = np.arange(n, dtype=np.float64).reshape(n, 1)
    if rank == 1:
        K[mine.start] = 0.5
    words = ["expected an integer"] if rank == 1 else \
        ["another rank's arguments were rejected"]
    message = expect_error(lambda: g(K=amls.RowBlock(K[mine])), words)
    report("rejected:", message.splitlines()[0])
    # And the same program on good blocks still runs.
    K = np.arange(n, dtype=np.float64).reshape(n, 1)
    total = g(K=amls.RowBlock(K[mine]))["total"]
    close("total", total, n * (n - 1) / 2)
    report(f"integer blocks: total {total:g}")
    # A row block needs a distributed session.
    local = amls.Session(threads=1).compile_dml(PROGRAM)
    message = expect_error(
        lambda: local(X=amls.RowBlock(X[mine]), y=amls.RowBlock(y[mine])),
        ["'X' was given a block of rows", "target 'mpi'",
         "this session's target is 'cpu'"])
    report("not distributed:", message.splitlines()[0])
    try:
        amls.Session(distributed=True, target="gpu")
    except ValueError as error:
        report("target:", error)
    else:
        sys.exit("distributed=True with target 'gpu' was accepted")


if __name__ == "__main__":
    main()
