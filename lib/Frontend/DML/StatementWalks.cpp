//===- StatementWalks.cpp - What blocks of DML statements contain ---------===//
//
// Walks of the parsed script that the importer asks before it generates a
// block: the variables it assigns (loop-carried values, parfor's checks,
// a script's outputs) and the calls it makes (functions to load).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

using namespace mlir;
using namespace mlir::amls::dml;

namespace mlir::amls::dml::importer {

/// Names a block of statements assigns (targets and loop variables),
/// including nested blocks.
void collectAssigned(const StmtList &block, std::set<std::string> &names) {
  for (const StmtPtr &stmt : block) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      for (const AssignTarget &target : assign->targets)
        names.insert(target.name);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
      collectAssigned(ifStmt->thenBlock, names);
      collectAssigned(ifStmt->elseBlock, names);
    } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectAssigned(whileStmt->body, names);
    } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
      names.insert(forStmt->variable);
      collectAssigned(forStmt->body, names);
    }
  }
}

/// Calls of user functions in an expression or block (for the recursion
/// check and the names of sourced functions).
void collectCalls(const StmtList &block, std::vector<const CallExpr *> &calls) {
  for (const StmtPtr &stmt : block) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      collectCalls(assign->value.get(), calls);
      for (const AssignTarget &target : assign->targets)
        if (target.isIndexed()) {
          for (const IndexRange *range : {&*target.rows, &*target.cols}) {
            collectCalls(range->begin.get(), calls);
            collectCalls(range->end.get(), calls);
          }
        }
    } else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(stmt.get())) {
      collectCalls(exprStmt->expr.get(), calls);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
      collectCalls(ifStmt->condition.get(), calls);
      collectCalls(ifStmt->thenBlock, calls);
      collectCalls(ifStmt->elseBlock, calls);
    } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectCalls(whileStmt->condition.get(), calls);
      collectCalls(whileStmt->body, calls);
    } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
      collectCalls(forStmt->from.get(), calls);
      collectCalls(forStmt->to.get(), calls);
      collectCalls(forStmt->step.get(), calls);
      collectCalls(forStmt->body, calls);
    }
  }
}

void collectCalls(const Expr *expr, std::vector<const CallExpr *> &calls) {
  if (!expr)
    return;
  if (auto *call = llvm::dyn_cast<CallExpr>(expr)) {
    calls.push_back(call);
    for (const Argument &arg : call->args)
      collectCalls(arg.value.get(), calls);
  } else if (auto *unary = llvm::dyn_cast<UnaryExpr>(expr)) {
    collectCalls(unary->operand.get(), calls);
  } else if (auto *binary = llvm::dyn_cast<BinaryExpr>(expr)) {
    collectCalls(binary->lhs.get(), calls);
    collectCalls(binary->rhs.get(), calls);
  } else if (auto *index = llvm::dyn_cast<IndexExpr>(expr)) {
    collectCalls(index->base.get(), calls);
    for (const IndexRange *range : {&index->rows, &index->cols}) {
      collectCalls(range->begin.get(), calls);
      collectCalls(range->end.get(), calls);
    }
  }
}

} // namespace mlir::amls::dml::importer
