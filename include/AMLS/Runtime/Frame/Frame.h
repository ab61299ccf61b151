//===- Frame.h - The runtime's frames: typed, named columns -----*- C++ -*-===//
//
// A frame is a column store, as SystemDS's FrameBlock: each column holds
// its cells in one array of its type (doubles for the numeric and boolean
// types, one byte arena with offsets for strings), so a cell costs no
// allocation of its own, plus a byte per cell saying whether it is missing.
// Frames are immutable once built; compiled code holds them by handle.
//
// A column also carries what a metadata frame of transformencode says of
// it beyond its cells, as SystemDS's ColumnMetadata: the number of distinct
// codes (dummy coding's width) and the value a missing cell is imputed as.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FRAME_FRAME_H
#define AMLS_RUNTIME_FRAME_FRAME_H

#include "AMLS/Runtime/ABI.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace amls::runtime::frame {

/// SystemDS's name of a value type, as toString prints it (STRING, FP64, ...).
const char *getValueTypeName(AmlsFrameValueType type);
bool isNumeric(AmlsFrameValueType type);

class Column {
public:
  Column(std::string name, AmlsFrameValueType type)
      : name(std::move(name)), type(type) {}

  const std::string &getName() const { return name; }
  AmlsFrameValueType getType() const { return type; }
  int64_t size() const { return static_cast<int64_t>(missing.size()); }

  bool isMissing(int64_t row) const { return missing[row]; }
  /// The cell of a string column.
  std::string_view getString(int64_t row) const {
    return std::string_view(arena).substr(offsets[row],
                                          offsets[row + 1] - offsets[row]);
  }
  /// The cell of a numeric or boolean column (NaN where missing).
  double getNumber(int64_t row) const { return numbers[row]; }
  /// The cell as SystemDS prints and writes it ("" where missing).
  std::string format(int64_t row) const;

  void appendString(std::string_view text);
  /// Appends cell `row` of `other`, converted to this column's type (a
  /// string cell that does not parse becomes missing: callers check first).
  void appendFrom(const Column &other, int64_t row);
  /// Appends all of `other`, a column of the same type.
  void appendColumn(const Column &other);
  void appendNumber(double value);
  void appendMissing();
  void reserve(int64_t rows);

  /// Transform metadata (see the file comment); -1 and "" where unset.
  int64_t numDistinct = -1;
  std::string imputedValue;

private:
  std::string name;
  AmlsFrameValueType type;
  std::vector<uint8_t> missing;
  std::vector<double> numbers;
  std::string arena;
  std::vector<uint64_t> offsets{0};
};

class Frame {
public:
  int64_t getRows() const { return rows; }
  int64_t getCols() const { return static_cast<int64_t>(columns.size()); }
  const Column &column(int64_t col) const { return columns[col]; }
  Column &column(int64_t col) { return columns[col]; }
  /// The column named `name`, or -1.
  int64_t findColumn(std::string_view name) const;

  Column &addColumn(std::string name, AmlsFrameValueType type) {
    return columns.emplace_back(std::move(name), type);
  }
  /// Sets the row count once every column holds that many cells.
  void setRows(int64_t count) { rows = count; }

  /// As SystemDS's toString(F): a header of sizes, names and schema, then
  /// the first `maxRows` rows of the first `maxCols` columns.
  std::string toString(int64_t maxRows, int64_t maxCols) const;

  /// Rows [rowBegin, rowEnd) of columns [colBegin, colEnd) (in range).
  std::unique_ptr<Frame> slice(int64_t rowBegin, int64_t rowEnd,
                               int64_t colBegin, int64_t colEnd) const;

private:
  int64_t rows = 0;
  std::vector<Column> columns;
};

/// as.frame(X): FP64 columns C1, C2, ... of a row-major matrix with row
/// stride `stride`.
std::unique_ptr<Frame> frameFromMatrix(const double *cells, int64_t rows,
                                       int64_t cols, int64_t stride);

/// cbind(A, B) (the same rows) and rbind(A, B) (the same columns; a column
/// whose types differ becomes a string column): "" or the problem.
std::string cbindFrames(const Frame &a, const Frame &b,
                        std::unique_ptr<Frame> &result);
std::string rbindFrames(const Frame &a, const Frame &b,
                        std::unique_ptr<Frame> &result);

/// detectSchema(F): a 1 x C frame of the narrowest type every cell of each
/// column parses as (INT64, FP64, BOOLEAN, else STRING; a column of missing
/// cells is STRING).
std::unique_ptr<Frame> detectSchema(const Frame &frame);

/// applySchema(F, S): the columns converted to the types S (1 x C, type
/// names) gives: "" or the problem (a name that is no type, a cell that
/// does not parse).
std::string applySchema(const Frame &frame, const Frame &schema,
                        std::unique_ptr<Frame> &result);

/// The type SystemDS names `name` (STRING, FP64, INT64, ...; any case).
bool parseValueTypeName(std::string_view name, AmlsFrameValueType &type);

/// The default name of column `col` (0-based), as SystemDS names them: C1,
/// C2, ...
std::string defaultColumnName(int64_t col);

/// Parses all of `text` (already trimmed) as a number: std::from_chars,
/// and strtod for the syntax only it accepts (a leading '+', hex floats).
bool parseDouble(std::string_view text, double &value);

/// Parses a cell under a numeric or boolean type: "true"/"false" (any case)
/// for booleans, else a number; false when it is neither.
bool parseCell(std::string_view text, AmlsFrameValueType type, double &value);

} // namespace amls::runtime::frame

#endif // AMLS_RUNTIME_FRAME_FRAME_H
