//===- PartitionedRead.cpp - Each rank reads its own rows of a file --------===//
//
// A row-partitioned `amls.read`: every rank maps the file and parses only
// the lines that start in its share of the bytes (no rank reads the whole
// file, nothing is scattered from rank 0); then the parsed rows, or the
// entries of a coordinate file, move to the ranks that hold their rows
// (one all-to-all). A binary file is read at each rank's offset. Lines are
// accepted exactly as the sequential readers accept them (CsvRows.h,
// EntryLines.h), and errors name the file and the line.
//
// The compiled code asks for the block's row count first, then for its
// cells: the block parsed for the count waits here until it is copied.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "../IO/CsvRows.h"
#include "../IO/EntryLines.h"
#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Support/TextParsing.h"
#include "Communication.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

using namespace amls::runtime;
using namespace amls::runtime::distributed;

namespace {

/// A cell of a coordinate file, 0-based, as it travels to its rank.
struct Entry {
  int64_t row, col;
  double value;
};

/// The rank holding row `row` of a matrix of `rows` rows (rowBegin's
/// inverse).
int32_t ownerOf(int64_t row, int64_t rows) {
  int64_t ranks = size();
  int64_t base = rows / ranks, extra = rows % ranks;
  int64_t wide = extra * (base + 1);
  if (row < wide)
    return static_cast<int32_t>(row / (base + 1));
  return static_cast<int32_t>(extra + (row - wide) / base);
}

/// The lines that start in this rank's share of [body, end).
std::pair<const char *, const char *> shareOfLines(const char *body,
                                                   const char *end) {
  auto lineStartAt = [&](int64_t part) {
    const char *cut = body + (end - body) * part / size();
    if (cut == body || cut >= end || cut[-1] == '\n')
      return std::min(cut, end);
    const char *eol =
        static_cast<const char *>(std::memchr(cut, '\n', end - cut));
    return eol ? eol + 1 : end;
  };
  return {lineStartAt(rank()), lineStartAt(rank() + 1)};
}

bool hasContent(const char *begin, const char *end) {
  for (; begin < end; ++begin)
    if (!std::isspace(static_cast<unsigned char>(*begin)))
      return true;
  return false;
}

std::string problemAt(const char *where, const std::string &problem) {
  return where && *where ? std::string(where) + ": " + problem : problem;
}


//===----------------------------------------------------------------------===//
// CSV and binary: rows
//===----------------------------------------------------------------------===//

/// A CSV file's share of this rank: its lines, and where its rows go. The
/// rows are counted first (the compiled code allocates the block), then
/// parsed straight into the block (readCSVShare).
struct CSVShare {
  std::string path;
  std::unique_ptr<entry_lines::MappedFile> file;
  std::vector<std::pair<const char *, const char *>> lines;
  size_t skip = 0;
  int64_t firstLine = 1, cols = 0, mine = 0, myFirstRow = 0, rows = 0;
  std::vector<int64_t> rowCounts;
  int64_t blockRows() const { return rowCount(rows, rank()); }
};

/// Counts this rank's share of the rows of a CSV file.
std::string planCSVShare(const std::string &path, CSVShare &share) {
  share = CSVShare();
  share.path = path;
  share.file = std::make_unique<entry_lines::MappedFile>(path);
  entry_lines::MappedFile &file = *share.file;
  if (!file.base && file.size == 0) {
    std::ifstream probe(path);
    if (!probe)
      return path + ": cannot open the file for reading";
  }
  const char *data = file.base ? file.base : "";
  const char *end = data + file.size;
  auto [begin, stop] = shareOfLines(data, end);
  // The lines of this share, and the share's first line number.
  std::vector<std::pair<const char *, const char *>> &lines = share.lines;
  for (const char *p = begin; p < stop;) {
    const char *eol = static_cast<const char *>(std::memchr(p, '\n', stop - p));
    const char *lineEnd = eol ? eol : stop;
    lines.emplace_back(p, lineEnd);
    p = eol ? eol + 1 : stop;
  }
  std::vector<int64_t> lineCounts = allGather(int64_t(lines.size()));
  int64_t &firstLine = share.firstLine;
  for (int32_t r = 0; r < rank(); ++r)
    firstLine += lineCounts[r];
  // The columns are the first non-blank line's, after a header of names
  // (line 1 when it is not all numbers): the first share that has one
  // says.
  int64_t myCols = -1;
  size_t &skip = share.skip; // A header line of this share.
  for (size_t i = 0; i < lines.size() && myCols < 0; ++i) {
    auto [lb, le] = lines[i];
    if (!hasContent(lb, le))
      continue;
    int64_t cols = 1 + std::count(lb, le, ',');
    std::vector<double> probe(cols);
    if (!parseRow(lb, le, cols, probe.data()).ok() && firstLine + i == 1) {
      skip = 1;
      continue;
    }
    myCols = cols;
  }
  std::vector<int64_t> firstCols = allGather(myCols);
  int64_t &cols = share.cols;
  for (int64_t c : firstCols)
    if (c >= 0) {
      cols = c;
      break;
    }
  // The global index of this share's first row, from the shares' counts
  // of rows (non-blank lines but the header).
  int64_t &mine = share.mine;
  for (size_t i = skip; i < lines.size(); ++i)
    mine += hasContent(lines[i].first, lines[i].second);
  share.rowCounts = allGather(mine);
  const std::vector<int64_t> &rowCounts = share.rowCounts;
  int64_t &rows = share.rows, &myFirstRow = share.myFirstRow;
  for (int32_t r = 0; r < size(); ++r) {
    if (r == rank())
      myFirstRow = rows;
    rows += rowCounts[r];
  }
  return "";
}

/// Parses this rank's share into its block (`rowStride` doubles from one
/// row to the next), and moves the rows at the share's ends to their ranks.
std::string readCSVShare(const CSVShare &share, double *block,
                         int64_t rowStride) {
  const auto &lines = share.lines;
  const std::string &path = share.path;
  size_t skip = share.skip;
  int64_t firstLine = share.firstLine, cols = share.cols, mine = share.mine,
          myFirstRow = share.myFirstRow, rows = share.rows;
  const std::vector<int64_t> &rowCounts = share.rowCounts;
  // Rows parsed straight into their place: this rank's block, or the
  // buffer of the rows that go to the ranks before and after it (the
  // shares of bytes and of rows differ by a few rows at each end).
  int32_t ranks = size();
  int64_t myBegin = rowBegin(rows, rank()), myCount = rowCount(rows, rank());
  // This share's rows [myFirstRow, lowEnd) go to lower ranks, [lowEnd,
  // highBegin) stay, [highBegin, its end) go to higher ranks.
  int64_t shareEnd = myFirstRow + mine;
  auto clamp = [&](int64_t row) {
    return std::min(std::max(row, myFirstRow), shareEnd);
  };
  int64_t lowEnd = clamp(myBegin);
  int64_t highBegin = std::max(lowEnd, clamp(myBegin + myCount));
  int64_t below = lowEnd - myFirstRow;
  auto outgoingRow = [&](int64_t row) {
    return row < lowEnd ? row - myFirstRow : below + row - highBegin;
  };
  std::vector<double> outgoing((below + shareEnd - highBegin) * cols);
  int64_t row = myFirstRow;
  for (size_t i = skip; i < lines.size(); ++i) {
    auto [lb, le] = lines[i];
    if (!hasContent(lb, le))
      continue;
    double *into = row >= lowEnd && row < highBegin
                       ? block + (row - myBegin) * rowStride
                       : outgoing.data() + outgoingRow(row) * cols;
    RowProblem problem = parseRow(lb, le, cols, into);
    if (!problem.ok()) {
      int64_t line = firstLine + static_cast<int64_t>(i);
      if (problem.badColumn == 0)
        return located(path, line,
                       "expected " + std::to_string(cols) +
                           " values as in the first row, found " +
                           std::to_string(problem.fields));
      return located(path, line,
                     "column " + std::to_string(problem.badColumn) +
                         ": expected a number");
    }
    ++row;
  }
  // The rows that move: every rank knows every share's rows, so the
  // counts need no exchange, and nothing moves when the shares align.
  std::vector<int64_t> sendCounts(ranks, 0), sendOffsets(ranks, 0),
      receiveCounts(ranks, 0), receiveOffsets(ranks, 0);
  bool moves = false;
  int64_t from = 0;
  for (int32_t r = 0; r < ranks; ++r) {
    int64_t holderBegin = rowBegin(rows, r);
    int64_t holderEnd = holderBegin + rowCount(rows, r);
    if (r != rank()) {
      int64_t lo = std::max(myFirstRow, holderBegin);
      int64_t hi = std::min(shareEnd, holderEnd);
      if (hi > lo) {
        sendOffsets[r] = outgoingRow(lo) * cols * 8;
        sendCounts[r] = (hi - lo) * cols * 8;
      }
      lo = std::max(from, myBegin);
      hi = std::min(from + rowCounts[r], myBegin + myCount);
      if (hi > lo) {
        receiveOffsets[r] = (lo - myBegin) * rowStride * 8;
        receiveCounts[r] = (hi - lo) * cols * 8;
        // Rows arrive contiguous: a padded block takes them in order.
        if (rowStride != cols && hi - lo > 1)
          return path + ": a distributed read needs its block's rows "
                        "contiguous";
      }
    }
    // Whether any rank's share of rows differs from its block.
    moves |= from != holderBegin || rowCounts[r] != holderEnd - holderBegin;
    from += rowCounts[r];
  }
  if (moves)
    allToAll(outgoing.data(), sendCounts, sendOffsets, block, receiveCounts,
             receiveOffsets);
  return "";
}

/// This rank's rows of a CSV file as a matrix.
std::string readCSVBlock(const std::string &path, Matrix &result) {
  CSVShare share;
  if (std::string error = planCSVShare(path, share); !error.empty())
    return error;
  result = Matrix();
  result.rows = share.blockRows();
  result.cols = share.cols;
  result.data.resize(result.rows * result.cols);
  return readCSVShare(share, result.data.data(), result.cols);
}

/// This rank's rows of a binary matrix file, at their offset.
std::string readBinaryBlock(const std::string &path, Matrix &result) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open the file for reading";
  int64_t rows = 0, cols = 0;
  if (std::string error = readBinaryHeader(path, in, rows, cols);
      !error.empty())
    return error;
  int64_t begin = rowBegin(rows, rank()), count = rowCount(rows, rank());
  result = Matrix();
  result.rows = count;
  result.cols = cols;
  result.data.assign(count * cols, 0.0);
  in.seekg(static_cast<std::streamoff>(24 + begin * cols * 8));
  if (count * cols &&
      !in.read(reinterpret_cast<char *>(result.data.data()),
               static_cast<std::streamsize>(count * cols * 8)))
    return path + ": expected " + std::to_string(rows * cols) +
           " cells, found fewer";
  return "";
}

//===----------------------------------------------------------------------===//
// Matrix Market and text-cell: entries
//===----------------------------------------------------------------------===//

/// This rank's rows of a coordinate file as a CSR block: its share of the
/// entry lines parsed, each entry sent to the rank holding its row, then
/// the sequential reader's rules (a row's entries by column, the last
/// assignment of a cell winning, zeros dropped).
std::string readCoordinateBlock(const std::string &path, FileFormat format,
                                StatedShape stated, CsrMatrix &result) {
  int64_t rows = 0, cols = 0, stated_entries = -1;
  bool pattern = false;
  std::string symmetry = "general";
  std::streamoff start = 0;
  int64_t headerLines = 0;
  if (format == AMLS_FILE_MATRIX_MARKET) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return path + ": cannot open the file for reading";
    MatrixMarketHeader header;
    std::string error = parseMatrixMarketHeader(in, path, header, headerLines);
    if (!error.empty())
      return error;
    if (!header.coordinate)
      return path + ": a distributed read takes Matrix Market coordinate "
                    "files; this one is an array (write it as coordinate or "
                    "CSV)";
    rows = header.rows;
    cols = header.cols;
    stated_entries = header.entries;
    pattern = header.field == "pattern";
    symmetry = header.symmetry;
    start = in.tellg();
  } else {
    std::string error = textFileShape(path, stated.rows, stated.cols, rows, cols);
    if (!error.empty())
      return error;
  }
  entry_lines::MappedFile file(path);
  const char *data = file.base ? file.base : "";
  const char *end = data + file.size;
  const char *body = data + std::min<size_t>(start, file.size);
  auto [begin, stop] = shareOfLines(body, end);
  // Most entries of a file listed by row belong to the rank that parses
  // them: those stay in `mine` (reserved, so that it never grows by
  // copying), the few others go out in one all-to-all.
  int32_t ranks = size(), me = rank();
  int64_t firstRow = rowBegin(rows, me);
  int64_t localRows = rowCount(rows, me);
  bool mirrors = symmetry != "general";
  std::vector<Entry> mine;
  // At most one entry (two, mirrored) per 6 bytes ("1 1 1\n"): reserved,
  // not touched.
  mine.reserve((stop - begin) / 6 * (mirrors ? 2 : 1) + 1);
  std::vector<std::vector<Entry>> outgoing(ranks);
  auto route = [&](int64_t r, int64_t c, double v) {
    if (r - firstRow >= 0 && r - firstRow < localRows)
      mine.push_back({r, c, v});
    else
      outgoing[ownerOf(r, rows)].push_back({r, c, v});
  };
  int64_t listed = 0, lineIndex = 0;
  std::string problem;
  for (const char *p = begin; p < stop && problem.empty(); ++lineIndex) {
    const char *lineBegin = p;
    int64_t r = 0, c = 0;
    double v = 0;
    entry_lines::Line kind = entry_lines::parseLine(p, stop, pattern, r, c, v);
    if (kind == entry_lines::Line::Skipped)
      continue;
    if (kind == entry_lines::Line::Unsupported || r < 1 || c < 1 || r > rows ||
        c > cols) {
      const char *eol = static_cast<const char *>(
          std::memchr(lineBegin, '\n', stop - lineBegin));
      std::string text(lineBegin, eol ? eol : stop);
      problem = kind == entry_lines::Line::Unsupported
                    ? "expected an entry '<row> <column>" +
                          std::string(pattern ? "" : " <value>") +
                          "', found " + quoted(text)
                    : "the entry " + quoted(text) + " lies outside the " +
                          std::to_string(rows) + "x" + std::to_string(cols) +
                          " matrix";
      break;
    }
    ++listed;
    route(r - 1, c - 1, v);
    if (mirrors && r != c)
      route(c - 1, r - 1, symmetry == "skew-symmetric" ? -v : v);
  }
  // Line numbers only for a message: this share's first line follows the
  // header and the lines of the shares before it.
  if (!problem.empty())
    return located(path,
                   headerLines + 1 + std::count(body, begin, '\n') + lineIndex,
                   problem);
  if (stated_entries >= 0) {
    int64_t total = allReduceSum(listed);
    if (total != stated_entries)
      return path + ": expected " + std::to_string(stated_entries) +
             " entries as the size line states, found " + std::to_string(total);
  }
  // Counts first, then the entries (none to this rank itself).
  std::vector<int64_t> sendCounts(ranks), sendOffsets(ranks),
      receiveOffsets(ranks);
  std::vector<Entry> flat;
  for (int32_t r = 0; r < ranks; ++r) {
    sendOffsets[r] = static_cast<int64_t>(flat.size() * sizeof(Entry));
    sendCounts[r] = static_cast<int64_t>(outgoing[r].size() * sizeof(Entry));
    flat.insert(flat.end(), outgoing[r].begin(), outgoing[r].end());
    std::vector<Entry>().swap(outgoing[r]);
  }
  std::vector<int64_t> receiveCounts = exchangeCounts(sendCounts);
  int64_t incoming = 0, fromLower = 0;
  for (int32_t r = 0; r < ranks; ++r) {
    receiveOffsets[r] = incoming;
    incoming += receiveCounts[r];
    if (r < me)
      fromLower = incoming / sizeof(Entry);
  }
  std::vector<Entry> received(incoming / sizeof(Entry));
  allToAll(flat.data(), sendCounts, sendOffsets, received.data(),
           receiveCounts, receiveOffsets);
  std::vector<Entry>().swap(flat);
  // File order: the entries of the lower ranks' shares, this share's, the
  // higher ranks'. A counting sort by row keeps that order within each
  // row, straight into the CSR arrays.
  auto inFileOrder = [&](auto &&visit) {
    for (int64_t k = 0; k < fromLower; ++k)
      visit(received[k]);
    for (const Entry &e : mine)
      visit(e);
    for (size_t k = fromLower; k < received.size(); ++k)
      visit(received[k]);
  };
  result = CsrMatrix();
  result.rows = localRows;
  result.cols = cols;
  auto &rowptr = result.rowptr;
  auto &colidx = result.colidx;
  auto &values = result.values;
  rowptr.assign(localRows + 1, 0);
  inFileOrder([&](const Entry &e) { ++rowptr[e.row - firstRow + 1]; });
  for (int64_t r = 0; r < localRows; ++r)
    rowptr[r + 1] += rowptr[r];
  colidx.resize(rowptr[localRows]);
  values.resize(rowptr[localRows]);
  {
    std::vector<int64_t> next(rowptr.begin(), rowptr.end() - 1);
    inFileOrder([&](const Entry &e) {
      int64_t k = next[e.row - firstRow]++;
      colidx[k] = static_cast<int32_t>(e.col);
      values[k] = e.value;
    });
  }
  std::vector<Entry>().swap(mine);
  std::vector<Entry>().swap(received);
  // A row's entries sorted stably by column where they are not already (a
  // file listed by row: no work), so that the last assignment of a cell
  // comes last and wins; zeros dropped. In place: a row moves only left.
  std::vector<std::pair<int32_t, double>> unsorted;
  auto byColumn = [](const auto &a, const auto &b) { return a.first < b.first; };
  int64_t kept = 0;
  for (int64_t r = 0; r < localRows; ++r) {
    int64_t first = rowptr[r], last = rowptr[r + 1];
    if (!std::is_sorted(colidx.begin() + first, colidx.begin() + last)) {
      unsorted.clear();
      for (int64_t k = first; k < last; ++k)
        unsorted.emplace_back(colidx[k], values[k]);
      std::stable_sort(unsorted.begin(), unsorted.end(), byColumn);
      for (int64_t k = first; k < last; ++k)
        std::tie(colidx[k], values[k]) = unsorted[k - first];
    }
    rowptr[r] = kept;
    for (int64_t k = first; k < last; ++k) {
      if (k + 1 < last && colidx[k + 1] == colidx[k])
        continue; // A later assignment of the cell wins.
      if (values[k] == 0.0)
        continue;
      colidx[kept] = colidx[k];
      values[kept] = values[k];
      ++kept;
    }
  }
  rowptr[localRows] = kept;
  colidx.resize(kept);
  values.resize(kept);
  return "";
}

/// This rank's rows of `path` as a dense block, any format.
std::string readDenseBlock(const std::string &path, FileFormat format,
                           StatedShape stated, Matrix &result) {
  if (format == AMLS_FILE_CSV)
    return readCSVBlock(path, result);
  if (format == AMLS_FILE_BINARY)
    return readBinaryBlock(path, result);
  CsrMatrix csr;
  std::string error = readCoordinateBlock(path, format, stated, csr);
  if (!error.empty())
    return error;
  result = Matrix();
  result.rows = csr.rows;
  result.cols = csr.cols;
  result.data.assign(csr.rows * csr.cols, 0.0);
  for (int64_t r = 0; r < csr.rows; ++r)
    for (int64_t k = csr.rowptr[r]; k < csr.rowptr[r + 1]; ++k)
      result.at(r, csr.colidx[k]) = csr.values[k];
  return "";
}

/// A read between the compiled code's question for its row count and the
/// one for its cells.
struct PendingBlock {
  std::mutex mutex;
  std::string path;
  /// A CSV file's counted share (parsed into the compiled code's buffer),
  /// or the block of any other format.
  std::unique_ptr<CSVShare> csv;
  Matrix block;
};

PendingBlock &pending() {
  static PendingBlock instance;
  return instance;
}

} // namespace

extern "C" int64_t amls_rt_dist_file_rows(const char *path, int32_t format,
                                          int64_t rows, int64_t cols,
                                          const char *where) {
  std::string error;
  int64_t count = 0;
  {
    PendingBlock &p = pending();
    std::lock_guard<std::mutex> guard(p.mutex);
    p.path = path;
    p.csv.reset();
    p.block = Matrix();
    auto fileFormat = static_cast<FileFormat>(format);
    if (fileFormat == AMLS_FILE_CSV) {
      // Counted now, parsed into the compiled code's buffer later.
      p.csv = std::make_unique<CSVShare>();
      error = planCSVShare(path, *p.csv);
      count = p.csv->blockRows();
    } else {
      error = readDenseBlock(path, fileFormat, StatedShape{rows, cols},
                             p.block);
      count = p.block.rows;
    }
    if (!error.empty())
      p.path.clear();
  }
  if (!error.empty())
    fail(problemAt(where, error));
  return count;
}

extern "C" int64_t amls_rt_dist_file_cols(const char *path, int32_t format,
                                          int64_t rows, int64_t cols,
                                          const char *where) {
  PendingBlock &p = pending();
  std::lock_guard<std::mutex> guard(p.mutex);
  if (p.path != path)
    fail(problemAt(where, std::string(path) +
                              ": its columns were asked for before its rows"));
  return p.csv ? p.csv->cols : p.block.cols;
}

extern "C" void _mlir_ciface_amls_rt_dist_read(AmlsMatrixF64 *dest,
                                               const char *path, int32_t,
                                               const char *where) {
  PendingBlock &p = pending();
  std::string error;
  {
    std::lock_guard<std::mutex> guard(p.mutex);
    int64_t rows = p.csv ? p.csv->blockRows() : p.block.rows;
    int64_t cols = p.csv ? p.csv->cols : p.block.cols;
    double *cells = dest->aligned + dest->offset;
    if (p.path != path || rows != dest->sizes[0] || cols != dest->sizes[1]) {
      error = std::string(path) + ": the block read differs from its sizes";
    } else if (p.csv && dest->strides[1] == 1 && dest->strides[0] == cols) {
      // (The same on every rank: each makes the same collectives.)
      error = readCSVShare(*p.csv, cells, cols);
    } else {
      if (p.csv) {
        error = readCSVBlock(path, p.block);
        p.csv.reset();
      }
      if (error.empty())
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            cells[r * dest->strides[0] + c * dest->strides[1]] =
                p.block.at(r, c);
    }
    p.csv.reset();
    p.block = Matrix();
    p.path.clear();
  }
  if (!error.empty())
    fail(problemAt(where, error));
}

extern "C" void *amls_rt_dist_csr_read(const char *path, int32_t format,
                                       int64_t rows, int64_t cols,
                                       const char *where) {
  auto fileFormat = static_cast<FileFormat>(format);
  auto *csr = new CsrMatrix();
  std::string error;
  if (fileFormat == AMLS_FILE_MATRIX_MARKET || fileFormat == AMLS_FILE_TEXT) {
    error = readCoordinateBlock(path, fileFormat, StatedShape{rows, cols}, *csr);
  } else {
    Matrix dense;
    error = readDenseBlock(path, fileFormat, StatedShape{rows, cols}, dense);
    if (error.empty()) {
      csr->rows = dense.rows;
      csr->cols = dense.cols;
      csr->rowptr.assign(dense.rows + 1, 0);
      for (int64_t r = 0; r < dense.rows; ++r) {
        for (int64_t c = 0; c < dense.cols; ++c)
          if (double v = dense.at(r, c); v != 0.0) {
            csr->colidx.push_back(static_cast<int32_t>(c));
            csr->values.push_back(v);
          }
        csr->rowptr[r + 1] = static_cast<int64_t>(csr->values.size());
      }
    }
  }
  if (!error.empty()) {
    delete csr;
    fail(problemAt(where, error));
  }
  return csr;
}
