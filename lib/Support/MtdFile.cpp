//===- MtdFile.cpp - SystemDS's .mtd metadata files -----------------------===//
//
// The JSON object SystemDS writes next to every file it writes, and reads
// for the sizes and format of a file it reads. Parsed strictly
// (FlatJson.cpp): a malformed file is an error naming it, never ignored.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/FlatJson.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace amls::runtime {

std::optional<MatrixFileMetadata> MtdMetadata::matrixMetadata() const {
  if (dataType != "matrix" || !rows || !cols)
    return std::nullopt;
  MatrixFileMetadata metadata;
  metadata.rows = *rows;
  metadata.cols = *cols;
  metadata.nonZeros = nonZeros;
  return metadata;
}

std::string mtdPathFor(const std::string &path) { return path + ".mtd"; }

std::string parseFormatName(const std::string &name, AmlsFileFormat &format) {
  if (name == "text" || name == "textcell") {
    format = AMLS_FILE_TEXT;
    return "";
  }
  if (name == "csv") {
    format = AMLS_FILE_CSV;
    return "";
  }
  if (name == "mm" || name == "matrixmarket") {
    format = AMLS_FILE_MATRIX_MARKET;
    return "";
  }
  if (name == "binary")
    return "format \"binary\" is SystemDS's binary block format (a Hadoop "
           "sequence file of Java-serialized blocks), which AMLS does not "
           "read or write: use format=\"text\", \"csv\" or \"mm\"";
  return "unsupported format \"" + name +
         "\": expected \"text\", \"csv\" or \"mm\"";
}

const char *formatName(AmlsFileFormat format) {
  switch (format) {
  case AMLS_FILE_CSV:
    return "csv";
  case AMLS_FILE_MATRIX_MARKET:
    return "mm";
  case AMLS_FILE_BINARY:
    return "binary";
  case AMLS_FILE_TEXT:
    return "text";
  }
  return "text";
}

namespace {

/// A size member: a non-negative integer, or negative for unknown.
std::string sizeMember(const std::vector<json::Member> &members,
                       const char *key, std::optional<int64_t> &out) {
  const json::Value *value = json::find(members, key);
  if (!value)
    return "";
  double number = value->number;
  if (value->kind != json::Value::Kind::Number ||
      number != std::floor(number) || std::fabs(number) > 9.0e18)
    return std::string("expected \"") + key + "\" to be an integer, found " +
           (value->kind == json::Value::Kind::String ? json::quote(value->text)
            : value->kind == json::Value::Kind::Number ? value->text
                                                       : "a non-number");
  if (number >= 0)
    out = static_cast<int64_t>(number);
  return "";
}

std::string stringMember(const std::vector<json::Member> &members,
                         const char *key, std::optional<std::string> &out) {
  const json::Value *value = json::find(members, key);
  if (!value)
    return "";
  if (value->kind != json::Value::Kind::String)
    return std::string("expected \"") + key + "\" to be a string";
  out = value->text;
  return "";
}

} // namespace

std::string parseMtd(const std::string &text, MtdMetadata &metadata) {
  metadata = MtdMetadata();
  std::vector<json::Member> members;
  std::string error = json::parseFlatObject(text, members);
  if (!error.empty())
    return "malformed metadata: " + error;
  std::optional<std::string> dataType, valueType, format, separator, schema;
  if (!(error = stringMember(members, "data_type", dataType)).empty() ||
      !(error = stringMember(members, "value_type", valueType)).empty() ||
      !(error = stringMember(members, "format", format)).empty() ||
      !(error = stringMember(members, "sep", separator)).empty() ||
      !(error = stringMember(members, "schema", schema)).empty() ||
      !(error = sizeMember(members, "rows", metadata.rows)).empty() ||
      !(error = sizeMember(members, "cols", metadata.cols)).empty() ||
      !(error = sizeMember(members, "nnz", metadata.nonZeros)).empty())
    return error;
  if (dataType) {
    if (*dataType == "list")
      return "data_type \"list\" is not supported (AMLS reads "
             "matrices, frames and scalars)";
    if (*dataType != "matrix" && *dataType != "scalar" && *dataType != "frame")
      return "expected data_type \"matrix\", \"frame\" or \"scalar\", "
             "found " +
             json::quote(*dataType);
    metadata.dataType = *dataType;
  }
  if (valueType) {
    std::string type = *valueType;
    if (type == "integer" || type == "int64" || type == "int32")
      type = "int";
    else if (type == "fp64" || type == "fp32")
      type = "double";
    if (type != "double" && type != "int" && type != "boolean" &&
        type != "string")
      return "expected value_type \"double\", \"int\", \"boolean\" or "
             "\"string\", found " +
             json::quote(*valueType);
    metadata.valueType = type;
  }
  if (format) {
    AmlsFileFormat named;
    if (!(error = parseFormatName(*format, named)).empty())
      return error;
    metadata.format = named;
  }
  if (const json::Value *header = json::find(members, "header")) {
    if (header->kind != json::Value::Kind::Boolean)
      return "expected \"header\" to be true or false";
    metadata.header = header->boolean;
  }
  metadata.separator = separator;
  metadata.schema = schema;
  if (const json::Value *na = json::find(members, "naStrings")) {
    std::vector<std::string> words;
    bool strings = na->kind == json::Value::Kind::Array;
    for (const json::Value &word : na->elements)
      strings = strings && word.kind == json::Value::Kind::String;
    if (!strings)
      return "expected \"naStrings\" to be an array of strings";
    for (const json::Value &word : na->elements)
      words.push_back(word.text);
    metadata.naStrings = std::move(words);
  }
  return "";
}

std::string readMtdFor(const std::string &path,
                       std::optional<MtdMetadata> &metadata) {
  metadata.reset();
  std::string mtdPath = mtdPathFor(path);
  std::ifstream in(mtdPath, std::ios::binary);
  if (!in)
    return "";
  std::ostringstream text;
  text << in.rdbuf();
  MtdMetadata parsed;
  if (std::string error = parseMtd(text.str(), parsed); !error.empty())
    return mtdPath + ": " + error;
  metadata = parsed;
  return "";
}

std::string formatMtd(const MtdMetadata &metadata) {
  std::string text = "{\n";
  auto member = [&](const char *key, const std::string &json) {
    if (text.size() > 2)
      text += ",\n";
    text += "    " + json::quote(key) + ": " + json;
  };
  member("data_type", json::quote(metadata.dataType));
  member("value_type", json::quote(metadata.valueType));
  if (metadata.rows)
    member("rows", std::to_string(*metadata.rows));
  if (metadata.cols)
    member("cols", std::to_string(*metadata.cols));
  if (metadata.nonZeros)
    member("nnz", std::to_string(*metadata.nonZeros));
  if (metadata.format)
    member("format", json::quote(formatName(*metadata.format)));
  if (metadata.header)
    member("header", *metadata.header ? "true" : "false");
  if (metadata.separator)
    member("sep", json::quote(*metadata.separator));
  member("author", json::quote("amls"));
  char created[64];
  std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  std::strftime(created, sizeof(created), "%Y-%m-%d %H:%M:%S UTC", &utc);
  member("created", json::quote(created));
  return text + "\n}\n";
}

std::string writeTextFile(const std::string &path, const std::string &text) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return path + ": cannot open the file for writing: " + std::strerror(errno);
  bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  int savedErrno = errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    savedErrno = errno;
  }
  if (!written)
    return path + ": cannot write the file: " + std::strerror(savedErrno);
  return "";
}

std::string writeMtdFor(const std::string &path, const MtdMetadata &metadata) {
  return writeTextFile(mtdPathFor(path), formatMtd(metadata));
}

std::string writeMatrixMtdFor(const std::string &path, AmlsFileFormat format,
                              int64_t rows, int64_t cols, int64_t nonZeros) {
  MtdMetadata metadata;
  metadata.rows = rows;
  metadata.cols = cols;
  metadata.nonZeros = nonZeros;
  metadata.format = format;
  if (format == AMLS_FILE_CSV) {
    metadata.header = false;
    metadata.separator = ",";
  }
  return writeMtdFor(path, metadata);
}

std::string textFileShape(const std::string &path, int64_t statedRows,
                          int64_t statedCols, int64_t &rows, int64_t &cols) {
  std::optional<MtdMetadata> metadata;
  if (std::string error = readMtdFor(path, metadata); !error.empty())
    return error;
  if (metadata && metadata->rows && metadata->cols) {
    rows = *metadata->rows;
    cols = *metadata->cols;
    if ((statedRows >= 0 && statedRows != rows) ||
        (statedCols >= 0 && statedCols != cols))
      return mtdPathFor(path) + ": the metadata gives " + std::to_string(rows) +
             "x" + std::to_string(cols) + ", but the read expects " +
             (statedRows >= 0 ? std::to_string(statedRows) : "?") + "x" +
             (statedCols >= 0 ? std::to_string(statedCols) : "?");
    return "";
  }
  if (statedRows >= 0 && statedCols >= 0) {
    rows = statedRows;
    cols = statedCols;
    return "";
  }
  return path +
         ": a text-cell file does not state its sizes: expected a metadata "
         "file '" +
         mtdPathFor(path) +
         "' with \"rows\" and \"cols\", or read(..., rows=, "
         "cols=)";
}

} // namespace amls::runtime
