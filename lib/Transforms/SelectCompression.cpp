//===- SelectCompression.cpp - Compress the matrices loops multiply -------===//
//
// Compressed linear algebra pays where a matrix is multiplied many times:
// the planning and encoding cost about one pass over the data, each product
// on the compressed form then reads a byte per row and column group instead
// of eight per cell. So the candidates are loop-invariant left operands of
// the products a loop computes (and right operands of t(W) %*% X); each gets
// one amls.compress before the outermost loop that multiplies it. Every
// later op that has a kernel on the compressed form reads it too
// (aggregates, sizes, products, scalar operations, which make compressed
// results of their own), so that the dense source need not outlive the
// compression; where the source can be freed, the ops without one read a
// decompressed copy, and where it stays alive anyway (a parameter, a CSR
// matrix, an op in a loop) they read the source. Each compressed matrix is
// released after its last use (docs/compression.md).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSSELECTCOMPRESSION
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// The outermost loop around `user` that `value` is defined outside of.
Operation *outermostLoopOutside(Operation *user, Value value) {
  // The op whose region holds the definition: a loop around it holds the
  // definition too, and so does every loop further out.
  Operation *definedIn = value.getParentBlock()->getParentOp();
  Operation *found = nullptr;
  for (Operation *op = user->getParentOp(); op; op = op->getParentOp()) {
    if (!isa<scf::ForOp, scf::WhileOp>(op))
      continue;
    if (op->isAncestor(definedIn))
      break;
    found = op;
  }
  return found;
}

/// A use a compressed kernel can take: the operand and, for t(X) %*% w,
/// the transpose it is read through.
struct CompressibleUse {
  OpOperand *operand;
  TransposeOp transpose;
};

MatrixType withCompressedFormat(Type type) {
  return cast<MatrixType>(type).withFormat(MatrixFormat::Compressed);
}

/// Ops whose result is compressed when their operand is: a scalar
/// operation (a new matrix of rewritten values) and a transpose (the same
/// handle, read transposed).
bool forwardsCompression(Operation *op) {
  return op->getNumResults() == 1 &&
         (isa<TransposeOp>(op) || isa<ElementwiseOpInterface>(op));
}

/// Whether `user` runs after `compress`: in its block after it, or nested
/// in an op that is.
bool isAfter(Operation *compress, Operation *user) {
  Operation *ancestor = compress->getBlock()->findAncestorOpInBlock(*user);
  return ancestor && compress->isBeforeInBlock(ancestor);
}

/// Whether `user` runs at most once per run of `compress`: no loop around it
/// that `compress` is outside of.
bool runsOncePer(Operation *compress, Operation *user) {
  for (Operation *op = user->getParentOp(); op != compress->getParentOp();
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return false;
  return true;
}

/// Inserts amls.release of `handle` after the last op of its block that
/// reads it, directly, nested, or through a transpose of it.
void releaseAfterLastUse(Value handle) {
  Operation *definition = handle.getDefiningOp();
  Block *block = definition->getBlock();
  Operation *last = definition;
  SmallVector<Value> worklist = {handle};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<TransposeOp>(user))
        worklist.push_back(user->getResult(0));
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (ancestor && last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  OpBuilder builder(block, std::next(last->getIterator()));
  ReleaseOp::create(builder, definition->getLoc(), handle);
}

class SelectCompression
    : public amls::impl::AMLSSelectCompressionBase<SelectCompression> {
public:
  using AMLSSelectCompressionBase::AMLSSelectCompressionBase;

  void runOnOperation() override;

private:
  bool isCandidate(Value value) const;
  bool isNarrow(Value rhs) const;
  /// The matrix a compressed kernel could read for `op`'s operand, if any.
  void collect(Operation *op,
               llvm::MapVector<std::pair<Value, Operation *>,
                               SmallVector<CompressibleUse>> &uses) const;
  /// Whether `use`'s op has a kernel reading the compressed `handle` there
  /// (asked of its kernel model with the operand set for the question and
  /// put back): for a scalar operation or a transpose, also every use of
  /// its then compressed result.
  bool canRead(OpOperand &use, Value handle) const;
  /// Lets `use` read `handle` (canRead holds), and the uses of the results
  /// that forward the compression read those; the scalar operations'
  /// results, new compressed matrices, are added to `made`.
  void redirect(OpOperand &use, Value handle,
                SmallVectorImpl<Value> &made) const;
  /// The uses of `matrix` after `compress`: those with a kernel read the
  /// compressed matrix, the others a decompressed copy where that lets the
  /// source be freed. Returns the number of each.
  std::pair<unsigned, unsigned> redirectLaterUses(Value matrix,
                                                  CompressOp compress,
                                                  SmallVectorImpl<Value> &made);
};

/// Whether `value` holds the cells of a parameter the session marked
/// compressible: the parameter, a cbind of it with a column (an
/// intercept's), a cast of it, or a private function's parameter that
/// every call passes such a matrix (`depth` bounds the calls followed).
bool holdsCompressibleCells(Value value, unsigned depth = 4) {
  if (auto cast = value.getDefiningOp<CastOp>())
    return holdsCompressibleCells(cast.getInput(), depth);
  if (auto cbind = value.getDefiningOp<CBindOp>()) {
    OperandRange inputs = cbind.getInputs();
    return !inputs.empty() &&
           llvm::all_of(llvm::drop_begin(inputs),
                        [](Value input) {
                          return cast<MatrixType>(input.getType()).getCols() ==
                                 1;
                        }) &&
           holdsCompressibleCells(inputs.front(), depth);
  }
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!function)
    return false;
  if (function.getArgAttr(arg.getArgNumber(),
                          AMLSDialect::getCompressibleAttrName()))
    return true;
  if (!function.isPrivate() || depth == 0)
    return false;
  auto module = function->getParentOfType<ModuleOp>();
  std::optional<SymbolTable::UseRange> uses =
      module ? SymbolTable::getSymbolUses(function, module) : std::nullopt;
  if (!uses || uses->empty())
    return false;
  return llvm::all_of(*uses, [&](const SymbolTable::SymbolUse &use) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    return call && holdsCompressibleCells(call.getOperand(arg.getArgNumber()),
                                          depth - 1);
  });
}

bool SelectCompression::isCandidate(Value value) const {
  if (onlyCompressible && !holdsCompressibleCells(value))
    return false;
  auto type = dyn_cast<MatrixType>(value.getType());
  // Dense or CSR: the runtime compresses either (CSR row by row, never
  // densified: a one-hot matrix that only fits sparse still compresses).
  if (!type || !type.getElementType().isF64() || isCompressedMatrix(type))
    return false;
  // A column vector's products are scalings and dot products: nothing to
  // compress for.
  if (type.getCols() == 1)
    return false;
  if (ShapedType::isDynamic(type.getRows()) ||
      ShapedType::isDynamic(type.getCols()))
    return true;
  return type.getRows() * type.getCols() >= minCells;
}

bool SelectCompression::isNarrow(Value rhs) const {
  auto type = dyn_cast<MatrixType>(rhs.getType());
  return type && !isCSRMatrix(type) &&
         (ShapedType::isDynamic(type.getCols()) ||
          type.getCols() <= maxRhsCols);
}

void SelectCompression::collect(
    Operation *op, llvm::MapVector<std::pair<Value, Operation *>,
                                   SmallVector<CompressibleUse>> &uses) const {
  auto add = [&](OpOperand &operand, Value matrix, TransposeOp transpose) {
    if (!isCandidate(matrix))
      return false;
    Operation *loop = outermostLoopOutside(op, matrix);
    if (!loop)
      return false;
    uses[{matrix, loop}].push_back({&operand, transpose});
    return true;
  };
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    auto transpose = matmul.getLhs().getDefiningOp<TransposeOp>();
    if (isNarrow(matmul.getRhs())) {
      OpOperand &lhs = matmul->getOpOperand(0);
      if (transpose ? add(lhs, transpose.getInput(), transpose)
                    : add(lhs, matmul.getLhs(), nullptr))
        return;
    }
    // t(W) %*% X (k-means' centroids t(P) %*% X): t(t(X) %*% W).
    if (transpose && isNarrow(transpose.getInput()))
      add(matmul->getOpOperand(1), matmul.getRhs(), nullptr);
  } else if (auto chain = dyn_cast<MMChainOp>(op)) {
    add(chain->getOpOperand(0), chain.getInput(), nullptr);
  } else if (auto tsmm = dyn_cast<TsmmOp>(op)) {
    if (tsmm.getSide() == TsmmSide::Left)
      add(tsmm->getOpOperand(0), tsmm.getInput(), nullptr);
  }
}

bool SelectCompression::canRead(OpOperand &use, Value handle) const {
  Operation *user = use.getOwner();
  Value previous = use.get();
  use.set(handle);
  bool reads = false;
  if (forwardsCompression(user)) {
    Value result = user->getResult(0);
    Type resultType = result.getType();
    result.setType(withCompressedFormat(resultType));
    reads = hasCompressedKernel(user) &&
            llvm::all_of(result.getUses(), [&](OpOperand &resultUse) {
              return canRead(resultUse, result);
            });
    result.setType(resultType);
  } else if (auto matmul = dyn_cast<MatmulOp>(user)) {
    // The kernels prepare the dense operand per dictionary tuple: narrow
    // ones only (t(W) %*% X: W).
    Value dense = matmul.getRhs() == handle ? matmul.getLhs() : matmul.getRhs();
    if (auto transpose = dense.getDefiningOp<TransposeOp>();
        transpose && matmul.getRhs() == handle)
      dense = transpose.getInput();
    reads = hasCompressedKernel(user) && isNarrow(dense);
  } else {
    reads = hasCompressedKernel(user);
  }
  use.set(previous);
  return reads;
}

void SelectCompression::redirect(OpOperand &use, Value handle,
                                 SmallVectorImpl<Value> &made) const {
  Operation *user = use.getOwner();
  use.set(handle);
  if (!forwardsCompression(user))
    return;
  Value result = user->getResult(0);
  result.setType(withCompressedFormat(result.getType()));
  if (!isa<TransposeOp>(user))
    made.push_back(result);
  for (OpOperand &resultUse : llvm::make_early_inc_range(result.getUses()))
    redirect(resultUse, result, made);
}

std::pair<unsigned, unsigned>
SelectCompression::redirectLaterUses(Value matrix, CompressOp compress,
                                     SmallVectorImpl<Value> &made) {
  SmallVector<OpOperand *> later;
  for (OpOperand &use : matrix.getUses())
    if (use.getOwner() != compress && isAfter(compress, use.getOwner()))
      later.push_back(&use);
  unsigned read = 0;
  SmallVector<OpOperand *> withoutKernel;
  for (OpOperand *use : later) {
    if (canRead(*use, compress.getResult())) {
      redirect(*use, compress.getResult(), made);
      ++read;
    } else {
      withoutKernel.push_back(use);
    }
  }
  // Decompressing pays only where it lets the source go: a dense value the
  // program made (a parameter is the caller's; a CSR matrix may only fit
  // sparse), each copy made at most once per compression.
  bool freesSource = !isa<BlockArgument>(matrix) &&
                     !isCSRMatrix(matrix.getType()) &&
                     llvm::all_of(withoutKernel, [&](OpOperand *use) {
                       return runsOncePer(compress, use->getOwner());
                     });
  if (!freesSource)
    return {read, 0};
  for (OpOperand *use : withoutKernel) {
    OpBuilder builder(use->getOwner());
    auto decompress =
        DecompressOp::create(builder, use->getOwner()->getLoc(),
                             matrix.getType(), compress.getResult());
    use->set(decompress.getResult());
  }
  numDecompressed += withoutKernel.size();
  return {read, static_cast<unsigned>(withoutKernel.size())};
}

void SelectCompression::runOnOperation() {
  llvm::MapVector<std::pair<Value, Operation *>, SmallVector<CompressibleUse>>
      uses;
  getOperation()->walk([&](Operation *op) { collect(op, uses); });
  // The dense transposes whose products now read a compressed matrix.
  llvm::SetVector<Operation *> redirected;
  for (auto &[key, list] : uses) {
    auto [matrix, loop] = key;
    // A compression before an earlier loop that reaches this one already
    // serves its products.
    if (llvm::all_of(list, [](const CompressibleUse &use) {
          return isCompressedMatrix(use.operand->get().getType());
        }))
      continue;
    auto type = cast<MatrixType>(matrix.getType());
    OpBuilder builder(loop);
    auto compress = CompressOp::create(builder, loop->getLoc(),
                                       withCompressedFormat(type), matrix);
    if (explain)
      compress.setExplain(true);
    // t(X) for the products that read X transposed: one, next to X's.
    Value transposed;
    for (CompressibleUse &use : list) {
      if (!use.transpose) {
        use.operand->set(compress.getResult());
        continue;
      }
      if (!transposed) {
        builder.setInsertionPointAfter(compress);
        transposed = TransposeOp::create(
            builder, use.transpose.getLoc(),
            withCompressedFormat(use.transpose.getResult().getType()),
            compress.getResult());
      }
      use.operand->set(transposed);
      redirected.insert(use.transpose);
    }
    // The dense transposes the products no longer read.
    for (Operation *transpose : redirected)
      if (transpose->use_empty())
        transpose->erase();
    redirected.clear();
    SmallVector<Value> made;
    auto [read, decompressed] = redirectLaterUses(matrix, compress, made);
    releaseAfterLastUse(compress.getResult());
    for (Value result : made)
      releaseAfterLastUse(result);
    ++numCompressed;
    if (!explain)
      continue;
    llvm::errs() << "amls-select-compression: " << matrix.getLoc()
                 << ": compress " << type << " for " << list.size()
                 << " product(s) in the loop at " << loop->getLoc() << "\n";
    if (read || decompressed)
      llvm::errs() << "amls-select-compression: " << matrix.getLoc() << ": "
                   << read << " later op(s) read the compressed matrix, "
                   << decompressed << " a decompressed copy\n";
  }
}

} // namespace
