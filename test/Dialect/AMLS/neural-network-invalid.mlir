// RUN: amls-opt %s -split-input-file -verify-diagnostics

// The verifiers of the convolution and pooling ops: a constant geometry
// out of range, and matrices whose known sizes disagree with it.

func.func @input_columns(%X: !amls.matrix<2x50xf64>, %W: !amls.matrix<4x27xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'amls.conv2d' op expects the input to have C*H*W = 48 columns, found 2x50}}
  %0 = amls.conv2d %X, %W input(%c2, %c3, %c4, %c4) filter(%c4, %c3, %c3) stride(%c1, %c1) padding(%c1, %c1) : !amls.matrix<2x50xf64>, !amls.matrix<4x27xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @input_rows(%X: !amls.matrix<3x48xf64>, %W: !amls.matrix<4x27xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'amls.conv2d' op expects the input to have 2 rows (one per image), found 3x48}}
  %0 = amls.conv2d %X, %W input(%c2, %c3, %c4, %c4) filter(%c4, %c3, %c3) stride(%c1, %c1) padding(%c1, %c1) : !amls.matrix<3x48xf64>, !amls.matrix<4x27xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @filter_shape(%X: !amls.matrix<2x48xf64>, %W: !amls.matrix<5x27xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'amls.conv2d' op expects the filter to have 4 rows (one per filter), found 5x27}}
  %0 = amls.conv2d %X, %W input(%c2, %c3, %c4, %c4) filter(%c4, %c3, %c3) stride(%c1, %c1) padding(%c1, %c1) : !amls.matrix<2x48xf64>, !amls.matrix<5x27xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @dout_shape(%X: !amls.matrix<2x48xf64>, %dY: !amls.matrix<2x60xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'amls.conv2d_backward_filter' op expects the output gradient to have F*P*Q = 64 columns, found 2x60}}
  %0 = amls.conv2d_backward_filter %X, %dY input(%c2, %c3, %c4, %c4) filter(%c4, %c3, %c3) stride(%c1, %c1) padding(%c1, %c1) : !amls.matrix<2x48xf64>, !amls.matrix<2x60xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @zero_stride(%X: !amls.matrix<2x48xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'amls.pool' op expects the vertical stride to be at least 1, found 0}}
  %0 = amls.pool max %X input(%c2, %c3, %c4, %c4) pool(%c2, %c2) stride(%c0, %c2) padding(%c0, %c0) : !amls.matrix<2x48xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @window_too_large(%X: !amls.matrix<2x48xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  // expected-error @+1 {{'amls.pool' op the 7-pixel window width exceeds the image's 4 pixels padded by 1 on each side}}
  %0 = amls.pool avg %X input(%c2, %c3, %c4, %c4) pool(%c2, %c7) stride(%c1, %c1) padding(%c0, %c1) : !amls.matrix<2x48xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @pool_dout(%X: !amls.matrix<2x48xf64>, %dY: !amls.matrix<2x13xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'amls.pool_backward' op expects the output gradient to have C*P*Q = 12 columns, found 2x13}}
  %0 = amls.pool_backward max %X, %dY input(%c2, %c3, %c4, %c4) pool(%c2, %c2) stride(%c2, %c2) padding(%c0, %c0) : !amls.matrix<2x48xf64>, !amls.matrix<2x13xf64> -> !amls.matrix<?x?xf64>
  return
}
