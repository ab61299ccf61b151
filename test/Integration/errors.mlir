// Bad inputs get a clear message and a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '1,2\n3,4\n' > %t/X.csv
// RUN: printf '1,2\n3,abc\n' > %t/bad.csv

// RUN: not amls-run %s --input X=%t/missing.csv --arg s=1 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: amls-run: error: cannot read input 'X': {{.*}}missing.csv: cannot open the file for reading

// RUN: not amls-run %s --input X=%t/bad.csv --arg s=1 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: amls-run: error: cannot read input 'X': {{.*}}bad.csv:2: column 2: expected a number, found 'abc'

// RUN: not amls-run %s --entry static --input X=%t/X.csv 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: parameter 'X' is declared '!amls.matrix<3x2xf64>' but the input is 2x2

// RUN: not amls-run %s --input Z=%t/X.csv 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: amls-run: error: --input: 'main' has no parameter 'Z'; parameters: X, s

// RUN: not amls-run %s --input X=%t/X.csv 2>&1 | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: amls-run: error: parameter 's' (f64) is not bound: use --arg s=value

// RUN: not amls-run %s --input X=%t/X.csv --arg s=abc 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: amls-run: error: --arg s: expected a number, found 'abc'

// RUN: not amls-run %s --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: no function 'nope' to run; functions: main, static, slice

// RUN: not amls-run %s --entry slice --input X=%t/X.csv --arg n=5 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: amls: 'amls.slice' at {{.*}}errors.mlir:{{[0-9]+}}:{{[0-9]+}}: row range is out of bounds

// RUN: not amls-run %s --entry compressed 2>&1 | FileCheck %s --check-prefix=COMPRESSED
// COMPRESSED: error: parameter 'C' has type '!amls.matrix<?x?xf64, format = compressed>': a compressed matrix exists only inside a program (amls.compress makes one); pass the dense matrix

// RUN: not amls-run %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: amls-run: error: cannot open input file '{{.*}}none.mlir'

// RUN: not amls-run %s --input X=%t/X.csv --arg s=1 --rewrites=simplify,fusion 2>&1 | FileCheck %s --check-prefix=REWRITES
// REWRITES: amls-run: error: --rewrites expects a comma-separated list of simplify, simplify-dynamic, matmul-chain, ipa, vectorize-loops, all, none; found 'simplify,fusion'

// RUN: not amls-run %s --input X=%t/X.csv --arg s=1 --fuse=always 2>&1 | FileCheck %s --check-prefix=FUSE
// --fusion is --fuse under the spelling of the compile options, the C API
// and Python.
// RUN: not amls-run %s --input X=%t/X.csv --arg s=1 --fusion=always 2>&1 | FileCheck %s --check-prefix=FUSE
// FUSE: amls-run: error: --fuse expects cost, fuse-all, fuse-no-redundancy or none, found 'always'
// RUN: amls-run %s --input X=%t/X.csv --arg s=2 --fusion-explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN-NOT: warning
// EXPLAIN: amls-fuse: 0 matrix results materialized per iteration of innermost loops
// EXPLAIN-NOT: warning
// EXPLAIN-NEXT: 2.000 4.000
// EXPLAIN-NEXT: 6.000 8.000

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}, %s: f64 {amls.name = "s"}) -> !amls.matrix<?x?xf64> {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

func.func @static(%X: !amls.matrix<3x2xf64> {amls.name = "X"}) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<3x2xf64> -> f64
  return %0 : f64
}

func.func @slice(%X: !amls.matrix<?x?xf64> {amls.name = "X"}, %n: index {amls.name = "n"}) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = amls.slice %X[%c0 : %n, %c0 : %c1] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

func.func @compressed(%C: !amls.matrix<?x?xf64, format = compressed> {amls.name = "C"}) -> f64 {
  %z = arith.constant 0.0 : f64
  return %z : f64
}
