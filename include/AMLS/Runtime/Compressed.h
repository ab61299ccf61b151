//===- Compressed.h - Compressed linear algebra (CLA) -----------*- C++ -*-===//
//
// A compressed matrix (Elgohary et al., "Compressed Linear Algebra for
// Large-Scale Machine Learning", VLDB 2016) partitions its columns into
// groups and stores each group on its own:
//
//   DDC   dense dictionary coding: the group's distinct tuples and one code
//         (1 or 2 bytes) per row;
//   OLE   offset lists: per distinct non-default tuple, the rows holding it;
//   RLE   run lengths: per distinct non-default tuple, its runs of rows;
//   UNC   the columns' cells as they are (they do not compress).
//
// OLE and RLE rows that no list names hold the group's default tuple (zero
// after compression, anything after a scalar operation rewrote the
// dictionary). The kernels compute on this form: a product with a vector or
// a narrow matrix multiplies each dictionary tuple once and adds the result
// per code, t(X) %*% W pre-aggregates W's rows per tuple first, and a
// scalar operation rewrites only the dictionaries.
//
// Planning (planCompression) looks at a sample of rows: each column's
// distinct values (the GEE estimator), the non-default rows and runs, the
// size of every encoding, and merges groups greedily while the estimated
// size does not grow (co-coding). compress() then encodes the whole matrix
// along the plan's groups, choosing each group's encoding from its exact
// statistics.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_COMPRESSED_H
#define AMLS_RUNTIME_COMPRESSED_H

#include "AMLS/Runtime/Memory.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace amls::runtime::compressed {

/// How a column group stores its columns.
enum class Encoding : uint8_t { DDC, OLE, RLE, Uncompressed };

/// The name --formats-explain prints ("DDC", "OLE", "RLE", "UNC").
const char *getEncodingName(Encoding encoding);

/// The matrix a compression reads: dense row-major f64 (`data`, leading
/// dimension `ld`) or CSR (`rowOffsets`, `columnIndices`, `values`, with
/// ascending columns in each row).
struct Source {
  int64_t rows = 0;
  int64_t cols = 0;
  const double *data = nullptr;
  int64_t ld = 0;
  const int64_t *rowOffsets = nullptr;
  const int32_t *columnIndices = nullptr;
  const double *values = nullptr;

  static Source dense(int64_t rows, int64_t cols, const double *data,
                      int64_t ld);
  static Source csr(int64_t rows, int64_t cols, const int64_t *rowOffsets,
                    const int32_t *columnIndices, const double *values);
  bool isCSR() const { return rowOffsets != nullptr; }
  /// The bytes the source takes (8 per cell dense, 12 per non-zero plus the
  /// row offsets CSR).
  uint64_t getSizeInBytes() const;
};

/// One group of columns: what the planner estimated, and what the encoder
/// produced.
struct GroupPlan {
  /// Ascending column indices.
  std::vector<int32_t> columns;
  Encoding encoding = Encoding::Uncompressed;
  /// Estimated (planned) or exact (compressed) distinct tuples, the default
  /// tuple included.
  int64_t distinct = 0;
  uint64_t bytes = 0;
};

/// Planner settings. The defaults are what a session uses.
struct CompressionSettings {
  /// Rows sampled for the estimates (all rows of a smaller matrix).
  int64_t sampleRows = 16384;
  /// Compress only when the estimated size is at least this many times
  /// smaller than the source.
  double minRatio = 2.0;
  /// Co-coding considers merging a group with the next `coCodeWindow`
  /// groups (in column order) once there are more than `allPairsLimit`
  /// groups, and every pair below.
  int64_t coCodeWindow = 16;
  int64_t allPairsLimit = 128;
  /// Seed of the row sample.
  uint64_t seed = 7;
};

/// The planner's decision.
struct CompressionPlan {
  std::vector<GroupPlan> groups;
  uint64_t sourceBytes = 0;
  uint64_t estimatedBytes = 0;
  /// estimatedBytes * minRatio <= sourceBytes.
  bool compress = false;
  /// The decision, one line, then a line per group (--formats-explain).
  std::string describe() const;
};

/// Plans the compression of `source` from a sample of its rows.
CompressionPlan planCompression(const Source &source,
                                const CompressionSettings &settings = {});

/// A quick look (1,024 rows, a few microseconds) at whether a dense source
/// might compress 2x: at least half its columns hold at most 64 distinct
/// values in those rows. The session asks it of each large dense argument
/// to decide which ones --formats=auto lets --amls-select-compression
/// consider; the plan then decides from a larger sample.
bool looksCompressible(const Source &source);

class ColumnGroup;

/// A compressed matrix: immutable, shared by the values that hold it.
class CompressedMatrix {
public:
  CompressedMatrix(int64_t rows, int64_t cols,
                   std::vector<std::unique_ptr<ColumnGroup>> groups);
  ~CompressedMatrix();
  CompressedMatrix(const CompressedMatrix &) = delete;
  CompressedMatrix &operator=(const CompressedMatrix &) = delete;

  int64_t getRows() const { return rows; }
  int64_t getCols() const { return cols; }
  const std::vector<std::unique_ptr<ColumnGroup>> &getGroups() const {
    return groups;
  }
  uint64_t getSizeInBytes() const;
  /// The groups as the encoder made them (exact distinct counts and bytes).
  std::vector<GroupPlan> describeGroups() const;

  /// out (rows x k, row-major, leading dimension ldOut) = this %*% w
  /// (cols x k, row-major, leading dimension ldw).
  void multiplyRight(const double *w, int64_t ldw, int64_t k, double *out,
                     int64_t ldOut) const;
  /// out (cols x k) = t(this) %*% w (rows x k).
  void multiplyLeftTransposed(const double *w, int64_t ldw, int64_t k,
                              double *out, int64_t ldOut) const;
  /// out (cols x 1) = t(this) %*% (w * (this %*% v)) (w, rows x 1 with
  /// stride ldw, may be null), reading the codes once per row block.
  void multiplyChain(const double *v, int64_t ldv, const double *w, int64_t ldw,
                     double *out) const;
  /// out (cols x cols) = t(this) %*% this.
  void multiplyTransposedSelf(double *out, int64_t ldOut) const;
  /// out (rows x 1) = rowSums(this); out (1 x cols) = colSums(this).
  void rowSums(double *out) const;
  void colSums(double *out) const;
  double sum() const;
  /// The values every cell is one of, group by group: the dictionaries, the
  /// default tuples of OLE and RLE groups and the cells of uncompressed
  /// ones. A scalar operation on every cell (X * 2, X == 3, exp(X)) is the
  /// same operation on these; compiled code applies it to a copy and
  /// builds the result with withValues.
  int64_t getNumValues() const;
  void copyValues(double *values) const;
  /// The matrix with `values` (getNumValues() of them, in copyValues'
  /// order) instead of its own, sharing the codes and lists.
  std::shared_ptr<const CompressedMatrix>
  withValues(const double *values) const;
  /// fn applied to every cell, through the values above.
  std::shared_ptr<const CompressedMatrix>
  map(const std::function<double(double)> &fn) const;
  /// The cells, row-major with leading dimension ld.
  void decompress(double *out, int64_t ld) const;

private:
  int64_t rows;
  int64_t cols;
  std::vector<std::unique_ptr<ColumnGroup>> groups;
};

/// What compiled code did with compressed matrices, for --stats: the
/// matrices it compressed, and the ones an op without a compressed kernel
/// decompressed (with the bytes of the dense copies).
struct Statistics {
  uint64_t compressions = 0;
  uint64_t decompressions = 0;
  uint64_t decompressedBytes = 0;
};
Statistics getStatistics();

/// Encodes `source` along `plan`'s groups (each group's encoding chosen
/// from its exact statistics; a group with more than 65,535 distinct tuples
/// stays uncompressed). On the runtime's threads.
std::shared_ptr<const CompressedMatrix> compress(const Source &source,
                                                 const CompressionPlan &plan);

} // namespace amls::runtime::compressed

#endif // AMLS_RUNTIME_COMPRESSED_H
