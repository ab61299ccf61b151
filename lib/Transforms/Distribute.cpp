//===- Distribute.cpp - Plan an SPMD run over MPI ranks -------------------===//
//
// --amls-distribute: which matrices are split by blocks of rows over the
// ranks of a distributed run, and the distributed form of each op that
// reads a block (SystemDS's distributed operators, seed 001). The analysis
// is a forward fixed point over the program in which a value is replicated
// (RowValueKind::Side), a block of rows (Rows) or the transpose of one
// (TransposedRows); loops and branches join their paths, a block winning
// over a replicated value. Each op's form is the answer of its
// RowLocalityInterface (lib/Dialect/AMLSRowLocality.cpp), the definition
// the Row fusion template uses, plus the rules of the physical products
// that template does not take (tsmm, mmchain, nnz) and of conversions.
// The rewrite then makes the forms explicit: amls.all_reduce after a
// partial result, amls.all_gather_rows before an op that needs other
// ranks' rows, amls.local_rows where a replicated matrix meets blocks, and
// `?` row counts on the blocks; a parfor runs its share of the iterations
// on each rank (amls.local_iterations, amls.merge_ranks).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSDISTRIBUTE
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

using Kind = RowValueKind;

/// A block wins over a replicated value where paths join: the replicated
/// one then enters as its block.
Kind join(Kind a, Kind b) {
  if (a == b || b == Kind::Side)
    return a;
  if (a == Kind::Side)
    return b;
  return Kind::Rows;
}

bool isBlock(Kind kind) {
  return kind == Kind::Rows || kind == Kind::TransposedRows;
}

/// What the planner decided for one op that reads a block.
struct OpForm {
  /// Row-local: results are `resultKind` (Partial: combined by `combiner`).
  bool rowLocal = true;
  Kind resultKind = Kind::Side;
  AggKind combiner = AggKind::Sum;
  /// A mean over the rows: a partial sum, divided by the whole count.
  bool mean = false;
  /// A variance or standard deviation over the rows: the whole mean, then
  /// the partial sums of squared deviations from it.
  bool variance = false;
  /// A trace: each block's part of the diagonal, summed over the blocks.
  bool trace = false;
  /// Operands (by number) that enter as their block (amls.local_rows).
  SmallVector<unsigned> localOperands;
  /// Operands that enter as their block of columns: t(local_rows(t(x))).
  SmallVector<unsigned> localColumnOperands;
  /// Transposed blocks that are row vectors, broadcast whole: t(c) of a
  /// column vector c split by rows is all-gathered (its n values).
  SmallVector<unsigned> gatheredOperands;
  StringRef reason;
};

class DistributionPlanner {
public:
  DistributionPlanner(ModuleOp module, int64_t minCells)
      : module(module), minCells(minCells) {}

  void analyze() {
    // Parameters for which the caller passes each rank's block of rows
    // (a session's row blocks, marked by the session).
    module.walk([&](func::FuncOp function) {
      if (function.isExternal())
        return;
      for (BlockArgument arg : function.getArguments())
        if (function.getArgAttr(arg.getArgNumber(),
                                AMLSDialect::getRowPartitionedAttrName())) {
          passedBlocks.push_back(arg);
          raise(arg, Kind::Rows);
        }
    });
    bool changed = true;
    while (changed) {
      changed = false;
      module.walk([&](Operation *op) { changed |= visit(op); });
    }
  }

  void rewrite(bool explain);

private:
  Kind kindOf(Value value) const {
    auto it = kinds.find(value);
    return it == kinds.end() ? Kind::Side : it->second;
  }
  /// Raises the kind of `value`; whether it changed.
  bool raise(Value value, Kind kind) {
    if (!isa<MatrixType>(value.getType()) || kind == Kind::Side)
      return false;
    Kind old = kindOf(value);
    Kind joined = join(old, kind);
    if (joined == old && kinds.count(value))
      return false;
    kinds[value] = joined;
    return true;
  }
  bool raiseAll(ValueRange values, ArrayRef<Kind> from) {
    bool changed = false;
    for (auto [value, kind] : llvm::zip(values, from))
      changed |= raise(value, kind);
    return changed;
  }
  SmallVector<Kind> kindsOf(ValueRange values) const {
    return llvm::map_to_vector(values, [&](Value v) { return kindOf(v); });
  }

  bool visit(Operation *op);
  OpForm formOf(Operation *op) const;
  bool isPartitionedRead(ReadOp read) const {
    MatrixType type = read.getType();
    std::optional<int64_t> cells = type.getNumElements();
    // Unknown sizes count as large; a single row is not worth splitting.
    return type.getRows() != 1 && (!cells || *cells >= minCells);
  }

  /// The function `call` calls when blocks can flow into it: a private
  /// function with a body that only calls use (DML's functions), else null.
  func::FuncOp distributableCallee(func::CallOp call) const {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || !callee.isPrivate() || callee.isExternal())
      return nullptr;
    return callee;
  }
  /// The kind of each result of `function`: its returns joined.
  SmallVector<Kind> resultKinds(func::FuncOp function) const {
    SmallVector<Kind> joined(function.getNumResults(), Kind::Side);
    function.walk([&](func::ReturnOp ret) {
      for (auto [kind, value] : llvm::zip(joined, ret.getOperands()))
        kind = join(kind, kindOf(value));
    });
    return joined;
  }

  ModuleOp module;
  int64_t minCells;
  DenseMap<Value, Kind> kinds;
  /// Parameters marked as the blocks their callers pass (analyze finds
  /// them, rewrite drops the marks).
  SmallVector<BlockArgument> passedBlocks;
};

bool DistributionPlanner::visit(Operation *op) {
  if (auto read = dyn_cast<ReadOp>(op))
    return isPartitionedRead(read) ? raise(read.getResult(), Kind::Rows)
                                   : false;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    bool changed = false;
    auto yielded = loop.getBody()->getTerminator()->getOperands();
    for (auto [init, arg, result, next] :
         llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                   loop.getResults(), yielded)) {
      Kind kind = join(kindOf(init), kindOf(next));
      changed |= raise(arg, kind);
      changed |= raise(result, kind);
    }
    return changed;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    bool changed = false;
    auto yielded = loop.getYieldOp().getOperands();
    for (auto [init, arg, next] :
         llvm::zip(loop.getInits(), loop.getBeforeArguments(), yielded))
      changed |= raise(arg, join(kindOf(init), kindOf(next)));
    auto forwarded = loop.getConditionOp().getArgs();
    changed |= raiseAll(loop.getAfterArguments(), kindsOf(forwarded));
    changed |= raiseAll(loop.getResults(), kindsOf(forwarded));
    return changed;
  }
  // Blocks flow into DML's functions and back out of them.
  if (auto call = dyn_cast<func::CallOp>(op)) {
    func::FuncOp callee = distributableCallee(call);
    if (!callee)
      return false;
    bool changed = raiseAll(callee.getArguments(), kindsOf(call.getOperands()));
    changed |= raiseAll(call.getResults(), resultKinds(callee));
    return changed;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (branch.getNumResults() == 0)
      return false;
    SmallVector<Kind> joined = kindsOf(branch.thenYield().getOperands());
    if (!branch.getElseRegion().empty())
      for (auto [kind, other] :
           llvm::zip(joined, kindsOf(branch.elseYield().getOperands())))
        kind = join(kind, other);
    return raiseAll(branch.getResults(), joined);
  }
  if (op->getNumRegions() || op->hasTrait<OpTrait::IsTerminator>() ||
      op->getNumResults() == 0)
    return false;
  if (!llvm::any_of(op->getOperands(),
                    [&](Value v) { return isBlock(kindOf(v)); }))
    return false;
  OpForm form = formOf(op);
  if (!form.rowLocal || form.resultKind == Kind::Partial)
    return false; // Replicated results.
  bool changed = false;
  for (Value result : op->getResults())
    changed |= raise(result, form.resultKind);
  return changed;
}

OpForm DistributionPlanner::formOf(Operation *op) const {
  OpForm form;
  SmallVector<Kind> operandKinds = kindsOf(op->getOperands());
  auto notRowLocal = [&](StringRef reason) {
    form.rowLocal = false;
    form.reason = reason;
    return form;
  };
  auto partialSum = [&] {
    form.resultKind = Kind::Partial;
    form.combiner = AggKind::Sum;
    return form;
  };
  // The whole matrix's row count: a constant or one all-reduce.
  if (isa<NRowOp>(op)) {
    form.resultKind = Kind::NumRows;
    return form;
  }
  if (isa<ConvertOp, CastOp>(op)) {
    form.resultKind = operandKinds[0];
    return form;
  }
  if (auto tsmm = dyn_cast<TsmmOp>(op)) {
    if (tsmm.getSide() == TsmmSide::Left)
      return partialSum();
    return notRowLocal("X %*% t(X) pairs rows of different ranks");
  }
  if (auto chain = dyn_cast<MMChainOp>(op)) {
    if (operandKinds[0] == Kind::Rows && operandKinds[1] == Kind::Side &&
        (!chain.getWeights() || operandKinds[2] == Kind::Rows))
      return partialSum();
    return notRowLocal("a chain t(X) %*% (w * (X %*% v)) needs X and w "
                       "split alike and v replicated");
  }
  if (isa<NnzOp>(op) && operandKinds[0] == Kind::Rows)
    return partialSum();
  // (Statically square only: the blocks' squares cannot see that a matrix
  // of other sizes is not square, which one process reports.)
  if (auto trace = dyn_cast<TraceOp>(op);
      trace && operandKinds[0] == Kind::Rows) {
    auto type = cast<MatrixType>(trace.getInput().getType());
    if (!type.hasStaticShape() || type.getRows() != type.getCols())
      return notRowLocal("the trace of a matrix not known to be square");
    form.trace = true;
    return partialSum();
  }
  // A sum of squares adds up over the blocks; a mean is the sum over the
  // blocks divided by the whole matrix's count.
  if (auto aggregate = dyn_cast<AggOp>(op);
      aggregate && operandKinds[0] == Kind::Rows &&
      aggregate.getAxis() != AggAxis::Row) {
    if (aggregate.getKind() == AggKind::SumSq)
      return partialSum();
    bool isFloat =
        isa<FloatType>(aggregate.getInput().getType().getElementType());
    if (aggregate.getKind() == AggKind::Mean && isFloat) {
      form.mean = true;
      return partialSum();
    }
    if ((aggregate.getKind() == AggKind::Var ||
         aggregate.getKind() == AggKind::Sd) &&
        isFloat) {
      form.variance = true;
      return partialSum();
    }
  }
  // A product that sums over the rows of a block takes the matching rows
  // of a replicated operand: t(block) %*% v with v's block of rows, and
  // u %*% block with u's block of columns (SelectFormats writes G %*% p
  // with G = t(A), A CSR, as t(t(p) %*% A)).
  if (auto product = dyn_cast<MatmulOp>(op)) {
    unsigned lhs = product.getLhsMutable().getOperandNumber();
    unsigned rhs = product.getRhsMutable().getOperandNumber();
    auto lhsType = cast<MatrixType>(product.getLhs().getType());
    auto rhsType = cast<MatrixType>(product.getRhs().getType());
    bool inner = !ShapedType::isDynamic(lhsType.getCols()) &&
                 lhsType.getCols() == rhsType.getRows();
    if (inner && operandKinds[lhs] == Kind::TransposedRows &&
        operandKinds[rhs] == Kind::Side) {
      operandKinds[rhs] = Kind::Rows;
      form.localOperands.push_back(rhs);
    } else if (inner && operandKinds[lhs] == Kind::Side &&
               operandKinds[rhs] == Kind::Rows) {
      operandKinds[lhs] = Kind::TransposedRows;
      form.localColumnOperands.push_back(lhs);
    }
  }
  // A replicated matrix meeting blocks cell by cell enters as its block;
  // a transposed block that is a row vector is gathered and broadcast.
  if (isa<ElementwiseOpInterface, CBindOp>(op)) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      auto type = dyn_cast<MatrixType>(operand.getType());
      if (type && operandKinds[i] == Kind::TransposedRows &&
          type.getRows() == 1 && !isa<CBindOp>(op)) {
        operandKinds[i] = Kind::Side;
        form.gatheredOperands.push_back(i);
        continue;
      }
      if (type && operandKinds[i] == Kind::Side && type.getRows() != 1) {
        operandKinds[i] = Kind::Rows;
        form.localOperands.push_back(i);
      }
    }
  }
  // cbind of blocks is a block (its operands' rows side by side).
  if (isa<CBindOp>(op) &&
      llvm::all_of(operandKinds, [](Kind k) { return k == Kind::Rows; })) {
    form.resultKind = Kind::Rows;
    return form;
  }
  RowLocality locality = getRowLocality(op, operandKinds);
  if (!locality.isRowLocal()) {
    form.localOperands.clear();
    form.localColumnOperands.clear();
    form.gatheredOperands.clear();
    return notRowLocal(locality.getReason());
  }
  form.resultKind = locality.getResultKind();
  form.combiner = locality.getCombiner();
  return form;
}

/// `type` as a block of rows (or, transposed, of columns).
Type blockType(Type type, Kind kind) {
  auto matrix = dyn_cast<MatrixType>(type);
  if (!matrix)
    return type;
  if (kind == Kind::Rows)
    return matrix.withShape(ShapedType::kDynamic, matrix.getCols());
  if (kind == Kind::TransposedRows)
    return matrix.withShape(matrix.getRows(), ShapedType::kDynamic);
  return type;
}

std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getLoc() << ": '" << op->getName() << "'";
  return text;
}

void DistributionPlanner::rewrite(bool explain) {
  MLIRContext *context = module.getContext();
  auto note = [&](Operation *op, const Twine &form) {
    if (explain)
      llvm::errs() << "amls-distribute: " << describe(op) << ": " << form
                   << "\n";
  };
  // The whole matrix of a block, for an op that needs other ranks' rows;
  // dense, as the gather has no CSR kernel.
  // `whole`: the matrix's type (a block's, before the blocks get `?` rows
  // at the end).
  auto gathered = [&](OpBuilder &b, Location loc, Value block,
                      MatrixType whole) -> Value {
    if (whole.getFormat() != MatrixFormat::CSR)
      return AllGatherRowsOp::create(b, loc, whole, block);
    // Gathered dense, then stored as its users expect it.
    MatrixType dense = whole.withFormat(MatrixFormat::Dense);
    Value input = ConvertOp::create(b, loc, blockType(dense, Kind::Rows), block);
    Value gathered = AllGatherRowsOp::create(b, loc, dense, input);
    return ConvertOp::create(b, loc, whole, gathered);
  };
  // The block of a replicated matrix, in the matrix's format (the slice
  // itself is dense: amls.local_rows has no CSR kernel).
  auto localRows = [&](OpBuilder &b, Location loc, Value whole) -> Value {
    auto type = cast<MatrixType>(whole.getType());
    if (type.getFormat() != MatrixFormat::CSR)
      return LocalRowsOp::create(b, loc, blockType(type, Kind::Rows), whole);
    MatrixType dense = type.withFormat(MatrixFormat::Dense);
    Value block = LocalRowsOp::create(
        b, loc, blockType(dense, Kind::Rows),
        ConvertOp::create(b, loc, dense, whole));
    return ConvertOp::create(b, loc, blockType(type, Kind::Rows), block);
  };

  // t(block) whole: the block gathered, then transposed (t(t(X)) folds).
  auto gatheredTranspose = [&](OpBuilder &b, Location loc,
                               Value transposed) -> Value {
    auto type = cast<MatrixType>(transposed.getType());
    auto blockWhole = type.withShape(type.getCols(), type.getRows());
    Value block = TransposeOp::create(b, loc, blockType(blockWhole, Kind::Rows),
                                      transposed);
    Value whole = gathered(b, loc, block, blockWhole);
    return TransposeOp::create(
        b, loc, type.withFormat(cast<MatrixType>(whole.getType()).getFormat()),
        whole);
  };

  // The op before which to gather `block` for `user`: the outermost of the
  // loops around `user` that do not define it, up to the first op that is
  // not a loop.
  auto outermostInvariantLoop = [](Operation *user, Value block) {
    Operation *before = user;
    for (Operation *parent = user->getParentOp();
         parent && isa<LoopLikeOpInterface>(parent) &&
         !parent->isAncestor(block.getParentBlock()->getParentOp());
         parent = parent->getParentOp())
      before = parent;
    return before;
  };
  DenseMap<std::pair<Value, Operation *>, Value> gatheredBlocks;

  // The marks on parameters are read: the parameters' `?` rows say the
  // rest.
  for (BlockArgument arg : passedBlocks) {
    auto function = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    function.removeArgAttr(arg.getArgNumber(),
                           AMLSDialect::getRowPartitionedAttrName());
    note(function, "parameter #" + Twine(arg.getArgNumber()) +
                       ": each rank passes its own rows");
  }

  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto read = dyn_cast<ReadOp>(op)) {
      if (kindOf(read.getResult()) == Kind::Rows)
        note(op, "each rank reads its own rows");
      continue;
    }
    // Replicated values carried into blocks enter as their blocks.
    auto enterAsBlocks = [&](OpBuilder &at, ValueRange values,
                             ArrayRef<Kind> targets, Operation *user,
                             unsigned firstOperand) {
      for (auto [i, pair] : llvm::enumerate(llvm::zip(values, targets))) {
        auto [value, target] = pair;
        if (target == Kind::Rows && kindOf(value) == Kind::Side &&
            isa<MatrixType>(value.getType()))
          user->setOperand(firstOperand + i,
                           localRows(at, value.getLoc(), value));
      }
    };
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      enterAsBlocks(b, loop.getInitArgs(),
                    kindsOf(loop.getRegionIterArgs()), op,
                    loop.getNumControlOperands());
      Operation *yield = loop.getBody()->getTerminator();
      OpBuilder at(yield);
      enterAsBlocks(at, yield->getOperands(),
                    kindsOf(loop.getRegionIterArgs()), yield, 0);
      continue;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      enterAsBlocks(b, loop.getInits(), kindsOf(loop.getBeforeArguments()),
                    op, 0);
      Operation *yield = loop.getYieldOp();
      OpBuilder at(yield);
      enterAsBlocks(at, yield->getOperands(),
                    kindsOf(loop.getBeforeArguments()), yield, 0);
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (func::FuncOp callee = distributableCallee(call)) {
        enterAsBlocks(b, call.getOperands(), kindsOf(callee.getArguments()),
                      op, 0);
        if (llvm::any_of(call.getOperands(),
                         [&](Value v) { return isBlock(kindOf(v)); }))
          note(op, "its function runs on each rank's blocks");
        continue;
      }
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      auto function = cast<func::FuncOp>(ret->getParentOp());
      if (function.isPrivate() && !function.isExternal()) {
        enterAsBlocks(b, ret.getOperands(), resultKinds(function), op, 0);
        continue;
      }
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty()) {
          Operation *yield = region->front().getTerminator();
          OpBuilder at(yield);
          enterAsBlocks(at, yield->getOperands(),
                        kindsOf(branch.getResults()), yield, 0);
        }
      continue;
    }
    bool readsBlock = llvm::any_of(
        op->getOperands(), [&](Value v) { return isBlock(kindOf(v)); });
    if (!readsBlock)
      continue;
    // A block written to a file: the ranks write their rows in turn (one
    // ordered write), nothing gathered.
    if (auto write = dyn_cast<WriteOp>(op);
        write && kindOf(write.getInput()) == Kind::Rows) {
      write->setAttr(AMLSDialect::getRowPartitionedOperandsAttrName(),
                     DenseI64ArrayAttr::get(context, {0}));
      note(op, "each rank writes its rows, in rank order (one ordered "
               "write)");
      continue;
    }
    // What leaves a function, and everything that is not row-local, takes
    // the whole matrices.
    bool regionOp = op->getNumRegions() > 0;
    OpForm form;
    if (op->hasTrait<OpTrait::IsTerminator>() || regionOp ||
        op->getNumResults() == 0)
      form.rowLocal = false,
      form.reason = op->getNumResults() == 0 && !regionOp &&
                            !op->hasTrait<OpTrait::IsTerminator>()
                        ? "it prints or writes the whole matrix"
                        : "its regions or users need the whole matrix";
    else
      form = formOf(op);
    if (isa<scf::YieldOp, scf::ConditionOp>(op))
      continue; // Carried by the loop or branch (above).
    if (!form.rowLocal) {
      note(op, "all-gather of its row-partitioned operands (not row-local: " +
                   form.reason + ")");
      for (OpOperand &operand : op->getOpOperands()) {
        Kind kind = kindOf(operand.get());
        if (kind == Kind::Rows) {
          // Once, before the loops that only read the block: a loop over
          // the rows of X gathers X once, not per iteration (but not out
          // of a branch, which may not run).
          Operation *before = outermostInvariantLoop(op, operand.get());
          auto [it, fresh] =
              gatheredBlocks.try_emplace({operand.get(), before}, Value());
          if (fresh) {
            OpBuilder at(before);
            it->second = gathered(at, loc, operand.get(),
                                  cast<MatrixType>(operand.get().getType()));
          }
          operand.set(it->second);
        } else if (kind == Kind::TransposedRows) {
          operand.set(gatheredTranspose(b, loc, operand.get()));
        }
      }
      continue;
    }
    for (unsigned i : form.localOperands)
      op->setOperand(i, localRows(b, loc, op->getOperand(i)));
    for (unsigned i : form.gatheredOperands)
      op->setOperand(i, gatheredTranspose(b, loc, op->getOperand(i)));
    for (unsigned i : form.localColumnOperands) {
      auto type = cast<MatrixType>(op->getOperand(i).getType());
      Value columns = TransposeOp::create(
          b, loc, type.withShape(type.getCols(), type.getRows()),
          op->getOperand(i));
      Value block = localRows(b, loc, columns);
      auto blockRows = cast<MatrixType>(block.getType());
      op->setOperand(i, TransposeOp::create(
                            b, loc,
                            blockRows.withShape(blockRows.getCols(),
                                                ShapedType::kDynamic),
                            block));
    }
    if (auto nrow = dyn_cast<NRowOp>(op)) {
      // The whole matrix's row count, from its type or summed over the
      // ranks.
      int64_t rows = cast<MatrixType>(nrow.getInput().getType()).getRows();
      b.setInsertionPointAfter(op);
      Value whole;
      if (!ShapedType::isDynamic(rows)) {
        whole = arith::ConstantIndexOp::create(b, loc, rows);
        note(op, "the whole matrix's row count, " + Twine(rows));
      } else {
        whole = AllReduceOp::create(b, loc, nrow.getType(), nrow.getResult(),
                                    AggKind::Sum);
        note(op, "the blocks' row counts, then all-reduce sum");
      }
      nrow.getResult().replaceAllUsesExcept(whole, whole.getDefiningOp());
      continue;
    }
    if (form.resultKind == Kind::Partial && form.trace) {
      // The block's rows [first, first + m) hold the diagonal's cells in
      // the columns of the same numbers: the trace of that m x m square
      // (first and m from amls.local_iterations over the whole row count,
      // the split of rows).
      auto trace = cast<TraceOp>(op);
      Value block = trace.getInput();
      auto type = cast<MatrixType>(block.getType());
      Type index = b.getIndexType();
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value rows;
      if (type.hasStaticRows()) {
        rows = arith::ConstantIndexOp::create(b, loc, type.getRows());
      } else {
        Value local = NRowOp::create(b, loc, index, block);
        rows = AllReduceOp::create(b, loc, index, local, AggKind::Sum);
      }
      auto share = LocalIterationsOp::create(b, loc, index, index, index,
                                             zero, rows, one,
                                             /*cyclic=*/false);
      Value mine = NRowOp::create(b, loc, index, block);
      Value square = SliceOp::create(
          b, loc, type.withShape(ShapedType::kDynamic, ShapedType::kDynamic),
          block, zero, mine, share.getLocalLowerBound(),
          share.getLocalUpperBound());
      trace.getInputMutable().assign(square);
      b.setInsertionPointAfter(op);
      Value whole = AllReduceOp::create(b, loc, trace.getType(),
                                        trace.getResult(), AggKind::Sum);
      trace.getResult().replaceAllUsesExcept(whole, whole.getDefiningOp());
      note(op, "a trace: each block's square on the diagonal (its rows, the "
               "columns of their numbers), its trace, then all-reduce sum");
      continue;
    }
    if (form.resultKind == Kind::Partial && (form.mean || form.variance)) {
      auto aggregate = cast<AggOp>(op);
      Value input = aggregate.getInput();
      auto inputType = cast<MatrixType>(input.getType());
      Type resultType = aggregate.getType();
      AggAxis axis = aggregate.getAxis();
      b.setInsertionPointAfter(op);
      auto wholeSum = [&](AggKind kind, Value of) -> Value {
        Value partial = AggOp::create(b, loc, resultType, kind, axis, of);
        return AllReduceOp::create(b, loc, resultType, partial,
                                   AggKind::Sum);
      };
      Value total = wholeSum(AggKind::Sum, input);
      // The whole matrix's count of what is aggregated: rows (col) or
      // cells, as a float.
      Value rows;
      if (inputType.hasStaticRows()) {
        rows = arith::ConstantIndexOp::create(b, loc, inputType.getRows());
      } else {
        Value local = NRowOp::create(b, loc, b.getIndexType(), input);
        rows = AllReduceOp::create(b, loc, local.getType(), local,
                                   AggKind::Sum);
      }
      Value count = rows;
      if (axis == AggAxis::All)
        count = arith::MulIOp::create(
            b, loc, rows, NColOp::create(b, loc, b.getIndexType(), input));
      Type element = inputType.getElementType();
      Value wholeCount = arith::UIToFPOp::create(
          b, loc, element,
          arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count));
      auto divide = [&](Value numerator, Value divisor) -> Value {
        if (isa<MatrixType>(resultType))
          return DivOp::create(b, loc, resultType, numerator, divisor);
        return arith::DivFOp::create(b, loc, numerator, divisor);
      };
      // sum / count.
      Value result = divide(total, wholeCount);
      if (form.variance) {
        // As one process computes it, in two passes: the squared
        // deviations from the whole mean, summed over the blocks, over
        // count - 1.
        // Dense: every cell deviates from the mean, zeros too.
        Value cells = input;
        MatrixType dense = inputType.withSparsity(std::nullopt);
        if (inputType.getFormat() == MatrixFormat::CSR) {
          dense = dense.withFormat(MatrixFormat::Dense);
          cells = ConvertOp::create(b, loc, dense, input);
          kinds[cells] = Kind::Rows;
        }
        Value deviations =
            SubOp::create(b, loc, dense, cells, result).getResult();
        kinds[deviations] = Kind::Rows;
        Value squares = wholeSum(AggKind::SumSq, deviations);
        Value one = arith::ConstantOp::create(
            b, loc, element, b.getFloatAttr(element, 1.0));
        result = divide(squares,
                        arith::SubFOp::create(b, loc, wholeCount, one));
        if (aggregate.getKind() == AggKind::Sd)
          result = isa<MatrixType>(resultType)
                       ? SqrtOp::create(b, loc, resultType, result).getResult()
                       : math::SqrtOp::create(b, loc, result).getResult();
      }
      bool deviation = aggregate.getKind() == AggKind::Sd;
      aggregate.getResult().replaceAllUsesWith(result);
      aggregate.erase();
      std::string described =
          form.mean ? "a mean: local partial sum per block, then all-reduce "
                      "sum, divided by the whole count"
                    : std::string(deviation ? "a standard deviation (the "
                                              "square root of a variance)"
                                            : "a variance") +
                          ": the whole mean (all-reduce sum), then the local "
                          "sums of squared deviations from it, all-reduce "
                          "sum, divided by the whole count - 1";
      note(total.getDefiningOp()->getOperand(0).getDefiningOp(), described);
      continue;
    }
    if (form.resultKind == Kind::Partial) {
      b.setInsertionPointAfter(op);
      for (Value result : op->getResults()) {
        Value input = result;
        Type type = result.getType();
        if (auto matrix = dyn_cast<MatrixType>(type);
            matrix && matrix.getFormat() == MatrixFormat::CSR) {
          type = matrix.withFormat(MatrixFormat::Dense);
          input = ConvertOp::create(b, loc, type, result);
        }
        auto reduce =
            AllReduceOp::create(b, loc, type, input, form.combiner);
        result.replaceAllUsesExcept(reduce.getResult(),
                                    input.getDefiningOp() == op
                                        ? reduce.getOperation()
                                        : input.getDefiningOp());
      }
      note(op, "local partial result per block, then all-reduce " +
                   stringifyAggKind(form.combiner));
      continue;
    }
    note(op, form.resultKind == Kind::Rows
                 ? "local on each block of rows"
                 : (form.resultKind == Kind::TransposedRows
                        ? "local: the transpose of each block"
                        : "replicated: the same on every rank"));
  }

  // parfor across the ranks (SystemDS's remote parfor): each rank runs its
  // share of the iterations on its workers, and the results are
  // merged over the ranks. A body that communicates cannot be split (the
  // ranks would run different numbers of collectives) and runs every
  // iteration on every rank, on one worker (MPI is called from one thread).
  module.walk([&](ParforOp parfor) {
    bool communicates = false;
    parfor.getBody().walk([&](Operation *inner) {
      communicates |= isa<AllReduceOp, AllGatherRowsOp, LocalRowsOp>(inner) ||
                      inner->hasAttr(
                          AMLSDialect::getRowPartitionedOperandsAttrName()) ||
                      llvm::any_of(inner->getResults(), [&](Value v) {
                        return isBlock(kindOf(v));
                      });
    });
    if (communicates) {
      parfor.setWorkersAttr(IntegerAttr::get(IntegerType::get(context, 64), 1));
      note(parfor, "every iteration on every rank, one worker: its body "
                   "reads blocks of rows");
      return;
    }
    if (!parfor.getIndependent() ||
        llvm::any_of(parfor.getShared(),
                     [](Value v) { return isCSRMatrix(v.getType()); })) {
      note(parfor, "every iteration on every rank (not proven independent, "
                   "or a CSR result)");
      return;
    }
    OpBuilder b(parfor);
    Location loc = parfor.getLoc();
    // The ranks get the tasks of the loop's partitioner as its workers do:
    // one contiguous block each (static), or iterations dealt in turn (the
    // others, and the default, factoring, which even out iterations of
    // unequal cost).
    std::optional<ParforPartitioner> partitioner = parfor.getPartitioner();
    bool cyclic = !partitioner || *partitioner != ParforPartitioner::Static;
    Type index = b.getIndexType();
    auto share = LocalIterationsOp::create(
        b, loc, index, index, index, parfor.getLowerBound(),
        parfor.getUpperBound(), parfor.getStep(), cyclic);
    parfor.getLowerBoundMutable().assign(share.getLocalLowerBound());
    parfor.getUpperBoundMutable().assign(share.getLocalUpperBound());
    parfor.getStepMutable().assign(share.getLocalStep());
    b.setInsertionPointAfter(parfor);
    for (auto [before, result] :
         llvm::zip(parfor.getShared(), parfor.getResults())) {
      auto merged = MergeRanksOp::create(b, loc, result.getType(), result,
                                         before);
      result.replaceAllUsesExcept(merged.getResult(), merged);
    }
    note(parfor, Twine("each rank runs its share of the iterations (") +
                     (cyclic ? "dealt in turn" : "a contiguous block") +
                     ") on its workers, then the results are merged over "
                     "the ranks");
  });

  // Blocks have the row count of their rank: `?` in the IR, recorded on
  // their producers.
  StringRef attrName = AMLSDialect::getRowPartitionedAttrName();
  for (auto [value, kind] : kinds) {
    if (!isBlock(kind))
      continue;
    value.setType(blockType(value.getType(), kind));
  }
  // Functions whose parameters or results became blocks.
  module.walk([&](func::FuncOp function) {
    if (function.isExternal())
      return;
    SmallVector<Type> results(function.getResultTypes());
    function.walk([&](func::ReturnOp ret) {
      results.assign(ret.getOperandTypes().begin(),
                     ret.getOperandTypes().end());
    });
    function.setType(FunctionType::get(
        context, function.getBody().getArgumentTypes(), results));
  });
  // (Not on loops and branches: canonicalization drops their unused
  // results, which would renumber the ones named.)
  module.walk([&](Operation *op) {
    if (op->getNumRegions())
      return;
    SmallVector<int64_t> partitioned;
    for (OpResult result : op->getResults())
      if (kindOf(result) == Kind::Rows)
        partitioned.push_back(result.getResultNumber());
    if (!partitioned.empty())
      op->setAttr(attrName, DenseI64ArrayAttr::get(context, partitioned));
  });
}

struct DistributePass
    : public amls::impl::AMLSDistributeBase<DistributePass> {
  using AMLSDistributeBase::AMLSDistributeBase;

  void runOnOperation() override {
    DistributionPlanner planner(getOperation(), minCells);
    planner.analyze();
    planner.rewrite(explain);
  }
};

} // namespace
