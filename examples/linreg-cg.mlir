// Linear regression by conjugate gradient (the DML script of SystemDS's
// LinearRegCG, seed 003), on generated data:
//
//   X = rand(rows=1000, cols=100, seed=7); y = X %*% rand(rows=100, cols=1)
//   w = matrix(0, ncol(X), 1); r = -(t(X) %*% y); p = -r
//   norm_r2 = sum(r^2)
//   while (i < max_iter & norm_r2 > tolerance^2 * norm_r2_initial) {
//     q = t(X) %*% (X %*% p) + lambda * p
//     alpha = norm_r2 / sum(p * q)
//     w = w + alpha * p;  r = r + alpha * q
//     old = norm_r2;  norm_r2 = sum(r^2)
//     p = -r + (norm_r2 / old) * p;  i = i + 1
//   }
//
// Every matrix is declared with unknown sizes, as a frontend that knows
// nothing would emit it; `amls-opt --amls-infer-properties` recovers them.
//
// Run it:
//   amls-run examples/linreg-cg.mlir --arg seed=7 --arg max_iter=100 \
//            --arg lambda=0 --arg tolerance=1e-9 --timing

func.func @main(%seed: i64 {amls.name = "seed"}, %max_iter: i64 {amls.name = "max_iter"},
                %lambda: f64 {amls.name = "lambda"}, %tolerance: f64 {amls.name = "tolerance"})
    -> !amls.matrix<?x?xf64> {
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %i0 = arith.constant 0 : i64
  %i1 = arith.constant 1 : i64

  %X = amls.rand %c1000, %c100, %zero, %one, %one seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  %beta = amls.rand %c100, %c1, %zero, %one, %one seed %seed normal : f64 -> !amls.matrix<?x?xf64>
  %y = amls.matmul %X, %beta : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>

  %ncol = amls.ncol %X : !amls.matrix<?x?xf64>
  %w0 = amls.fill %zero, %ncol, %c1 : f64 -> !amls.matrix<?x?xf64>
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xty = amls.matmul %Xt, %y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r0 = amls.neg %Xty : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %p0 = amls.neg %r0 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nr0 = amls.agg sumsq all %r0 : !amls.matrix<?x?xf64> -> f64
  %tol2 = arith.mulf %tolerance, %tolerance : f64
  %target = arith.mulf %tol2, %nr0 : f64

  %res:5 = scf.while (%w = %w0, %r = %r0, %p = %p0, %nr = %nr0, %i = %i0)
      : (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, i64)
     -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, i64) {
    %more = arith.cmpi slt, %i, %max_iter : i64
    %far = arith.cmpf ogt, %nr, %target : f64
    %go = arith.andi %more, %far : i1
    scf.condition(%go) %w, %r, %p, %nr, %i
        : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, i64
  } do {
  ^bb0(%w: !amls.matrix<?x?xf64>, %r: !amls.matrix<?x?xf64>, %p: !amls.matrix<?x?xf64>, %nr: f64, %i: i64):
    %Xp = amls.matmul %X, %p : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %XtXp = amls.matmul %Xt, %Xp : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %lp = amls.mul %lambda, %p : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %q = amls.add %XtXp, %lp : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %pq = amls.mul %p, %q : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %spq = amls.agg sum all %pq : !amls.matrix<?x?xf64> -> f64
    %alpha = arith.divf %nr, %spq : f64
    %ap = amls.mul %alpha, %p : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %w2 = amls.add %w, %ap : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %aq = amls.mul %alpha, %q : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %r2 = amls.add %r, %aq : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %nr2 = amls.agg sumsq all %r2 : !amls.matrix<?x?xf64> -> f64
    %b = arith.divf %nr2, %nr : f64
    %bp = amls.mul %b, %p : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %mr2 = amls.neg %r2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %p2 = amls.add %mr2, %bp : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %i2 = arith.addi %i, %i1 : i64
    scf.yield %w2, %r2, %p2, %nr2, %i2
        : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, i64
  }
  return %res#0 : !amls.matrix<?x?xf64>
}
