// RUN: amls-opt %s -split-input-file | amls-opt | FileCheck %s
// RUN: amls-opt %s -split-input-file --mlir-print-op-generic | amls-opt | FileCheck %s
// RUN: amls-opt %s -split-input-file --amls-infer-properties | FileCheck %s --check-prefix=INFER

// Round trip of the convolution and pooling ops (AMLSNeuralNetworkOps.td),
// and the sizes --amls-infer-properties gives their results: 2 images of
// 3 channels of 4x5 pixels, 6 filters of 3x3 (P = (4 + 2 - 3) / 1 + 1 = 4,
// Q = (5 + 2 - 3) / 2 + 1 = 3).

// CHECK-LABEL: func @convolutions
// INFER-LABEL: func @convolutions
func.func @convolutions(%X: !amls.matrix<2x60xf64>, %W: !amls.matrix<6x27xf64>, %dY: !amls.matrix<2x72xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  // CHECK: amls.conv2d %{{.*}}, %{{.*}} input(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) filter(%{{.*}}, %{{.*}}, %{{.*}}) stride(%{{.*}}, %{{.*}}) padding(%{{.*}}, %{{.*}}) : !amls.matrix<2x60xf64>, !amls.matrix<6x27xf64> -> !amls.matrix<?x?xf64>
  // INFER: amls.conv2d {{.*}} -> !amls.matrix<2x72xf64>
  %0 = amls.conv2d %X, %W input(%c2, %c3, %c4, %c5) filter(%c6, %c3, %c3) stride(%c1, %c2) padding(%c1, %c1) : !amls.matrix<2x60xf64>, !amls.matrix<6x27xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.conv2d_backward_filter
  // INFER: amls.conv2d_backward_filter {{.*}} -> !amls.matrix<6x27xf64>
  %1 = amls.conv2d_backward_filter %X, %dY input(%c2, %c3, %c4, %c5) filter(%c6, %c3, %c3) stride(%c1, %c2) padding(%c1, %c1) : !amls.matrix<2x60xf64>, !amls.matrix<2x72xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.conv2d_backward_data
  // INFER: amls.conv2d_backward_data {{.*}} -> !amls.matrix<2x60xf64>
  %2 = amls.conv2d_backward_data %W, %dY input(%c2, %c3, %c4, %c5) filter(%c6, %c3, %c3) stride(%c1, %c2) padding(%c1, %c1) : !amls.matrix<6x27xf64>, !amls.matrix<2x72xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

// Pooling 2x2 windows with stride 2 and no padding: P = 2, Q = 2.
// CHECK-LABEL: func @pooling
// INFER-LABEL: func @pooling
func.func @pooling(%X: !amls.matrix<2x60xf64>, %dY: !amls.matrix<2x12xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  // CHECK: amls.pool max %{{.*}} input(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) pool(%{{.*}}, %{{.*}}) stride(%{{.*}}, %{{.*}}) padding(%{{.*}}, %{{.*}}) : !amls.matrix<2x60xf64> -> !amls.matrix<?x?xf64>
  // INFER: amls.pool max {{.*}} -> !amls.matrix<2x12xf64>
  %0 = amls.pool max %X input(%c2, %c3, %c4, %c5) pool(%c2, %c2) stride(%c2, %c2) padding(%c0, %c0) : !amls.matrix<2x60xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.pool avg
  // INFER: amls.pool avg {{.*}} -> !amls.matrix<2x12xf64>
  %1 = amls.pool avg %X input(%c2, %c3, %c4, %c5) pool(%c2, %c2) stride(%c2, %c2) padding(%c0, %c0) : !amls.matrix<2x60xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.pool_backward max %{{.*}}, %{{.*}} input(
  // INFER: amls.pool_backward max {{.*}} -> !amls.matrix<2x60xf64>
  %2 = amls.pool_backward max %X, %dY input(%c2, %c3, %c4, %c5) pool(%c2, %c2) stride(%c2, %c2) padding(%c0, %c0) : !amls.matrix<2x60xf64>, !amls.matrix<2x12xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

// A geometry known only when the program runs: the images come from the
// input's rows, the columns stay unknown.
// CHECK-LABEL: func @dynamic
// INFER-LABEL: func @dynamic
func.func @dynamic(%X: !amls.matrix<7x?xf64>, %W: !amls.matrix<?x?xf64>, %n: index, %h: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // INFER: amls.conv2d {{.*}} -> !amls.matrix<7x?xf64>
  %0 = amls.conv2d %X, %W input(%n, %c3, %h, %h) filter(%c3, %c3, %c3) stride(%c1, %c1) padding(%c1, %c1) : !amls.matrix<7x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // INFER: amls.pool avg {{.*}} -> !amls.matrix<7x?xf64>
  %1 = amls.pool avg %X input(%n, %c3, %h, %h) pool(%c3, %c3) stride(%c1, %c1) padding(%c1, %c1) : !amls.matrix<7x?xf64> -> !amls.matrix<?x?xf64>
  return
}
