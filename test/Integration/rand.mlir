// rand() with a seed: the same matrix as an independent NumPy implementation
// of the counter-based generator, at 1 and 2 threads, dense and sparse,
// uniform and normal.
// RUN: %oracle %s --arg seed=42 --expect "amls_rand(42, 300, 200, -1.0, 3.0, 1.0)" --expect "amls_rand(42, 300, 200, 0.5, 1.0, 0.05)" --expect "amls_rand(42, 300, 200, 0, 0, 1.0, 'normal')" --rtol 1e-12 -- --threads 1
// RUN: %oracle %s --arg seed=42 --expect "amls_rand(42, 300, 200, -1.0, 3.0, 1.0)" --expect "amls_rand(42, 300, 200, 0.5, 1.0, 0.05)" --expect "amls_rand(42, 300, 200, 0, 0, 1.0, 'normal')" --rtol 1e-12 -- --threads 2

func.func @main(%seed: i64 {amls.name = "seed"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %r = arith.constant 300 : index
  %c = arith.constant 200 : index
  %lo = arith.constant -1.0 : f64
  %hi = arith.constant 3.0 : f64
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %sparse = arith.constant 0.05 : f64
  %zero = arith.constant 0.0 : f64
  %0 = amls.rand %r, %c, %lo, %hi, %one seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  %1 = amls.rand %r, %c, %half, %one, %sparse seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  %2 = amls.rand %r, %c, %zero, %zero, %one seed %seed normal : f64 -> !amls.matrix<?x?xf64>
  return %0, %1, %2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
