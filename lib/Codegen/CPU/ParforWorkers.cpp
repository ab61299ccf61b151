//===- ParforWorkers.cpp - Run planned parfor loops on worker threads -----===//
//
// --amls-parfor-workers: the scf.for of a planned parfor becomes
//
//   %q = amls_rt_parfor_begin(iterations, partitioner, task_size, workers)
//   %failures = amls_rt_region_open()
//   amls_rt_blas_serial(1)
//   omp.parallel num_threads(workers) {
//     while ((t = amls_rt_parfor_next(%q)) >= 0)
//       <under a trap of %failures>
//         for (j = task_first(%q, t); j < task_end(%q, t); ++j)
//           body(lower + j * step)
//   }
//   amls_rt_blas_serial(0); amls_rt_parfor_end(%q)
//   amls_rt_region_close(%failures)
//
// so that each worker takes the next task when it finishes one
// (self-scheduling), and a failure in a task skips the tasks left and is
// raised after the workers joined (FailureTraps.h). The loop must not carry
// buffers: bufferization has then made every shared matrix one buffer that the
// iterations write in disjoint parts, which --amls-parfor proved.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Common/FailureTraps.h"
#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSPARFORWORKERS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Drops the loop-carried values of `loop` that every iteration yields
/// unchanged (a buffer updated in place); false if another one is left.
bool dropUnchangedIterArgs(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [arg, yielded] :
       llvm::zip(loop.getRegionIterArgs(), yield.getOperands()))
    if (yielded != arg)
      return false;
  for (auto [arg, init, result] : llvm::zip(
           loop.getRegionIterArgs(), loop.getInitArgs(), loop.getResults())) {
    arg.replaceAllUsesWith(init);
    result.replaceAllUsesWith(init);
  }
  return true;
}

/// Replaces `loop` (without loop-carried values) by the workers' region.
void runOnWorkers(scf::ForOp loop, ParforPlanAttr plan) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value lower = loop.getLowerBound(), step = loop.getStep();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, loop.getUpperBound(), lower), zero);
  Value iterations = arith::IndexCastOp::create(
      b, loc, i64, arith::CeilDivSIOp::create(b, loc, span, step));
  auto constant = [&](int64_t value, Type type) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  };
  Value workers = constant(plan.getWorkers(), i32);
  Value queue = createRuntimeCall(
      b, loc, loop, RuntimeFunction::ParforBegin,
      {iterations, constant(static_cast<int64_t>(plan.getPartitioner()), i32),
       constant(plan.getTaskSize(), i64), workers});
  Value failures = openFailureRecord(b, loc, loop);
  bool serialInside = plan.getInnerThreads() == 1;
  if (serialInside)
    createRuntimeCall(b, loc, loop, RuntimeFunction::BlasSerial,
                      {constant(1, i32)});

  omp::ParallelOperands clauses;
  clauses.numThreads = workers;
  auto region = omp::ParallelOp::create(b, loc, clauses);
  {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&region.getRegion());
    scf::ForOp taskLoop;
    scf::WhileOp::create(
        b, loc, TypeRange{i64}, ValueRange{},
        [&](OpBuilder &nb, Location nl, ValueRange) {
          Value task = createRuntimeCall(nb, nl, loop,
                                         RuntimeFunction::ParforNext, {queue});
          Value more = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge,
                                             task, constant(0, i64));
          scf::ConditionOp::create(nb, nl, more, task);
        },
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          auto bound = [&](RuntimeFunction function) {
            return arith::IndexCastOp::create(
                nb, nl, nb.getIndexType(),
                createRuntimeCall(nb, nl, loop, function, {queue, args[0]}));
          };
          Value first = bound(RuntimeFunction::ParforTaskFirst);
          Value end = bound(RuntimeFunction::ParforTaskEnd);
          auto iterationsOfTask = scf::ForOp::create(nb, nl, first, end, one);
          Block *body = iterationsOfTask.getBody();
          OpBuilder ib = OpBuilder::atBlockBegin(body);
          // The parfor's own induction value for iteration j.
          Value index = arith::AddIOp::create(
              ib, nl, lower,
              arith::MulIOp::create(ib, nl, iterationsOfTask.getInductionVar(),
                                    step));
          loop.getInductionVar().replaceAllUsesWith(index);
          loop.getBody()->getTerminator()->erase();
          body->getOperations().splice(Block::iterator(body->getTerminator()),
                                       loop.getBody()->getOperations());
          scf::YieldOp::create(nb, nl);
          taskLoop = iterationsOfTask;
        });
    // Built once the loop is in the module, where the trap's functions
    // are declared.
    trapFailures(b, failures, Block::iterator(taskLoop),
                 std::next(Block::iterator(taskLoop)));
    omp::TerminatorOp::create(b, loc);
  }
  if (serialInside)
    createRuntimeCall(b, loc, loop, RuntimeFunction::BlasSerial,
                      {constant(0, i32)});
  createRuntimeCall(b, loc, loop, RuntimeFunction::ParforEnd, {queue});
  closeFailureRecord(b, loc, loop, failures);
  loop.erase();
}

struct ParforWorkersPass
    : public mlir::amls::impl::AMLSParforWorkersBase<ParforWorkersPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(AMLSDialect::getParforPlanAttrName()))
        loops.push_back(loop);
    });
    // Outer loops first: a parfor nested in a planned one runs inside its
    // worker, sequentially.
    for (scf::ForOp loop : llvm::reverse(loops)) {
      auto plan = loop->getAttrOfType<ParforPlanAttr>(
          AMLSDialect::getParforPlanAttrName());
      loop->removeAttr(AMLSDialect::getParforPlanAttrName());
      if (!plan || loop->getParentOfType<omp::ParallelOp>())
        continue;
      if (!dropUnchangedIterArgs(loop)) {
        loop.emitWarning("parfor runs sequentially: bufferization did not "
                         "update its results in place");
        continue;
      }
      runOnWorkers(loop, plan);
    }
  }
};

} // namespace
