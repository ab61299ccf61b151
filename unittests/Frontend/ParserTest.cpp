//===- ParserTest.cpp - DML lexer and parser ------------------------------===//

#include "AMLS/Frontend/DML/Parser.h"
#include "AMLS/Frontend/DML/Lexer.h"

#include "llvm/Support/Casting.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace mlir::amls::dml;

namespace {

/// Expressions as S-expressions: the tree shape, for precedence checks.
std::string show(const Expr *e) {
  if (!e)
    return "_";
  if (auto *n = llvm::dyn_cast<NumberExpr>(e)) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", n->value);
    return text;
  }
  if (auto *s = llvm::dyn_cast<StringExpr>(e))
    return "\"" + s->value + "\"";
  if (auto *b = llvm::dyn_cast<BoolExpr>(e))
    return b->value ? "TRUE" : "FALSE";
  if (auto *i = llvm::dyn_cast<IdentifierExpr>(e))
    return i->name;
  if (auto *a = llvm::dyn_cast<CommandLineArgExpr>(e))
    return "$" + a->name;
  if (auto *u = llvm::dyn_cast<UnaryExpr>(e)) {
    const char *op = u->op == UnaryOp::Negate ? "neg"
                     : u->op == UnaryOp::Not  ? "!"
                                              : "pos";
    return std::string("(") + op + " " + show(u->operand.get()) + ")";
  }
  if (auto *b = llvm::dyn_cast<BinaryExpr>(e))
    return "(" + spelling(b->op).str() + " " + show(b->lhs.get()) + " " +
           show(b->rhs.get()) + ")";
  if (auto *c = llvm::dyn_cast<CallExpr>(e)) {
    std::string text = "(call " + c->callee;
    for (const Argument &arg : c->args)
      text += " " + (arg.name.empty() ? "" : arg.name + "=") +
              show(arg.value.get());
    return text + ")";
  }
  if (auto *x = llvm::dyn_cast<IndexExpr>(e)) {
    auto range = [](const IndexRange &r) {
      if (r.isAll())
        return std::string("all");
      if (!r.end)
        return show(r.begin.get());
      return show(r.begin.get()) + ":" + show(r.end.get());
    };
    return "(index " + show(x->base.get()) + " " + range(x->rows) + " " +
           range(x->cols) + ")";
  }
  return "?";
}

struct Parsed {
  std::optional<Script> script;
  std::vector<std::string> errors;
};

Parsed parse(llvm::StringRef text) {
  Parsed parsed;
  parsed.script = parseScript(text, [&](llvm::SMLoc loc, const llvm::Twine &m) {
    // Report the 0-based offset with the message.
    parsed.errors.push_back(std::to_string(loc.getPointer() - text.data()) +
                            ": " + m.str());
  });
  return parsed;
}

/// The right-hand side of `x = <text>`.
std::string expression(const std::string &text) {
  Parsed parsed = parse("x = " + text);
  if (!parsed.script)
    return "error: " + (parsed.errors.empty() ? "" : parsed.errors.front());
  auto *assign =
      llvm::cast<AssignStmt>(parsed.script->statements.front().get());
  return show(assign->value.get());
}

TEST(DMLParser, FollowsRPrecedence) {
  EXPECT_EQ(expression("-2^2"), "(neg (^ 2 2))");
  EXPECT_EQ(expression("2^3^2"), "(^ 2 (^ 3 2))");
  EXPECT_EQ(expression("2^-1"), "(^ 2 (neg 1))");
  EXPECT_EQ(expression("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(expression("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(expression("X %*% Y * 2"), "(* (%*% X Y) 2)");
  EXPECT_EQ(expression("a %% b * c"), "(* (%% a b) c)");
  EXPECT_EQ(expression("1:n+1"), "(+ (: 1 n) 1)");
  EXPECT_EQ(expression("-1:2"), "(: (neg 1) 2)");
  EXPECT_EQ(expression("!a > b"), "(! (> a b))");
  EXPECT_EQ(expression("a | b & c"), "(| a (& b c))");
  EXPECT_EQ(expression("a || b && !c"), "(| a (& b (! c)))");
  EXPECT_EQ(expression("a < b == c"), "(== (< a b) c)");
  EXPECT_EQ(expression("(a + b) * c"), "(* (+ a b) c)");
}

TEST(DMLParser, ParsesLiteralsAndArguments) {
  EXPECT_EQ(expression("1e-9"), "1e-09");
  EXPECT_EQ(expression("2.5E3"), "2500");
  EXPECT_EQ(expression(".5"), "0.5");
  EXPECT_EQ(expression("\"a\\\"b\\n\""), "\"a\"b\n\"");
  EXPECT_EQ(expression("'single'"), "\"single\"");
  EXPECT_EQ(expression("TRUE & FALSE"), "(& TRUE FALSE)");
  EXPECT_EQ(expression("$1 + $max_iter"), "(+ $1 $max_iter)");
  EXPECT_EQ(expression("rand(rows=2, cols=n, seed=-1)"),
            "(call rand rows=2 cols=n seed=(neg 1))");
  EXPECT_EQ(expression("as.scalar(X[1, 1])"), "(call as.scalar (index X 1 1))");
  EXPECT_EQ(expression("f(a == b)"), "(call f (== a b))");
}

TEST(DMLParser, ParsesIndexing) {
  EXPECT_EQ(expression("X[a:b, ]"), "(index X a:b all)");
  EXPECT_EQ(expression("X[, c]"), "(index X all c)");
  // Inside brackets ':' separates whole expressions (DML, unlike R).
  EXPECT_EQ(expression("X[i + 1, 2:n - 1]"), "(index X (+ i 1) 2:(- n 1))");
  EXPECT_EQ(expression("X[(1:2)[1, 1], ]"),
            "(index X (index (: 1 2) 1 1) all)");
  EXPECT_EQ(expression("t(X)[1, ]"), "(index (call t X) 1 all)");
  // Without a column index, whole rows (SystemDS).
  EXPECT_EQ(expression("X[i]"), "(index X i all)");
  EXPECT_EQ(expression("X[2:n]"), "(index X 2:n all)");

  Parsed parsed = parse("X[1:2, 3] = Y");
  ASSERT_TRUE(parsed.script);
  auto *assign =
      llvm::cast<AssignStmt>(parsed.script->statements.front().get());
  ASSERT_EQ(assign->targets.size(), 1u);
  EXPECT_EQ(assign->targets[0].name, "X");
  EXPECT_TRUE(assign->targets[0].isIndexed());
  EXPECT_EQ(show(assign->targets[0].rows->begin.get()), "1");
  EXPECT_EQ(show(assign->targets[0].rows->end.get()), "2");
}

TEST(DMLParser, ParsesSourceAndQualifiedCalls) {
  Parsed parsed = parse("source(\"lib/u.dml\") as u\nx = u::f(1, n=2)\n"
                        "source = 3\n");
  ASSERT_TRUE(parsed.script) << parsed.errors.front();
  ASSERT_EQ(parsed.script->statements.size(), 3u);
  auto *source = llvm::dyn_cast<SourceStmt>(parsed.script->statements[0].get());
  ASSERT_TRUE(source);
  EXPECT_EQ(source->path, "lib/u.dml");
  EXPECT_EQ(source->name, "u");
  auto *assign = llvm::cast<AssignStmt>(parsed.script->statements[1].get());
  EXPECT_EQ(show(assign->value.get()), "(call u::f 1 n=2)");
  // `source` is an ordinary name where no '(' and a string follow it.
  EXPECT_TRUE(llvm::isa<AssignStmt>(parsed.script->statements[2].get()));

  EXPECT_EQ(expression("u::g + 1"),
            "error: 9: expected '(' after 'u::g': only functions are "
            "qualified by a namespace, found '+'");
  Parsed noAs = parse("source(\"a.dml\") u\n");
  ASSERT_FALSE(noAs.script);
  EXPECT_EQ(noAs.errors.front(), "16: expected 'as' and a namespace after "
                                 "'source(...)', found 'u'");
}

TEST(DMLParser, ParsesStatements) {
  Parsed parsed = parse(R"(
    # a comment
    x <- 1; y = 2
    if (x > y) z = 1 else if (x < y) { z = 2 } else { z = 3 }
    while (x < 10) { x = x + 1 }
    for (i in seq(1, 10, 2)) y = y + i
    for (j in 1:n-1) y = y + j
    parfor (i in 1:n, check = 0, par = 4) { R[i, 1] = i }
    f = function(Matrix[Double] X, Double s = 1.0) return (Matrix[Double] Y, Double t) {
      Y = X * s; t = s
    }
    [A, b] = f(X, s = 2)
    print("done")
  )");
  ASSERT_TRUE(parsed.script) << parsed.errors.front();
  const StmtList &stmts = parsed.script->statements;
  ASSERT_EQ(stmts.size(), 10u);
  EXPECT_TRUE(llvm::isa<AssignStmt>(stmts[0].get()));
  EXPECT_TRUE(llvm::isa<AssignStmt>(stmts[1].get()));
  auto *ifStmt = llvm::cast<IfStmt>(stmts[2].get());
  ASSERT_EQ(ifStmt->elseBlock.size(), 1u);
  EXPECT_TRUE(llvm::isa<IfStmt>(ifStmt->elseBlock.front().get()));
  EXPECT_TRUE(llvm::isa<WhileStmt>(stmts[3].get()));
  auto *forStmt = llvm::cast<ForStmt>(stmts[4].get());
  EXPECT_EQ(show(forStmt->step.get()), "2");
  EXPECT_FALSE(forStmt->isParallel);
  auto *countDown = llvm::cast<ForStmt>(stmts[5].get());
  EXPECT_EQ(show(countDown->to.get()), "(- n 1)");
  auto *parfor = llvm::cast<ForStmt>(stmts[6].get());
  EXPECT_TRUE(parfor->isParallel);
  EXPECT_EQ(show(parfor->to.get()), "n");
  auto *function = llvm::cast<FunctionStmt>(stmts[7].get());
  EXPECT_EQ(function->name, "f");
  ASSERT_EQ(function->parameters.size(), 2u);
  EXPECT_EQ(function->parameters[0].type.kind, TypeSpec::Kind::Matrix);
  EXPECT_EQ(show(function->parameters[1].defaultValue.get()), "1");
  EXPECT_EQ(function->results.size(), 2u);
  EXPECT_EQ(function->body.size(), 2u);
  auto *multi = llvm::cast<AssignStmt>(stmts[8].get());
  EXPECT_EQ(multi->targets.size(), 2u);
  EXPECT_TRUE(llvm::isa<ExprStmt>(stmts[9].get()));
}

TEST(DMLParser, DesugarsAccumulatorAssignment) {
  Parsed parsed = parse("x += 2 * y\nX[i, 1:2] += 1");
  ASSERT_TRUE(parsed.script) << parsed.errors.front();
  ASSERT_EQ(parsed.script->statements.size(), 2u);
  auto *scalar = llvm::cast<AssignStmt>(parsed.script->statements[0].get());
  EXPECT_EQ(scalar->targets[0].name, "x");
  EXPECT_FALSE(scalar->targets[0].isIndexed());
  EXPECT_EQ(show(scalar->value.get()), "(+ x (* 2 y))");
  auto *indexed = llvm::cast<AssignStmt>(parsed.script->statements[1].get());
  EXPECT_EQ(indexed->targets[0].name, "X");
  EXPECT_TRUE(indexed->targets[0].isIndexed());
  EXPECT_EQ(show(indexed->targets[0].cols->end.get()), "2");
  EXPECT_EQ(show(indexed->value.get()), "(+ (index X i 1:2) 1)");

  Parsed bad = parse("f(x) += 1");
  EXPECT_FALSE(bad.script);
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0],
            "5: '+=' needs a variable or an indexed variable on its left");
}

TEST(DMLParser, ReportsEveryErrorWithItsPosition) {
  //                 0123456789012345678
  Parsed parsed = parse("x = 1 + * 2\ny = (3\nz = 4 4\nw = 1");
  EXPECT_FALSE(parsed.script);
  ASSERT_EQ(parsed.errors.size(), 3u);
  EXPECT_EQ(parsed.errors[0], "8: expected an expression, found '*'");
  EXPECT_EQ(parsed.errors[1], "19: expected ')' to close '(', found 'z'");
  EXPECT_EQ(parsed.errors[2], "25: the value of this expression is not "
                              "used: expected an assignment or a call");
}

TEST(DMLParser, RejectsDeepNestingWithoutCrashing) {
  std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  Parsed parsed = parse("x = " + deep);
  EXPECT_FALSE(parsed.script);
  ASSERT_FALSE(parsed.errors.empty());
  EXPECT_NE(parsed.errors[0].find("nests too deeply"), std::string::npos);

  std::string negations(100000, '-');
  parsed = parse("x = " + negations + "1");
  EXPECT_FALSE(parsed.script);
}

TEST(DMLLexer, ReportsBadCharactersAndUnterminatedStrings) {
  Lexer lexer("a @ \"open\nb");
  EXPECT_TRUE(lexer.next().is(Token::Kind::Identifier));
  Token bad = lexer.next();
  EXPECT_TRUE(bad.is(Token::Kind::Error));
  EXPECT_EQ(bad.text, "unexpected character '@'");
  // A string may span lines, so an unterminated one runs to the end.
  Token open = lexer.next();
  EXPECT_TRUE(open.is(Token::Kind::Error));
  EXPECT_NE(open.text.find("unterminated string"), std::string::npos);
  EXPECT_TRUE(lexer.next().is(Token::Kind::EndOfFile));
}

TEST(DMLLexer, StringsSpanLines) {
  Lexer lexer("s = \"first\nsecond\" t");
  EXPECT_TRUE(lexer.next().is(Token::Kind::Identifier));
  EXPECT_TRUE(lexer.next().is(Token::Kind::Assign));
  Token text = lexer.next();
  ASSERT_TRUE(text.is(Token::Kind::String));
  EXPECT_EQ(text.text, "first\nsecond");
  Token t = lexer.next();
  EXPECT_TRUE(t.is(Token::Kind::Identifier));
  EXPECT_FALSE(t.startsLine);
}

TEST(DMLLexer, SkipsBlockComments) {
  Lexer lexer("a /* x */ b /* two\nlines */ c /* open");
  EXPECT_TRUE(lexer.next().is(Token::Kind::Identifier));
  Token b = lexer.next();
  EXPECT_EQ(b.text, "b");
  EXPECT_FALSE(b.startsLine);
  Token c = lexer.next();
  EXPECT_EQ(c.text, "c");
  EXPECT_TRUE(c.startsLine);
  Token open = lexer.next();
  EXPECT_TRUE(open.is(Token::Kind::Error));
  EXPECT_EQ(open.text, "unterminated comment: expected '*/' to close '/*'");
  EXPECT_TRUE(lexer.next().is(Token::Kind::EndOfFile));
}

} // namespace
