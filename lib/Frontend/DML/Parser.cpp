//===- Parser.cpp - DML recursive-descent parser --------------------------===//
//
// Operator precedence follows DML's grammar (and R), from loosest to
// tightest:
//
//   |   &   !   < <= > >= == !=   + -   * /   %*% %% %/%   :   unary - +   ^
//
// `^` is right-associative and binds tighter than unary minus (-2^2 = -4).
// Newlines are white space; a statement ends where its expression cannot
// continue, optionally with ';'.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Frontend/DML/Parser.h"
#include "AMLS/Frontend/DML/Lexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Casting.h"

#include <cstdlib>

using namespace mlir::amls::dml;
using Kind = Token::Kind;
using llvm::SMLoc;

llvm::StringRef mlir::amls::dml::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Pow:
    return "^";
  case BinaryOp::Mod:
    return "%%";
  case BinaryOp::IntDiv:
    return "%/%";
  case BinaryOp::MatMul:
    return "%*%";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::And:
    return "&";
  case BinaryOp::Or:
    return "|";
  case BinaryOp::Range:
    return ":";
  }
  return "?";
}

namespace {

/// Nesting depth guard: deeply nested input fails cleanly instead of
/// overflowing the stack.
constexpr unsigned kMaxDepth = 200;

class Parser {
public:
  Parser(llvm::StringRef buffer, ErrorReporter reportError)
      : lexer(buffer), reportError(reportError) {
    current = lexer.next();
  }

  std::optional<Script> parse() {
    Script script;
    while (!current.is(Kind::EndOfFile)) {
      if (current.is(Kind::RBrace)) {
        error(current.loc, "unexpected '}' outside of a block");
        advance();
        continue;
      }
      if (StmtPtr stmt = parseStatementOrRecover())
        script.statements.push_back(std::move(stmt));
    }
    if (hadError)
      return std::nullopt;
    return script;
  }

private:
  //===--------------------------------------------------------------------===//
  // Tokens and errors
  //===--------------------------------------------------------------------===//

  void advance() {
    if (pending) {
      current = std::move(*pending);
      pending.reset();
      return;
    }
    current = lexer.next();
  }

  bool consumeIf(Kind kind) {
    if (!current.is(kind))
      return false;
    advance();
    return true;
  }

  /// Reports an error unless this statement already has one.
  void error(SMLoc loc, const llvm::Twine &message) {
    hadError = true;
    if (statementHasError)
      return;
    statementHasError = true;
    reportError(loc, message);
  }

  /// Reports what was expected at the current token.
  void expected(const llvm::Twine &what) {
    if (current.is(Kind::Error))
      return error(current.loc, current.text);
    error(current.loc, "expected " + what + ", found " + describe(current));
  }

  bool expect(Kind kind, const llvm::Twine &context = "") {
    if (consumeIf(kind))
      return true;
    llvm::Twine suffix =
        context.isTriviallyEmpty() ? llvm::Twine("") : " " + context;
    expected(describe(kind) + suffix);
    return false;
  }

  /// Skips to the start of the next statement: past a ';', or to a token
  /// that begins a line, or to a '}' closing the current block.
  void recover(SMLoc statementStart) {
    int depth = 0;
    while (!current.is(Kind::EndOfFile)) {
      if (depth == 0 && current.startsLine && !current.is(Kind::RBrace) &&
          current.loc != statementStart)
        return;
      if (current.is(Kind::LBrace)) {
        ++depth;
      } else if (current.is(Kind::RBrace)) {
        if (depth == 0)
          return;
        --depth;
      } else if (current.is(Kind::Semicolon) && depth == 0) {
        advance();
        return;
      }
      advance();
    }
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  StmtPtr parseStatementOrRecover() {
    statementHasError = false;
    SMLoc start = current.loc;
    StmtPtr stmt = parseStatement();
    if (!stmt || statementHasError) {
      recover(start);
      statementHasError = false;
      return nullptr;
    }
    while (consumeIf(Kind::Semicolon)) {
    }
    return stmt;
  }

  /// `{ statements }` or a single statement.
  bool parseBody(StmtList &block) {
    if (!consumeIf(Kind::LBrace)) {
      if (current.is(Kind::EndOfFile)) {
        expected("a statement or '{'");
        return false;
      }
      StmtPtr stmt = parseStatement();
      if (!stmt)
        return false;
      while (consumeIf(Kind::Semicolon)) {
      }
      block.push_back(std::move(stmt));
      return true;
    }
    while (!current.is(Kind::RBrace)) {
      if (current.is(Kind::EndOfFile)) {
        expected("'}' to close the block");
        return false;
      }
      bool outerError = statementHasError;
      if (StmtPtr stmt = parseStatementOrRecover())
        block.push_back(std::move(stmt));
      statementHasError = outerError;
    }
    advance();
    return true;
  }

  StmtPtr parseStatement() {
    if (++depth > kMaxDepth) {
      error(current.loc, "the script nests too deeply");
      --depth;
      return nullptr;
    }
    StmtPtr stmt = parseStatementImpl();
    --depth;
    return stmt;
  }

  StmtPtr parseStatementImpl() {
    SMLoc loc = current.loc;
    switch (current.kind) {
    case Kind::KwIf:
      return parseIf();
    case Kind::KwWhile: {
      advance();
      if (!expect(Kind::LParen, "after 'while'"))
        return nullptr;
      ExprPtr condition = parseExpression();
      if (!condition || !expect(Kind::RParen, "after the loop condition"))
        return nullptr;
      StmtList body;
      if (!parseBody(body))
        return nullptr;
      return std::make_unique<WhileStmt>(loc, std::move(condition),
                                         std::move(body));
    }
    case Kind::KwFor:
    case Kind::KwParfor:
      return parseFor();
    case Kind::LBracket:
      return parseMultiAssignment();
    case Kind::Error:
      error(current.loc, current.text);
      return nullptr;
    case Kind::KwElse:
      error(loc, "'else' without a matching 'if'");
      return nullptr;
    default:
      break;
    }

    if (current.is(Kind::Identifier) && current.text == "source") {
      bool isSource = false;
      StmtPtr source = parseSourceIfAny(isSource);
      if (isSource)
        return source;
    }

    // `X[i, j] += e` reads its target a second time; remember where it starts.
    Lexer targetLexer = lexer;
    Token targetToken = current;
    std::optional<Token> targetPending = pending;
    ExprPtr expr = parseExpression();
    if (!expr)
      return nullptr;
    if (current.is(Kind::PlusAssign))
      return parseAccumulate(loc, std::move(expr), targetLexer, targetToken,
                             targetPending);
    if (!current.is(Kind::Assign) && !current.is(Kind::LeftArrow)) {
      if (!llvm::isa<CallExpr>(expr.get())) {
        // At the end of a line the expression itself is the problem.
        if (current.startsLine)
          error(expr->getLoc(), "the value of this expression is not used: "
                                "expected an assignment or a call");
        else
          expected("'=' or '<-' after the expression (a statement is an "
                   "assignment or a call)");
        return nullptr;
      }
      return std::make_unique<ExprStmt>(loc, std::move(expr));
    }
    SMLoc assignLoc = current.loc;
    advance();

    AssignTarget target;
    target.loc = expr->getLoc();
    if (auto *name = llvm::dyn_cast<IdentifierExpr>(expr.get())) {
      target.name = name->name;
      if (current.is(Kind::KwFunction))
        return parseFunction(loc, target.name);
    } else if (auto *index = llvm::dyn_cast<IndexExpr>(expr.get())) {
      auto *base = llvm::dyn_cast<IdentifierExpr>(index->base.get());
      if (!base) {
        error(index->getLoc(), "left indexing needs a variable on the left "
                               "of '['");
        return nullptr;
      }
      target.name = base->name;
      target.rows = std::move(index->rows);
      target.cols = std::move(index->cols);
    } else {
      error(assignLoc, "cannot assign to this expression: expected a "
                       "variable or an indexed variable on the left of '='");
      return nullptr;
    }
    ExprPtr value = parseExpression();
    if (!value)
      return nullptr;
    std::vector<AssignTarget> targets;
    targets.push_back(std::move(target));
    return std::make_unique<AssignStmt>(loc, std::move(targets),
                                        std::move(value));
  }

  /// `target += value` is `target = target + (value)` (SystemDS's
  /// accumulator assignment), for a variable or a left-indexed variable.
  StmtPtr parseAccumulate(SMLoc loc, ExprPtr targetExpr,
                          const Lexer &targetLexer, const Token &targetToken,
                          const std::optional<Token> &targetPending) {
    SMLoc opLoc = current.loc;
    auto *index = llvm::dyn_cast<IndexExpr>(targetExpr.get());
    if (!llvm::isa<IdentifierExpr>(targetExpr.get()) &&
        !(index && llvm::isa<IdentifierExpr>(index->base.get()))) {
      error(opLoc, "'+=' needs a variable or an indexed variable on its left");
      return nullptr;
    }
    // Parse the target once more: one copy is assigned, the other read.
    lexer = targetLexer;
    current = targetToken;
    pending = targetPending;
    ExprPtr readTarget = parseExpression();
    assert(readTarget && current.is(Kind::PlusAssign) &&
           "the target parsed before");
    advance();
    ExprPtr value = parseExpression();
    if (!value)
      return nullptr;
    AssignTarget target;
    target.loc = targetExpr->getLoc();
    if (index) {
      target.name = llvm::cast<IdentifierExpr>(index->base.get())->name;
      target.rows = std::move(index->rows);
      target.cols = std::move(index->cols);
    } else {
      target.name = llvm::cast<IdentifierExpr>(targetExpr.get())->name;
    }
    auto sum = std::make_unique<BinaryExpr>(
        opLoc, BinaryOp::Add, std::move(readTarget), std::move(value));
    std::vector<AssignTarget> targets;
    targets.push_back(std::move(target));
    return std::make_unique<AssignStmt>(loc, std::move(targets),
                                        std::move(sum));
  }

  StmtPtr parseIf() {
    SMLoc loc = current.loc;
    advance();
    if (!expect(Kind::LParen, "after 'if'"))
      return nullptr;
    ExprPtr condition = parseExpression();
    if (!condition || !expect(Kind::RParen, "after the condition"))
      return nullptr;
    StmtList thenBlock, elseBlock;
    if (!parseBody(thenBlock))
      return nullptr;
    if (consumeIf(Kind::KwElse)) {
      if (current.is(Kind::KwIf)) {
        StmtPtr nested = parseIf();
        if (!nested)
          return nullptr;
        elseBlock.push_back(std::move(nested));
      } else if (!parseBody(elseBlock)) {
        return nullptr;
      }
    }
    return std::make_unique<IfStmt>(loc, std::move(condition),
                                    std::move(thenBlock), std::move(elseBlock));
  }

  StmtPtr parseFor() {
    SMLoc loc = current.loc;
    bool isParallel = current.is(Kind::KwParfor);
    advance();
    if (!expect(Kind::LParen, isParallel ? "after 'parfor'" : "after 'for'"))
      return nullptr;
    if (!current.is(Kind::Identifier)) {
      expected("the loop variable");
      return nullptr;
    }
    std::string variable = current.text;
    advance();
    if (!expect(Kind::KwIn, "after the loop variable"))
      return nullptr;
    SMLoc rangeLoc = current.loc;
    // The bounds are whole expressions: `1:n-1` is 1 to n-1.
    bool saved = allowRange;
    allowRange = false;
    ExprPtr range = parseExpression();
    ExprPtr from, to, step;
    if (range && consumeIf(Kind::Colon)) {
      from = std::move(range);
      to = parseExpression();
    }
    allowRange = saved;
    if (!from && !range)
      return nullptr;
    if (from) {
      if (!to)
        return nullptr;
    } else if (auto *call = llvm::dyn_cast<CallExpr>(range.get());
               call && call->callee == "seq" && call->args.size() >= 2 &&
               call->args.size() <= 3 &&
               llvm::all_of(call->args,
                            [](const Argument &a) { return a.name.empty(); })) {
      from = std::move(call->args[0].value);
      to = std::move(call->args[1].value);
      if (call->args.size() == 3)
        step = std::move(call->args[2].value);
    } else {
      error(rangeLoc, "expected a range 'from:to' or 'seq(from, to[, by])' "
                      "after 'in'");
      return nullptr;
    }
    // Loop options (check=0, par=4, mode=LOCAL, ...) steer the parfor
    // plan (the importer checks them); SystemDS's grammar accepts them on
    // `for` too, where they mean nothing.
    std::vector<LoopOption> options;
    while (consumeIf(Kind::Comma)) {
      if (!current.is(Kind::Identifier)) {
        expected("a loop option 'name = value'");
        return nullptr;
      }
      LoopOption option{current.loc, current.text, nullptr};
      advance();
      if (!expect(Kind::Assign, "after the loop option name"))
        return nullptr;
      option.value = parseExpression();
      if (!option.value)
        return nullptr;
      options.push_back(std::move(option));
    }
    if (!expect(Kind::RParen, "after the loop range"))
      return nullptr;
    StmtList body;
    if (!parseBody(body))
      return nullptr;
    return std::make_unique<ForStmt>(loc, std::move(variable), std::move(from),
                                     std::move(to), std::move(step), isParallel,
                                     std::move(options), std::move(body));
  }

  /// `[a, b] = f(...)`.
  StmtPtr parseMultiAssignment() {
    SMLoc loc = current.loc;
    advance();
    std::vector<AssignTarget> targets;
    do {
      if (!current.is(Kind::Identifier)) {
        expected("a variable name in the list of results");
        return nullptr;
      }
      targets.push_back(AssignTarget{current.loc, current.text, {}, {}});
      advance();
    } while (consumeIf(Kind::Comma));
    if (!expect(Kind::RBracket, "after the list of results"))
      return nullptr;
    if (!consumeIf(Kind::Assign) && !consumeIf(Kind::LeftArrow)) {
      expected("'=' after the list of results");
      return nullptr;
    }
    SMLoc valueLoc = current.loc;
    ExprPtr value = parseExpression();
    if (!value)
      return nullptr;
    if (!llvm::isa<CallExpr>(value.get())) {
      error(valueLoc, "a multiple assignment needs a function call on the "
                      "right");
      return nullptr;
    }
    return std::make_unique<AssignStmt>(loc, std::move(targets),
                                        std::move(value));
  }

  std::optional<TypeSpec> parseType() {
    if (!current.is(Kind::Identifier)) {
      expected("a type (Matrix[Double], Double, Integer, Boolean, String, "
               "List[...])");
      return std::nullopt;
    }
    TypeSpec type;
    type.loc = current.loc;
    std::string name = current.text;
    advance();
    if (name == "Matrix" || name == "matrix") {
      if (!expect(Kind::LBracket, "after 'Matrix'"))
        return std::nullopt;
      if (!current.is(Kind::Identifier) ||
          (current.text != "Double" && current.text != "double")) {
        expected("'Double' (the value type of AMLS matrices)");
        return std::nullopt;
      }
      advance();
      if (!expect(Kind::RBracket, "after the value type"))
        return std::nullopt;
      type.kind = TypeSpec::Kind::Matrix;
      return type;
    }
    // List[Unknown], List[String], ...: the element type is not checked
    // (lists are structures known while importing).
    if (name == "List" || name == "list") {
      if (!expect(Kind::LBracket, "after 'List'"))
        return std::nullopt;
      if (!current.is(Kind::Identifier)) {
        expected("an element type, e.g. List[Unknown]");
        return std::nullopt;
      }
      advance();
      if (!expect(Kind::RBracket, "after the element type"))
        return std::nullopt;
      type.kind = TypeSpec::Kind::List;
      return type;
    }
    // Frame[Unknown], frame[string], ...: the column types are not checked.
    if (name == "Frame" || name == "frame") {
      if (current.is(Kind::LBracket)) {
        advance();
        if (!current.is(Kind::Identifier)) {
          expected("a value type, e.g. Frame[Unknown]");
          return std::nullopt;
        }
        advance();
        if (!expect(Kind::RBracket, "after the value type"))
          return std::nullopt;
      }
      type.kind = TypeSpec::Kind::Frame;
      return type;
    }
    std::optional<TypeSpec::Kind> kind =
        llvm::StringSwitch<std::optional<TypeSpec::Kind>>(name)
            .Cases({"Double", "double"}, TypeSpec::Kind::Double)
            .Cases({"Integer", "integer", "Int", "int"},
                   TypeSpec::Kind::Integer)
            .Cases({"Boolean", "boolean"}, TypeSpec::Kind::Boolean)
            .Cases({"String", "string"}, TypeSpec::Kind::String)
            .Default(std::nullopt);
    if (!kind) {
      error(type.loc, "unknown type '" + name +
                          "': expected Matrix[Double], Double, Integer, "
                          "Boolean, String or List[...]");
      return std::nullopt;
    }
    type.kind = *kind;
    return type;
  }

  bool parseParameters(std::vector<Parameter> &parameters, bool isResult) {
    if (!expect(Kind::LParen, isResult ? "after 'return'" : "after 'function'"))
      return false;
    if (consumeIf(Kind::RParen))
      return true;
    do {
      Parameter parameter;
      parameter.loc = current.loc;
      std::optional<TypeSpec> type = parseType();
      if (!type)
        return false;
      parameter.type = *type;
      if (!current.is(Kind::Identifier)) {
        expected(isResult ? "a result name" : "a parameter name");
        return false;
      }
      parameter.name = current.text;
      advance();
      if (consumeIf(Kind::Assign)) {
        if (isResult) {
          error(current.loc, "results cannot have default values");
          return false;
        }
        parameter.defaultValue = parseExpression();
        if (!parameter.defaultValue)
          return false;
      }
      parameters.push_back(std::move(parameter));
    } while (consumeIf(Kind::Comma));
    return expect(Kind::RParen,
                  isResult ? "after the results" : "after the parameters");
  }

  StmtPtr parseFunction(SMLoc loc, const std::string &name) {
    advance(); // 'function'
    std::vector<Parameter> parameters, results;
    if (!parseParameters(parameters, /*isResult=*/false))
      return nullptr;
    if (consumeIf(Kind::KwReturn) &&
        !parseParameters(results, /*isResult=*/true))
      return nullptr;
    if (!current.is(Kind::LBrace)) {
      expected("'{' to start the function body");
      return nullptr;
    }
    StmtList body;
    if (!parseBody(body))
      return nullptr;
    return std::make_unique<FunctionStmt>(loc, name, std::move(parameters),
                                          std::move(results), std::move(body));
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  ExprPtr parseExpression() {
    if (++depth > kMaxDepth) {
      error(current.loc, "the expression nests too deeply");
      --depth;
      return nullptr;
    }
    ExprPtr expr = parseOr();
    --depth;
    return expr;
  }

  using Next = ExprPtr (Parser::*)();

  /// A left-associative level: operand (op operand)*.
  ExprPtr parseLeftAssociative(
      Next operand,
      std::initializer_list<std::pair<Kind, BinaryOp>> operators) {
    ExprPtr lhs = (this->*operand)();
    while (lhs) {
      const std::pair<Kind, BinaryOp> *match = nullptr;
      for (const auto &entry : operators)
        if (current.is(entry.first))
          match = &entry;
      if (!match)
        return lhs;
      SMLoc loc = current.loc;
      advance();
      ExprPtr rhs = (this->*operand)();
      if (!rhs)
        return nullptr;
      lhs = std::make_unique<BinaryExpr>(loc, match->second, std::move(lhs),
                                         std::move(rhs));
    }
    return nullptr;
  }

  ExprPtr parseOr() {
    return parseLeftAssociative(&Parser::parseAnd,
                                {{Kind::Pipe, BinaryOp::Or}});
  }
  ExprPtr parseAnd() {
    return parseLeftAssociative(&Parser::parseNot,
                                {{Kind::Amp, BinaryOp::And}});
  }
  ExprPtr parseNot() {
    if (!current.is(Kind::Bang))
      return parseComparison();
    SMLoc loc = current.loc;
    advance();
    ExprPtr operand = recurse(&Parser::parseNot);
    if (!operand)
      return nullptr;
    return std::make_unique<UnaryExpr>(loc, UnaryOp::Not, std::move(operand));
  }
  ExprPtr parseComparison() {
    return parseLeftAssociative(&Parser::parseAdditive,
                                {{Kind::Lt, BinaryOp::Lt},
                                 {Kind::Le, BinaryOp::Le},
                                 {Kind::Gt, BinaryOp::Gt},
                                 {Kind::Ge, BinaryOp::Ge},
                                 {Kind::EqEq, BinaryOp::Eq},
                                 {Kind::NotEq, BinaryOp::Ne}});
  }
  ExprPtr parseAdditive() {
    return parseLeftAssociative(
        &Parser::parseMultiplicative,
        {{Kind::Plus, BinaryOp::Add}, {Kind::Minus, BinaryOp::Sub}});
  }
  ExprPtr parseMultiplicative() {
    return parseLeftAssociative(
        &Parser::parseSpecial,
        {{Kind::Star, BinaryOp::Mul}, {Kind::Slash, BinaryOp::Div}});
  }
  ExprPtr parseSpecial() {
    return parseLeftAssociative(&Parser::parseRange,
                                {{Kind::PercentStar, BinaryOp::MatMul},
                                 {Kind::Percent2, BinaryOp::Mod},
                                 {Kind::PercentDiv, BinaryOp::IntDiv}});
  }
  ExprPtr parseRange() {
    if (!allowRange)
      return parseUnary();
    return parseLeftAssociative(&Parser::parseUnary,
                                {{Kind::Colon, BinaryOp::Range}});
  }

  ExprPtr parseUnary() {
    if (!current.is(Kind::Minus) && !current.is(Kind::Plus))
      return parsePower();
    SMLoc loc = current.loc;
    UnaryOp op = current.is(Kind::Minus) ? UnaryOp::Negate : UnaryOp::Plus;
    advance();
    ExprPtr operand = recurse(&Parser::parseUnary);
    if (!operand)
      return nullptr;
    return std::make_unique<UnaryExpr>(loc, op, std::move(operand));
  }
  ExprPtr parsePower() {
    ExprPtr base = parsePostfix();
    if (!base || !current.is(Kind::Caret))
      return base;
    SMLoc loc = current.loc;
    advance();
    // Right-associative, and the exponent may carry a sign: 2^-1.
    ExprPtr exponent = recurse(&Parser::parseUnary);
    if (!exponent)
      return nullptr;
    return std::make_unique<BinaryExpr>(loc, BinaryOp::Pow, std::move(base),
                                        std::move(exponent));
  }

  /// Calls `next` one nesting level deeper (guards unary chains).
  ExprPtr recurse(Next next) {
    if (++depth > kMaxDepth) {
      error(current.loc, "the expression nests too deeply");
      --depth;
      return nullptr;
    }
    ExprPtr expr = (this->*next)();
    --depth;
    return expr;
  }

  ExprPtr parsePostfix() {
    ExprPtr expr = parsePrimary();
    // A '[' that starts a line begins `[a, b] = f(...)`, not an index.
    while (expr && current.is(Kind::LBracket) && !current.startsLine) {
      SMLoc loc = current.loc;
      advance();
      IndexRange rows, cols;
      if (!parseIndexRange(rows))
        return nullptr;
      // `X[i]` (no column index) selects whole rows, as in SystemDS.
      if (!current.is(Kind::RBracket) &&
          !expect(Kind::Comma, "or ']' after the row index"))
        return nullptr;
      cols.loc = current.loc;
      if (!current.is(Kind::RBracket) && !parseIndexRange(cols))
        return nullptr;
      if (!expect(Kind::RBracket, "after the index"))
        return nullptr;
      expr = std::make_unique<IndexExpr>(loc, std::move(expr), std::move(rows),
                                         std::move(cols));
    }
    return expr;
  }

  bool parseIndexRange(IndexRange &range) {
    range.loc = current.loc;
    if (current.is(Kind::Comma) || current.is(Kind::RBracket))
      return true; // the whole dimension
    bool saved = allowRange;
    allowRange = false;
    range.begin = parseExpression();
    bool ok = range.begin != nullptr;
    if (ok && consumeIf(Kind::Colon)) {
      range.end = parseExpression();
      ok = range.end != nullptr;
    }
    allowRange = saved;
    return ok;
  }

  /// `source("path") as ns`, with `current` at `source`. `isSource` stays
  /// false, and nothing is consumed, when `source` is not followed by '('
  /// and a string, so that a variable or function of that name still
  /// parses.
  StmtPtr parseSourceIfAny(bool &isSource) {
    SMLoc loc = current.loc;
    Lexer savedLexer = lexer;
    Token savedToken = current;
    std::optional<Token> savedPending = pending;
    advance();
    bool opens = consumeIf(Kind::LParen) && current.is(Kind::String);
    if (!opens) {
      lexer = savedLexer;
      current = savedToken;
      pending = savedPending;
      return nullptr;
    }
    isSource = true;
    std::string path = current.text;
    advance();
    if (!expect(Kind::RParen, "after the path of 'source'"))
      return nullptr;
    if (!current.is(Kind::Identifier) || current.text != "as") {
      expected("'as' and a namespace after 'source(...)'");
      return nullptr;
    }
    advance();
    if (!current.is(Kind::Identifier)) {
      expected("a namespace name after 'as'");
      return nullptr;
    }
    std::string name = current.text;
    SMLoc nameLoc = current.loc;
    advance();
    return std::make_unique<SourceStmt>(loc, std::move(path), std::move(name),
                                        nameLoc);
  }

  ExprPtr parsePrimary() {
    SMLoc loc = current.loc;
    switch (current.kind) {
    case Kind::Number: {
      std::string text = current.text;
      advance();
      bool isInteger = text.find_first_of(".eE") == std::string::npos;
      return std::make_unique<NumberExpr>(
          loc, std::strtod(text.c_str(), nullptr), isInteger);
    }
    case Kind::String: {
      std::string text = current.text;
      advance();
      return std::make_unique<StringExpr>(loc, std::move(text));
    }
    case Kind::KwTrue:
    case Kind::KwFalse: {
      bool value = current.is(Kind::KwTrue);
      advance();
      return std::make_unique<BoolExpr>(loc, value);
    }
    case Kind::CommandLineArg: {
      std::string name = current.text;
      advance();
      return std::make_unique<CommandLineArgExpr>(loc, std::move(name));
    }
    case Kind::LParen: {
      advance();
      bool saved = allowRange;
      allowRange = true;
      ExprPtr inner = parseExpression();
      allowRange = saved;
      if (!inner || !expect(Kind::RParen, "to close '('"))
        return nullptr;
      return inner;
    }
    case Kind::LBracket: {
      // `[a, b, ...]`: SystemDS's expression list, which only its
      // deep-learning builtins take (input_shape=[N, C, H, W], ...). It is
      // imported as list(a, b, ...); those builtins read its elements.
      advance();
      std::vector<Argument> elements;
      bool saved = allowRange;
      allowRange = true;
      llvm::scope_exit restore([&] { allowRange = saved; });
      if (!current.is(Kind::RBracket)) {
        do {
          Argument element;
          element.loc = current.loc;
          element.value = parseExpression();
          if (!element.value)
            return nullptr;
          elements.push_back(std::move(element));
        } while (consumeIf(Kind::Comma));
      }
      if (!expect(Kind::RBracket, "to close the list '['"))
        return nullptr;
      return std::make_unique<CallExpr>(loc, "list", std::move(elements));
    }
    case Kind::Identifier: {
      std::string name = current.text;
      advance();
      // `ns::f(...)`: a function of a sourced script.
      if (consumeIf(Kind::ColonColon)) {
        if (!current.is(Kind::Identifier)) {
          expected("a function name after '" + name + "::'");
          return nullptr;
        }
        name += "::" + current.text;
        advance();
        if (!current.is(Kind::LParen)) {
          expected("'(' after '" + name +
                   "': only functions are qualified "
                   "by a namespace");
          return nullptr;
        }
      }
      if (!current.is(Kind::LParen))
        return std::make_unique<IdentifierExpr>(loc, std::move(name));
      advance();
      std::vector<Argument> args;
      bool saved = allowRange;
      allowRange = true;
      llvm::scope_exit restore([&] { allowRange = saved; });
      if (!consumeIf(Kind::RParen)) {
        do {
          Argument arg;
          arg.loc = current.loc;
          if (current.is(Kind::Identifier)) {
            // `name = value` (a named argument) or an expression.
            Token name = current;
            advance();
            if (consumeIf(Kind::Assign)) {
              arg.name = name.text;
              arg.value = parseExpression();
            } else {
              // Not named: push the token back and parse an expression.
              pending = std::move(current);
              current = std::move(name);
              arg.value = parseExpression();
            }
          } else {
            arg.value = parseExpression();
          }
          if (!arg.value)
            return nullptr;
          args.push_back(std::move(arg));
        } while (consumeIf(Kind::Comma));
        if (!expect(Kind::RParen, "after the arguments of '" + name + "'"))
          return nullptr;
      }
      return std::make_unique<CallExpr>(loc, std::move(name), std::move(args));
    }
    default:
      expected("an expression");
      return nullptr;
    }
  }

  Lexer lexer;
  ErrorReporter reportError;
  Token current;
  std::optional<Token> pending;
  unsigned depth = 0;
  /// Whether ':' is an operator here (not inside index brackets or a for
  /// header, where it separates whole-expression bounds).
  bool allowRange = true;
  bool hadError = false;
  bool statementHasError = false;
};

} // namespace

std::optional<Script> mlir::amls::dml::parseScript(llvm::StringRef buffer,
                                                   ErrorReporter reportError) {
  return Parser(buffer, reportError).parse();
}
