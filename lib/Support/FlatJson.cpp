//===- FlatJson.cpp - The flat JSON objects of metadata files -------------===//

#include "AMLS/Runtime/FlatJson.h"

#include <charconv>
#include <cstdio>

namespace amls::runtime::json {
namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  std::string parseObject(std::vector<Member> &members) {
    members.clear();
    skipSpace();
    if (!consume('{'))
      return problem("expected '{' to start the object");
    skipSpace();
    if (consume('}'))
      return end();
    while (true) {
      skipSpace();
      Member member;
      if (peek() != '"')
        return problem("expected a key in double quotes");
      if (std::string error = parseString(member.key); !error.empty())
        return error;
      if (find(members, member.key))
        return problem("the key \"" + member.key + "\" appears twice");
      skipSpace();
      if (!consume(':'))
        return problem("expected ':' after the key \"" + member.key + "\"");
      skipSpace();
      if (std::string error = parseValue(member.value); !error.empty())
        return error;
      members.push_back(std::move(member));
      skipSpace();
      if (consume('}'))
        return end();
      if (!consume(','))
        return problem("expected ',' or '}' after the value of \"" +
                       members.back().key + "\"");
      skipSpace();
      if (peek() == '}')
        return problem("expected a key after ',' (no trailing comma)");
    }
  }

private:
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  bool atEnd() const { return pos >= text.size(); }
  bool consume(char c) {
    if (atEnd() || text[pos] != c)
      return false;
    ++pos;
    return true;
  }
  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  /// The problem at the current position, as "line L, column C: ...".
  std::string problem(const std::string &what) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string found =
        atEnd() ? "the end of the text" : "'" + std::string(1, peek()) + "'";
    return "line " + std::to_string(line) + ", column " +
           std::to_string(column) + ": " + what + ", found " + found;
  }

  std::string end() {
    skipSpace();
    if (!atEnd())
      return problem("expected the end of the text after the object");
    return "";
  }

  std::string parseString(std::string &out) {
    out.clear();
    ++pos; // the opening quote
    while (true) {
      if (atEnd())
        return problem("expected '\"' to end the string");
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return "";
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return problem("expected '\"' to end the string before the line's end");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      char escaped = peek();
      const char *plain = "\"\\/bfnrt", *decoded = "\"\\/\b\f\n\r\t";
      bool known = false;
      for (int i = 0; plain[i]; ++i)
        if (escaped == plain[i]) {
          out += decoded[i];
          known = true;
        }
      if (known) {
        ++pos;
        continue;
      }
      if (escaped != 'u')
        return problem("expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                       "\\uXXXX)");
      ++pos;
      unsigned code = 0;
      if (pos + 4 > text.size() ||
          std::from_chars(text.data() + pos, text.data() + pos + 4, code, 16)
                  .ptr != text.data() + pos + 4)
        return problem("expected four hexadecimal digits after '\\u'");
      pos += 4;
      // UTF-8 of the code unit (paths and names are ASCII in practice;
      // surrogate pairs are kept as two units).
      if (code < 0x80) {
        out += static_cast<char>(code);
      } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      }
    }
  }

  bool literal(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  std::string parseValue(Value &value) {
    char c = peek();
    if (c == '"') {
      value.kind = Value::Kind::String;
      return parseString(value.text);
    }
    if (c == '[')
      return parseArray(value);
    if (c == '{')
      return problem("expected a string, number, true, false, null or an "
                     "array (a metadata file holds no nested objects)");
    bool isTrue = literal("true");
    if (isTrue || literal("false")) {
      value.kind = Value::Kind::Boolean;
      value.boolean = isTrue;
      return checkValueEnd();
    }
    if (literal("null")) {
      value.kind = Value::Kind::Null;
      return checkValueEnd();
    }
    // JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    size_t start = pos;
    auto digits = [&] {
      size_t first = pos;
      while (!atEnd() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos > first;
    };
    consume('-');
    if (peek() == '0')
      ++pos;
    else if (!digits()) {
      pos = start;
      return problem("expected a string, number, true, false or null");
    }
    if (consume('.') && !digits())
      return problem("expected digits after the decimal point");
    if (peek() == 'e' || peek() == 'E') {
      ++pos;
      if (!consume('+'))
        consume('-');
      if (!digits())
        return problem("expected the exponent's digits");
    }
    value.kind = Value::Kind::Number;
    value.text = std::string(text.substr(start, pos - start));
    auto [next, ec] =
        std::from_chars(text.data() + start, text.data() + pos, value.number);
    if (ec != std::errc() || next != text.data() + pos)
      return problem("expected a number that fits a double");
    return checkValueEnd();
  }

  /// A value ends at a blank, ',' or '}' ("truex" and "12a" are errors).
  /// An array of scalars (no nested arrays or objects).
  std::string parseArray(Value &value) {
    value.kind = Value::Kind::Array;
    ++pos; // '['
    skipSpace();
    if (consume(']'))
      return checkValueEnd();
    while (true) {
      skipSpace();
      if (peek() == '[' || peek() == '{')
        return problem("expected a string, number, true, false or null in "
                       "the array (a metadata file holds no nested arrays "
                       "or objects)");
      Value element;
      if (std::string problem = parseValue(element); !problem.empty())
        return problem;
      value.elements.push_back(std::move(element));
      skipSpace();
      if (consume(','))
        continue;
      if (consume(']'))
        return checkValueEnd();
      return problem("expected ',' or ']' in the array");
    }
  }

  std::string checkValueEnd() {
    char c = peek();
    if (atEnd() || c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' ||
        c == '\n' || c == '\r')
      return "";
    return problem("expected ',' or '}' after the value");
  }

  std::string_view text;
  size_t pos = 0;
};

} // namespace

std::string parseFlatObject(std::string_view text,
                            std::vector<Member> &members) {
  std::string error = Parser(text).parseObject(members);
  if (!error.empty())
    members.clear();
  return error;
}

const Value *find(const std::vector<Member> &members, std::string_view key) {
  for (const Member &member : members)
    if (member.key == key)
      return &member.value;
  return nullptr;
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
        out += escaped;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

} // namespace amls::runtime::json
