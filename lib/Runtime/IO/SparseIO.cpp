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
// Compiled programs read in two steps, since they allocate the buffers:
// amls_rt_csr_read parses into a runtime-owned matrix whose sizes they ask
// for, and csr_take copies it into their buffers and frees it.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"
#include "MatrixCells.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace amls::runtime;

namespace {

std::string checkColumns(int64_t cols) {
  if (cols <= std::numeric_limits<int32_t>::max())
    return "";
  return "a matrix of " + std::to_string(cols) +
         " columns is too wide for CSR (at most 2147483647 columns)";
}

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
    return checkColumns(cols);
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
    std::string problem = checkColumns(cols);
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
    std::vector<int64_t> &rowptr = result.rowptr;
    rowptr.assign(result.rows + 1, 0);
    for (int64_t e = 0; e < n; ++e)
      ++rowptr[entryRows[e] + 1];
    for (int64_t r = 0; r < result.rows; ++r)
      rowptr[r + 1] += rowptr[r];
    // Entries by row, in file order within a row (a stable counting sort).
    std::vector<int64_t> order(n);
    {
      std::vector<int64_t> next(rowptr.begin(), rowptr.end() - 1);
      for (int64_t e = 0; e < n; ++e)
        order[next[entryRows[e]]++] = e;
    }
    std::vector<int64_t>().swap(entryRows);
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
  std::vector<double> pending;
  int64_t pendingRows = 0, pendingCols = 0;
  std::vector<int64_t> entryRows;
  std::vector<int32_t> entryCols;
  std::vector<double> entryValues;
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

[[noreturn]] void fail(const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "amls: %s\n", message.c_str());
  std::exit(1);
}

const CsrMatrix &handleMatrix(void *handle) {
  if (!handle)
    fail("CSR read: no matrix behind the handle");
  return *static_cast<const CsrMatrix *>(handle);
}

} // namespace

namespace amls::runtime {

std::string readCsrMatrix(const std::string &path, FileFormat format,
                          CsrMatrix &result) {
  CsrSink sink(result);
  std::string error = parseMatrixFile(path, format, sink);
  if (!error.empty())
    result = CsrMatrix();
  return error;
}

std::string writeMatrix(const std::string &path, FileFormat format,
                        const CsrMatrixView &matrix,
                        MatrixMarketLayout layout) {
  return writeCells(path, format, CsrSource(matrix), layout);
}

} // namespace amls::runtime

extern "C" void *amls_rt_csr_read(const char *path, int32_t format) {
  auto *matrix = new CsrMatrix();
  std::string error =
      readCsrMatrix(path, static_cast<AmlsFileFormat>(format), *matrix);
  if (!error.empty()) {
    delete matrix;
    fail(error);
  }
  return matrix;
}

extern "C" int64_t amls_rt_csr_handle_rows(void *handle) {
  return handleMatrix(handle).rows;
}

extern "C" int64_t amls_rt_csr_handle_cols(void *handle) {
  return handleMatrix(handle).cols;
}

extern "C" int64_t amls_rt_csr_handle_nnz(void *handle) {
  return handleMatrix(handle).nonZeros();
}

extern "C" void _mlir_ciface_amls_rt_csr_take(void *handle,
                                              AmlsVectorI64 *rowptr,
                                              AmlsVectorI32 *colidx,
                                              AmlsVectorF64 *values) {
  const CsrMatrix &m = handleMatrix(handle);
  int64_t nnz = m.nonZeros();
  if (rowptr->sizes[0] != m.rows + 1 || colidx->sizes[0] != nnz ||
      values->sizes[0] != nnz)
    fail("CSR read: buffers of " + std::to_string(rowptr->sizes[0]) + ", " +
         std::to_string(colidx->sizes[0]) + " and " +
         std::to_string(values->sizes[0]) + " entries for a matrix of " +
         std::to_string(m.rows) + " rows and " + std::to_string(nnz) +
         " non-zeros");
  std::copy(m.rowptr.begin(), m.rowptr.end(), rowptr->aligned + rowptr->offset);
  std::copy(m.colidx.begin(), m.colidx.end(), colidx->aligned + colidx->offset);
  std::copy(m.values.begin(), m.values.end(), values->aligned + values->offset);
  delete static_cast<CsrMatrix *>(handle);
}

extern "C" void _mlir_ciface_amls_rt_csr_write(AmlsVectorI64 *a_rowptr,
                                               AmlsVectorI32 *a_colidx,
                                               AmlsVectorF64 *a_values,
                                               int64_t a_cols, const char *path,
                                               int32_t format) {
  std::string error =
      writeMatrix(path, static_cast<AmlsFileFormat>(format),
                  CsrMatrixView::of(a_rowptr, a_colidx, a_values, a_cols));
  if (!error.empty())
    fail(error);
}
