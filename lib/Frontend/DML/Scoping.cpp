//===- Scoping.cpp - Variables assigned on some paths only ----------------===//
//
// DML, like R, lets a script assign a variable in one branch of an `if` or
// inside a loop and read it after: the read is legal when the path taken
// assigned it, and SystemDS stops the run otherwise. AMLS's values are SSA
// values, so such a variable leaves the `if` or loop as a value of its kind
// (a placeholder where it was not assigned) and an i1 flag that says
// whether it was; its first read after that checks the flag at run time.
// Only variables read later are carried out: a temporary local to a branch
// or a loop body stays local, as before.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {

void collectReads(const Expr *expr, std::set<std::string> &names);

void collectReads(const IndexRange &range, std::set<std::string> &names) {
  collectReads(range.begin.get(), names);
  collectReads(range.end.get(), names);
}

void collectReads(const Expr *expr, std::set<std::string> &names) {
  if (!expr)
    return;
  if (auto *name = llvm::dyn_cast<IdentifierExpr>(expr)) {
    names.insert(name->name);
  } else if (auto *call = llvm::dyn_cast<CallExpr>(expr)) {
    for (const Argument &arg : call->args)
      collectReads(arg.value.get(), names);
  } else if (auto *unary = llvm::dyn_cast<UnaryExpr>(expr)) {
    collectReads(unary->operand.get(), names);
  } else if (auto *binary = llvm::dyn_cast<BinaryExpr>(expr)) {
    collectReads(binary->lhs.get(), names);
    collectReads(binary->rhs.get(), names);
  } else if (auto *index = llvm::dyn_cast<IndexExpr>(expr)) {
    collectReads(index->base.get(), names);
    collectReads(index->rows, names);
    collectReads(index->cols, names);
  }
}

/// The variables a statement reads (left indexing reads its target).
void collectReads(const Stmt *stmt, std::set<std::string> &names) {
  auto block = [&](const StmtList &statements) {
    for (const StmtPtr &s : statements)
      collectReads(s.get(), names);
  };
  if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt)) {
    collectReads(assign->value.get(), names);
    for (const AssignTarget &target : assign->targets)
      if (target.isIndexed()) {
        names.insert(target.name);
        collectReads(*target.rows, names);
        collectReads(*target.cols, names);
      }
  } else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(stmt)) {
    collectReads(exprStmt->expr.get(), names);
  } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt)) {
    collectReads(ifStmt->condition.get(), names);
    block(ifStmt->thenBlock);
    block(ifStmt->elseBlock);
  } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt)) {
    collectReads(whileStmt->condition.get(), names);
    block(whileStmt->body);
  } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt)) {
    collectReads(forStmt->from.get(), names);
    collectReads(forStmt->to.get(), names);
    collectReads(forStmt->step.get(), names);
    block(forStmt->body);
  }
}

/// "file:line:col: " of `l`, for run-time messages.
std::string positionOf(Location l) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(l))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()) + ": ")
        .str();
  return "";
}

} // namespace

DValue Importer::readVariable(const std::string &name, SMLoc where) {
  DValue &value = env[name];
  if (!value.defined)
    return value;
  Location l = loc(where);
  Value unassigned =
      arith::XOrIOp::create(builder, l, value.defined, boolConstant(l, true));
  std::string message = positionOf(l) + "variable '" + name +
                        "' is read, but the path the program took did not "
                        "assign it";
  scf::IfOp::create(builder, l, unassigned, [&](OpBuilder &b, Location bl) {
    StopOp::create(b, bl, b.getStringAttr(message), ValueRange{});
    scf::YieldOp::create(b, bl);
  });
  // Later reads on this path are past the check.
  value.defined = nullptr;
  return value;
}

Value Importer::placeholder(Location l, const DValue &like) {
  switch (like.kind) {
  case DValue::Kind::Matrix: {
    Value zero = indexConstant(l, 0);
    return FillOp::create(builder, l, matrixType(), constant(l, 0.0), zero,
                          zero);
  }
  case DValue::Kind::Bool:
    return boolConstant(l, false);
  default:
    return constant(l, std::numeric_limits<double>::quiet_NaN());
  }
}

Value Importer::definedFlag(Location l, const DValue &value) {
  return value.defined ? value.defined : boolConstant(l, true);
}

bool Importer::isReadLater(const std::string &name) const {
  if (functionResults.count(name))
    return true;
  std::set<std::string> reads;
  for (auto [block, position] : openBlocks)
    for (size_t i = position + 1; i < block->size(); ++i)
      collectReads((*block)[i].get(), reads);
  return reads.count(name) != 0;
}

bool Importer::reimportWithLeavingVariables(Operation *loop,
                                            const Stmt *loopStmt,
                                            const std::set<std::string> &names,
                                            const Environment &atEnd) {
  std::vector<std::string> leaving;
  for (const std::string &name : names) {
    auto it = atEnd.find(name);
    if (env.count(name) || it == atEnd.end() || it->second.isString() ||
        !isReadLater(name))
      continue;
    leaving.push_back(name);
  }
  if (leaving.empty())
    return false;
  // The body's kinds are known now: import the loop again with these
  // variables defined before it, unassigned. Iterations then pass them on
  // (an iteration that does not assign one keeps the previous value), and
  // reads in the body check them like reads after the loop. The first
  // import reported any errors; the second is silent.
  Location l = loop->getLoc();
  Block *block = loop->getBlock();
  Block::iterator next = std::next(loop->getIterator());
  loop->erase();
  builder.setInsertionPoint(block, next);
  for (const std::string &name : leaving) {
    DValue value = atEnd.at(name);
    if (value.kind == DValue::Kind::Bool)
      value.kind = DValue::Kind::Scalar;
    value.value = placeholder(l, value);
    value.defined = boolConstant(l, false);
    env[name] = value;
  }
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  bool hadErrorBefore = hadError;
  genStatement(loopStmt);
  hadError = hadErrorBefore;
  return true;
}

llvm::SmallVector<int>
Importer::appendCarriedFlags(llvm::ArrayRef<DValue> kinds,
                             llvm::SmallVectorImpl<Value> &inits,
                             llvm::SmallVectorImpl<Type> &types) {
  llvm::SmallVector<int> flagOf;
  for (const DValue &value : kinds) {
    flagOf.push_back(-1);
    if (!value.defined)
      continue;
    flagOf.back() = inits.size();
    inits.push_back(value.defined);
    types.push_back(builder.getI1Type());
  }
  return flagOf;
}

void Importer::setCarriedResults(Operation *loop,
                                 const std::vector<std::string> &carried,
                                 llvm::ArrayRef<DValue> kinds,
                                 llvm::ArrayRef<int> flagOf) {
  for (auto [index, name] : llvm::enumerate(carried)) {
    env[name] = DValue{
        kinds[index].kind, loop->getResult(index), {}, kinds[index].integer};
    if (flagOf[index] >= 0)
      env[name].defined = loop->getResult(flagOf[index]);
  }
}
