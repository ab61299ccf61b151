//===- MatrixIO.cpp - Reading, writing and printing matrices --------------===//

#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/Memory.h"
#include "MatrixCells.h"
#include "AMLS/Support/TextParsing.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace amls::runtime {

FileFormat formatForPath(std::string_view path) {
  auto endsWith = [&](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.substr(path.size() - suffix.size()) == suffix;
  };
  if (endsWith(".mtx") || endsWith(".mm"))
    return AMLS_FILE_MATRIX_MARKET;
  if (endsWith(".bin"))
    return AMLS_FILE_BINARY;
  return AMLS_FILE_CSV;
}

std::string readBinaryHeader(const std::string &path, std::istream &in,
                             int64_t &rows, int64_t &cols) {
  char magic[8];
  int64_t sizes[2];
  if (!in.read(magic, sizeof(magic)) ||
      !std::equal(magic, magic + 8, kBinaryMatrixMagic))
    return path + ": expected a binary matrix starting with 'AMLSMAT1'";
  if (!in.read(reinterpret_cast<char *>(sizes), sizeof(sizes)) ||
      sizes[0] < 0 || sizes[1] < 0 ||
      (sizes[1] && sizes[0] > INT64_MAX / 8 / sizes[1]))
    return path + ": expected the row and column counts after the header";
  rows = sizes[0];
  cols = sizes[1];
  return "";
}

namespace {

/// A problem reported by a sink, located in the file `path`.
std::string sinkProblem(const std::string &path, const std::string &problem) {
  return problem.empty() ? problem : path + ": " + problem;
}

/// `<row> <col>[ <value>]` of a coordinate entry without a stream: files
/// of millions of entries spend most of their reading time constructing
/// an istringstream per line. False where the fast path does not apply
/// (the stream then parses the line, with the same results and errors; a
/// field after the last is an error).
bool parseCoordinateFast(const std::string &line, bool pattern, int64_t &r,
                         int64_t &c, double &value) {
  const char *p = line.data(), *end = p + line.size();
  auto skipSpace = [&] {
    while (p < end && (*p == ' ' || *p == '\t'))
      ++p;
  };
  auto integer = [&](int64_t &out) {
    skipSpace();
    auto [next, ec] = std::from_chars(p, end, out);
    if (ec != std::errc() || (next < end && *next != ' ' && *next != '\t'))
      return false;
    p = next;
    return true;
  };
  if (!integer(r) || !integer(c))
    return false;
  if (pattern)
    return true;
  skipSpace();
  if (p < end && *p == '+')
    ++p;
  auto [next, ec] = std::from_chars(p, end, value);
  if (ec != std::errc())
    return false;
  // Nothing may follow the value but blanks (the slow path rejects it).
  for (p = next; p < end; ++p)
    if (*p != ' ' && *p != '\t' && *p != '\r')
      return false;
  return true;
}

/// The coordinate entries "<row> <col>[ <value>]" (1-based) that follow
/// line `lineNo` of `in`: `expected` of them, or up to the end of the file
/// when `expected` is negative (a text-cell file). Blank lines and '%'
/// comments are skipped. The one sequential parser of Matrix Market
/// coordinate entries and of SystemDS's text-cell lines.
std::string parseCoordinateEntries(const std::string &path, std::istream &in,
                                   int64_t lineNo, int64_t rows, int64_t cols,
                                   int64_t expected, bool pattern,
                                   const std::string &symmetry,
                                   CellSink &sink) {
  std::string line;
  bool symmetric = symmetry != "general";
  double mirrorSign = symmetry == "skew-symmetric" ? -1.0 : 1.0;
  for (int64_t k = 0; expected < 0 || k < expected; ++k) {
    if (!nextMatrixMarketLine(in, line, lineNo)) {
      if (expected < 0)
        break;
      return located(path, lineNo + 1,
                     "expected " + std::to_string(expected) +
                         " entries, found " + std::to_string(k));
    }
    int64_t r, c;
    double value = 1.0;
    auto parseSlowly = [&] {
      std::istringstream entry(line);
      std::string rest;
      return (entry >> r >> c) && (pattern || (entry >> value)) &&
             !(entry >> rest);
    };
    if (!parseCoordinateFast(line, pattern, r, c, value) && !parseSlowly())
      return located(path, lineNo,
                     std::string("expected '<row> <col>") +
                         (pattern ? "'" : " <value>'") + ", found " +
                         quoted(line));
    if (r < 1 || r > rows || c < 1 || c > cols)
      return located(path, lineNo,
                     "entry (" + std::to_string(r) + ", " + std::to_string(c) +
                         ") is outside the " + std::to_string(rows) + "x" +
                         std::to_string(cols) + " matrix");
    sink.assign(r - 1, c - 1, value);
    if (symmetric && r != c)
      sink.assign(c - 1, r - 1, mirrorSign * value);
  }
  return sinkProblem(path, sink.finish(rows, cols));
}

std::string parseMatrixMarket(const std::string &path, std::istream &in,
                              CellSink &sink) {
  MatrixMarketHeader header;
  int64_t lineNo = 0;
  std::string error = parseMatrixMarketHeader(in, path, header, lineNo);
  if (!error.empty())
    return error;
  int64_t rows = header.rows, cols = header.cols;
  error = sinkProblem(path, sink.setShape(rows, cols, header.coordinate));
  if (!error.empty())
    return error;
  if (header.coordinate)
    return parseCoordinateEntries(path, in, lineNo, rows, cols, header.entries,
                                  header.field == "pattern", header.symmetry,
                                  sink);
  std::string line;
  int64_t expected = rows * cols;
  for (int64_t k = 0; k < expected; ++k) {
    if (!nextMatrixMarketLine(in, line, lineNo))
      return located(path, lineNo + 1,
                     "expected " + std::to_string(expected) +
                         " entries, found " + std::to_string(k));
    std::istringstream entry(line);
    double value;
    if (!(entry >> value))
      return located(path, lineNo, "expected a number, found " + quoted(line));
    // Array layout lists the cells column by column.
    sink.assign(k % rows, k / rows, value);
  }
  return sinkProblem(path, sink.finish(rows, cols));
}

/// SystemDS's text-cell format: Matrix Market coordinate entries without
/// the header, the sizes from the .mtd file or the read.
std::string parseTextCells(const std::string &path, std::istream &in,
                           StatedShape stated, CellSink &sink) {
  int64_t rows = 0, cols = 0;
  std::string error = textFileShape(path, stated.rows, stated.cols, rows, cols);
  if (!error.empty())
    return error;
  error = sinkProblem(path, sink.setShape(rows, cols, /*reassigns=*/true));
  if (!error.empty())
    return error;
  return parseCoordinateEntries(path, in, 0, rows, cols, -1, false, "general",
                                sink);
}

std::string parseBinary(const std::string &path, std::istream &in,
                        CellSink &sink) {
  int64_t rows = 0, cols = 0;
  if (std::string error = readBinaryHeader(path, in, rows, cols);
      !error.empty())
    return error;
  std::string error = sinkProblem(path, sink.setShape(rows, cols, false));
  if (!error.empty())
    return error;
  // Rows in chunks of about 8 MiB, read straight into the sink's memory.
  constexpr int64_t kChunkCells = int64_t(1) << 20;
  int64_t chunkRows =
      std::max<int64_t>(1, kChunkCells / std::max<int64_t>(cols, 1));
  for (int64_t r = 0; r < rows; r += chunkRows) {
    int64_t count = std::min(chunkRows, rows - r);
    auto bytes = static_cast<std::streamsize>(count * cols * 8);
    if (!in.read(reinterpret_cast<char *>(sink.appendRows(count, cols)), bytes))
      return path + ": expected " + std::to_string(rows * cols) +
             " cells, found fewer";
  }
  return sinkProblem(path, sink.finish(rows, cols));
}

/// Builds a dense Matrix.
class DenseSink : public CellSink {
public:
  explicit DenseSink(Matrix &result) : result(result) { result = Matrix(); }

  std::string setShape(int64_t rows, int64_t cols, bool) override {
    // Refused before allocating: a header's sizes may be anything.
    double bytes = 8.0 * static_cast<double>(rows) * static_cast<double>(cols);
    if (bytes > static_cast<double>(memory::getLimit())) {
      char text[256];
      std::snprintf(text, sizeof(text),
                    "a dense %lldx%lld matrix needs %.0f bytes, more than the "
                    "memory limit of %llu bytes (amls-run --memory-limit)",
                    static_cast<long long>(rows), static_cast<long long>(cols),
                    bytes, static_cast<unsigned long long>(memory::getLimit()));
      return text;
    }
    result.rows = rows;
    result.cols = cols;
    result.data.assign(rows * cols, 0.0);
    return "";
  }
  double *appendRows(int64_t count, int64_t cols) override {
    auto needed = static_cast<size_t>((appended + count) * cols);
    if (needed > result.data.size())
      result.data.resize(needed);
    double *cells = result.data.data() + appended * cols;
    appended += count;
    return cells;
  }
  void assign(int64_t r, int64_t c, double value) override {
    result.data[r * result.cols + c] = value;
  }
  std::string finish(int64_t rows, int64_t cols) override {
    result.rows = rows;
    result.cols = cols;
    return "";
  }

private:
  Matrix &result;
  int64_t appended = 0;
};

/// Writes into a buffer whose sizes were taken from the file's metadata.
/// Row-major formats are parsed straight into it when its rows are
/// contiguous, through a block of staged rows otherwise.
class SpanSink : public CellSink {
public:
  explicit SpanSink(const MatrixSpan &dest) : dest(dest) {}

  std::string setShape(int64_t rows, int64_t cols, bool reassigns) override {
    if (std::string problem = checkShape(rows, cols); !problem.empty())
      return problem;
    // Listed formats leave out zeros: every cell starts as one.
    if (reassigns)
      for (int64_t r = 0; r < dest.rows; ++r)
        for (int64_t c = 0; c < dest.cols; ++c)
          cell(r, c) = 0.0;
    return "";
  }
  double *appendRows(int64_t count, int64_t cols) override {
    flushStaged();
    if (cols != dest.cols || appended + count > dest.rows) {
      // More rows than the metadata said: parsed into scratch, reported by
      // finish().
      overflow = true;
      staged.assign(static_cast<size_t>(count * cols), 0.0);
      stagedCount = 0;
      return staged.data();
    }
    int64_t first = appended;
    appended += count;
    if (dest.colStride == 1 && (dest.rowStride == dest.cols || count == 1))
      return &cell(first, 0);
    staged.assign(static_cast<size_t>(count * cols), 0.0);
    stagedFirst = first;
    stagedCount = count;
    return staged.data();
  }
  void assign(int64_t r, int64_t c, double value) override {
    cell(r, c) = value;
  }
  std::string finish(int64_t rows, int64_t cols) override {
    flushStaged();
    return overflow ? overflowProblem(cols) : checkShape(rows, cols);
  }

private:
  double &cell(int64_t r, int64_t c) {
    return dest.data[r * dest.rowStride + c * dest.colStride];
  }
  void flushStaged() {
    for (int64_t i = 0; i < stagedCount; ++i)
      for (int64_t c = 0; c < dest.cols; ++c)
        cell(stagedFirst + i, c) = staged[i * dest.cols + c];
    stagedCount = 0;
  }
  std::string checkShape(int64_t rows, int64_t cols) const {
    if (rows == dest.rows && cols == dest.cols)
      return "";
    return "the file changed while it was read: it has " +
           std::to_string(rows) + "x" + std::to_string(cols) +
           " cells, expected " + std::to_string(dest.rows) + "x" +
           std::to_string(dest.cols);
  }
  std::string overflowProblem(int64_t cols) const {
    return "the file changed while it was read: it has more than " +
           std::to_string(dest.rows) + " rows of " + std::to_string(cols) +
           " cells, expected " + std::to_string(dest.rows) + "x" +
           std::to_string(dest.cols);
  }

  MatrixSpan dest;
  int64_t appended = 0;
  std::vector<double> staged;
  int64_t stagedFirst = 0, stagedCount = 0;
  bool overflow = false;
};

/// The cells of a strided dense view.
class DenseSource : public CellSource {
public:
  explicit DenseSource(const MatrixView &m)
      : CellSource(m.rows, m.cols), m(m) {}

  void row(int64_t r, double *cells) const override {
    for (int64_t c = 0; c < cols; ++c)
      cells[c] = m.at(r, c);
  }
  int64_t nonZeros(int64_t r, int64_t *columns, double *values) const override {
    int64_t count = 0;
    for (int64_t c = 0; c < cols; ++c) {
      double value = m.at(r, c);
      if (value != 0.0) {
        columns[count] = c;
        values[count++] = value;
      }
    }
    return count;
  }
  double at(int64_t r, int64_t c) const override { return m.at(r, c); }

private:
  MatrixView m;
};

} // namespace

std::string parseMatrixFile(const std::string &path, FileFormat format,
                            CellSink &sink, StatedShape stated) {
  if (format == AMLS_FILE_CSV)
    return parseCSVFile(path, sink);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open the file for reading";
  if (format == AMLS_FILE_MATRIX_MARKET)
    return parseMatrixMarket(path, in, sink);
  if (format == AMLS_FILE_TEXT)
    return parseTextCells(path, in, stated, sink);
  return parseBinary(path, in, sink);
}

std::string readMatrix(const std::string &path, FileFormat format,
                       Matrix &result, StatedShape stated) {
  DenseSink sink(result);
  std::string error = parseMatrixFile(path, format, sink, stated);
  if (!error.empty())
    result = Matrix();
  return error;
}

std::string readMatrixInto(const std::string &path, FileFormat format,
                           const MatrixSpan &dest) {
  SpanSink sink(dest);
  return parseMatrixFile(path, format, sink, {dest.rows, dest.cols});
}

std::string writeMatrix(const std::string &path, FileFormat format,
                        const MatrixView &m, MatrixMarketLayout layout) {
  return writeCells(path, format, DenseSource(m), layout);
}

std::string writeMatrixPart(const std::string &path, FileFormat format,
                            const MatrixView &block, const FilePart &part) {
  return writeCells(path, format, DenseSource(block),
                    MatrixMarketLayout::Coordinate, &part);
}

/// toString shows at most this many rows and columns.
constexpr int64_t kMaxShownCells = 100;

std::string formatMatrix(const MatrixView &m) {
  std::string text;
  char buffer[64];
  for (int64_t r = 0; r < std::min(m.rows, kMaxShownCells); ++r) {
    for (int64_t c = 0; c < std::min(m.cols, kMaxShownCells); ++c) {
      if (c)
        text += ' ';
      double value = m.at(r, c);
      if (std::isnan(value))
        text += "NaN";
      else if (std::isinf(value))
        text += value > 0 ? "Infinity" : "-Infinity";
      else {
        std::snprintf(buffer, sizeof(buffer), "%.3f", value);
        text += buffer;
      }
    }
    text += '\n';
  }
  return text;
}

std::string formatMatrix(const CsrMatrixView &m) {
  Matrix shown;
  shown.rows = std::min(m.rows, kMaxShownCells);
  shown.cols = std::min(m.cols, kMaxShownCells);
  shown.data.assign(shown.rows * shown.cols, 0.0);
  for (int64_t r = 0; r < shown.rows; ++r)
    for (int64_t k = m.rowptr[r];
         k < m.rowptr[r + 1] && m.colidx[k] < shown.cols; ++k)
      shown.at(r, m.colidx[k]) = m.values[k];
  return formatMatrix(MatrixView::of(shown));
}

std::string formatScalar(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "Infinity" : "-Infinity";
  double magnitude = std::fabs(value);
  char buffer[64];
  // Java's Double.toString: plain decimals in [1e-3, 1e7), else d.dddE<n>.
  if (magnitude == 0.0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
    auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                      std::chars_format::fixed);
    std::string text(buffer, end);
    if (text.find('.') == std::string::npos)
      text += ".0";
    return text;
  }
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                    std::chars_format::scientific);
  std::string text(buffer, end);
  size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  int exponent = std::atoi(text.c_str() + e + 1);
  if (mantissa.find('.') == std::string::npos)
    mantissa += ".0";
  return mantissa + "E" + std::to_string(exponent);
}

} // namespace amls::runtime
