//===- OuterTemplate.cpp - Outer-template fusion for --amls-fuse ----------===//
//
// An Outer candidate starts at an outer-product-like product O = U %*% t(V)
// (U: RxK, V: CxK) and follows O's single users through element-wise ops
// whose other operands are scalars (g = log(O + eps), say) to a sparse-safe
// op with a matrix X of O's shape that is zero wherever X is (X * g), closed
// optionally by a full sum. The fused operator computes g only where X is
// non-zero: for a sparse X it never forms the RxC product. Every value of
// the chain must have that single user (nothing is materialized or
// recomputed).
//
//===----------------------------------------------------------------------===//

#include "FusionTemplates.h"

#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::fusion;

namespace {

struct OuterCandidate {
  MatmulOp product;
  Value u, v;
  /// The chain from the product to the sparse-safe op (included), in order.
  SmallVector<Operation *> chain;
  /// The sparse-safe op's matrix operand, the main input.
  Value main;
  /// The full sum closing the chain, if any.
  AggOp sum;
  SmallVector<Value> scalars;
};

Value singleUseResult(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return Value();
  return op->getResult(0);
}

/// Whether `op` is zero wherever its operand `main` is: sparse-safe in its
/// first operand, or in any for a commutative op.
bool isSparseSafeIn(Operation *op, Value main) {
  if (!op->hasTrait<SparseSafe>())
    return false;
  return op->getOperand(0) == main ||
         (op->hasTrait<OpTrait::IsCommutative>() &&
          llvm::is_contained(op->getOperands(), main));
}

std::optional<OuterCandidate> candidateAt(MatmulOp product) {
  auto transpose = product.getRhs().getDefiningOp<TransposeOp>();
  auto type = cast<MatrixType>(product.getType());
  if (!transpose || !type.hasStaticShape() ||
      !isa<FloatType>(type.getElementType()))
    return std::nullopt;
  OuterCandidate candidate;
  candidate.product = product;
  candidate.u = product.getLhs();
  candidate.v = transpose.getInput();
  Value current = product.getResult();
  while (true) {
    if (!current.hasOneUse())
      return std::nullopt;
    Operation *user = *current.getUsers().begin();
    auto sameShape = [&](Value value) {
      auto valueType = dyn_cast<MatrixType>(value.getType());
      return valueType && valueType.getRows() == type.getRows() &&
             valueType.getCols() == type.getCols() &&
             valueType.getElementType() == type.getElementType();
    };
    if (user->getBlock() != product->getBlock() ||
        !isa<ElementwiseOpInterface>(user) || user->getNumResults() != 1 ||
        !sameShape(user->getResult(0)))
      return std::nullopt;
    candidate.chain.push_back(user);
    // The other operands: scalars continue the chain, a matrix of the
    // product's shape ends it if the op is sparse-safe in it.
    Value matrix;
    for (Value operand : user->getOperands()) {
      if (operand == current)
        continue;
      if (isa<MatrixType>(operand.getType())) {
        if (matrix)
          return std::nullopt;
        matrix = operand;
      } else if (!llvm::is_contained(candidate.scalars, operand)) {
        candidate.scalars.push_back(operand);
      }
    }
    if (matrix) {
      if (!sameShape(matrix) || !isSparseSafeIn(user, matrix))
        return std::nullopt;
      candidate.main = matrix;
      break;
    }
    current = user->getResult(0);
  }
  if (Value result = singleUseResult(candidate.chain.back()))
    if (auto sum = dyn_cast<AggOp>(*result.getUsers().begin()))
      if (sum.getKind() == AggKind::Sum && sum.getAxis() == AggAxis::All &&
          sum->getBlock() == product->getBlock())
        candidate.sum = sum;
  // A CSR main input: the operator loops over its non-zeros (the chain ops
  // on it are CSR because it is); the factors and their product are dense.
  bool csrMain = isCSRMatrix(candidate.main.getType());
  if (touchesCSRMatrix(product) || touchesCSRMatrix(transpose) ||
      llvm::any_of(candidate.chain,
                   [&](Operation *op) {
                     return touchesCSRMatrix(op) &&
                            !(csrMain && op == candidate.chain.back());
                   }) ||
      (candidate.sum && touchesCSRMatrix(candidate.sum) && !csrMain))
    return std::nullopt;
  // A compressed matrix's products are the runtime's kernels.
  if (touchesCompressedMatrix(product) || touchesCompressedMatrix(transpose) ||
      llvm::any_of(candidate.chain, touchesCompressedMatrix) ||
      (candidate.main && isCompressedMatrix(candidate.main.getType())))
    return std::nullopt;
  return candidate;
}

class OuterTemplateFusion {
public:
  OuterTemplateFusion(Block &block, const CostModel &model)
      : block(block), model(model) {}

  unsigned run(bool costBased, llvm::raw_ostream *explain);

private:
  double opCost(double read, double written, double flops,
                double flopRate) const {
    return operatorCost(model, read, written, flops, flopRate);
  }
  double fusedCost(OuterCandidate &candidate) const;
  double unfusedCost(OuterCandidate &candidate) const;
  void emit(OuterCandidate &candidate);

  Block &block;
  const CostModel &model;
};

/// Cells, bytes and the estimated fraction of non-zeros of a matrix.
struct Shape {
  double cells, bytes, density;
};

Shape shapeOf(Value value, const CostModel &model) {
  double cells = costModelCells(value);
  return {cells, cells * model.elementBytes,
          cast<MatrixType>(value.getType()).getSparsity().value_or(1.0)};
}

/// The inner dimension of U %*% t(V).
double rankOf(OuterCandidate &candidate) {
  return costModelSize(cast<MatrixType>(candidate.u.getType()).getCols());
}

double OuterTemplateFusion::fusedCost(OuterCandidate &candidate) const {
  Shape main = shapeOf(candidate.main, model);
  double rank = rankOf(candidate);
  double read = main.bytes + shapeOf(candidate.u, model).bytes +
                shapeOf(candidate.v, model).bytes;
  double chainFlops = 0;
  for (Operation *op : candidate.chain)
    chainFlops += cellFlops(cast<ElementwiseOpInterface>(op));
  // Only the non-zero cells compute the dot product and the chain.
  double flops = main.cells * main.density * (2 * rank + chainFlops);
  double written = candidate.sum ? 0 : main.bytes;
  return opCost(read, written, flops, model.scalarFlops);
}

double OuterTemplateFusion::unfusedCost(OuterCandidate &candidate) const {
  Shape product = shapeOf(candidate.product.getResult(), model);
  double rank = rankOf(candidate);
  double total = opCost(
      shapeOf(candidate.u, model).bytes + shapeOf(candidate.v, model).bytes,
      product.bytes, 2 * product.cells * rank, model.peakFlops);
  for (Operation *op : candidate.chain) {
    double read = 0;
    for (Value operand : op->getOperands())
      if (isa<MatrixType>(operand.getType()))
        read += product.bytes;
    total += opCost(read, product.bytes,
                    product.cells * cellFlops(cast<ElementwiseOpInterface>(op)),
                    model.peakFlops);
  }
  if (candidate.sum)
    total += opCost(product.bytes, 0, product.cells, model.peakFlops);
  return total;
}

void OuterTemplateFusion::emit(OuterCandidate &candidate) {
  MLIRContext *context = candidate.product.getContext();
  Operation *root =
      candidate.sum ? candidate.sum.getOperation() : candidate.chain.back();
  Location loc = root->getLoc();
  SmallVector<Value> inputs = {candidate.main, candidate.u, candidate.v};
  llvm::append_range(inputs, candidate.scalars);
  OpBuilder builder(root);
  auto fused = FusedOp::create(
      builder, loc, root->getResultTypes(), FusedTemplate::Outer,
      candidate.sum
          ? builder.getArrayAttr({AggKindAttr::get(context, AggKind::Sum)})
          : ArrayAttr(),
      candidate.sum ? AggAxisAttr::get(context, AggAxis::All) : AggAxisAttr(),
      IntegerAttr(), inputs);
  Block *body = new Block();
  fused.getBody().push_back(body);
  Type elementType =
      cast<MatrixType>(candidate.main.getType()).getElementType();
  DenseMap<Value, Value> cellOf;
  cellOf[candidate.main] = body->addArgument(elementType, loc);
  cellOf[candidate.product.getResult()] = body->addArgument(elementType, loc);
  for (Value scalar : candidate.scalars)
    cellOf[scalar] = body->addArgument(scalar.getType(), loc);
  OpBuilder bodyBuilder = OpBuilder::atBlockEnd(body);
  for (Operation *op : candidate.chain) {
    SmallVector<Value> cells;
    for (Value operand : op->getOperands())
      cells.push_back(cellOf.lookup(operand));
    cellOf[op->getResult(0)] =
        cast<ElementwiseOpInterface>(op).buildCellComputation(
            bodyBuilder, op->getLoc(), cells);
  }
  YieldOp::create(bodyBuilder, loc,
                  cellOf.lookup(candidate.chain.back()->getResult(0)));

  root->getResult(0).replaceAllUsesWith(fused.getResult(0));
  Operation *transpose = candidate.product.getRhs().getDefiningOp();
  if (candidate.sum)
    candidate.sum->erase();
  for (Operation *op : llvm::reverse(candidate.chain))
    op->erase();
  candidate.product->erase();
  if (transpose->use_empty())
    transpose->erase();
}

unsigned OuterTemplateFusion::run(bool costBased, llvm::raw_ostream *explain) {
  SmallVector<MatmulOp> products;
  for (Operation &op : block)
    if (auto product = dyn_cast<MatmulOp>(op))
      products.push_back(product);
  unsigned created = 0;
  for (MatmulOp product : products) {
    std::optional<OuterCandidate> candidate = candidateAt(product);
    if (!candidate)
      continue;
    double fused = fusedCost(*candidate), unfused = unfusedCost(*candidate);
    bool chosen = !costBased || fused < unfused;
    if (explain)
      *explain << "outer template at " << product->getName() << " "
               << product.getLoc() << ": main input "
               << candidate->main.getType() << ", " << candidate->chain.size()
               << " element-wise ops"
               << (candidate->sum ? ", closed by a sum" : "")
               << "\n  cost fused " << llvm::format("%.3f", fused * 1e6)
               << " us, unfused " << llvm::format("%.3f", unfused * 1e6)
               << " us: " << (chosen ? "fused" : "not fused") << "\n";
    if (!chosen)
      continue;
    emit(*candidate);
    ++created;
  }
  return created;
}

} // namespace

unsigned mlir::amls::fuseOuterTemplates(Block &block, const CostModel &model,
                                        bool costBased,
                                        llvm::raw_ostream *explain) {
  return OuterTemplateFusion(block, model).run(costBased, explain);
}
