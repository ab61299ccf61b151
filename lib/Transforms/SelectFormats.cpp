//===- SelectFormats.cpp - Dense or CSR for every matrix ------------------===//
//
// --amls-select-formats: stores a matrix CSR where the rule of
// CostModel/StorageFormat.h says so and its producer has a CSR kernel
// (CSRKernelInterface), and inserts amls.convert where a consumer needs the
// other format. Values that leave their block stay dense (an entry's
// results too, unless csr-results asks for CSR results).
//
//===----------------------------------------------------------------------===//

#include "AMLS/CostModel/StorageFormat.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSSELECTFORMATS
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

enum class Mode { Auto, Dense, CSR };

class FormatSelector {
public:
  FormatSelector(Mode mode, StorageFormatRule rule, bool explain,
                 bool csrResults)
      : mode(mode), rule(rule), explain(explain), csrResults(csrResults) {}

  void run(Operation *root) {
    // A private function's sparse argument is passed CSR when its users
    // take it (the callers convert, which the producer of the value then
    // usually makes unnecessary); the other functions' arguments (the
    // session passes matrices dense) are converted for those users.
    callers = std::make_unique<SymbolUserMap>(symbols, root);
    root->walk([&](func::FuncOp function) {
      if (function.isExternal())
        return;
      for (BlockArgument argument : function.getArguments()) {
        if (!wantsCSR(argument) ||
            llvm::none_of(argument.getUses(),
                          [&](OpOperand &u) { return takesCSR(u); }))
          continue;
        if (function.isPrivate() &&
            passArgumentAsCSR(function, argument, callers->getUsers(function)))
          continue;
        convertToCSR(argument, function);
      }
    });
    // Post-order: an op's regions are decided before the op (an scf.if
    // unifies its branches' formats), and everything before an op in its
    // block before the op.
    root->walk([&](Operation *op, const WalkStage &stage) {
      if (stage.isBeforeAllRegions())
        carryCSR(op);
      if (stage.isAfterAllRegions())
        visit(op);
    });
    root->walk([&](func::FuncOp function) {
      if (function.isExternal())
        return;
      if (function.isPrivate() || isEntry(function))
        returnCSR(function, callers->getUsers(function));
    });
    root->walk([&](MatmulOp product) { transposeProduct(product); });
  }

  unsigned numCSR = 0;
  unsigned numConverts = 0;

private:
  /// Whether the op computes its results with its own kernels (the others,
  /// scf/func ops and AMLS region ops, only pass matrices along: dense).
  static bool isKernelOp(Operation *op) {
    return isa<AMLSDialect>(op->getDialect()) && op->getNumRegions() == 0 &&
           !isa<YieldOp>(op);
  }

  bool wantsCSR(Value result) const {
    auto type = dyn_cast<MatrixType>(result.getType());
    if (!type || type.getFormat())
      return false;
    switch (mode) {
    case Mode::Dense:
      return false;
    case Mode::CSR:
      return true;
    case Mode::Auto:
      if (std::optional<int64_t> bound = nnzBound(result))
        return rule.prefersCSRWithNnzBound(type.getRows(), type.getCols(),
                                           *bound);
      return rule.prefersCSR(type.getRows(), type.getCols(),
                             type.getSparsity());
    }
    return false;
  }

  /// A bound on the non-zeros of a matrix whose sparsity is unknown: table()
  /// adds one cell per pair of categories, so it has at most as many
  /// non-zeros as its category vectors have rows (mlogreg's labels).
  /// An element-wise op with a kernel that keeps its one CSR operand's
  /// pattern has that operand's bound (mlogreg's Y * LT).
  static std::optional<int64_t> nnzBound(Value result) {
    if (cast<MatrixType>(result.getType()).getSparsity())
      return std::nullopt;
    Operation *producer = result.getDefiningOp();
    if (producer && isa<ElementwiseOpInterface>(producer) &&
        producer->getNumResults() == 1) {
      SmallVector<bool> csrOperands =
          llvm::map_to_vector(producer->getOperands(),
                              [](Value v) { return isCSRMatrix(v.getType()); });
      if (llvm::count(csrOperands, true) != 1 ||
          !hasCSRKernel(producer, csrOperands, {true}))
        return std::nullopt;
      return nnzBound(producer->getOperand(llvm::find(csrOperands, true) -
                                           csrOperands.begin()));
    }
    auto table = result.getDefiningOp<TableOp>();
    if (!table)
      return std::nullopt;
    int64_t pairs = cast<MatrixType>(table.getLhs().getType()).getRows();
    if (pairs < 0) // unknown
      return std::nullopt;
    return pairs;
  }

  void visit(Operation *op) {
    SmallVector<bool> csrOperands = llvm::map_to_vector(
        op->getOperands(), [](Value v) { return isCSRMatrix(v.getType()); });
    // The branches of an scf.if are unified when the scf.if is visited.
    if (isa<scf::YieldOp>(op) && isa<scf::IfOp>(op->getParentOp()))
      return;
    // Loop terminators are settled when the loop is visited.
    if (isa<scf::ConditionOp>(op) ||
        (isa<scf::YieldOp>(op) &&
         isa<scf::ForOp, scf::WhileOp>(op->getParentOp())))
      return;
    if (isa<scf::ForOp, scf::WhileOp>(op)) {
      settleLoop(op);
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      unifyBranches(branch);
      return;
    }
    if (!isKernelOp(op)) {
      // A call passes CSR where the callee takes CSR (passArgumentAsCSR).
      if (auto call = dyn_cast<func::CallOp>(op))
        if (auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                call, call.getCalleeAttr()))
          for (auto [i, type] : llvm::enumerate(callee.getArgumentTypes()))
            if (isCSRMatrix(type))
              csrOperands[i] = false;
      convertOperandsToDense(op, csrOperands);
      return;
    }
    SmallVector<bool> fixed = llvm::map_to_vector(
        op->getResults(), [](Value v) { return isCSRMatrix(v.getType()); });
    SmallVector<bool> wanted = fixed;
    // A matrix no user can take as CSR stays dense.
    for (OpResult result : op->getResults())
      wanted[result.getResultNumber()] |=
          wantsCSR(result) && llvm::any_of(result.getUses(), [&](OpOperand &u) {
            return takesCSR(u);
          });
    // A cast keeps its operand's format.
    if (isa<CastOp>(op) && csrOperands[0])
      wanted[0] = true;

    SmallVector<bool> noOperands(csrOperands.size(), false);
    // Ops whose kernels for CSR operands give CSR results (X * v).
    SmallVector<bool> allCSR = llvm::map_to_vector(
        op->getResults(), [](Value v) { return isa<MatrixType>(v.getType()); });
    auto kernelResults =
        [&](ArrayRef<bool> operands) -> std::optional<SmallVector<bool>> {
      if (hasCSRKernel(op, operands, wanted))
        return wanted;
      if (hasCSRKernel(op, operands, fixed))
        return fixed;
      if (llvm::is_contained(operands, true) &&
          hasCSRKernel(op, operands, allCSR))
        return allCSR;
      return std::nullopt;
    };
    std::optional<SmallVector<bool>> chosen = kernelResults(csrOperands);
    // Several CSR operands without a kernel: a dense copy of one of them
    // may do (removeEmpty's select vector) before copying them all. The
    // last operands first: the main input (operand 0) stays CSR longest.
    if (!chosen && llvm::count(csrOperands, true) > 1) {
      for (unsigned i = csrOperands.size(); i-- > 0;) {
        if (!csrOperands[i])
          continue;
        SmallVector<bool> fewer(csrOperands);
        fewer[i] = false;
        if ((chosen = kernelResults(fewer))) {
          OpOperand &operand = op->getOpOperand(i);
          operand.set(denseCopy(operand.get(), op));
          break;
        }
      }
    }
    SmallVector<bool> results;
    if (chosen) {
      results = std::move(*chosen);
    } else {
      convertOperandsToDense(op, csrOperands);
      results = hasCSRKernel(op, noOperands, wanted) ? wanted : fixed;
    }

    for (OpResult result : op->getResults()) {
      unsigned i = result.getResultNumber();
      if (results[i] && !fixed[i]) {
        auto type = cast<MatrixType>(result.getType());
        result.setType(type.withFormat(MatrixFormat::CSR));
        ++numCSR;
        if (explain)
          report(op) << "result #" << i << " of " << op->getName()
                     << " is CSR: " << result.getType() << "\n";
      } else if (wanted[i] && !results[i]) {
        convertToCSR(result, op);
      }
    }
  }

  /// A result of an scf.if is CSR where a branch yields a CSR matrix and a
  /// user takes it: the other branch converts its matrix (at run time only
  /// if taken), so a rarely taken branch (components' removal of self
  /// loops) does not make the matrix dense for the common path.
  void unifyBranches(scf::IfOp branch) {
    SmallVector<scf::YieldOp> yields;
    for (Region &region : branch->getRegions())
      if (!region.empty())
        yields.push_back(cast<scf::YieldOp>(region.front().getTerminator()));
    for (OpResult result : branch->getResults()) {
      unsigned i = result.getResultNumber();
      auto type = dyn_cast<MatrixType>(result.getType());
      if (!type)
        continue;
      bool anyCSR = llvm::any_of(yields, [&](scf::YieldOp yield) {
        return isCSRMatrix(yield.getOperand(i).getType());
      });
      bool csr = yields.size() == 2 && anyCSR && mode != Mode::Dense &&
                 llvm::any_of(result.getUses(),
                              [&](OpOperand &u) { return takesCSR(u); });
      for (scf::YieldOp yield : yields) {
        OpOperand &operand = yield->getOpOperand(i);
        bool isCSR = isCSRMatrix(operand.get().getType());
        if (isCSR && !csr) {
          operand.set(denseCopy(operand.get(), yield));
        } else if (!isCSR && csr) {
          OpBuilder builder(yield);
          operand.set(
              ConvertOp::create(builder, yield.getLoc(),
                                cast<MatrixType>(operand.get().getType())
                                    .withFormat(MatrixFormat::CSR),
                                operand.get()));
          ++numConverts;
        }
      }
      if (csr) {
        result.setType(type.withFormat(MatrixFormat::CSR));
        ++numCSR;
        if (explain)
          report(branch) << "result #" << i
                         << " of scf.if is CSR (a branch yields CSR)\n";
      }
    }
  }

  /// Whether the value a loop body yields may be sparse enough for CSR
  /// (always with --formats=csr): false only where every producer it can
  /// come from (through casts and scf.if branches) is estimated dense. A
  /// loop whose initial value is an empty matrix but whose body yields a
  /// dense product (`Y = matrix(0, ...)`, then `Y = A %*% X`) carries it
  /// dense: carried CSR, the product was converted every iteration
  /// (bench/sparse spmm8 on g_unif: 20% of the time in csr_count_dense /
  /// csr_from_dense).
  bool yieldMayBeSparse(Value yielded) const {
    if (mode != Mode::Auto)
      return true;
    std::optional<bool> sparse = producersSparse(yielded, 0);
    return !sparse || *sparse;
  }

  /// Whether some producer of `value` is estimated sparse (or unknown);
  /// none for a value that only forwards the loop's own block arguments.
  std::optional<bool> producersSparse(Value value, int depth) const {
    if (isa<BlockArgument>(value))
      return std::nullopt;
    if (depth > 8)
      return true;
    if (auto cast = value.getDefiningOp<CastOp>())
      return producersSparse(cast.getInput(), depth + 1);
    if (auto branch = value.getDefiningOp<scf::IfOp>()) {
      unsigned i = cast<OpResult>(value).getResultNumber();
      std::optional<bool> any;
      for (Region *region :
           {&branch.getThenRegion(), &branch.getElseRegion()}) {
        if (region->empty())
          continue;
        std::optional<bool> sparse = producersSparse(
            region->front().getTerminator()->getOperand(i), depth + 1);
        if (sparse)
          any = any.value_or(false) || *sparse;
      }
      return any;
    }
    auto type = dyn_cast<MatrixType>(value.getType());
    if (!type || isCSRMatrix(type) || !type.getSparsity())
      return true;
    return rule.prefersCSR(type.getRows(), type.getCols(), type.getSparsity());
  }

  /// Loop-carried matrices whose initial value is CSR and whose updates are
  /// estimated sparse are carried CSR (decided before the body, whose ops
  /// then see CSR): a matrix updated in a loop (`C = A * A`) stays sparse
  /// instead of being densified every iteration. scf.while only where its
  /// condition forwards the carried values unchanged (what the DML importer
  /// emits).
  void carryCSR(Operation *op) {
    auto setCSR = [&](Value value) {
      value.setType(
          cast<MatrixType>(value.getType()).withFormat(MatrixFormat::CSR));
    };
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Operation *yield = loop.getBody()->getTerminator();
      for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
        if (!isCSRMatrix(init.getType()) || mode == Mode::Dense ||
            !yieldMayBeSparse(yield->getOperand(i)))
          continue;
        setCSR(loop.getRegionIterArgs()[i]);
        setCSR(loop.getResult(i));
        carried.insert(loop.getResult(i));
        reportCarried(op, i);
      }
      return;
    }
    auto loop = dyn_cast<scf::WhileOp>(op);
    if (!loop)
      return;
    scf::ConditionOp condition = loop.getConditionOp();
    Operation *yield = loop.getAfterBody()->getTerminator();
    for (auto [i, init] : llvm::enumerate(loop.getInits())) {
      if (!isCSRMatrix(init.getType()) || mode == Mode::Dense ||
          i >= condition.getArgs().size() ||
          i >= loop.getAfterArguments().size() ||
          i >= yield->getNumOperands() ||
          !yieldMayBeSparse(yield->getOperand(i)) ||
          condition.getArgs()[i] != loop.getBeforeArguments()[i] ||
          loop.getBeforeArguments()[i].getType() !=
              loop.getAfterArguments()[i].getType())
        continue;
      setCSR(loop.getBeforeArguments()[i]);
      setCSR(loop.getAfterArguments()[i]);
      setCSR(loop.getResult(i));
      carried.insert(loop.getResult(i));
      reportCarried(op, i);
    }
  }

  void reportCarried(Operation *loop, unsigned i) {
    ++numCSR;
    if (explain)
      report(loop) << "loop-carried value #" << i << " of " << loop->getName()
                   << " is CSR (its initial value is, and its updates are not "
                      "estimated dense)\n";
  }

  /// The terminators of a loop pass CSR where the loop carries CSR (a dense
  /// value converts), dense elsewhere.
  void settleLoop(Operation *loop) {
    SmallVector<Operation *> terminators;
    if (auto forOp = dyn_cast<scf::ForOp>(loop))
      terminators.push_back(forOp.getBody()->getTerminator());
    else if (auto whileOp = dyn_cast<scf::WhileOp>(loop))
      terminators = {whileOp.getConditionOp(),
                     whileOp.getAfterBody()->getTerminator()};
    for (Operation *terminator : terminators) {
      unsigned first = isa<scf::ConditionOp>(terminator) ? 1 : 0;
      for (OpOperand &operand : terminator->getOpOperands().drop_front(first)) {
        unsigned i = operand.getOperandNumber() - first;
        bool carriesCSR =
            i < loop->getNumResults() && carried.contains(loop->getResult(i));
        bool isCSR = isCSRMatrix(operand.get().getType());
        if (isCSR && !carriesCSR) {
          operand.set(denseCopy(operand.get(), terminator));
        } else if (!isCSR && carriesCSR) {
          OpBuilder builder(terminator);
          operand.set(
              ConvertOp::create(builder, terminator->getLoc(),
                                cast<MatrixType>(operand.get().getType())
                                    .withFormat(MatrixFormat::CSR),
                                operand.get()));
          ++numConverts;
        }
      }
    }
    // The loop's own operands (initial values) are CSR exactly where it
    // carries CSR.
    unsigned first = isa<scf::ForOp>(loop) ? 3 : 0;
    for (OpOperand &operand : loop->getOpOperands().drop_front(first)) {
      unsigned i = operand.getOperandNumber() - first;
      if (isCSRMatrix(operand.get().getType()) &&
          !carried.contains(loop->getResult(i)))
        operand.set(denseCopy(operand.get(), loop));
    }
  }

  /// t(X) %*% D with a CSR X and a dense D becomes t(t(D) %*% X): the
  /// dense-times-CSR kernel scatters the rows of X, so t(X) is never built
  /// (only the dense D and the product are transposed). A transpose outside
  /// the block of the product (a loop-invariant t(X)) is built once and
  /// kept: the products over it are row-parallel without scattering.
  void transposeProduct(MatmulOp product) {
    auto transpose = product.getLhs().getDefiningOp<TransposeOp>();
    if (!transpose || !isCSRMatrix(transpose.getInput().getType()) ||
        isCSRMatrix(product.getRhs().getType()) ||
        isCSRMatrix(product.getType()) ||
        transpose->getBlock() != product->getBlock())
      return;
    OpBuilder builder(product);
    Location loc = product.getLoc();
    auto swap = [](MatrixType type) {
      return MatrixType::get(type.getCols(), type.getRows(),
                             type.getElementType(), type.getSparsity(),
                             type.getFormat());
    };
    auto dense = cast<MatrixType>(product.getRhs().getType());
    Value transposedDense =
        TransposeOp::create(builder, loc, swap(dense), product.getRhs());
    Value scattered = MatmulOp::create(builder, loc, swap(product.getType()),
                                       transposedDense, transpose.getInput());
    Value result =
        TransposeOp::create(builder, loc, product.getType(), scattered);
    if (explain)
      report(product) << "t(X) %*% D with a CSR X computed as "
                         "t(t(D) %*% X), without t(X)\n";
    product.replaceAllUsesWith(result);
    product.erase();
    if (transpose->use_empty())
      transpose.erase();
  }

  /// Makes `argument` of private `function` CSR and converts it at every
  /// call (false, changing nothing, when some use is not a call).
  bool passArgumentAsCSR(func::FuncOp function, BlockArgument argument,
                         ArrayRef<Operation *> users) {
    if (!llvm::all_of(users, llvm::IsaPred<func::CallOp>))
      return false;
    auto type = cast<MatrixType>(argument.getType());
    Type csrType = type.withFormat(MatrixFormat::CSR);
    unsigned index = argument.getArgNumber();
    for (Operation *user : users) {
      auto call = cast<func::CallOp>(user);
      OpBuilder builder(call);
      Value operand = call.getOperand(index);
      call.setOperand(
          index, ConvertOp::create(builder, call.getLoc(), csrType, operand));
      ++numConverts;
    }
    argument.setType(csrType);
    SmallVector<Type> inputs(function.getArgumentTypes());
    inputs[index] = csrType;
    function.setFunctionType(FunctionType::get(function.getContext(), inputs,
                                               function.getResultTypes()));
    ++numCSR;
    if (explain)
      report(function) << "argument #" << index << " of @" << function.getName()
                       << " is passed CSR\n";
    return true;
  }

  /// A private function whose returns all convert a CSR matrix to dense for
  /// result #i returns it CSR where a caller's user takes it CSR: the
  /// returns pass the CSR matrix, and each call gives dense copies to the
  /// users without a kernel for it (a sparse matrix built in a function is
  /// never densified on the way out). With csr-results an entry (isEntry)
  /// always does: its caller is the execution session, which hands CSR
  /// results to the host as they are.
  void returnCSR(func::FuncOp function, ArrayRef<Operation *> users) {
    bool entry = isEntry(function);
    if (!entry &&
        (users.empty() || !llvm::all_of(users, llvm::IsaPred<func::CallOp>)))
      return;
    SmallVector<func::ReturnOp> returns;
    function.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
    SmallVector<Type> results(function.getResultTypes());
    for (unsigned i = 0; i < results.size(); ++i) {
      Type csrType =
          getReturnedCSRType(returns, i, results[i], /*exact=*/!entry);
      if (!csrType)
        continue;
      bool taken =
          entry || llvm::any_of(users, [&](Operation *call) {
            return llvm::any_of(
                call->getResult(i).getUses(), [&](OpOperand &use) {
                  bool toCSR =
                      isa<ConvertOp>(use.getOwner()) &&
                      isCSRMatrix(use.getOwner()->getResult(0).getType());
                  return toCSR || takesCSRAsIs(use, csrType);
                });
          });
      if (!taken)
        continue;
      returnWithoutDenseCopies(returns, i);
      results[i] = csrType;
      for (Operation *user : users)
        passResultAsCSR(user->getResult(i), csrType);
      ++numCSR;
      if (explain)
        report(function) << "result #" << i << " of @" << function.getName()
                         << " is returned CSR\n";
    }
    function.setFunctionType(FunctionType::get(
        function.getContext(), function.getArgumentTypes(), results));
  }

  /// An entry of the program: public, defined and called by nothing, and
  /// with csr-results its results may be CSR.
  bool isEntry(func::FuncOp function) const {
    return csrResults && mode != Mode::Dense && function.isPublic() &&
           !function.isExternal() && callers->getUsers(function).empty();
  }

  /// The CSR type result #i of a function declared `declared` gets when all
  /// its `returns` return a dense copy of a CSR matrix of one type, else
  /// null. That type is the declared one in CSR where `exact`; otherwise
  /// (an entry, whose declared results the session does not specialize) it
  /// need only be compatible with the declared one.
  static Type getReturnedCSRType(ArrayRef<func::ReturnOp> returns, unsigned i,
                                 Type declared, bool exact = true) {
    auto type = dyn_cast<MatrixType>(declared);
    if (!type || returns.empty())
      return Type();
    auto csrInput = [&](func::ReturnOp ret) -> Type {
      auto copy = ret.getOperand(i).getDefiningOp<ConvertOp>();
      return copy && isCSRMatrix(copy.getInput().getType())
                 ? copy.getInput().getType()
                 : Type();
    };
    auto csrType = dyn_cast_or_null<MatrixType>(csrInput(returns.front()));
    if (!csrType || (exact ? csrType != type.withFormat(MatrixFormat::CSR)
                           : !areCompatibleMatrixTypes(type, csrType)))
      return Type();
    bool same = llvm::all_of(
        returns, [&](func::ReturnOp ret) { return csrInput(ret) == csrType; });
    return same ? csrType : Type();
  }

  /// Makes the `returns` return the CSR matrices of which they return dense
  /// copies as result #i.
  static void returnWithoutDenseCopies(ArrayRef<func::ReturnOp> returns,
                                       unsigned i) {
    for (func::ReturnOp ret : returns) {
      auto copy = ret.getOperand(i).getDefiningOp<ConvertOp>();
      ret->setOperand(i, copy.getInput());
      if (copy->use_empty())
        copy->erase();
    }
  }

  /// Makes a call's result CSR: conversions of it to CSR go away, users
  /// with a kernel for it take it as it is, the others share a dense copy.
  void passResultAsCSR(Value result, Type csrType) {
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        result.getUses(), [](OpOperand &use) { return &use; });
    result.setType(csrType);
    Value dense;
    for (OpOperand *use : uses) {
      Operation *user = use->getOwner();
      if (auto convert = dyn_cast<ConvertOp>(user);
          convert && isCSRMatrix(convert.getType())) {
        Value csr = result;
        if (convert.getType() != csrType) {
          OpBuilder builder(convert);
          csr = CastOp::create(builder, convert.getLoc(), convert.getType(),
                               result);
        }
        convert.getResult().replaceAllUsesWith(csr);
        convert->erase();
        continue;
      }
      if (takesCSRAsIs(*use, csrType))
        continue;
      if (!dense) {
        OpBuilder builder = OpBuilder::atBlockBegin(result.getParentBlock());
        builder.setInsertionPointAfterValue(result);
        dense = ConvertOp::create(
            builder, result.getLoc(),
            cast<MatrixType>(csrType).withFormat(std::nullopt), result);
        ++numConverts;
      }
      use->set(dense);
    }
  }

  /// Whether the user of `use` has a kernel taking it as CSR with its
  /// results' formats as they are.
  static bool takesCSRAsIs(OpOperand &use, Type csrType) {
    Operation *user = use.getOwner();
    if (!isKernelOp(user))
      return false;
    SmallVector<bool> csr = llvm::map_to_vector(
        user->getOperands(), [](Value v) { return isCSRMatrix(v.getType()); });
    csr[use.getOperandNumber()] = true;
    SmallVector<bool> results = llvm::map_to_vector(
        user->getResults(), [](Value v) { return isCSRMatrix(v.getType()); });
    return hasCSRKernel(user, csr, results);
  }

  /// Whether the user of `use` has a kernel taking it as CSR (with the
  /// formats its other operands have now).
  bool takesCSR(OpOperand &use) const {
    Operation *user = use.getOwner();
    // A loop terminator passes CSR where the loop carries CSR.
    if (isa<scf::ConditionOp>(user) ||
        (isa<scf::YieldOp>(user) &&
         isa<scf::ForOp, scf::WhileOp>(user->getParentOp()))) {
      Operation *loop = user->getParentOp();
      unsigned i =
          use.getOperandNumber() - (isa<scf::ConditionOp>(user) ? 1 : 0);
      return i < loop->getNumResults() && carried.contains(loop->getResult(i));
    }
    // A branch's result may be CSR (unifyBranches).
    if (isa<scf::YieldOp>(user) && isa<scf::IfOp>(user->getParentOp()))
      return llvm::any_of(
          user->getParentOp()->getResult(use.getOperandNumber()).getUses(),
          [&](OpOperand &next) { return takesCSR(next); });
    // A private function returns CSR where a caller's user takes it
    // (returnCSR).
    if (isa<func::ReturnOp>(user))
      return returnTakesCSR(user->getParentOfType<func::FuncOp>(),
                            use.getOperandNumber());
    if (!isKernelOp(user))
      return false;
    SmallVector<bool> csr = llvm::map_to_vector(
        user->getOperands(), [](Value v) { return isCSRMatrix(v.getType()); });
    unsigned taken = use.getOperandNumber();
    csr[taken] = true;
    SmallVector<bool> dense(user->getNumResults(), false);
    SmallVector<bool> any(user->getNumResults(), true);
    auto hasKernel = [&](ArrayRef<bool> operands) {
      return hasCSRKernel(user, operands, dense) ||
             hasCSRKernel(user, operands, any);
    };
    if (hasKernel(csr))
      return true;
    // The user may take a dense copy of another CSR operand (visit).
    for (unsigned i = csr.size(); i-- > 0;) {
      if (i == taken || !csr[i])
        continue;
      SmallVector<bool> fewer(csr);
      fewer[i] = false;
      if (hasKernel(fewer))
        return true;
    }
    return false;
  }

  bool returnTakesCSR(func::FuncOp function, unsigned result) const {
    if (function && isEntry(function))
      return true;
    if (!function || !function.isPrivate() || mode == Mode::Dense ||
        !returnsInQuestion.insert(function).second)
      return false;
    ArrayRef<Operation *> users = callers->getUsers(function);
    bool taken =
        !users.empty() && llvm::all_of(users, llvm::IsaPred<func::CallOp>) &&
        llvm::any_of(users, [&](Operation *call) {
          return llvm::any_of(call->getResult(result).getUses(),
                              [&](OpOperand &use) { return takesCSR(use); });
        });
    returnsInQuestion.erase(function);
    return taken;
  }

  /// A sparse matrix from an op without a CSR kernel (or an argument) goes
  /// to CSR for those of its users that have one.
  void convertToCSR(Value value, Operation *producer) {
    if (llvm::none_of(value.getUses(),
                      [&](OpOperand &u) { return takesCSR(u); }))
      return;
    OpBuilder builder(value.getContext());
    if (isa<BlockArgument>(value))
      builder.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
    else
      builder.setInsertionPointAfter(producer);
    auto type = cast<MatrixType>(value.getType());
    Value csr = ConvertOp::create(builder, value.getLoc(),
                                  type.withFormat(MatrixFormat::CSR), value);
    ++numConverts;
    if (explain) {
      report(producer);
      if (auto result = dyn_cast<OpResult>(value))
        llvm::errs() << "result #" << result.getResultNumber() << " of "
                     << producer->getName();
      else
        llvm::errs() << "argument #"
                     << cast<BlockArgument>(value).getArgNumber();
      llvm::errs() << " converted to CSR for its users\n";
    }
    value.replaceUsesWithIf(csr, [&](OpOperand &use) {
      return use.getOwner() != csr.getDefiningOp() && takesCSR(use);
    });
  }

  void convertOperandsToDense(Operation *op, ArrayRef<bool> csrOperands) {
    for (auto [operand, csr] : llvm::zip(op->getOpOperands(), csrOperands))
      if (csr)
        operand.set(denseCopy(operand.get(), op));
  }

  /// A dense copy of a CSR value before `consumer`, hoisted out of the loops
  /// that do not define the value (computed once, not per iteration) but
  /// not out of branches (a branch not taken converts nothing). One copy per
  /// value and insertion point.
  Value denseCopy(Value value, Operation *consumer) {
    Operation *point = consumer;
    while (Operation *parent = point->getParentOp()) {
      if (!isa<LoopLikeOpInterface>(parent) ||
          parent->isAncestor(value.getParentBlock()->getParentOp()))
        break;
      point = parent;
    }
    // Where the value is defined in the insertion block, right after it.
    Operation *def = value.getDefiningOp();
    bool afterDef = def && def->getBlock() == point->getBlock();
    bool atArgument =
        !def && cast<BlockArgument>(value).getOwner() == point->getBlock();
    auto key = std::make_pair(value, afterDef || atArgument
                                         ? static_cast<Operation *>(nullptr)
                                         : point);
    auto [it, inserted] = denseCopies.try_emplace(key);
    if (!inserted)
      return it->second;
    OpBuilder builder(value.getContext());
    if (afterDef)
      builder.setInsertionPointAfter(def);
    else if (atArgument)
      builder.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
    else
      builder.setInsertionPoint(point);
    auto type = cast<MatrixType>(value.getType());
    it->second = ConvertOp::create(builder, value.getLoc(),
                                   type.withFormat(std::nullopt), value);
    ++numConverts;
    if (explain)
      report(consumer) << consumer->getName()
                       << " takes a dense copy of a CSR matrix\n";
    return it->second;
  }

  raw_ostream &report(Operation *op) {
    return llvm::errs() << "amls-select-formats: " << op->getLoc() << ": ";
  }

  Mode mode;
  StorageFormatRule rule;
  bool explain;
  bool csrResults;
  DenseMap<std::pair<Value, Operation *>, Value> denseCopies;
  DenseSet<Value> carried;
  SymbolTableCollection symbols;
  std::unique_ptr<SymbolUserMap> callers;
  /// Functions whose results takesCSR is looking at (recursion).
  mutable DenseSet<Operation *> returnsInQuestion;
};

/// One line per product whose size and sparsity are known: the estimated
/// non-zeros the formats are chosen by (MNC's where the operands have
/// sketches, else the metadata estimate; docs/user-guide.md). With
/// `actualNnz`, the program reports each product's non-zeros once computed,
/// in the same words.
static void explainProducts(Operation *root, bool actualNnz) {
  SmallVector<Operation *> products;
  root->walk([&](Operation *op) {
    if (isa<MatmulOp, TsmmOp>(op))
      products.push_back(op);
  });
  for (Operation *op : products) {
    Value product = op->getResult(0);
    auto type = dyn_cast<MatrixType>(product.getType());
    if (!type || !type.hasStaticShape() || !type.getSparsity())
      continue;
    std::string prefix;
    llvm::raw_string_ostream os(prefix);
    os << "amls-select-formats: " << op->getLoc() << ": " << op->getName()
       << " " << type.getRows() << "x" << type.getCols() << ": ";
    double cells = static_cast<double>(type.getRows()) * type.getCols();
    llvm::errs() << prefix << "estimated nnz "
                 << static_cast<int64_t>(
                        std::llround(*type.getSparsity() * cells))
                 << "\n";
    if (!actualNnz)
      continue;
    // The message's braces are placeholders: a location's own are escaped.
    std::string format;
    for (char c : prefix) {
      format += c;
      if (c == '{' || c == '}')
        format += c;
    }
    format += "actual nnz {}";
    OpBuilder builder(op->getContext());
    builder.setInsertionPointAfter(op);
    Value nnz = NnzOp::create(builder, op->getLoc(), builder.getI64Type(),
                              product);
    ReportOp::create(builder, op->getLoc(), builder.getStringAttr(format),
                     ValueRange{nnz});
  }
}

struct AMLSSelectFormatsPass
    : public amls::impl::AMLSSelectFormatsBase<AMLSSelectFormatsPass> {
  using AMLSSelectFormatsBase::AMLSSelectFormatsBase;

  void runOnOperation() override {
    std::optional<Mode> parsed = llvm::StringSwitch<std::optional<Mode>>(mode)
                                     .Case("auto", Mode::Auto)
                                     .Case("dense", Mode::Dense)
                                     .Case("csr", Mode::CSR)
                                     .Default(std::nullopt);
    if (!parsed) {
      getOperation()->emitError("amls-select-formats: expected mode 'auto', "
                                "'dense' or 'csr', found '")
          << mode << "'";
      return signalPassFailure();
    }
    if (!(sparsityTurnPoint >= 0.0 && sparsityTurnPoint <= 1.0) ||
        minCells < 0) {
      getOperation()->emitError("amls-select-formats: expected "
                                "sparsity-turn-point in [0, 1] and min-cells "
                                ">= 0, found ")
          << sparsityTurnPoint << " and " << minCells;
      return signalPassFailure();
    }
    StorageFormatRule rule;
    rule.sparsityTurnPoint = sparsityTurnPoint;
    rule.minCells = minCells;
    if (explain)
      explainProducts(getOperation(), actualNnz);
    FormatSelector selector(*parsed, rule, explain, csrResults);
    selector.run(getOperation());
    numCSR += selector.numCSR;
    numConverts += selector.numConverts;
    // A matrix not assigned on a path (poison) takes the format of the
    // values it joins without a conversion: it is never read.
    getOperation()->walk([&](ConvertOp convert) {
      if (!convert.getInput().getDefiningOp<ub::PoisonOp>())
        return;
      OpBuilder builder(convert);
      convert.replaceAllUsesWith(
          ub::PoisonOp::create(builder, convert.getLoc(), convert.getType())
              .getResult());
      convert.erase();
      --numConverts;
    });
  }
};

} // namespace
