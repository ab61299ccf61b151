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
// A coordinate file is parsed by all threads from a mapping of the file
// when nothing in it needs the sequential parser's messages.
//
// Compiled programs read through a handle: amls_rt_csr_read parses into a
// matrix whose arrays come from the pool, and the program takes the arrays
// over as its own buffers (nothing is copied) before freeing the handle.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"
#include "MatrixCells.h"

#include "../Kernels/SparseSupport.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/// The entries one thread parsed from its part of a coordinate file, in
/// file order.
struct ParsedPart {
  memory::Vector<int64_t> rows;
  memory::Vector<int32_t> cols;
  memory::Vector<double> values;
  /// Per row: the part's entries, then where they go.
  memory::Vector<int64_t> next;
  int64_t lines = 0;
  bool ok = true;
};

/// Parses the entry lines in [p, end): `<row> <col>[ <value>]`, blank and
/// comment lines skipped. False at the first line the fast parser does not
/// take or that lies outside the matrix.
bool parseEntryLines(const char *p, const char *end, int64_t rows, int64_t cols,
                     bool pattern, bool symmetric, double mirrorSign,
                     ParsedPart &part) {
  auto isBlank = [](char c) { return c == ' ' || c == '\t'; };
  while (p < end) {
    const char *eol = static_cast<const char *>(std::memchr(p, '\n', end - p));
    const char *lineEnd = eol ? eol : end;
    const char *q = p;
    p = eol ? eol + 1 : end;
    while (q < lineEnd && (isBlank(*q) || *q == '\r'))
      ++q;
    if (q == lineEnd || *q == '%')
      continue;
    int64_t r, c;
    double value = 1.0;
    // Digits only (at most 15: exact in a double); anything else is left
    // to from_chars, or to the sequential reader.
    auto digits = [&](int64_t &out) {
      const char *first = q;
      int64_t v = 0;
      while (q < lineEnd && static_cast<unsigned>(*q - '0') < 10 &&
             q - first < 15)
        v = v * 10 + (*q++ - '0');
      out = v;
      return q > first && (q == lineEnd || isBlank(*q) || *q == '\r');
    };
    auto skipBlanks = [&] {
      while (q < lineEnd && isBlank(*q))
        ++q;
    };
    skipBlanks();
    if (!digits(r) || (q < lineEnd && !isBlank(*q)))
      return false;
    skipBlanks();
    // A pattern line may end in CR; a value must follow a blank.
    if (!digits(c) || (q < lineEnd && !isBlank(*q) && !pattern))
      return false;
    if (!pattern) {
      skipBlanks();
      if (q < lineEnd && *q == '+')
        ++q;
      const char *token = q;
      bool negative = q < lineEnd && *q == '-';
      q += negative;
      int64_t whole;
      if (digits(whole)) {
        value = negative ? -double(whole) : double(whole);
      } else {
        auto [next, ec] = std::from_chars(token, lineEnd, value);
        if (ec != std::errc() ||
            (next < lineEnd && !isBlank(*next) && *next != '\r'))
          return false;
      }
    }
    if (r < 1 || r > rows || c < 1 || c > cols)
      return false;
    ++part.lines;
    part.rows.push_back(r - 1);
    part.cols.push_back(static_cast<int32_t>(c - 1));
    part.values.push_back(value);
    if (symmetric && r != c) {
      part.rows.push_back(c - 1);
      part.cols.push_back(static_cast<int32_t>(r - 1));
      part.values.push_back(mirrorSign * value);
    }
  }
  return true;
}

/// A row's entries [begin, end), in file order, sorted stably by
/// column, the last assignment of a column kept, zeros dropped, as
/// CsrSink::buildFromEntries does; returns the entries kept, from `begin`.
int64_t settleRow(int32_t *colidx, double *values, int64_t begin, int64_t end) {
  bool clean = true;
  for (int64_t k = begin; k < end && clean; ++k)
    clean = values[k] != 0.0 && (k == begin || colidx[k - 1] < colidx[k]);
  if (clean)
    return end - begin;
  std::vector<std::pair<int32_t, double>> entries;
  for (int64_t k = begin; k < end; ++k)
    entries.emplace_back(colidx[k], values[k]);
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const auto &x, const auto &y) { return x.first < y.first; });
  int64_t kept = begin;
  for (size_t e = 0; e < entries.size(); ++e) {
    if (e + 1 < entries.size() && entries[e + 1].first == entries[e].first)
      continue;
    if (entries[e].second != 0.0) {
      colidx[kept] = entries[e].first;
      values[kept++] = entries[e].second;
    }
  }
  return kept - begin;
}

/// A coordinate Matrix Market file read by all threads: the file is mapped,
/// cut into one part per thread at line boundaries, and each part parsed
/// and then placed into CSR by a counting sort over the rows. The result
/// is the sequential reader's (file order within a row, the last
/// assignment of a cell winning, zeros dropped last). False, with nothing
/// read, wherever it is not that simple (an array file, a line the fast
/// parser does not take, an entry outside the matrix, a wrong entry count):
/// the sequential reader then reads the file and reports the errors.
/// examples/components.dml on graph_1m_sym (20M entries, 2 threads): 3.3
/// -> 2.1 s end to end.
bool readCoordinateInParallel(const std::string &path, CsrMatrix &result) {
  std::ifstream in(path, std::ios::binary);
  MatrixMarketHeader header;
  int64_t lineNo = 0;
  // Row pointers beyond the budget: the sequential reader reports it.
  if (!in || !parseMatrixMarketHeader(in, path, header, lineNo).empty() ||
      !header.coordinate || !checkColumns(header.cols).empty() ||
      8.0 * (static_cast<double>(header.rows) + 1) >
          static_cast<double>(memory::getLimit()))
    return false;
  std::streamoff start = in.tellg();
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0 || start < 0)
    return false;
  struct stat info;
  void *mapped = MAP_FAILED;
  if (fstat(fd, &info) == 0 && info.st_size > start)
    mapped = mmap(nullptr, info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED)
    return false;
  const char *base = static_cast<const char *>(mapped);
  const char *body = base + start, *end = base + info.st_size;
  int64_t rows = header.rows, cols = header.cols;

  int64_t parts = sparse::threadsFor(end - body, int64_t(1) << 18);
  std::vector<const char *> cuts(parts + 1, end);
  cuts[0] = body;
  for (int64_t t = 1; t < parts; ++t) {
    const char *cut = body + (end - body) * t / parts;
    cut = std::max(cut, cuts[t - 1]);
    const char *eol =
        static_cast<const char *>(std::memchr(cut, '\n', end - cut));
    cuts[t] = eol ? eol + 1 : end;
  }
  std::vector<ParsedPart> parsed(parts);
  bool pattern = header.field == "pattern";
  bool symmetric = header.symmetry != "general";
  double mirrorSign = header.symmetry == "skew-symmetric" ? -1.0 : 1.0;
  sparse::runThreads(parts, [&](int64_t t) {
    ParsedPart &part = parsed[t];
    // The header's count may be anything: an entry line takes at least 4
    // bytes ("1 1\n"), which bounds what this part can hold.
    int64_t fit = (cuts[t + 1] - cuts[t]) / 4;
    auto expected = static_cast<size_t>(
        std::min(header.entries / parts, fit) * (symmetric ? 2 : 1) + 16);
    part.rows.reserve(expected);
    part.cols.reserve(expected);
    part.values.reserve(expected);
    part.ok = parseEntryLines(cuts[t], cuts[t + 1], rows, cols, pattern,
                              symmetric, mirrorSign, part);
  });
  munmap(mapped, info.st_size);
  int64_t lines = 0, total = 0;
  for (ParsedPart &part : parsed) {
    if (!part.ok)
      return false;
    lines += part.lines;
    total += static_cast<int64_t>(part.rows.size());
  }
  if (lines != header.entries)
    return false;

  // Counting sort: each part's entries of row r go after those of the
  // parts before it, in file order.
  sparse::runThreads(parts, [&](int64_t t) {
    ParsedPart &part = parsed[t];
    part.next.assign(rows, 0);
    for (int64_t r : part.rows)
      ++part.next[r];
  });
  CsrMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.rowptr.assign(rows + 1, 0);
  int64_t *rowptr = m.rowptr.data();
  for (int64_t r = 0; r < rows; ++r) {
    int64_t run = rowptr[r];
    for (ParsedPart &part : parsed) {
      int64_t count = part.next[r];
      part.next[r] = run;
      run += count;
    }
    rowptr[r + 1] = run;
  }
  m.colidx.resize(total);
  m.values.resize(total);
  int32_t *colidx = m.colidx.data();
  double *values = m.values.data();
  sparse::runThreads(parts, [&](int64_t t) {
    ParsedPart &part = parsed[t];
    for (size_t e = 0; e < part.rows.size(); ++e) {
      int64_t k = part.next[part.rows[e]]++;
      colidx[k] = part.cols[e];
      values[k] = part.values[e];
    }
    // The part's memory goes before the next phase allocates.
    part = ParsedPart();
  });
  parsed.clear();
  // Rows sorted by column, duplicates and zeros removed (usually nothing
  // to do), then moved together where a row lost entries.
  memory::Vector<int64_t> kept(rows);
  sparse::runThreads(parts, [&](int64_t t) {
    for (int64_t r = rows * t / parts; r < rows * (t + 1) / parts; ++r)
      kept[r] = settleRow(colidx, values, rowptr[r], rowptr[r + 1]);
  });
  int64_t written = 0;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t begin = rowptr[r];
    if (written != begin) {
      std::copy(colidx + begin, colidx + begin + kept[r], colidx + written);
      std::copy(values + begin, values + begin + kept[r], values + written);
    }
    rowptr[r] = written;
    written += kept[r];
  }
  rowptr[rows] = written;
  m.colidx.resize(written);
  m.values.resize(written);
  result = std::move(m);
  return true;
}

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
                          CsrMatrix &result) {
  if (format == AMLS_FILE_MATRIX_MARKET &&
      readCoordinateInParallel(path, result))
    return "";
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
  std::string error =
      writeMatrix(path, static_cast<AmlsFileFormat>(format),
                  CsrMatrixView::of(a_rowptr, a_colidx, a_values, a_cols));
  if (!error.empty())
    fail(error);
}
