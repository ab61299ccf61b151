//===- SparseGemm.cpp - CSR times CSR (Gustavson) -------------------------===//
//
// C = A %*% B row by row (Gustavson): row i of C sums the rows of B that row
// i of A names. The compiler allocates C between two passes: a symbolic one
// counts each row's distinct columns, a numeric one fills them. Each thread
// keeps a dense accumulator over B's columns (a value and a stamp of the
// row that last touched it) plus the list of touched columns, sorted before
// the row is written (a bucket sort: 3x faster than std::sort on typical
// rows), or, when the row touches a large part of its column range, read
// back in column order by a scan. A row of A with one entry is a scaled row
// of B and needs neither. For B with too many columns for an accumulator, a
// row's products are sorted by column and merged instead. Rows go to
// threads in chunks on demand, since their costs vary as the degrees of a
// power-law graph do.
//
// The pattern is symbolic: an entry whose products cancel to 0 is kept as a
// stored zero (the count cannot know the values). Each entry sums its
// products in the order of row i of A, so results do not depend on the
// number of threads.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

#include <optional>

using namespace amls::runtime::sparse;

namespace {

/// Widest B for a dense accumulator (16 bytes per column and thread).
constexpr int64_t kMaxDenseAccumulator = int64_t(1) << 23;

constexpr const char *kKernel = "CSR %*% CSR";

void insertionSort(int32_t *keys, int64_t n) {
  for (int64_t i = 1; i < n; ++i) {
    int32_t key = keys[i];
    int64_t j = i;
    for (; j > 0 && keys[j - 1] > key; --j)
      keys[j] = keys[j - 1];
    keys[j] = key;
  }
}

/// Sorts n distinct keys in [lo, hi]: a bucket sort with one bucket per key
/// on average, finished by an insertion sort, in expected linear time (3x
/// faster than std::sort for the 100 columns of a typical row). Buckets too
/// full for that (clustered keys) fall back to std::sort.
void sortDistinct(int32_t *keys, int64_t n, int32_t lo, int32_t hi,
                  memory::Vector<int32_t> &scratch,
                  memory::Vector<int64_t> &buckets) {
  constexpr int64_t kSmall = 24, kMaxBucket = 32;
  if (n <= kSmall)
    return insertionSort(keys, n);
  // key -> bucket in [0, n), by a multiplication rather than a division.
  double scale = static_cast<double>(n) /
                 (static_cast<double>(hi) - static_cast<double>(lo) + 1.0);
  auto bucketOf = [&](int32_t key) {
    return std::min<int64_t>(
        n - 1, static_cast<int64_t>(static_cast<double>(key - lo) * scale));
  };
  buckets.assign(n + 1, 0);
  for (int64_t k = 0; k < n; ++k)
    ++buckets[bucketOf(keys[k]) + 1];
  int64_t largest = 0;
  for (int64_t b = 0; b < n; ++b) {
    largest = std::max(largest, buckets[b + 1]);
    buckets[b + 1] += buckets[b];
  }
  if (largest > kMaxBucket)
    return std::sort(keys, keys + n);
  scratch.resize(n);
  for (int64_t k = 0; k < n; ++k)
    scratch[buckets[bucketOf(keys[k])]++] = keys[k];
  std::copy(scratch.begin(), scratch.end(), keys);
  insertionSort(keys, n);
}

/// Where a thread gathers the entries of one row of C: a dense accumulator
/// over B's columns, each slot stamped with the row that last touched it
/// (the count needs the stamps only, 4 bytes a column; the fill keeps a
/// slot's value next to its stamp, so that a product touches one cache
/// line), or, for B too wide for that, a list of products.
class RowAccumulator {
public:
  RowAccumulator(int64_t cols, bool numeric, bool dense) : dense(dense) {
    if (dense && numeric)
      slots.assign(cols, Slot{0.0, 0});
    else if (dense)
      stamps.assign(cols, 0);
  }

  /// The number of distinct columns of row i of C.
  int64_t count(const CsrView &a, const CsrView &b, int64_t i) {
    if (a.end(i) - a.begin(i) == 1)
      return b.end(a.colidx[a.begin(i)]) - b.begin(a.colidx[a.begin(i)]);
    if (!dense) {
      gatherProducts(a, b, i, /*numeric=*/false);
      return static_cast<int64_t>(columns.size());
    }
    uint32_t stamp = nextStamp(stamps);
    uint32_t *stampOf = stamps.data();
    const int32_t *bColumns = b.colidx;
    int64_t n = 0;
    for (int64_t ka = a.begin(i); ka < a.end(i); ++ka) {
      int64_t l = a.colidx[ka];
      if (ka + 1 < a.end(i))
        __builtin_prefetch(bColumns + b.begin(a.colidx[ka + 1]));
      for (int64_t kb = b.begin(l), end = b.end(l); kb < end; ++kb) {
        int32_t j = bColumns[kb];
        n += stampOf[j] != stamp;
        stampOf[j] = stamp;
      }
    }
    return n;
  }

  /// Writes row i of C, sorted, to colidx / values, which have room for
  /// `expected` entries (what count gave); fails if it has another number.
  void fill(const CsrView &a, const CsrView &b, int64_t i, int64_t expected,
            int32_t *colidx, double *values) {
    if (a.end(i) - a.begin(i) == 1) {
      // B's row, scaled: already sorted.
      int64_t l = a.colidx[a.begin(i)];
      double scale = a.values[a.begin(i)];
      checkCount(i, b.end(l) - b.begin(l), expected);
      for (int64_t kb = b.begin(l), k = 0; kb < b.end(l); ++kb, ++k) {
        colidx[k] = b.colidx[kb];
        values[k] = scale * b.values[kb];
      }
      return;
    }
    if (!dense) {
      gatherProducts(a, b, i, /*numeric=*/true);
      checkCount(i, static_cast<int64_t>(columns.size()), expected);
      std::copy(columns.begin(), columns.end(), colidx);
      std::copy(sums.begin(), sums.end(), values);
      return;
    }
    // At most `expected` distinct columns: more is an error, found as the
    // list would overflow.
    columns.resize(std::max<int64_t>(expected, 1));
    int32_t *list = columns.data();
    int64_t n = 0;
    uint32_t stamp = nextStamp(slots);
    Slot *slotOf = slots.data();
    const int32_t *bColumns = b.colidx;
    const double *bValues = b.values;
    int32_t lo = std::numeric_limits<int32_t>::max(), hi = -1;
    for (int64_t ka = a.begin(i); ka < a.end(i); ++ka) {
      int64_t l = a.colidx[ka];
      double scale = a.values[ka];
      // The next row of B is a random access: start loading it now.
      if (ka + 1 < a.end(i)) {
        int64_t next = b.begin(a.colidx[ka + 1]);
        __builtin_prefetch(bColumns + next);
        __builtin_prefetch(bValues + next);
      }
      for (int64_t kb = b.begin(l), end = b.end(l); kb < end; ++kb) {
        int32_t j = bColumns[kb];
        Slot &slot = slotOf[j];
        double product = scale * bValues[kb];
        if (slot.stamp != stamp) {
          if (n == expected)
            checkCount(i, n + 1, expected);
          slot.stamp = stamp;
          slot.value = product;
          list[n++] = j;
          lo = std::min(lo, j);
          hi = std::max(hi, j);
        } else {
          slot.value += product;
        }
      }
    }
    checkCount(i, n, expected);
    if (n * 4 < int64_t(hi) - lo + 1) {
      sortDistinct(list, n, lo, hi, scratch, buckets);
    } else {
      // Dense enough in [lo, hi] that a scan of the stamps beats sorting.
      int64_t k = 0;
      for (int32_t j = lo; j <= hi; ++j)
        if (slotOf[j].stamp == stamp)
          list[k++] = j;
    }
    for (int64_t k = 0; k < n; ++k) {
      colidx[k] = list[k];
      values[k] = slotOf[list[k]].value;
    }
  }

private:
  struct Slot {
    double value;
    uint32_t stamp;
  };
  struct Product {
    int32_t column;
    double value;
  };

  /// A stamp no slot holds yet (all are cleared when the stamps wrap).
  template <typename Marks> uint32_t nextStamp(Marks &marks) {
    if (++currentStamp == 0) {
      for (auto &mark : marks)
        stampOf(mark) = 0;
      currentStamp = 1;
    }
    return currentStamp;
  }
  static uint32_t &stampOf(uint32_t &stamp) { return stamp; }
  static uint32_t &stampOf(Slot &slot) { return slot.stamp; }

  static void checkCount(int64_t i, int64_t count, int64_t expected) {
    if (count != expected)
      fail(std::string(kKernel) + ": row " + std::to_string(i) + " has " +
           std::to_string(count) + " entries, not the counted " +
           std::to_string(expected));
  }

  /// The columns of row i of C and (with `numeric`) their sums, sorted, from
  /// the list of its products.
  void gatherProducts(const CsrView &a, const CsrView &b, int64_t i,
                      bool numeric) {
    columns.clear();
    sums.clear();
    products.clear();
    for (int64_t ka = a.begin(i); ka < a.end(i); ++ka) {
      int64_t l = a.colidx[ka];
      for (int64_t kb = b.begin(l); kb < b.end(l); ++kb)
        products.push_back(
            {b.colidx[kb], numeric ? a.values[ka] * b.values[kb] : 0.0});
    }
    // Stable, so that each sum keeps the order of row i of A.
    std::stable_sort(
        products.begin(), products.end(),
        [](const Product &x, const Product &y) { return x.column < y.column; });
    for (const Product &p : products) {
      if (columns.empty() || columns.back() != p.column) {
        columns.push_back(p.column);
        sums.push_back(p.value);
      } else {
        sums.back() += p.value;
      }
    }
  }

  bool dense;
  uint32_t currentStamp = 0;
  memory::Vector<uint32_t> stamps;
  memory::Vector<Slot> slots;
  memory::Vector<int32_t> columns;
  memory::Vector<double> sums;
  memory::Vector<Product> products;
  memory::Vector<int32_t> scratch;
  memory::Vector<int64_t> buckets;
};

/// Runs body(accumulator, i) over the rows of A on the kernel's threads.
template <typename Body>
void forEachRow(const CsrView &a, const CsrView &b, bool numeric, Body &&body) {
  // About the products formed, per row of A: its entries times B's mean.
  double meanRowOfB =
      b.rows ? static_cast<double>(b.nnz()) / static_cast<double>(b.rows) : 0;
  auto work =
      static_cast<int64_t>(static_cast<double>(a.nnz()) * meanRowOfB) + a.rows;
  int64_t threads = std::min(threadsFor(work, kMinWorkPerThread),
                             std::max<int64_t>(a.rows, 1));
  int64_t chunk = std::max<int64_t>(16, a.rows / (threads * 64));
  // A dense accumulator costs its columns to set up, in every thread.
  bool dense = b.cols <= kMaxDenseAccumulator && b.cols * threads <= 4 * work;
  // Each thread sets up its own, in parallel and in its own cache.
  std::vector<std::optional<RowAccumulator>> accumulators(threads);
  runChunks(threads, a.rows, chunk, [&](int64_t t, int64_t begin, int64_t end) {
    if (!accumulators[t])
      accumulators[t].emplace(b.cols, numeric, dense);
    for (int64_t i = begin; i < end; ++i)
      body(*accumulators[t], i);
  });
}

void checkShapes(const CsrView &a, const CsrView &b,
                 const AmlsVectorI64 *outRowptr) {
  check(a.cols == b.rows, kKernel, [&] {
    return "a " + shape(a.rows, a.cols) + " CSR times a " +
           shape(b.rows, b.cols) + " CSR";
  });
  check(outRowptr->sizes[0] == a.rows + 1, kKernel, [&] {
    return "row offsets of " + std::to_string(outRowptr->sizes[0]) +
           " entries for " + std::to_string(a.rows) + " rows";
  });
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_spgemm_count(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  CsrView b = csrOf(b_rowptr, b_colidx, b_values, b_cols);
  checkShapes(a, b, out_rowptr);
  int64_t *offsets = out_rowptr->aligned + out_rowptr->offset;
  forEachRow(a, b, /*numeric=*/false, [&](RowAccumulator &row, int64_t i) {
    offsets[i + 1] = row.count(a, b, i);
  });
  offsets[0] = 0;
  for (int64_t i = 0; i < a.rows; ++i)
    offsets[i + 1] += offsets[i];
  return offsets[a.rows];
}

extern "C" void _mlir_ciface_amls_rt_csr_spgemm_fill(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr,
    AmlsVectorI32 *out_colidx, AmlsVectorF64 *out_values) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  CsrView b = csrOf(b_rowptr, b_colidx, b_values, b_cols);
  checkShapes(a, b, out_rowptr);
  CsrOut out = csrOutOf(out_rowptr, out_colidx, out_values);
  check(out_colidx->sizes[0] >= out.rowptr[a.rows] &&
            out_values->sizes[0] >= out.rowptr[a.rows],
        kKernel,
        [&] { return "result buffers smaller than the counted entries"; });
  forEachRow(a, b, /*numeric=*/true, [&](RowAccumulator &row, int64_t i) {
    int64_t start = out.rowptr[i];
    row.fill(a, b, i, out.rowptr[i + 1] - start, out.colidx + start,
             out.values + start);
  });
}
