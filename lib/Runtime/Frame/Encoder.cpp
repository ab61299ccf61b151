//===- Encoder.cpp - transformencode's fitted encoders --------------------===//
//
// Fitting runs a column per thread (the columns are independent, as in
// SystemDS's MultiColumnEncoder); applying and decoding run a block of rows
// per thread. Each thread keeps its own problem; the first column's (or
// row block's) is reported.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Frame/Encoder.h"

#include "../Kernels/Threads.h"
#include "AMLS/Support/TextParsing.h"

#include <algorithm>
#include <cmath>

namespace amls::runtime::frame {

using Kind = ColumnEncoding::Kind;

int64_t ColumnEncoding::getNumCodes() const {
  switch (kind) {
  case Kind::Recode:
    return static_cast<int64_t>(tokens.size());
  case Kind::Bin:
    return static_cast<int64_t>(binMaxs.size());
  case Kind::Hash:
    return buckets;
  case Kind::PassThrough:
    return 0;
  }
  return 0;
}

/// Java's String.hashCode over the UTF-16 code units of a UTF-8 token, so
/// that a hashed column gets SystemDS's codes.
static int32_t javaStringHash(std::string_view text) {
  uint32_t hash = 0;
  auto mix = [&](uint32_t unit) { hash = 31 * hash + unit; };
  for (size_t i = 0; i < text.size();) {
    unsigned char lead = text[i];
    uint32_t point;
    size_t length;
    if (lead < 0x80) {
      point = lead, length = 1;
    } else if ((lead >> 5) == 0x6 && i + 1 < text.size()) {
      point = ((lead & 0x1F) << 6) | (text[i + 1] & 0x3F), length = 2;
    } else if ((lead >> 4) == 0xE && i + 2 < text.size()) {
      point = ((lead & 0x0F) << 12) | ((text[i + 1] & 0x3F) << 6) |
              (text[i + 2] & 0x3F),
      length = 3;
    } else if ((lead >> 3) == 0x1E && i + 3 < text.size()) {
      point = ((lead & 0x07) << 18) | ((text[i + 1] & 0x3F) << 12) |
              ((text[i + 2] & 0x3F) << 6) | (text[i + 3] & 0x3F),
      length = 4;
    } else {
      point = lead, length = 1; // Not UTF-8: the byte as it is.
    }
    if (point >= 0x10000) {
      point -= 0x10000;
      mix(0xD800 + (point >> 10));
      mix(0xDC00 + (point & 0x3FF));
    } else {
      mix(point);
    }
    i += length;
  }
  return static_cast<int32_t>(hash);
}

/// The cell's text as a token ("" where missing): a view of a string
/// cell, else of its formatted text in `scratch`.
static std::string_view tokenOf(const Column &column, int64_t row,
                                std::string &scratch) {
  if (column.getType() == AMLS_FRAME_STRING)
    return column.getString(row);
  scratch = column.format(row);
  return scratch;
}

static std::string tokenOf(const Column &column, int64_t row) {
  std::string scratch;
  return std::string(tokenOf(column, row, scratch));
}

int64_t ColumnEncoding::addToken(std::string_view token) {
  if (auto found = codes.find(token); found != codes.end())
    return found->second;
  tokens.emplace_back(token);
  int64_t code = static_cast<int64_t>(tokens.size());
  codes.emplace(tokens.back(), code);
  return code;
}

double ColumnEncoding::binCode(double value) const {
  if (std::isnan(value))
    return value;
  int64_t bins = static_cast<int64_t>(binMaxs.size());
  if (binMethod == BinMethod::EquiWidth) {
    double min = binMins.front(), max = binMaxs.back();
    if (max == min)
      return 1;
    double code = std::ceil((value - min) / (max - min) * bins);
    return std::clamp<double>(code, 1, bins);
  }
  // Equi-height: the first bin whose upper bound holds the value.
  auto bound = std::lower_bound(binMaxs.begin(), binMaxs.end(), value);
  return static_cast<double>(
      std::min<int64_t>(bound - binMaxs.begin() + 1, bins));
}

/// The cell as a number: "" or the problem.
static std::string numberOf(const Column &column, int64_t row, double &value) {
  if (isNumeric(column.getType())) {
    value = column.getNumber(row);
    return "";
  }
  std::string_view text = column.getString(row);
  if (parseDouble(trim(text), value))
    return "";
  return "column '" + column.getName() + "', row " + std::to_string(row + 1) +
         ": expected a number, found " + quoted(text) +
         " (recode, hash or impute the column in the spec)";
}

std::string Encoder::configure(const TransformSpec &spec) {
  auto claim = [&](int64_t col, Kind kind, const char *key) -> std::string {
    ColumnEncoding &encoding = columns[col];
    if (encoding.kind != Kind::PassThrough && encoding.kind != kind)
      return "transform spec: \"" + std::string(key) + "\": column '" +
             names[col] + "' is already " +
             (encoding.kind == Kind::Recode ? "recoded"
              : encoding.kind == Kind::Bin  ? "binned"
                                            : "hashed");
    encoding.kind = kind;
    return "";
  };
  for (int64_t col : spec.recode)
    if (std::string problem = claim(col, Kind::Recode, "recode");
        !problem.empty())
      return problem;
  for (const TransformSpec::Bin &bin : spec.bin) {
    if (std::string problem = claim(bin.column, Kind::Bin, "bin");
        !problem.empty())
      return problem;
    columns[bin.column].binMethod = bin.method;
    // The bin count until fitting computes the bounds.
    columns[bin.column].binMins.assign(bin.bins, NAN);
    columns[bin.column].binMaxs.assign(bin.bins, NAN);
  }
  for (int64_t col : spec.hash) {
    if (std::string problem = claim(col, Kind::Hash, "hash"); !problem.empty())
      return problem;
    columns[col].buckets = spec.hashBuckets;
  }
  // A dummy-coded column that is neither binned nor hashed is recoded.
  for (int64_t col : spec.dummycode) {
    if (columns[col].kind == Kind::PassThrough)
      columns[col].kind = Kind::Recode;
    columns[col].dummy = true;
  }
  for (int64_t col : spec.omit)
    columns[col].omit = true;
  for (const TransformSpec::Impute &impute : spec.impute) {
    columns[impute.column].impute = impute.method;
    columns[impute.column].imputed = impute.value;
  }
  return "";
}

/// Fits one column: the imputed value, then the recode map or the bins.
/// Keeps each row's code or number in `encoding.fitted`, which applying
/// the encoder to the same frame reads instead of parsing and looking up
/// every cell again.
static std::string fitColumn(const Column &column, ColumnEncoding &encoding) {
  int64_t rows = column.size();
  bool numeric =
      encoding.kind == Kind::Bin || encoding.kind == Kind::PassThrough;
  std::vector<double> &fitted = encoding.fitted;
  if (numeric || encoding.impute == ImputeMethod::GlobalMean) {
    fitted.assign(rows, NAN);
    const char *what = encoding.impute == ImputeMethod::GlobalMean
                           ? "impute global_mean: "
                       : encoding.kind == Kind::Bin ? "bin: "
                                                    : "";
    for (int64_t row = 0; row < rows; ++row)
      if (!column.isMissing(row))
        if (std::string problem = numberOf(column, row, fitted[row]);
            !problem.empty())
          return what + problem;
  }
  if (encoding.impute == ImputeMethod::GlobalMean) {
    double sum = 0, compensation = 0;
    int64_t count = 0;
    for (double value : fitted) {
      if (std::isnan(value))
        continue;
      // Kahan-compensated, as SystemDS's mean.
      double y = value - compensation, t = sum + y;
      compensation = (t - sum) - y;
      sum = t;
      ++count;
    }
    double mean = count ? sum / count : NAN;
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.17g", mean);
    encoding.imputed = buffer;
  } else if (encoding.impute == ImputeMethod::GlobalMode) {
    std::unordered_map<std::string, int64_t> counts;
    std::string mode;
    int64_t best = 0;
    for (int64_t row = 0; row < rows; ++row) {
      if (column.isMissing(row))
        continue;
      std::string token = tokenOf(column, row);
      int64_t count = ++counts[token];
      if (count > best) // Ties go to the token that got there first.
        best = count, mode = std::move(token);
    }
    encoding.imputed = mode;
  }
  bool imputes = encoding.impute != ImputeMethod::None;

  if (encoding.kind == Kind::Recode) {
    fitted.assign(rows, NAN);
    std::string scratch;
    for (int64_t row = 0; row < rows; ++row) {
      // (Views on both sides: `imputes ? imputed : ""` would view a
      // temporary string.)
      std::string_view none, imputed = encoding.imputed;
      std::string_view token = !column.isMissing(row)
                                   ? tokenOf(column, row, scratch)
                               : imputes ? imputed
                                         : none;
      if (!token.empty())
        fitted[row] = static_cast<double>(encoding.addToken(token));
    }
    return "";
  }
  if (!numeric) {
    fitted.clear();
    return "";
  }
  if (imputes) {
    double imputedValue;
    if (!parseDouble(encoding.imputed, imputedValue))
      return "column '" + column.getName() + "': the imputed value " +
             quoted(encoding.imputed) + " is not a number";
    for (int64_t row = 0; row < rows; ++row)
      if (column.isMissing(row))
        fitted[row] = imputedValue;
  }
  if (encoding.kind != Kind::Bin)
    return "";
  std::vector<double> values;
  values.reserve(rows);
  for (double value : fitted)
    if (!std::isnan(value))
      values.push_back(value);
  if (values.empty())
    return "bin: column '" + column.getName() + "' has no values to bin";
  int64_t bins = static_cast<int64_t>(encoding.binMaxs.size());
  if (encoding.binMethod == BinMethod::EquiWidth) {
    auto [low, high] = std::minmax_element(values.begin(), values.end());
    double min = *low, max = *high;
    if (min == max)
      bins = 1;
    encoding.binMins.resize(bins);
    encoding.binMaxs.resize(bins);
    for (int64_t i = 0; i < bins; ++i) {
      encoding.binMins[i] = min + i * (max - min) / bins;
      encoding.binMaxs[i] = min + (i + 1) * (max - min) / bins;
    }
    return "";
  }
  // Equi-height: the bins' upper bounds are the values at the quantiles
  // i/bins, as SystemDS computes them.
  std::sort(values.begin(), values.end());
  int64_t n = static_cast<int64_t>(values.size());
  for (int64_t i = 0; i < bins; ++i) {
    double position = static_cast<double>(n) * (i + 1) / bins;
    int64_t index = position == std::floor(position)
                        ? static_cast<int64_t>(position) - 1
                        : static_cast<int64_t>(std::floor(position));
    encoding.binMaxs[i] = values[std::clamp<int64_t>(index, 0, n - 1)];
  }
  encoding.binMaxs[bins - 1] = values[n - 1];
  encoding.binMins[0] = values[0];
  for (int64_t i = 1; i < bins; ++i)
    encoding.binMins[i] = encoding.binMaxs[i - 1];
  return "";
}

/// Runs fn(i) for i in [0, count) on the runtime's threads, each thread
/// taking every threads-th index; returns the problem of the first index
/// that had one.
template <typename Fn>
static std::string forEachInParallel(int64_t count, int64_t minPerThread,
                                     Fn &&fn) {
  std::vector<std::string> problems(count);
  int64_t threads = threadsFor(count, minPerThread);
  runThreads(threads, [&](int64_t t) {
    for (int64_t i = t; i < count; i += threads)
      problems[i] = fn(i);
  });
  for (std::string &problem : problems)
    if (!problem.empty())
      return std::move(problem);
  return "";
}

std::string Encoder::configure(const Frame &columnsOf,
                               std::string_view specText) {
  for (int64_t col = 0; col < columnsOf.getCols(); ++col)
    names.push_back(columnsOf.column(col).getName());
  columns.resize(columnsOf.getCols());
  TransformSpec spec;
  if (std::string problem = parseTransformSpec(specText, names, spec);
      !problem.empty())
    return problem;
  return configure(spec);
}

std::string Encoder::fit(const Frame &frame, std::string_view specText,
                         std::unique_ptr<Encoder> &result) {
  auto encoder = std::make_unique<Encoder>();
  if (std::string problem = encoder->configure(frame, specText);
      !problem.empty())
    return problem;
  encoder->fittedFrame = &frame;
  if (std::string problem = forEachInParallel(
          frame.getCols(), 1,
          [&](int64_t col) {
            return fitColumn(frame.column(col), encoder->columns[col]);
          });
      !problem.empty())
    return problem;
  result = std::move(encoder);
  return "";
}

/// Splits a metadata cell `a·b` at its last separator.
static bool splitMeta(std::string_view cell, std::string_view &first,
                      std::string_view &second) {
  size_t at = cell.rfind(kMetaSeparator);
  if (at == std::string_view::npos)
    return false;
  first = cell.substr(0, at);
  second = cell.substr(at + kMetaSeparator.size());
  return true;
}

std::string Encoder::fromMeta(const Frame &meta, std::string_view specText,
                              std::unique_ptr<Encoder> &result) {
  auto encoder = std::make_unique<Encoder>();
  if (std::string problem = encoder->configure(meta, specText);
      !problem.empty())
    return problem;
  for (int64_t col = 0; col < meta.getCols(); ++col) {
    const Column &column = meta.column(col);
    ColumnEncoding &encoding = encoder->columns[col];
    // A constant comes from the spec; a mean or a mode from the metadata,
    // which holds it only as transformencode made it (a metadata frame
    // written as CSV and read back has lost it).
    if (encoding.impute == ImputeMethod::GlobalMean ||
        encoding.impute == ImputeMethod::GlobalMode) {
      if (column.imputedValue.empty())
        return "the metadata frame does not hold the imputed value of column "
               "'" +
               column.getName() +
               "' (pass the metadata transformencode returned, not one "
               "read back from a file)";
      encoding.imputed = column.imputedValue;
    }
    auto problemAt = [&](int64_t row, const std::string &what) {
      return "the metadata frame's column '" + column.getName() + "', row " +
             std::to_string(row + 1) + ": expected " + what + ", found " +
             quoted(column.format(row));
    };
    if (encoding.kind == Kind::Recode) {
      for (int64_t row = 0; row < meta.getRows(); ++row) {
        if (column.isMissing(row))
          break;
        std::string cell = tokenOf(column, row);
        std::string_view token, code;
        double value;
        if (!splitMeta(cell, token, code) || !parseDouble(code, value) ||
            value != static_cast<double>(row + 1))
          return problemAt(row,
                           "'token·code' with code " + std::to_string(row + 1));
        if (encoding.codes.count(token))
          return problemAt(row, "a token the rows above do not list");
        encoding.addToken(token);
      }
    } else if (encoding.kind == Kind::Bin) {
      encoding.binMins.clear();
      encoding.binMaxs.clear();
      for (int64_t row = 0; row < meta.getRows(); ++row) {
        if (column.isMissing(row))
          break;
        std::string cell = tokenOf(column, row);
        std::string_view low, high;
        double min, max;
        if (!splitMeta(cell, low, high) || !parseDouble(low, min) ||
            !parseDouble(high, max))
          return problemAt(row, "the bin bounds 'min·max'");
        encoding.binMins.push_back(min);
        encoding.binMaxs.push_back(max);
      }
      if (encoding.binMaxs.empty())
        return "the metadata frame has no bins for column '" +
               column.getName() + "'";
    }
  }
  result = std::move(encoder);
  return "";
}

int64_t Encoder::getOutputCols() const {
  int64_t width = 0;
  for (const ColumnEncoding &encoding : columns)
    width += encoding.getWidth();
  return width;
}

bool Encoder::isOmitted(const Frame &frame, int64_t row) const {
  for (int64_t col = 0; col < getInputCols(); ++col)
    if (columns[col].omit && frame.column(col).isMissing(row))
      return true;
  return false;
}

int64_t Encoder::countKeptRows(const Frame &frame) const {
  int64_t kept = 0;
  for (int64_t row = 0; row < frame.getRows(); ++row)
    kept += !isOmitted(frame, row);
  return kept;
}

double Encoder::encodeCell(const ColumnEncoding &encoding, const Column &column,
                           int64_t row, std::string &problem) const {
  bool missing = column.isMissing(row);
  if (missing && encoding.impute == ImputeMethod::None)
    return NAN;
  switch (encoding.kind) {
  case Kind::Recode:
  case Kind::Hash: {
    std::string scratch;
    std::string_view token = missing ? std::string_view(encoding.imputed)
                                     : tokenOf(column, row, scratch);
    if (encoding.kind == Kind::Hash)
      return std::fmod(std::fabs(static_cast<double>(javaStringHash(token))),
                       static_cast<double>(encoding.buckets)) +
             1;
    auto found = encoding.codes.find(token);
    return found == encoding.codes.end() ? NAN
                                         : static_cast<double>(found->second);
  }
  case Kind::Bin:
  case Kind::PassThrough: {
    double value = NAN;
    if (missing) {
      if (!parseDouble(encoding.imputed, value))
        problem = "column '" + column.getName() + "': the imputed value " +
                  quoted(encoding.imputed) + " is not a number";
    } else {
      problem = numberOf(column, row, value);
    }
    return encoding.kind == Kind::PassThrough ? value : encoding.binCode(value);
  }
  }
  return NAN;
}

std::string Encoder::apply(const Frame &frame, double *out,
                           int64_t stride) const {
  if (frame.getCols() != getInputCols())
    return "the frame has " + std::to_string(frame.getCols()) +
           " column(s), the encoder's metadata " +
           std::to_string(getInputCols());
  std::vector<int64_t> kept;
  kept.reserve(frame.getRows());
  for (int64_t row = 0; row < frame.getRows(); ++row)
    if (!isOmitted(frame, row))
      kept.push_back(row);
  std::vector<int64_t> offsets;
  int64_t offset = 0;
  for (const ColumnEncoding &encoding : columns) {
    offsets.push_back(offset);
    offset += encoding.getWidth();
  }
  constexpr int64_t kRowsPerBlock = 4096;
  int64_t blocks =
      (static_cast<int64_t>(kept.size()) + kRowsPerBlock - 1) / kRowsPerBlock;
  return forEachInParallel(blocks, 1, [&](int64_t block) -> std::string {
    int64_t begin = block * kRowsPerBlock;
    int64_t end = std::min<int64_t>(begin + kRowsPerBlock,
                                    static_cast<int64_t>(kept.size()));
    std::string problem;
    for (int64_t i = begin; i < end; ++i) {
      double *row = out + i * stride;
      for (int64_t col = 0; col < getInputCols(); ++col) {
        const ColumnEncoding &encoding = columns[col];
        double code;
        if (&frame == fittedFrame && !encoding.fitted.empty())
          code = encoding.kind == Kind::Bin
                     ? encoding.binCode(encoding.fitted[kept[i]])
                     : encoding.fitted[kept[i]];
        else
          code = encodeCell(encoding, frame.column(col), kept[i], problem);
        if (!problem.empty())
          return problem;
        double *cells = row + offsets[col];
        if (!encoding.dummy) {
          cells[0] = code;
          continue;
        }
        int64_t width = encoding.getWidth();
        std::fill(cells, cells + width, 0.0);
        // A missing or unseen value is a row of zeros.
        if (!std::isnan(code) && code >= 1 && code <= width)
          cells[static_cast<int64_t>(code) - 1] = 1;
      }
    }
    return "";
  });
}

std::unique_ptr<Frame> Encoder::getMeta() const {
  auto meta = std::make_unique<Frame>();
  int64_t rows = 0;
  for (const ColumnEncoding &encoding : columns)
    if (encoding.kind == Kind::Recode || encoding.kind == Kind::Bin)
      rows = std::max(rows, encoding.getNumCodes());
  for (int64_t col = 0; col < getInputCols(); ++col) {
    const ColumnEncoding &encoding = columns[col];
    Column &column = meta->addColumn(names[col], AMLS_FRAME_STRING);
    column.reserve(rows);
    int64_t written = 0;
    std::string cell;
    if (encoding.kind == Kind::Recode) {
      for (const std::string &token : encoding.tokens) {
        cell = token;
        cell += kMetaSeparator;
        cell += std::to_string(++written);
        column.appendString(cell);
      }
    } else if (encoding.kind == Kind::Bin) {
      for (size_t i = 0; i < encoding.binMaxs.size(); ++i, ++written) {
        char buffer[80];
        std::snprintf(buffer, sizeof(buffer), "%.17g%s%.17g",
                      encoding.binMins[i], kMetaSeparator.data(),
                      encoding.binMaxs[i]);
        column.appendString(buffer);
      }
    }
    for (; written < rows; ++written)
      column.appendMissing();
    column.numDistinct = encoding.getNumCodes();
    column.imputedValue = encoding.imputed;
  }
  meta->setRows(rows);
  return meta;
}

std::string Encoder::decode(const double *cells, int64_t rows, int64_t stride,
                            std::unique_ptr<Frame> &result) const {
  auto frame = std::make_unique<Frame>();
  for (int64_t col = 0; col < getInputCols(); ++col) {
    const ColumnEncoding &encoding = columns[col];
    bool tokens = encoding.kind == Kind::Recode;
    Column &column = frame->addColumn(names[col], tokens ? AMLS_FRAME_STRING
                                                         : AMLS_FRAME_FP64);
    column.reserve(rows);
  }
  int64_t offset = 0;
  for (int64_t col = 0; col < getInputCols(); ++col) {
    const ColumnEncoding &encoding = columns[col];
    Column &column = frame->column(col);
    int64_t width = encoding.getWidth();
    if (encoding.kind == Kind::Hash)
      return "transformdecode: column '" + names[col] +
             "' is hashed, which cannot be decoded";
    for (int64_t row = 0; row < rows; ++row) {
      const double *in = cells + row * stride + offset;
      double code = in[0];
      if (encoding.dummy) {
        // The position of the largest cell; a row of zeros has no value.
        int64_t best = -1;
        for (int64_t j = 0; j < width; ++j)
          if (in[j] != 0 && (best < 0 || in[j] > in[best]))
            best = j;
        code = best < 0 ? NAN : static_cast<double>(best + 1);
      }
      if (std::isnan(code)) {
        column.appendMissing();
        continue;
      }
      if (encoding.kind == Kind::PassThrough) {
        column.appendNumber(code);
        continue;
      }
      int64_t key = static_cast<int64_t>(std::llround(code));
      if (encoding.kind == Kind::Recode) {
        if (key < 1 || key > static_cast<int64_t>(encoding.tokens.size()))
          column.appendMissing();
        else
          column.appendString(encoding.tokens[key - 1]);
        continue;
      }
      // A bin decodes to its centre, plus the code's fraction of a bin (as
      // SystemDS's DecoderBin).
      int64_t bins = static_cast<int64_t>(encoding.binMaxs.size());
      if (key < 1 || key > bins) {
        column.appendMissing();
        continue;
      }
      double min = encoding.binMins[key - 1], max = encoding.binMaxs[key - 1];
      column.appendNumber(min + (max - min) / 2 + (code - key) * (max - min));
    }
    offset += width;
  }
  frame->setRows(rows);
  result = std::move(frame);
  return "";
}

} // namespace amls::runtime::frame
