// Binary matrix files (AMLSMAT1 header, then the cells as NumPy's tofile
// writes them): sizes at compile time from the header, cells at run time.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; f = open('%t/X.bin', 'wb'); f.write(b'AMLSMAT1'); np.array([3, 2], dtype='<i8').tofile(f); np.array([[1, 2], [3, 4], [5, 6.5]], dtype='<f8').tofile(f)"
// RUN: sed 's|@DIR@|%t|g' %s > %t/program.mlir
// RUN: amls-opt --amls-infer-properties %t/program.mlir | FileCheck %s --check-prefix=SIZES
// RUN: amls-run --threads 1 %t/program.mlir | FileCheck %s
// RUN: %python -c "import numpy as np; f = open('%t/Y.bin', 'rb'); assert f.read(8) == b'AMLSMAT1'; print(np.fromfile(f, '<i8', 2), np.fromfile(f, dtype='<f8'))" | FileCheck %s --check-prefix=WRITTEN

// SIZES: amls.read "{{.*}}/X.bin" binary : !amls.matrix<3x2xf64>
// Column sums of X (9, 12.5), and of 2X read back from the file written.
// CHECK: 9.000 12.500
// CHECK-NEXT: 18.000 25.000
// WRITTEN: [3 2] [ 2.  4.  6.  8. 10. 13.]

func.func @main() {
  %two = arith.constant 2.0 : f64
  %X = amls.read "@DIR@/X.bin" binary : !amls.matrix<?x?xf64>
  %s = amls.agg sum col %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  amls.print %s : !amls.matrix<?x?xf64>
  %Y = amls.mul %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  amls.write %Y, "@DIR@/Y.bin" binary : !amls.matrix<?x?xf64>
  %Z = amls.read "@DIR@/Y.bin" binary : !amls.matrix<?x?xf64>
  %t = amls.agg sum col %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  amls.print %t : !amls.matrix<?x?xf64>
  return
}
