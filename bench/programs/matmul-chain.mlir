// A %*% B %*% v, written left to right ((A %*% B) %*% v): once the inputs
// fix the sizes, the optimizer reorders it to A %*% (B %*% v).
func.func @main(%A: !amls.matrix<?x?xf64> {amls.name = "A"},
                %B: !amls.matrix<?x?xf64> {amls.name = "B"},
                %v: !amls.matrix<?x?xf64> {amls.name = "v"}) -> !amls.matrix<?x?xf64> {
  %AB = amls.matmul %A, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r = amls.matmul %AB, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}
