//===- AST.h - Abstract syntax of DML scripts -------------------*- C++ -*-===//
//
// The parser produces this tree; the IR generator walks it. Nodes keep the
// source location of their first token for diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_FRONTEND_DML_AST_H
#define AMLS_FRONTEND_DML_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amls::dml {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr {
public:
  enum class Kind {
    Number,
    String,
    Bool,
    Identifier,
    CommandLineArg,
    Unary,
    Binary,
    Call,
    Index,
  };
  Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

private:
  Kind kind;
  llvm::SMLoc loc;
};
using ExprPtr = std::unique_ptr<Expr>;

class NumberExpr : public Expr {
public:
  NumberExpr(llvm::SMLoc loc, double value, bool isInteger)
      : Expr(Kind::Number, loc), value(value), isInteger(isInteger) {}
  double value;
  /// Written without a fraction or exponent (DML's INT literal).
  bool isInteger;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Number; }
};

class StringExpr : public Expr {
public:
  StringExpr(llvm::SMLoc loc, std::string value)
      : Expr(Kind::String, loc), value(std::move(value)) {}
  std::string value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::String; }
};

class BoolExpr : public Expr {
public:
  BoolExpr(llvm::SMLoc loc, bool value) : Expr(Kind::Bool, loc), value(value) {}
  bool value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Bool; }
};

class IdentifierExpr : public Expr {
public:
  IdentifierExpr(llvm::SMLoc loc, std::string name)
      : Expr(Kind::Identifier, loc), name(std::move(name)) {}
  std::string name;
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::Identifier;
  }
};

/// `$name` or `$1`.
class CommandLineArgExpr : public Expr {
public:
  CommandLineArgExpr(llvm::SMLoc loc, std::string name)
      : Expr(Kind::CommandLineArg, loc), name(std::move(name)) {}
  std::string name;
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::CommandLineArg;
  }
};

enum class UnaryOp { Negate, Plus, Not };

class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMLoc loc, UnaryOp op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  UnaryOp op;
  ExprPtr operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Mod,
  IntDiv,
  MatMul,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  /// `a:b`: a range in an index or a for loop, seq(a, b) elsewhere.
  Range,
};

/// The operator as written in DML.
llvm::StringRef spelling(BinaryOp op);

class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// An argument of a call: positional (empty name) or `name = value`.
struct Argument {
  llvm::SMLoc loc;
  std::string name;
  ExprPtr value;
};

class CallExpr : public Expr {
public:
  CallExpr(llvm::SMLoc loc, std::string callee, std::vector<Argument> args)
      : Expr(Kind::Call, loc), callee(std::move(callee)),
        args(std::move(args)) {}
  std::string callee;
  std::vector<Argument> args;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }
};

/// One dimension of an index: empty (the whole dimension), a single
/// position, or a `begin:end` range (1-based, inclusive).
struct IndexRange {
  llvm::SMLoc loc;
  ExprPtr begin; // null: the whole dimension
  ExprPtr end;   // null: a single position
  bool isAll() const { return !begin; }
};

class IndexExpr : public Expr {
public:
  IndexExpr(llvm::SMLoc loc, ExprPtr base, IndexRange rows, IndexRange cols)
      : Expr(Kind::Index, loc), base(std::move(base)), rows(std::move(rows)),
        cols(std::move(cols)) {}
  ExprPtr base;
  IndexRange rows, cols;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Index; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind { Assign, Expression, If, While, For, Function, Source };
  Stmt(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

private:
  Kind kind;
  llvm::SMLoc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// The left side of an assignment: a variable, or a left-indexed variable
/// (`X[a:b, c] = Y`).
struct AssignTarget {
  llvm::SMLoc loc;
  std::string name;
  std::optional<IndexRange> rows, cols; // both set for left indexing
  bool isIndexed() const { return rows.has_value(); }
};

/// `x = e`, `x <- e`, `X[a:b, c] = e`, or `[a, b] = f(...)`.
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMLoc loc, std::vector<AssignTarget> targets, ExprPtr value)
      : Stmt(Kind::Assign, loc), targets(std::move(targets)),
        value(std::move(value)) {}
  std::vector<AssignTarget> targets;
  ExprPtr value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }
};

/// A call evaluated for its effect: `print(...)`, `write(...)`, `f(X)`.
class ExprStmt : public Stmt {
public:
  ExprStmt(llvm::SMLoc loc, ExprPtr expr)
      : Stmt(Kind::Expression, loc), expr(std::move(expr)) {}
  ExprPtr expr;
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::Expression;
  }
};

class IfStmt : public Stmt {
public:
  IfStmt(llvm::SMLoc loc, ExprPtr condition, StmtList thenBlock,
         StmtList elseBlock)
      : Stmt(Kind::If, loc), condition(std::move(condition)),
        thenBlock(std::move(thenBlock)), elseBlock(std::move(elseBlock)) {}
  ExprPtr condition;
  StmtList thenBlock, elseBlock;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }
};

class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMLoc loc, ExprPtr condition, StmtList body)
      : Stmt(Kind::While, loc), condition(std::move(condition)),
        body(std::move(body)) {}
  ExprPtr condition;
  StmtList body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }
};

/// `for (i in from:to)`, `for (i in seq(from, to, step))`, or `parfor`.
/// A loop header option `name = value` (`check=0`, `par=4`, ...).
struct LoopOption {
  llvm::SMLoc loc;
  std::string name;
  ExprPtr value;
};

class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMLoc loc, std::string variable, ExprPtr from, ExprPtr to,
          ExprPtr step, bool isParallel, std::vector<LoopOption> options,
          StmtList body)
      : Stmt(Kind::For, loc), variable(std::move(variable)),
        from(std::move(from)), to(std::move(to)), step(std::move(step)),
        isParallel(isParallel), options(std::move(options)),
        body(std::move(body)) {}
  std::string variable;
  ExprPtr from, to, step; // step may be null
  bool isParallel;
  std::vector<LoopOption> options;
  StmtList body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }
};

/// A declared type: `Matrix[Double]`, `Double`, `Integer`, `Boolean`,
/// `String`, `List[...]`, `Frame[...]` (also the lower-case short forms).
struct TypeSpec {
  enum class Kind {
    Matrix,
    Double,
    Integer,
    Boolean,
    String,
    List,
    Frame
  } kind;
  llvm::SMLoc loc;
};

struct Parameter {
  llvm::SMLoc loc;
  TypeSpec type;
  std::string name;
  ExprPtr defaultValue; // may be null
};

class FunctionStmt : public Stmt {
public:
  FunctionStmt(llvm::SMLoc loc, std::string name,
               std::vector<Parameter> parameters,
               std::vector<Parameter> results, StmtList body)
      : Stmt(Kind::Function, loc), name(std::move(name)),
        parameters(std::move(parameters)), results(std::move(results)),
        body(std::move(body)) {}
  std::string name;
  std::vector<Parameter> parameters, results;
  StmtList body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Function; }
};

/// `source("path") as ns`: the functions of another script, called as
/// `ns::f(...)`.
class SourceStmt : public Stmt {
public:
  SourceStmt(llvm::SMLoc loc, std::string path, std::string name,
             llvm::SMLoc nameLoc)
      : Stmt(Kind::Source, loc), path(std::move(path)), name(std::move(name)),
        nameLoc(nameLoc) {}
  std::string path, name;
  llvm::SMLoc nameLoc;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Source; }
};

/// A parsed script: its top-level statements, function definitions included.
struct Script {
  StmtList statements;
};

} // namespace mlir::amls::dml

#endif // AMLS_FRONTEND_DML_AST_H
