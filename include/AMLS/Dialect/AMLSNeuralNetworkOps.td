//===- AMLSNeuralNetworkOps.td - Convolution and pooling ---*- tablegen -*-===//
//
// DML's deep-learning builtins: conv2d and its two gradients, and max and
// average pooling and their gradients. As in SystemDS, a batch of N images
// of C channels of H x W pixels is an N x (C*H*W) matrix, one image per
// row, channel-major and row-major within a channel; filters are an
// F x (C*R*S) matrix. The geometry (the shapes, strides and paddings
// DML's `input_shape=[N,C,H,W]`, `filter_shape=[F,C,R,S]`,
// `pool_size=[R,S]`, `stride=[sh,sw]`, `padding=[ph,pw]` give) is index
// operands: a script may compute it, and inference uses the values it
// knows. The output has P x Q pixels, P = (H + 2*ph - R) / sh + 1 and
// Q = (W + 2*pw - S) / sw + 1 (integer division). The runtime kernels
// (Kernels/Convolution.cpp) check the geometry against the matrices.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSNEURALNETWORKOPS_TD
#define AMLS_DIALECT_AMLSNEURALNETWORKOPS_TD

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

// The geometry of a convolution.
defvar AMLS_ConvGeometry = (ins Index:$batch, Index:$channels, Index:$height,
                                Index:$width, Index:$filters,
                                Index:$windowHeight, Index:$windowWidth,
                                Index:$strideHeight, Index:$strideWidth,
                                Index:$padHeight, Index:$padWidth);

class AMLS_ConvolutionOp<string mnemonic, string first, string second>
    : AMLS_InferOp<mnemonic, [Pure]> {
  let arguments = !con(!dag(ins, [AMLS_Matrix, AMLS_Matrix], [first, second]),
                       AMLS_ConvGeometry);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$" # first # " `,` $" # second # [{
    `input` `(` $batch `,` $channels `,` $height `,` $width `)`
    `filter` `(` $filters `,` $windowHeight `,` $windowWidth `)`
    `stride` `(` $strideHeight `,` $strideWidth `)`
    `padding` `(` $padHeight `,` $padWidth `)` attr-dict `:` type($}] #
    first # ") `,` type($" # second # ") `->` type($result)";
}

def AMLS_Conv2DOp : AMLS_ConvolutionOp<"conv2d", "input", "filter"> {
  let summary = "2-D convolution [conv2d(X, W, input_shape, filter_shape, "
                "stride, padding)]";
  let description = [{
    The N x (F*P*Q) output of F filters (`filter`, F x (C*R*S)) slid over
    each image of `input` (N x (C*H*W)) padded with zeros:
    `out[n, f, p, q] = sum over c, r, s of W[f, c, r, s] *
    X[n, c, p*sh - ph + r, q*sw - pw + s]`.

    ```mlir
    %Y = amls.conv2d %X, %W input(%n, %c, %h, %w) filter(%f, %r, %s)
         stride(%one, %one) padding(%zero, %zero)
         : !amls.matrix<2x48xf64>, !amls.matrix<4x27xf64>
         -> !amls.matrix<2x64xf64>
    ```
  }];
}

def AMLS_Conv2DBackwardFilterOp
    : AMLS_ConvolutionOp<"conv2d_backward_filter", "input", "dout"> {
  let summary = "gradient of conv2d with respect to the filters "
                "[conv2d_backward_filter(X, dout, ...)]";
  let description = [{
    The F x (C*R*S) gradient of a convolution's filters given its input
    `X` (N x (C*H*W)) and the gradient of its output `dout` (N x (F*P*Q)).

    ```mlir
    %dW = amls.conv2d_backward_filter %X, %dout input(%n, %c, %h, %w)
          filter(%f, %r, %s) stride(%one, %one) padding(%zero, %zero)
          : !amls.matrix<2x48xf64>, !amls.matrix<2x64xf64>
          -> !amls.matrix<4x27xf64>
    ```
  }];
}

def AMLS_Conv2DBackwardDataOp
    : AMLS_ConvolutionOp<"conv2d_backward_data", "filter", "dout"> {
  let summary = "gradient of conv2d with respect to the input "
                "[conv2d_backward_data(W, dout, ...)]";
  let description = [{
    The N x (C*H*W) gradient of a convolution's input given its filters
    `W` (F x (C*R*S)) and the gradient of its output `dout` (N x (F*P*Q)).

    ```mlir
    %dX = amls.conv2d_backward_data %W, %dout input(%n, %c, %h, %w)
          filter(%f, %r, %s) stride(%one, %one) padding(%zero, %zero)
          : !amls.matrix<4x27xf64>, !amls.matrix<2x64xf64>
          -> !amls.matrix<2x48xf64>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// The geometry of a pooling window (R x S, one per channel).
defvar AMLS_PoolGeometry = (ins Index:$batch, Index:$channels, Index:$height,
                                Index:$width, Index:$windowHeight,
                                Index:$windowWidth, Index:$strideHeight,
                                Index:$strideWidth, Index:$padHeight,
                                Index:$padWidth);

def AMLS_PoolOp : AMLS_InferOp<"pool", [Pure]> {
  let summary = "max or average pooling [max_pool(X, ...), avg_pool(X, ...)]";
  let description = [{
    The N x (C*P*Q) maximum (`max`) or average (`avg`) of each R x S
    window of each channel of each image of `input` (N x (C*H*W)), as
    SystemDS computes them: the window's cells in the padding take no part
    in the maximum (a window of padding only gives -1.7976931348623157e308,
    SystemDS's start value), and the average is the sum of the window's
    cells in the image over R*S.

    ```mlir
    %Y = amls.pool max %X input(%n, %c, %h, %w) pool(%two, %two)
         stride(%two, %two) padding(%zero, %zero)
         : !amls.matrix<2x48xf64> -> !amls.matrix<2x12xf64>
    ```
  }];
  let arguments = !con((ins AMLS_PoolingKind:$kind, AMLS_Matrix:$input),
                       AMLS_PoolGeometry);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $kind $input `input` `(` $batch `,` $channels `,` $height `,` $width `)`
    `pool` `(` $windowHeight `,` $windowWidth `)`
    `stride` `(` $strideHeight `,` $strideWidth `)`
    `padding` `(` $padHeight `,` $padWidth `)` attr-dict
    `:` type($input) `->` type($result)
  }];
}

def AMLS_PoolBackwardOp : AMLS_InferOp<"pool_backward", [Pure]> {
  let summary = "gradient of pooling [max_pool_backward(X, dout, ...), "
                "avg_pool_backward(X, dout, ...)]";
  let description = [{
    The N x (C*H*W) gradient of a pooling's input `X` given the gradient
    of its output `dout` (N x (C*P*Q)): for `max`, each window's gradient
    goes to its first maximal cell in row-major order; for `avg`, it is
    spread over the window's cells in the image, each getting 1/(R*S) of
    it. Overlapping windows add up.

    ```mlir
    %dX = amls.pool_backward max %X, %dout input(%n, %c, %h, %w)
          pool(%two, %two) stride(%two, %two) padding(%zero, %zero)
          : !amls.matrix<2x48xf64>, !amls.matrix<2x12xf64>
          -> !amls.matrix<2x48xf64>
    ```
  }];
  let arguments = !con((ins AMLS_PoolingKind:$kind, AMLS_Matrix:$input,
                            AMLS_Matrix:$dout), AMLS_PoolGeometry);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $kind $input `,` $dout `input` `(` $batch `,` $channels `,` $height `,` $width `)`
    `pool` `(` $windowHeight `,` $windowWidth `)`
    `stride` `(` $strideHeight `,` $strideWidth `)`
    `padding` `(` $padHeight `,` $padWidth `)` attr-dict
    `:` type($input) `,` type($dout) `->` type($result)
  }];
}

#endif // AMLS_DIALECT_AMLSNEURALNETWORKOPS_TD
