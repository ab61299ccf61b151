//===- Lexer.cpp - Tokens of DML scripts ----------------------------------===//

#include "AMLS/Frontend/DML/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>

using namespace mlir::amls::dml;
using Kind = Token::Kind;

llvm::StringRef mlir::amls::dml::describe(Token::Kind kind) {
  switch (kind) {
  case Kind::EndOfFile:
    return "end of file";
  case Kind::Error:
    return "invalid token";
  case Kind::Identifier:
    return "a name";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::CommandLineArg:
    return "a command-line argument";
  case Kind::KwIf:
    return "'if'";
  case Kind::KwElse:
    return "'else'";
  case Kind::KwWhile:
    return "'while'";
  case Kind::KwFor:
    return "'for'";
  case Kind::KwParfor:
    return "'parfor'";
  case Kind::KwIn:
    return "'in'";
  case Kind::KwFunction:
    return "'function'";
  case Kind::KwReturn:
    return "'return'";
  case Kind::KwTrue:
    return "'TRUE'";
  case Kind::KwFalse:
    return "'FALSE'";
  case Kind::LParen:
    return "'('";
  case Kind::RParen:
    return "')'";
  case Kind::LBracket:
    return "'['";
  case Kind::RBracket:
    return "']'";
  case Kind::LBrace:
    return "'{'";
  case Kind::RBrace:
    return "'}'";
  case Kind::Comma:
    return "','";
  case Kind::Semicolon:
    return "';'";
  case Kind::Colon:
    return "':'";
  case Kind::ColonColon:
    return "'::'";
  case Kind::Assign:
    return "'='";
  case Kind::LeftArrow:
    return "'<-'";
  case Kind::PlusAssign:
    return "'+='";
  case Kind::Plus:
    return "'+'";
  case Kind::Minus:
    return "'-'";
  case Kind::Star:
    return "'*'";
  case Kind::Slash:
    return "'/'";
  case Kind::Caret:
    return "'^'";
  case Kind::Percent2:
    return "'%%'";
  case Kind::PercentDiv:
    return "'%/%'";
  case Kind::PercentStar:
    return "'%*%'";
  case Kind::Lt:
    return "'<'";
  case Kind::Le:
    return "'<='";
  case Kind::Gt:
    return "'>'";
  case Kind::Ge:
    return "'>='";
  case Kind::EqEq:
    return "'=='";
  case Kind::NotEq:
    return "'!='";
  case Kind::Bang:
    return "'!'";
  case Kind::Amp:
    return "'&'";
  case Kind::Pipe:
    return "'|'";
  }
  return "token";
}

std::string mlir::amls::dml::describe(const Token &token) {
  switch (token.kind) {
  case Kind::EndOfFile:
    return "end of file";
  case Kind::Identifier:
  case Kind::Number:
    return "'" + token.text + "'";
  case Kind::String:
    return "the string \"" + token.text + "\"";
  case Kind::CommandLineArg:
    return "'$" + token.text + "'";
  default:
    return describe(token.kind).str();
  }
}

Token Lexer::make(Kind kind, size_t begin, size_t end) {
  Token token;
  token.kind = kind;
  token.text = buffer.slice(begin, end).str();
  token.loc = locAt(begin);
  token.startsLine = sawNewline;
  sawNewline = false;
  pos = end;
  return token;
}

Token Lexer::lexNumber(size_t begin) {
  size_t end = begin;
  auto digits = [&] {
    while (end < buffer.size() && std::isdigit(buffer[end]))
      ++end;
  };
  digits();
  if (end < buffer.size() && buffer[end] == '.') {
    ++end;
    digits();
  }
  if (end < buffer.size() && (buffer[end] == 'e' || buffer[end] == 'E')) {
    size_t exponent = end + 1;
    if (exponent < buffer.size() &&
        (buffer[exponent] == '+' || buffer[exponent] == '-'))
      ++exponent;
    if (exponent < buffer.size() && std::isdigit(buffer[exponent])) {
      end = exponent;
      digits();
    } else {
      Token error = make(Kind::Error, begin, exponent);
      error.text = "malformed number '" + buffer.slice(begin, exponent).str() +
                   "': expected digits after the exponent";
      return error;
    }
  }
  return make(Kind::Number, begin, end);
}

Token Lexer::lexString(size_t begin, char quote) {
  std::string value;
  size_t i = begin + 1;
  // Strings may span lines, as in DML's grammar (multi-line messages).
  while (i < buffer.size() && buffer[i] != quote) {
    char c = buffer[i++];
    if (c != '\\' || i >= buffer.size()) {
      value.push_back(c);
      continue;
    }
    char escaped = buffer[i++];
    switch (escaped) {
    case 'n':
      value.push_back('\n');
      break;
    case 't':
      value.push_back('\t');
      break;
    default:
      value.push_back(escaped);
    }
  }
  if (i >= buffer.size() || buffer[i] != quote) {
    Token error = make(Kind::Error, begin, i);
    error.text = "unterminated string: expected a closing " +
                 std::string(1, quote) + " before the end of the file";
    return error;
  }
  Token token = make(Kind::String, begin, i + 1);
  token.text = std::move(value);
  return token;
}

Token Lexer::next() {
  // White space and comments.
  while (pos < buffer.size()) {
    char c = buffer[pos];
    if (c == '\n') {
      sawNewline = true;
      ++pos;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos;
    } else if (c == '#') {
      while (pos < buffer.size() && buffer[pos] != '\n')
        ++pos;
    } else if (c == '/' && pos + 1 < buffer.size() && buffer[pos + 1] == '*') {
      // A block comment; its newlines separate statements like any other.
      size_t end = buffer.find("*/", pos + 2);
      if (end == llvm::StringRef::npos) {
        Token error = make(Kind::Error, pos, pos + 2);
        error.text = "unterminated comment: expected '*/' to close '/*'";
        pos = buffer.size();
        return error;
      }
      if (buffer.slice(pos, end).contains('\n'))
        sawNewline = true;
      pos = end + 2;
    } else {
      break;
    }
  }
  if (pos >= buffer.size()) {
    Token eof = make(Kind::EndOfFile, buffer.size(), buffer.size());
    eof.startsLine = true;
    return eof;
  }

  size_t begin = pos;
  char c = buffer[pos];
  auto peek = [&](size_t offset) -> char {
    return begin + offset < buffer.size() ? buffer[begin + offset] : '\0';
  };

  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    size_t end = begin;
    // DML names may contain dots (as.scalar, index.return).
    while (end < buffer.size() &&
           (std::isalnum(static_cast<unsigned char>(buffer[end])) ||
            buffer[end] == '_' || buffer[end] == '.'))
      ++end;
    llvm::StringRef word = buffer.slice(begin, end);
    Kind kind = llvm::StringSwitch<Kind>(word)
                    .Case("if", Kind::KwIf)
                    .Case("else", Kind::KwElse)
                    .Case("while", Kind::KwWhile)
                    .Case("for", Kind::KwFor)
                    .Case("parfor", Kind::KwParfor)
                    .Case("in", Kind::KwIn)
                    .Case("function", Kind::KwFunction)
                    .Case("return", Kind::KwReturn)
                    .Cases({"TRUE", "true"}, Kind::KwTrue)
                    .Cases({"FALSE", "false"}, Kind::KwFalse)
                    .Default(Kind::Identifier);
    return make(kind, begin, end);
  }
  if (std::isdigit(static_cast<unsigned char>(c)) ||
      (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
    return lexNumber(begin);
  if (c == '"' || c == '\'')
    return lexString(begin, c);
  if (c == '$') {
    size_t end = begin + 1;
    while (end < buffer.size() &&
           (std::isalnum(static_cast<unsigned char>(buffer[end])) ||
            buffer[end] == '_' || buffer[end] == '.'))
      ++end;
    if (end == begin + 1) {
      Token error = make(Kind::Error, begin, end);
      error.text = "expected a name or a number after '$'";
      return error;
    }
    Token token = make(Kind::CommandLineArg, begin, end);
    token.text = buffer.slice(begin + 1, end).str();
    return token;
  }

  switch (c) {
  case '(':
    return make(Kind::LParen, begin, begin + 1);
  case ')':
    return make(Kind::RParen, begin, begin + 1);
  case '[':
    return make(Kind::LBracket, begin, begin + 1);
  case ']':
    return make(Kind::RBracket, begin, begin + 1);
  case '{':
    return make(Kind::LBrace, begin, begin + 1);
  case '}':
    return make(Kind::RBrace, begin, begin + 1);
  case ',':
    return make(Kind::Comma, begin, begin + 1);
  case ';':
    return make(Kind::Semicolon, begin, begin + 1);
  case ':':
    if (peek(1) == ':')
      return make(Kind::ColonColon, begin, begin + 2);
    return make(Kind::Colon, begin, begin + 1);
  case '+':
    if (peek(1) == '=')
      return make(Kind::PlusAssign, begin, begin + 2);
    return make(Kind::Plus, begin, begin + 1);
  case '-':
    return make(Kind::Minus, begin, begin + 1);
  case '*':
    return make(Kind::Star, begin, begin + 1);
  case '/':
    return make(Kind::Slash, begin, begin + 1);
  case '^':
    return make(Kind::Caret, begin, begin + 1);
  case '=':
    if (peek(1) == '=')
      return make(Kind::EqEq, begin, begin + 2);
    return make(Kind::Assign, begin, begin + 1);
  case '<':
    if (peek(1) == '=')
      return make(Kind::Le, begin, begin + 2);
    // `x<-1` is an assignment, as in R and DML.
    if (peek(1) == '-')
      return make(Kind::LeftArrow, begin, begin + 2);
    return make(Kind::Lt, begin, begin + 1);
  case '>':
    if (peek(1) == '=')
      return make(Kind::Ge, begin, begin + 2);
    return make(Kind::Gt, begin, begin + 1);
  case '!':
    if (peek(1) == '=')
      return make(Kind::NotEq, begin, begin + 2);
    return make(Kind::Bang, begin, begin + 1);
  case '&':
    return make(Kind::Amp, begin, peek(1) == '&' ? begin + 2 : begin + 1);
  case '|':
    return make(Kind::Pipe, begin, peek(1) == '|' ? begin + 2 : begin + 1);
  case '%':
    if (peek(1) == '%')
      return make(Kind::Percent2, begin, begin + 2);
    if (peek(1) == '/' && peek(2) == '%')
      return make(Kind::PercentDiv, begin, begin + 3);
    if (peek(1) == '*' && peek(2) == '%')
      return make(Kind::PercentStar, begin, begin + 3);
    break;
  default:
    break;
  }
  Token error = make(Kind::Error, begin, begin + 1);
  std::string shown =
      std::isprint(static_cast<unsigned char>(c))
          ? std::string(1, c)
          : "\\x" + llvm::utohexstr(static_cast<unsigned char>(c));
  error.text = "unexpected character '" + shown + "'";
  return error;
}
