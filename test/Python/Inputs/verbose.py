"""Progress and timing from Python: Session(verbose=True) reports each
program's compile and run times on stderr, a callable gets them as a dict,
and an estimator's verbose=1 prints the library's iterations with their
objective."""
import numpy as np

import amls
from amls.sklearn import LinearSVC

rng = np.random.default_rng(5)
X = rng.random((200, 4))
amls.set_session(amls.Session(verbose=True))
value = amls.array(X)
for _ in range(2):  # compiled once, then from the cache
    total = float(value.sum() * amls.scalar(2.0))
print("sum:", np.isclose(total, 2 * X.sum()), flush=True)

runs = []
session = amls.Session(verbose=runs.append)
script = session.compile_dml("s = sum(X ^ 2)")
for _ in range(3):
    script(X=X)
print("callback runs:", len(runs), "compilations:",
      [run["compilations"] for run in runs],
      "times are numbers:", all(run["execute_ms"] >= 0 and
                                (run["compile_ms"] > 0) ==
                                (run["compilations"] > 0) for run in runs),
      flush=True)

y = np.where(X[:, 0] + X[:, 1] > 1, 1, -1)
amls.set_session(amls.Session())
LinearSVC(C=1.0, verbose=1).fit(X, y)
