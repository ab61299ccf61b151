//===- MatrixIO.h - Reading, writing and printing matrices ------*- C++ -*-===//
//
// The C++ side of the runtime's I/O, used by the C ABI in Runtime.h and by
// the tools (amls-run binds input files with it). Errors are returned as a
// message "path:line: problem" (empty on success), never thrown.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_MATRIXIO_H
#define AMLS_RUNTIME_MATRIXIO_H

#include "AMLS/Runtime/ABI.h"
#include "AMLS/Runtime/Memory.h"

#include <cstdint>
#include <cstdio>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace amls::runtime {

/// The file formats of ABI.h (AMLS_FILE_CSV, ...).
using FileFormat = AmlsFileFormat;

/// The first 8 bytes of a binary matrix file (AMLS_FILE_BINARY).
inline constexpr char kBinaryMatrixMagic[8] = {'A', 'M', 'L', 'S',
                                               'M', 'A', 'T', '1'};

/// Reads a binary matrix file's magic and sizes from `in` (the file
/// `path`, named in messages), which is left at the first cell.
std::string readBinaryHeader(const std::string &path, std::istream &in,
                             int64_t &rows, int64_t &cols);

/// `.mtx` and `.mm` are Matrix Market, `.bin` binary, anything else CSV.
FileFormat formatForPath(std::string_view path);

/// A dense row-major matrix (its cells come from the pool: a matrix read
/// from a file counts against the memory budget).
struct Matrix {
  int64_t rows = 0, cols = 0;
  memory::Vector<double> data;

  double &at(int64_t r, int64_t c) { return data[r * cols + c]; }
  double at(int64_t r, int64_t c) const { return data[r * cols + c]; }
};

/// A strided view of matrix cells (a memref descriptor's data).
struct MatrixView {
  const double *data;
  int64_t rows, cols;
  int64_t rowStride, colStride;

  double at(int64_t r, int64_t c) const {
    return data[r * rowStride + c * colStride];
  }
  static MatrixView of(const Matrix &m) {
    return {m.data.data(), m.rows, m.cols, m.cols, 1};
  }
};

/// A CSR matrix: for each row, its stored entries' columns (ascending, in
/// `colidx`) and values, from rowptr[r] to rowptr[r + 1].
struct CsrMatrix {
  int64_t rows = 0, cols = 0;
  memory::Vector<int64_t> rowptr{0};
  memory::Vector<int32_t> colidx;
  memory::Vector<double> values;

  int64_t nonZeros() const { return rowptr.back(); }
};

/// CSR buffers (a compiled program's descriptors, or a CsrMatrix).
struct CsrMatrixView {
  const int64_t *rowptr;
  const int32_t *colidx;
  const double *values;
  int64_t rows, cols;

  static CsrMatrixView of(const CsrMatrix &m) {
    return {m.rowptr.data(), m.colidx.data(), m.values.data(), m.rows, m.cols};
  }
  /// The buffers a compiled program passes (Runtime.h's AMLS_CSR_PARAMS).
  static CsrMatrixView of(const AmlsVectorI64 *rowptr,
                          const AmlsVectorI32 *colidx,
                          const AmlsVectorF64 *values, int64_t cols) {
    return {rowptr->aligned + rowptr->offset, colidx->aligned + colidx->offset,
            values->aligned + values->offset,
            rowptr->sizes[0] > 0 ? rowptr->sizes[0] - 1 : 0, cols};
  }
};

/// The sizes a read states for a file that does not state them itself (a
/// text-cell file without a .mtd file: DML's read(..., rows=, cols=)); -1
/// where not stated.
struct StatedShape {
  int64_t rows = -1, cols = -1;
};

/// Reads a CSV file (comma-separated numbers, one row per line; a first
/// line that is not all numbers is a header and skipped; an empty field is
/// 0), a Matrix Market file (coordinate or array; real, integer or
/// pattern; general, symmetric or skew-symmetric) or a text-cell file
/// ("i j v" lines, 1-based, in any order; its sizes from its .mtd file or
/// `stated`).
std::string readMatrix(const std::string &path, FileFormat format,
                       Matrix &result, StatedShape stated = {});

/// Writable strided matrix cells (a compiled program's buffer).
struct MatrixSpan {
  double *data;
  int64_t rows, cols;
  int64_t rowStride, colStride;
};

/// Reads a file as readMatrix does, straight into `dest`, whose sizes the
/// caller took from the file's metadata (FileMetadata.h): no second copy
/// of the cells is made. A file whose sizes differ from `dest`'s (it
/// changed since) is an error, reported before anything past `dest` is
/// written.
std::string readMatrixInto(const std::string &path, FileFormat format,
                           const MatrixSpan &dest);

/// Reads a file as readMatrix does, straight into CSR: the same cells (the
/// zeros not stored), the same messages. A matrix of more than 2^31 - 1
/// columns is an error.
std::string readCsrMatrix(const std::string &path, FileFormat format,
                          CsrMatrix &result, StatedShape stated = {});

enum class MatrixMarketLayout { Coordinate, Array };

/// The banner and size line of a Matrix Market file (lower-case names).
struct MatrixMarketHeader {
  bool coordinate = true;
  std::string field = "real";       // real, integer, pattern, double
  std::string symmetry = "general"; // general, symmetric, skew-symmetric
  int64_t rows = 0, cols = 0;
  /// Entries listed: coordinate entries, or rows * cols for arrays.
  int64_t entries = 0;
};

/// Reads the banner and the size line from `in` (the file `path`, named in
/// messages); `lineNo` is left at the size line. The one parser of Matrix
/// Market headers: the reader and the compile-time metadata use it.
std::string parseMatrixMarketHeader(std::istream &in, const std::string &path,
                                    MatrixMarketHeader &header,
                                    int64_t &lineNo);

/// Writes with full (round-trip) precision. Matrix Market uses `layout`.
std::string
writeMatrix(const std::string &path, FileFormat format,
            const MatrixView &matrix,
            MatrixMarketLayout layout = MatrixMarketLayout::Coordinate);

/// Writes a CSR matrix: the same bytes as writeMatrix of its dense form.
std::string
writeMatrix(const std::string &path, FileFormat format,
            const CsrMatrixView &matrix,
            MatrixMarketLayout layout = MatrixMarketLayout::Coordinate);

/// One of the parts of a file that processes write in turn (a distributed
/// write, rank after rank): a block of rows from `firstRow` of a matrix of
/// `wholeRows` rows and `wholeNonZeros` non-zeros. The `first` part creates
/// the file and writes the header; the others append. The parts together
/// are the bytes writeMatrix writes for the whole matrix (Matrix Market's
/// coordinate layout; its array layout lists columns, which cross the
/// parts, and is refused).
struct FilePart {
  int64_t firstRow = 0;
  int64_t wholeRows = 0;
  int64_t wholeNonZeros = 0;
  bool first = true;
};
std::string writeMatrixPart(const std::string &path, FileFormat format,
                            const MatrixView &block, const FilePart &part);
std::string writeMatrixPart(const std::string &path, FileFormat format,
                            const CsrMatrixView &block, const FilePart &part);

/// DML's toString(X): three decimals, cells separated by a space, one row
/// per line, at most 100 rows and columns.
std::string formatMatrix(const MatrixView &matrix);
/// The same text for a CSR matrix (only the cells shown are densified).
std::string formatMatrix(const CsrMatrixView &matrix);

/// DML's print of a double: "3.5", "2.0", "1.0E-4", "NaN", "Infinity".
std::string formatScalar(double value);

} // namespace amls::runtime

#endif // AMLS_RUNTIME_MATRIXIO_H
