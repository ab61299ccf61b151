//===- ColumnGroups.h - The column groups of a compressed matrix -*- C++ -*-=//
//
// A column group answers the few questions the matrix-level kernels ask it
// for a range of rows: add each row's share of a right product (from values
// prepared once per tuple), pre-aggregate a left operand's rows per tuple,
// and write its cells. Everything else (threads, row blocks, reductions)
// lives in Kernels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_COMPRESSED_COLUMNGROUPS_H
#define AMLS_LIB_RUNTIME_COMPRESSED_COLUMNGROUPS_H

#include "AMLS/Runtime/Compressed.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace amls::runtime::compressed {

class ColumnGroup {
public:
  virtual ~ColumnGroup();

  Encoding getEncoding() const { return encoding; }
  const std::vector<int32_t> &getColumns() const { return columns; }
  int64_t getNumColumns() const {
    return static_cast<int64_t>(columns.size());
  }
  /// Distinct tuples, the default tuple of OLE and RLE included (0 for an
  /// uncompressed group).
  virtual int64_t getNumDistinct() const = 0;
  virtual uint64_t getSizeInBytes() const = 0;

  /// The doubles prepareRight writes for a right operand with k columns.
  virtual int64_t getPreparedSize(int64_t k) const = 0;
  /// Writes what addRight adds per row for w (matrix cols x k).
  virtual void prepareRight(const double *w, int64_t ldw, int64_t k,
                            double *prepared) const = 0;
  /// out[r - r0][j] += (row r of the group) . w[:, j] for r in [r0, r1).
  virtual void addRight(const double *prepared, int64_t k, int64_t r0,
                        int64_t r1, double *out, int64_t ldOut) const = 0;

  /// The doubles addLeft accumulates into for a left operand with k
  /// columns.
  virtual int64_t getAggregateSize(int64_t k) const = 0;
  /// Accumulates w's rows r0..r1 (w's row r at w + r * ldw) into aggregate.
  virtual void addLeft(const double *w, int64_t ldw, int64_t k, int64_t r0,
                       int64_t r1, double *aggregate) const = 0;
  /// out[c][j] += the group's share of t(X) %*% w for its columns c, from
  /// the summed aggregates and w's column sums.
  virtual void finishLeft(const double *aggregate, int64_t k,
                          const double *wColumnSums, double *out,
                          int64_t ldOut) const = 0;

  /// rows[r - r0][c] = cell (r, c) for the group's columns c (other columns
  /// are left alone).
  virtual void decompress(int64_t r0, int64_t r1, double *rows,
                          int64_t ld) const = 0;
  /// sums[c] += colSums for the group's columns.
  virtual void addColumnSums(double *sums) const = 0;
  /// The values the group's cells are made of: the dictionary, the default
  /// tuple of OLE and RLE, the cells of an uncompressed group. A scalar
  /// operation on every cell is the same operation on these.
  virtual int64_t getNumValues() const = 0;
  virtual void copyValues(double *values) const = 0;
  /// The group with `values` (getNumValues() of them, in copyValues' order)
  /// instead of its own, sharing its codes or lists.
  virtual std::unique_ptr<ColumnGroup>
  withValues(const double *values) const = 0;

protected:
  ColumnGroup(Encoding encoding, std::vector<int32_t> columns)
      : encoding(encoding), columns(std::move(columns)) {}

  Encoding encoding;
  std::vector<int32_t> columns;
};

/// Distinct tuples, row-major: tuple t's value in the group's i-th column
/// is values[t * numColumns + i].
using Dictionary = memory::Vector<double>;

/// DDC: one code per row into the dictionary (entry 0 is the zero tuple as
/// compressed). CodeT is uint8_t up to 256 tuples, uint16_t up to 65,536.
template <typename CodeT> class DDCGroup final : public ColumnGroup {
public:
  using Codes = memory::Vector<CodeT>;
  DDCGroup(std::vector<int32_t> columns, Dictionary dictionary,
           std::shared_ptr<const Codes> codes, std::vector<int64_t> counts);

  int64_t getNumDistinct() const override;
  uint64_t getSizeInBytes() const override;
  int64_t getPreparedSize(int64_t k) const override;
  void prepareRight(const double *w, int64_t ldw, int64_t k,
                    double *prepared) const override;
  void addRight(const double *prepared, int64_t k, int64_t r0, int64_t r1,
                double *out, int64_t ldOut) const override;
  int64_t getAggregateSize(int64_t k) const override;
  void addLeft(const double *w, int64_t ldw, int64_t k, int64_t r0,
               int64_t r1, double *aggregate) const override;
  void finishLeft(const double *aggregate, int64_t k,
                  const double *wColumnSums, double *out,
                  int64_t ldOut) const override;
  void decompress(int64_t r0, int64_t r1, double *rows,
                  int64_t ld) const override;
  void addColumnSums(double *sums) const override;
  int64_t getNumValues() const override;
  void copyValues(double *values) const override;
  std::unique_ptr<ColumnGroup> withValues(const double *values) const override;

private:
  Dictionary dictionary;
  /// Shared with the groups map() makes from this one.
  std::shared_ptr<const Codes> codes;
  /// Rows per tuple.
  std::vector<int64_t> counts;
};

/// OLE and RLE: per non-default tuple the rows that hold it, as ascending
/// row offsets (OLE) or as (start, length) runs (RLE); every other row
/// holds the default tuple.
class ListGroup final : public ColumnGroup {
public:
  /// `rows[t]` lists tuple t's rows for OLE and its runs as start, length
  /// pairs for RLE; `defaultTuple` has one value per column.
  using RowLists = std::vector<memory::Vector<uint32_t>>;
  ListGroup(Encoding encoding, std::vector<int32_t> columns,
            Dictionary dictionary, std::vector<double> defaultTuple,
            std::shared_ptr<const RowLists> rows, int64_t numRows);

  int64_t getNumDistinct() const override;
  uint64_t getSizeInBytes() const override;
  int64_t getPreparedSize(int64_t k) const override;
  void prepareRight(const double *w, int64_t ldw, int64_t k,
                    double *prepared) const override;
  void addRight(const double *prepared, int64_t k, int64_t r0, int64_t r1,
                double *out, int64_t ldOut) const override;
  int64_t getAggregateSize(int64_t k) const override;
  void addLeft(const double *w, int64_t ldw, int64_t k, int64_t r0,
               int64_t r1, double *aggregate) const override;
  void finishLeft(const double *aggregate, int64_t k,
                  const double *wColumnSums, double *out,
                  int64_t ldOut) const override;
  void decompress(int64_t r0, int64_t r1, double *rows,
                  int64_t ld) const override;
  void addColumnSums(double *sums) const override;
  int64_t getNumValues() const override;
  void copyValues(double *values) const override;
  std::unique_ptr<ColumnGroup> withValues(const double *values) const override;

private:
  bool isRunLength() const { return encoding == Encoding::RLE; }
  /// Calls fn(row begin, row end) for each stretch of rows in [r0, r1) that
  /// holds tuple t.
  template <typename Fn>
  void forEachStretch(int64_t t, int64_t r0, int64_t r1, Fn &&fn) const;
  int64_t getNumTuples() const {
    return static_cast<int64_t>(rows->size());
  }

  Dictionary dictionary;
  std::vector<double> defaultTuple;
  /// Shared with the groups map() makes from this one.
  std::shared_ptr<const RowLists> rows;
  /// Rows per listed tuple.
  std::vector<int64_t> counts;
  int64_t numRows;
};

/// Columns that do not compress: their cells, row-major (rows x columns).
class UncompressedGroup final : public ColumnGroup {
public:
  UncompressedGroup(std::vector<int32_t> columns, memory::Vector<double> cells,
                    int64_t numRows);

  int64_t getNumDistinct() const override { return 0; }
  uint64_t getSizeInBytes() const override;
  int64_t getPreparedSize(int64_t k) const override;
  void prepareRight(const double *w, int64_t ldw, int64_t k,
                    double *prepared) const override;
  void addRight(const double *prepared, int64_t k, int64_t r0, int64_t r1,
                double *out, int64_t ldOut) const override;
  int64_t getAggregateSize(int64_t k) const override;
  void addLeft(const double *w, int64_t ldw, int64_t k, int64_t r0,
               int64_t r1, double *aggregate) const override;
  void finishLeft(const double *aggregate, int64_t k,
                  const double *wColumnSums, double *out,
                  int64_t ldOut) const override;
  void decompress(int64_t r0, int64_t r1, double *rows,
                  int64_t ld) const override;
  void addColumnSums(double *sums) const override;
  int64_t getNumValues() const override;
  void copyValues(double *values) const override;
  std::unique_ptr<ColumnGroup> withValues(const double *values) const override;

private:
  memory::Vector<double> cells;
  int64_t numRows;
};

/// Size in bytes of each encoding for a group of `numColumns` columns with
/// `distinct` tuples (the default one included), `nonDefaultRows` rows not
/// holding the default tuple, `runs` runs of such rows, out of `rows`:
/// what the planner estimates with and the encoder chooses by.
uint64_t getDDCSize(int64_t rows, int64_t numColumns, int64_t distinct);
uint64_t getOLESize(int64_t numColumns, int64_t distinct,
                    int64_t nonDefaultRows);
uint64_t getRLESize(int64_t numColumns, int64_t distinct, int64_t runs);
uint64_t getUncompressedSize(int64_t rows, int64_t numColumns);
/// The part of an encoding's size that does not grow with the rows (the
/// dictionary and the lists' headers).
uint64_t getDictionarySize(Encoding encoding, int64_t numColumns,
                           int64_t distinct);
/// The smallest encoding and its size.
std::pair<Encoding, uint64_t> chooseEncoding(int64_t rows, int64_t numColumns,
                                             int64_t distinct,
                                             int64_t nonDefaultRows,
                                             int64_t runs);

/// At most this many distinct tuples in a compressed group.
constexpr int64_t kMaxDistinct = 65536;

} // namespace amls::runtime::compressed

#endif // AMLS_LIB_RUNTIME_COMPRESSED_COLUMNGROUPS_H
