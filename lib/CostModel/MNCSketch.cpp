//===- MNCSketch.cpp - Matrix non-zero count sketches ---------------------===//

#include "AMLS/CostModel/MNCSketch.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <thread>

using namespace mlir::amls;
using Counts = MNCSketch::Counts;

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

MNCSketch::Summary MNCSketch::summarize(const Counts &counts,
                                        int64_t otherDim) {
  Summary summary;
  int64_t half = otherDim / 2;
  for (uint32_t count : counts) {
    summary.max = std::max(summary.max, count);
    summary.singletons += count == 1;
    summary.nonEmpty += count != 0;
    summary.overHalf += static_cast<int64_t>(count) > half;
  }
  return summary;
}

void MNCSketch::summarize() {
  rowSummary = summarize(rowCounts, cols());
  colSummary = summarize(colCounts, rows());
  nonZeros = std::accumulate(rowCounts.begin(), rowCounts.end(), int64_t(0));
}

/// Whether the extension vectors can change an estimate: not for an empty
/// or fully dense matrix, nor where every row or every column holds at most
/// one non-zero (Algorithm 1's exact case).
static bool wantsExtension(const MNCSketch &sketch) {
  return sketch.nnz() > 0 && sketch.nnz() != sketch.rows() * sketch.cols() &&
         sketch.maxRowCount() > 1 && sketch.maxColCount() > 1;
}

/// Runs fn(part) for part in [0, parts), on parts threads.
template <typename Fn> static void runParts(int64_t parts, Fn fn) {
  std::vector<std::thread> workers;
  for (int64_t part = 1; part < parts; ++part)
    workers.emplace_back(fn, part);
  fn(0);
  for (std::thread &worker : workers)
    worker.join();
}

MNCSketch MNCSketch::fromCSR(int64_t rows, int64_t cols,
                             const int64_t *rowOffsets, const int32_t *columns,
                             bool extended, int threads) {
  MNCSketch sketch;
  sketch.rowCounts.resize(rows);
  bool diagonal = rows == cols && rows > 0;
  for (int64_t i = 0; i < rows; ++i) {
    int64_t begin = rowOffsets[i], end = rowOffsets[i + 1];
    sketch.rowCounts[i] = static_cast<uint32_t>(end - begin);
    diagonal &= end - begin == 1 && columns[begin] == i;
  }
  sketch.fullDiagonal = diagonal;
  // The column counts are random increments, one per non-zero: each
  // thread counts the non-zeros of a range of rows (about equal non-zeros
  // each) into counts of its own, summed after.
  int64_t first = rowOffsets[0], nnz = rowOffsets[rows] - first;
  int64_t parts = std::clamp<int64_t>(threads, 1, 8);
  if (nnz < 4 * cols || nnz < (int64_t(1) << 20))
    parts = 1;
  std::vector<int64_t> bounds(parts + 1, first + nnz);
  for (int64_t part = 0; part < parts; ++part)
    bounds[part] = first + nnz * part / parts;
  std::vector<Counts> partial(parts);
  runParts(parts, [&](int64_t part) {
    Counts &counts = part ? partial[part] : sketch.colCounts;
    counts.assign(cols, 0);
    for (int64_t p = bounds[part]; p < bounds[part + 1]; ++p)
      ++counts[columns[p]];
  });
  for (int64_t part = 1; part < parts; ++part)
    for (int64_t c = 0; c < cols; ++c)
      sketch.colCounts[c] += partial[part][c];
  sketch.summarize();
  if (!extended || !wantsExtension(sketch))
    return sketch;
  // A row's non-zeros in singleton columns (a bit per column, which the
  // cache holds), and a column's non-zeros in singleton rows.
  std::vector<uint64_t> singleton((cols + 63) / 64, 0);
  for (int64_t c = 0; c < cols; ++c)
    if (sketch.colCounts[c] == 1)
      singleton[c / 64] |= uint64_t(1) << (c % 64);
  sketch.rowExtension.assign(rows, 0);
  int64_t rowSpan = (rows + parts - 1) / parts;
  runParts(parts, [&](int64_t part) {
    int64_t end = std::min(rows, (part + 1) * rowSpan);
    for (int64_t i = part * rowSpan; i < end; ++i) {
      uint32_t count = 0;
      for (int64_t p = rowOffsets[i]; p < rowOffsets[i + 1]; ++p)
        count += (singleton[columns[p] / 64] >> (columns[p] % 64)) & 1;
      sketch.rowExtension[i] = count;
    }
  });
  sketch.colExtension.assign(cols, 0);
  for (int64_t i = 0; i < rows; ++i)
    if (sketch.rowCounts[i] == 1)
      ++sketch.colExtension[columns[rowOffsets[i]]];
  return sketch;
}

MNCSketch MNCSketch::fromDense(int64_t rows, int64_t cols, const double *data,
                               int64_t ld, bool extended) {
  MNCSketch sketch;
  sketch.rowCounts.assign(rows, 0);
  sketch.colCounts.assign(cols, 0);
  bool diagonal = rows == cols;
  for (int64_t i = 0; i < rows; ++i) {
    const double *row = data + i * ld;
    uint32_t count = 0;
    for (int64_t j = 0; j < cols; ++j) {
      bool nonZero = row[j] != 0.0;
      count += nonZero;
      sketch.colCounts[j] += nonZero;
    }
    sketch.rowCounts[i] = count;
    // row[i] exists only while the matrix can still be square-diagonal.
    diagonal = diagonal && count == 1 && row[i] != 0.0;
  }
  sketch.fullDiagonal = diagonal && rows > 0;
  sketch.summarize();
  if (!extended || !wantsExtension(sketch))
    return sketch;
  sketch.rowExtension.assign(rows, 0);
  sketch.colExtension.assign(cols, 0);
  for (int64_t i = 0; i < rows; ++i) {
    const double *row = data + i * ld;
    bool singleton = sketch.rowCounts[i] == 1;
    for (int64_t j = 0; j < cols; ++j) {
      if (row[j] == 0.0)
        continue;
      sketch.rowExtension[i] += sketch.colCounts[j] == 1;
      sketch.colExtension[j] += singleton;
    }
  }
  return sketch;
}

MNCSketch MNCSketch::fromCounts(Counts rowCounts, Counts colCounts) {
  MNCSketch sketch;
  sketch.rowCounts = std::move(rowCounts);
  sketch.colCounts = std::move(colCounts);
  sketch.summarize();
  return sketch;
}

std::optional<MNCSketch>
MNCSketch::fromParts(Counts rowCounts, Counts colCounts, Counts rowExtension,
                     Counts colExtension, bool fullDiagonal,
                     std::string &error) {
  MNCSketch sketch = fromCounts(std::move(rowCounts), std::move(colCounts));
  int64_t colSum = std::accumulate(sketch.colCounts.begin(),
                                   sketch.colCounts.end(), int64_t(0));
  if (colSum != sketch.nnz()) {
    error = "the row counts sum to " + std::to_string(sketch.nnz()) +
            " but the column counts to " + std::to_string(colSum);
    return std::nullopt;
  }
  if (sketch.rowSummary.max > sketch.cols() ||
      sketch.colSummary.max > sketch.rows()) {
    error = "a count exceeds the other dimension of the " +
            std::to_string(sketch.rows()) + "x" +
            std::to_string(sketch.cols()) + " matrix";
    return std::nullopt;
  }
  if (rowExtension.empty() != colExtension.empty() ||
      (!rowExtension.empty() &&
       (rowExtension.size() != sketch.rowCounts.size() ||
        colExtension.size() != sketch.colCounts.size()))) {
    error = "the extension vectors must both be given, one entry per row "
            "and one per column";
    return std::nullopt;
  }
  for (size_t k = 0; k < rowExtension.size(); ++k)
    if (rowExtension[k] > sketch.rowCounts[k]) {
      error = "row " + std::to_string(k) + " has more non-zeros in singleton "
              "columns than non-zeros";
      return std::nullopt;
    }
  for (size_t k = 0; k < colExtension.size(); ++k)
    if (colExtension[k] > sketch.colCounts[k]) {
      error = "column " + std::to_string(k) + " has more non-zeros in "
              "singleton rows than non-zeros";
      return std::nullopt;
    }
  if (fullDiagonal &&
      (sketch.rows() != sketch.cols() || sketch.rows() == 0 ||
       sketch.rowSummary.max != 1 || sketch.nnz() != sketch.rows())) {
    error = "a full diagonal needs a square matrix with one non-zero in "
            "every row";
    return std::nullopt;
  }
  sketch.rowExtension = std::move(rowExtension);
  sketch.colExtension = std::move(colExtension);
  sketch.fullDiagonal = fullDiagonal;
  return sketch;
}

MNCSketch MNCSketch::uniform(int64_t rows, int64_t cols, bool full) {
  return fromCounts(Counts(rows, full ? static_cast<uint32_t>(cols) : 0),
                    Counts(cols, full ? static_cast<uint32_t>(rows) : 0));
}

double MNCSketch::sparsity() const {
  double cells = static_cast<double>(rows()) * static_cast<double>(cols());
  return cells > 0 ? static_cast<double>(nonZeros) / cells : 0.0;
}

bool MNCSketch::operator==(const MNCSketch &other) const {
  return rowCounts == other.rowCounts && colCounts == other.colCounts &&
         rowExtension == other.rowExtension &&
         colExtension == other.colExtension &&
         fullDiagonal == other.fullDiagonal;
}

size_t MNCSketch::hash() const {
  // FNV-1a over the shape, the non-zeros and up to 4,096 counts of each
  // vector, evenly spaced: the attribute uniquer hashes every sketch it
  // stores (millions of counts), and equal sketches still hash equally.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t value) {
    h ^= value;
    h *= 1099511628211ull;
  };
  mix(static_cast<uint64_t>(nonZeros));
  for (const Counts *counts :
       {&rowCounts, &colCounts, &rowExtension, &colExtension}) {
    mix(counts->size());
    size_t stride = std::max<size_t>(1, counts->size() / 4096);
    for (size_t k = 0; k < counts->size(); k += stride)
      mix((*counts)[k]);
  }
  mix(fullDiagonal);
  return static_cast<size_t>(h);
}

//===----------------------------------------------------------------------===//
// Estimates
//===----------------------------------------------------------------------===//

/// 1 - prod(1 - p_j): the probability that any of independent events
/// happens, accumulated as the paper's p + q - p*q.
static void accumulateUnion(double &probability, double event) {
  event = std::clamp(event, 0.0, 1.0);
  probability = probability + event - probability * event;
}

double mlir::amls::estimateProductNnz(const MNCSketch &lhs,
                                      const MNCSketch &rhs) {
  assert(lhs.cols() == rhs.rows() && "inner dimensions differ");
  const Counts &lc = lhs.getColCounts(), &rr = rhs.getRowCounts();
  int64_t inner = lhs.cols();
  double nnz = 0;
  if (lhs.maxRowCount() <= 1 || rhs.maxColCount() <= 1) {
    // Each non-zero a_ij meets row j of B alone (or each b_jk column j of
    // A alone): the product's non-zeros are exactly sum_j |A:j| |Bj:|.
    for (int64_t j = 0; j < inner; ++j)
      nnz += static_cast<double>(lc[j]) * rr[j];
    return nnz;
  }
  if (lhs.hasExtension() || rhs.hasExtension()) {
    // Rows of A with a single non-zero, and columns of B with a single
    // non-zero, give exact counts; the rest meet in the cells left.
    const Counts &lcSingle = lhs.getColCountsInSingletonRows();
    const Counts &rrSingle = rhs.getRowCountsInSingletonCols();
    double cells =
        static_cast<double>(lhs.nonEmptyRows() - lhs.singletonRows()) *
        static_cast<double>(rhs.nonEmptyCols() - rhs.singletonCols());
    double rest = 0;
    for (int64_t j = 0; j < inner; ++j) {
      double lSingle = lhs.hasExtension() ? lcSingle[j] : 0;
      double rSingle = rhs.hasExtension() ? rrSingle[j] : 0;
      nnz += lSingle * rr[j] + (lc[j] - lSingle) * rSingle;
      if (cells > 0)
        accumulateUnion(rest, (lc[j] - lSingle) * (rr[j] - rSingle) / cells);
    }
    nnz += rest * cells;
  } else {
    double cells = static_cast<double>(lhs.nonEmptyRows()) *
                   static_cast<double>(rhs.nonEmptyCols());
    double probability = 0;
    if (cells > 0)
      for (int64_t j = 0; j < inner; ++j)
        accumulateUnion(probability,
                        static_cast<double>(lc[j]) * rr[j] / cells);
    nnz = probability * cells;
  }
  // A row over half full meets a column over half full in at least one
  // position of the inner dimension.
  double lower = static_cast<double>(lhs.rowsOverHalf()) *
                 static_cast<double>(rhs.colsOverHalf());
  double upper = static_cast<double>(lhs.nonEmptyRows()) *
                 static_cast<double>(rhs.nonEmptyCols());
  return std::clamp(nnz, std::min(lower, upper), upper);
}

/// The collision factor of two same-shaped sketches along one side:
/// sum_k a_k b_k / (nnz(A) nnz(B)), the chance that a non-zero of A and one
/// of B fall on the same position of that side.
static double collisionScale(const Counts &lhs, const Counts &rhs,
                             double lhsNnz, double rhsNnz) {
  double dot = 0;
  for (size_t k = 0; k < lhs.size(); ++k)
    dot += static_cast<double>(lhs[k]) * rhs[k];
  return dot / lhsNnz / rhsNnz;
}

double mlir::amls::estimateIntersectionNnz(const MNCSketch &lhs,
                                           const MNCSketch &rhs) {
  assert(lhs.rows() == rhs.rows() && lhs.cols() == rhs.cols());
  if (lhs.nnz() == 0 || rhs.nnz() == 0)
    return 0;
  double scale = collisionScale(lhs.getColCounts(), rhs.getColCounts(),
                                lhs.nnz(), rhs.nnz());
  double nnz = 0;
  const Counts &lr = lhs.getRowCounts(), &rr = rhs.getRowCounts();
  for (int64_t i = 0; i < lhs.rows(); ++i)
    nnz += static_cast<double>(lr[i]) * rr[i] * scale;
  return std::min(nnz, static_cast<double>(std::min(lhs.nnz(), rhs.nnz())));
}

double mlir::amls::estimateUnionNnz(const MNCSketch &lhs,
                                    const MNCSketch &rhs) {
  return static_cast<double>(lhs.nnz()) + static_cast<double>(rhs.nnz()) -
         estimateIntersectionNnz(lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Propagation
//===----------------------------------------------------------------------===//

/// Rounds `values` to counts at most `cap` whose sum is the rounded sum of
/// the values: each rounding's error carries to the next (error diffusion),
/// deterministic where the paper rounds at random, so a program compiles
/// the same way twice.
static Counts roundCounts(const std::vector<double> &values, int64_t cap) {
  Counts counts(values.size());
  double carry = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    double wanted = values[k] + carry;
    double rounded = std::clamp(std::round(wanted), 0.0,
                                static_cast<double>(cap));
    counts[k] = static_cast<uint32_t>(rounded);
    carry = wanted - rounded;
  }
  return counts;
}

/// `counts` scaled to sum to `total`; zeros stay zero.
static Counts scaleCounts(const Counts &counts, double total, int64_t cap) {
  double sum = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (sum == total && sum > 0 &&
      *std::max_element(counts.begin(), counts.end()) <= cap)
    return counts; // exact already (a permutation, a one-hot product)
  // roundCounts's error diffusion in one pass, without the vector of
  // scaled values (these vectors have a count per row of the data).
  Counts scaled(counts.size(), 0);
  if (sum <= 0)
    return scaled;
  double factor = total / sum, carry = 0, limit = static_cast<double>(cap);
  for (size_t k = 0; k < counts.size(); ++k) {
    if (counts[k] == 0)
      continue;
    double wanted = counts[k] * factor + carry;
    double rounded = std::clamp(std::floor(wanted + 0.5), 0.0, limit);
    scaled[k] = static_cast<uint32_t>(rounded);
    carry = wanted - rounded;
  }
  return scaled;
}

/// A sketch of row values and column values that estimate the same nnz:
/// the columns are scaled to the rows' rounded total.
static MNCSketch fromEstimates(const std::vector<double> &rowValues,
                               const std::vector<double> &colValues) {
  Counts rows = roundCounts(rowValues, static_cast<int64_t>(colValues.size()));
  double total = std::accumulate(rows.begin(), rows.end(), 0.0);
  Counts cols = roundCounts(colValues, static_cast<int64_t>(rowValues.size()));
  return MNCSketch::fromCounts(
      std::move(rows),
      scaleCounts(cols, total, static_cast<int64_t>(rowValues.size())));
}

MNCSketch mlir::amls::propagateProduct(const MNCSketch &lhs,
                                       const MNCSketch &rhs, double nnz) {
  if (lhs.isFullDiagonal())
    return rhs;
  if (rhs.isFullDiagonal())
    return lhs;
  Counts rows = scaleCounts(lhs.getRowCounts(), nnz, rhs.cols());
  double total = std::accumulate(rows.begin(), rows.end(), 0.0);
  return MNCSketch::fromCounts(
      std::move(rows), scaleCounts(rhs.getColCounts(), total, lhs.rows()));
}

MNCSketch mlir::amls::propagateIntersection(const MNCSketch &lhs,
                                            const MNCSketch &rhs) {
  if (lhs.nnz() == 0 || rhs.nnz() == 0)
    return MNCSketch::uniform(lhs.rows(), lhs.cols(), /*full=*/false);
  const Counts &lr = lhs.getRowCounts(), &rr = rhs.getRowCounts();
  const Counts &lc = lhs.getColCounts(), &rc = rhs.getColCounts();
  double rowScale = collisionScale(lc, rc, lhs.nnz(), rhs.nnz());
  double colScale = collisionScale(lr, rr, lhs.nnz(), rhs.nnz());
  std::vector<double> rows(lr.size()), cols(lc.size());
  for (size_t i = 0; i < lr.size(); ++i)
    rows[i] = static_cast<double>(lr[i]) * rr[i] * rowScale;
  for (size_t j = 0; j < lc.size(); ++j)
    cols[j] = static_cast<double>(lc[j]) * rc[j] * colScale;
  return fromEstimates(rows, cols);
}

MNCSketch mlir::amls::propagateUnion(const MNCSketch &lhs,
                                     const MNCSketch &rhs) {
  if (lhs.nnz() == 0)
    return rhs;
  if (rhs.nnz() == 0)
    return lhs;
  const Counts &lr = lhs.getRowCounts(), &rr = rhs.getRowCounts();
  const Counts &lc = lhs.getColCounts(), &rc = rhs.getColCounts();
  double rowScale = collisionScale(lc, rc, lhs.nnz(), rhs.nnz());
  double colScale = collisionScale(lr, rr, lhs.nnz(), rhs.nnz());
  std::vector<double> rows(lr.size()), cols(lc.size());
  for (size_t i = 0; i < lr.size(); ++i)
    rows[i] = static_cast<double>(lr[i]) + rr[i] -
              static_cast<double>(lr[i]) * rr[i] * rowScale;
  for (size_t j = 0; j < lc.size(); ++j)
    cols[j] = static_cast<double>(lc[j]) + rc[j] -
              static_cast<double>(lc[j]) * rc[j] * colScale;
  return fromEstimates(rows, cols);
}

MNCSketch mlir::amls::propagateTranspose(const MNCSketch &input) {
  // The extension vectors swap with the sides: a column's non-zeros in
  // singleton rows become a row's non-zeros in singleton columns.
  MNCSketch result = input;
  std::swap(result.rowCounts, result.colCounts);
  std::swap(result.rowExtension, result.colExtension);
  std::swap(result.rowSummary, result.colSummary);
  return result;
}

MNCSketch mlir::amls::propagateRbind(const MNCSketch &top,
                                     const MNCSketch &bottom) {
  assert(top.cols() == bottom.cols());
  Counts rows = top.getRowCounts();
  rows.insert(rows.end(), bottom.getRowCounts().begin(),
              bottom.getRowCounts().end());
  Counts cols = top.getColCounts();
  for (size_t j = 0; j < cols.size(); ++j)
    cols[j] += bottom.getColCounts()[j];
  return MNCSketch::fromCounts(std::move(rows), std::move(cols));
}

MNCSketch mlir::amls::propagateCbind(const MNCSketch &left,
                                     const MNCSketch &right) {
  return propagateTranspose(
      propagateRbind(propagateTranspose(left), propagateTranspose(right)));
}

MNCSketch mlir::amls::propagateSlice(const MNCSketch &input, int64_t rowBegin,
                                     int64_t rowEnd, int64_t colBegin,
                                     int64_t colEnd) {
  assert(0 <= rowBegin && rowBegin <= rowEnd && rowEnd <= input.rows());
  assert(0 <= colBegin && colBegin <= colEnd && colEnd <= input.cols());
  const Counts &rows = input.getRowCounts(), &cols = input.getColCounts();
  double keptByRows = std::accumulate(rows.begin() + rowBegin,
                                      rows.begin() + rowEnd, 0.0);
  double keptByCols = std::accumulate(cols.begin() + colBegin,
                                      cols.begin() + colEnd, 0.0);
  double nnz = static_cast<double>(input.nnz());
  // The share of a kept row's non-zeros that fall in the kept columns, and
  // of a kept column's in the kept rows (1 where the slice keeps the side
  // whole: exact counts).
  double colShare = nnz > 0 ? keptByCols / nnz : 0;
  double rowShare = nnz > 0 ? keptByRows / nnz : 0;
  std::vector<double> rowValues(rows.begin() + rowBegin,
                                rows.begin() + rowEnd);
  std::vector<double> colValues(cols.begin() + colBegin,
                                cols.begin() + colEnd);
  for (double &value : rowValues)
    value *= colShare;
  for (double &value : colValues)
    value *= rowShare;
  return fromEstimates(rowValues, colValues);
}

MNCSketch mlir::amls::propagateDiag(const MNCSketch &input) {
  if (input.cols() == 1) {
    // diag(v): row i and column i hold v_i.
    return MNCSketch::fromCounts(input.getRowCounts(), input.getRowCounts());
  }
  assert(input.rows() == input.cols() && "diag of a non-square matrix");
  if (input.isFullDiagonal())
    return MNCSketch::uniform(input.rows(), 1, /*full=*/true);
  // a_ii is non-zero with the chance that row i's and column i's non-zeros
  // meet there: |Ai:| |A:i| / nnz(A), at most 1.
  std::vector<double> values(input.rows(), 0.0);
  double nnz = static_cast<double>(input.nnz());
  if (nnz > 0)
    for (int64_t i = 0; i < input.rows(); ++i)
      values[i] = std::min(1.0, static_cast<double>(input.getRowCounts()[i]) *
                                    input.getColCounts()[i] / nnz);
  Counts rows = roundCounts(values, 1);
  uint32_t total = std::accumulate(rows.begin(), rows.end(), uint32_t(0));
  return MNCSketch::fromCounts(std::move(rows), Counts{total});
}

MNCSketch mlir::amls::propagateEqualZero(const MNCSketch &input) {
  Counts rows = input.getRowCounts(), cols = input.getColCounts();
  for (uint32_t &count : rows)
    count = static_cast<uint32_t>(input.cols()) - count;
  for (uint32_t &count : cols)
    count = static_cast<uint32_t>(input.rows()) - count;
  return MNCSketch::fromCounts(std::move(rows), std::move(cols));
}
