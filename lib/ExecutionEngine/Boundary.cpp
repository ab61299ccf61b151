//===- Boundary.cpp - What amls_main takes and returns --------------------===//
//
// How values cross into compiled code: the --amls-wrap-entry pass gives
// every program a public `amls_main` with the C interface that takes the
// entry's arguments (f64, f32 and i64 matrices as memref descriptors, a CSR
// matrix as its layout's fields, scalars) and returns its results. The
// session calls it through the ExecutionEngine's packed interface with
// descriptors of the caller's buffers, and reads the returned descriptors
// out of the result struct. Both sides follow StorageLayouts.def.
//
// Why results are returned rather than passed to callbacks (as they once
// were, through a process-wide list behind a mutex): returned values need
// no global and no context pointer, and they are owned by the caller.
// Ownership-based buffer deallocation guarantees that a public function's
// returned buffers are owned by its caller; where a result may alias an
// argument or a constant it clones it. So each matrix result is a buffer the
// compiled code allocated from the runtime's pool (finalize-memref-to-llvm's
// use-generic-functions, Memory.h) and nothing else frees: the session
// adopts it and returns it to the pool. Results that come back in the same
// buffer share one owner, so it is freed once.
//
//===----------------------------------------------------------------------===//

#include "Boundary.h"
#include "Specialization.h"

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/Support/StorageLayout.h"

#include <array>
#include <cstring>

using namespace mlir;
using namespace mlir::amls;

namespace layout = ::amls::layout;
using layout::StorageField;

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// The kinds of the results of amls_main: the wrapper's amls.result_kinds
/// (--amls-wrap-entry). Null when it has none or one the session cannot
/// read.
std::optional<SmallVector<ResultKind>>
mlir::amls::getResultKinds(func::FuncOp wrapper) {
  auto kinds =
      wrapper->getAttrOfType<ArrayAttr>(AMLSDialect::getResultKindsAttrName());
  if (!kinds && wrapper.getNumResults() == 0)
    return SmallVector<ResultKind>();
  if (!kinds)
    return std::nullopt;
  SmallVector<ResultKind> result;
  for (Attribute kind : kinds) {
    auto attr = dyn_cast<ResultKindAttr>(kind);
    if (!attr)
      return std::nullopt;
    result.push_back(attr.getValue());
  }
  return result;
}

/// The words a result of `kind` occupies in amls_main's result struct: its
/// layout's fields (StorageLayouts.def), or one word for a scalar.
static size_t getResultWords(ResultKind kind) {
  switch (kind) {
  case ResultKind::Dense:
    return layout::getWords(layout::getLayout(AMLS_MATRIX_DENSE));
  case ResultKind::CSR:
    return layout::getWords(layout::getLayout(AMLS_MATRIX_CSR));
  case ResultKind::Float:
  case ResultKind::Integer:
    return 1;
  }
  llvm_unreachable("unknown result kind");
}

ResultLayout::ResultLayout(ArrayRef<ResultKind> resultKinds)
    : kinds(resultKinds) {
  for (ResultKind kind : kinds) {
    wordOffsets.push_back(numWords);
    numWords += getResultWords(kind);
  }
}

bool ResultLayout::returnsThroughFirstArgument() const {
  return kinds.size() > 1 ||
         (kinds.size() == 1 && getResultWords(kinds[0]) > 1);
}

/// Reads `field` of the returned matrix whose first word is at `matrix`.
template <typename T>
static T readField(const int64_t *matrix, StorageField field) {
  T value;
  std::memcpy(&value, matrix + layout::getWordOffset(field), sizeof(T));
  return value;
}

/// The CSR matrix whose fields start at `field`; it adopts the three
/// buffers (through `buffers`, shared with other results that hold them).
static MatrixValue decodeCSR(const int64_t *field, ResultBuffers &buffers) {
  auto offsets = readField<AmlsVectorI64>(field, StorageField::CSR_RowOffsets);
  auto columns =
      readField<AmlsVectorI32>(field, StorageField::CSR_ColumnIndices);
  auto values = readField<AmlsVectorF64>(field, StorageField::CSR_Values);
  AmlsMatrixRef ref = {};
  ref.format = AMLS_MATRIX_CSR;
  ref.element_type = AMLS_ELEMENT_F64;
  ref.target = AMLS_TARGET_CPU;
  ref.rows = offsets.sizes[0] - 1;
  ref.cols = readField<int64_t>(field, StorageField::CSR_Columns);
  ref.row_offsets = offsets.aligned + offsets.offset;
  ref.column_indices = columns.aligned + columns.offset;
  ref.data = values.aligned + values.offset;
  ref.nnz = ref.rows > 0 ? ref.row_offsets[ref.rows] : 0;
  ref.allocation = values.allocated;
  ref.row_offsets_allocation = offsets.allocated;
  ref.column_indices_allocation = columns.allocated;
  return MatrixValue::adopt(ref, buffers);
}

/// Turns the words amls_main wrote into values; matrices adopt their buffers.
SmallVector<RuntimeValue> mlir::amls::decodeResults(const ResultLayout &layout,
                                                    ArrayRef<int64_t> words) {
  SmallVector<RuntimeValue> values;
  // A buffer returned twice (`return %m, %m`, CSR results that share row
  // offsets) is owned once.
  ResultBuffers buffers;
  for (auto [kind, offset] : llvm::zip(layout.kinds, layout.wordOffsets)) {
    const int64_t *field = words.data() + offset;
    if (kind == ResultKind::Float) {
      double number;
      std::memcpy(&number, field, sizeof(number));
      values.push_back(RuntimeValue::ofFloat(number));
      continue;
    }
    if (kind == ResultKind::Integer) {
      values.push_back(RuntimeValue::ofInteger(*field));
      continue;
    }
    if (kind == ResultKind::CSR) {
      values.push_back(RuntimeValue::ofMatrix(decodeCSR(field, buffers)));
      continue;
    }
    auto descriptor =
        readField<AmlsMatrixF64>(field, StorageField::DENSE_Cells);
    AmlsMatrixRef ref = {};
    ref.format = AMLS_MATRIX_DENSE;
    ref.element_type = AMLS_ELEMENT_F64;
    ref.target = AMLS_TARGET_CPU;
    ref.rows = descriptor.sizes[0];
    ref.cols = descriptor.sizes[1];
    ref.data = descriptor.aligned + descriptor.offset;
    ref.strides[0] = descriptor.strides[0];
    ref.strides[1] = descriptor.strides[1];
    ref.allocation = descriptor.allocated;
    values.push_back(RuntimeValue::ofMatrix(MatrixValue::adopt(ref, buffers)));
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

/// `matrix`'s cells row-major in `elementType`, in a buffer `copies` keeps.
static void *rowMajorCopy(const MatrixValue &matrix,
                          AmlsElementType elementType,
                          std::deque<std::vector<char>> &copies) {
  int64_t rows = matrix.getRows(), cols = matrix.getCols();
  size_t size = elementType == AMLS_ELEMENT_F32 ? sizeof(float) : 8;
  std::vector<char> &buffer = copies.emplace_back(rows * cols * size);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double value = matrix.cell(r, c);
      int64_t at = r * cols + c;
      if (elementType == AMLS_ELEMENT_F32)
        reinterpret_cast<float *>(buffer.data())[at] =
            static_cast<float>(value);
      else if (elementType == AMLS_ELEMENT_I64)
        reinterpret_cast<int64_t *>(buffer.data())[at] =
            static_cast<int64_t>(value);
      else
        reinterpret_cast<double *>(buffer.data())[at] = value;
    }
  return buffer.data();
}

void PackedArguments::addCSR(const MatrixValue &matrix) {
  // The fields a CSR parameter lowers to, in its layout's order
  // (StorageLayouts.def): row offsets, column indices, values, number of
  // columns.
  const AmlsMatrixRef &ref = matrix.getRef();
  auto *offsets = const_cast<int64_t *>(ref.row_offsets);
  auto *columns = const_cast<int32_t *>(ref.column_indices);
  auto *values = static_cast<double *>(ref.data);
  if (placeInput) {
    offsets = static_cast<int64_t *>(
        placeInput(offsets, (ref.rows + 1) * sizeof(int64_t)));
    columns =
        static_cast<int32_t *>(placeInput(columns, ref.nnz * sizeof(int32_t)));
    values =
        static_cast<double *>(placeInput(values, ref.nnz * sizeof(double)));
  }
  constexpr layout::Layout csr = layout::getLayout(AMLS_MATRIX_CSR);
  std::array<void *, csr.size> fields;
  rowOffsetDescriptors.push_back({offsets, offsets, 0, {ref.rows + 1}, {1}});
  pointers.push_back(&rowOffsetDescriptors.back());
  fields[layout::getFieldIndex(StorageField::CSR_RowOffsets)] =
      &pointers.back();
  columnDescriptors.push_back({columns, columns, 0, {ref.nnz}, {1}});
  pointers.push_back(&columnDescriptors.back());
  fields[layout::getFieldIndex(StorageField::CSR_ColumnIndices)] =
      &pointers.back();
  valueDescriptors.push_back({values, values, 0, {ref.nnz}, {1}});
  pointers.push_back(&valueDescriptors.back());
  fields[layout::getFieldIndex(StorageField::CSR_Values)] = &pointers.back();
  integers.push_back(ref.cols);
  fields[layout::getFieldIndex(StorageField::CSR_Columns)] = &integers.back();
  llvm::append_range(packed, fields);
}

void PackedArguments::addDense(Type declared, const MatrixValue &matrix,
                               bool transposed) {
  // In the element type the entry takes (boundaryElementType): the
  // caller's cells in place when they are in it and row-major, else a
  // row-major copy converted to it.
  AmlsElementType taken = boundaryElementType(declared);
  uint64_t bytes =
      matrix.getRows() * matrix.getCols() * (taken == AMLS_ELEMENT_F32 ? 4 : 8);
  void *cells = matrix.getRef().data;
  // Column-major cells in place, as the transpose (passesTransposed).
  if (!transposed &&
      (!matrix.isContiguousRowMajor() || matrix.getElementType() != taken)) {
    cells = rowMajorCopy(matrix, taken, copies);
    ++layoutCopies;
    layoutCopyBytes += bytes;
  }
  if (placeInput)
    cells = placeInput(cells, bytes);
  // The descriptor's pointer type does not matter: amls_main reads the
  // cells in the element type it takes them in.
  auto *data = static_cast<double *>(cells);
  int64_t rows = transposed ? matrix.getCols() : matrix.getRows();
  int64_t cols = transposed ? matrix.getRows() : matrix.getCols();
  descriptors.push_back({data, data, 0, {rows, cols}, {cols, 1}});
  pointers.push_back(&descriptors.back());
  packed.push_back(&pointers.back());
}

void PackedArguments::add(Type declared, const RuntimeValue &arg) {
  if (arg.isMatrix() && arg.getMatrix().isCSR())
    return addCSR(arg.getMatrix());
  if (arg.isMatrix())
    return addDense(declared, arg.getMatrix(), passesTransposed(declared, arg));
  if (declared.isF64()) {
    floats.push_back(arg.getNumber());
    packed.push_back(&floats.back());
  } else if (declared.isF32()) {
    singles.push_back(static_cast<float>(arg.getNumber()));
    packed.push_back(&singles.back());
  } else if (declared.isInteger(1)) {
    booleans.push_back(arg.getNumber() != 0.0);
    packed.push_back(&booleans.back());
  } else {
    integers.push_back(arg.getKind() == RuntimeValue::Kind::Integer
                           ? arg.getInteger()
                           : static_cast<int64_t>(arg.getNumber()));
    packed.push_back(&integers.back());
  }
}

void PackedArguments::addResults(const ResultLayout &layout,
                                 SmallVectorImpl<int64_t> &words) {
  words.assign(layout.numWords, 0);
  resultStruct = words.data();
  if (layout.returnsThroughFirstArgument())
    packed.insert(packed.begin(), &resultStruct);
  else if (!layout.kinds.empty())
    packed.push_back(resultStruct);
}
