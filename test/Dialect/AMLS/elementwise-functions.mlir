// RUN: amls-opt %s -split-input-file | amls-opt -split-input-file | FileCheck %s
// RUN: amls-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: amls-opt %s -split-input-file -amls-infer-properties | FileCheck %s --check-prefix=INFER

// The trigonometric and bitwise ops: round trip, folding of constants
// (the bitwise ops on SystemDS's 32-bit ints) and the sparsity inference
// (tan, asin, atan, sinh keep zeros, acos and cosh do not; bitwAnd is
// non-zero only where both operands are, the shifts where the left one is).

// CHECK-LABEL: func @roundtrip
// CHECK: amls.tan
// CHECK: amls.asin
// CHECK: amls.acos
// CHECK: amls.atan
// CHECK: amls.sinh
// CHECK: amls.cosh
// CHECK: amls.bitwand
// CHECK: amls.bitwor
// CHECK: amls.bitwxor
// CHECK: amls.bitwshiftl
// CHECK: amls.bitwshiftr
func.func @roundtrip(%X: !amls.matrix<?x?xf64>, %s: f64) {
  %0 = amls.tan %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.asin %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.acos %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.atan %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %4 = amls.sinh %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.cosh %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.bitwand %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %7 = amls.bitwor %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %8 = amls.bitwxor %s, %X : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %9 = amls.bitwshiftl %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %10 = amls.bitwshiftr %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return
}

// -----

// On SystemDS's 32-bit ints: 12.9 is 12, 3e9 saturates to 2^31 - 1 (printed
// as 0x41DFFFFFFFC00000), shift
// counts are taken modulo 32 (3 << 33 = 3 << 1), 1 << 31 is the smallest
// int: NaN. (Values from NumPy's int32 operators.)
// FOLD-LABEL: func @fold_bitwise
// FOLD-DAG: amls.constant dense<{{\[\[}}8.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00]]>
// FOLD-DAG: amls.constant dense<{{\[\[}}1.400000e+01, -3.000000e+00, 3.100000e+01, 3.500000e+01, -1.021000e+03, 0x41DFFFFFFFC00000]]>
// FOLD-DAG: amls.constant dense<{{\[\[}}6.000000e+00, -4.000000e+00, 3.000000e+01, 3.400000e+01, -1.021000e+03, 0x41DFFFFFFFC00000]]>
// FOLD-DAG: amls.constant dense<{{\[\[}}1.228800e+04, -2.240000e+02, 0x7FF8000000000000, 6.000000e+00, -8.192000e+03, 0x41DFFFFFFFC00000]]>
// FOLD-DAG: amls.constant dense<{{\[\[}}0.000000e+00, -1.000000e+00, 0.000000e+00, 1.000000e+00, -1.280000e+02, 0x41DFFFFFFFC00000]]>
func.func @fold_bitwise() -> (!amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>) {
  %a = amls.constant dense<[[12.9, -7.0, 1.0, 3.0, -1024.0, 3.0e9]]> : tensor<1x6xf64> -> !amls.matrix<1x6xf64>
  %b = amls.constant dense<[[10.0, 5.0, 31.0, 33.0, 3.0, 0.0]]> : tensor<1x6xf64> -> !amls.matrix<1x6xf64>
  %and = amls.bitwand %a, %b : !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64> -> !amls.matrix<1x6xf64>
  %or = amls.bitwor %a, %b : !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64> -> !amls.matrix<1x6xf64>
  %xor = amls.bitwxor %a, %b : !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64> -> !amls.matrix<1x6xf64>
  %shl = amls.bitwshiftl %a, %b : !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64> -> !amls.matrix<1x6xf64>
  %shr = amls.bitwshiftr %a, %b : !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64> -> !amls.matrix<1x6xf64>
  return %and, %or, %xor, %shl, %shr : !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>, !amls.matrix<1x6xf64>
}

// -----

// INFER-LABEL: func @sparsity
// INFER: amls.tan {{.*}} -> !amls.matrix<100x100xf64, sparsity = 0.1>
// INFER: amls.acos {{.*}} -> !amls.matrix<100x100xf64, sparsity = 1.0>
// INFER: amls.bitwand {{.*}} -> !amls.matrix<100x100xf64, sparsity = 0.05>
// INFER: amls.bitwshiftl {{.*}} -> !amls.matrix<100x100xf64, sparsity = 0.1>
func.func @sparsity(%X: !amls.matrix<100x100xf64, sparsity = 0.1>, %Y: !amls.matrix<100x100xf64, sparsity = 0.5>) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %0 = amls.tan %X : !amls.matrix<100x100xf64, sparsity = 0.1> -> !amls.matrix<?x?xf64>
  %1 = amls.acos %X : !amls.matrix<100x100xf64, sparsity = 0.1> -> !amls.matrix<?x?xf64>
  %2 = amls.bitwand %X, %Y : !amls.matrix<100x100xf64, sparsity = 0.1>, !amls.matrix<100x100xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
  %two = arith.constant 2.0 : f64
  %3 = amls.bitwshiftl %X, %two : !amls.matrix<100x100xf64, sparsity = 0.1>, f64 -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
