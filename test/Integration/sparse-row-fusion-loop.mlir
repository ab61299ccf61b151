// The Row template over a CSR X in a loop, where t(X) is loop-invariant:
// the optimizer hoists it (built once, CSR), and the close t(X) %*% R in
// the loop fuses with X's rows (X with empty rows and columns). Five
// gradient steps, checked against NumPy at 1 and 2 threads, fused, unfused,
// dense and CSR.
// RUN: %oracle %s --input X="np.where((np.arange(2000)[:, None] % 5 == 0) | (np.arange(100)[None, :] % 9 == 4), 0.0, (rng.random((2000, 100)) < 0.05) * (rng.random((2000, 100)) - 0.3))" --input y="np.where(rng.random((2000, 1)) < 0.5, -1.0, 1.0)" --input w="rng.random((100, 1)) - 0.5" --arg iters=5 --expect "(lambda w: [w := w + 1e-3 * (X.T @ ((1 - y * (X @ w)) * y)) for _ in range(5)][-1])(w)" -- --threads 1
// RUN: %oracle %s --input X="np.where((np.arange(2000)[:, None] % 5 == 0) | (np.arange(100)[None, :] % 9 == 4), 0.0, (rng.random((2000, 100)) < 0.05) * (rng.random((2000, 100)) - 0.3))" --input y="np.where(rng.random((2000, 1)) < 0.5, -1.0, 1.0)" --input w="rng.random((100, 1)) - 0.5" --arg iters=5 --expect "(lambda w: [w := w + 1e-3 * (X.T @ ((1 - y * (X @ w)) * y)) for _ in range(5)][-1])(w)" --seed 3 -- --threads 2 --fuse-explain 2>&1 | FileCheck %s --check-prefixes=CHECK%differential_checks
// CHECK: row template closing at amls.matmul {{.*}}: main input !amls.matrix<2000x100xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 2 side inputs, 5 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: PASS: result 0
// DIFFERENTIAL: PASS: csr

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %y: !amls.matrix<?x1xf64> {amls.name = "y"},
                %w0: !amls.matrix<?x1xf64> {amls.name = "w"},
                %iters: i64 {amls.name = "iters"}) -> !amls.matrix<?x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.index_cast %iters : i64 to index
  %one = arith.constant 1.0 : f64
  %step = arith.constant 1.0e-3 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%w = %w0) -> (!amls.matrix<?x1xf64>) {
    %Xw = amls.matmul %X, %w : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %yXw = amls.mul %y, %Xw : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %out = amls.sub %one, %yXw : f64, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %outy = amls.mul %out, %y : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %g = amls.matmul %Xt, %outy : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %sg = amls.mul %g, %step : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
    %wn = amls.add %w, %sg : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    scf.yield %wn : !amls.matrix<?x1xf64>
  }
  return %r : !amls.matrix<?x1xf64>
}
