//===- ColumnGroups.cpp - DDC, OLE, RLE and uncompressed groups -----------===//

#include "ColumnGroups.h"

#include "../Kernels/OpenBlas.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace amls::runtime;
using namespace amls::runtime::compressed;

ColumnGroup::~ColumnGroup() = default;

const char *compressed::getEncodingName(Encoding encoding) {
  switch (encoding) {
  case Encoding::DDC:
    return "DDC";
  case Encoding::OLE:
    return "OLE";
  case Encoding::RLE:
    return "RLE";
  case Encoding::Uncompressed:
    return "UNC";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

// A tuple costs its values and, in a list group, the list's header (the
// memory::Vector's pointer and size) and its count.
uint64_t compressed::getDictionarySize(Encoding encoding, int64_t numColumns,
                                       int64_t distinct) {
  switch (encoding) {
  case Encoding::DDC:
    return uint64_t(distinct) * (numColumns * 8 + 8);
  case Encoding::OLE:
  case Encoding::RLE:
    return uint64_t(std::max<int64_t>(distinct - 1, 0)) *
               (numColumns * 8 + 24) +
           numColumns * 8;
  case Encoding::Uncompressed:
    return 0;
  }
  return 0;
}

uint64_t compressed::getDDCSize(int64_t rows, int64_t numColumns,
                                int64_t distinct) {
  uint64_t codeBytes = distinct <= 256 ? 1 : 2;
  return getDictionarySize(Encoding::DDC, numColumns, distinct) +
         uint64_t(rows) * codeBytes;
}

uint64_t compressed::getOLESize(int64_t numColumns, int64_t distinct,
                                int64_t nonDefaultRows) {
  return getDictionarySize(Encoding::OLE, numColumns, distinct) +
         uint64_t(nonDefaultRows) * 4;
}

uint64_t compressed::getRLESize(int64_t numColumns, int64_t distinct,
                                int64_t runs) {
  return getDictionarySize(Encoding::RLE, numColumns, distinct) +
         uint64_t(runs) * 8;
}

uint64_t compressed::getUncompressedSize(int64_t rows, int64_t numColumns) {
  return uint64_t(rows) * numColumns * 8;
}

std::pair<Encoding, uint64_t>
compressed::chooseEncoding(int64_t rows, int64_t numColumns, int64_t distinct,
                           int64_t nonDefaultRows, int64_t runs) {
  std::pair<Encoding, uint64_t> best = {Encoding::Uncompressed,
                                        getUncompressedSize(rows, numColumns)};
  if (distinct > kMaxDistinct)
    return best;
  auto consider = [&](Encoding encoding, uint64_t bytes) {
    if (bytes < best.second)
      best = {encoding, bytes};
  };
  consider(Encoding::DDC, getDDCSize(rows, numColumns, distinct));
  consider(Encoding::OLE, getOLESize(numColumns, distinct, nonDefaultRows));
  consider(Encoding::RLE, getRLESize(numColumns, distinct, runs));
  return best;
}

//===----------------------------------------------------------------------===//
// Dictionary arithmetic shared by DDC and the list groups
//===----------------------------------------------------------------------===//

namespace {

/// prepared[t * k + j] = (tuple t - offset) . w[columns, j] for numTuples
/// tuples (offset null: none).
void multiplyDictionary(const double *dictionary, int64_t numTuples,
                        const std::vector<int32_t> &columns,
                        const double *offset, const double *w, int64_t ldw,
                        int64_t k, double *prepared) {
  int64_t c = static_cast<int64_t>(columns.size());
  std::fill(prepared, prepared + numTuples * k, 0.0);
  for (int64_t t = 0; t < numTuples; ++t) {
    const double *tuple = dictionary + t * c;
    double *row = prepared + t * k;
    for (int64_t i = 0; i < c; ++i) {
      double value = tuple[i] - (offset ? offset[i] : 0.0);
      if (value == 0.0)
        continue;
      const double *wRow = w + int64_t(columns[i]) * ldw;
      for (int64_t j = 0; j < k; ++j)
        row[j] += value * wRow[j];
    }
  }
}

/// out[columns[i]][j] += sum_t (tuple t - offset)[i] * aggregate[t][j].
void addDictionaryTransposed(const double *dictionary, int64_t numTuples,
                             const std::vector<int32_t> &columns,
                             const double *offset, const double *aggregate,
                             int64_t k, double *out, int64_t ldOut) {
  int64_t c = static_cast<int64_t>(columns.size());
  for (int64_t i = 0; i < c; ++i) {
    double *outRow = out + int64_t(columns[i]) * ldOut;
    for (int64_t t = 0; t < numTuples; ++t) {
      double value = dictionary[t * c + i] - (offset ? offset[i] : 0.0);
      if (value == 0.0)
        continue;
      const double *aggRow = aggregate + t * k;
      for (int64_t j = 0; j < k; ++j)
        outRow[j] += value * aggRow[j];
    }
  }
}

Dictionary copyDictionary(const double *values, uint64_t size) {
  Dictionary copy(size);
  std::copy_n(values, size, copy.begin());
  return copy;
}

} // namespace

//===----------------------------------------------------------------------===//
// DDC
//===----------------------------------------------------------------------===//

template <typename CodeT>
DDCGroup<CodeT>::DDCGroup(std::vector<int32_t> columns, Dictionary dictionary,
                          std::shared_ptr<const Codes> codes,
                          std::vector<int64_t> counts)
    : ColumnGroup(Encoding::DDC, std::move(columns)),
      dictionary(std::move(dictionary)), codes(std::move(codes)),
      counts(std::move(counts)) {}

template <typename CodeT> int64_t DDCGroup<CodeT>::getNumDistinct() const {
  return static_cast<int64_t>(counts.size());
}

template <typename CodeT> uint64_t DDCGroup<CodeT>::getSizeInBytes() const {
  return dictionary.size() * 8 + counts.size() * 8 +
         codes->size() * sizeof(CodeT);
}

template <typename CodeT>
int64_t DDCGroup<CodeT>::getPreparedSize(int64_t k) const {
  return getNumDistinct() * k;
}

template <typename CodeT>
void DDCGroup<CodeT>::prepareRight(const double *w, int64_t ldw, int64_t k,
                                   double *prepared) const {
  multiplyDictionary(dictionary.data(), getNumDistinct(), columns, nullptr, w,
                     ldw, k, prepared);
}

template <typename CodeT>
void DDCGroup<CodeT>::addRight(const double *prepared, int64_t k, int64_t r0,
                               int64_t r1, double *out, int64_t ldOut) const {
  const CodeT *code = codes->data();
  if (k == 1) {
    for (int64_t r = r0; r < r1; ++r)
      out[(r - r0) * ldOut] += prepared[code[r]];
    return;
  }
  for (int64_t r = r0; r < r1; ++r) {
    const double *p = prepared + int64_t(code[r]) * k;
    double *o = out + (r - r0) * ldOut;
    for (int64_t j = 0; j < k; ++j)
      o[j] += p[j];
  }
}

template <typename CodeT>
int64_t DDCGroup<CodeT>::getAggregateSize(int64_t k) const {
  return getNumDistinct() * k;
}

template <typename CodeT>
void DDCGroup<CodeT>::addLeft(const double *w, int64_t ldw, int64_t k,
                              int64_t r0, int64_t r1,
                              double *aggregate) const {
  const CodeT *code = codes->data();
  if (k == 1) {
    for (int64_t r = r0; r < r1; ++r)
      aggregate[code[r]] += w[r * ldw];
    return;
  }
  for (int64_t r = r0; r < r1; ++r) {
    double *a = aggregate + int64_t(code[r]) * k;
    const double *wRow = w + r * ldw;
    for (int64_t j = 0; j < k; ++j)
      a[j] += wRow[j];
  }
}

template <typename CodeT>
void DDCGroup<CodeT>::finishLeft(const double *aggregate, int64_t k,
                                 const double *, double *out,
                                 int64_t ldOut) const {
  addDictionaryTransposed(dictionary.data(), getNumDistinct(), columns,
                          nullptr, aggregate, k, out, ldOut);
}

template <typename CodeT>
void DDCGroup<CodeT>::decompress(int64_t r0, int64_t r1, double *rows,
                                 int64_t ld) const {
  int64_t c = getNumColumns();
  const CodeT *code = codes->data();
  for (int64_t r = r0; r < r1; ++r) {
    const double *tuple = dictionary.data() + int64_t(code[r]) * c;
    double *row = rows + (r - r0) * ld;
    for (int64_t i = 0; i < c; ++i)
      row[columns[i]] = tuple[i];
  }
}

template <typename CodeT>
void DDCGroup<CodeT>::addColumnSums(double *sums) const {
  int64_t c = getNumColumns();
  for (int64_t t = 0; t < getNumDistinct(); ++t)
    for (int64_t i = 0; i < c; ++i)
      sums[columns[i]] += double(counts[t]) * dictionary[t * c + i];
}

template <typename CodeT> int64_t DDCGroup<CodeT>::getNumValues() const {
  return static_cast<int64_t>(dictionary.size());
}

template <typename CodeT>
void DDCGroup<CodeT>::copyValues(double *values) const {
  std::copy(dictionary.begin(), dictionary.end(), values);
}

template <typename CodeT>
std::unique_ptr<ColumnGroup>
DDCGroup<CodeT>::withValues(const double *values) const {
  return std::make_unique<DDCGroup<CodeT>>(
      columns, copyDictionary(values, dictionary.size()), codes, counts);
}

template class amls::runtime::compressed::DDCGroup<uint8_t>;
template class amls::runtime::compressed::DDCGroup<uint16_t>;

//===----------------------------------------------------------------------===//
// OLE and RLE
//===----------------------------------------------------------------------===//

ListGroup::ListGroup(Encoding encoding, std::vector<int32_t> columns,
                     Dictionary dictionary, std::vector<double> defaultTuple,
                     std::shared_ptr<const RowLists> rows, int64_t numRows)
    : ColumnGroup(encoding, std::move(columns)),
      dictionary(std::move(dictionary)), defaultTuple(std::move(defaultTuple)),
      rows(std::move(rows)), numRows(numRows) {
  counts.reserve(this->rows->size());
  for (const memory::Vector<uint32_t> &list : *this->rows) {
    if (!isRunLength()) {
      counts.push_back(static_cast<int64_t>(list.size()));
      continue;
    }
    int64_t count = 0;
    for (size_t p = 1; p < list.size(); p += 2)
      count += list[p];
    counts.push_back(count);
  }
}

int64_t ListGroup::getNumDistinct() const { return getNumTuples() + 1; }

uint64_t ListGroup::getSizeInBytes() const {
  uint64_t bytes = dictionary.size() * 8 + defaultTuple.size() * 8 +
                   rows->size() * (sizeof(memory::Vector<uint32_t>) + 8);
  for (const memory::Vector<uint32_t> &list : *rows)
    bytes += list.size() * 4;
  return bytes;
}

template <typename Fn>
void ListGroup::forEachStretch(int64_t t, int64_t r0, int64_t r1,
                               Fn &&fn) const {
  const memory::Vector<uint32_t> &list = (*rows)[t];
  if (!isRunLength()) {
    auto it = std::lower_bound(list.begin(), list.end(), uint32_t(r0));
    for (; it != list.end() && int64_t(*it) < r1; ++it)
      fn(int64_t(*it), int64_t(*it) + 1);
    return;
  }
  // The first run ending after r0: runs are (start, length) pairs in
  // ascending, disjoint order.
  size_t numRuns = list.size() / 2;
  size_t lo = 0, hi = numRuns;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (int64_t(list[2 * mid]) + list[2 * mid + 1] <= r0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t i = lo; i < numRuns; ++i) {
    int64_t start = list[2 * i];
    if (start >= r1)
      break;
    fn(std::max(start, r0), std::min(start + int64_t(list[2 * i + 1]), r1));
  }
}

int64_t ListGroup::getPreparedSize(int64_t k) const {
  return (getNumTuples() + 1) * k;
}

// The listed tuples' rows hold their difference to the default tuple, the
// last row the default tuple itself, which every row gets.
void ListGroup::prepareRight(const double *w, int64_t ldw, int64_t k,
                             double *prepared) const {
  multiplyDictionary(dictionary.data(), getNumTuples(), columns,
                     defaultTuple.data(), w, ldw, k, prepared);
  multiplyDictionary(defaultTuple.data(), 1, columns, nullptr, w, ldw, k,
                     prepared + getNumTuples() * k);
}

void ListGroup::addRight(const double *prepared, int64_t k, int64_t r0,
                         int64_t r1, double *out, int64_t ldOut) const {
  const double *base = prepared + getNumTuples() * k;
  if (std::any_of(base, base + k, [](double v) { return v != 0.0; }))
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t j = 0; j < k; ++j)
        out[(r - r0) * ldOut + j] += base[j];
  for (int64_t t = 0; t < getNumTuples(); ++t) {
    const double *p = prepared + t * k;
    if (k == 1) {
      double value = p[0];
      forEachStretch(t, r0, r1, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r)
          out[(r - r0) * ldOut] += value;
      });
      continue;
    }
    forEachStretch(t, r0, r1, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r)
        for (int64_t j = 0; j < k; ++j)
          out[(r - r0) * ldOut + j] += p[j];
    });
  }
}

int64_t ListGroup::getAggregateSize(int64_t k) const {
  return getNumTuples() * k;
}

void ListGroup::addLeft(const double *w, int64_t ldw, int64_t k, int64_t r0,
                        int64_t r1, double *aggregate) const {
  for (int64_t t = 0; t < getNumTuples(); ++t) {
    double *a = aggregate + t * k;
    forEachStretch(t, r0, r1, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r)
        for (int64_t j = 0; j < k; ++j)
          a[j] += w[r * ldw + j];
    });
  }
}

// t(X) w over the group's columns = sum_t (tuple t - default) * (w summed
// over t's rows) + default * (w summed over all rows).
void ListGroup::finishLeft(const double *aggregate, int64_t k,
                           const double *wColumnSums, double *out,
                           int64_t ldOut) const {
  addDictionaryTransposed(dictionary.data(), getNumTuples(), columns,
                          defaultTuple.data(), aggregate, k, out, ldOut);
  addDictionaryTransposed(defaultTuple.data(), 1, columns, nullptr,
                          wColumnSums, k, out, ldOut);
}

void ListGroup::decompress(int64_t r0, int64_t r1, double *out,
                           int64_t ld) const {
  int64_t c = getNumColumns();
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t i = 0; i < c; ++i)
      out[(r - r0) * ld + columns[i]] = defaultTuple[i];
  for (int64_t t = 0; t < getNumTuples(); ++t) {
    const double *tuple = dictionary.data() + t * c;
    forEachStretch(t, r0, r1, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r)
        for (int64_t i = 0; i < c; ++i)
          out[(r - r0) * ld + columns[i]] = tuple[i];
    });
  }
}

void ListGroup::addColumnSums(double *sums) const {
  int64_t c = getNumColumns();
  int64_t listed = std::accumulate(counts.begin(), counts.end(), int64_t(0));
  for (int64_t i = 0; i < c; ++i) {
    double sum = double(numRows - listed) * defaultTuple[i];
    for (int64_t t = 0; t < getNumTuples(); ++t)
      sum += double(counts[t]) * dictionary[t * c + i];
    sums[columns[i]] += sum;
  }
}

int64_t ListGroup::getNumValues() const {
  return static_cast<int64_t>(dictionary.size() + defaultTuple.size());
}

void ListGroup::copyValues(double *values) const {
  values = std::copy(dictionary.begin(), dictionary.end(), values);
  std::copy(defaultTuple.begin(), defaultTuple.end(), values);
}

std::unique_ptr<ColumnGroup> ListGroup::withValues(const double *values) const {
  const double *defaults = values + dictionary.size();
  return std::make_unique<ListGroup>(
      encoding, columns, copyDictionary(values, dictionary.size()),
      std::vector<double>(defaults, defaults + defaultTuple.size()), rows,
      numRows);
}

//===----------------------------------------------------------------------===//
// Uncompressed
//===----------------------------------------------------------------------===//

namespace {

enum { RowMajor = 101, NoTrans = 111, Trans = 112 };
using GemmFn = void (*)(int, int, int, int, int, int, double, const double *,
                        int, const double *, int, double, double *, int);

GemmFn getGemm() {
  static GemmFn gemm =
      reinterpret_cast<GemmFn>(openBlasSymbol("cblas_dgemm"));
  return gemm;
}

/// C (m x n, ldc) += op(A) (m x kk) * B (kk x n): OpenBLAS, or loops where
/// it is missing.
void gemmAccumulate(bool transposeA, int64_t m, int64_t n, int64_t kk,
                    const double *a, int64_t lda, const double *b,
                    int64_t ldb, double *c, int64_t ldc) {
  if (m == 0 || n == 0 || kk == 0)
    return;
  if (GemmFn gemm = getGemm()) {
    gemm(RowMajor, transposeA ? Trans : NoTrans, NoTrans, int(m), int(n),
         int(kk), 1.0, a, int(lda), b, int(ldb), 1.0, c, int(ldc));
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < kk; ++p) {
      double value = transposeA ? a[p * lda + i] : a[i * lda + p];
      for (int64_t j = 0; j < n; ++j)
        c[i * ldc + j] += value * b[p * ldb + j];
    }
}

} // namespace

UncompressedGroup::UncompressedGroup(std::vector<int32_t> columns,
                                     memory::Vector<double> cells,
                                     int64_t numRows)
    : ColumnGroup(Encoding::Uncompressed, std::move(columns)),
      cells(std::move(cells)), numRows(numRows) {}

uint64_t UncompressedGroup::getSizeInBytes() const { return cells.size() * 8; }

int64_t UncompressedGroup::getPreparedSize(int64_t k) const {
  return getNumColumns() * k;
}

void UncompressedGroup::prepareRight(const double *w, int64_t ldw, int64_t k,
                                     double *prepared) const {
  for (int64_t i = 0; i < getNumColumns(); ++i)
    std::memcpy(prepared + i * k, w + int64_t(columns[i]) * ldw,
                k * sizeof(double));
}

void UncompressedGroup::addRight(const double *prepared, int64_t k,
                                 int64_t r0, int64_t r1, double *out,
                                 int64_t ldOut) const {
  int64_t c = getNumColumns();
  gemmAccumulate(false, r1 - r0, k, c, cells.data() + r0 * c, c, prepared, k,
                 out, ldOut);
}

int64_t UncompressedGroup::getAggregateSize(int64_t k) const {
  return getNumColumns() * k;
}

void UncompressedGroup::addLeft(const double *w, int64_t ldw, int64_t k,
                                int64_t r0, int64_t r1,
                                double *aggregate) const {
  int64_t c = getNumColumns();
  gemmAccumulate(true, c, k, r1 - r0, cells.data() + r0 * c, c, w + r0 * ldw,
                 ldw, aggregate, k);
}

void UncompressedGroup::finishLeft(const double *aggregate, int64_t k,
                                   const double *, double *out,
                                   int64_t ldOut) const {
  for (int64_t i = 0; i < getNumColumns(); ++i)
    for (int64_t j = 0; j < k; ++j)
      out[int64_t(columns[i]) * ldOut + j] += aggregate[i * k + j];
}

void UncompressedGroup::decompress(int64_t r0, int64_t r1, double *rows,
                                   int64_t ld) const {
  int64_t c = getNumColumns();
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t i = 0; i < c; ++i)
      rows[(r - r0) * ld + columns[i]] = cells[r * c + i];
}

void UncompressedGroup::addColumnSums(double *sums) const {
  int64_t c = getNumColumns();
  for (int64_t r = 0; r < numRows; ++r)
    for (int64_t i = 0; i < c; ++i)
      sums[columns[i]] += cells[r * c + i];
}

int64_t UncompressedGroup::getNumValues() const {
  return static_cast<int64_t>(cells.size());
}

void UncompressedGroup::copyValues(double *values) const {
  std::copy(cells.begin(), cells.end(), values);
}

std::unique_ptr<ColumnGroup>
UncompressedGroup::withValues(const double *values) const {
  return std::make_unique<UncompressedGroup>(
      columns, copyDictionary(values, cells.size()), numRows);
}
