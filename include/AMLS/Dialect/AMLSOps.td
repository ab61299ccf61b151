//===- AMLSOps.td - AMLS operations ------------------------*- tablegen -*-===//
//
// Operations of the AMLS dialect. Each follows the DML (SystemDS) semantics
// of the builtin named in its summary; indices are 0-based and half-open.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSOPS_TD
#define AMLS_DIALECT_AMLSOPS_TD

include "AMLS/Dialect/AMLSDialect.td"
include "AMLS/Dialect/AMLSAttrs.td"
include "AMLS/Dialect/AMLSTypes.td"
include "AMLS/Dialect/AMLSInterfaces.td"
include "mlir/Interfaces/CastInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The C++ type is the matrix type, but it has no stand-alone parse/print
// methods, so operations print it with its `!amls.matrix` prefix.
def AMLS_Matrix : Type<CPred<"::llvm::isa<::mlir::amls::MatrixType>($_self)">,
                       "AMLS matrix", "::mlir::amls::MatrixType">;

def AMLS_Scalar : AnyTypeOf<[AnyFloat, AnySignlessInteger, Index], "scalar">;
def AMLS_MatrixOrScalar : AnyTypeOf<[AMLS_Matrix, AMLS_Scalar],
                                    "AMLS matrix or scalar">;

class AMLS_InferOp<string mnemonic, list<Trait> traits = []>
    : AMLS_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<AMLS_InferMatrixPropertiesInterface>])>;

//===----------------------------------------------------------------------===//
// Data generation
//===----------------------------------------------------------------------===//

def AMLS_FillOp : AMLS_InferOp<"fill", [Pure]> {
  let summary = "matrix filled with one value [matrix(v, rows, cols)]";
  let description = [{
    Creates a `rows x cols` matrix whose cells all hold `value`. The value's
    type is the matrix element type.

    ```mlir
    %z = amls.fill %zero, %r, %c : f64 -> !amls.matrix<?x10xf64>
    ```
  }];
  let arguments = (ins AMLS_Scalar:$value, Index:$rows, Index:$cols);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $value `,` $rows `,` $cols attr-dict `:` type($value) `->` type($result)
  }];
}

def AMLS_RandOp : AMLS_InferOp<"rand", [
    AllTypesMatch<["min", "max", "sparsity"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "random matrix [rand(rows, cols, min, max, sparsity, seed, pdf)]";
  let description = [{
    Creates a `rows x cols` matrix with a fraction `sparsity` of non-zero
    cells drawn from `pdf` (uniform in [min, max], or standard normal).

    Without `seed`, every execution draws a fresh random stream: the op is
    modelled as allocating its result, so two of them are never merged by CSE
    (but an unused one is still removed). With an explicit seed the op is pure
    and two with the same seed and arguments are the same matrix.

    ```mlir
    %X = amls.rand %r, %c, %min, %max, %sp seed %s uniform
         : f64 -> !amls.matrix<1000x100xf64>
    ```
  }];
  let arguments = (ins Index:$rows, Index:$cols, AnyFloat:$min, AnyFloat:$max,
                       AnyFloat:$sparsity, Optional<I64>:$seed,
                       AMLS_RandPdf:$pdf);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $rows `,` $cols `,` $min `,` $max `,` $sparsity (`seed` $seed^)? $pdf
    attr-dict `:` type($min) `->` type($result)
  }];
}

def AMLS_SeqOp : AMLS_InferOp<"seq", [
    Pure, AllTypesMatch<["from", "to", "incr"]>]> {
  let summary = "column vector from, from+incr, ..., to [seq(from, to, incr)]";
  let description = [{
    Creates the column vector `from, from + incr, ...` up to and including
    `to`; its length is `floor((to - from) / incr) + 1`.

    ```mlir
    %s = amls.seq %one, %ten, %one : f64 -> !amls.matrix<10x1xf64>
    ```
  }];
  let arguments = (ins AnyFloat:$from, AnyFloat:$to, AnyFloat:$incr);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $from `,` $to `,` $incr attr-dict `:` type($from) `->` type($result)
  }];
}

def AMLS_ConstantOp : AMLS_InferOp<"constant", [ConstantLike, Pure]> {
  let summary = "dense matrix literal";
  let description = [{
    A matrix given by a dense literal of the same shape and element type.

    ```mlir
    %A = amls.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
         -> !amls.matrix<2x2xf64>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$value attr-dict `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// I/O
//===----------------------------------------------------------------------===//

def AMLS_ReadOp : AMLS_InferOp<"read", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "read a matrix from a file [read(path, format)]";
  let description = [{
    Reads a matrix from `path` in CSV or Matrix Market (`mm`) format.
    A relative path is relative to the working directory of the run.

    `--amls-infer-properties` takes the sizes (and, for a general
    coordinate file, the sparsity) from the header of a Matrix Market file
    that exists at compile time; the lowered code checks them against the
    file it reads at run time.

    ```mlir
    %X = amls.read "data/X.csv" csv : !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins StrAttr:$path, AMLS_FileFormat:$format);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$path $format attr-dict `:` type($result)";
}

def AMLS_WriteOp : AMLS_Op<"write", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "write a matrix to a file [write(X, path, format)]";
  let description = [{
    ```mlir
    amls.write %X, "out/X.mtx" mm : !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, StrAttr:$path,
                       AMLS_FileFormat:$format);
  let assemblyFormat = "$input `,` $path $format attr-dict `:` type($input)";
}

def AMLS_PrintOp : AMLS_Op<"print", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "print a matrix or scalar [print(x)]";
  let description = [{
    ```mlir
    amls.print %X : !amls.matrix<3x3xf64>
    amls.print %s : f64
    ```
  }];
  let arguments = (ins AMLS_MatrixOrScalar:$input);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

class AMLS_MessageOp<string mnemonic> : AMLS_Op<mnemonic, [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let arguments = (ins StrAttr:$format,
                       Variadic<AMLS_MatrixOrScalar>:$values);
  let assemblyFormat = [{
    $format (` ` `(` $values^ `:` type($values) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def AMLS_PrintfOp : AMLS_MessageOp<"printf"> {
  let summary = "print a message built from text and values [print(\"a\" + x)]";
  let description = [{
    Prints `format` with each `{}` replaced by the next value, followed by
    a newline; `{{` and `}}` print literal braces. Numbers are printed as
    `amls.print` prints them (Java's double format for floats, integers as
    integers, `i1` as TRUE/FALSE), matrices in DML's `toString` format.
    This is DML's `print` of a string concatenation.

    ```mlir
    amls.printf "iteration {}: loss = {}" (%i, %loss : i64, f64)
    amls.printf "done"
    ```
  }];
}

def AMLS_StopOp : AMLS_MessageOp<"stop"> {
  let summary = "end the program with a message [stop(\"...\")]";
  let description = [{
    Prints `amls: stop: ` and the message (formatted as in `amls.printf`)
    to standard error and ends the program with exit status 1. Code after
    it does not run.

    ```mlir
    amls.stop "invalid value {} for lambda" (%lambda : f64)
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Element-wise binary operations
//===----------------------------------------------------------------------===//

// `scalarFn` is the cell function on doubles (used by the folder and by the
// sparsity estimate for matrix-scalar operands); `sparsity` says which cells
// of two matrices can be non-zero: Union (f(x,0)!=0 or f(0,y)!=0 possible),
// Intersection (needs both non-zero), LeftOrRightZero (f(0,y)=0 unless y=0),
// or Unknown (f(0,0) may be non-zero).
// `leftIdentity`/`rightIdentity` are the scalars c with f(c, X) = X or
// f(X, c) = X, where such exist; the canonicalizer drops them.
class AMLS_BinaryOp<string mnemonic, string dml, string scalarFn,
                    string sparsity, list<Trait> traits = [],
                    string leftIdentity = "std::nullopt",
                    string rightIdentity = "std::nullopt">
    : AMLS_InferOp<mnemonic, !listconcat([Pure,
        DeclareOpInterfaceMethods<AMLS_ElementwiseOpInterface,
                                  ["supportsElementType"]>], traits)> {
  // Set for functions that only exist on floating point.
  bit floatOnly = 0;
  let summary = "element-wise " # mnemonic # " [" # dml # "]";
  let description = [{
    Applies the operation cell by cell. Each operand is a matrix or a scalar
    (at least one is a matrix); a scalar is broadcast to every cell, and a
    row vector (1xC) or column vector (Rx1) is broadcast across an RxC
    matrix. Scalars have the matrix element type.

    ```mlir
    %r = amls.}] # mnemonic # [{ %X, %Y : !amls.matrix<4x3xf64>, !amls.matrix<1x3xf64>
         -> !amls.matrix<4x3xf64>
    ```
  }];
  let arguments = (ins AMLS_MatrixOrScalar:$lhs, AMLS_MatrixOrScalar:$rhs);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The cell function of this operation on doubles.
    static double applyScalar(double lhs, double rhs) { }] # scalarFn # [{ }
    static std::optional<double> getLeftIdentity() { return }] # leftIdentity # [{; }
    static std::optional<double> getRightIdentity() { return }] # rightIdentity # [{; }
    static constexpr ::mlir::amls::BinarySparsity kSparsity =
        ::mlir::amls::BinarySparsity::}] # sparsity # [{;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferMatrixProperties(
        const ::mlir::amls::MatrixInferenceContext &context,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredTypes) {
      return ::mlir::amls::detail::inferElementwiseBinary(
          context, kSparsity, &$cppClass::applyScalar, inferredTypes);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::amls::detail::foldElementwiseBinary(
          getOperation(), adaptor.getLhs(), adaptor.getRhs(),
          &$cppClass::applyScalar);
    }
    ::mlir::Value $cppClass::buildCellComputation(::mlir::OpBuilder &builder,
        ::mlir::Location loc, ::mlir::ValueRange cells) {
      return ::mlir::amls::buildCell(*this, builder, loc, cells);
    }
    bool $cppClass::supportsElementType(::mlir::Type elementType) {
      return }] # !if(floatOnly, "::llvm::isa<::mlir::FloatType>(elementType)",
                      "true") # [{;
    }
    void $cppClass::getCanonicalizationPatterns(
        ::mlir::RewritePatternSet &results, ::mlir::MLIRContext *context) {
      ::mlir::amls::detail::populateIdentityPatterns(
          results, getOperationName(), getLeftIdentity(), getRightIdentity());
    }
  }];
}

def AMLS_AddOp : AMLS_BinaryOp<"add", "+", "return lhs + rhs;", "Union",
                               [Commutative], "0.0", "0.0">;
def AMLS_SubOp : AMLS_BinaryOp<"sub", "-", "return lhs - rhs;", "Union", [],
                               "std::nullopt", "0.0">;
def AMLS_MulOp : AMLS_BinaryOp<"mul", "*", "return lhs * rhs;", "Intersection",
                               [Commutative, AMLS_SparseSafe], "1.0", "1.0">;
def AMLS_DivOp : AMLS_BinaryOp<"div", "/", "return lhs / rhs;",
                               "LeftOrRightZero", [], "std::nullopt", "1.0"> {
  let floatOnly = 1;
}
def AMLS_PowOp : AMLS_BinaryOp<"pow", "^", "return std::pow(lhs, rhs);",
                               "Unknown", [], "std::nullopt", "1.0"> {
  let floatOnly = 1;
}
def AMLS_MinOp : AMLS_BinaryOp<"min", "min",
                               "return std::isnan(lhs) || std::isnan(rhs) ? "
                               "NAN : std::fmin(lhs, rhs);",
                               "Union", [Commutative]>;
def AMLS_MaxOp : AMLS_BinaryOp<"max", "max",
                               "return std::isnan(lhs) || std::isnan(rhs) ? "
                               "NAN : std::fmax(lhs, rhs);",
                               "Union", [Commutative]>;
// DML's %% and %/% floor towards negative infinity (R semantics).
def AMLS_ModOp : AMLS_BinaryOp<"mod", "%%",
                               "return lhs - std::floor(lhs / rhs) * rhs;",
                               "LeftOrRightZero"> {
  let floatOnly = 1;
}
def AMLS_IntDivOp : AMLS_BinaryOp<"intdiv", "%/%",
                                  "return std::floor(lhs / rhs);",
                                  "LeftOrRightZero"> {
  let floatOnly = 1;
}
def AMLS_LtOp : AMLS_BinaryOp<"lt", "<", "return lhs < rhs ? 1.0 : 0.0;",
                              "Union">;
def AMLS_LeOp : AMLS_BinaryOp<"le", "<=", "return lhs <= rhs ? 1.0 : 0.0;",
                              "Unknown">;
def AMLS_GtOp : AMLS_BinaryOp<"gt", ">", "return lhs > rhs ? 1.0 : 0.0;",
                              "Union">;
def AMLS_GeOp : AMLS_BinaryOp<"ge", ">=", "return lhs >= rhs ? 1.0 : 0.0;",
                              "Unknown">;
def AMLS_EqOp : AMLS_BinaryOp<"eq", "==", "return lhs == rhs ? 1.0 : 0.0;",
                              "Unknown", [Commutative]>;
def AMLS_NeOp : AMLS_BinaryOp<"ne", "!=", "return lhs != rhs ? 1.0 : 0.0;",
                              "Union", [Commutative]>;
def AMLS_AndOp : AMLS_BinaryOp<"and", "&",
                               "return (lhs != 0 && rhs != 0) ? 1.0 : 0.0;",
                               "Intersection", [Commutative, AMLS_SparseSafe]>;
def AMLS_OrOp : AMLS_BinaryOp<"or", "|",
                              "return (lhs != 0 || rhs != 0) ? 1.0 : 0.0;",
                              "Union", [Commutative]>;

//===----------------------------------------------------------------------===//
// Element-wise unary operations
//===----------------------------------------------------------------------===//

// `sparsityFn` maps the input's estimated sparsity `s` to the result's.
// `involution`: f(f(X)) = X, which the canonicalizer removes.
class AMLS_UnaryOp<string mnemonic, string dml, string scalarFn,
                   list<Trait> traits = [],
                   string sparsityFn = "return 1.0;", bit involution = 0>
    : AMLS_InferOp<mnemonic, !listconcat([Pure,
        DeclareOpInterfaceMethods<AMLS_ElementwiseOpInterface,
                                  ["supportsElementType"]>], traits)> {
  // Set for functions that only exist on floating point.
  bit floatOnly = 0;
  let summary = "element-wise " # mnemonic # " [" # dml # "]";
  let description = [{
    Applies the function to every cell of the input matrix. Scalars use the
    `arith` and `math` dialects instead.

    ```mlir
    %r = amls.}] # mnemonic # [{ %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The cell function of this operation on doubles.
    static double applyScalar(double x) { }] # scalarFn # [{ }
    /// The estimated sparsity of the result from the input's.
    static std::optional<double> estimateSparsity(
        std::optional<double> s) { }] # sparsityFn # [{ }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferMatrixProperties(
        const ::mlir::amls::MatrixInferenceContext &context,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredTypes) {
      return ::mlir::amls::detail::inferElementwiseUnary(
          context, &$cppClass::estimateSparsity, inferredTypes);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::amls::detail::foldElementwiseUnary(
          getOperation(), adaptor.getInput(), &$cppClass::applyScalar);
    }
    ::mlir::Value $cppClass::buildCellComputation(::mlir::OpBuilder &builder,
        ::mlir::Location loc, ::mlir::ValueRange cells) {
      return ::mlir::amls::buildCell(*this, builder, loc, cells);
    }
    bool $cppClass::supportsElementType(::mlir::Type elementType) {
      return }] # !if(floatOnly, "::llvm::isa<::mlir::FloatType>(elementType)",
                      "true") # [{;
    }
    void $cppClass::getCanonicalizationPatterns(
        ::mlir::RewritePatternSet &results, ::mlir::MLIRContext *context) {
      if (}] # !if(involution, "true", "false") # [{)
        ::mlir::amls::detail::populateInvolutionPatterns(results,
                                                         getOperationName());
    }
  }];
  let hasCanonicalizer = 1;
}

class AMLS_SparseSafeUnaryOp<string mnemonic, string dml, string scalarFn,
                             bit involution = 0>
    : AMLS_UnaryOp<mnemonic, dml, scalarFn, [AMLS_SparseSafe], "return s;",
                   involution>;

def AMLS_NegOp : AMLS_SparseSafeUnaryOp<"neg", "-X", "return -x;",
                                        /*involution=*/1>;
def AMLS_NotOp : AMLS_UnaryOp<"not", "!X", "return x == 0 ? 1.0 : 0.0;", [],
    "return s ? std::optional<double>(1.0 - *s) : std::nullopt;">;
def AMLS_AbsOp : AMLS_SparseSafeUnaryOp<"abs", "abs", "return std::fabs(x);">;
def AMLS_ExpOp : AMLS_UnaryOp<"exp", "exp", "return std::exp(x);"> {
  let floatOnly = 1;
}
def AMLS_LogOp : AMLS_UnaryOp<"log", "log", "return std::log(x);"> {
  let floatOnly = 1;
}
def AMLS_SqrtOp : AMLS_SparseSafeUnaryOp<"sqrt", "sqrt",
                                         "return std::sqrt(x);"> {
  let floatOnly = 1;
}
// Java's Math.round, as in DML: floor(x + 0.5), and 0 for NaN.
def AMLS_RoundOp : AMLS_SparseSafeUnaryOp<"round", "round",
    "return std::isnan(x) ? 0.0 : std::floor(x + 0.5);"> {
  let floatOnly = 1;
}
def AMLS_FloorOp : AMLS_SparseSafeUnaryOp<"floor", "floor",
                                          "return std::floor(x);"> {
  let floatOnly = 1;
}
def AMLS_CeilOp : AMLS_SparseSafeUnaryOp<"ceil", "ceil",
                                         "return std::ceil(x);"> {
  let floatOnly = 1;
}
def AMLS_SignOp : AMLS_SparseSafeUnaryOp<"sign", "sign",
    "return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);">;
def AMLS_SigmoidOp : AMLS_UnaryOp<"sigmoid", "sigmoid",
                                  "return 1.0 / (1.0 + std::exp(-x));"> {
  let floatOnly = 1;
}
def AMLS_SinOp : AMLS_SparseSafeUnaryOp<"sin", "sin", "return std::sin(x);"> {
  let floatOnly = 1;
}
def AMLS_CosOp : AMLS_UnaryOp<"cos", "cos", "return std::cos(x);"> {
  let floatOnly = 1;
}
def AMLS_TanhOp : AMLS_SparseSafeUnaryOp<"tanh", "tanh",
                                         "return std::tanh(x);"> {
  let floatOnly = 1;
}
def AMLS_IsNaNOp : AMLS_SparseSafeUnaryOp<"isnan", "isNaN",
                                          "return std::isnan(x) ? 1.0 : 0.0;">;

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

def AMLS_IfElseOp : AMLS_InferOp<"ifelse", [
    Pure, DeclareOpInterfaceMethods<AMLS_ElementwiseOpInterface>]> {
  let summary = "cell-wise selection [ifelse(cond, a, b)]";
  let description = [{
    Selects `a` where `cond` is non-zero and `b` elsewhere. Each operand is a
    matrix or a scalar; at least one is a matrix and all matrices have the
    same shape.

    ```mlir
    %r = amls.ifelse %C, %X, %zero : !amls.matrix<4x4xf64>,
         !amls.matrix<4x4xf64>, f64 -> !amls.matrix<4x4xf64>
    ```
  }];
  let arguments = (ins AMLS_MatrixOrScalar:$condition,
                       AMLS_MatrixOrScalar:$trueValue,
                       AMLS_MatrixOrScalar:$falseValue);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:`
    type($condition) `,` type($trueValue) `,` type($falseValue)
    `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def AMLS_MatmulOp : AMLS_InferOp<"matmul", [Pure]> {
  let summary = "matrix product [A %*% B]";
  let description = [{
    ```mlir
    %C = amls.matmul %A, %B : !amls.matrix<4x8xf64>, !amls.matrix<8x2xf64>
         -> !amls.matrix<4x2xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$lhs, AMLS_Matrix:$rhs);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
}

def AMLS_TsmmOp : AMLS_InferOp<"tsmm", [Pure]> {
  let summary = "transpose-self product [t(X) %*% X, X %*% t(X)]";
  let description = [{
    `left` computes `t(X) %*% X` (CxC), `right` computes `X %*% t(X)` (RxR).
    The result is symmetric, so only one triangle needs to be computed.

    ```mlir
    %G = amls.tsmm left %X : !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
    ```
  }];
  let arguments = (ins AMLS_TsmmSide:$side, AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$side $input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_MMChainOp : AMLS_InferOp<"mmchain", [Pure]> {
  let summary = "matrix-multiply chain [t(X) %*% (w * (X %*% v))]";
  let description = [{
    Computes `t(X) %*% (X %*% v)`, or `t(X) %*% (w * (X %*% v))` with the
    optional weights `w`, in one pass over `X` (RxC). `v` is Cx1, `w` is Rx1
    and the result is Cx1.

    ```mlir
    %g = amls.mmchain %X, %v weights %w : !amls.matrix<?x10xf64>,
         !amls.matrix<10x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<10x1xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, AMLS_Matrix:$vector,
                       Optional<AMLS_Matrix>:$weights);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `,` $vector (`weights` $weights^)? attr-dict `:` type($input) `,`
    type($vector) (`,` type($weights)^)? `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Aggregates
//===----------------------------------------------------------------------===//

def AMLS_AggOp : AMLS_InferOp<"agg", [Pure]> {
  let summary = "aggregate [sum, rowSums, colMeans, max, var, rowIndexMax, ...]";
  let description = [{
    Aggregates all cells (`all`, a scalar of the element type), each row
    (`row`, an Rx1 matrix) or each column (`col`, a 1xC matrix). `maxindex`
    and `minindex` (rowIndexMax/rowIndexMin, colIndexMax/...) return 1-based
    positions as in DML and are only defined per row or column. `var` and `sd`
    use the unbiased (n-1) estimator.

    ```mlir
    %s = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
    %r = amls.agg mean row %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x1xf64>
    ```
  }];
  let arguments = (ins AMLS_AggKind:$kind, AMLS_AggAxis:$axis,
                       AMLS_Matrix:$input);
  let results = (outs AMLS_MatrixOrScalar:$result);
  let assemblyFormat = [{
    $kind $axis $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def AMLS_TraceOp : AMLS_InferOp<"trace", [Pure]> {
  let summary = "sum of the diagonal [trace(X)]";
  let description = [{
    ```mlir
    %t = amls.trace %X : !amls.matrix<4x4xf64> -> f64
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Scalar:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def AMLS_CumAggOp : AMLS_InferOp<"cumagg", [Pure]> {
  let summary = "column-wise cumulative aggregate [cumsum, cumprod, cummin, cummax]";
  let description = [{
    Row `i` of the result aggregates rows `0..i` of the input, per column.

    ```mlir
    %c = amls.cumagg cumsum %X : !amls.matrix<5x2xf64> -> !amls.matrix<5x2xf64>
    ```
  }];
  let arguments = (ins AMLS_CumAggKind:$kind, AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reorganisation
//===----------------------------------------------------------------------===//

def AMLS_TransposeOp : AMLS_InferOp<"transpose", [Pure]> {
  let summary = "transpose [t(X)]";
  let description = [{
    ```mlir
    %T = amls.transpose %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def AMLS_ReshapeOp : AMLS_InferOp<"reshape", [Pure]> {
  let summary = "row-major reshape [matrix(X, rows, cols)]";
  let description = [{
    Reinterprets the cells of `input`, in row-major order, as a
    `rows x cols` matrix; the number of cells must not change.

    ```mlir
    %Y = amls.reshape %X, %r, %c : !amls.matrix<4x3xf64> -> !amls.matrix<2x6xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, Index:$rows, Index:$cols);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `,` $rows `,` $cols attr-dict `:` type($input) `->` type($result)
  }];
}

def AMLS_DiagOp : AMLS_InferOp<"diag", [Pure]> {
  let summary = "diagonal matrix from a vector, or diagonal of a matrix [diag(X)]";
  let description = [{
    For a column vector (Nx1) the result is the NxN diagonal matrix; for a
    square NxN matrix the result is the column vector of its diagonal.

    ```mlir
    %D = amls.diag %v : !amls.matrix<5x1xf64> -> !amls.matrix<5x5xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_RevOp : AMLS_InferOp<"rev", [Pure]> {
  let summary = "reverse the order of rows [rev(X)]";
  let description = [{
    ```mlir
    %R = amls.rev %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasCanonicalizer = 1;
}

class AMLS_ConcatOp<string mnemonic, string dml, string joined,
                    string shared, string example>
    : AMLS_InferOp<mnemonic, [Pure]> {
  let summary = "concatenate " # joined # " [" # dml # "]";
  let description = [{
    Places two or more matrices side by side (cbind) or on top of each other
    (rbind); all inputs must have the same number of }] # shared # [{.

    ```mlir
    }] # example # [{
    ```
  }];
  let arguments = (ins Variadic<AMLS_Matrix>:$inputs);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($result)";
}

def AMLS_CBindOp : AMLS_ConcatOp<"cbind", "cbind(A, B, ...)", "columns",
    "rows", "%C = amls.cbind %A, %B : !amls.matrix<4x3xf64>, "
            "!amls.matrix<4x1xf64> -> !amls.matrix<4x4xf64>">;
def AMLS_RBindOp : AMLS_ConcatOp<"rbind", "rbind(A, B, ...)", "rows",
    "columns", "%C = amls.rbind %A, %B : !amls.matrix<4x3xf64>, "
               "!amls.matrix<1x3xf64> -> !amls.matrix<5x3xf64>">;

def AMLS_SliceOp : AMLS_InferOp<"slice", [Pure]> {
  let summary = "right indexing [X[a:b, c:d]]";
  let description = [{
    Extracts rows `[rowBegin, rowEnd)` and columns `[colBegin, colEnd)`
    (0-based, half-open; the DML frontend converts from 1-based inclusive).
    Bounds must satisfy `0 <= begin <= end <= size`.

    ```mlir
    %S = amls.slice %X[%r0 : %r1, %c0 : %c1] : !amls.matrix<10x10xf64>
         -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, Index:$rowBegin, Index:$rowEnd,
                       Index:$colBegin, Index:$colEnd);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `[` $rowBegin `:` $rowEnd `,` $colBegin `:` $colEnd `]` attr-dict
    `:` type($input) `->` type($result)
  }];
}

def AMLS_InsertSliceOp : AMLS_InferOp<"insert_slice", [Pure]> {
  let summary = "left indexing [X[a:b, c:d] = Y]";
  let description = [{
    Returns a copy of `dest` whose rows `[rowBegin, rowEnd)` and columns
    `[colBegin, colEnd)` are replaced by `source`, which must have exactly
    that shape.

    ```mlir
    %Z = amls.insert_slice %Y into %X[%r0 : %r1, %c0 : %c1]
         : !amls.matrix<2x2xf64> into !amls.matrix<10x10xf64>
         -> !amls.matrix<10x10xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$source, AMLS_Matrix:$dest,
                       Index:$rowBegin, Index:$rowEnd, Index:$colBegin,
                       Index:$colEnd);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $source `into` $dest `[` $rowBegin `:` $rowEnd `,` $colBegin `:` $colEnd
    `]` attr-dict `:` type($source) `into` type($dest) `->` type($result)
  }];
}

def AMLS_RemoveEmptyOp : AMLS_InferOp<"remove_empty", [Pure]> {
  let summary = "drop all-zero rows or columns [removeEmpty(X, margin, select)]";
  let description = [{
    Removes the rows (or columns) that contain only zeros, or, with `select`
    (a column vector for rows, a row vector for columns), keeps exactly the
    rows (columns) whose selector is non-zero. The result size depends on the
    data.

    ```mlir
    %Y = amls.remove_empty rows %X : !amls.matrix<100x5xf64> -> !amls.matrix<?x5xf64>
    ```
  }];
  let arguments = (ins AMLS_Margin:$margin, AMLS_Matrix:$input,
                       Optional<AMLS_Matrix>:$select);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $margin $input (`select` $select^)? attr-dict `:` type($input)
    (`,` type($select)^)? `->` type($result)
  }];
}

def AMLS_ReplaceOp : AMLS_InferOp<"replace", [
    Pure, DeclareOpInterfaceMethods<AMLS_ElementwiseOpInterface>]> {
  let summary = "replace cells equal to a pattern [replace(X, pattern, replacement)]";
  let description = [{
    Replaces every cell equal to `pattern` (NaN matches NaN) by `replacement`.
    On an i64 matrix the cells are compared as floating-point numbers (a NaN
    or fractional pattern matches nothing) and the replacement is truncated
    towards zero.

    ```mlir
    %Y = amls.replace %X, %nan, %zero : !amls.matrix<?x?xf64>, f64, f64
         -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, AnyFloat:$pattern,
                       AnyFloat:$replacement);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `,` $pattern `,` $replacement attr-dict `:` type($input) `,`
    type($pattern) `,` type($replacement) `->` type($result)
  }];
}

def AMLS_TableOp : AMLS_InferOp<"table", [Pure, AttrSizedOperandSegments]> {
  let summary = "contingency table [table(A, B, W, rows, cols)]";
  let description = [{
    For column vectors `A` and `B` of 1-based category ids, counts (or sums
    the `weights` of) each pair: `result[A[i]-1, B[i]-1] += W[i]`. Without
    `size` the result is `max(A) x max(B)`; with it, pairs outside the given
    size are dropped.

    ```mlir
    %T = amls.table %a, %b size %r, %c : !amls.matrix<?x1xf64>,
         !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$lhs, AMLS_Matrix:$rhs,
                       Optional<AMLS_Matrix>:$weights, Optional<Index>:$rows,
                       Optional<Index>:$cols);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`weights` $weights^)? (`size` $rows^ `,` $cols)? attr-dict
    `:` type($lhs) `,` type($rhs) (`,` type($weights)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def AMLS_OrderOp : AMLS_InferOp<"order", [Pure]> {
  let summary = "sort rows by a column [order(X, by, decreasing, index.return)]";
  let description = [{
    Sorts the rows of `input` by column `by` (0-based), stably. With
    `indices` the result is the Rx1 vector of 1-based row positions instead.

    ```mlir
    %S = amls.order %X by %c decreasing : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, Index:$by, UnitAttr:$decreasing,
                       UnitAttr:$indices);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `by` $by (`decreasing` $decreasing^)? (`indices` $indices^)?
    attr-dict `:` type($input) `->` type($result)
  }];
}

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

//===----------------------------------------------------------------------===//
// Regions: parfor and fused operators
//===----------------------------------------------------------------------===//

def AMLS_ParforOp : AMLS_Op<"parfor", [
    AutomaticAllocationScope, RecursiveMemoryEffects, SingleBlock,
    DeclareOpInterfaceMethods<RegionBranchOpInterface,
                              ["getEntrySuccessorOperands"]>]> {
  let summary = "parallel loop writing disjoint slices of results [parfor]";
  let description = [{
    Runs the body for `lowerBound <= i < upperBound` in steps of `step`, in
    any order and in parallel. The body's block arguments are the induction
    variable and one matrix per `shared` operand (the result matrices). Each
    iteration must only write (with `amls.insert_slice`) slices of the shared
    matrices that no other iteration writes, and yields them; the op returns
    the merged matrices.

    ```mlir
    %R = amls.parfor %lb to %ub step %one shared(%init : !amls.matrix<100x1xf64>) {
    ^bb0(%i: index, %acc: !amls.matrix<100x1xf64>):
      ...
      amls.yield %acc2 : !amls.matrix<100x1xf64>
    } -> !amls.matrix<100x1xf64>
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       Variadic<AMLS_Matrix>:$shared);
  let results = (outs Variadic<AMLS_Matrix>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `step` $step
    (`shared` `(` $shared^ `:` type($shared) `)`)? $body attr-dict
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

def AMLS_FusedOp : AMLS_InferOp<"fused", [
    Pure, SingleBlock, IsolatedFromAbove]> {
  let summary = "fused operator computing one loop nest";
  let description = [{
    The output of operator fusion. The template (`cell`, `magg`, `row`,
    `outer`) records the plan chosen by the fusion pass and selects the
    lowering.

    Cell-wise templates (`cell`, `magg`): the body computes the cell function
    of a fused chain of element-wise operations for one cell of the main
    (first) input, with one block argument per input (the cell value for
    matrices, the value itself for scalars). Without `aggregate` every result
    is a matrix of the main input's shape; with `aggregate` (one kind per
    result: sum, sumsq, min, max) the cell values are reduced over `axis`.

    ```mlir
    %s = amls.fused cell aggregate [sum] all ins(%X, %Y) : (!amls.matrix<?x?xf64>,
         !amls.matrix<?x?xf64>) -> f64 {
    ^bb0(%x: f64, %y: f64):
      %p = arith.mulf %x, %y : f64
      amls.yield %p : f64
    }
    ```

    Row template (`row`): the first `row_inputs` inputs (the main input first)
    have one row per row of the main input and are read a block of rows at a
    time; the body maps such a block (a matrix with any number of rows) to a
    block of each result, with row-local ops (`RowLocalityInterface`) that
    compute each row of their result from the same row of their operands
    (element-wise ops, row aggregates, products with a whole side input,
    column slices). The other inputs
    (side inputs and scalars) are passed whole. Without `aggregate` every
    result has one row per row of the main input, computed block by block;
    with `aggregate` (sum, min or max per result, no axis) the body yields a
    partial result per block (e.g. `t(Xb) %*% Rb`), and the blocks' partial
    results are combined. The main input is read from memory once.

    ```mlir
    %H = amls.fused row aggregate [sum] row_inputs 2 ins(%X, %P, %V)
         : (!amls.matrix<?x100xf64>, !amls.matrix<?x5xf64>,
            !amls.matrix<100x5xf64>) -> !amls.matrix<100x5xf64> {
    ^bb0(%x: !amls.matrix<?x100xf64>, %p: !amls.matrix<?x5xf64>,
         %v: !amls.matrix<100x5xf64>):
      %xv = amls.matmul %x, %v : ...
      %q = amls.mul %p, %xv : ...
      %xt = amls.transpose %x : ...
      %h = amls.matmul %xt, %q : ...
      amls.yield %h : !amls.matrix<100x5xf64>
    }
    ```

    Outer template (`outer`): inputs #1 and #2 are the factors `U` (RxK)
    and `V` (CxK) of the outer product `U %*% t(V)` of the main input's
    shape; the body sees the main input's cell, the cell of the product and
    the other inputs' cells or values (one argument fewer than inputs). The
    body must be zero wherever the main input is (sparse-safe, e.g.
    `X * log(U %*% t(V) + eps)`): cells where the main input is zero are
    skipped, the product's cell is computed only for the others. The only
    aggregation is a sum over all cells.

    ```mlir
    %s = amls.fused outer aggregate [sum] all ins(%X, %U, %V, %eps)
         : (!amls.matrix<?x?xf64>, !amls.matrix<?x10xf64>,
            !amls.matrix<?x10xf64>, f64) -> f64 {
    ^bb0(%x: f64, %uv: f64, %e: f64):
      %a = arith.addf %uv, %e : f64
      %l = math.log %a : f64
      %p = arith.mulf %x, %l : f64
      amls.yield %p : f64
    }
    ```
  }];
  let arguments = (ins AMLS_FusedTemplate:$kind,
                       OptionalAttr<AMLS_AggKindArrayAttr>:$aggregate,
                       OptionalAttr<AMLS_AggAxis>:$axis,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$row_inputs,
                       Variadic<AMLS_MatrixOrScalar>:$inputs);
  let results = (outs Variadic<AMLS_MatrixOrScalar>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind (`aggregate` custom<AggKindList>($aggregate)^)? ($axis^)?
    (`row_inputs` $row_inputs^)?
    `ins` `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    LogicalResult verifyRowTemplate(YieldOp yield);
    LogicalResult verifyRowLocalBody(uint64_t rowInputs);
    LogicalResult verifyOuterTemplate(YieldOp yield);
  }];
}

def AMLS_YieldOp : AMLS_Op<"yield", [
    Pure, Terminator, ReturnLike, ParentOneOf<["ParforOp", "FusedOp"]>]> {
  let summary = "terminator of parfor and fused bodies";
  let description = [{
    ```mlir
    amls.yield %v : f64
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

#endif // AMLS_DIALECT_AMLSOPS_TD
