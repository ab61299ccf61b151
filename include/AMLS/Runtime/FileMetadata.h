//===- FileMetadata.h - Sizes recorded in matrix files ----------*- C++ -*-===//
//
// What a matrix file says about itself before its cells are read: the
// header of a Matrix Market file, the line and field counts of a CSV file,
// the sizes of a binary file. Property inference uses it for reads of files
// that exist at compile time (the seeds' "metadata" sizes); it parses the
// files with the runtime's own readers' rules, so both see the same sizes.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FILEMETADATA_H
#define AMLS_RUNTIME_FILEMETADATA_H

#include "AMLS/Runtime/ABI.h"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>

namespace amls::runtime {

struct MatrixFileMetadata {
  int64_t rows = 0, cols = 0;
  /// Stored entries when they bound the non-zeros (a coordinate file with
  /// general symmetry); unknown for array files and symmetric storage.
  std::optional<int64_t> nonZeros;

  /// nonZeros / cells, capped at 1; unknown without nonZeros or cells.
  std::optional<double> sparsity() const;
};

/// The header and size line of a Matrix Market stream; nothing when the
/// header is missing or malformed (reading the file reports those).
std::optional<MatrixFileMetadata> parseMatrixMarketMetadata(std::istream &in);

/// The same for the file at `path`; nothing when it cannot be opened.
std::optional<MatrixFileMetadata>
readMatrixMarketMetadata(const std::string &path);

/// The rows and columns of the CSV file at `path` as the runtime's reader
/// will find them: non-blank lines, and the fields of the first one.
/// Nothing when the file cannot be opened or its first line is not all
/// numbers (a header of names: the sizes are then left to the reader).
std::optional<MatrixFileMetadata> readCsvShape(const std::string &path);

/// The rows and columns in the header of the binary matrix file at `path`.
std::optional<MatrixFileMetadata> readBinaryShape(const std::string &path);

/// The metadata of the file at `path` in `format` (an AmlsFileFormat), as
/// one of the three functions above finds it.
std::optional<MatrixFileMetadata>
readMatrixFileMetadata(const std::string &path, AmlsFileFormat format);

} // namespace amls::runtime

#endif // AMLS_RUNTIME_FILEMETADATA_H
