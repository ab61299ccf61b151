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
#include "mlir/Dialect/UB/IR/UBOps.h"

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
    // exists("X") asks about variable X by name.
    if (call->callee == "exists" && call->args.size() == 1)
      if (auto *text = llvm::dyn_cast<StringExpr>(call->args[0].value.get()))
        names.insert(text->value);
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

} // namespace

void mlir::amls::dml::importer::collectStatementReads(
    const Stmt *stmt, std::set<std::string> &names) {
  collectReads(stmt, names);
}

void mlir::amls::dml::importer::collectExpressionReads(
    const Expr *expr, std::set<std::string> &names) {
  collectReads(expr, names);
}

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
  case DValue::Kind::Matrix:
    // Never read (the defined flag guards every read), and no fact about it
    // joins with the assigned values: size inference ignores poison, so a
    // loop-carried `mu` keeps the 100000x1 of its assignments.
    return ub::PoisonOp::create(builder, l, matrixType());
  case DValue::Kind::Bool:
    return boolConstant(l, false);
  case DValue::Kind::Frame:
    // `like` may come from a speculative import whose ops are gone: its
    // value has no type to read. Joins relax frames to this one.
    return ub::PoisonOp::create(builder, l,
                                FrameType::get(builder.getContext(),
                                               ShapedType::kDynamic,
                                               ShapedType::kDynamic, {}));
  default:
    return constant(l, std::numeric_limits<double>::quiet_NaN());
  }
}

Value Importer::definedFlag(Location l, const DValue &value) {
  return value.defined ? value.defined : boolConstant(l, true);
}

Value Importer::variableExists(Location l, const std::string &name) {
  auto it = env.find(name);
  if (it == env.end() || it->second.kind == DValue::Kind::Invalid)
    return boolConstant(l, false);
  return definedFlag(l, it->second);
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

void Importer::predefineLoopVariables(const Stmt *loopStmt,
                                      const StmtList &body,
                                      llvm::StringRef loopVariable) {
  if (speculatingLoops.count(loopStmt))
    return;
  std::set<std::string> assigned, reads, candidates;
  collectAssigned(body, assigned);
  for (const StmtPtr &stmt : body)
    collectReads(stmt.get(), reads);
  for (const std::string &name : assigned)
    if (name != loopVariable && !env.count(name) &&
        (reads.count(name) || isReadLater(name)))
      candidates.insert(name);
  if (candidates.empty())
    return;

  // Import the loop once, silently, to learn the kinds its body gives these
  // variables and which ones it reads before assigning them; then remove
  // what that import built.
  Block *block = builder.getInsertionBlock();
  Block::iterator point = builder.getInsertionPoint();
  Operation *last = point == block->begin() ? nullptr : &*std::prev(point);
  Environment saved = env;
  bool hadErrorBefore = hadError;
  std::set<std::string> outerUndefined = std::move(undefinedReads);
  undefinedReads.clear();
  speculatingLoops.insert(loopStmt);
  {
    ScopedDiagnosticHandler silence(context,
                                    [](Diagnostic &) { return success(); });
    genStatement(loopStmt);
  }
  speculatingLoops.erase(loopStmt);
  llvm::SmallVector<Operation *> built;
  for (Block::iterator it = last ? std::next(last->getIterator())
                                 : block->begin();
       it != point; ++it)
    built.push_back(&*it);
  for (Operation *op : llvm::reverse(built)) {
    op->dropAllUses();
    op->erase();
  }
  env = std::move(saved);
  hadError = hadErrorBefore;
  std::set<std::string> readBeforeAssigned = std::move(undefinedReads);
  undefinedReads = std::move(outerUndefined);
  Environment atEnd = std::move(loopBodyEnds[loopStmt]);
  loopBodyEnds.erase(loopStmt);

  Location l = loc(loopStmt->getLoc());
  for (const std::string &name : candidates) {
    auto it = atEnd.find(name);
    if (it == atEnd.end() || !it->second.isValid() || it->second.isString() ||
        it->second.isList())
      continue;
    if (!readBeforeAssigned.count(name) && !isReadLater(name))
      continue; // a temporary of the body
    DValue value = it->second;
    if (value.kind == DValue::Kind::Bool)
      value.kind = DValue::Kind::Scalar;
    value.value = placeholder(l, value);
    value.defined = boolConstant(l, false);
    env[name] = value;
  }
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
