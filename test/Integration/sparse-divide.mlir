// A CSR matrix divided by a dense vector keeps its pattern when no divisor
// is 0 or NaN; otherwise (checked at run time) 0/0 is NaN and x/0 infinite
// at cells outside the pattern, so the quotient is computed dense and
// stored CSR. M (300 x 20, 5% with its first rows full) is CSR in the
// default setting; r has a 0 and a NaN, c a 0, s neither.
// RUN: %oracle %s --input M="np.where(np.arange(300)[:, None] < 3, rng.random((300, 20)) + 0.1, (rng.random((300, 20)) < 0.05) * rng.random((300, 20)))" --input r="np.where(np.arange(20) == 3, 0.0, np.where(np.arange(20) == 5, np.nan, rng.random(20) + 0.5))[None, :]" --input c="np.where(np.arange(300) == 7, 0.0, rng.random(300) + 0.5)[:, None]" --input s="rng.random((1, 20)) + 0.5" --expect "M / r" --expect "M / c" --expect "M / s" --expect "(M / s).sum()" -- --threads 2
// RUN: %oracle %s --no-differential --input M="np.where(np.arange(300)[:, None] < 3, rng.random((300, 20)) + 0.1, (rng.random((300, 20)) < 0.05) * rng.random((300, 20)))" --input r="np.where(np.arange(20) == 3, 0.0, np.where(np.arange(20) == 5, np.nan, rng.random(20) + 0.5))[None, :]" --input c="np.where(np.arange(300) == 7, 0.0, rng.random(300) + 0.5)[:, None]" --input s="rng.random((1, 20)) + 0.5" --expect "M / r" --expect "M / c" --expect "M / s" --expect "(M / s).sum()" -- --threads 1 --formats-explain 2>&1 | FileCheck %s
// CHECK-COUNT-3: result #0 of amls.div is CSR
// CHECK: PASS: result 3

func.func @main(%M: !amls.matrix<?x?xf64> {amls.name = "M"},
                %r: !amls.matrix<1x?xf64> {amls.name = "r"},
                %c: !amls.matrix<?x1xf64> {amls.name = "c"},
                %s: !amls.matrix<1x?xf64> {amls.name = "s"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        f64) {
  %0 = amls.div %M, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.div %M, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.div %M, %s : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.agg sum all %2 : !amls.matrix<?x?xf64> -> f64
  return %0, %1, %2, %3 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64
}
