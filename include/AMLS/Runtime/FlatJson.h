//===- FlatJson.h - The flat JSON objects of metadata files -----*- C++ -*-===//
//
// A strict parser and a writer for the one kind of JSON that SystemDS's
// `.mtd` metadata files hold: one object whose members are strings,
// numbers, booleans, null or arrays of those (a frame's "naStrings"; no
// nested objects, no arrays in arrays). The runtime does
// not link LLVM, so it cannot use llvm::json; this is the part it needs.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_FLATJSON_H
#define AMLS_RUNTIME_FLATJSON_H

#include <string>
#include <string_view>
#include <vector>

namespace amls::runtime::json {

/// A member's value. Numbers keep their text (an integer such as "rows"
/// is checked as one by whoever reads it).
struct Value {
  enum class Kind { String, Number, Boolean, Null, Array };
  Kind kind = Kind::Null;
  /// The decoded string, or the number's text as written.
  std::string text;
  double number = 0.0;
  bool boolean = false;
  /// An array's elements: scalars (SystemDS's frame metadata lists its
  /// na.strings so).
  std::vector<Value> elements;
};

struct Member {
  std::string key;
  Value value;
};

/// Parses `text` as one JSON object of scalar (or array of scalar) members
/// into `members`, in file order. Returns "" or the problem with its line
/// and column ("line 2, column 7: expected ':' after the key \"rows\"").
/// Duplicate keys, nested objects and arrays, trailing commas and anything
/// after the object are errors.
std::string parseFlatObject(std::string_view text,
                            std::vector<Member> &members);

/// The member `key` of `members`, or null.
const Value *find(const std::vector<Member> &members, std::string_view key);

/// `text` as a JSON string literal (quotes and escapes included).
std::string quote(std::string_view text);

} // namespace amls::runtime::json

#endif // AMLS_RUNTIME_FLATJSON_H
