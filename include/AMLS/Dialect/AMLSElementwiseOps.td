//===- AMLSElementwiseOps.td - Element-wise operations -----*- tablegen -*-===//
//
// Cell-by-cell operations: binary operations with DML broadcasting, unary
// functions, and the ternary selection ifelse.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSELEMENTWISEOPS_TD
#define AMLS_DIALECT_AMLSELEMENTWISEOPS_TD

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

// DML's bitwise functions work on Java ints, as SystemDS's do: each operand
// is sign(x) * floor(|x| + 2^-53) (UtilFunctions.toInt), NaN 0 and beyond
// the int range saturated; shifts take the count modulo 32 (Java), and
// bitwShiftL gives NaN where the result is the smallest int (R's overflow).
// `body` computes the int result from ints `a` and `b`.
class AMLS_BitwiseOp<string mnemonic, string dml, string body,
                     string sparsity, list<Trait> traits = []>
    : AMLS_BinaryOp<mnemonic, dml, [{
        auto toInt = [](double v) -> int32_t {
          if (std::isnan(v))
            return 0;
          double t = std::floor(std::fabs(v) + 0x1p-53);
          t = std::fmin(std::fmax(v < 0 ? -t : t, -2147483648.0),
                        2147483647.0);
          return static_cast<int32_t>(t);
        };
        int32_t a = toInt(lhs), b = toInt(rhs);
      }] # body, sparsity, traits> {
  let floatOnly = 1;
}

def AMLS_BitwAndOp : AMLS_BitwiseOp<"bitwand", "bitwAnd", "return a & b;",
                                    "Intersection",
                                    [Commutative, AMLS_SparseSafe]>;
def AMLS_BitwOrOp : AMLS_BitwiseOp<"bitwor", "bitwOr", "return a | b;",
                                   "Union", [Commutative]>;
def AMLS_BitwXorOp : AMLS_BitwiseOp<"bitwxor", "bitwXor", "return a ^ b;",
                                    "Union", [Commutative]>;
// Shifting 0 gives 0: non-zero only where the left operand is.
def AMLS_BitwShiftLOp : AMLS_BitwiseOp<"bitwshiftl", "bitwShiftL", [{
    int32_t r = static_cast<int32_t>(static_cast<uint32_t>(a) << (b & 31));
    return r == INT32_MIN ? static_cast<double>(NAN) : static_cast<double>(r);
  }], "LeftOrRightZero">;
def AMLS_BitwShiftROp : AMLS_BitwiseOp<"bitwshiftr", "bitwShiftR",
                                       "return a >> (b & 31);",
                                       "LeftOrRightZero">;

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
// tan, asin, atan and sinh map 0 to 0 (sparse-safe); acos and cosh do not.
def AMLS_TanOp : AMLS_SparseSafeUnaryOp<"tan", "tan", "return std::tan(x);"> {
  let floatOnly = 1;
}
def AMLS_AsinOp : AMLS_SparseSafeUnaryOp<"asin", "asin",
                                         "return std::asin(x);"> {
  let floatOnly = 1;
}
def AMLS_AcosOp : AMLS_UnaryOp<"acos", "acos", "return std::acos(x);"> {
  let floatOnly = 1;
}
def AMLS_AtanOp : AMLS_SparseSafeUnaryOp<"atan", "atan",
                                         "return std::atan(x);"> {
  let floatOnly = 1;
}
def AMLS_SinhOp : AMLS_SparseSafeUnaryOp<"sinh", "sinh",
                                         "return std::sinh(x);"> {
  let floatOnly = 1;
}
def AMLS_CoshOp : AMLS_UnaryOp<"cosh", "cosh", "return std::cosh(x);"> {
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

#endif // AMLS_DIALECT_AMLSELEMENTWISEOPS_TD
