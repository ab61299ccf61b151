//===- Lexer.h - Tokens of DML scripts --------------------------*- C++ -*-===//

#ifndef AMLS_FRONTEND_DML_LEXER_H
#define AMLS_FRONTEND_DML_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace mlir::amls::dml {

struct Token {
  enum class Kind {
    EndOfFile,
    Error, // an invalid character or an unterminated literal; see `text`
    Identifier,
    Number,
    String,
    CommandLineArg, // $name or $1; `text` is the name
    // Keywords.
    KwIf,
    KwElse,
    KwWhile,
    KwFor,
    KwParfor,
    KwIn,
    KwFunction,
    KwReturn,
    KwTrue,
    KwFalse,
    // Punctuation and operators.
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semicolon,
    Colon,
    ColonColon, // :: (a namespace-qualified function name)
    Assign,     // =
    LeftArrow,  // <-
    PlusAssign, // += (SystemDS's accumulator assignment)
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Percent2,    // %%
    PercentDiv,  // %/%
    PercentStar, // %*%
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    NotEq,
    Bang,
    Amp,  // & or &&
    Pipe, // | or ||
  };
  Kind kind = Kind::EndOfFile;
  /// The token's spelling; for strings the decoded value, for errors the
  /// message.
  std::string text;
  llvm::SMLoc loc;
  /// The first token on its line (for error recovery).
  bool startsLine = false;

  bool is(Kind k) const { return kind == k; }
};

/// How a token is shown in "expected X, found Y" messages.
std::string describe(const Token &token);
/// How a token kind is shown in "expected X" messages.
llvm::StringRef describe(Token::Kind kind);

/// Splits a script into tokens. Newlines are white space, as in DML's
/// grammar; `#` starts a comment that runs to the end of the line.
class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer) : buffer(buffer), pos(0) {}
  Token next();

private:
  llvm::SMLoc locAt(size_t offset) const {
    return llvm::SMLoc::getFromPointer(buffer.data() + offset);
  }
  Token make(Token::Kind kind, size_t begin, size_t end);
  Token lexNumber(size_t begin);
  Token lexString(size_t begin, char quote);

  llvm::StringRef buffer;
  size_t pos;
  bool sawNewline = true;
};

} // namespace mlir::amls::dml

#endif // AMLS_FRONTEND_DML_LEXER_H
