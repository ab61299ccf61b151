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
#include <vector>

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
/// one of the three functions above finds it; for a text-cell file (which
/// states no sizes), and for any file with a valid `.mtd` file beside it,
/// the sizes and non-zeros of the `.mtd` file.
std::optional<MatrixFileMetadata>
readMatrixFileMetadata(const std::string &path, AmlsFileFormat format);

//===----------------------------------------------------------------------===//
// SystemDS's .mtd files
//===----------------------------------------------------------------------===//

/// What a SystemDS metadata file says: a JSON object next to the data file
/// (`path + ".mtd"`), e.g. {"data_type": "matrix", "value_type": "double",
/// "rows": 3, "cols": 4, "nnz": 5, "format": "text", ...}. Members AMLS does
/// not use ("author", "created", "description") are ignored.
struct MtdMetadata {
  std::string dataType = "matrix";  // "matrix", "frame" or "scalar"
  std::string valueType = "double"; // "double", "int", "boolean", "string"
  /// Sizes and non-zeros; unknown when absent or negative (SystemDS's -1).
  std::optional<int64_t> rows, cols, nonZeros;
  /// The format, when the file names one AMLS reads.
  std::optional<AmlsFileFormat> format;
  /// CSV only: a header line, and the separator.
  std::optional<bool> header;
  std::optional<std::string> separator;
  /// A frame's column types, as SystemDS writes them ("STRING,FP64,INT64").
  std::optional<std::string> schema;
  /// A frame's missing-value strings ("naStrings": ["NA", ""]).
  std::optional<std::vector<std::string>> naStrings;

  /// The metadata of a matrix file (sizes, non-zeros), if the sizes are
  /// known.
  std::optional<MatrixFileMetadata> matrixMetadata() const;
};

/// `path + ".mtd"`.
std::string mtdPathFor(const std::string &path);

/// The format named `name` in a .mtd file or a DML `format=` argument:
/// "text", "csv" or "mm" (also "matrixmarket"); "" or why AMLS does not read
/// it (SystemDS's "binary" is a Hadoop sequence file).
std::string parseFormatName(const std::string &name, AmlsFileFormat &format);

/// The name a .mtd file gives `format` ("text", "csv", "mm", "binary").
const char *formatName(AmlsFileFormat format);

/// Parses the text of a .mtd file: "" or the problem (without the path).
std::string parseMtd(const std::string &text, MtdMetadata &metadata);

/// Reads the .mtd file of the data file `path` into `metadata`: "" with
/// `metadata` empty when there is none, "" with it set when it was read,
/// else "<path>.mtd: <problem>".
std::string readMtdFor(const std::string &path,
                       std::optional<MtdMetadata> &metadata);

/// The text of a .mtd file as SystemDS writes it (keys in its order).
std::string formatMtd(const MtdMetadata &metadata);

/// Writes `text` to the file `path`: "" or the problem, with the system's
/// reason.
std::string writeTextFile(const std::string &path, const std::string &text);

/// Writes the .mtd file of the data file `path`: "" or the problem.
std::string writeMtdFor(const std::string &path, const MtdMetadata &metadata);

/// Writes the .mtd file of a matrix written to `path` (CSV: no header,
/// ',' separated), as SystemDS does.
std::string writeMatrixMtdFor(const std::string &path, AmlsFileFormat format,
                              int64_t rows, int64_t cols, int64_t nonZeros);

/// The sizes of the text-cell file `path`: those of its .mtd file, or
/// `statedRows` x `statedCols` (read's rows= and cols=, -1 where not given)
/// when it has none. "" or the problem: no sizes at all, sizes that differ
/// from the .mtd file's, a malformed .mtd file.
std::string textFileShape(const std::string &path, int64_t statedRows,
                          int64_t statedCols, int64_t &rows, int64_t &cols);

} // namespace amls::runtime

#endif // AMLS_RUNTIME_FILEMETADATA_H
