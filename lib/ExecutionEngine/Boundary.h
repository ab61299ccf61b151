//===- Boundary.h - What amls_main takes and returns ------------*- C++ -*-===//
//
// Private to lib/ExecutionEngine: the arguments of one call of amls_main's
// packed C interface, and the values it returned (Boundary.cpp says how
// they cross).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_EXECUTIONENGINE_BOUNDARY_H
#define AMLS_LIB_EXECUTIONENGINE_BOUNDARY_H

#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/ExecutionEngine/Value.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <deque>
#include <vector>

namespace mlir::amls {

/// The kinds of the results of amls_main: the wrapper's amls.result_kinds
/// (--amls-wrap-entry). Null when it has none or one the session cannot
/// read.
std::optional<SmallVector<ResultKind>> getResultKinds(func::FuncOp wrapper);

/// amls_main's results as the LLVM lowering packs them: a struct of memref
/// descriptors and scalars, all 8-byte aligned, so every field starts at a
/// multiple of 8 bytes.
struct ResultLayout {
  SmallVector<ResultKind> kinds;
  SmallVector<size_t> wordOffsets;
  size_t numWords = 0;

  explicit ResultLayout(ArrayRef<ResultKind> resultKinds);

  /// The C interface returns a struct (several values, or one memref
  /// descriptor) through a pointer passed first, and a single scalar as its
  /// return value, which the packed interface stores through a pointer
  /// passed last.
  bool returnsThroughFirstArgument() const;
};

/// Turns the words amls_main wrote into values; matrices adopt their buffers.
SmallVector<RuntimeValue> decodeResults(const ResultLayout &layout,
                                        ArrayRef<int64_t> words);

/// The arguments of one call of amls_main's packed interface: a pointer to
/// each argument (for a matrix, a pointer to a pointer to its memref
/// descriptor). Descriptors point into the caller's buffers; only a matrix
/// that is not contiguous row-major in the type the entry takes is copied
/// into that layout first. Everything pointed to lives as long as this.
class PackedArguments {
public:
  /// `placeInput`, when given, moves each input buffer (its bytes) to where
  /// the target's compiled code reads it (TargetExecution::placeInput).
  explicit PackedArguments(
      llvm::function_ref<void *(const void *, uint64_t)> placeInput = nullptr)
      : placeInput(placeInput) {}

  /// Adds the argument `arg` of a parameter declared `declared`.
  void add(Type declared, const RuntimeValue &arg);
  /// Adds where amls_main writes its results, into `words`.
  void addResults(const ResultLayout &layout, SmallVectorImpl<int64_t> &words);

  void **data() { return packed.data(); }
  /// Matrices copied into row-major order or into the parameter's element
  /// type, and their bytes.
  uint64_t getLayoutCopies() const { return layoutCopies; }
  uint64_t getLayoutCopyBytes() const { return layoutCopyBytes; }

private:
  void addCSR(const MatrixValue &matrix);
  void addDense(Type declared, const MatrixValue &matrix, bool transposed);

  llvm::function_ref<void *(const void *, uint64_t)> placeInput;
  std::deque<std::vector<char>> copies;
  std::deque<AmlsMatrixF64> descriptors;
  std::deque<AmlsVectorI64> rowOffsetDescriptors;
  std::deque<AmlsVectorI32> columnDescriptors;
  std::deque<AmlsVectorF64> valueDescriptors;
  std::deque<void *> pointers;
  std::deque<int64_t> integers;
  std::deque<double> floats;
  std::deque<float> singles;
  std::deque<bool> booleans;
  void *resultStruct = nullptr;
  SmallVector<void *> packed;
  uint64_t layoutCopies = 0;
  uint64_t layoutCopyBytes = 0;
};

} // namespace mlir::amls

#endif // AMLS_LIB_EXECUTIONENGINE_BOUNDARY_H
