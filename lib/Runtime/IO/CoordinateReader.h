//===- CoordinateReader.h - Coordinate files read in parallel --*- C++ -*-===//
//
// The parallel route of the CSR reader (CoordinateReader.cpp); SparseIO.cpp
// falls back to the sequential parser where it declines.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_IO_COORDINATEREADER_H
#define AMLS_LIB_RUNTIME_IO_COORDINATEREADER_H

#include "AMLS/Runtime/MatrixIO.h"

#include <cstdint>
#include <limits>
#include <string>

namespace amls::runtime {

/// Why a matrix of `cols` columns cannot be CSR (int32 column indices), or
/// "".
inline std::string csrColumnLimit(int64_t cols) {
  if (cols <= std::numeric_limits<int32_t>::max())
    return "";
  return "a matrix of " + std::to_string(cols) +
         " columns is too wide for CSR (at most 2147483647 columns)";
}

/// Reads the coordinate Matrix Market file `path` into `result` with all
/// threads, as the sequential reader would. False, with `result` untouched,
/// wherever the file is not that simple (an array file, a line the fast
/// parser does not take, an entry outside the matrix, a wrong entry count):
/// the sequential reader then reads it and reports the errors.
bool readCoordinateInParallel(const std::string &path, CsrMatrix &result);

/// The same for the text-cell file `path` of `rows` x `cols` (the sizes of
/// its .mtd file or of the read): every line an entry.
bool readTextCellsInParallel(const std::string &path, int64_t rows,
                             int64_t cols, CsrMatrix &result);

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_IO_COORDINATEREADER_H
