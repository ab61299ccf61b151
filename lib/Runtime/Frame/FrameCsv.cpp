//===- FrameCsv.cpp - Reading and writing frames as CSV -------------------===//
//
// The file is mapped and cut into a range of records per thread (a quoted
// field may hold the separator and line breaks: a cut is placed by the
// quotes before it, parseInParallel); each field goes straight into its
// column's array or arena. Errors name the file, the line and the column
// (1-based, in bytes) where the problem starts, as the matrix reader's do.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Frame/FrameIO.h"

#include "../IO/MappedFile.h"
#include "../Kernels/Threads.h"
#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/FlatJson.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

namespace amls::runtime::frame {
namespace {

/// Cuts a mapped CSV file into records of fields, RFC 4180 style.
class RecordReader {
public:
  /// Reads [begin, end), whose first byte starts line `line`, until a
  /// record would start at or after `stop`.
  RecordReader(const char *begin, const char *end, std::string_view sep,
               int64_t line = 1, const char *stop = nullptr)
      : cursor(begin), end(end), stop(stop ? stop : end), lineStart(begin),
        sep(sep), line(line) {}

  struct Field {
    std::string_view text; // Unquoted text; for a quoted field, see `value`.
    std::string value;     // A quoted field's text without its quotes.
    bool quoted = false;
    int64_t line, column;
    std::string_view get() const { return quoted ? value : text; }
  };

  /// Reads the next non-blank record into `fields`; false at the end of the
  /// file. A malformed record sets `problem`.
  bool next(std::vector<Field> &fields, std::string &problem) {
    fields.clear();
    if (!emptyLinesAreRecords) {
      skipBlankLines();
    } else if (!nonBlankFollows()) {
      cursor = end;
      return false;
    }
    if (cursor >= stop)
      return false;
    recordLine = line;
    while (true) {
      Field &field = fields.emplace_back();
      field.line = line;
      field.column = cursor - lineStart + 1;
      if (cursor < end && *cursor == '"') {
        if (!readQuoted(field, problem))
          return true;
      } else {
        const char *start = cursor;
        while (cursor < end && *cursor != '\n' && !atSeparator())
          ++cursor;
        const char *stop = cursor;
        if (stop > start && stop[-1] == '\r' &&
            (cursor >= end || *cursor == '\n'))
          --stop;
        field.text = std::string_view(start, stop - start);
      }
      if (cursor < end && atSeparator()) {
        cursor += sep.size();
        continue;
      }
      if (cursor < end && *cursor == '\r')
        ++cursor;
      if (cursor < end && *cursor != '\n') {
        problem = at(line, cursor - lineStart + 1,
                     "expected the separator or the end of the line after a "
                     "quoted field, found '" +
                         std::string(1, *cursor) + "'");
        return true;
      }
      if (cursor < end)
        newLine(cursor + 1);
      return true;
    }
  }

  int64_t getRecordLine() const { return recordLine; }
  /// In a file of one column an empty line is a missing value (the writer
  /// writes one so), not a blank line; only the blank lines at the end of
  /// the file are none.
  void setEmptyLinesAreRecords() { emptyLinesAreRecords = true; }
  /// Where the next record (or blank line) starts.
  const char *position() const { return cursor; }
  int64_t getLine() const { return line; }
  std::string at(int64_t atLine, int64_t column, const std::string &what) {
    return std::to_string(atLine) + ":" + std::to_string(column) + ": " + what;
  }

private:
  // Called at every byte of a field: the first byte decides most often.
  bool atSeparator() const {
    if (*cursor != sep.front())
      return false;
    return sep.size() == 1 ||
           (static_cast<size_t>(end - cursor) >= sep.size() &&
            std::memcmp(cursor, sep.data(), sep.size()) == 0);
  }
  void newLine(const char *next) {
    cursor = next;
    lineStart = next;
    ++line;
  }
  /// Space, a tab or a carriage return, unless the separator holds it (a
  /// line of tab separators is a record of missing values).
  bool isBlank(char c) const {
    return (c == ' ' || c == '\t' || c == '\r') &&
           sep.find(c) == std::string_view::npos;
  }
  bool nonBlankFollows() {
    if (!lastNonBlank) {
      lastNonBlank = end;
      while (lastNonBlank > cursor &&
             (isBlank(lastNonBlank[-1]) || lastNonBlank[-1] == '\n'))
        --lastNonBlank;
    }
    return cursor < lastNonBlank;
  }
  void skipBlankLines() {
    while (cursor < end) {
      const char *scan = cursor;
      while (scan < end && isBlank(*scan))
        ++scan;
      if (scan < end && *scan != '\n')
        return;
      if (scan >= end) {
        cursor = end;
        return;
      }
      newLine(scan + 1);
    }
  }
  bool readQuoted(Field &field, std::string &problem) {
    field.quoted = true;
    int64_t openLine = line, openColumn = cursor - lineStart + 1;
    ++cursor;
    while (true) {
      if (cursor >= end) {
        problem = at(openLine, openColumn,
                     "a quoted field is not closed before the end of the file");
        return false;
      }
      char c = *cursor;
      if (c == '"') {
        if (cursor + 1 < end && cursor[1] == '"') {
          field.value += '"';
          cursor += 2;
          continue;
        }
        ++cursor;
        return true;
      }
      field.value += c;
      if (c == '\n')
        newLine(cursor + 1);
      else
        ++cursor;
    }
  }

  const char *cursor, *end, *stop, *lineStart;
  std::string_view sep;
  int64_t line, recordLine = 1;
  bool emptyLinesAreRecords = false;
  /// Past the last byte that is neither blank nor a line break (computed
  /// once, for emptyLinesAreRecords).
  const char *lastNonBlank = nullptr;
};

bool isNaString(std::string_view text, const std::vector<std::string> &na) {
  for (const std::string &word : na)
    if (text == word)
      return true;
  return false;
}

} // namespace

/// Appends the records `reader` reads to the columns of `part`: "" or the
/// problem (line and column, without the path).
static std::string parseRecords(RecordReader &reader, const CsvOptions &options,
                                Frame &part) {
  std::vector<RecordReader::Field> fields;
  std::string problem;
  int64_t cols = part.getCols(), rows = 0;
  while (reader.next(fields, problem)) {
    if (!problem.empty())
      return problem;
    if (static_cast<int64_t>(fields.size()) != cols) {
      const RecordReader::Field &last = fields.back();
      return reader.at(
          reader.getRecordLine(),
          fields.size() > static_cast<size_t>(cols) ? fields[cols].column
                                                    : last.column,
          "expected " + std::to_string(cols) + " field(s) as the first " +
              (options.header ? "line" : "record") + " has, found " +
              std::to_string(fields.size()));
    }
    for (int64_t col = 0; col < cols; ++col) {
      const RecordReader::Field &field = fields[col];
      std::string_view text = field.get();
      Column &column = part.column(col);
      if ((!field.quoted && text.empty()) ||
          isNaString(text, options.naStrings)) {
        column.appendMissing();
        continue;
      }
      if (isNumeric(column.getType())) {
        double value;
        if (!parseCell(text, column.getType(), value))
          return reader.at(field.line, field.column,
                           std::string("expected a value of type ") +
                               getValueTypeName(column.getType()) +
                               " in column '" + column.getName() +
                               "', found '" + std::string(text) + "'");
        column.appendNumber(value);
        continue;
      }
      column.appendString(text);
    }
    ++rows;
  }
  part.setRows(part.getRows() + rows);
  return problem;
}

/// Below this many bytes a file is parsed by one thread.
constexpr size_t kMinBytesPerThread = 4 << 20;

/// The start of the first non-blank line after the first line break at or
/// after `from` that is outside a quoted field; `quoted` is whether `from`
/// is inside one.
static const char *nextRecordStart(const char *from, const char *end,
                                   bool quoted) {
  const char *cursor = from;
  for (; cursor < end; ++cursor) {
    if (*cursor == '"')
      quoted = !quoted;
    else if (*cursor == '\n' && !quoted)
      break;
  }
  if (cursor >= end)
    return end;
  ++cursor;
  // Blank lines belong to no record.
  while (cursor < end) {
    const char *scan = cursor;
    while (scan < end && (*scan == ' ' || *scan == '\t' || *scan == '\r'))
      ++scan;
    if (scan >= end)
      return end;
    if (*scan != '\n')
      return cursor;
    cursor = scan + 1;
  }
  return end;
}

/// Parses the records of [data, end) into `frame`'s columns, in parallel
/// where the file is large: the bytes are cut into a range per thread at
/// record boundaries (a line break outside quotes, the quote state at a
/// cut known from the quotes before it: a doubled quote keeps it), each
/// range is parsed into a frame of its own, and the columns are joined in
/// order. A range whose records do not end where the next one begins (a
/// quote inside an unquoted field, which RFC 4180 does not allow and the
/// reader keeps as text, fools the quote count) is parsed again in one
/// pass.
static std::string parseInParallel(const char *data, const char *end,
                                   int64_t dataLine, const CsvOptions &options,
                                   Frame &frame) {
  auto emptyLike = [&] {
    auto part = std::make_unique<Frame>();
    for (int64_t col = 0; col < frame.getCols(); ++col)
      part->addColumn(frame.column(col).getName(), frame.column(col).getType());
    return part;
  };
  int64_t bytes = end - data;
  // One column: the cuts skip blank lines, which are values there.
  int64_t threads =
      frame.getCols() == 1 ? 1 : threadsFor(bytes, kMinBytesPerThread);
  std::string_view sep = options.sep;
  if (threads > 1) {
    std::vector<const char *> starts = {data};
    std::vector<int64_t> lines = {dataLine};
    const char *counted = data;
    int64_t quotes = 0, breaks = 0;
    for (int64_t t = 1; t < threads; ++t) {
      const char *target = data + bytes * t / threads;
      if (target <= starts.back())
        continue;
      quotes += std::count(counted, target, '"');
      const char *start = nextRecordStart(target, end, quotes % 2 == 1);
      quotes += std::count(target, start, '"');
      breaks += std::count(starts.back(), start, '\n');
      counted = start;
      if (start >= end)
        break;
      starts.push_back(start);
      lines.push_back(dataLine + breaks);
    }
    int64_t ranges = static_cast<int64_t>(starts.size());
    std::vector<std::unique_ptr<Frame>> parts(ranges);
    std::vector<std::string> problems(ranges);
    std::vector<const char *> stopped(ranges);
    // The first range is parsed into `frame` itself, the others are
    // appended to it.
    runThreads(ranges, [&](int64_t t) {
      if (t)
        parts[t] = emptyLike();
      Frame &part = t ? *parts[t] : frame;
      const char *stop = t + 1 < ranges ? starts[t + 1] : end;
      RecordReader reader(starts[t], end, sep, lines[t], stop);
      problems[t] = parseRecords(reader, options, part);
      stopped[t] = reader.position();
    });
    bool aligned = true;
    for (int64_t t = 0; t + 1 < ranges; ++t)
      aligned = aligned && stopped[t] == starts[t + 1];
    if (aligned) {
      for (std::string &problem : problems)
        if (!problem.empty())
          return std::move(problem);
      for (int64_t col = 0; col < frame.getCols(); ++col)
        for (int64_t t = 1; t < ranges; ++t)
          frame.column(col).appendColumn(parts[t]->column(col));
      int64_t rows = frame.getRows();
      for (int64_t t = 1; t < ranges; ++t)
        rows += parts[t]->getRows();
      frame.setRows(rows);
      return "";
    }
    // Read again from scratch: empty the columns the first range filled.
    Frame empty;
    for (int64_t col = 0; col < frame.getCols(); ++col)
      empty.addColumn(frame.column(col).getName(), frame.column(col).getType());
    frame = std::move(empty);
  }
  RecordReader reader(data, end, sep, dataLine);
  if (frame.getCols() == 1)
    reader.setEmptyLinesAreRecords();
  return parseRecords(reader, options, frame);
}

std::string readCsv(const std::string &path, const CsvOptions &options,
                    std::unique_ptr<Frame> &result) {
  MappedFile file(path);
  if (!file.opened)
    return path + ": cannot open the file to read a frame";
  // A UTF-8 byte-order mark (spreadsheets write one) is not data.
  const char *begin = file.data;
  if (file.size >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0)
    begin += 3;
  RecordReader reader(begin, file.data + file.size, options.sep);
  auto frame = std::make_unique<Frame>();
  std::vector<RecordReader::Field> fields;
  std::string problem;
  auto located = [&](const std::string &what) { return path + ":" + what; };

  bool haveRecord = reader.next(fields, problem);
  if (!problem.empty())
    return located(problem);
  if (!haveRecord) {
    // An empty file is a frame of no rows; the schema gives its columns.
    for (size_t col = 0; col < options.schema.size(); ++col)
      frame->addColumn(defaultColumnName(col), options.schema[col]);
    result = std::move(frame);
    return "";
  }
  int64_t cols = static_cast<int64_t>(fields.size());
  if (!options.schema.empty() &&
      static_cast<int64_t>(options.schema.size()) != cols)
    return located(
        reader.at(reader.getRecordLine(), 1,
                  "the schema has " + std::to_string(options.schema.size()) +
                      " column(s), the file " + std::to_string(cols)));
  for (int64_t col = 0; col < cols; ++col) {
    AmlsFrameValueType type =
        options.schema.empty() ? AMLS_FRAME_STRING : options.schema[col];
    frame->addColumn(options.header ? std::string(fields[col].get())
                                    : defaultColumnName(col),
                     type);
  }
  // Without a header, the first record is data: read it again.
  const char *data = options.header ? reader.position() : begin;
  int64_t dataLine = options.header ? reader.getLine() : 1;
  const char *fileEnd = file.data + file.size;
  problem = parseInParallel(data, fileEnd, dataLine, options, *frame);
  if (!problem.empty())
    return located(problem);
  result = std::move(frame);
  return "";
}

/// A field as CSV writes it: quoted when it holds the separator, a quote or
/// a line break, or is empty but not missing.
static void appendField(std::string &out, const Column &column, int64_t row,
                        std::string_view sep) {
  if (column.isMissing(row))
    return;
  std::string text = column.format(row);
  bool quote = text.empty() || text.find(sep) != std::string::npos ||
               text.find_first_of("\"\n\r") != std::string::npos;
  if (!quote) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
}

std::string writeCsv(const Frame &frame, const std::string &path, bool header,
                     const std::string &sep) {
  std::string out;
  if (header) {
    for (int64_t col = 0; col < frame.getCols(); ++col) {
      if (col)
        out += sep;
      const std::string &name = frame.column(col).getName();
      bool quote = name.find(sep) != std::string::npos ||
                   name.find_first_of("\"\n\r") != std::string::npos;
      if (!quote) {
        out += name;
        continue;
      }
      out += '"';
      for (char c : name)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
      out += '"';
    }
    out += '\n';
  }
  for (int64_t row = 0; row < frame.getRows(); ++row) {
    for (int64_t col = 0; col < frame.getCols(); ++col) {
      if (col)
        out += sep;
      appendField(out, frame.column(col), row, sep);
    }
    out += '\n';
  }
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return path + ": cannot open the file to write a frame";
  bool written = std::fwrite(out.data(), 1, out.size(), file) == out.size();
  written = std::fclose(file) == 0 && written;
  if (!written)
    return path + ": cannot write the frame (disk full?)";
  // The .mtd beside it, as SystemDS writes: sizes, format, header, schema.
  std::string schema;
  for (int64_t col = 0; col < frame.getCols(); ++col)
    schema += std::string(col ? "," : "") +
              getValueTypeName(frame.column(col).getType());
  std::string mtd = "{\n    \"data_type\": \"frame\",\n    \"rows\": " +
                    std::to_string(frame.getRows()) +
                    ",\n    \"cols\": " + std::to_string(frame.getCols()) +
                    ",\n    \"format\": \"csv\",\n    \"header\": " +
                    (header ? "true" : "false") +
                    ",\n    \"sep\": " + json::quote(sep) +
                    ",\n    \"schema\": " + json::quote(schema) + "\n}\n";
  FILE *meta = std::fopen(mtdPathFor(path).c_str(), "wb");
  if (!meta)
    return mtdPathFor(path) + ": cannot open the file to write the metadata";
  written = std::fwrite(mtd.data(), 1, mtd.size(), meta) == mtd.size();
  written = std::fclose(meta) == 0 && written;
  return written ? "" : mtdPathFor(path) + ": cannot write the metadata";
}

} // namespace amls::runtime::frame
