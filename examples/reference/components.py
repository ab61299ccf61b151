"""Reference for examples/components.dml (connected components by label
propagation).

generate(directory, size) writes a random undirected graph with a known set
of components (and a few self-loops, which the script must remove) as Matrix
Market; reference(args) labels every vertex with the largest vertex id of its
component, found independently by SciPy's breadth-first connected_components.
"""

import os

import numpy as np
import scipy.io
import scipy.sparse
import scipy.sparse.csgraph

SCRIPT = "components.dml"
TOLERANCE = (0.0, 0.0)  # labels are integers: exact

SIZES = {
    "small": dict(vertices=600, components=12, isolated=5, seed=31),
    "large": dict(vertices=5000, components=50, isolated=100, seed=32),
}


def generate(directory, size="small"):
    spec = SIZES[size]
    rng = np.random.default_rng(spec["seed"])
    n = spec["vertices"]
    order = rng.permutation(n)  # vertex ids carry no hint of the components
    connected = n - spec["isolated"]
    cuts = np.sort(rng.choice(np.arange(1, connected), spec["components"] - 1,
                              replace=False))
    edges = []
    for part in np.split(order[:connected], cuts):
        # A random spanning tree keeps each part connected; chords add cycles.
        for i in range(1, len(part)):
            edges.append((part[i], part[rng.integers(i)]))
        for _ in range(len(part) // 2):
            a, b = rng.choice(part, 2)
            if a != b:
                edges.append((a, b))
    rows = [a for a, b in edges] + [b for a, b in edges]
    cols = [b for a, b in edges] + [a for a, b in edges]
    loops = rng.choice(n, 3, replace=False)
    rows += list(loops)
    cols += list(loops)
    G = scipy.sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    G.data[:] = 1.0  # duplicate edges count once
    path = os.path.join(directory, "G.mtx")
    scipy.io.mmwrite(path, G, field="real", symmetry="general")
    return {"G": path, "C": os.path.join(directory, "C.csv"), "verbose": True}


def reference(args):
    G = scipy.io.mmread(args["G"]).tocsr()
    count, labels = scipy.sparse.csgraph.connected_components(G, directed=False)
    ids = np.arange(1, G.shape[0] + 1)
    largest = np.zeros(count)
    np.maximum.at(largest, labels, ids)
    return {args["C"]: largest[labels][:, None]}


def check_output(text, args):
    G = scipy.io.mmread(args["G"]).tocsr()
    count, _ = scipy.sparse.csgraph.connected_components(G, directed=False)
    # sum() is a double, printed as DML prints doubles (17.0).
    expected = f"Connected components: {count}.0 components among {G.shape[0]} vertices"
    if expected not in text:
        return f"expected the line '{expected}'"
    if "removed self-edges" not in text:
        return "expected the warning about removed self-edges"
    return None
