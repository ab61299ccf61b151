//===- CsvReader.cpp - Reading CSV files in parallel ----------------------===//
//
// The file is mapped, its non-blank lines are found in blocks of rows, and
// the rows of a block are parsed by the runtime's threads straight into the
// sink's buffer: numbers with std::from_chars (strtod, for the syntax it
// alone accepts: hex floats), no copy of a field. A first line of names is
// a header and skipped. Errors name the line and the column, the first one
// in the file when several threads find one.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Support/TextParsing.h"
#include "CsvRows.h"
#include "MappedFile.h"
#include "MatrixCells.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string_view>
#include <thread>
#include <vector>

namespace amls::runtime {
namespace {

/// Rows parsed per block: the sink's buffer for them is filled before the
/// next block is asked for.
constexpr int64_t kBlockRows = 1 << 16;
/// Below this many bytes a block is parsed by one thread.
constexpr size_t kMinBytesPerThread = 1 << 20;

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trimField(const char *begin, const char *end) {
  while (begin < end && isBlank(*begin))
    ++begin;
  while (end > begin && isBlank(end[-1]))
    --end;
  return std::string_view(begin, end - begin);
}

bool parseField(std::string_view field, double &value) {
  const char *begin = field.data(), *end = begin + field.size();
  if (begin < end && *begin == '+')
    ++begin;
  auto [next, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc() && next == end)
    return true;
  // strtod accepts more (hex floats, out-of-range values as infinities).
  return parseNumber(field, value);
}

struct Line {
  const char *begin, *end;
  int64_t number;
};

} // namespace

/// A line's problem: the 1-based column of a field that is not a number,
/// or the number of fields when it is not `cols`; nothing (0, 0) when the
/// line is fine.
RowProblem parseRow(const char *begin, const char *end, int64_t cols,
                    double *out) {
  int64_t column = 0;
  const char *field = begin;
  while (true) {
    const char *comma =
        static_cast<const char *>(std::memchr(field, ',', end - field));
    const char *fieldEnd = comma ? comma : end;
    if (column < cols) {
      std::string_view text = trimField(field, fieldEnd);
      double value = 0.0;
      if (!text.empty() && !parseField(text, value))
        return {column + 1, 0};
      out[column] = value;
    }
    ++column;
    if (!comma)
      break;
    field = comma + 1;
  }
  if (column != cols)
    return {0, column};
  return {};
}

/// Whether [begin, end) has anything but blanks.
bool hasContent(const char *begin, const char *end) {
  for (; begin < end; ++begin)
    if (!std::isspace(static_cast<unsigned char>(*begin)))
      return true;
  return false;
}

std::string parseCSVFile(const std::string &path, CellSink &sink) {
  MappedFile file(path);
  if (!file.opened)
    return path + ": cannot open the file for reading";
  const char *cursor = file.data, *end = file.data + file.size;
  int64_t lineNo = 0;
  // The next line, without its newline; false at the end of the file.
  auto nextLine = [&](Line &line) {
    if (cursor >= end)
      return false;
    const char *newline =
        static_cast<const char *>(std::memchr(cursor, '\n', end - cursor));
    line = {cursor, newline ? newline : end, ++lineNo};
    cursor = newline ? newline + 1 : end;
    return true;
  };

  // The first non-blank line gives the columns (after a header of names).
  int64_t cols = 0;
  Line line{};
  std::vector<double> first;
  bool found = false;
  while (!found && nextLine(line)) {
    if (!hasContent(line.begin, line.end))
      continue;
    cols = 1 + std::count(line.begin, line.end, ',');
    first.assign(cols, 0.0);
    RowProblem problem = parseRow(line.begin, line.end, cols, first.data());
    if (problem.ok()) {
      found = true;
    } else if (line.number != 1) {
      std::string_view text(line.begin, line.end - line.begin);
      std::vector<std::string_view> fields = split(text, ',');
      return located(path, line.number,
                     "column " + std::to_string(problem.badColumn) +
                         ": expected a number, found " +
                         quoted(fields[problem.badColumn - 1]));
    }
  }
  auto finish = [&](int64_t rows, int64_t cols) {
    std::string problem = sink.finish(rows, cols);
    return problem.empty() ? problem : path + ": " + problem;
  };
  if (!found)
    return finish(0, 0);
  std::copy(first.begin(), first.end(), sink.appendRows(1, cols));
  int64_t rows = 1;

  int threads = std::max(1, amls_rt_get_num_threads());
  std::vector<Line> block;
  block.reserve(kBlockRows);
  while (true) {
    block.clear();
    const char *blockBegin = cursor;
    while (static_cast<int64_t>(block.size()) < kBlockRows && nextLine(line))
      if (hasContent(line.begin, line.end))
        block.push_back(line);
    if (block.empty())
      break;
    int64_t count = static_cast<int64_t>(block.size());
    double *out = sink.appendRows(count, cols);
    size_t bytes = static_cast<size_t>(cursor - blockBegin);
    int workers = static_cast<int>(std::min<size_t>(
        threads, std::max<size_t>(1, bytes / kMinBytesPerThread)));
    // Each worker's first failing row (count when none): the earliest in
    // the file is reported.
    std::vector<int64_t> failed(workers, count);
    std::vector<RowProblem> problems(workers);
    auto work = [&](int worker) {
      int64_t from = count * worker / workers;
      int64_t to = count * (worker + 1) / workers;
      for (int64_t i = from; i < to; ++i) {
        RowProblem problem =
            parseRow(block[i].begin, block[i].end, cols, out + i * cols);
        if (!problem.ok()) {
          failed[worker] = i;
          problems[worker] = problem;
          return;
        }
      }
    };
    std::vector<std::thread> pool;
    for (int worker = 1; worker < workers; ++worker)
      pool.emplace_back(work, worker);
    work(0);
    for (std::thread &thread : pool)
      thread.join();
    auto firstFailure = std::min_element(failed.begin(), failed.end());
    if (*firstFailure < count) {
      const Line &bad = block[*firstFailure];
      RowProblem problem = problems[firstFailure - failed.begin()];
      if (problem.badColumn == 0)
        return located(path, bad.number,
                       "expected " + std::to_string(cols) +
                           " values as in the first row, found " +
                           std::to_string(problem.fields));
      std::vector<std::string_view> fields =
          split(std::string_view(bad.begin, bad.end - bad.begin), ',');
      return located(path, bad.number,
                     "column " + std::to_string(problem.badColumn) +
                         ": expected a number, found " +
                         quoted(fields[problem.badColumn - 1]));
    }
    rows += count;
  }
  return finish(rows, cols);
}

} // namespace amls::runtime
