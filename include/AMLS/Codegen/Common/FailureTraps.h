//===- FailureTraps.h - Failures inside parallel regions --------*- C++ -*-===//
//
// A run-time failure on a thread of an OpenMP region cannot leave the
// region by a jump to the host's trap: the team waits for every thread.
// The code of a region's iteration therefore runs under a trap of its own
// (amls_rt_region_trap, include/AMLS/Runtime/Runtime.h):
//
//   %buf = call @amls_rt_region_trap(%region)
//   scf.if (%buf != null) {
//     scf.if (_setjmp(%buf) == 0) { <the iteration> }
//     call @amls_rt_region_untrap()
//   }
//
// and the region's record, opened before the region, is closed after it,
// where the failure is raised again on the thread that started it.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CODEGEN_CPU_FAILURETRAPS_H
#define AMLS_CODEGEN_CPU_FAILURETRAPS_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"

namespace mlir::amls {

/// Whether `op` or an op nested in it can end in the runtime's failure
/// point: a call of a runtime function that may fail, of a function of the
/// program (whose body may fail), or an allocation (the memory budget).
bool mayFailAtRunTime(Operation *op);

/// Opens a region's failure record (amls_rt_region_open) at the builder's
/// point; `from` names the module to declare the runtime function in.
Value openFailureRecord(OpBuilder &builder, Location loc, Operation *from);

/// Closes `record` (amls_rt_region_close) at the builder's point, after the
/// region: the region's failure, if it had one, is raised there.
void closeFailureRecord(OpBuilder &builder, Location loc, Operation *from,
                        Value record);

/// Runs the ops [begin, end) of their block under a trap of the failure
/// record `record`. Values they define that are used after `end` are
/// poison when the ops did not complete (the region then fails).
void trapFailures(OpBuilder &builder, Value record, Block::iterator begin,
                  Block::iterator end);

} // namespace mlir::amls

#endif // AMLS_CODEGEN_CPU_FAILURETRAPS_H
