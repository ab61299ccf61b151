//===- AMLSSizeAndCastOps.td - Sizes, casts, conversions ---*- tablegen -*-===//
//
// Matrix sizes as scalars (nrow, ncol, nnz), conversions between 1x1
// matrices and scalars, type casts and storage-format conversions.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSSIZEANDCASTOPS_TD
#define AMLS_DIALECT_AMLSSIZEANDCASTOPS_TD

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

class AMLS_SizeOp<string mnemonic, string dml, string what, Type resultType>
    : AMLS_InferOp<mnemonic, [Pure]> {
  let summary = "number of " # what # " [" # dml # "]";
  let description = [{
    Folds to a constant when it is known at compile time.

    ```mlir
    %n = amls.}] # mnemonic # [{ %X : !amls.matrix<?x10xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs resultType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def AMLS_NRowOp : AMLS_SizeOp<"nrow", "nrow(X)", "rows", Index>;
def AMLS_NColOp : AMLS_SizeOp<"ncol", "ncol(X)", "columns", Index>;
def AMLS_NnzOp : AMLS_SizeOp<"nnz", "nnz(X)", "non-zero cells", I64>;

//===----------------------------------------------------------------------===//
// Casts and conversions
//===----------------------------------------------------------------------===//

def AMLS_AsScalarOp : AMLS_InferOp<"as_scalar", [Pure]> {
  let summary = "the cell of a 1x1 matrix [as.scalar(X)]";
  let description = [{
    ```mlir
    %s = amls.as_scalar %X : !amls.matrix<1x1xf64> -> f64
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Scalar:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def AMLS_AsMatrixOp : AMLS_InferOp<"as_matrix", [Pure]> {
  let summary = "1x1 matrix holding a scalar [as.matrix(s)]";
  let description = [{
    ```mlir
    %X = amls.as_matrix %s : f64 -> !amls.matrix<1x1xf64>
    ```
  }];
  let arguments = (ins AMLS_Scalar:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_CastOp : AMLS_InferOp<"cast", [
    Pure, DeclareOpInterfaceMethods<CastOpInterface>]> {
  let summary = "change the static type of a matrix (refine or relax)";
  let description = [{
    Changes how much is statically known about a matrix without changing its
    value: sizes may go from known to `?` or back (a runtime check would be
    needed), sparsity estimates may be dropped or added. Element types must
    match and known sizes must agree. The inference pass sees through it (the
    value is the input's) and inserts it where a consumer (a function return,
    a loop-carried value) needs a less precise type than the one inferred.

    ```mlir
    %Y = amls.cast %X : !amls.matrix<4x4xf64, sparsity = 0.5>
         -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def AMLS_ConvertOp : AMLS_InferOp<"convert", [Pure]> {
  let summary = "change the physical format of a matrix (dense <-> CSR)";
  let description = [{
    ```mlir
    %S = amls.convert %X : !amls.matrix<?x?xf64, format = dense>
         -> !amls.matrix<?x?xf64, format = csr>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def AMLS_CompressOp : AMLS_Op<"compress"> {
  let summary = "compress a matrix into column groups (CLA)";
  let description = [{
    Plans and builds the compressed form of a dense or CSR f64 matrix at run
    time (docs/compression.md): column groups in DDC, OLE, RLE or uncompressed
    encodings, co-coded from a sample of rows. Where the plan finds the
    matrix not at least 2x smaller compressed, all its columns form one
    uncompressed group. The result is a handle that `amls.release` frees;
    `--amls-select-compression` inserts both around a loop that reads the
    matrix. With `explain`, the run prints the plan and the groups on
    stderr.

    ```mlir
    %C = amls.compress %X : !amls.matrix<?x?xf64>
         -> !amls.matrix<?x?xf64, format = compressed>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, UnitAttr:$explain);
  let results = (outs Res<AMLS_Matrix, "", [MemAlloc<DefaultResource>]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def AMLS_ReleaseOp : AMLS_Op<"release"> {
  let summary = "free a compressed matrix";
  let description = [{
    Frees what `amls.compress` built; the handle must not be used after.

    ```mlir
    amls.release %C : !amls.matrix<?x?xf64, format = compressed>
    ```
  }];
  let arguments = (ins Arg<AMLS_Matrix, "", [MemFree<DefaultResource>]>:$matrix);
  let assemblyFormat = "$matrix attr-dict `:` type($matrix)";
  let hasVerifier = 1;
}

def AMLS_DecompressOp : AMLS_Op<"decompress"> {
  let summary = "the dense cells of a compressed matrix";
  let description = [{
    Writes the cells of a compressed matrix into a new dense one, for an op
    that has no kernel on the compressed form (`CompressedKernelInterface`).
    `--amls-select-compression` inserts it where that lets the dense source
    be freed once it is compressed; amls-run's `--stats` counts the
    decompressions and their bytes.

    ```mlir
    %D = amls.decompress %C : !amls.matrix<?x?xf64, format = compressed>
         -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins Arg<AMLS_Matrix, "", [MemRead<DefaultResource>]>:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // AMLS_DIALECT_AMLSSIZEANDCASTOPS_TD
