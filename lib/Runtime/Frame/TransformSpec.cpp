//===- TransformSpec.cpp - Parsing the JSON spec of transformencode -------===//

#include "AMLS/Runtime/Frame/TransformSpec.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>

namespace amls::runtime::frame {

using nlohmann::json;

static bool isJsonNumber(std::string_view word) {
  // JSON's numbers start with a digit or a minus and a digit (from_chars
  // also reads "inf", "nan" and ".5").
  size_t first = !word.empty() && word[0] == '-' ? 1 : 0;
  if (first >= word.size() ||
      !std::isdigit(static_cast<unsigned char>(word[first])))
    return false;
  double value;
  auto [end, error] =
      std::from_chars(word.data(), word.data() + word.size(), value);
  return error == std::errc() && end == word.data() + word.size();
}

std::string quoteBareWords(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      // A string: copied as a double-quoted JSON string.
      char quote = c;
      out += '"';
      for (++i; i < text.size() && text[i] != quote; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
          out += text[i++];
          out += text[i];
          continue;
        }
        if (text[i] == '"')
          out += '\\';
        out += text[i];
      }
      out += '"';
      ++i;
      continue;
    }
    if (std::string_view(" \t\r\n,:{}[]").find(c) != std::string_view::npos) {
      out += c;
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() &&
           std::string_view(" \t\r\n,:{}[]\"'").find(text[i]) ==
               std::string_view::npos)
      ++i;
    std::string_view word = text.substr(start, i - start);
    if (word == "true" || word == "false" || word == "null" ||
        isJsonNumber(word))
      out += word;
    else
      out += "\"" + std::string(word) + "\"";
  }
  return out;
}

namespace {

/// Resolves the columns the spec names against the frame's.
struct ColumnResolver {
  bool ids;
  const std::vector<std::string> &names;

  std::string list() const {
    std::string text;
    for (size_t i = 0; i < names.size() && i < 20; ++i)
      text += (i ? ", " : "") + names[i];
    if (names.size() > 20)
      text += ", ...";
    return text;
  }

  /// `value` names a column under `key`: "" or the problem.
  std::string resolve(const json &value, const std::string &key,
                      int64_t &column) const {
    if (ids) {
      if (!value.is_number_integer())
        return "\"" + key + "\": expected a column index (ids: true), found " +
               value.dump();
      int64_t id = value.get<int64_t>();
      if (id < 1 || id > static_cast<int64_t>(names.size()))
        return "\"" + key + "\": column " + std::to_string(id) +
               " is not a column of the frame (1.." +
               std::to_string(names.size()) + ")";
      column = id - 1;
      return "";
    }
    if (!value.is_string())
      return "\"" + key +
             "\": expected a column name (or ids: true for indices), found " +
             value.dump();
    std::string name = value.get<std::string>();
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) {
        column = static_cast<int64_t>(i);
        return "";
      }
    return "\"" + key + "\": no column named '" + name +
           "' (the frame's columns: " + list() + ")";
  }

  std::string resolveList(const json &value, const std::string &key,
                          std::vector<int64_t> &columns) const {
    if (!value.is_array())
      return "\"" + key + "\": expected a list of columns, found " +
             value.dump();
    for (const json &element : value) {
      int64_t column;
      if (std::string problem = resolve(element, key, column); !problem.empty())
        return problem;
      columns.push_back(column);
    }
    return "";
  }

  /// The column of an object entry of `key` (`id` or `name`).
  std::string resolveEntry(const json &entry, const std::string &key,
                           int64_t &column) const {
    if (!entry.is_object())
      return "\"" + key + "\": expected objects such as {" +
             (ids ? "id: 1" : "name: \"col\"") + ", method: ...}, found " +
             entry.dump();
    const char *field = ids ? "id" : "name";
    if (!entry.contains(field))
      return "\"" + key + "\": an entry without \"" + field +
             "\": " + entry.dump();
    return resolve(entry.at(field), key, column);
  }
};

} // namespace

std::string parseTransformSpec(std::string_view text,
                               const std::vector<std::string> &names,
                               TransformSpec &spec) {
  json root = json::parse(quoteBareWords(text), nullptr,
                          /*allow_exceptions=*/false);
  if (root.is_discarded())
    return "the transform spec is not JSON: " + std::string(text.substr(0, 80));
  if (!root.is_object())
    return "the transform spec is not a JSON object: " +
           std::string(text.substr(0, 80));
  bool ids = false;
  if (root.contains("ids")) {
    if (!root["ids"].is_boolean())
      return "\"ids\": expected true or false, found " + root["ids"].dump();
    ids = root["ids"].get<bool>();
  }
  ColumnResolver resolver{ids, names};
  for (auto &[key, value] : root.items()) {
    std::string problem;
    if (key == "ids") {
      continue;
    } else if (key == "recode") {
      problem = resolver.resolveList(value, key, spec.recode);
    } else if (key == "dummycode") {
      problem = resolver.resolveList(value, key, spec.dummycode);
    } else if (key == "hash") {
      problem = resolver.resolveList(value, key, spec.hash);
    } else if (key == "omit") {
      problem = resolver.resolveList(value, key, spec.omit);
    } else if (key == "K") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1)
        problem = "\"K\": expected a positive number of hash buckets, found " +
                  value.dump();
      else
        spec.hashBuckets = value.get<int64_t>();
    } else if (key == "bin") {
      if (!value.is_array()) {
        problem =
            "\"bin\": expected a list of bin entries, found " + value.dump();
      } else {
        for (const json &entry : value) {
          TransformSpec::Bin bin{0, BinMethod::EquiWidth, 0};
          if (!(problem = resolver.resolveEntry(entry, key, bin.column))
                   .empty())
            break;
          if (entry.contains("method") && !entry["method"].is_string()) {
            problem = "\"bin\": expected the method as a string, found " +
                      entry["method"].dump();
            break;
          }
          std::string method = entry.value("method", "equi-width");
          if (method == "equi-width") {
            bin.method = BinMethod::EquiWidth;
          } else if (method == "equi-height") {
            bin.method = BinMethod::EquiHeight;
          } else {
            problem = "\"bin\": unknown method '" + method +
                      "' (expected equi-width or equi-height)";
            break;
          }
          if (!entry.contains("numbins") ||
              !entry["numbins"].is_number_integer() ||
              entry["numbins"].get<int64_t>() < 1) {
            problem =
                "\"bin\": expected a positive \"numbins\" in " + entry.dump();
            break;
          }
          bin.bins = entry["numbins"].get<int64_t>();
          spec.bin.push_back(bin);
        }
      }
    } else if (key == "impute") {
      if (!value.is_array()) {
        problem = "\"impute\": expected a list of impute entries, found " +
                  value.dump();
      } else {
        for (const json &entry : value) {
          TransformSpec::Impute impute{0, ImputeMethod::None, ""};
          if (!(problem = resolver.resolveEntry(entry, key, impute.column))
                   .empty())
            break;
          if (entry.contains("method") && !entry["method"].is_string()) {
            problem = "\"impute\": expected the method as a string, found " +
                      entry["method"].dump();
            break;
          }
          std::string method = entry.value("method", "");
          if (method == "global_mean") {
            impute.method = ImputeMethod::GlobalMean;
          } else if (method == "global_mode") {
            impute.method = ImputeMethod::GlobalMode;
          } else if (method == "constant") {
            impute.method = ImputeMethod::Constant;
            if (!entry.contains("value")) {
              problem = "\"impute\": method constant needs a \"value\" in " +
                        entry.dump();
              break;
            }
            const json &replacement = entry["value"];
            impute.value = replacement.is_string()
                               ? replacement.get<std::string>()
                               : replacement.dump();
          } else {
            problem = "\"impute\": unknown method '" + method +
                      "' (expected global_mean, global_mode or constant)";
            break;
          }
          spec.impute.push_back(impute);
        }
      }
    } else if (key == "bag_of_words" || key == "word_embeddings" ||
               key == "udf") {
      problem = "\"" + key +
                "\": this encoder is not supported yet (AMLS "
                "encodes recode, dummycode, bin, hash, impute and omit)";
    } else {
      problem = "unknown key \"" + key +
                "\" (expected ids, recode, dummycode, bin, hash, K, impute "
                "or omit)";
    }
    if (!problem.empty())
      return "transform spec: " + problem;
  }
  if (!spec.hash.empty() && spec.hashBuckets == 0)
    return "transform spec: \"hash\" needs the number of buckets \"K\"";
  return "";
}

} // namespace amls::runtime::frame
