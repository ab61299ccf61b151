//===- Encoder.h - transformencode's fitted encoders ------------*- C++ -*-===//
//
// One encoding per column of the frame, as SystemDS's ColumnEncoders: a
// missing cell is first imputed (global mean, mode or a constant), then
// recoded (codes 1..n in order of first appearance), binned (equi-width or
// equi-height, codes 1..bins), hashed (1..K) or passed through as a number;
// dummy coding spreads a code over as many 0/1 columns as the code has
// values. An encoder is fitted from a frame (transformencode) or rebuilt
// from the metadata frame it wrote (transformapply, transformdecode).
//
// The metadata frame has the target's columns and names; a recoded column
// lists `token·code` per code, a binned one `min·max` per bin, as SystemDS
// writes them (the separator is U+00B7); each column also carries its code
// count and imputed value (Column::numDistinct, Column::imputedValue).
//
// Every function returns "" or the problem; none fails on its own.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FRAME_ENCODER_H
#define AMLS_RUNTIME_FRAME_ENCODER_H

#include "AMLS/Runtime/Frame/Frame.h"
#include "AMLS/Runtime/Frame/TransformSpec.h"

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace amls::runtime::frame {

/// Separates a token from its code in the metadata (SystemDS's
/// Lop.DATATYPE_PREFIX, U+00B7).
inline constexpr std::string_view kMetaSeparator = "\xC2\xB7";

struct ColumnEncoding {
  ColumnEncoding() = default;
  // A copy's `codes` would view the original's tokens.
  ColumnEncoding(const ColumnEncoding &) = delete;
  ColumnEncoding &operator=(const ColumnEncoding &) = delete;
  ColumnEncoding(ColumnEncoding &&) = default;
  ColumnEncoding &operator=(ColumnEncoding &&) = default;

  /// The code of `token`, the next one unless it has one.
  int64_t addToken(std::string_view token);
  /// The bin of a number (NaN stays NaN).
  double binCode(double value) const;

  enum class Kind { PassThrough, Recode, Bin, Hash };
  Kind kind = Kind::PassThrough;
  bool dummy = false;
  bool omit = false;
  ImputeMethod impute = ImputeMethod::None;
  /// The value a missing cell becomes (as text: a token or a number).
  std::string imputed;

  // Recode.
  // tokens[code - 1]; a deque, so that the views `codes` is keyed by stay
  // where they are while tokens are added (a lookup makes no string).
  std::deque<std::string> tokens;
  std::unordered_map<std::string_view, int64_t> codes;
  // Bin.
  BinMethod binMethod = BinMethod::EquiWidth;
  std::vector<double> binMins, binMaxs;
  // Hash.
  int64_t buckets = 0;
  /// What fitting computed per row of the frame it read: the recode code,
  /// or the number (imputed) of a binned or passed-through column; empty
  /// otherwise.
  std::vector<double> fitted;

  /// The number of codes (recode, bin, hash); 0 for a passed-through column.
  int64_t getNumCodes() const;
  /// The matrix columns it writes.
  int64_t getWidth() const {
    return dummy ? std::max<int64_t>(1, getNumCodes()) : 1;
  }
};

class Encoder {
public:
  /// Fits the encoders the spec names to `frame`.
  static std::string fit(const Frame &frame, std::string_view spec,
                         std::unique_ptr<Encoder> &result);
  /// Rebuilds them from the metadata frame `fit` wrote.
  static std::string fromMeta(const Frame &meta, std::string_view spec,
                              std::unique_ptr<Encoder> &result);

  int64_t getInputCols() const { return static_cast<int64_t>(columns.size()); }
  /// The encoded matrix's columns.
  int64_t getOutputCols() const;
  /// The rows of `frame` that `omit` keeps.
  int64_t countKeptRows(const Frame &frame) const;

  /// Writes the encoded rows of `frame` (those `omit` keeps) into `out`, a
  /// row-major buffer of countKeptRows() x getOutputCols() with row stride
  /// `stride`.
  std::string apply(const Frame &frame, double *out, int64_t stride) const;
  std::unique_ptr<Frame> getMeta() const;
  /// The frame `rows` x getOutputCols() encoded cells decode to.
  std::string decode(const double *cells, int64_t rows, int64_t stride,
                     std::unique_ptr<Frame> &result) const;

private:
  std::vector<std::string> names;
  std::vector<ColumnEncoding> columns;
  /// The frame `fit` read, whose cells `ColumnEncoding::fitted` holds.
  const Frame *fittedFrame = nullptr;

  /// Takes the column names of `columnsOf` (the target or the metadata
  /// frame) and the encodings the spec gives them.
  std::string configure(const Frame &columnsOf, std::string_view spec);
  std::string configure(const TransformSpec &spec);
  /// Whether `omit` drops the row.
  bool isOmitted(const Frame &frame, int64_t row) const;
  /// The code of one (imputed) cell; NaN where it has none.
  double encodeCell(const ColumnEncoding &encoding, const Column &column,
                    int64_t row, std::string &problem) const;
};

} // namespace amls::runtime::frame

#endif // AMLS_RUNTIME_FRAME_ENCODER_H
