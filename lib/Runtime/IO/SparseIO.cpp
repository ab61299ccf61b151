//===- SparseIO.cpp - Reading and writing CSR matrices --------------------===//
//
// The parsers and the writer of MatrixIO.cpp, with a CSR matrix at their
// end instead of a dense one, so that a file too large to densify can be
// read and written. Row-major formats (CSV, binary) compress row by row. A
// Matrix Market file lists assignments in any order, the last of a cell
// winning (the dense reader overwrites): they are kept in file order,
// sorted by row (counting sort) and, within a row, stably by column; the
// last of each column's run wins, and zeros are dropped only then.
//
// A coordinate file is parsed by all threads (CoordinateReader.cpp) when
// nothing in it needs the sequential parser's messages.
//
// Compiled programs read through a handle: amls_rt_csr_read parses into a
// matrix whose arrays come from the pool, and the program takes the arrays
// over as its own buffers (nothing is copied) before freeing the handle.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"
#include "CoordinateReader.h"
#include "MatrixCells.h"

#include "../Kernels/SparseSupport.h"

#include <algorithm>
#include <cstdio>

using namespace amls::runtime;

namespace {

/// Builds a CsrMatrix from what a parser reads.
class CsrSink : public CellSink {
public:
  explicit CsrSink(CsrMatrix &result) : result(result) { result = CsrMatrix(); }

  std::string setShape(int64_t rows, int64_t cols, bool reassigns) override {
    // Refused before allocating: a header's sizes may be anything, and the
    // row pointers alone take 8 bytes a row.
    double bytes = 8.0 * (static_cast<double>(rows) + 1);
    if (bytes > static_cast<double>(memory::getLimit())) {
      char text[256];
      std::snprintf(text, sizeof(text),
                    "a CSR matrix of %lld rows needs %.0f bytes for its row "
                    "pointers, more than the memory limit of %llu bytes "
                    "(amls-run --memory-limit)",
                    static_cast<long long>(rows), bytes,
                    static_cast<unsigned long long>(memory::getLimit()));
      return text;
    }
    result.rows = rows;
    result.cols = cols;
    this->reassigns = reassigns;
    return csrColumnLimit(cols);
  }

  double *appendRows(int64_t count, int64_t cols) override {
    compressPending();
    pending.resize(count * cols);
    pendingRows = count;
    pendingCols = cols;
    return pending.data();
  }

  void assign(int64_t r, int64_t c, double value) override {
    listed = true;
    // Without reassignment a zero can never hide an earlier value.
    if (!reassigns && !(value != 0.0))
      return;
    entryRows.push_back(r);
    entryCols.push_back(static_cast<int32_t>(c));
    entryValues.push_back(value);
  }

  std::string finish(int64_t rows, int64_t cols) override {
    std::string problem = csrColumnLimit(cols);
    if (!problem.empty())
      return problem;
    compressPending();
    result.rows = rows;
    result.cols = cols;
    if (listed || result.rowptr.size() != static_cast<size_t>(rows + 1))
      buildFromEntries();
    return "";
  }

private:
  /// Appends the non-zeros of the rows the parser filled last.
  void compressPending() {
    for (int64_t r = 0; r < pendingRows; ++r) {
      const double *row = pending.data() + r * pendingCols;
      for (int64_t c = 0; c < pendingCols; ++c)
        if (row[c] != 0.0) {
          result.colidx.push_back(static_cast<int32_t>(c));
          result.values.push_back(row[c]);
        }
      result.rowptr.push_back(static_cast<int64_t>(result.colidx.size()));
    }
    pendingRows = 0;
  }

  void buildFromEntries() {
    auto n = static_cast<int64_t>(entryRows.size());
    memory::Vector<int64_t> &rowptr = result.rowptr;
    rowptr.assign(result.rows + 1, 0);
    for (int64_t e = 0; e < n; ++e)
      ++rowptr[entryRows[e] + 1];
    for (int64_t r = 0; r < result.rows; ++r)
      rowptr[r + 1] += rowptr[r];
    // Entries by row, in file order within a row (a stable counting sort).
    memory::Vector<int64_t> order(n);
    {
      memory::Vector<int64_t> next(rowptr.begin(), rowptr.end() - 1);
      for (int64_t e = 0; e < n; ++e)
        order[next[entryRows[e]]++] = e;
    }
    memory::Vector<int64_t>().swap(entryRows);
    auto byColumn = [&](int64_t x, int64_t y) {
      return entryCols[x] < entryCols[y];
    };
    int64_t written = 0;
    for (int64_t r = 0; r < result.rows; ++r) {
      int64_t begin = rowptr[r], end = rowptr[r + 1];
      int64_t *first = order.data() + begin, *last = order.data() + end;
      if (!std::is_sorted(first, last, byColumn))
        std::stable_sort(first, last, byColumn);
      rowptr[r] = written;
      for (int64_t k = begin; k < end; ++k) {
        int64_t e = order[k];
        // A later assignment of the same cell wins.
        if (k + 1 < end && entryCols[order[k + 1]] == entryCols[e])
          continue;
        if (entryValues[e] != 0.0) {
          result.colidx.push_back(entryCols[e]);
          result.values.push_back(entryValues[e]);
          ++written;
        }
      }
    }
    rowptr[result.rows] = written;
  }

  CsrMatrix &result;
  bool reassigns = false, listed = false;
  memory::Vector<double> pending;
  int64_t pendingRows = 0, pendingCols = 0;
  memory::Vector<int64_t> entryRows;
  memory::Vector<int32_t> entryCols;
  memory::Vector<double> entryValues;
};

/// The cells of CSR buffers; stored zeros are cells like any other 0.
class CsrSource : public CellSource {
public:
  explicit CsrSource(const CsrMatrixView &m)
      : CellSource(m.rows, m.cols), m(m) {}

  void row(int64_t r, double *cells) const override {
    std::fill(cells, cells + cols, 0.0);
    for (int64_t k = m.rowptr[r]; k < m.rowptr[r + 1]; ++k)
      cells[m.colidx[k]] = m.values[k];
  }
  int64_t nonZeros(int64_t r, int64_t *columns, double *values) const override {
    int64_t count = 0;
    for (int64_t k = m.rowptr[r]; k < m.rowptr[r + 1]; ++k)
      if (m.values[k] != 0.0) {
        columns[count] = m.colidx[k];
        values[count++] = m.values[k];
      }
    return count;
  }
  double at(int64_t r, int64_t c) const override {
    const int32_t *first = m.colidx + m.rowptr[r],
                  *last = m.colidx + m.rowptr[r + 1];
    const int32_t *found = std::lower_bound(first, last, c);
    return found != last && *found == c ? m.values[found - m.colidx] : 0.0;
  }

private:
  CsrMatrixView m;
};

CsrMatrix &handleMatrix(void *handle) {
  if (!handle)
    fail("CSR read: no matrix behind the handle");
  return *static_cast<CsrMatrix *>(handle);
}

} // namespace

namespace amls::runtime {

std::string readCsrMatrix(const std::string &path, FileFormat format,
                          CsrMatrix &result, StatedShape stated) {
  if (format == AMLS_FILE_MATRIX_MARKET &&
      readCoordinateInParallel(path, result))
    return "";
  if (format == AMLS_FILE_TEXT) {
    int64_t rows = 0, cols = 0;
    if (textFileShape(path, stated.rows, stated.cols, rows, cols).empty() &&
        readTextCellsInParallel(path, rows, cols, result))
      return "";
  }
  CsrSink sink(result);
  std::string error = parseMatrixFile(path, format, sink, stated);
  if (!error.empty())
    result = CsrMatrix();
  return error;
}

std::string writeMatrix(const std::string &path, FileFormat format,
                        const CsrMatrixView &matrix,
                        MatrixMarketLayout layout) {
  return writeCells(path, format, CsrSource(matrix), layout);
}

std::string writeMatrixPart(const std::string &path, FileFormat format,
                            const CsrMatrixView &block, const FilePart &part) {
  return writeCells(path, format, CsrSource(block),
                    MatrixMarketLayout::Coordinate, &part);
}

} // namespace amls::runtime

extern "C" void *amls_rt_csr_read(const char *path, int32_t format,
                                  int64_t rows, int64_t cols,
                                  const char *where) {
  auto *matrix = new CsrMatrix();
  std::string error = readCsrMatrix(path, static_cast<AmlsFileFormat>(format),
                                    *matrix, StatedShape{rows, cols});
  if (!error.empty()) {
    delete matrix;
    if (where && *where)
      error.insert(0, std::string(where) + ": ");
    fail(std::move(error));
  }
  return matrix;
}

extern "C" int64_t amls_rt_csr_handle_rows(void *handle) {
  return handleMatrix(handle).rows;
}

extern "C" int64_t amls_rt_csr_handle_cols(void *handle) {
  return handleMatrix(handle).cols;
}

namespace {

/// Fills `result` with the buffer of `array`, handed over: the caller owns
/// it from now on. A buffer much larger than its contents (grown while
/// parsing) is shrunk first, so that the program does not keep the slack.
/// `what` describes it in amls-run --stats, as compiled code describes the
/// buffers it allocates.
template <typename T, typename Descriptor>
void handOverArray(memory::Vector<T> &array, Descriptor *result,
                   const char *what) {
  if (array.capacity() - array.size() > array.size() / 8)
    array.shrink_to_fit();
  auto size = static_cast<int64_t>(array.size());
  memory::Statistics::Buffer described;
  described.bytes = static_cast<uint64_t>(size) * sizeof(T);
  described.sizes[0] = size;
  described.sizes[1] = described.sizes[2] = 1;
  described.elementBytes = sizeof(T);
  described.what = what;
  memory::rankBuffer(described);
  T *buffer = memory::handOver(array);
  result->allocated = buffer;
  result->aligned = buffer;
  result->offset = 0;
  result->sizes[0] = size;
  result->strides[0] = 1;
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_csr_take_rowptr(AmlsVectorI64 *result,
                                                     void *handle,
                                                     const char *what) {
  handOverArray(handleMatrix(handle).rowptr, result, what);
}

extern "C" void _mlir_ciface_amls_rt_csr_take_colidx(AmlsVectorI32 *result,
                                                     void *handle,
                                                     const char *what) {
  handOverArray(handleMatrix(handle).colidx, result, what);
}

extern "C" void _mlir_ciface_amls_rt_csr_take_values(AmlsVectorF64 *result,
                                                     void *handle,
                                                     const char *what) {
  handOverArray(handleMatrix(handle).values, result, what);
}

extern "C" void amls_rt_csr_free_handle(void *handle) {
  delete static_cast<CsrMatrix *>(handle);
}

extern "C" void _mlir_ciface_amls_rt_csr_write(AmlsVectorI64 *a_rowptr,
                                               AmlsVectorI32 *a_colidx,
                                               AmlsVectorF64 *a_values,
                                               int64_t a_cols, const char *path,
                                               int32_t format) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  CsrMatrixView matrix =
      CsrMatrixView::of(a_rowptr, a_colidx, a_values, a_cols);
  std::string error =
      writeMatrix(path, static_cast<AmlsFileFormat>(format), matrix);
  if (!error.empty())
    fail(std::move(error));
  int64_t nonZeros = 0;
  for (int64_t k = 0; k < matrix.rowptr[matrix.rows]; ++k)
    nonZeros += matrix.values[k] != 0.0;
  error = writeMatrixMtdFor(path, static_cast<AmlsFileFormat>(format),
                            matrix.rows, matrix.cols, nonZeros);
  if (!error.empty())
    fail(std::move(error));
}
