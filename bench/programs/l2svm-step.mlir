// One step of L2SVM's line search (seed 000): g and h from Xw, Xd, Y.
// Fused, both sums are one pass over the three vectors. The result is
// g / h, the Newton step.
func.func @main(%Xw: !amls.matrix<?x1xf64> {amls.name = "Xw"},
                %Xd: !amls.matrix<?x1xf64> {amls.name = "Xd"},
                %Y: !amls.matrix<?x1xf64> {amls.name = "Y"},
                %step: f64 {amls.name = "step"}) -> f64 {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
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
  %r = arith.divf %g, %h : f64
  return %r : f64
}
