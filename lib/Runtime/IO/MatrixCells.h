//===- MatrixCells.h - How parsers and writers meet matrices ----*- C++ -*-===//
//
// The file formats are parsed (MatrixIO.cpp, CsvReader.cpp) and written
// (MatrixWriter.cpp) once, for dense and CSR matrices alike: a parser hands
// what it reads to a CellSink, which builds a dense Matrix or a CsrMatrix
// (SparseIO.cpp); the writer asks a CellSource for rows or their non-zeros.
// Both readers thus see a file the same way, cell for cell and error for
// error, and both writers emit the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_IO_MATRIXCELLS_H
#define AMLS_LIB_RUNTIME_IO_MATRIXCELLS_H

#include "AMLS/Runtime/MatrixIO.h"

#include <cstdint>
#include <string>

namespace amls::runtime {

/// Receives the cells of a matrix file, in the order the format lists them.
/// Methods returning a string return a problem (without the path), or ""
/// to go on.
class CellSink {
public:
  virtual ~CellSink() = default;
  /// The sizes stated by a header (Matrix Market, binary), before any cell.
  /// With `reassigns`, a cell may be assigned more than once, the last
  /// value winning (Matrix Market coordinate entries).
  virtual std::string setShape(int64_t rows, int64_t cols, bool reassigns) = 0;
  /// Row-major formats (CSV, binary): room for the next `count` rows of
  /// `cols` cells, which the parser fills before its next call.
  virtual double *appendRows(int64_t count, int64_t cols) = 0;
  /// Listed formats (Matrix Market): cell (r, c), 0-based, is `value`.
  virtual void assign(int64_t r, int64_t c, double value) = 0;
  /// After the last cell: the sizes (a CSV file's rows are known only now).
  virtual std::string finish(int64_t rows, int64_t cols) = 0;
};

/// Parses the file `path` into `sink`: "" on success, else a message as
/// readMatrix returns it. `stated`: the sizes of a text-cell file without a
/// .mtd file.
std::string parseMatrixFile(const std::string &path, FileFormat format,
                            CellSink &sink, StatedShape stated = {});

/// Parses the CSV file `path` into `sink` with the runtime's threads
/// (CsvReader.cpp).
std::string parseCSVFile(const std::string &path, CellSink &sink);

/// The cells of a matrix to be written. The writer calls its methods from
/// several threads at once.
class CellSource {
public:
  CellSource(int64_t rows, int64_t cols) : rows(rows), cols(cols) {}
  virtual ~CellSource() = default;
  /// Row r into `cells` (`cols` values).
  virtual void row(int64_t r, double *cells) const = 0;
  /// The cells of row r that are != 0, in column order, into `columns` and
  /// `values` (room for `cols` each); returns their number.
  virtual int64_t nonZeros(int64_t r, int64_t *columns,
                           double *values) const = 0;
  /// One cell (Matrix Market's column-major array layout).
  virtual double at(int64_t r, int64_t c) const = 0;

  const int64_t rows, cols;
};

/// Writes `cells` to `path` as writeMatrix does, or as the `part` of the
/// file they are (writeMatrixPart).
std::string writeCells(const std::string &path, FileFormat format,
                       const CellSource &cells, MatrixMarketLayout layout,
                       const FilePart *part = nullptr);

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_IO_MATRIXCELLS_H
