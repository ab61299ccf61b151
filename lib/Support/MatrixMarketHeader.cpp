//===- MatrixMarketHeader.cpp - The banner and size line of .mtx files ----===//
//
// The one parser of Matrix Market headers: the runtime's reader and the
// compiler's file metadata both call it.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Support/TextParsing.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace amls::runtime {

std::string parseMatrixMarketHeader(std::istream &in, const std::string &path,
                                    MatrixMarketHeader &header,
                                    int64_t &lineNo) {
  header = MatrixMarketHeader();
  std::string line;
  lineNo = 0;
  if (!std::getline(in, line))
    return located(path, 1,
                   "expected a '%%MatrixMarket' header, found an "
                   "empty file");
  ++lineNo;
  std::istringstream banner(line);
  std::string magic, object, layout, field, symmetry;
  banner >> magic >> object >> layout >> field >> symmetry;
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  object = lower(object);
  layout = lower(layout);
  field = lower(field);
  symmetry = lower(symmetry);
  if (magic != "%%MatrixMarket" || object != "matrix")
    return located(path, lineNo,
                   "expected '%%MatrixMarket matrix ...', found " +
                       quoted(line));
  if (layout != "coordinate" && layout != "array")
    return located(path, lineNo,
                   "expected layout 'coordinate' or 'array', found " +
                       quoted(layout));
  if (field != "real" && field != "integer" && field != "pattern" &&
      field != "double")
    return located(path, lineNo,
                   "expected field 'real', 'integer' or 'pattern', found " +
                       quoted(field));
  if (symmetry != "general" && symmetry != "symmetric" &&
      symmetry != "skew-symmetric")
    return located(path, lineNo,
                   "expected symmetry 'general', 'symmetric' or "
                   "'skew-symmetric', found " +
                       quoted(symmetry));
  header.coordinate = layout == "coordinate";
  header.field = field;
  header.symmetry = symmetry;
  if (field == "pattern" && !header.coordinate)
    return located(path, lineNo, "a 'pattern' matrix must be 'coordinate'");

  // The size line is the first that is neither blank nor a comment.
  if (!nextMatrixMarketLine(in, line, lineNo))
    return located(path, lineNo + 1,
                   "expected the size line, found the end "
                   "of the file");
  std::istringstream sizes(line);
  int64_t rows = -1, cols = -1, entries = -1;
  sizes >> rows >> cols;
  if (header.coordinate)
    sizes >> entries;
  if (sizes.fail() || rows < 0 || cols < 0 ||
      (header.coordinate && entries < 0))
    return located(path, lineNo,
                   std::string("expected the size line '<rows> <cols>") +
                       (header.coordinate ? " <entries>'" : "'") + ", found " +
                       quoted(line));
  // A mirrored entry of a non-square matrix would fall outside it.
  if (header.symmetry != "general" && rows != cols)
    return located(path, lineNo,
                   "a '" + header.symmetry + "' matrix must be square, found " +
                       std::to_string(rows) + "x" + std::to_string(cols));
  header.rows = rows;
  header.cols = cols;
  header.entries = header.coordinate ? entries : rows * cols;
  return "";
}

} // namespace amls::runtime
