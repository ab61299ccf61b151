//===- CPUSchedule.h - The lowering schedule of the CPU ---------*- C++ -*-===//
//
// The CPU's answers to the lowering's LoweringSchedule: reductions split
// into 8 lanes (an AVX-512 register of f64) and blocks of rows for two
// cores, row-template operators in blocks that stay in a 256 KiB L2 cache.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CODEGEN_CPU_CPUSCHEDULE_H
#define AMLS_CODEGEN_CPU_CPUSCHEDULE_H

#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"

namespace mlir::amls {

/// The schedule --convert-amls-to-linalg uses for the CPU (its default).
const LoweringSchedule &getCPULoweringSchedule();

} // namespace mlir::amls

#endif // AMLS_CODEGEN_CPU_CPUSCHEDULE_H
