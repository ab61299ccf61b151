//===- CInterface.cpp - The frame functions compiled code calls -----------===//
//
// A frame crosses into compiled code as a handle (the Frame's address as an
// i64). Frames live until the process ends, as run-time strings do: a DML
// script builds a few (the data, the transform metadata), and compiled code
// may hold one in any variable. An encoder lives only inside the lowering
// of one transform op, which releases it.
//
// Each function builds its result in a scope of its own and fails after
// the scope closed: a failure may leave by longjmp, which runs no
// destructor.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "../IO/RunStrings.h"
#include "AMLS/Runtime/Frame/Encoder.h"
#include "AMLS/Runtime/Frame/FrameIO.h"

#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Support/TextParsing.h"

#include <cmath>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>

using namespace amls::runtime;
using namespace amls::runtime::frame;

namespace {

int64_t keepFrame(std::unique_ptr<Frame> frame) {
  static std::mutex mutex;
  static std::deque<std::unique_ptr<Frame>> frames;
  std::lock_guard<std::mutex> lock(mutex);
  frames.push_back(std::move(frame));
  return reinterpret_cast<int64_t>(frames.back().get());
}

const Frame &frameOf(int64_t handle) {
  return *reinterpret_cast<const Frame *>(handle);
}

/// Fails with `problem` (the caller's local, emptied before the jump, so
/// that nothing the caller owns is left behind) after the op's `where`.
[[noreturn]] void failAt(const char *where, std::string &problem) {
  if (where && *where)
    problem.insert(0, std::string(where) + ": ");
  fail(std::move(problem));
}

/// "013" -> string, FP64, INT64 (ABI.h's AmlsFrameValueType digits).
std::vector<AmlsFrameValueType> decodeSchema(const char *schema) {
  std::vector<AmlsFrameValueType> types;
  for (const char *c = schema; c && *c; ++c)
    types.push_back(static_cast<AmlsFrameValueType>(*c - '0'));
  return types;
}

/// Strings joined by the unit separator (0x1F), as compiled code passes a
/// list of na.strings.
std::vector<std::string> splitUnits(const char *joined) {
  std::vector<std::string> parts;
  if (!joined || !*joined)
    return parts;
  std::string_view text(joined);
  size_t start = 0;
  while (true) {
    size_t end = text.find('\x1f', start);
    parts.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos)
      return parts;
    start = end + 1;
  }
}

} // namespace

extern "C" int64_t amls_rt_frame_read(const char *path, int32_t header,
                                      const char *sep, const char *naStrings,
                                      const char *schema, const char *where) {
  std::string problem;
  int64_t handle = 0;
  {
    CsvOptions options;
    options.header = header != 0;
    options.sep = sep;
    options.naStrings = splitUnits(naStrings);
    options.schema = decodeSchema(schema);
    std::unique_ptr<Frame> frame;
    problem = readCsv(path, options, frame);
    if (problem.empty())
      handle = keepFrame(std::move(frame));
  }
  if (!problem.empty())
    failAt(where, problem);
  return handle;
}

extern "C" void amls_rt_frame_write(int64_t frame, const char *path,
                                    int32_t header, const char *sep,
                                    const char *where) {
  std::string problem = writeCsv(frameOf(frame), path, header != 0, sep);
  if (!problem.empty())
    failAt(where, problem);
}

extern "C" int64_t amls_rt_frame_rows(int64_t frame) {
  return frameOf(frame).getRows();
}

extern "C" int64_t amls_rt_frame_cols(int64_t frame) {
  return frameOf(frame).getCols();
}

extern "C" const char *amls_rt_frame_to_string(int64_t frame, int64_t rows,
                                               int64_t cols) {
  return keepRunString(frameOf(frame).toString(rows, cols));
}

extern "C" void _mlir_ciface_amls_rt_frame_as_matrix(AmlsMatrixF64 *dest,
                                                     int64_t handle,
                                                     const char *where) {
  std::string problem;
  {
    const Frame &frame = frameOf(handle);
    for (int64_t col = 0; col < frame.getCols() && problem.empty(); ++col) {
      const Column &column = frame.column(col);
      for (int64_t row = 0; row < frame.getRows(); ++row) {
        double value = NAN;
        if (!column.isMissing(row)) {
          if (isNumeric(column.getType())) {
            value = column.getNumber(row);
          } else if (!parseCell(column.getString(row), AMLS_FRAME_FP64,
                                value)) {
            problem = "as.matrix: column '" + column.getName() + "', row " +
                      std::to_string(row + 1) + ": expected a number, found " +
                      quoted(column.getString(row));
            break;
          }
        }
        dest->aligned[dest->offset + row * dest->strides[0] +
                      col * dest->strides[1]] = value;
      }
    }
  }
  if (!problem.empty())
    failAt(where, problem);
}

extern "C" int64_t amls_rt_frame_slice(int64_t handle, int64_t rowBegin,
                                       int64_t rowEnd, int64_t colBegin,
                                       int64_t colEnd, const char *where) {
  std::string problem;
  int64_t result = 0;
  {
    const Frame &frame = frameOf(handle);
    if (rowBegin < 0 || rowBegin > rowEnd || rowEnd > frame.getRows() ||
        colBegin < 0 || colBegin > colEnd || colEnd > frame.getCols())
      problem = "index out of bounds: rows " + std::to_string(rowBegin + 1) +
                ":" + std::to_string(rowEnd) + ", columns " +
                std::to_string(colBegin + 1) + ":" + std::to_string(colEnd) +
                " of a " + std::to_string(frame.getRows()) + " x " +
                std::to_string(frame.getCols()) + " frame";
    else
      result = keepFrame(frame.slice(rowBegin, rowEnd, colBegin, colEnd));
  }
  if (!problem.empty())
    failAt(where, problem);
  return result;
}

extern "C" int64_t _mlir_ciface_amls_rt_frame_from_matrix(AmlsMatrixF64 *x) {
  // The lowering passes a row-major view; a transposed one is copied.
  const double *base = x->aligned + x->offset;
  if (x->strides[1] == 1)
    return keepFrame(
        frameFromMatrix(base, x->sizes[0], x->sizes[1], x->strides[0]));
  std::vector<double> cells(x->sizes[0] * x->sizes[1]);
  for (int64_t row = 0; row < x->sizes[0]; ++row)
    for (int64_t col = 0; col < x->sizes[1]; ++col)
      cells[row * x->sizes[1] + col] =
          base[row * x->strides[0] + col * x->strides[1]];
  return keepFrame(
      frameFromMatrix(cells.data(), x->sizes[0], x->sizes[1], x->sizes[1]));
}

/// cbind or rbind of two frames.
static int64_t bindFrames(std::string (*bind)(const Frame &, const Frame &,
                                              std::unique_ptr<Frame> &),
                          int64_t a, int64_t b, const char *where) {
  std::string problem;
  int64_t result = 0;
  {
    std::unique_ptr<Frame> frame;
    problem = bind(frameOf(a), frameOf(b), frame);
    if (problem.empty())
      result = keepFrame(std::move(frame));
  }
  if (!problem.empty())
    failAt(where, problem);
  return result;
}

extern "C" int64_t amls_rt_frame_cbind(int64_t a, int64_t b,
                                       const char *where) {
  return bindFrames(cbindFrames, a, b, where);
}

extern "C" int64_t amls_rt_frame_rbind(int64_t a, int64_t b,
                                       const char *where) {
  return bindFrames(rbindFrames, a, b, where);
}

extern "C" int64_t amls_rt_frame_detect_schema(int64_t frame) {
  return keepFrame(detectSchema(frameOf(frame)));
}

extern "C" int64_t amls_rt_frame_apply_schema(int64_t frame, int64_t schema,
                                              const char *where) {
  return bindFrames(applySchema, frame, schema, where);
}

extern "C" int64_t amls_rt_frame_colnames(int64_t handle) {
  const Frame &frame = frameOf(handle);
  auto names = std::make_unique<Frame>();
  for (int64_t col = 0; col < frame.getCols(); ++col)
    names->addColumn(frame.column(col).getName(), AMLS_FRAME_STRING)
        .appendString(frame.column(col).getName());
  names->setRows(1);
  return keepFrame(std::move(names));
}

extern "C" const char *amls_rt_frame_cell(int64_t handle, const char *where) {
  std::string problem;
  const char *text = nullptr;
  {
    const Frame &frame = frameOf(handle);
    if (frame.getRows() != 1 || frame.getCols() != 1)
      problem = "as.scalar: expected a 1 x 1 frame, found " +
                std::to_string(frame.getRows()) + " x " +
                std::to_string(frame.getCols());
    else
      text = keepRunString(
          frame.column(0).isMissing(0) ? "NULL" : frame.column(0).format(0));
  }
  if (!problem.empty())
    failAt(where, problem);
  return text;
}

extern "C" const char *amls_rt_read_text(const char *path, const char *where) {
  std::string problem;
  const char *text = nullptr;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      problem = std::string(path) + ": cannot open the file to read a string";
    } else {
      std::ostringstream contents;
      contents << in.rdbuf();
      text = keepRunString(contents.str());
    }
  }
  if (!problem.empty())
    failAt(where, problem);
  return text;
}

extern "C" int64_t amls_rt_transform_fit(int64_t frame, const char *spec,
                                         const char *where) {
  std::string problem;
  Encoder *encoder = nullptr;
  {
    std::unique_ptr<Encoder> fitted;
    problem = Encoder::fit(frameOf(frame), spec, fitted);
    encoder = fitted.release();
  }
  if (!problem.empty()) {
    problem.insert(0, "transformencode: ");
    failAt(where, problem);
  }
  return reinterpret_cast<int64_t>(encoder);
}

extern "C" int64_t amls_rt_transform_from_meta(int64_t meta, const char *spec,
                                               const char *where) {
  std::string problem;
  Encoder *encoder = nullptr;
  {
    std::unique_ptr<Encoder> rebuilt;
    problem = Encoder::fromMeta(frameOf(meta), spec, rebuilt);
    encoder = rebuilt.release();
  }
  if (!problem.empty())
    failAt(where, problem);
  return reinterpret_cast<int64_t>(encoder);
}

static const Encoder &encoderOf(int64_t handle) {
  return *reinterpret_cast<const Encoder *>(handle);
}

extern "C" void amls_rt_transform_release(int64_t encoder) {
  delete reinterpret_cast<Encoder *>(encoder);
}

extern "C" int64_t amls_rt_transform_meta(int64_t encoder) {
  return keepFrame(encoderOf(encoder).getMeta());
}

extern "C" int64_t amls_rt_transform_rows(int64_t encoder, int64_t frame) {
  return encoderOf(encoder).countKeptRows(frameOf(frame));
}

extern "C" int64_t amls_rt_transform_cols(int64_t encoder) {
  return encoderOf(encoder).getOutputCols();
}

extern "C" void _mlir_ciface_amls_rt_transform_apply(AmlsMatrixF64 *dest,
                                                     int64_t encoder,
                                                     int64_t frame,
                                                     const char *where) {
  std::string problem;
  {
    // The lowering allocates an identity-strided buffer of the sizes it
    // asked for; a column stride other than 1 would be a lowering bug.
    if (dest->strides[1] != 1)
      problem = "transform: the result buffer is not row-major";
    else
      problem = encoderOf(encoder).apply(
          frameOf(frame), dest->aligned + dest->offset, dest->strides[0]);
  }
  if (!problem.empty()) {
    // The lowering's release after this call is skipped by the failure.
    amls_rt_transform_release(encoder);
    failAt(where, problem);
  }
}

extern "C" int64_t _mlir_ciface_amls_rt_transform_decode(int64_t encoder,
                                                         AmlsMatrixF64 *source,
                                                         const char *where) {
  std::string problem;
  int64_t handle = 0;
  {
    const Encoder &decoder = encoderOf(encoder);
    if (source->sizes[1] != decoder.getOutputCols())
      problem = "transformdecode: the matrix has " +
                std::to_string(source->sizes[1]) +
                " column(s), the metadata encodes " +
                std::to_string(decoder.getOutputCols());
    else if (source->strides[1] != 1)
      problem = "transformdecode: the matrix is not row-major";
    if (problem.empty()) {
      std::unique_ptr<Frame> frame;
      problem = decoder.decode(source->aligned + source->offset,
                               source->sizes[0], source->strides[0], frame);
      if (problem.empty())
        handle = keepFrame(std::move(frame));
    }
  }
  if (!problem.empty()) {
    amls_rt_transform_release(encoder);
    failAt(where, problem);
  }
  return handle;
}
