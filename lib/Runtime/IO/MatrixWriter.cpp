//===- MatrixWriter.cpp - Writing matrices with the runtime's threads -----===//
//
// CSV and Matrix Market text is formatted by the runtime's threads (libomp,
// the compiled programs' pool), one chunk of rows (or of cells, or of
// non-zeros) into one buffer each, and the buffers are written in file
// order, a round of chunks at a time, while the next round is formatted.
// Numbers are std::to_chars' shortest text that reads back to the same double,
// as the sequential writer wrote them: the bytes depend on neither the threads
// nor the chunks. A failed open, write or close is an error naming the file and
// the system's reason. A distributed write's ranks each write their part
// (FilePart): the first creates the file with the header, the others append
// their rows.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"
#include "MatrixCells.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace amls::runtime {
namespace {

/// Cells (or non-zeros) per chunk: about 1.5 MB of text, enough that a
/// chunk's scheduling and write are negligible next to its formatting.
constexpr int64_t kChunkCells = 1 << 16;
/// Chunks formatted per thread between two rounds of writes: the buffers
/// in flight stay a few MB whatever the matrix.
constexpr int64_t kChunksPerThread = 4;
/// Room for one number: "-2.2250738585072014e-308" has 24 characters, an
/// int64_t at most 20.
constexpr int64_t kDoubleChars = 32;
constexpr int64_t kIntegerChars = 24;

char *putDouble(char *out, double value) {
  return std::to_chars(out, out + kDoubleChars, value).ptr;
}

char *putInteger(char *out, int64_t value) {
  return std::to_chars(out, out + kIntegerChars, value).ptr;
}

/// A chunk's text: grown, never shrunk or zero-filled, between rounds.
class Buffer {
public:
  /// Room for `bytes` more; the text so far is discarded.
  char *reset(size_t bytes) {
    if (bytes > capacity) {
      data.reset(new char[bytes]);
      capacity = bytes;
    }
    size = 0;
    return data.get();
  }
  void setEnd(const char *end) { size = end - data.get(); }
  const char *begin() const { return data.get(); }
  size_t used() const { return size; }

private:
  std::unique_ptr<char[]> data;
  size_t capacity = 0, size = 0;
};

/// The output file; the first failure is kept, with the system's reason.
class OutputFile {
public:
  OutputFile(const std::string &path, bool append) : path(path) {
    file = std::fopen(path.c_str(), append ? "ab" : "wb");
    if (!file)
      error =
          path + ": cannot open the file for writing: " + std::strerror(errno);
  }
  ~OutputFile() {
    if (file)
      std::fclose(file);
  }
  bool ok() const { return error.empty(); }
  void write(const char *data, size_t size) {
    if (ok() && size && std::fwrite(data, 1, size, file) != size)
      fail();
  }
  void write(const std::string &text) { write(text.data(), text.size()); }
  /// Closes the file (flushing it): "" or the first failure.
  std::string close() {
    if (file && std::fclose(file) != 0 && ok())
      fail();
    file = nullptr;
    return error;
  }

private:
  void fail() {
    error = path + ": cannot write the file: " + std::strerror(errno);
  }
  std::string path, error;
  std::FILE *file = nullptr;
};

/// Formats chunks [0, chunks) with format(k, buffer) on the runtime's
/// threads and writes them to `out` in order. The buffers come in two
/// sets: one thread writes the previous round while the others format the
/// next one (the write was a fifth of the work).
template <typename Format>
void writeChunks(OutputFile &out, int64_t chunks, Format &&format) {
  int64_t threads = std::clamp<int64_t>(amls_rt_get_num_threads(), 1,
                                        std::max<int64_t>(chunks, 1));
  int64_t round = std::min(chunks, threads * kChunksPerThread);
  std::vector<Buffer> sets[2] = {std::vector<Buffer>(round),
                                 std::vector<Buffer>(round)};
  auto writeSet = [&](const std::vector<Buffer> &set, int64_t count) {
    for (int64_t i = 0; i < count; ++i)
      out.write(set[i].begin(), set[i].used());
  };
  int64_t written = 0, side = 0;
  for (int64_t first = 0; first < chunks && out.ok(); first += round) {
    int64_t count = std::min(round, chunks - first);
    std::vector<Buffer> &current = sets[side], &previous = sets[1 - side];
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp single nowait
      writeSet(previous, written);
#pragma omp for schedule(dynamic, 1)
      for (int64_t i = 0; i < count; ++i)
        format(first + i, current[i]);
    }
    written = count;
    side = 1 - side;
  }
  writeSet(sets[1 - side], written);
}

/// Row ranges of about kChunkCells cells.
struct RowChunks {
  RowChunks(int64_t rows, int64_t cols)
      : rows(rows), perChunk(std::max<int64_t>(
                        1, kChunkCells / std::max<int64_t>(cols, 1))),
        count((rows + perChunk - 1) / perChunk) {}
  int64_t begin(int64_t k) const { return k * perChunk; }
  int64_t end(int64_t k) const { return std::min(rows, (k + 1) * perChunk); }
  int64_t rows, perChunk, count;
};

/// The whole file, or the part of it a distributed write's rank writes.
const FilePart &partOrWhole(const FilePart *part, const CellSource &m,
                            FilePart &whole) {
  if (part)
    return *part;
  whole.wholeRows = m.rows;
  whole.wholeNonZeros = -1; // Counted by the writer that needs it.
  return whole;
}

void writeBinary(OutputFile &out, const CellSource &m, const FilePart &part) {
  if (part.first) {
    int64_t sizes[2] = {part.wholeRows, m.cols};
    out.write(kBinaryMatrixMagic, sizeof(kBinaryMatrixMagic));
    out.write(reinterpret_cast<const char *>(sizes), sizeof(sizes));
  }
  RowChunks chunks(m.rows, m.cols);
  size_t rowBytes = m.cols * sizeof(double);
  writeChunks(out, chunks.count, [&](int64_t k, Buffer &buffer) {
    int64_t begin = chunks.begin(k), end = chunks.end(k);
    char *text = buffer.reset((end - begin) * rowBytes);
    for (int64_t r = begin; r < end; ++r)
      m.row(r, reinterpret_cast<double *>(text + (r - begin) * rowBytes));
    buffer.setEnd(text + (end - begin) * rowBytes);
  });
}

void writeCsv(OutputFile &out, const CellSource &m) {
  RowChunks chunks(m.rows, m.cols);
  writeChunks(out, chunks.count, [&](int64_t k, Buffer &buffer) {
    int64_t begin = chunks.begin(k), end = chunks.end(k);
    std::vector<double> cells(m.cols);
    char *text =
        buffer.reset((end - begin) * (m.cols * (kDoubleChars + 1) + 1));
    for (int64_t r = begin; r < end; ++r) {
      m.row(r, cells.data());
      for (int64_t c = 0; c < m.cols; ++c) {
        if (c)
          *text++ = ',';
        text = putDouble(text, cells[c]);
      }
      *text++ = '\n';
    }
    buffer.setEnd(text);
  });
}

/// Matrix Market's array layout: the cells in column-major order, chunked
/// by cells.
void writeArray(OutputFile &out, const CellSource &m) {
  out.write("%%MatrixMarket matrix array real general\n" +
            std::to_string(m.rows) + ' ' + std::to_string(m.cols) + '\n');
  int64_t cells = m.rows * m.cols;
  int64_t chunks = (cells + kChunkCells - 1) / kChunkCells;
  writeChunks(out, chunks, [&](int64_t k, Buffer &buffer) {
    int64_t begin = k * kChunkCells, end = std::min(cells, begin + kChunkCells);
    char *text = buffer.reset((end - begin) * (kDoubleChars + 1));
    for (int64_t i = begin; i < end; ++i) {
      text = putDouble(text, m.at(i % m.rows, i / m.rows));
      *text++ = '\n';
    }
    buffer.setEnd(text);
  });
}

/// Matrix Market's coordinate layout: the non-zeros are counted per row
/// first (the header states their number), then chunked by count, so that
/// a CSR matrix of a million short rows makes a few hundred chunks. Without
/// `header`, SystemDS's text-cell format: the same lines, and "1 1 0" for a
/// matrix without non-zeros (SystemDS writes no empty file).
void writeCoordinate(OutputFile &out, const CellSource &m, bool header,
                     const FilePart &part) {
  std::vector<int64_t> rowCounts(m.rows);
  int64_t threads = std::max<int64_t>(
      1, std::min<int64_t>(amls_rt_get_num_threads(), m.rows / 1024));
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<int64_t> columns(m.cols);
    std::vector<double> values(m.cols);
#pragma omp for schedule(static)
    for (int64_t r = 0; r < m.rows; ++r)
      rowCounts[r] = m.nonZeros(r, columns.data(), values.data());
  }
  // Chunk boundaries: rows until about kChunkCells entries (an empty row
  // counts as one, for its scan).
  std::vector<int64_t> starts{0}, entries;
  int64_t nonZeros = 0, inChunk = 0, work = 0;
  for (int64_t r = 0; r < m.rows; ++r) {
    nonZeros += rowCounts[r];
    inChunk += rowCounts[r];
    work += rowCounts[r] + 1;
    if (work >= kChunkCells || r + 1 == m.rows) {
      starts.push_back(r + 1);
      entries.push_back(inChunk);
      inChunk = work = 0;
    }
  }
  int64_t wholeNonZeros =
      part.wholeNonZeros >= 0 ? part.wholeNonZeros : nonZeros;
  if (part.first && header)
    out.write("%%MatrixMarket matrix coordinate real general\n" +
              std::to_string(part.wholeRows) + ' ' + std::to_string(m.cols) +
              ' ' + std::to_string(wholeNonZeros) + '\n');
  else if (part.first && wholeNonZeros == 0 && part.wholeRows > 0 &&
           m.cols > 0)
    out.write("1 1 0\n");
  // Row numbers in the whole matrix.
  int64_t firstRow = part.firstRow + 1;
  constexpr int64_t kEntryChars = 2 * (kIntegerChars + 1) + kDoubleChars + 1;
  writeChunks(out, static_cast<int64_t>(entries.size()),
              [&](int64_t k, Buffer &buffer) {
                std::vector<int64_t> columns(m.cols);
                std::vector<double> values(m.cols);
                char *text = buffer.reset(entries[k] * kEntryChars);
                for (int64_t r = starts[k]; r < starts[k + 1]; ++r) {
                  int64_t count = m.nonZeros(r, columns.data(), values.data());
                  for (int64_t e = 0; e < count; ++e) {
                    text = putInteger(text, r + firstRow);
                    *text++ = ' ';
                    text = putInteger(text, columns[e] + 1);
                    *text++ = ' ';
                    text = putDouble(text, values[e]);
                    *text++ = '\n';
                  }
                }
                buffer.setEnd(text);
              });
}

} // namespace

std::string writeCells(const std::string &path, FileFormat format,
                       const CellSource &m, MatrixMarketLayout layout,
                       const FilePart *part) {
  if (part && format == AMLS_FILE_MATRIX_MARKET &&
      layout == MatrixMarketLayout::Array)
    return path + ": Matrix Market's array layout lists the cells by "
                  "column, which cannot be written in parts of rows";
  FilePart whole;
  const FilePart &written = partOrWhole(part, m, whole);
  OutputFile out(path, /*append=*/!written.first);
  if (!out.ok())
    return out.close();
  if (format == AMLS_FILE_BINARY)
    writeBinary(out, m, written);
  else if (format == AMLS_FILE_CSV)
    writeCsv(out, m);
  else if (format == AMLS_FILE_TEXT)
    writeCoordinate(out, m, /*header=*/false, written);
  else if (layout == MatrixMarketLayout::Array)
    writeArray(out, m);
  else
    writeCoordinate(out, m, /*header=*/true, written);
  return out.close();
}

} // namespace amls::runtime
