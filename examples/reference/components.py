"""Reference for examples/components.dml (connected components by label
propagation).

generate(directory, size) writes a random undirected graph with a known set
of components (and a few self-loops, which the script must remove) as Matrix
Market; reference(args) labels every vertex with the largest vertex id of its
component, found independently by SciPy's breadth-first connected_components.
"""

import os

import numpy as np

import common
import scipy.io
import scipy.sparse
import scipy.sparse.csgraph

SCRIPT = "components.dml"
TOLERANCE = (0.0, 0.0)  # labels are integers: exact

SIZES = {
    "small": dict(vertices=600, components=12, isolated=5, chords=0.5,
                  seed=31),
    # The scale: 1,000,000 vertices, about 10,000,000 links (both
    # directions of each edge), read and run sparse (CSR) within 2 GB.
    "large": dict(vertices=1_000_000, components=50, isolated=1000, chords=4,
                  seed=32),
}


def generate(directory, size="small"):
    spec = SIZES[size]
    rng = np.random.default_rng(spec["seed"])
    n = spec["vertices"]
    order = rng.permutation(n)  # vertex ids carry no hint of the components
    connected = n - spec["isolated"]
    cuts = np.sort(rng.choice(np.arange(1, connected), spec["components"] - 1,
                              replace=False))
    parts = np.split(order[:connected], cuts)
    starts = np.concatenate([[0], cuts])
    lengths = np.diff(np.concatenate([starts, [connected]]))
    # A random spanning tree keeps each part connected (vertex i of a part
    # links to a random earlier one); chords between random vertices of the
    # same part add cycles.
    part_of = np.repeat(np.arange(len(parts)), lengths)
    position = np.arange(connected) - starts[part_of]
    tree = position > 0
    parent = starts[part_of[tree]] + np.floor(
        rng.random(tree.sum()) * position[tree]).astype(np.int64)
    chords = int(connected * spec["chords"])
    a = rng.integers(0, connected, chords)
    b = starts[part_of[a]] + np.floor(
        rng.random(chords) * lengths[part_of[a]]).astype(np.int64)
    first = np.concatenate([np.flatnonzero(tree), a[a != b]])
    second = np.concatenate([parent, b[a != b]])
    first, second = order[first], order[second]
    loops = rng.choice(n, 3, replace=False)
    rows = np.concatenate([first, second, loops])
    cols = np.concatenate([second, first, loops])
    path = os.path.join(directory, "G.mtx")
    common.write_mtx(path, (n, n), rows, cols)  # duplicate edges count once
    return {"G": path, "C": os.path.join(directory, "C.csv"), "verbose": True}


def reference(args):
    G = common.read_mtx(args["G"])
    count, labels = scipy.sparse.csgraph.connected_components(G, directed=False)
    ids = np.arange(1, G.shape[0] + 1)
    largest = np.zeros(count)
    np.maximum.at(largest, labels, ids)
    return {args["C"]: largest[labels][:, None]}


def check_output(text, args):
    G = common.read_mtx(args["G"])
    count, _ = scipy.sparse.csgraph.connected_components(G, directed=False)
    # sum() is a double, printed as DML prints doubles (17.0).
    expected = f"Connected components: {count}.0 components among {G.shape[0]} vertices"
    if expected not in text:
        return f"expected the line '{expected}'"
    if "removed self-edges" not in text:
        return "expected the warning about removed self-edges"
    return None
