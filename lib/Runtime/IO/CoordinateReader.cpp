//===- CoordinateReader.cpp - Matrix Market coordinate files in parallel --===//
//
// A coordinate Matrix Market file, or a SystemDS text-cell file (the same
// entry lines without the header, any number of them), read into CSR by
// all threads from a mapping of the file, cut into one part per thread at line
// boundaries. The result is the sequential reader's (SparseIO.cpp's CsrSink): a
// row's entries in file order, the last assignment of a cell winning, zeros
// dropped last. Two routes:
//  - a general file listed by row (what scipy, AMLS and most writers
//    produce) is parsed straight into the CSR arrays: each part fills its
//    own range of them, sized by its line count, and sets the row pointers
//    of the rows it starts. No entry is stored twice.
//  - any other order, and symmetric files (whose mirrored entries are out
//    of order), are parsed into per-part entry lists and placed by a
//    counting sort over the rows.
// A line the fast parser does not take, an entry outside the matrix or a
// wrong entry count leaves everything to the sequential reader, which
// reports the errors with their line.
//
//===----------------------------------------------------------------------===//

#include "CoordinateReader.h"
#include "EntryLines.h"

#include "../Kernels/SparseSupport.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <memory>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace amls::runtime;
using namespace amls::runtime::entry_lines;

namespace {

//===----------------------------------------------------------------------===//
// The file, its parts and the result
//===----------------------------------------------------------------------===//

/// One thread's share of the entry lines: [begin, end), and an upper bound
/// on the entries in it (its lines).
struct Part {
  const char *begin, *end;
  int64_t lines;
};

/// The '\n' in [p, end), eight bytes at a time.
int64_t countNewlines(const char *p, const char *end) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  int64_t count = 0;
  for (; end - p >= 8; p += 8) {
    uint64_t chunk;
    std::memcpy(&chunk, p, 8);
    uint64_t x = chunk ^ 0x0A0A0A0A0A0A0A0AULL;
    // The high bit of each byte of x that is zero, and only those.
    uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);
    // One bit per byte, summed into the top byte (at most 8).
    count += static_cast<int64_t>(((zero >> 7) * 0x0101010101010101ULL) >> 56);
  }
  return count + std::count(p, end, '\n');
}

/// Cuts [body, end) at line boundaries into about equal parts, one per
/// thread, and counts the lines of each.
std::vector<Part> cutIntoParts(const char *body, const char *end) {
  int64_t count = sparse::threadsFor(end - body, int64_t(1) << 18);
  std::vector<Part> parts(count, Part{end, end, 0});
  const char *from = body;
  for (int64_t t = 0; t < count; ++t) {
    const char *cut = body + (end - body) * (t + 1) / count;
    cut = std::max(cut, from);
    const char *eol =
        t + 1 < count
            ? static_cast<const char *>(std::memchr(cut, '\n', end - cut))
            : nullptr;
    parts[t].begin = from;
    parts[t].end = eol ? eol + 1 : end;
    from = parts[t].end;
  }
  sparse::runThreads(count, [&](int64_t t) {
    Part &part = parts[t];
    int64_t lines = countNewlines(part.begin, part.end);
    if (part.end > part.begin && part.end[-1] != '\n')
      ++lines;
    part.lines = lines;
  });
  return parts;
}

/// A row's entries [begin, end), in file order, sorted stably by
/// column, the last assignment of a column kept, zeros dropped, as
/// CsrSink::buildFromEntries does; returns the entries kept, from `begin`.
int64_t settleRow(int32_t *colidx, double *values, int64_t begin, int64_t end) {
  bool clean = true;
  for (int64_t k = begin; k < end && clean; ++k)
    clean = values[k] != 0.0 && (k == begin || colidx[k - 1] < colidx[k]);
  if (clean)
    return end - begin;
  std::vector<std::pair<int32_t, double>> entries;
  for (int64_t k = begin; k < end; ++k)
    entries.emplace_back(colidx[k], values[k]);
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const auto &x, const auto &y) { return x.first < y.first; });
  int64_t kept = begin;
  for (size_t e = 0; e < entries.size(); ++e) {
    if (e + 1 < entries.size() && entries[e + 1].first == entries[e].first)
      continue;
    if (entries[e].second != 0.0) {
      colidx[kept] = entries[e].first;
      values[kept++] = entries[e].second;
    }
  }
  return kept - begin;
}

/// Sorts every row of `m` by column, keeping the last assignment of a
/// cell and dropping zeros (usually nothing to do), then moves the rows
/// together where one lost entries.
void settleRows(CsrMatrix &m, int64_t threads) {
  int64_t rows = m.rows;
  int64_t *rowptr = m.rowptr.data();
  int32_t *colidx = m.colidx.data();
  double *values = m.values.data();
  memory::Vector<int64_t> kept(rows);
  sparse::runThreads(threads, [&](int64_t t) {
    for (int64_t r = rows * t / threads; r < rows * (t + 1) / threads; ++r)
      kept[r] = settleRow(colidx, values, rowptr[r], rowptr[r + 1]);
  });
  int64_t written = 0;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t begin = rowptr[r];
    if (written != begin) {
      std::copy(colidx + begin, colidx + begin + kept[r], colidx + written);
      std::copy(values + begin, values + begin + kept[r], values + written);
    }
    rowptr[r] = written;
    written += kept[r];
  }
  rowptr[rows] = written;
  m.colidx.resize(written);
  m.values.resize(written);
}

/// What the parse of a Matrix Market file needs to know.
struct Layout {
  int64_t rows, cols;
  bool pattern;
};

/// Calls entry(r, c, v), 0-based, for each entry line of `part` until it
/// returns false. False where a line is not for the fast parser or lies
/// outside the matrix.
template <typename Entry>
bool forEachEntry(const Part &part, const Layout &layout, Entry &&entry) {
  const char *p = part.begin;
  int64_t r, c;
  double v;
  while (p < part.end) {
    Line line = parseLine(p, part.end, layout.pattern, r, c, v);
    if (line == Line::Skipped)
      continue;
    if (line == Line::Unsupported || r < 1 || r > layout.rows || c < 1 ||
        c > layout.cols)
      return false;
    if (!entry(r - 1, c - 1, v))
      return true;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Files listed by row
//===----------------------------------------------------------------------===//

enum class Outcome { Read, OutOfOrder, Refused };

/// A part parsed straight into the CSR arrays from slot `first` on.
struct RowOrderedPart {
  int64_t first = 0, written = 0;
  /// The rows of its first and last entries (-1: no entry).
  int64_t firstRow = -1, lastRow = -1;
  Outcome outcome = Outcome::Read;
};

/// Parses a general file whose entries are listed by row (any order within
/// a row) into `m`: OutOfOrder where a row comes after a later one, Refused
/// where a line is not for the fast parser or the count is wrong (`m` is
/// then unspecified).
Outcome readRowOrdered(const std::vector<Part> &parts, const Layout &layout,
                       int64_t entries, CsrMatrix &m) {
  auto count = static_cast<int64_t>(parts.size());
  std::vector<RowOrderedPart> parsed(count);
  int64_t slots = 0;
  for (int64_t t = 0; t < count; ++t) {
    parsed[t].first = slots;
    slots += parts[t].lines;
  }
  m.rows = layout.rows;
  m.cols = layout.cols;
  m.rowptr.resize(layout.rows + 1);
  m.colidx.resize(slots);
  m.values.resize(slots);
  int64_t *rowptr = m.rowptr.data();
  int32_t *colidx = m.colidx.data();
  double *values = m.values.data();
  sparse::runThreads(count, [&](int64_t t) {
    RowOrderedPart &part = parsed[t];
    int64_t slot = part.first, last = -1;
    bool taken =
        forEachEntry(parts[t], layout, [&](int64_t r, int64_t c, double v) {
          // Parts out of order across them may set the same row pointers;
          // those are then discarded (OutOfOrder below).
          if (r < last) {
            part.outcome = Outcome::OutOfOrder;
            return false;
          }
          if (last < 0)
            part.firstRow = r;
          // This part starts the rows after the last one it listed, up to r.
          for (int64_t row = last + 1; last >= 0 && row <= r; ++row)
            rowptr[row] = slot;
          last = r;
          colidx[slot] = static_cast<int32_t>(c);
          values[slot++] = v;
          return true;
        });
    if (!taken)
      part.outcome = Outcome::Refused;
    part.lastRow = last;
    part.written = slot - part.first;
  });
  int64_t listed = 0;
  int64_t previousLast = -1;
  for (const RowOrderedPart &part : parsed)
    if (part.outcome == Outcome::Refused)
      return Outcome::Refused;
  for (const RowOrderedPart &part : parsed) {
    if (part.outcome == Outcome::OutOfOrder ||
        (part.firstRow >= 0 && part.firstRow < previousLast))
      return Outcome::OutOfOrder;
    listed += part.written;
    previousLast = std::max(previousLast, part.lastRow);
  }
  if (entries >= 0 && listed != entries)
    return Outcome::Refused;

  // Comment and blank lines left slots empty: later parts move down.
  int64_t shift = 0;
  for (int64_t t = 0; t < count; ++t) {
    RowOrderedPart &part = parsed[t];
    if (shift > 0 && part.written > 0) {
      std::memmove(colidx + part.first - shift, colidx + part.first,
                   part.written * sizeof(int32_t));
      std::memmove(values + part.first - shift, values + part.first,
                   part.written * sizeof(double));
      for (int64_t row = part.firstRow + 1; row <= part.lastRow; ++row)
        rowptr[row] -= shift;
    }
    part.first -= shift;
    shift += parts[t].lines - part.written;
  }
  // The rows each part starts with: from after the previous part's last
  // row (empty rows between parts included) to its first.
  int64_t row = 0;
  for (const RowOrderedPart &part : parsed) {
    if (part.firstRow < 0)
      continue;
    for (; row <= part.firstRow; ++row)
      rowptr[row] = part.first;
    row = std::max(row, part.lastRow + 1);
  }
  for (; row <= layout.rows; ++row)
    rowptr[row] = listed;
  m.colidx.resize(listed);
  m.values.resize(listed);
  return Outcome::Read;
}

//===----------------------------------------------------------------------===//
// Files in any order
//===----------------------------------------------------------------------===//

using memory::Scratch;

/// The entries one part listed, in file order.
struct ListedPart {
  explicit ListedPart(int64_t capacity)
      : rows(capacity), cols(capacity), values(capacity) {}
  Scratch<int64_t> rows;
  Scratch<int32_t> cols;
  Scratch<double> values;
  int64_t size = 0, lines = 0;
  bool ok = true;
};

/// Parses any coordinate file (symmetric ones mirrored) into `m`: per-part
/// entry lists, placed by a counting sort over the rows. False where a line
/// is not for the fast parser or there are not `entries` of them (any
/// number when negative).
bool readAnyOrder(const std::vector<Part> &parts, const Layout &layout,
                  const std::string &symmetry, int64_t entries, CsrMatrix &m) {
  auto count = static_cast<int64_t>(parts.size());
  bool symmetric = symmetry != "general";
  double mirrorSign = symmetry == "skew-symmetric" ? -1.0 : 1.0;
  std::vector<std::unique_ptr<ListedPart>> parsed(count);
  for (int64_t t = 0; t < count; ++t)
    parsed[t] =
        std::make_unique<ListedPart>(parts[t].lines * (symmetric ? 2 : 1));
  sparse::runThreads(count, [&](int64_t t) {
    ListedPart &part = *parsed[t];
    int64_t *rows = part.rows.data();
    int32_t *cols = part.cols.data();
    double *values = part.values.data();
    int64_t size = 0;
    part.ok =
        forEachEntry(parts[t], layout, [&](int64_t r, int64_t c, double v) {
          ++part.lines;
          rows[size] = r;
          cols[size] = static_cast<int32_t>(c);
          values[size++] = v;
          if (symmetric && r != c) {
            rows[size] = c;
            cols[size] = static_cast<int32_t>(r);
            values[size++] = mirrorSign * v;
          }
          return true;
        });
    part.size = size;
  });
  int64_t lines = 0, total = 0;
  for (const auto &part : parsed) {
    if (!part->ok)
      return false;
    lines += part->lines;
    total += part->size;
  }
  if (entries >= 0 && lines != entries)
    return false;

  // Counting sort: each part's entries of row r go after those of the
  // parts before it, in file order.
  int64_t rows = layout.rows;
  std::vector<memory::Vector<int64_t>> next(count);
  sparse::runThreads(count, [&](int64_t t) {
    next[t].assign(rows, 0);
    const int64_t *entryRows = parsed[t]->rows.data();
    for (int64_t e = 0; e < parsed[t]->size; ++e)
      ++next[t][entryRows[e]];
  });
  m.rows = rows;
  m.cols = layout.cols;
  m.rowptr.assign(rows + 1, 0);
  int64_t *rowptr = m.rowptr.data();
  for (int64_t r = 0; r < rows; ++r) {
    int64_t run = rowptr[r];
    for (int64_t t = 0; t < count; ++t) {
      int64_t entries = next[t][r];
      next[t][r] = run;
      run += entries;
    }
    rowptr[r + 1] = run;
  }
  m.colidx.resize(total);
  m.values.resize(total);
  int32_t *colidx = m.colidx.data();
  double *values = m.values.data();
  sparse::runThreads(count, [&](int64_t t) {
    ListedPart &part = *parsed[t];
    int64_t *slots = next[t].data();
    for (int64_t e = 0; e < part.size; ++e) {
      int64_t k = slots[part.rows.data()[e]]++;
      colidx[k] = part.cols.data()[e];
      values[k] = part.values.data()[e];
    }
    // The part's memory goes before the next phase allocates.
    parsed[t].reset();
    memory::Vector<int64_t>().swap(next[t]);
  });
  return true;
}

/// The entries of [start, end of file) of `path` into `result`, as the
/// sequential reader would read them; `entries` negative: any number.
bool readEntriesInParallel(const std::string &path, std::streamoff start,
                           const Layout &layout, const std::string &symmetry,
                           int64_t entries, CsrMatrix &result) {
  // Row pointers beyond the budget: the sequential reader reports it.
  if (!csrColumnLimit(layout.cols).empty() ||
      8.0 * (static_cast<double>(layout.rows) + 1) >
          static_cast<double>(memory::getLimit()))
    return false;
  MappedFile file(path);
  // An empty file maps nothing: the sequential reader reads it.
  if (start < 0 || !file.base || static_cast<size_t>(start) > file.size)
    return false;
  std::vector<Part> parts =
      cutIntoParts(file.base + start, file.base + file.size);
  CsrMatrix m;
  Outcome outcome = symmetry == "general"
                        ? readRowOrdered(parts, layout, entries, m)
                        : Outcome::OutOfOrder;
  if (outcome == Outcome::OutOfOrder) {
    m = CsrMatrix();
    outcome = readAnyOrder(parts, layout, symmetry, entries, m)
                  ? Outcome::Read
                  : Outcome::Refused;
  }
  if (outcome != Outcome::Read)
    return false;
  settleRows(m, static_cast<int64_t>(parts.size()));
  result = std::move(m);
  return true;
}

} // namespace

bool amls::runtime::readCoordinateInParallel(const std::string &path,
                                             CsrMatrix &result) {
  std::ifstream in(path, std::ios::binary);
  MatrixMarketHeader header;
  int64_t lineNo = 0;
  if (!in || !parseMatrixMarketHeader(in, path, header, lineNo).empty() ||
      !header.coordinate)
    return false;
  std::streamoff start = in.tellg();
  Layout layout{header.rows, header.cols, header.field == "pattern"};
  return readEntriesInParallel(path, start, layout, header.symmetry,
                               header.entries, result);
}

bool amls::runtime::readTextCellsInParallel(const std::string &path,
                                            int64_t rows, int64_t cols,
                                            CsrMatrix &result) {
  Layout layout{rows, cols, /*pattern=*/false};
  return readEntriesInParallel(path, 0, layout, "general", -1, result);
}
