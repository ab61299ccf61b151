// rowSums(X * Y): a cell chain closed by a row aggregate.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"}) -> !amls.matrix<?x1xf64> {
  %xy = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r = amls.agg sum row %xy : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  return %r : !amls.matrix<?x1xf64>
}
