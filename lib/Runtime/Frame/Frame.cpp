//===- Frame.cpp - The runtime's frames -----------------------------------===//

#include "AMLS/Runtime/Frame/Frame.h"

#include "AMLS/Support/TextParsing.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace amls::runtime::frame {

const char *getValueTypeName(AmlsFrameValueType type) {
  switch (type) {
  case AMLS_FRAME_STRING:
    return "STRING";
  case AMLS_FRAME_FP64:
    return "FP64";
  case AMLS_FRAME_FP32:
    return "FP32";
  case AMLS_FRAME_INT64:
    return "INT64";
  case AMLS_FRAME_INT32:
    return "INT32";
  case AMLS_FRAME_BOOLEAN:
    return "BOOLEAN";
  }
  return "UNKNOWN";
}

bool isNumeric(AmlsFrameValueType type) { return type != AMLS_FRAME_STRING; }

std::string defaultColumnName(int64_t col) {
  return "C" + std::to_string(col + 1);
}

/// Java's Double.toString for the values SystemDS writes: the shortest
/// text that reads back, with ".0" on integral values.
static std::string formatDouble(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, end);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

std::string Column::format(int64_t row) const {
  if (isMissing(row))
    return "";
  switch (type) {
  case AMLS_FRAME_STRING:
    return std::string(getString(row));
  case AMLS_FRAME_BOOLEAN:
    return getNumber(row) != 0 ? "true" : "false";
  case AMLS_FRAME_INT64:
  case AMLS_FRAME_INT32:
    return std::to_string(static_cast<int64_t>(getNumber(row)));
  case AMLS_FRAME_FP64:
  case AMLS_FRAME_FP32:
    return formatDouble(getNumber(row));
  }
  return "";
}

void Column::appendString(std::string_view text) {
  missing.push_back(0);
  if (type == AMLS_FRAME_STRING) {
    arena.append(text);
    offsets.push_back(arena.size());
    return;
  }
  double value = NAN;
  parseCell(text, type, value);
  numbers.push_back(value);
}

void Column::appendNumber(double value) {
  if (type == AMLS_FRAME_STRING) {
    appendString(formatDouble(value));
    return;
  }
  missing.push_back(std::isnan(value) ? 1 : 0);
  numbers.push_back(value);
}

void Column::appendMissing() {
  missing.push_back(1);
  if (type == AMLS_FRAME_STRING)
    offsets.push_back(arena.size());
  else
    numbers.push_back(NAN);
}

void Column::reserve(int64_t rows) {
  missing.reserve(rows);
  if (type == AMLS_FRAME_STRING)
    offsets.reserve(rows + 1);
  else
    numbers.reserve(rows);
}

int64_t Frame::findColumn(std::string_view name) const {
  for (int64_t col = 0; col < getCols(); ++col)
    if (columns[col].getName() == name)
      return col;
  return -1;
}

std::string Frame::toString(int64_t maxRows, int64_t maxCols) const {
  int64_t rowCount = maxRows < 0 ? rows : std::min(maxRows, rows);
  int64_t colCount = maxCols < 0 ? getCols() : std::min(maxCols, getCols());
  std::string text = "# FRAME: nrow = " + std::to_string(rows) +
                     ", ncol = " + std::to_string(getCols()) + "\n#";
  for (int64_t col = 0; col < colCount; ++col)
    text += " " + columns[col].getName();
  text += "\n#";
  for (int64_t col = 0; col < colCount; ++col)
    text += std::string(" ") + getValueTypeName(columns[col].getType());
  text += '\n';
  for (int64_t row = 0; row < rowCount; ++row) {
    for (int64_t col = 0; col < colCount; ++col) {
      const Column &column = columns[col];
      if (col)
        text += ' ';
      if (column.isMissing(row)) {
        text += "null";
      } else if (column.getType() == AMLS_FRAME_FP64) {
        // SystemDS prints FP64 cells with 3 decimals.
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), "%.3f", column.getNumber(row));
        text += buffer;
      } else {
        text += column.format(row);
      }
    }
    text += '\n';
  }
  return text;
}

bool parseCell(std::string_view text, AmlsFrameValueType type, double &value) {
  text = trim(text);
  if (type == AMLS_FRAME_BOOLEAN) {
    auto equalsIgnoringCase = [&](std::string_view word) {
      if (text.size() != word.size())
        return false;
      for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != word[i])
          return false;
      return true;
    };
    if (equalsIgnoringCase("true") || text == "1") {
      value = 1;
      return true;
    }
    if (equalsIgnoringCase("false") || text == "0") {
      value = 0;
      return true;
    }
    return false;
  }
  if (!parseNumber(text, value))
    return false;
  if (type == AMLS_FRAME_INT64 || type == AMLS_FRAME_INT32)
    return value == std::trunc(value);
  return true;
}

} // namespace amls::runtime::frame
