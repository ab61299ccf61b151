//===- Specialization.h - Types of a program's parameters for a run -*- C++
//-*-===//
//
// Private to lib/ExecutionEngine: what Program::compile asks of a run's
// arguments.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_EXECUTIONENGINE_SPECIALIZATION_H
#define AMLS_LIB_EXECUTIONENGINE_SPECIALIZATION_H

#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/ExecutionEngine/Value.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"

namespace mlir::amls {

/// The type a parameter declared `declared` gets for the argument `arg`:
/// its exact shape and rounded sparsity (CSR for a CSR argument); an error
/// at `loc` naming the parameter when the argument contradicts the
/// declaration.
FailureOr<Type> specializedType(Location loc, StringRef name, Type declared,
                                const RuntimeValue &arg);

/// The element type in which the entry takes a matrix parameter declared
/// `declared` (amls-wrap-entry's boundary): f32 and i64 as they are, every
/// other as f64.
AmlsElementType boundaryElementType(Type declared);

/// Whether the run passes `arg` for a parameter declared `declared` as the
/// row-major cells of its transpose (a column-major matrix in the element
/// type the entry takes; never a row block, which the entry takes as the
/// block it is).
bool passesTransposed(Type declared, const RuntimeValue &arg);

/// The cells by which `arg`, passed in place, starts past a 64-byte
/// boundary (amls.line_offset); 0 for a matrix that is copied (`copied`:
/// the target copies every input), small or CSR.
int64_t lineOffsetOf(Type declared, const RuntimeValue &arg, bool copied);

} // namespace mlir::amls

#endif // AMLS_LIB_EXECUTIONENGINE_SPECIALIZATION_H
