//===- TextParsing.h - Parsing the lines of matrix files --------*- C++ -*-===//
//
// Shared by the runtime's readers (lib/Runtime/IO) and the metadata that
// the compiler reads from the same files (lib/Support/FileMetadata.cpp), so
// that both see a file the same way.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_SUPPORT_TEXTPARSING_H
#define AMLS_SUPPORT_TEXTPARSING_H

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace amls::runtime {

inline std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text[0])))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

/// The next line of a Matrix Market file that is neither blank nor a
/// comment, counting lines.
inline bool nextMatrixMarketLine(std::istream &in, std::string &line,
                                 int64_t &lineNo) {
  while (std::getline(in, line)) {
    ++lineNo;
    std::string_view text = trim(line);
    if (!text.empty() && text[0] != '%')
      return true;
  }
  return false;
}

/// Parses all of `text` as a number (strtod syntax: also "nan", "inf").
inline bool parseNumber(std::string_view text, double &value) {
  std::string copy(text);
  if (copy.empty())
    return false;
  char *end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

inline std::vector<std::string_view> split(std::string_view line,
                                           char separator) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t end = line.find(separator, start);
    fields.push_back(trim(line.substr(start, end - start)));
    if (end == std::string_view::npos)
      return fields;
    start = end + 1;
  }
}

inline std::string located(const std::string &path, int64_t line,
                           const std::string &problem) {
  return path + ":" + std::to_string(line) + ": " + problem;
}

inline std::string quoted(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string shown(text.substr(0, kMax));
  if (text.size() > kMax)
    shown += "...";
  return "'" + shown + "'";
}

} // namespace amls::runtime

#endif // AMLS_SUPPORT_TEXTPARSING_H
