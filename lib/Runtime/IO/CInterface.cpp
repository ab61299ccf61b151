//===- CInterface.cpp - I/O entry points of compiled programs -------------===//

#include "../Core/Failure.h"
#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Support/TextParsing.h"
#include "RunStrings.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unistd.h>

#include "AMLS/Runtime/Distributed.h"

using namespace amls::runtime;

namespace {

/// `amls.read` asks for the sizes first, then for the contents into a
/// buffer of those sizes. The sizes come from the file's metadata (a
/// header, or a count of the lines of a CSV file, which compilation has
/// usually made already), and the cells are then parsed straight into the
/// buffer. Only a file without usable metadata (a CSV file with a header of
/// names) is parsed for its sizes, and kept here until it is copied.
struct ReadCache {
  std::mutex mutex;
  std::string path;
  FileFormat format = AMLS_FILE_CSV;
  int64_t rows = 0, cols = 0;
  /// Whether `matrix` holds the parsed file.
  bool parsed = false;
  Matrix matrix;
};

ReadCache &readCache() {
  static ReadCache cache;
  return cache;
}

MatrixView viewOf(const AmlsMatrixF64 *m) {
  return {m->aligned + m->offset, m->sizes[0], m->sizes[1], m->strides[0],
          m->strides[1]};
}

} // namespace

/// `problem` of the read `where` describes ("'amls.read' at f.dml:3:5").
static std::string readProblem(const char *where, const std::string &problem) {
  return where && *where ? std::string(where) + ": " + problem : problem;
}

/// The sizes of `path` into the cache unless they are already there (the
/// caller holds the cache's lock). A text-cell file's come from its .mtd
/// file, or from the read (`rows`, `cols`; -1 where not stated). Returns
/// the problem, for the caller to fail with once it let go of the lock
/// (a failure may return to an embedding host, which reads files again).
static std::string cacheShape(const char *path, int32_t format, int64_t rows,
                              int64_t cols, const char *where) {
  ReadCache &cache = readCache();
  auto fileFormat = static_cast<AmlsFileFormat>(format);
  if (cache.path == path && cache.format == fileFormat)
    return "";
  cache.path = path;
  cache.format = fileFormat;
  cache.matrix = Matrix();
  cache.parsed = false;
  if (fileFormat == AMLS_FILE_TEXT) {
    std::string error =
        textFileShape(cache.path, rows, cols, cache.rows, cache.cols);
    if (!error.empty()) {
      cache.path.clear();
      return readProblem(where, error);
    }
    return "";
  }
  if (std::optional<MatrixFileMetadata> metadata =
          readMatrixFileMetadata(cache.path, fileFormat)) {
    cache.rows = metadata->rows;
    cache.cols = metadata->cols;
    return "";
  }
  std::string error = readMatrix(cache.path, fileFormat, cache.matrix);
  if (!error.empty()) {
    cache.path.clear();
    return readProblem(where, error);
  }
  cache.rows = cache.matrix.rows;
  cache.cols = cache.matrix.cols;
  cache.parsed = true;
  return "";
}

/// The rows (`wantRows`) or columns of the file the read `where` names.
static int64_t fileExtent(const char *path, int32_t format, int64_t rows,
                          int64_t cols, const char *where, bool wantRows) {
  std::string error;
  int64_t extent = 0;
  {
    std::lock_guard<std::mutex> lock(readCache().mutex);
    error = cacheShape(path, format, rows, cols, where);
    extent = wantRows ? readCache().rows : readCache().cols;
  }
  if (!error.empty())
    fail(std::move(error));
  return extent;
}

extern "C" int64_t amls_rt_file_rows(const char *path, int32_t format,
                                     int64_t rows, int64_t cols,
                                     const char *where) {
  return fileExtent(path, format, rows, cols, where, /*wantRows=*/true);
}

extern "C" int64_t amls_rt_file_cols(const char *path, int32_t format,
                                     int64_t rows, int64_t cols,
                                     const char *where) {
  return fileExtent(path, format, rows, cols, where, /*wantRows=*/false);
}

extern "C" void _mlir_ciface_amls_rt_read(AmlsMatrixF64 *dest, const char *path,
                                          int32_t format, const char *where) {
  std::string error;
  {
    std::lock_guard<std::mutex> lock(readCache().mutex);
    ReadCache &cache = readCache();
    error = cacheShape(path, format, dest->sizes[0], dest->sizes[1], where);
    if (error.empty()) {
      MatrixSpan span{dest->aligned + dest->offset, dest->sizes[0],
                      dest->sizes[1], dest->strides[0], dest->strides[1]};
      if (!cache.parsed) {
        error = readMatrixInto(cache.path, cache.format, span);
      } else if (cache.rows != span.rows || cache.cols != span.cols) {
        error = std::string(path) + ": the file changed while it was read";
      } else {
        for (int64_t r = 0; r < span.rows; ++r)
          for (int64_t c = 0; c < span.cols; ++c)
            span.data[r * span.rowStride + c * span.colStride] =
                cache.matrix.at(r, c);
      }
      if (!error.empty())
        error = readProblem(where, error);
    }
    // The next read of the file (in a loop, say) looks at it again.
    cache.path.clear();
    cache.matrix = Matrix();
    cache.parsed = false;
  }
  if (!error.empty())
    fail(std::move(error));
}

extern "C" void _mlir_ciface_amls_rt_write(AmlsMatrixF64 *source,
                                           const char *path, int32_t format) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  MatrixView view = viewOf(source);
  std::string error =
      writeMatrix(path, static_cast<AmlsFileFormat>(format), view);
  if (!error.empty())
    fail(std::move(error));
  int64_t nonZeros = 0;
  for (int64_t r = 0; r < view.rows; ++r)
    for (int64_t c = 0; c < view.cols; ++c)
      nonZeros += view.at(r, c) != 0.0;
  error = writeMatrixMtdFor(path, static_cast<AmlsFileFormat>(format),
                            view.rows, view.cols, nonZeros);
  if (!error.empty())
    fail(std::move(error));
}

extern "C" void _mlir_ciface_amls_rt_print_matrix(AmlsMatrixF64 *source) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  std::string text = formatMatrix(viewOf(source));
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

extern "C" void _mlir_ciface_amls_rt_csr_print_matrix(AmlsVectorI64 *a_rowptr,
                                                      AmlsVectorI32 *a_colidx,
                                                      AmlsVectorF64 *a_values,
                                                      int64_t a_cols) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  std::string text =
      formatMatrix(CsrMatrixView::of(a_rowptr, a_colidx, a_values, a_cols));
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

extern "C" void amls_rt_print_f64(double value) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  std::printf("%s\n", formatScalar(value).c_str());
  std::fflush(stdout);
}

extern "C" void amls_rt_print_i64(int64_t value) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  std::printf("%lld\n", static_cast<long long>(value));
  std::fflush(stdout);
}

extern "C" void amls_rt_check(int32_t ok, const char *message) {
  if (!ok)
    fail(message);
}

extern "C" void amls_rt_check_shapes(int32_t ok, int64_t rows0, int64_t cols0,
                                     int64_t rows1, int64_t cols1,
                                     const char *message) {
  if (ok)
    return;
  char text[1024];
  std::snprintf(text, sizeof(text), "%s (%lldx%lld and %lldx%lld)", message,
                static_cast<long long>(rows0), static_cast<long long>(cols0),
                static_cast<long long>(rows1), static_cast<long long>(cols1));
  fail(text);
}

extern "C" void amls_rt_check_dense_size(int64_t rows, int64_t cols,
                                         const char *what) {
  // Beyond the budget the allocation would stop the program anyway: say so
  // here, with the op, the shape and the bytes.
  double bytes = 8.0 * static_cast<double>(rows) * static_cast<double>(cols);
  double limit = static_cast<double>(memory::getLimit());
  if (bytes <= limit)
    return;
  char text[512];
  std::snprintf(text, sizeof(text),
                "%s: the dense %lldx%lld result needs %.0f bytes, more than "
                "the memory limit of %.0f bytes (amls-run --memory-limit)",
                what, static_cast<long long>(rows),
                static_cast<long long>(cols), bytes, limit);
  fail(text);
}

//===----------------------------------------------------------------------===//
// amls.printf and amls.stop: a message is emitted piece by piece into a
// per-thread buffer, then printed (stream 0) or reported before exiting
// (stream 1) as a whole, so that messages from parallel loops never mix.
//===----------------------------------------------------------------------===//

namespace {
std::string &messageBuffer(int32_t stream) {
  thread_local std::string buffers[5];
  return buffers[stream == AMLS_STREAM_STOP         ? 1
                 : stream == AMLS_STREAM_FILE       ? 2
                 : stream == AMLS_STREAM_STRING     ? 3
                 : stream == AMLS_STREAM_DIAGNOSTIC ? 4
                                                    : 0];
}

const char *valueTypeName(int32_t valueType) {
  switch (valueType) {
  case AMLS_VALUE_INT:
    return "int";
  case AMLS_VALUE_BOOLEAN:
    return "boolean";
  case AMLS_VALUE_STRING:
    return "string";
  default:
    return "double";
  }
}
} // namespace

extern "C" void amls_rt_emit_text(const char *text, int32_t stream) {
  messageBuffer(stream) += text;
}

extern "C" void amls_rt_emit_f64(double value, int32_t stream) {
  messageBuffer(stream) += formatScalar(value);
}

extern "C" void amls_rt_emit_i64(int64_t value, int32_t stream) {
  messageBuffer(stream) += std::to_string(value);
}

extern "C" void amls_rt_emit_bool(int32_t value, int32_t stream) {
  messageBuffer(stream) += value ? "TRUE" : "FALSE";
}

extern "C" void amls_rt_emit_formatted_f64(double value, const char *spec,
                                           int32_t stream) {
  // Java prints NaN and Infinity where C prints nan and inf; an integer
  // conversion of them has no value to print.
  if (!std::isfinite(value)) {
    messageBuffer(stream) += formatScalar(value);
    return;
  }
  std::string conversion = spec;
  char kind = conversion.empty() ? 'f' : conversion.back();
  bool integral = kind == 'd' || kind == 'x' || kind == 'X' || kind == 'o';
  if (integral)
    conversion.insert(conversion.size() - 1, "ll");
  auto format = [&](char *buffer, size_t size) {
    return integral ? std::snprintf(buffer, size, conversion.c_str(),
                                    static_cast<long long>(value))
                    : std::snprintf(buffer, size, conversion.c_str(), value);
  };
  int length = format(nullptr, 0);
  if (length <= 0)
    return;
  std::string text(static_cast<size_t>(length) + 1, '\0');
  format(text.data(), text.size());
  text.resize(static_cast<size_t>(length));
  messageBuffer(stream) += text;
}

extern "C" void _mlir_ciface_amls_rt_emit_matrix(AmlsMatrixF64 *source,
                                                 int32_t stream) {
  messageBuffer(stream) += formatMatrix(viewOf(source));
}

extern "C" void _mlir_ciface_amls_rt_csr_emit_matrix(AmlsVectorI64 *a_rowptr,
                                                     AmlsVectorI32 *a_colidx,
                                                     AmlsVectorF64 *a_values,
                                                     int64_t a_cols,
                                                     int32_t stream) {
  messageBuffer(stream) +=
      formatMatrix(CsrMatrixView::of(a_rowptr, a_colidx, a_values, a_cols));
}

extern "C" void amls_rt_emit_end(int32_t stream) {
  std::string message;
  std::swap(message, messageBuffer(stream));
  if (stream == AMLS_STREAM_STOP) {
    // Moved into fail(), which frees it before it leaves by longjmp.
    message.insert(0, "stop: ");
    fail(std::move(message));
  }
  if (!distributed::isOutputRank())
    return;
  message += '\n';
  FILE *out = stream == AMLS_STREAM_DIAGNOSTIC ? stderr : stdout;
  std::fwrite(message.data(), 1, message.size(), out);
  std::fflush(out);
}

// Run-time strings live until the program ends: DML strings are short
// messages, and a deque never moves the ones already handed out.
const char *amls::runtime::keepRunString(std::string text) {
  static std::mutex mutex;
  static std::deque<std::string> strings;
  std::lock_guard<std::mutex> lock(mutex);
  strings.push_back(std::move(text));
  return strings.back().c_str();
}

extern "C" const char *amls_rt_string_take(void) {
  std::string text;
  std::swap(text, messageBuffer(AMLS_STREAM_STRING));
  return keepRunString(std::move(text));
}

extern "C" int32_t amls_rt_string_compare(const char *a, const char *b) {
  int order = std::strcmp(a, b);
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// Scalars in files, as SystemDS writes them: the value's text (no newline)
// and a .mtd file of data type scalar.
//===----------------------------------------------------------------------===//

extern "C" void amls_rt_write_text(const char *path, int32_t valueType) {
  // A distributed run prints and writes once, on its output rank.
  if (!distributed::isOutputRank())
    return;
  // The text and metadata are gone before fail() leaves by longjmp.
  std::string error = [&] {
    std::string text;
    std::swap(text, messageBuffer(AMLS_STREAM_FILE));
    std::string error = writeTextFile(path, text);
    if (!error.empty())
      return error;
    MtdMetadata metadata;
    metadata.dataType = "scalar";
    metadata.valueType = valueTypeName(valueType);
    metadata.format = AMLS_FILE_TEXT;
    return writeMtdFor(path, metadata);
  }();
  if (!error.empty())
    fail(std::move(error));
}

extern "C" double amls_rt_read_scalar(const char *path, int32_t valueType,
                                      const char *where) {
  double value = 0.0;
  // The strings live in this lambda's frame, gone before fail() leaves by
  // longjmp (which would not free them).
  std::string error = [&]() -> std::string {
    auto problem = [&](const std::string &what) {
      return readProblem(where, std::string(path) + ": " + what);
    };
    std::optional<MtdMetadata> metadata;
    std::string error = readMtdFor(path, metadata);
    if (!error.empty())
      return readProblem(where, error);
    if (metadata && metadata->dataType != "scalar")
      return problem("its metadata file says data_type \"" +
                     metadata->dataType + "\", but the read expects a scalar");
    std::FILE *file = std::fopen(path, "rb");
    if (!file)
      return problem("cannot open the file for reading");
    std::string text;
    char buffer[4096];
    size_t read;
    while ((read = std::fread(buffer, 1, sizeof(buffer), file)) > 0 &&
           text.size() < (1 << 20))
      text.append(buffer, read);
    std::fclose(file);
    std::string_view trimmed = trim(text);
    std::string shown = quoted(trimmed);
    if (valueType == AMLS_VALUE_BOOLEAN) {
      std::string lower(trimmed);
      for (char &c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "true" || lower == "1") {
        value = 1.0;
        return "";
      }
      if (lower == "false" || lower == "0") {
        value = 0.0;
        return "";
      }
      return problem("expected a boolean (TRUE or FALSE), found " + shown);
    }
    // Java's spellings of the values that are not finite, then strtod's.
    if (trimmed == "NaN")
      value = NAN;
    else if (trimmed == "Infinity")
      value = INFINITY;
    else if (trimmed == "-Infinity")
      value = -INFINITY;
    else if (!parseNumber(trimmed, value))
      return problem(std::string("expected ") +
                     (valueType == AMLS_VALUE_INT ? "an integer" : "a number") +
                     ", found " + shown);
    if (valueType == AMLS_VALUE_INT &&
        (!std::isfinite(value) || value != std::floor(value)))
      return problem("expected an integer, found " + shown);
    return "";
  }();
  if (!error.empty())
    fail(std::move(error));
  return value;
}
