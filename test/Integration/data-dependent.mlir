// removeEmpty, table and order (result sizes that depend on the data),
// against NumPy.
// RUN: %oracle %s --input X="np.array([[0, 0, 0], [1, 0, 2], [0, 0, 0], [3, 0, 4.0]])" --input S="np.array([[1], [0], [1], [1.0]])" --input a="np.array([[1], [2], [2], [3], [1.0]])" --input b="np.array([[2], [1], [1], [2], [2.0]])" --input w="np.array([[0.5], [1], [2], [4], [8.0]])" --input K="np.array([[3, 1], [1, 2], [3, 3], [2, 4.0]])" --expect "X[X.any(axis=1)]" --expect "X[:, X.any(axis=0)]" --expect "X[S[:, 0] != 0]" --expect "[[0, 2], [2, 0], [0, 1]]" --expect "[[0, 8.5], [3, 0]]" --expect "K[np.argsort(K[:, 0], kind='stable')]" --expect "(np.argsort(-K[:, 0], kind='stable') + 1)[:, None]" -- --threads 1
// RUN: %oracle %s --input X="np.array([[0, 0, 0], [1, 0, 2], [0, 0, 0], [3, 0, 4.0]])" --input S="np.array([[1], [0], [1], [1.0]])" --input a="np.array([[1], [2], [2], [3], [1.0]])" --input b="np.array([[2], [1], [1], [2], [2.0]])" --input w="np.array([[0.5], [1], [2], [4], [8.0]])" --input K="np.array([[3, 1], [1, 2], [3, 3], [2, 4.0]])" --expect "X[X.any(axis=1)]" --expect "X[:, X.any(axis=0)]" --expect "X[S[:, 0] != 0]" --expect "[[0, 2], [2, 0], [0, 1]]" --expect "[[0, 8.5], [3, 0]]" --expect "K[np.argsort(K[:, 0], kind='stable')]" --expect "(np.argsort(-K[:, 0], kind='stable') + 1)[:, None]" --seed 5 -- --threads 2

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %S: !amls.matrix<?x1xf64> {amls.name = "S"},
                %a: !amls.matrix<?x1xf64> {amls.name = "a"},
                %b: !amls.matrix<?x1xf64> {amls.name = "b"},
                %w: !amls.matrix<?x1xf64> {amls.name = "w"},
                %K: !amls.matrix<?x?xf64> {amls.name = "K"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x1xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %0 = amls.remove_empty rows %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.remove_empty cols %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.remove_empty rows %X select %S : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.table %a, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  // A given 2x2 size drops the pair (3, 2).
  %4 = amls.table %a, %b weights %w size %c2, %c2 : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.order %K by %c0 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.order %K by %c0 decreasing indices : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  return %0, %1, %2, %3, %4, %5, %6 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>
}
