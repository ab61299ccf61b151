// Operands whose sizes are known only at run time (here: tables sized by
// the data) broadcast like DML vectors when they turn out to be one row or
// one column, against NumPy; a size that is neither is an error naming the op.
// RUN: %oracle %s --input X="rng.random((5, 3))" --input W="rng.random((3, 4))" --input a="np.ones((3, 1))" --input b="np.array([[2.0], [3.0], [3.0]])" --expect "X + np.array([[0.0, 1.0, 2.0]])" --expect "np.array([[0.0, 1.0, 2.0]]) * X" --expect "W - np.array([[0.0], [1.0], [2.0]])" -- --threads 1
// RUN: %oracle %s --input X="rng.random((5, 3))" --input W="rng.random((3, 4))" --input a="np.ones((3, 1))" --input b="np.array([[3.0], [1.0], [3.0]])" --expect "X + np.array([[1.0, 0.0, 2.0]])" --expect "np.array([[1.0, 0.0, 2.0]]) * X" --expect "W - np.array([[1.0], [0.0], [2.0]])" -- --threads 2
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '1,2,3\n4,5,6\n' > %t/X.csv
// RUN: printf '1,2\n3,4\n5,6\n' > %t/W.csv
// RUN: printf '1\n1\n' > %t/a.csv
// RUN: printf '1\n4\n' > %t/b.csv
// RUN: not amls-run %s --input X=%t/X.csv --input W=%t/W.csv --input a=%t/a.csv --input b=%t/b.csv 2>&1 | FileCheck %s
// CHECK: amls: 'amls.add' at {{.*}}runtime-broadcast.mlir:[[# @LINE + 9]]:{{[0-9]+}}: operand #1 has a different size in dimension 1 than the result, and is not a vector to broadcast

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %W: !amls.matrix<?x?xf64> {amls.name = "W"},
                %a: !amls.matrix<?x1xf64> {amls.name = "a"},
                %b: !amls.matrix<?x1xf64> {amls.name = "b"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %row = amls.table %a, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %col = amls.table %b, %a : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %0 = amls.add %X, %row : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.mul %row, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.sub %W, %col : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
