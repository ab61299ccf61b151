// Fused operators against NumPy: the seed's example at two sizes (fused on
// both sides of the materialization trade-off), L2SVM's line search (one
// multi-aggregate pass), sum(X*Y*Z), row and column aggregates of fused
// chains with a broadcast row vector. oracle.py also runs the program
// unfused and with fuse-all / fuse-no-redundancy.
// RUN: %oracle %s --input A="rng.random((60, 50))" --input B="rng.random((60, 50))" --input v="rng.random((1, 50))" --input Xw="rng.standard_normal((500, 1))" --input Xd="rng.standard_normal((500, 1))" --input Y="np.sign(rng.standard_normal((500, 1)))" --arg s=0.5 --arg step=0.3 --expect "((A + s * B) / 2) ** (A + s * B - 1)" --expect "np.exp(A + s * B - 1)" --expect "(lambda out: (np.sum(out * (out > 0) * Y * Xd), np.sum(Xd * (out > 0) * Xd)))(1 - Y * (Xw + step * Xd))[0]" --expect "(lambda out: (np.sum(out * (out > 0) * Y * Xd), np.sum(Xd * (out > 0) * Xd)))(1 - Y * (Xw + step * Xd))[1]" --expect "np.sum(A * B * A)" --expect "np.sum(np.exp(A * v - B), axis=1, keepdims=True)" --expect "np.max(A * v - B, axis=0, keepdims=True)" -- --threads 2
// RUN: %oracle %s --input A="rng.random((600, 500))" --input B="rng.random((600, 500))" --input v="rng.random((1, 500))" --input Xw="rng.standard_normal((5, 1))" --input Xd="rng.standard_normal((5, 1))" --input Y="np.sign(rng.standard_normal((5, 1)))" --arg s=2.0 --arg step=0.1 --expect "((A + s * B) / 2) ** (A + s * B - 1)" --expect "np.exp(A + s * B - 1)" --expect "(lambda out: (np.sum(out * (out > 0) * Y * Xd), np.sum(Xd * (out > 0) * Xd)))(1 - Y * (Xw + step * Xd))[0]" --expect "(lambda out: (np.sum(out * (out > 0) * Y * Xd), np.sum(Xd * (out > 0) * Xd)))(1 - Y * (Xw + step * Xd))[1]" --expect "np.sum(A * B * A)" --expect "np.sum(np.exp(A * v - B), axis=1, keepdims=True)" --expect "np.max(A * v - B, axis=0, keepdims=True)" -- --threads 1

func.func @main(%A: !amls.matrix<?x?xf64> {amls.name = "A"},
                %B: !amls.matrix<?x?xf64> {amls.name = "B"},
                %v: !amls.matrix<1x?xf64> {amls.name = "v"},
                %Xw: !amls.matrix<?x1xf64> {amls.name = "Xw"},
                %Xd: !amls.matrix<?x1xf64> {amls.name = "Xd"},
                %Y: !amls.matrix<?x1xf64> {amls.name = "Y"},
                %s: f64 {amls.name = "s"},
                %step: f64 {amls.name = "step"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, f64, f64,
        !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %zero = arith.constant 0.0 : f64
  // C = A + s*B; D = (C/2)^(C-1); E = exp(C-1)
  %sB = amls.mul %B, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %C = amls.add %A, %sB : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %C2 = amls.div %C, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %C1 = amls.sub %C, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %D = amls.pow %C2, %C1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %E = amls.exp %C1 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // L2SVM: out = 1 - Y * (Xw + step*Xd); sv = out > 0; out = out * sv;
  // g = sum(out * Y * Xd); h = sum(Xd * sv * Xd)
  %sXd = amls.mul %Xd, %step : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
  %tmp = amls.add %Xw, %sXd : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %ytmp = amls.mul %Y, %tmp : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %out0 = amls.sub %one, %ytmp : f64, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %sv = amls.gt %out0, %zero : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
  %out = amls.mul %out0, %sv : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %a = amls.mul %out, %Y : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %b = amls.mul %a, %Xd : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %g = amls.agg sum all %b : !amls.matrix<?x1xf64> -> f64
  %c = amls.mul %Xd, %sv : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %d = amls.mul %c, %Xd : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %h = amls.agg sum all %d : !amls.matrix<?x1xf64> -> f64
  // sum(A * B * A)
  %ab = amls.mul %A, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %aba = amls.mul %ab, %A : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %sum = amls.agg sum all %aba : !amls.matrix<?x?xf64> -> f64
  // rowSums(exp(A * v - B)), colMaxs(A * v - B)
  %av = amls.mul %A, %v : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %avb = amls.sub %av, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %eavb = amls.exp %avb : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rows = amls.agg sum row %eavb : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %cols = amls.agg max col %avb : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  return %D, %E, %g, %h, %sum, %rows, %cols : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>
}
