//===- FileMetadata.cpp - Sizes recorded in matrix files ------------------===//

#include "AMLS/Analysis/FileMetadata.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace mlir::amls;

std::optional<double> MatrixFileMetadata::sparsity() const {
  if (!nonZeros || rows == 0 || cols == 0)
    return std::nullopt;
  double cells = static_cast<double>(rows) * static_cast<double>(cols);
  return std::min(1.0, static_cast<double>(*nonZeros) / cells);
}

static std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::optional<MatrixFileMetadata>
mlir::amls::parseMatrixMarketHeader(std::istream &in) {
  std::string line;
  if (!std::getline(in, line))
    return std::nullopt;
  std::istringstream header(line);
  std::string banner, object, layout, field, symmetry;
  header >> banner >> object >> layout >> field >> symmetry;
  layout = lowercase(layout);
  symmetry = lowercase(symmetry);
  if (banner != "%%MatrixMarket" || lowercase(object) != "matrix" ||
      (layout != "coordinate" && layout != "array"))
    return std::nullopt;
  // The size line is the first that is neither blank nor a comment.
  while (std::getline(in, line)) {
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '%')
      continue;
    std::istringstream sizes(line);
    MatrixFileMetadata metadata;
    int64_t entries = 0;
    if (!(sizes >> metadata.rows >> metadata.cols) || metadata.rows < 0 ||
        metadata.cols < 0)
      return std::nullopt;
    if (layout == "coordinate") {
      if (!(sizes >> entries) || entries < 0)
        return std::nullopt;
      if (symmetry == "general")
        metadata.nonZeros = entries;
    }
    return metadata;
  }
  return std::nullopt;
}

std::optional<MatrixFileMetadata>
mlir::amls::readMatrixMarketHeader(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return std::nullopt;
  return parseMatrixMarketHeader(in);
}

/// Whether every comma-separated field of `line` is empty or a number, as
/// the runtime's CSV reader parses it (strtod over the trimmed field).
static bool isNumericCsvLine(const std::string &line, int64_t &fields) {
  fields = 0;
  size_t start = 0;
  while (true) {
    size_t end = line.find(',', start);
    std::string field = line.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    size_t first = field.find_first_not_of(" \t\r");
    size_t last = field.find_last_not_of(" \t\r");
    field =
        first == std::string::npos ? "" : field.substr(first, last - first + 1);
    ++fields;
    if (!field.empty()) {
      char *parsed = nullptr;
      std::strtod(field.c_str(), &parsed);
      if (parsed != field.c_str() + field.size())
        return false;
    }
    if (end == std::string::npos)
      return true;
    start = end + 1;
  }
}

std::optional<MatrixFileMetadata>
mlir::amls::readCsvShape(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  MatrixFileMetadata metadata;
  // The first non-blank line gives the columns; a header of names (which
  // the reader skips) or anything else unusual leaves the shape unknown.
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    if (!isNumericCsvLine(line, metadata.cols))
      return std::nullopt;
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
      } else if (c != ' ' && c != '\t' && c != '\r') {
        content = true;
      }
    }
  }
  metadata.rows += content;
  return metadata;
}
