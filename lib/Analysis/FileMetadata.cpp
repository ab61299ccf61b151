//===- FileMetadata.cpp - Sizes recorded in matrix files ------------------===//

#include "AMLS/Analysis/FileMetadata.h"

#include <algorithm>
#include <cctype>
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
