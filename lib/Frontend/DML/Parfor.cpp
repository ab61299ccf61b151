//===- Parfor.cpp - parfor's header options and scalar results ------------===//
//
// SystemDS's parfor header options (`parfor (i in 1:n, check=0, par=4,
// taskpartitioner=FACTORING)`) become attributes of amls.parfor, which
// `--amls-parfor` completes into a plan. Options SystemDS has for its
// distributed back ends (mode=REMOTE_SPARK, resultmerge=REMOTE_SPARK, ...)
// are accepted with a warning that AMLS runs the loop on local threads.
//
// A parfor's iterations may only update matrices, by left indexing; a
// scalar assigned in the body and read by a later iteration or after the
// loop (an accumulation `s = s + x` included) is a loop-carried dependency
// and rejected, as SystemDS rejects it. With check=0 such a scalar is local
// to each iteration and keeps its value from before the loop.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {

/// The first statement of `body` (nested ones included) that assigns
/// `name`, and the first that reads it before or without an assignment in
/// the same iteration (in the order of the text: an approximation for
/// branches).
void findAccesses(const StmtList &body, const std::string &name,
                  const Stmt *&assigns, const Stmt *&readsFirst) {
  // A read of `name` in `exprs` before any assignment makes it the first.
  auto reads = [&](const Stmt *stmt, std::initializer_list<const Expr *> exprs) {
    std::set<std::string> names;
    for (const Expr *expr : exprs)
      collectExpressionReads(expr, names);
    if (!assigns && !readsFirst && names.count(name))
      readsFirst = stmt;
  };
  for (const StmtPtr &stmt : body) {
    if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
      reads(stmt.get(), {ifStmt->condition.get()});
      findAccesses(ifStmt->thenBlock, name, assigns, readsFirst);
      findAccesses(ifStmt->elseBlock, name, assigns, readsFirst);
      continue;
    }
    if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      reads(stmt.get(), {whileStmt->condition.get()});
      findAccesses(whileStmt->body, name, assigns, readsFirst);
      continue;
    }
    if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
      reads(stmt.get(),
            {forStmt->from.get(), forStmt->to.get(), forStmt->step.get()});
      findAccesses(forStmt->body, name, assigns, readsFirst);
      continue;
    }
    std::set<std::string> names;
    collectStatementReads(stmt.get(), names);
    if (!assigns && !readsFirst && names.count(name))
      readsFirst = stmt.get();
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get()))
      for (const AssignTarget &target : assign->targets)
        if (!assigns && target.name == name)
          assigns = stmt.get();
  }
}

} // namespace

std::optional<ParforOptions>
Importer::readParforOptions(const ForStmt *forStmt) {
  ParforOptions options;
  bool ok = true;
  auto number = [&](const LoopOption &option,
                    int64_t least) -> std::optional<int64_t> {
    DValue value = gen(option.value.get());
    std::optional<Value> v;
    if (value.isValid() && value.isNumeric())
      v = toF64(loc(option.loc), value);
    std::optional<double> n = v ? constantNumber(*v) : std::nullopt;
    if (!n || *n != std::floor(*n) || *n < least) {
      error(option.value->getLoc())
          << "parfor option '" << option.name << "' expects an integer of at "
          << "least " << least << " known before the run";
      ok = false;
      return std::nullopt;
    }
    return static_cast<int64_t>(*n);
  };
  auto word = [&](const LoopOption &option,
                  llvm::ArrayRef<llvm::StringRef> allowed)
      -> std::optional<std::string> {
    // A bare word (LOCAL), or a string known before the run: a literal, a
    // $ argument, a variable.
    std::optional<std::string> w;
    auto *name = llvm::dyn_cast<IdentifierExpr>(option.value.get());
    if (name && !env.count(name->name))
      w = name->name;
    else
      w = gen(option.value.get()).constantString();
    // SystemDS reads the values without regard to case (opt=None).
    if (w)
      w = llvm::StringRef(*w).upper();
    if (w && llvm::is_contained(allowed, *w))
      return w;
    auto diag = error(option.value->getLoc());
    diag << "parfor option '" << option.name << "' expects one of ";
    llvm::interleaveComma(allowed, diag);
    diag << ", found " << (w ? "'" + *w + "'" : std::string("an expression"));
    ok = false;
    return std::nullopt;
  };
  auto remote = [&](const LoopOption &option, llvm::StringRef value) {
    emitWarning(loc(option.value->getLoc()))
        << "parfor option '" << option.name << "=" << value
        << "' is not available: AMLS runs parfor on the threads of this "
           "process (LOCAL)";
  };
  for (const LoopOption &option : forStmt->options) {
    llvm::StringRef name = option.name;
    if (name == "check") {
      if (std::optional<int64_t> n = number(option, 0))
        options.unchecked = *n == 0;
    } else if (name == "par") {
      options.workers = number(option, 1);
    } else if (name == "tasksize") {
      options.taskSize = number(option, 1);
    } else if (name == "mode") {
      if (auto w = word(option, {"LOCAL", "REMOTE_MR", "REMOTE_MR_DP",
                                 "REMOTE_SPARK", "REMOTE_SPARK_DP"}))
        if (*w != "LOCAL")
          remote(option, *w);
    } else if (name == "taskpartitioner") {
      if (auto w = word(option, {"AUTO", "NAIVE", "STATIC", "FIXED",
                                 "FACTORING", "FACTORING_CMIN",
                                 "FACTORING_CMAX"}))
        options.partitioner =
            llvm::StringSwitch<std::optional<ParforPartitioner>>(*w)
                .Case("NAIVE", ParforPartitioner::Naive)
                .Case("STATIC", ParforPartitioner::Static)
                .Case("FIXED", ParforPartitioner::Fixed)
                .StartsWith("FACTORING", ParforPartitioner::Factoring)
                .Default(std::nullopt);
    } else if (name == "resultmerge") {
      if (auto w = word(option, {"LOCAL_MEM", "LOCAL_FILE", "LOCAL_AUTOMATIC",
                                 "REMOTE_MR", "REMOTE_SPARK"}))
        if (llvm::StringRef(*w).starts_with("REMOTE"))
          remote(option, *w);
    } else if (name == "datapartitioner") {
      // Workers share the process's memory: nothing to partition.
      word(option, {"NONE", "LOCAL", "REMOTE_MR", "REMOTE_SPARK"});
    } else if (name == "opt") {
      if (auto w = word(option, {"NONE", "RULEBASED", "CONSTRAINED",
                                 "HEURISTIC", "GREEDY", "FULL_DP"}))
        options.fixedPlan = *w == "NONE";
    } else if (name == "log") {
      word(option, {"ALL", "TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL",
                    "OFF"});
    } else if (name == "profile") {
      number(option, 0);
    } else {
      error(option.loc) << "unknown parfor option '" << name
                        << "'; expected check, par, mode, taskpartitioner, "
                           "tasksize, datapartitioner, resultmerge, opt, log "
                           "or profile";
      ok = false;
    }
  }
  if (options.taskSize && *options.taskSize > 1 && options.partitioner &&
      *options.partitioner != ParforPartitioner::Fixed)
    emitWarning(loc(forStmt->getLoc()))
        << "parfor option 'tasksize' is used by taskpartitioner=FIXED only";
  if (!ok)
    return std::nullopt;
  return options;
}

void Importer::setParforOptions(ParforOp parfor,
                                const ParforOptions &options) {
  Builder b(context);
  if (options.workers)
    parfor.setWorkersAttr(b.getI64IntegerAttr(*options.workers));
  if (options.partitioner)
    parfor.setPartitionerAttr(ParforPartitionerAttr::get(
        context, *options.partitioner));
  if (options.taskSize)
    parfor.setTaskSizeAttr(b.getI64IntegerAttr(*options.taskSize));
  parfor.setUnchecked(options.unchecked);
  parfor.setFixedPlan(options.fixedPlan);
}

bool Importer::checkParforScalar(const ForStmt *forStmt,
                                 const std::string &name, bool unchecked) {
  const Stmt *assigns = nullptr, *readsFirst = nullptr;
  findAccesses(forStmt->body, name, assigns, readsFirst);
  bool readAfter = isReadLater(name);
  // Assigned before every read, and not read after the loop: a temporary
  // of each iteration.
  if (!readsFirst && !readAfter)
    return true;
  SMLoc where = assigns ? assigns->getLoc() : forStmt->getLoc();
  if (unchecked) {
    emitWarning(loc(where))
        << "parfor (check=0): '" << name
        << "' is local to each iteration; after the loop it keeps its value "
           "from before the loop";
    return true;
  }
  auto diag = error(where);
  diag << "parfor: loop-carried dependency on '" << name << "': ";
  if (readsFirst == assigns)
    diag << "this statement reads the value the previous iteration assigned "
            "(an accumulation, rejected as in SystemDS)";
  else if (readsFirst)
    diag << "assigned here, and read before this assignment (the previous "
            "iteration's value) at "
         << llvm::StringRef(positionOf(loc(readsFirst->getLoc())))
                .rtrim(": ");
  else
    diag << "assigned here and read after the loop (which iteration's value?)";
  diag << "; parfor iterations may only update matrices, by left indexing "
          "into disjoint parts (check=0 turns the check off)";
  return false;
}
