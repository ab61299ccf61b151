// removeEmpty with a select of the wrong length stops with the same clear
// message whether the matrix is dense or CSR: at compile time where the
// sizes are known (amls-run specializes on the inputs), at run time where
// the select's length is computed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '0,1,0\n0,0,0\n2,0,3\n' > %t/X.csv
// RUN: printf '1\n0\n' > %t/S.csv
// RUN: printf '1\n0\n1\n' > %t/S3.csv
// RUN: not amls-run %s --input X=%t/X.csv --input S=%t/S.csv --formats=dense 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not amls-run %s --input X=%t/X.csv --input S=%t/S.csv --formats=csr 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: 'amls.remove_empty' op select must be a column vector of 3x1 for a 3x3 matrix, found 2x1
// RUN: not amls-run %s --entry computed --input X=%t/X.csv --input S=%t/S3.csv --arg n=2 --formats=dense 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not amls-run %s --entry computed --input X=%t/X.csv --input S=%t/S3.csv --arg n=2 --formats=csr 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: amls: 'amls.remove_empty' at {{.*}}sparse-select-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: removeEmpty: select must be a column vector with one cell per row of the matrix
// RUN: amls-run %s --entry computed --input X=%t/X.csv --input S=%t/S3.csv --arg n=3 --formats=csr | FileCheck %s --check-prefix=GOOD
// GOOD: 0.000 1.000 0.000
// GOOD-NEXT: 2.000 0.000 3.000

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}, %S: !amls.matrix<?x1xf64> {amls.name = "S"}) -> !amls.matrix<?x?xf64> {
  %0 = amls.remove_empty rows %X select %S : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

func.func @computed(%X: !amls.matrix<?x?xf64> {amls.name = "X"}, %S: !amls.matrix<?x1xf64> {amls.name = "S"}, %n: index {amls.name = "n"}) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = amls.slice %S[%c0 : %n, %c0 : %c1] : !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %0 = amls.remove_empty rows %X select %s : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}
