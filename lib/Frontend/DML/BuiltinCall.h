//===- BuiltinCall.h - One call of a DML builtin ----------------*- C++ -*-===//
//
// The builders of the builtin table (Builtins.cpp) are methods of
// BuiltinCall; the I/O and printing ones live in BuiltinsIO.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_FRONTEND_DML_BUILTINCALL_H
#define AMLS_LIB_FRONTEND_DML_BUILTINCALL_H

#include "Importer.h"

#include "AMLS/Runtime/FileMetadata.h"

namespace mlir::amls::dml::importer {

/// One call of a builtin being imported; the builders are its methods.
class BuiltinCall {
public:
  BuiltinCall(Importer &im, const CallExpr *call, BoundArgs args)
      : im(im), builder(im.getBuilder()), call(call), args(std::move(args)),
        l(im.loc(call->getLoc())), where(call->getLoc()), name(call->callee) {}

  /// An element-wise function of a matrix or a number.
  template <typename OpTy> DValue buildElementwise();
  DValue buildIsNaN();
  DValue buildIsInfinite();
  DValue buildLog();
  template <AggKind Kind, AggAxis Axis> DValue buildAggregate();
  DValue buildMinMax();
  DValue buildMatrix();
  DValue buildRand();
  DValue buildSeq();
  DValue buildRead();
  DValue buildSize();
  DValue buildNnz();
  DValue buildTranspose();
  /// compress(X), decompress(X): X.
  DValue buildStorageHint();
  /// exists(X), exists("X"): whether variable X is assigned on the path
  /// taken.
  DValue buildExists();
  /// time(): nanoseconds on a monotonic clock, an integer.
  DValue buildTime();
  DValue buildDiag();
  DValue buildRev();
  DValue buildTrace();
  DValue buildAsScalar();
  DValue buildAsMatrix();
  DValue buildAsNumber();
  template <CumAggKind Kind> DValue buildCumulative();
  DValue buildBind();
  DValue buildRemoveEmpty();
  DValue buildReplace();
  DValue buildTable();
  DValue buildOrder();
  DValue buildIfElse();
  DValue buildPpred();
  DValue buildIfdef();
  DValue buildToString();

  // Frames and feature transformation (BuiltinsFrame.cpp).
  std::vector<DValue> buildTransformEncode();
  DValue buildTransformApply();
  DValue buildTransformDecode();
  DValue buildAsFrame();
  DValue buildDetectSchema();
  DValue buildColNames();
  DValue buildApplySchema();
  /// cbind/rbind of frames (all `values` must be frames).
  DValue bindFrames(llvm::ArrayRef<DValue> values);
  DValue buildPrintOrStop();
  /// print(format, args...): the message Java's String.format makes of a
  /// format known before the run and the arguments (BoundArgs::rest).
  std::optional<DValue> formatArguments(const DValue &format);
  DValue buildWrite();
  // Statistics (BuiltinsStatistics.cpp).
  DValue buildMean();
  DValue buildMoment();
  DValue buildCov();
  DValue buildQuantile();
  DValue buildMedian();
  DValue buildInterQuartileMean();
  DValue buildGroupedAggregate();
  DValue buildOuter();
  DValue buildSample();
  DValue buildUnique();
  DValue buildCountDistinct();
  DValue buildContains();
  DValue buildXor();
  DValue buildAssert();
  DValue buildBias();
  // Probability distributions (BuiltinsDistributions.cpp).
  /// The parameters of cdf, icdf, pnorm, qnorm, ... and how many are
  /// required.
  static std::pair<std::vector<llvm::StringRef>, size_t>
  distributionSignature(llvm::StringRef name);
  DValue buildDistribution();
  // Bitwise functions (BuiltinsBitwise.cpp).
  template <typename OpTy> DValue buildBitwise();
  /// rowCountDistinct, colCountDistinct (BuiltinsDistinct.cpp).
  DValue buildCountDistinctByRow();
  DValue buildCountDistinctApprox();

  // Linear algebra (BuiltinsLinearAlgebra.cpp).
  /// A function of one matrix that is a matrix: inv, cholesky.
  template <typename OpTy> DValue buildMatrixFunction();
  DValue buildSolve();
  DValue buildDeterminant();
  DValue buildTriangle();
  /// qr, lu, eigen, svd: the op's `Results` results.
  template <typename OpTy, unsigned Results>
  std::vector<DValue> buildFactorization();

  // Deep learning (BuiltinsNeuralNetwork.cpp).
  /// conv2d, conv2d_backward_filter, conv2d_backward_data.
  DValue buildConvolution();
  /// max_pool, avg_pool, max_pool_backward, avg_pool_backward.
  DValue buildPooling();

private:
  /// The shape argument #i (parameter `parameter`): a list literal
  /// `[a, b, ...]` of one number per name in `elements`, as indices; null
  /// after an error.
  std::optional<llvm::SmallVector<Value>>
  shapeArgument(size_t i, llvm::StringRef parameter,
                llvm::ArrayRef<llvm::StringRef> elements);
  /// Checks that input_shape's and filter_shape's channels agree: an error
  /// now where both are constants, else a run-time check. False after an
  /// error.
  bool checkSameChannels(Value input, Value filter);
  /// The boolean argument #i (`what` in messages; FALSE if absent): TRUE,
  /// FALSE or a value known at import; null after an error.
  std::optional<bool> flagArgument(size_t i, llvm::StringRef what);
  /// The matrix argument of a function of one matrix.
  std::optional<Value> matrixArgument() {
    return im.genMatrix(args[0], "the argument of '" + name.str() + "'");
  }
  /// The file format of `path`: the `format` argument (parameter
  /// `formatParameter`) if given, else that of the file's .mtd file
  /// (`mtdFormat`, reads only), else from the file's extension (`.csv`,
  /// `.mtx`/`.mm`), else SystemDS's default, text-cell.
  std::optional<FileFormat> fileFormat(llvm::StringRef path,
                                       size_t formatParameter,
                                       std::optional<FileFormat> mtdFormat);
  /// The call's arguments, all positional, between `min` and `max` of them.
  std::optional<llvm::SmallVector<const Expr *, 4>>
  positionalArguments(size_t min, size_t max);
  /// The seed of rand or sample: null for a fresh one (the literal -1).
  std::optional<Value> seedArgument(const Expr *seed);
  /// Weights: a column vector as long as column vector `x`.
  std::optional<Value> weightsArgument(const Expr *weights, Value x);
  /// X and the weights (null if not given) of quantile, median and
  /// interQuartileMean, which take `extra` arguments after them.
  std::optional<std::pair<Value, Value>> orderStatisticArguments(size_t extra);
  /// The distinct values of the matrix argument as a sorted column vector
  /// (unique, countDistinct); `dir` the direction argument or null.
  std::optional<Value> distinctValues(const Expr *dir);
  /// read(..., data_type="scalar").
  DValue buildReadScalar(const std::string &path);
  /// read(..., data_type="frame"), `mtd` the file's metadata if it has one.
  DValue buildReadFrame(const std::string &path,
                        const std::optional<::amls::runtime::MtdMetadata> &mtd);
  /// toString(F) and print(F).
  DValue frameToString(Value frame);
  /// write(F, file).
  DValue buildWriteFrame(Value frame, const std::string &path);
  /// The frame argument #i (`what` in messages); null after an error.
  std::optional<Value> frameArgument(size_t i, llvm::StringRef what);
  /// The string argument #i as an !amls.string; null after an error.
  std::optional<Value> runTimeStringArgument(size_t i, llvm::StringRef what);
  /// write(x, file) of a number, boolean or string.
  DValue buildWriteScalar(const DValue &x, const std::string &path);

  Importer &im;
  OpBuilder &builder;
  const CallExpr *call;
  BoundArgs args;
  Location l;
  SMLoc where;
  llvm::StringRef name;
};

} // namespace mlir::amls::dml::importer

#endif // AMLS_LIB_FRONTEND_DML_BUILTINCALL_H
