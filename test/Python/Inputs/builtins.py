"""The DML library from Python: lm, l2svm, multiLogReg, kmeans and pca
called through amls.Session on NumPy arrays, against the oracles of
test/Oracles/library_builtins.py; a `builtins` folder searched before
AMLS's own (its lm.dml shadows the library's); a folder that is not one.

  builtins.py SOURCE_ROOT    (amls from PYTHONPATH: the build tree's
                              package or an installed one)
"""
import os
import sys
import tempfile

import numpy as np

import amls

sys.path.insert(0, os.path.join(sys.argv[1], "test", "Oracles"))
import library_builtins as oracle  # noqa: E402

d = oracle.data()
session = amls.Session(threads=2)
results = session.compile_dml(oracle.SCRIPT)(
    **{name: d[name] for name in oracle.INPUTS})
print("\n".join(oracle.check(results, d)))

with tempfile.TemporaryDirectory() as folder:
    with open(os.path.join(folder, "lm.dml"), "w") as out:
        out.write(oracle.SHADOW_LM)
    own = amls.Session(builtins=folder)
    B = own.compile_dml("B = lm(X=X, y=y)")(X=d["X"], y=d["y"])["B"]
    print("shadowed lm:", "PASS" if np.array_equal(
        B, np.full((5, 1), 42.0)) else f"FAIL {B.ravel()}")
try:
    amls.Session(builtins="/no/such/folder")
    print("FAIL: a missing builtins folder was accepted")
except ValueError as error:
    print("missing folder:", error)
