//===- TransformSpec.h - The JSON spec of transformencode -------*- C++ -*-===//
//
// SystemDS's transform spec, e.g.
//
//   {ids: true, recode: [1, 2], dummycode: [2],
//    bin: [{id: 4, method: equi-width, numbins: 10}],
//    impute: [{id: 3, method: global_mean}], hash: [5], K: 100}
//
// SystemDS parses it leniently (keys and words need no quotes), and so does
// AMLS: bare words are quoted before nlohmann-json reads the text. Columns
// are 1-based indices with `ids: true`, else names of the frame's columns
// (a name's key is `name`, an index's `id` inside bin and impute entries).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FRAME_TRANSFORMSPEC_H
#define AMLS_RUNTIME_FRAME_TRANSFORMSPEC_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace amls::runtime::frame {

enum class BinMethod { EquiWidth, EquiHeight };
enum class ImputeMethod { None, GlobalMean, GlobalMode, Constant };

struct TransformSpec {
  struct Bin {
    int64_t column; // 0-based
    BinMethod method;
    int64_t bins;
  };
  struct Impute {
    int64_t column;
    ImputeMethod method;
    std::string value; // Constant's replacement.
  };
  /// 0-based columns, in the spec's order.
  std::vector<int64_t> recode, dummycode, hash, omit;
  std::vector<Bin> bin;
  std::vector<Impute> impute;
  int64_t hashBuckets = 0; // The spec's K.
};

/// Parses `text` against the frame's column names (`names`): "" or the
/// problem, naming the spec's key.
std::string parseTransformSpec(std::string_view text,
                               const std::vector<std::string> &names,
                               TransformSpec &spec);

/// The text with SystemDS's bare words quoted: valid JSON for nlohmann-json
/// when the rest of the text is JSON. (Exposed for its unit test.)
std::string quoteBareWords(std::string_view text);

} // namespace amls::runtime::frame

#endif // AMLS_RUNTIME_FRAME_TRANSFORMSPEC_H
