//===- Kernels.cpp - Linear algebra on a compressed matrix ----------------===//
//
// Every kernel splits the rows into one contiguous range per thread and
// walks its range in blocks small enough for the block's output (or left
// operand) rows to stay in cache while each group adds its share: a group's
// codes are read once, in order, and the dictionaries were multiplied
// before the loop (prepareRight), so X %*% v costs a lookup and an add per
// row and group instead of a multiply-add per cell.
//
//===----------------------------------------------------------------------===//

#include "ColumnGroups.h"

#include "../Kernels/OpenBlas.h"
#include "../Kernels/Threads.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>

using namespace amls::runtime;
using namespace amls::runtime::compressed;

namespace {

/// Rows per block for operands with k columns: about 16 KiB of them.
int64_t blockRows(int64_t k) {
  return std::max<int64_t>(64, 2048 / std::max<int64_t>(k, 1));
}

/// Runs body(t, r0, r1) over one contiguous range of rows per thread.
template <typename Body>
void forRowRanges(int64_t rows, int64_t threads, Body &&body) {
  runThreads(threads, [&](int64_t t) {
    int64_t r0 = rows * t / threads, r1 = rows * (t + 1) / threads;
    body(t, r0, r1);
  });
}

enum { RowMajor = 101, Upper = 121, Trans = 112 };
using SyrkFn = void (*)(int, int, int, int, int, double, const double *, int,
                        double, double *, int);

/// c (n x n, upper triangle) += t(a) a for a (kk x n, row-major).
void syrkAccumulate(int64_t n, int64_t kk, const double *a, double *c) {
  static SyrkFn syrk = reinterpret_cast<SyrkFn>(openBlasSymbol("cblas_dsyrk"));
  if (syrk) {
    syrk(RowMajor, Upper, Trans, int(n), int(kk), 1.0, a, int(n), 1.0, c,
         int(n));
    return;
  }
  for (int64_t p = 0; p < kk; ++p)
    for (int64_t i = 0; i < n; ++i) {
      double value = a[p * n + i];
      if (value == 0.0)
        continue;
      for (int64_t j = i; j < n; ++j)
        c[i * n + j] += value * a[p * n + j];
    }
}

} // namespace

CompressedMatrix::CompressedMatrix(
    int64_t rows, int64_t cols,
    std::vector<std::unique_ptr<ColumnGroup>> groups)
    : rows(rows), cols(cols), groups(std::move(groups)) {}

CompressedMatrix::~CompressedMatrix() = default;

uint64_t CompressedMatrix::getSizeInBytes() const {
  uint64_t bytes = 0;
  for (const std::unique_ptr<ColumnGroup> &group : groups)
    bytes += group->getSizeInBytes();
  return bytes;
}

std::vector<GroupPlan> CompressedMatrix::describeGroups() const {
  std::vector<GroupPlan> described;
  for (const std::unique_ptr<ColumnGroup> &group : groups)
    described.push_back({group->getColumns(), group->getEncoding(),
                         group->getNumDistinct(), group->getSizeInBytes()});
  return described;
}

void CompressedMatrix::multiplyRight(const double *w, int64_t ldw, int64_t k,
                                     double *out, int64_t ldOut) const {
  std::vector<std::vector<double>> prepared(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    prepared[g].resize(groups[g]->getPreparedSize(k));
    groups[g]->prepareRight(w, ldw, k, prepared[g].data());
  }
  int64_t block = blockRows(k);
  forRowRanges(rows, threadsFor(rows, 4 * block), [&](int64_t, int64_t r0,
                                                      int64_t r1) {
    for (int64_t b0 = r0; b0 < r1; b0 += block) {
      int64_t b1 = std::min(b0 + block, r1);
      for (int64_t r = b0; r < b1; ++r)
        std::fill_n(out + r * ldOut, k, 0.0);
      for (size_t g = 0; g < groups.size(); ++g)
        groups[g]->addRight(prepared[g].data(), k, b0, b1, out + b0 * ldOut,
                            ldOut);
    }
  });
}

void CompressedMatrix::multiplyLeftTransposed(const double *w, int64_t ldw,
                                              int64_t k, double *out,
                                              int64_t ldOut) const {
  int64_t block = blockRows(k);
  int64_t threads = threadsFor(rows, 4 * block);
  // Per thread: each group's aggregate, then w's column sums.
  std::vector<std::vector<std::vector<double>>> aggregates(threads);
  std::vector<std::vector<double>> columnSums(threads,
                                              std::vector<double>(k, 0.0));
  forRowRanges(rows, threads, [&](int64_t t, int64_t r0, int64_t r1) {
    std::vector<std::vector<double>> &mine = aggregates[t];
    mine.resize(groups.size());
    for (size_t g = 0; g < groups.size(); ++g)
      mine[g].assign(groups[g]->getAggregateSize(k), 0.0);
    for (int64_t b0 = r0; b0 < r1; b0 += block) {
      int64_t b1 = std::min(b0 + block, r1);
      for (size_t g = 0; g < groups.size(); ++g)
        groups[g]->addLeft(w, ldw, k, b0, b1, mine[g].data());
      for (int64_t r = b0; r < b1; ++r)
        for (int64_t j = 0; j < k; ++j)
          columnSums[t][j] += w[r * ldw + j];
    }
  });
  for (int64_t t = 1; t < threads; ++t) {
    for (size_t g = 0; g < groups.size(); ++g)
      for (size_t i = 0; i < aggregates[0][g].size(); ++i)
        aggregates[0][g][i] += aggregates[t][g][i];
    for (int64_t j = 0; j < k; ++j)
      columnSums[0][j] += columnSums[t][j];
  }
  for (int64_t c = 0; c < cols; ++c)
    std::fill_n(out + c * ldOut, k, 0.0);
  for (size_t g = 0; g < groups.size(); ++g)
    groups[g]->finishLeft(aggregates[0][g].data(), k, columnSums[0].data(),
                          out, ldOut);
}

// Each block's X %*% v stays in cache for its t(X) %*% (.), so a group's
// codes are read once per block instead of once per product.
void CompressedMatrix::multiplyChain(const double *v, int64_t ldv,
                                     const double *w, int64_t ldw,
                                     double *out) const {
  std::vector<std::vector<double>> prepared(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    prepared[g].resize(groups[g]->getPreparedSize(1));
    groups[g]->prepareRight(v, ldv, 1, prepared[g].data());
  }
  int64_t block = blockRows(1);
  int64_t threads = threadsFor(rows, 4 * block);
  std::vector<std::vector<std::vector<double>>> aggregates(threads);
  std::vector<double> columnSums(threads, 0.0);
  // X %*% v, each thread writing its rows (addLeft reads by absolute row).
  memory::Vector<double> xv(rows);
  forRowRanges(rows, threads, [&](int64_t t, int64_t r0, int64_t r1) {
    std::vector<std::vector<double>> &mine = aggregates[t];
    mine.resize(groups.size());
    for (size_t g = 0; g < groups.size(); ++g)
      mine[g].assign(groups[g]->getAggregateSize(1), 0.0);
    for (int64_t b0 = r0; b0 < r1; b0 += block) {
      int64_t b1 = std::min(b0 + block, r1);
      std::fill(xv.begin() + b0, xv.begin() + b1, 0.0);
      for (size_t g = 0; g < groups.size(); ++g)
        groups[g]->addRight(prepared[g].data(), 1, b0, b1, xv.data() + b0, 1);
      if (w)
        for (int64_t r = b0; r < b1; ++r)
          xv[r] *= w[r * ldw];
      for (size_t g = 0; g < groups.size(); ++g)
        groups[g]->addLeft(xv.data(), 1, 1, b0, b1, mine[g].data());
      for (int64_t r = b0; r < b1; ++r)
        columnSums[t] += xv[r];
    }
  });
  for (int64_t t = 1; t < threads; ++t) {
    for (size_t g = 0; g < groups.size(); ++g)
      for (size_t i = 0; i < aggregates[0][g].size(); ++i)
        aggregates[0][g][i] += aggregates[t][g][i];
    columnSums[0] += columnSums[t];
  }
  std::fill_n(out, cols, 0.0);
  for (size_t g = 0; g < groups.size(); ++g)
    groups[g]->finishLeft(aggregates[0][g].data(), 1, &columnSums[0], out, 1);
}

// The cross terms of two groups need their joint codes, so this kernel
// decompresses one cache-sized block of rows at a time (never the whole
// matrix) and accumulates t(block) %*% block.
void CompressedMatrix::multiplyTransposedSelf(double *out,
                                              int64_t ldOut) const {
  int64_t block =
      std::clamp<int64_t>((int64_t(1) << 19) / std::max<int64_t>(cols, 1), 16,
                          1024);
  int64_t threads = threadsFor(rows, 4 * block);
  std::vector<std::vector<double>> partial(
      threads, std::vector<double>(uint64_t(cols) * cols, 0.0));
  forRowRanges(rows, threads, [&](int64_t t, int64_t r0, int64_t r1) {
    std::vector<double> buffer(uint64_t(block) * cols);
    for (int64_t b0 = r0; b0 < r1; b0 += block) {
      int64_t b1 = std::min(b0 + block, r1);
      for (const std::unique_ptr<ColumnGroup> &group : groups)
        group->decompress(b0, b1, buffer.data(), cols);
      syrkAccumulate(cols, b1 - b0, buffer.data(), partial[t].data());
    }
  });
  for (int64_t t = 1; t < threads; ++t)
    for (size_t i = 0; i < partial[0].size(); ++i)
      partial[0][i] += partial[t][i];
  for (int64_t i = 0; i < cols; ++i)
    for (int64_t j = 0; j < cols; ++j)
      out[i * ldOut + j] =
          j >= i ? partial[0][i * cols + j] : partial[0][j * cols + i];
}

void CompressedMatrix::rowSums(double *out) const {
  std::vector<double> ones(cols, 1.0);
  multiplyRight(ones.data(), 1, 1, out, 1);
}

void CompressedMatrix::colSums(double *out) const {
  std::fill_n(out, cols, 0.0);
  for (const std::unique_ptr<ColumnGroup> &group : groups)
    group->addColumnSums(out);
}

double CompressedMatrix::sum() const {
  std::vector<double> sums(cols);
  colSums(sums.data());
  return std::accumulate(sums.begin(), sums.end(), 0.0);
}

int64_t CompressedMatrix::getNumValues() const {
  int64_t count = 0;
  for (const std::unique_ptr<ColumnGroup> &group : groups)
    count += group->getNumValues();
  return count;
}

void CompressedMatrix::copyValues(double *values) const {
  for (const std::unique_ptr<ColumnGroup> &group : groups) {
    group->copyValues(values);
    values += group->getNumValues();
  }
}

std::shared_ptr<const CompressedMatrix>
CompressedMatrix::withValues(const double *values) const {
  std::vector<std::unique_ptr<ColumnGroup>> rewritten;
  rewritten.reserve(groups.size());
  for (const std::unique_ptr<ColumnGroup> &group : groups) {
    rewritten.push_back(group->withValues(values));
    values += group->getNumValues();
  }
  return std::make_shared<const CompressedMatrix>(rows, cols,
                                                  std::move(rewritten));
}

std::shared_ptr<const CompressedMatrix>
CompressedMatrix::map(const std::function<double(double)> &fn) const {
  memory::Vector<double> values(getNumValues());
  copyValues(values.data());
  std::transform(values.begin(), values.end(), values.begin(), fn);
  return withValues(values.data());
}

void CompressedMatrix::decompress(double *out, int64_t ld) const {
  int64_t block = blockRows(cols);
  forRowRanges(rows, threadsFor(rows, 4 * block), [&](int64_t, int64_t r0,
                                                      int64_t r1) {
    for (int64_t b0 = r0; b0 < r1; b0 += block) {
      int64_t b1 = std::min(b0 + block, r1);
      for (const std::unique_ptr<ColumnGroup> &group : groups)
        group->decompress(b0, b1, out + b0 * ld, ld);
    }
  });
}

std::string CompressionPlan::describe() const {
  std::ostringstream os;
  double ratio = estimatedBytes ? double(sourceBytes) / estimatedBytes : 0.0;
  os << (compress ? "compress" : "keep") << ": " << groups.size()
     << " groups, estimated " << estimatedBytes << " bytes of " << sourceBytes
     << " (" << std::fixed;
  os.precision(2);
  os << ratio << "x)\n";
  for (const GroupPlan &group : groups) {
    // Columns as ranges: a one-hot feature's codes are consecutive.
    os << "  " << getEncodingName(group.encoding) << " columns [";
    const std::vector<int32_t> &columns = group.columns;
    for (size_t i = 0; i < columns.size();) {
      size_t j = i;
      while (j + 1 < columns.size() && columns[j + 1] == columns[j] + 1)
        ++j;
      os << (i ? "," : "") << columns[i];
      if (j > i)
        os << "-" << columns[j];
      i = j + 1;
    }
    os << "] distinct " << group.distinct << " bytes " << group.bytes << "\n";
  }
  return os.str();
}
