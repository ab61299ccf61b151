#!/usr/bin/python3
"""Reading and encoding a mixed CSV: AMLS against pandas + scikit-learn,
in one run (issue 46).

The data: ROWS rows of 20 columns, 10 string columns of 10 to 10,000
distinct tokens and 10 numeric columns with 5% missing values, written once
(cached under build/bench/frames/). The work, on each side:
  - read the CSV with its header;
  - recode the 8 string columns of 30 to 10,000 tokens, dummy-code the two
    of 10 tokens, impute the numeric columns by their mean and bin five of
    them (equi-width, 10 bins);
  - the encoded matrix (dense, 38 columns) is summed, so that neither side
    can skip work;
  - then, end to end, a linear regression of the last encoded column (n9,
    imputed) on the others: AMLS's lm (a direct solve), scikit-learn's
    LinearRegression without intercept.
AMLS: amls-run on a DML script (read(data_type="frame") + transformencode),
the execute time (--timing: no compile), at THREADS threads. The peer:
pandas.read_csv, then scikit-learn's OrdinalEncoder, OneHotEncoder,
SimpleImputer and KBinsDiscretizer in a ColumnTransformer, in a process of
its own. Both sides' peak memory is each process's maximum resident size.

  /usr/bin/python3 bench/frames.py --amls-run build/bin/amls-run
                                   [--rows 1000000] [--threads 2]
"""

import argparse
import os
import re
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DISTINCT = [10, 10, 30, 100, 300, 1000, 3000, 10000, 100, 1000]
STRINGS = [f"s{j}" for j in range(10)]
NUMBERS = [f"n{j}" for j in range(10)]
RECODED = STRINGS[2:]
DUMMY = STRINGS[:2]
BINNED = NUMBERS[:5]


def write_data(path, rows):
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(46)
    columns = {}
    for name, distinct in zip(STRINGS, DISTINCT):
        tokens = np.array([f"{name}_{k}" for k in range(distinct)])
        columns[name] = tokens[rng.integers(0, distinct, rows)]
    for name in NUMBERS:
        values = rng.normal(100, 30, rows).round(3)
        values[rng.random(rows) < 0.05] = np.nan
        columns[name] = values
    pd.DataFrame(columns).to_csv(path, index=False, na_rep="")


def spec():
    quoted = lambda names: ", ".join(f'"{n}"' for n in names)
    bins = ", ".join(f'{{"name": "{n}", "method": "equi-width", '
                     f'"numbins": 10}}' for n in BINNED)
    impute = ", ".join(f'{{"name": "{n}", "method": "global_mean"}}'
                       for n in NUMBERS)
    return (f'{{"recode": [{quoted(RECODED)}], "dummycode": '
            f'[{quoted(DUMMY)}], "bin": [{bins}], "impute": [{impute}]}}')


PEER = textwrap.dedent("""
    import resource, sys, time
    import numpy as np, pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import (KBinsDiscretizer, OneHotEncoder,
                                       OrdinalEncoder)
    path, recoded, dummy, binned, numbers = sys.argv[1], *[
        a.split(",") for a in sys.argv[2:6]]
    start = time.perf_counter()
    df = pd.read_csv(path)
    read = time.perf_counter() - start
    rest = [n for n in numbers if n not in binned]
    encoder = ColumnTransformer([
        ("recode", OrdinalEncoder(), recoded),
        ("dummy", OneHotEncoder(sparse_output=False), dummy),
        ("bin", make_pipeline(SimpleImputer(strategy="mean"),
                              KBinsDiscretizer(n_bins=10, encode="ordinal",
                                               strategy="uniform",
                                               subsample=None)), binned),
        ("impute", SimpleImputer(strategy="mean"), rest)])
    X = encoder.fit_transform(df)
    total = time.perf_counter() - start
    from sklearn.linear_model import LinearRegression
    model = LinearRegression(fit_intercept=False).fit(X[:, :-1], X[:, -1])
    trained = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{read} {total} {X.shape[1]} {float(X.sum())} {peak} {trained}")
""")


def run_peer(path):
    out = subprocess.run([sys.executable, "-c", PEER, path, ",".join(RECODED),
                          ",".join(DUMMY), ",".join(BINNED),
                          ",".join(NUMBERS)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"the pandas/scikit-learn run failed:\n{out.stderr}")
    read, total, cols, total_sum, peak, trained = out.stdout.split()
    return (float(read), float(total), int(cols), float(total_sum),
            float(peak), float(trained))


def run_amls(amls_run, directory, path, threads, train=False):
    script = os.path.join(directory, "train.dml" if train else "encode.dml")
    with open(os.path.join(directory, "spec.json"), "w") as f:
        f.write(spec())
    with open(script, "w") as f:
        f.write(f'F = read("{path}", data_type="frame", format="csv", '
                f'header=TRUE)\n'
                f'spec = read("{directory}/spec.json", data_type="scalar", '
                f'value_type="string")\n'
                '[X, M] = transformencode(target=F, spec=spec)\n'
                'print(ncol(X) + " " + sum(X))\n')
        if train:
            f.write('B = lm(X=X[, 1:ncol(X) - 1], y=X[, ncol(X)], '
                    'verbose=FALSE)\nprint(sum(B))\n')
    command = ["/usr/bin/time", "-f", "peak-kib %M", amls_run, script,
               "--threads", str(threads), "--timing"]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"amls-run failed:\n{out.stderr}")
    execute = re.search(r"execute ([0-9.]+)", out.stderr)
    peak = re.search(r"peak-kib (\d+)", out.stderr)
    cols, total_sum = out.stdout.split()[:2]
    return (float(execute.group(1)) / 1e3, int(cols), float(total_sum),
            int(peak.group(1)) / 1024)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--amls-run",
                        default=os.path.join(ROOT, "build", "bin", "amls-run"))
    parser.add_argument("--rows", type=int, default=1000000)
    parser.add_argument("--threads", type=int, default=2)
    options = parser.parse_args()
    directory = os.path.join(ROOT, "build", "bench", "frames")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"mixed-{options.rows}.csv")
    if not os.path.exists(path):
        print(f"writing {path} ...", flush=True)
        write_data(path, options.rows)
    size = os.path.getsize(path) / 2**20
    print(f"{options.rows} rows x 20 columns, {size:.0f} MiB of CSV")

    read, peer, peer_cols, peer_sum, peer_peak, peer_trained = run_peer(path)
    amls, cols, amls_sum, amls_peak = run_amls(options.amls_run, directory,
                                               path, options.threads)
    amls_trained, _, _, trained_peak = run_amls(
        options.amls_run, directory, path, options.threads, train=True)
    if cols != peer_cols:
        sys.exit(f"the encodings differ in width: AMLS {cols}, "
                 f"scikit-learn {peer_cols}")
    print(f"{'':34s} {'seconds':>8s} {'peak MiB':>9s}")
    print(f"{'pandas read_csv':34s} {read:8.2f}")
    print(f"{'pandas + scikit-learn, encoded':34s} {peer:8.2f} "
          f"{peer_peak:9.0f}")
    print(f"{f'AMLS read + transformencode, {options.threads} thr':34s} "
          f"{amls:8.2f} {amls_peak:9.0f}")
    print(f"{'pandas + scikit-learn, + regression':34s} {peer_trained:8.2f}")
    print(f"{'AMLS, + lm':34s} {amls_trained:8.2f} {trained_peak:9.0f}")
    print(f"end to end with the regression: {peer_trained / amls_trained:.2f}x")
    print(f"AMLS speed-up over pandas + scikit-learn: {peer / amls:.2f}x "
          f"({cols} encoded columns; sums {amls_sum:.6g} vs {peer_sum:.6g}, "
          "which differ by the codes' order: scikit-learn sorts the "
          "categories)")


if __name__ == "__main__":
    main()
