//===- RuntimeABI.h - The runtime functions compiled code calls -*- C++ -*-===//
//
// The compiler's side of the contract in include/AMLS/Runtime/Runtime.h:
// every libamls_runtime function that generated code calls, with its name
// and signature, in one table. Patterns name a function by its enum; the
// table declares it in the module once and checks the arguments of every
// call against its signature.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CONVERSION_RUNTIMEABI_RUNTIMEABI_H
#define AMLS_CONVERSION_RUNTIMEABI_RUNTIMEABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::amls {

/// The runtime functions, one per row of include/AMLS/Runtime/RuntimeFunctions.def.
enum class RuntimeFunction {
#define AMLS_RUNTIME_FUNCTION(Name, ...) Name,
#include "AMLS/Runtime/RuntimeFunctions.def"
};

/// The function the execution session (lib/ExecutionEngine) calls; the
/// --amls-wrap-entry pass adds it: the entry's arguments in, its results
/// returned.
constexpr StringLiteral kEntryWrapperName = "amls_main";

/// The C symbol of `function` (without the `_mlir_ciface_` prefix that
/// functions taking matrices get).
StringRef getRuntimeFunctionName(RuntimeFunction function);

/// The signature of `function` in the types generated code calls it with:
/// matrices are strided memrefs (getRuntimeMatrixType), strings `!llvm.ptr`.
FunctionType getRuntimeFunctionType(MLIRContext *context,
                                    RuntimeFunction function);

/// `memref<?x?xT, strided<[?, ?], offset: ?>>`: a matrix as the runtime
/// takes it (any view: offsets and strides are passed along).
MemRefType getRuntimeMatrixType(Type elementType);

/// `memref<?xT, strided<[?], offset: ?>>`: a CSR array as the runtime takes
/// it.
MemRefType getRuntimeVectorType(Type elementType);

/// The declaration of `function` in the module around `from`, created on
/// first use (with `llvm.emit_c_interface` where it takes matrices).
func::FuncOp lookupOrCreateRuntimeFunction(OpBuilder &builder, Operation *from,
                                           RuntimeFunction function);

/// Calls `function` with `args`, which must match its signature; returns its
/// result, or a null value for functions without one.
Value createRuntimeCall(OpBuilder &builder, Location loc, Operation *from,
                        RuntimeFunction function, ValueRange args);

/// The runtime function `call` calls, if it calls one of the table's.
std::optional<RuntimeFunction> getCalledRuntimeFunction(func::CallOp call);

/// Whether `function` can fail at run time (a check, an allocation, a file,
/// a kernel's arguments), that is, end in the runtime's failure point.
bool runtimeFunctionMayFail(RuntimeFunction function);

/// The cuSPARSE version (libamls_cuda_runtime) of a CSR function that has
/// one, taking the same arguments: amls-use-blas{library=cublas} redirects
/// calls to it.
std::optional<RuntimeFunction> getCusparseVersion(RuntimeFunction function);

/// Whether the device (cuBLAS, cuSPARSE) reads and writes a function's
/// memref arguments, except the one getHostReadOperand names.
bool runtimeFunctionRunsOnDevice(RuntimeFunction function);

/// The operand of a device function that the host reads: the CSR's row
/// pointers of a cuSPARSE function, which it narrows there for each call.
std::optional<unsigned> getHostReadOperand(RuntimeFunction function);

/// Whether `call` (a call of a runtime function) only reads its operand
/// #`operand`: the arrays of a CSR argument are the function's input, and
/// scalars are values. Any other buffer may be written.
bool runtimeCallOnlyReads(func::CallOp call, unsigned operand);

/// Whether the result of `call` is a buffer the runtime allocated for the
/// caller (a `take` of a CSR array read from a file): new, aliasing nothing.
bool runtimeCallReturnsNewBuffer(func::CallOp call);

/// A pointer to a NUL-terminated copy of `text` in a module constant (file
/// paths and messages passed to the runtime).
Value createStringPointer(OpBuilder &builder, Location loc, Operation *from,
                          StringRef text);

/// What a buffer allocated at `loc` holds, for the runtime's statistics and
/// out-of-memory messages: "`what` of 'amls.matmul' (dense 1000x1000
/// result) at FILE:LINE:COL", from the op name --convert-amls-to-linalg
/// puts in the locations of what it lowers, and the source position. A
/// name "the ..." in the location (a CSR array's role: "the values") takes
/// the place of `what`.
std::string describeBuffer(Location loc, StringRef what = "a buffer");

/// "'amls.read' at f.dml:3:5": `op` as the runtime's messages name it.
std::string describeOp(Operation *op);

} // namespace mlir::amls

#endif // AMLS_CONVERSION_RUNTIMEABI_RUNTIMEABI_H
