// SystemDS's rewrite test RewriteEMultChainOpXYX, R = 2 * X * 3 * Y * 4 * X,
// over two 123 x 321 inputs with 80% and 60% non-zeros (as in the failing
// run): the inputs and the first products are dense, and the last product,
// estimated at 0.8 x 0.6 x 0.8 = 38% non-zeros, is stored CSR. No element-wise kernel takes dense operands to a CSR result, so
// --amls-select-formats computes that product dense and converts it (the
// lowering crashed on the CSR result of two dense operands). Every
// configuration of the oracle (dense, CSR, unfused, --O0, ...) against NumPy.
// RUN: %oracle %s --input X="np.where(rng.random((123, 321)) < 0.8, rng.random((123, 321)) - 0.5, 0.0)" --input Y="np.where(rng.random((123, 321)) < 0.6, rng.random((123, 321)) - 0.5, 0.0)" --expect "24 * X * Y * X" --rtol 1e-14 --atol 0 -- --threads 1 --formats-explain 2>&1 | FileCheck %s --check-prefixes=CHECK%differential_checks
// CHECK: result #0 of amls.mul converted to CSR for its users
// CHECK: PASS: result 0 matches 24 * X * Y * X 123x321
// DIFFERENTIAL: PASS: csr

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"})
    -> !amls.matrix<?x?xf64> {
  %c2 = arith.constant 2.0 : f64
  %c3 = arith.constant 3.0 : f64
  %c4 = arith.constant 4.0 : f64
  %a = amls.mul %c2, %X : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %b = amls.mul %a, %c3 : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %c = amls.mul %b, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %d = amls.mul %c, %c4 : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %r = amls.mul %d, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}
