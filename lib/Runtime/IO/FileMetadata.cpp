//===- FileMetadata.cpp - Sizes recorded in matrix files ------------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "TextParsing.h"

#include <algorithm>
#include <cstring>
#include <fstream>

namespace amls::runtime {

std::optional<double> MatrixFileMetadata::sparsity() const {
  if (!nonZeros || rows == 0 || cols == 0)
    return std::nullopt;
  double cells = static_cast<double>(rows) * static_cast<double>(cols);
  return std::min(1.0, static_cast<double>(*nonZeros) / cells);
}

std::optional<MatrixFileMetadata> parseMatrixMarketMetadata(std::istream &in) {
  MatrixMarketHeader header;
  int64_t lineNo = 0;
  if (!parseMatrixMarketHeader(in, "", header, lineNo).empty())
    return std::nullopt;
  MatrixFileMetadata metadata;
  metadata.rows = header.rows;
  metadata.cols = header.cols;
  if (header.coordinate && header.symmetry == "general")
    metadata.nonZeros = header.entries;
  return metadata;
}

std::optional<MatrixFileMetadata>
readMatrixMarketMetadata(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return std::nullopt;
  return parseMatrixMarketMetadata(in);
}

std::optional<MatrixFileMetadata> readCsvShape(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  MatrixFileMetadata metadata;
  // The first non-blank line gives the columns; a header of names (which
  // the reader skips) or anything else unusual leaves the shape unknown.
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty())
      continue;
    std::vector<std::string_view> fields = split(trim(line), ',');
    double value;
    for (std::string_view field : fields)
      if (!field.empty() && !parseNumber(field, value))
        return std::nullopt;
    metadata.cols = static_cast<int64_t>(fields.size());
    metadata.rows = 1;
    break;
  }
  if (metadata.rows == 0)
    return metadata;
  // Every further non-blank line is a row; the reader checks their fields.
  char buffer[1 << 16];
  bool content = false;
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    std::streamsize count = in.gcount();
    for (std::streamsize i = 0; i < count; ++i) {
      char c = buffer[i];
      if (c == '\n') {
        metadata.rows += content;
        content = false;
      } else if (!std::isspace(static_cast<unsigned char>(c))) {
        content = true;
      }
    }
  }
  metadata.rows += content;
  return metadata;
}

std::optional<MatrixFileMetadata> readBinaryShape(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8];
  int64_t sizes[2];
  if (!in || !in.read(magic, sizeof(magic)) ||
      std::memcmp(magic, kBinaryMatrixMagic, sizeof(magic)) != 0 ||
      !in.read(reinterpret_cast<char *>(sizes), sizeof(sizes)) ||
      sizes[0] < 0 || sizes[1] < 0)
    return std::nullopt;
  MatrixFileMetadata metadata;
  metadata.rows = sizes[0];
  metadata.cols = sizes[1];
  return metadata;
}

} // namespace amls::runtime
