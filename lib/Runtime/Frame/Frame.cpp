//===- Frame.cpp - The runtime's frames -----------------------------------===//

#include "AMLS/Runtime/Frame/Frame.h"

#include "AMLS/Runtime/MatrixIO.h"
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

/// Java's Double.toString, as SystemDS writes doubles (MatrixIO's).
static std::string formatDouble(double value) { return formatScalar(value); }

/// Whether a number is a value of a numeric or boolean type: integral and in
/// range for the integer types, 0 or 1 for booleans.
static bool fitsType(double value, AmlsFrameValueType type) {
  switch (type) {
  case AMLS_FRAME_INT64:
    return value == std::trunc(value) && std::fabs(value) < 0x1p63;
  case AMLS_FRAME_INT32:
    return value == std::trunc(value) && value >= -0x1p31 && value < 0x1p31;
  case AMLS_FRAME_BOOLEAN:
    return value == 0 || value == 1;
  default:
    return true;
  }
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

bool parseDouble(std::string_view text, double &value) {
  if (text.empty())
    return false;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size())
    return true;
  return parseNumber(text, value);
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
  if (!parseDouble(text, value))
    return false;
  return fitsType(value, type);
}

void Column::appendFrom(const Column &other, int64_t row) {
  if (other.isMissing(row)) {
    appendMissing();
  } else if (isNumeric(type) && isNumeric(other.type)) {
    appendNumber(other.getNumber(row));
  } else if (type == AMLS_FRAME_STRING && other.type == AMLS_FRAME_STRING) {
    appendString(other.getString(row));
  } else if (type == AMLS_FRAME_STRING) {
    appendString(other.format(row));
  } else {
    double value;
    if (parseCell(other.getString(row), type, value))
      appendNumber(value);
    else
      appendMissing();
  }
}

void Column::appendColumn(const Column &other) {
  missing.insert(missing.end(), other.missing.begin(), other.missing.end());
  if (type != AMLS_FRAME_STRING) {
    numbers.insert(numbers.end(), other.numbers.begin(), other.numbers.end());
    return;
  }
  uint64_t base = arena.size();
  arena.append(other.arena);
  offsets.reserve(offsets.size() + other.offsets.size() - 1);
  for (size_t i = 1; i < other.offsets.size(); ++i)
    offsets.push_back(base + other.offsets[i]);
}

std::unique_ptr<Frame> Frame::slice(int64_t rowBegin, int64_t rowEnd,
                                    int64_t colBegin, int64_t colEnd) const {
  auto result = std::make_unique<Frame>();
  for (int64_t col = colBegin; col < colEnd; ++col) {
    const Column &source = columns[col];
    Column &column = result->addColumn(source.getName(), source.getType());
    column.reserve(rowEnd - rowBegin);
    for (int64_t row = rowBegin; row < rowEnd; ++row)
      column.appendFrom(source, row);
    column.numDistinct = source.numDistinct;
    column.imputedValue = source.imputedValue;
  }
  result->setRows(rowEnd - rowBegin);
  return result;
}

std::unique_ptr<Frame> frameFromMatrix(const double *cells, int64_t rows,
                                       int64_t cols, int64_t stride) {
  auto frame = std::make_unique<Frame>();
  for (int64_t col = 0; col < cols; ++col) {
    Column &column = frame->addColumn(defaultColumnName(col), AMLS_FRAME_FP64);
    column.reserve(rows);
    for (int64_t row = 0; row < rows; ++row)
      column.appendNumber(cells[row * stride + col]);
  }
  frame->setRows(rows);
  return frame;
}

std::string cbindFrames(const Frame &a, const Frame &b,
                        std::unique_ptr<Frame> &result) {
  if (a.getRows() != b.getRows())
    return "cbind: the frames have " + std::to_string(a.getRows()) + " and " +
           std::to_string(b.getRows()) + " rows";
  auto frame = a.slice(0, a.getRows(), 0, a.getCols());
  for (int64_t col = 0; col < b.getCols(); ++col) {
    const Column &source = b.column(col);
    Column &column = frame->addColumn(source.getName(), source.getType());
    column.reserve(b.getRows());
    for (int64_t row = 0; row < b.getRows(); ++row)
      column.appendFrom(source, row);
  }
  result = std::move(frame);
  return "";
}

std::string rbindFrames(const Frame &a, const Frame &b,
                        std::unique_ptr<Frame> &result) {
  if (a.getCols() != b.getCols())
    return "rbind: the frames have " + std::to_string(a.getCols()) + " and " +
           std::to_string(b.getCols()) + " columns";
  auto frame = std::make_unique<Frame>();
  for (int64_t col = 0; col < a.getCols(); ++col) {
    const Column &top = a.column(col), &bottom = b.column(col);
    AmlsFrameValueType type =
        top.getType() == bottom.getType() ? top.getType() : AMLS_FRAME_STRING;
    Column &column = frame->addColumn(top.getName(), type);
    column.reserve(a.getRows() + b.getRows());
    for (int64_t row = 0; row < a.getRows(); ++row)
      column.appendFrom(top, row);
    for (int64_t row = 0; row < b.getRows(); ++row)
      column.appendFrom(bottom, row);
  }
  frame->setRows(a.getRows() + b.getRows());
  result = std::move(frame);
  return "";
}

bool parseValueTypeName(std::string_view name, AmlsFrameValueType &type) {
  std::string upper;
  for (char c : trim(name))
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (AmlsFrameValueType candidate :
       {AMLS_FRAME_STRING, AMLS_FRAME_FP64, AMLS_FRAME_FP32, AMLS_FRAME_INT64,
        AMLS_FRAME_INT32, AMLS_FRAME_BOOLEAN})
    if (upper == getValueTypeName(candidate)) {
      type = candidate;
      return true;
    }
  return false;
}

std::unique_ptr<Frame> detectSchema(const Frame &frame) {
  auto schema = std::make_unique<Frame>();
  for (int64_t col = 0; col < frame.getCols(); ++col) {
    const Column &column = frame.column(col);
    AmlsFrameValueType detected = column.getType();
    if (detected == AMLS_FRAME_STRING) {
      // The narrowest type every present cell parses as.
      bool any = false;
      bool integers = true, numbers = true, booleans = true;
      for (int64_t row = 0; row < frame.getRows(); ++row) {
        if (column.isMissing(row))
          continue;
        any = true;
        std::string_view text = column.getString(row);
        double value;
        integers = integers && parseCell(text, AMLS_FRAME_INT64, value);
        numbers = numbers && parseCell(text, AMLS_FRAME_FP64, value);
        booleans = booleans && parseCell(text, AMLS_FRAME_BOOLEAN, value);
        if (!integers && !numbers && !booleans)
          break;
      }
      detected = !any       ? AMLS_FRAME_STRING
                 : integers ? AMLS_FRAME_INT64
                 : numbers  ? AMLS_FRAME_FP64
                 : booleans ? AMLS_FRAME_BOOLEAN
                            : AMLS_FRAME_STRING;
    }
    schema->addColumn(column.getName(), AMLS_FRAME_STRING)
        .appendString(getValueTypeName(detected));
  }
  schema->setRows(1);
  return schema;
}

std::string applySchema(const Frame &frame, const Frame &schema,
                        std::unique_ptr<Frame> &result) {
  if (schema.getRows() < 1 || schema.getCols() != frame.getCols())
    return "applySchema: expected a schema frame of 1 x " +
           std::to_string(frame.getCols()) + " type names, found " +
           std::to_string(schema.getRows()) + " x " +
           std::to_string(schema.getCols());
  auto converted = std::make_unique<Frame>();
  for (int64_t col = 0; col < frame.getCols(); ++col) {
    const Column &source = frame.column(col);
    std::string name = schema.column(col).format(0);
    AmlsFrameValueType type;
    if (!parseValueTypeName(name, type))
      return "applySchema: column " + std::to_string(col + 1) + ": " +
             quoted(name) +
             " is not a value type (STRING, FP64, FP32, INT64, INT32, "
             "BOOLEAN)";
    Column &column = converted->addColumn(source.getName(), type);
    column.reserve(frame.getRows());
    for (int64_t row = 0; row < frame.getRows(); ++row) {
      double value;
      bool fits = source.isMissing(row) || !isNumeric(type) ||
                  (isNumeric(source.getType())
                       ? fitsType(source.getNumber(row), type)
                       : parseCell(source.getString(row), type, value));
      if (!fits)
        return "applySchema: column '" + source.getName() + "', row " +
               std::to_string(row + 1) + ": " + quoted(source.format(row)) +
               " is not a value of type " + getValueTypeName(type);
      column.appendFrom(source, row);
    }
  }
  converted->setRows(frame.getRows());
  result = std::move(converted);
  return "";
}

} // namespace amls::runtime::frame
