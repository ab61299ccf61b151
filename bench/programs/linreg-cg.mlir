// Linear regression by conjugate gradient (LinearRegCG), as written by a
// frontend: every matrix is ?x?. The same program is an integration test.

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %y: !amls.matrix<?x1xf64> {amls.name = "y"},
                %max_iter: i64 {amls.name = "max_iter"},
                %lambda: f64 {amls.name = "lambda"},
                %tolerance: f64 {amls.name = "tolerance"}) -> !amls.matrix<?x?xf64> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %i0 = arith.constant 0 : i64
  %i1 = arith.constant 1 : i64
  %ncol = amls.ncol %X : !amls.matrix<?x?xf64>
  %w0 = amls.fill %zero, %ncol, %c1 : f64 -> !amls.matrix<?x?xf64>
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xty = amls.matmul %Xt, %y : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
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
