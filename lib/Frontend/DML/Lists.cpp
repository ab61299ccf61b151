//===- Lists.cpp - DML lists as compile-time structures -------------------===//
//
// A DML list is a DValue of kind List: its length, element names and
// element kinds are known while importing, its elements are ordinary
// values (matrices, numbers, booleans, strings, lists). `list(...)`,
// `append`, `remove`, `length`, indexing by a constant position or name,
// and assignment into a position or name all work on that structure, so a
// list costs nothing at run time. A position known only at run time selects
// among elements of one kind (scf.index_switch) and assigns by comparing
// it with every position; the length still never changes at run time.
//
// Where lists cross control flow or function boundaries, their leaves (the
// matrices, numbers and booleans in them, and the values printed in their
// strings) are carried as separate values and the list is rebuilt on the
// other side around them (collectLeaves / rebuild).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

namespace {

/// The value of a number computed from constants by arith ops (positions
/// like `length(L)`, `n + 1` or `$k` after folding), if it is one.
std::optional<double> constantNumber(Value v) {
  APFloat f(0.0);
  if (matchPattern(v, m_ConstantFloat(&f)))
    return f.convertToDouble();
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  std::optional<double> a = constantNumber(op->getOperand(0));
  if (!a)
    return std::nullopt;
  std::optional<double> b = constantNumber(op->getOperand(1));
  if (!b)
    return std::nullopt;
  if (isa<arith::AddFOp>(op))
    return *a + *b;
  if (isa<arith::SubFOp>(op))
    return *a - *b;
  if (isa<arith::MulFOp>(op))
    return *a * *b;
  if (isa<arith::DivFOp>(op))
    return *a / *b;
  return std::nullopt;
}

/// A list position or name, as written in an index.
struct ListKey {
  std::optional<std::string> name;
  std::optional<int64_t> position; // 1-based
  Value runtime;                   // f64, when only known at run time
};

} // namespace

//===----------------------------------------------------------------------===//
// Leaves and shapes
//===----------------------------------------------------------------------===//

void Importer::collectLeaves(const DValue &v, SmallVectorImpl<Value> &leaves) {
  switch (v.kind) {
  case DValue::Kind::Matrix:
  case DValue::Kind::Scalar:
  case DValue::Kind::Bool:
  case DValue::Kind::Frame:
    leaves.push_back(v.value);
    return;
  case DValue::Kind::String:
    for (const StringPiece &piece : v.pieces)
      if (piece.value)
        leaves.push_back(piece.value);
    return;
  case DValue::Kind::List:
    for (const DValue &element : v.elements)
      collectLeaves(element, leaves);
    return;
  case DValue::Kind::Invalid:
    return;
  }
}

DValue Importer::rebuild(const DValue &shape, ArrayRef<Value> &leaves) {
  DValue result = shape;
  // A shape's flag only marks that one is carried (bindCarried).
  result.defined = nullptr;
  switch (shape.kind) {
  case DValue::Kind::Matrix:
  case DValue::Kind::Scalar:
  case DValue::Kind::Bool:
  case DValue::Kind::Frame:
    result.value = leaves.front();
    leaves = leaves.drop_front();
    break;
  case DValue::Kind::String:
    for (StringPiece &piece : result.pieces)
      if (piece.value) {
        piece.value = leaves.front();
        leaves = leaves.drop_front();
      }
    break;
  case DValue::Kind::List:
    for (DValue &element : result.elements)
      element = rebuild(element, leaves);
    break;
  case DValue::Kind::Invalid:
    break;
  }
  return result;
}

std::string Importer::shapeKey(const DValue &v) {
  switch (v.kind) {
  case DValue::Kind::Matrix:
    return "M";
  case DValue::Kind::Frame:
    return "F";
  case DValue::Kind::Scalar:
    return v.integer ? "I" : "D";
  case DValue::Kind::Bool:
    return "B";
  case DValue::Kind::String: {
    // Constant text is part of the key; printed values are leaves.
    std::string key = "S(";
    for (const StringPiece &piece : v.pieces) {
      if (piece.value)
        key += isa<StringType>(piece.value.getType()) ? "{s}"
               : piece.integer                        ? "{i}"
                                                      : "{}";
      else
        key += "\"" + piece.text + "\"";
    }
    return key + ")";
  }
  case DValue::Kind::List: {
    std::string key = "L(";
    for (auto [element, name] : llvm::zip(v.elements, v.names))
      key += (name.empty() ? "" : name + "=") + shapeKey(element) + ",";
    return key + ")";
  }
  case DValue::Kind::Invalid:
    break;
  }
  return "?";
}

std::optional<SmallVector<Value>>
Importer::coerceLeaves(Location l, const DValue &value, const DValue &like,
                       const std::string &name, SMLoc where) {
  if (!like.isList() && !value.isList() &&
      (!like.isString() || value.kind != like.kind)) {
    std::optional<Value> v = coerce(l, value, like, name, where);
    if (!v)
      return std::nullopt;
    return SmallVector<Value>{*v};
  }
  auto differs = [&](StringRef why) {
    error(where) << "variable '" << name << "' is " << kindName(like.kind)
                 << " on one path and " << kindName(value.kind)
                 << " on another, of another structure (" << why
                 << "); AMLS fixes the length, names and element kinds of a "
                    "list (and the text of a string) while importing";
    return std::nullopt;
  };
  if (value.kind != like.kind)
    return differs("the kinds differ");
  SmallVector<Value> leaves;
  if (like.runTimeString())
    return SmallVector<Value>{materializeString(l, value)};
  if (like.isString()) {
    if (shapeKey(value) != shapeKey(like))
      return differs("the texts differ");
    collectLeaves(value, leaves);
    return leaves;
  }
  if (value.elements.size() != like.elements.size())
    return differs(std::to_string(like.elements.size()) + " and " +
                   std::to_string(value.elements.size()) + " elements");
  if (value.names != like.names)
    return differs("the names differ");
  for (auto [element, likeElement] : llvm::zip(value.elements, like.elements)) {
    std::optional<SmallVector<Value>> sub =
        coerceLeaves(l, element, likeElement, name, where);
    if (!sub)
      return std::nullopt;
    llvm::append_range(leaves, *sub);
  }
  return leaves;
}

//===----------------------------------------------------------------------===//
// list(), append, remove, as.list
//===----------------------------------------------------------------------===//

DValue Importer::buildList(const CallExpr *call) {
  std::vector<DValue> elements;
  std::vector<std::string> names;
  for (const Argument &arg : call->args) {
    DValue v = gen(arg.value.get());
    if (!v.isValid())
      return {};
    elements.push_back(std::move(v));
    names.push_back(arg.name);
  }
  return DValue::list(std::move(elements), std::move(names));
}

bool Importer::isListExpr(const Expr *expr) {
  if (auto *id = llvm::dyn_cast<IdentifierExpr>(expr)) {
    auto it = env.find(id->name);
    return it != env.end() && it->second.isList();
  }
  if (auto *call = llvm::dyn_cast<CallExpr>(expr)) {
    if (functions.count(call->callee))
      return false;
    if (call->callee == "list")
      return true;
    if ((call->callee == "append" || call->callee == "as.list") &&
        !call->args.empty())
      return isListExpr(call->args.front().value.get());
  }
  return false;
}

bool Importer::genListBuiltin(const CallExpr *call, DValue &result) {
  StringRef name = call->callee;
  if (functions.count(name))
    return false;
  if (name == "list") {
    result = buildList(call);
    return true;
  }
  if (name == "as.list") {
    std::optional<BoundArgs> args = bind(call, {"x"}, 1);
    if (!args)
      return true;
    DValue x = gen((*args)[0]);
    if (x.isValid() && !x.isList())
      x = DValue::list({x}, {""});
    result = x;
    return true;
  }
  if (name == "remove" && !call->args.empty()) {
    error(call->getLoc()) << "remove(L, i) returns the list and the removed "
                             "element: assign them with [L2, x] = remove(L, i)";
    return true;
  }
  if (name != "append" || call->args.empty() ||
      !isListExpr(call->args.front().value.get()))
    return false;
  // append(L, x): x becomes the last element (a list too, nested), except
  // that a list of one named element appends that element by its name
  // (append(L, list(X=X)), as SystemDS hands lists to eval).
  std::optional<BoundArgs> args = bind(call, {"target", "value"}, 2);
  if (!args)
    return true;
  DValue list = gen((*args)[0]);
  DValue value = gen((*args)[1]);
  if (!list.isValid() || !value.isValid())
    return true;
  if (value.isList() && value.elements.size() == 1 &&
      !value.names.front().empty()) {
    list.elements.push_back(value.elements.front());
    list.names.push_back(value.names.front());
  } else {
    list.elements.push_back(std::move(value));
    list.names.push_back("");
  }
  result = std::move(list);
  return true;
}

std::vector<DValue> Importer::genListRemove(const CallExpr *call) {
  std::optional<BoundArgs> args = bind(call, {"target", "pos"}, 2);
  if (!args)
    return {};
  DValue list = gen((*args)[0]);
  if (!list.isValid())
    return {};
  if (!list.isList()) {
    error((*args)[0]->getLoc())
        << "remove needs a list, found " << kindName(list.kind);
    return {};
  }
  DValue pos = gen((*args)[1]);
  if (!pos.isValid())
    return {};
  std::optional<double> k =
      pos.isNumeric() ? constantNumber(toF64(loc(call->getLoc()), pos))
                      : std::nullopt;
  if (!k) {
    error((*args)[1]->getLoc())
        << "remove: the position must be a number known while importing "
           "(lists have a length known at compile time in AMLS)";
    return {};
  }
  int64_t index = static_cast<int64_t>(*k);
  if (index < 1 || index > static_cast<int64_t>(list.elements.size())) {
    error((*args)[1]->getLoc())
        << "remove: position " << index << " is out of bounds: the list has "
        << list.elements.size() << " elements";
    return {};
  }
  DValue removed = list.elements[index - 1];
  list.elements.erase(list.elements.begin() + index - 1);
  list.names.erase(list.names.begin() + index - 1);
  return {std::move(list), std::move(removed)};
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

namespace {

/// The key of `expr` in an index of `list`; nullopt after an error.
std::optional<ListKey> genKey(Importer &im, const Expr *expr) {
  DValue v = im.gen(expr);
  if (!v.isValid())
    return std::nullopt;
  ListKey key;
  if (v.isString()) {
    key.name = v.constantString();
    if (!key.name) {
      im.error(expr->getLoc()) << "a list name must be known while "
                                  "importing, found a string computed at "
                                  "run time";
      return std::nullopt;
    }
    return key;
  }
  if (!v.isNumeric()) {
    im.error(expr->getLoc()) << "a list index must be a number or a name, "
                                "found "
                             << kindName(v.kind);
    return std::nullopt;
  }
  Value f = im.toF64(im.loc(expr->getLoc()), v);
  if (std::optional<double> k = constantNumber(f))
    key.position = static_cast<int64_t>(std::trunc(*k));
  else
    key.runtime = f;
  return key;
}

/// The 0-based position `key` names in `list`; -1 after an error. A new
/// name, or the position just past the end, is `list.elements.size()` when
/// `growing`.
int64_t resolveKey(Importer &im, const DValue &list, const ListKey &key,
                   SMLoc where, bool growing) {
  int64_t size = list.elements.size();
  if (key.name) {
    auto it = llvm::find(list.names, *key.name);
    if (it != list.names.end())
      return it - list.names.begin();
    if (growing)
      return size;
    im.error(where) << "the list has no element named '" << *key.name << "'";
    return -1;
  }
  int64_t k = *key.position;
  if (k >= 1 && (k <= size || (growing && k == size + 1)))
    return k - 1;
  im.error(where) << "list index " << k << " is out of bounds: the list has "
                  << size << " element" << (size == 1 ? "" : "s");
  return -1;
}

} // namespace

DValue Importer::genListIndex(const IndexExpr *expr, const DValue &list) {
  if (!expr->cols.isAll()) {
    error(expr->cols.loc) << "a list has one dimension: index it as L[i] or "
                             "L[\"name\"]";
    return {};
  }
  if (expr->rows.isAll())
    return list;
  std::optional<ListKey> begin = genKey(*this, expr->rows.begin.get());
  if (!begin)
    return {};
  if (expr->rows.end) {
    // L[i:j]: the sublist.
    std::optional<ListKey> end = genKey(*this, expr->rows.end.get());
    if (!end)
      return {};
    if (!begin->position || !end->position) {
      error(expr->rows.loc) << "a list range L[i:j] needs positions known "
                               "while importing";
      return {};
    }
    int64_t first = resolveKey(*this, list, *begin, expr->rows.loc, false);
    int64_t last = resolveKey(*this, list, *end, expr->rows.loc, false);
    if (first < 0 || last < 0)
      return {};
    DValue sub = DValue::list({}, {});
    for (int64_t k = first; k <= last; ++k) {
      sub.elements.push_back(list.elements[k]);
      sub.names.push_back(list.names[k]);
    }
    return sub;
  }
  if (!begin->runtime) {
    int64_t k = resolveKey(*this, list, *begin, expr->rows.loc, false);
    return k < 0 ? DValue() : list.elements[k];
  }

  // A position known at run time: the elements must have one kind.
  Location l = loc(expr->getLoc());
  if (list.elements.empty()) {
    error(expr->rows.loc) << "indexing an empty list";
    return {};
  }
  DValue::Kind kind = list.elements.front().kind;
  for (const DValue &element : list.elements)
    if (element.kind != kind || !(element.isMatrix() || element.isNumeric())) {
      auto diag = error(expr->rows.loc);
      diag << "a list index known only at run time needs elements of one "
              "kind (all matrices, all numbers or all booleans), found ";
      if (element.kind == kind)
        diag << kindName(kind)
             << " (strings and lists must be indexed by a "
                "position known while importing)";
      else
        diag << kindName(kind) << " and " << kindName(element.kind);
      return {};
    }
  Type type = kind == DValue::Kind::Matrix ? Type(matrixType())
              : kind == DValue::Kind::Bool ? builder.getI1Type()
                                           : f64();
  Value index = arith::SubIOp::create(builder, l, toIndex(l, begin->runtime),
                                      indexConstant(l, 1));
  SmallVector<int64_t> cases;
  for (size_t k = 0; k < list.elements.size(); ++k)
    cases.push_back(k);
  auto select = scf::IndexSwitchOp::create(builder, l, TypeRange{type}, index,
                                           cases, cases.size());
  OpBuilder::InsertionGuard guard(builder);
  for (auto [k, element] : llvm::enumerate(list.elements)) {
    builder.createBlock(&select.getCaseRegions()[k]);
    Value v = element.isMatrix() ? relaxed(l, element.value) : element.value;
    scf::YieldOp::create(builder, l, v);
  }
  builder.createBlock(&select.getDefaultRegion());
  StopOp::create(builder, l,
                 builder.getStringAttr(positionOf(l) +
                                       "list index {} is out of bounds: the "
                                       "list has " +
                                       Twine(list.elements.size()) +
                                       " elements"),
                 ValueRange{begin->runtime});
  const DValue &first = list.elements.front();
  scf::YieldOp::create(
      builder, l, first.isMatrix() ? relaxed(l, first.value) : first.value);
  bool integer =
      llvm::all_of(list.elements, [](const DValue &e) { return e.integer; });
  return DValue{kind, select.getResult(0), {}, integer};
}

void Importer::assignListElement(const AssignTarget &target, DValue list,
                                 DValue value) {
  if (!target.cols->isAll()) {
    error(target.cols->loc) << "a list has one dimension: assign to L[i] or "
                               "L[\"name\"]";
    return;
  }
  if (target.rows->isAll()) {
    env[target.name] = std::move(value);
    return;
  }
  std::optional<ListKey> begin = genKey(*this, target.rows->begin.get());
  if (!begin)
    return;
  SMLoc where = target.rows->loc;
  if (target.rows->end) {
    // L[i:j] = list(...): replaces j-i+1 elements, keeping their names.
    std::optional<ListKey> end = genKey(*this, target.rows->end.get());
    if (!end)
      return;
    if (!begin->position || !end->position) {
      error(where) << "a list range L[i:j] needs positions known while "
                      "importing";
      return;
    }
    int64_t first = resolveKey(*this, list, *begin, where, false);
    int64_t last = resolveKey(*this, list, *end, where, false);
    if (first < 0 || last < 0)
      return;
    size_t count = last >= first ? last - first + 1 : 0;
    if (!value.isList() || value.elements.size() != count) {
      error(where) << "L[i:j] = ... needs a list of " << count
                   << " elements, found " << kindName(value.kind);
      return;
    }
    for (size_t k = 0; k < count; ++k)
      list.elements[first + k] = value.elements[k];
    env[target.name] = std::move(list);
    return;
  }
  if (!begin->runtime) {
    int64_t k = resolveKey(*this, list, *begin, where, /*growing=*/true);
    if (k < 0)
      return;
    if (k == static_cast<int64_t>(list.elements.size())) {
      list.elements.push_back(std::move(value));
      list.names.push_back(begin->name ? *begin->name : "");
    } else {
      list.elements[k] = std::move(value);
    }
    env[target.name] = std::move(list);
    return;
  }

  // A position known at run time: every element of the value's kind is
  // replaced where the position is its own.
  Location l = loc(target.loc);
  for (const DValue &element : list.elements)
    if (element.kind != value.kind ||
        !(element.isMatrix() || element.isNumeric())) {
      error(where) << "assigning at a list index known only at run time "
                      "needs elements of the value's kind (all matrices, "
                      "all numbers or all booleans), found "
                   << kindName(element.kind) << " and " << kindName(value.kind);
      return;
    }
  Value size = constant(l, list.elements.size());
  Value outside = arith::OrIOp::create(
      builder, l,
      arith::CmpFOp::create(builder, l, arith::CmpFPredicate::ULT,
                            begin->runtime, constant(l, 1.0)),
      arith::CmpFOp::create(
          builder, l, arith::CmpFPredicate::UGE, begin->runtime,
          arith::AddFOp::create(builder, l, size, constant(l, 1.0))));
  scf::IfOp::create(builder, l, outside, [&](OpBuilder &b, Location bl) {
    StopOp::create(b, bl,
                   b.getStringAttr(positionOf(l) +
                                   "list index {} is out of bounds: the list "
                                   "has " +
                                   Twine(list.elements.size()) + " elements"),
                   ValueRange{begin->runtime});
    scf::YieldOp::create(b, bl);
  });
  Value position =
      arith::FPToSIOp::create(builder, l, builder.getI64Type(), begin->runtime);
  for (auto [k, element] : llvm::enumerate(list.elements)) {
    Value here = arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::eq, position,
        arith::ConstantIntOp::create(builder, l, builder.getI64Type(), k + 1));
    if (element.isMatrix()) {
      Value fresh = relaxed(l, value.value), old = relaxed(l, element.value);
      auto choice = scf::IfOp::create(
          builder, l, here,
          [&](OpBuilder &b, Location bl) {
            scf::YieldOp::create(b, bl, fresh);
          },
          [&](OpBuilder &b, Location bl) { scf::YieldOp::create(b, bl, old); });
      element = DValue::matrix(choice.getResult(0));
    } else {
      element.value =
          arith::SelectOp::create(builder, l, here, value.value, element.value);
      element.integer &= value.integer;
    }
  }
  env[target.name] = std::move(list);
}

//===----------------------------------------------------------------------===//
// Variables carried through control flow
//===----------------------------------------------------------------------===//

DValue Importer::carriedShape(const DValue &v) {
  DValue shape = v;
  if (shape.kind == DValue::Kind::Bool)
    shape.kind = DValue::Kind::Scalar;
  for (DValue &element : shape.elements)
    element = carriedShape(element);
  return shape;
}

void Importer::carryInit(Location l, const std::string &name, SMLoc where,
                         SmallVectorImpl<Value> &inits,
                         std::vector<DValue> &shapes) {
  const DValue &value = env[name];
  DValue shape = carriedShape(value);
  // A loop may assign a string another text: it is carried as a string
  // computed at run time.
  if (value.isString()) {
    shape = DValue::runTime(materializeString(l, value));
    shape.defined = value.defined;
  }
  std::optional<SmallVector<Value>> leaves =
      coerceLeaves(l, value, shape, name, where);
  if (leaves) {
    llvm::append_range(inits, *leaves);
    // A variable that may be unassigned carries its defined flag too
    // (Scoping.cpp); the shape's flag marks that it does.
    if (shape.defined)
      inits.push_back(shape.defined);
  } else {
    // After an error (reported): carry nothing of it.
    shape = DValue::list({}, {});
  }
  shapes.push_back(std::move(shape));
}

void Importer::bindCarried(ArrayRef<std::string> names, ArrayRef<DValue> shapes,
                           ValueRange leaves) {
  SmallVector<Value> all(leaves);
  ArrayRef<Value> rest = all;
  for (auto [name, shape] : llvm::zip(names, shapes)) {
    env[name] = rebuild(shape, rest);
    if (shape.defined) {
      env[name].defined = rest.front();
      rest = rest.drop_front();
    }
  }
}

SmallVector<Value> Importer::yieldCarried(Location l,
                                          ArrayRef<std::string> names,
                                          std::vector<DValue> &shapes,
                                          ValueRange previous, SMLoc where) {
  SmallVector<Value> yielded;
  size_t offset = 0;
  for (auto [name, shape] : llvm::zip(names, shapes)) {
    SmallVector<Value> leaves;
    collectLeaves(shape, leaves);
    std::optional<SmallVector<Value>> v =
        coerceLeaves(l, env[name], shape, name, where);
    if (v && v->size() == leaves.size())
      llvm::append_range(yielded, *v);
    else
      llvm::append_range(yielded, previous.slice(offset, leaves.size()));
    offset += leaves.size();
    if (shape.defined) {
      yielded.push_back(definedFlag(l, env[name]));
      ++offset;
    }
    if (!shape.isList())
      shape.integer &= env[name].integer;
  }
  return yielded;
}

//===----------------------------------------------------------------------===//
// Loops that need their counter at compile time
//===----------------------------------------------------------------------===//

namespace {

/// Whether `expr` reads variable `name`.
bool mentions(const Expr *expr, const std::string &name) {
  if (!expr)
    return false;
  if (auto *id = llvm::dyn_cast<IdentifierExpr>(expr))
    return id->name == name;
  if (auto *unary = llvm::dyn_cast<UnaryExpr>(expr))
    return mentions(unary->operand.get(), name);
  if (auto *binary = llvm::dyn_cast<BinaryExpr>(expr))
    return mentions(binary->lhs.get(), name) ||
           mentions(binary->rhs.get(), name);
  if (auto *call = llvm::dyn_cast<CallExpr>(expr))
    return llvm::any_of(call->args, [&](const Argument &arg) {
      return mentions(arg.value.get(), name);
    });
  if (auto *index = llvm::dyn_cast<IndexExpr>(expr))
    return mentions(index->base.get(), name) ||
           mentions(index->rows.begin.get(), name) ||
           mentions(index->rows.end.get(), name) ||
           mentions(index->cols.begin.get(), name) ||
           mentions(index->cols.end.get(), name);
  return false;
}

/// Walks a loop body for list uses that need the counter `var` known while
/// importing (see Importer::needsUnrolling).
struct UnrollCheck {
  const Environment &env;
  const std::string &var;

  /// A list whose elements a run-time position cannot select among.
  bool isMixedList(const std::string &name) const {
    auto it = env.find(name);
    if (it == env.end() || !it->second.isList())
      return false;
    const DValue &list = it->second;
    return llvm::any_of(list.elements, [&](const DValue &e) {
      return !(e.isMatrix() || e.isNumeric()) ||
             e.kind != list.elements.front().kind;
    });
  }
  bool isList(const std::string &name) const {
    auto it = env.find(name);
    return it != env.end() && it->second.isList();
  }

  bool expr(const Expr *e) const {
    if (!e)
      return false;
    if (auto *index = llvm::dyn_cast<IndexExpr>(e)) {
      auto *base = llvm::dyn_cast<IdentifierExpr>(index->base.get());
      if (base && isMixedList(base->name) &&
          mentions(index->rows.begin.get(), var))
        return true;
      return expr(index->base.get()) || expr(index->rows.begin.get()) ||
             expr(index->rows.end.get()) || expr(index->cols.begin.get()) ||
             expr(index->cols.end.get());
    }
    if (auto *call = llvm::dyn_cast<CallExpr>(e)) {
      // A list that grows (append) or shrinks (remove) in the loop.
      if ((call->callee == "append" || call->callee == "remove") &&
          !call->args.empty())
        if (auto *id =
                llvm::dyn_cast<IdentifierExpr>(call->args[0].value.get()))
          if (isList(id->name))
            return true;
      return llvm::any_of(call->args, [&](const Argument &arg) {
        return expr(arg.value.get());
      });
    }
    if (auto *unary = llvm::dyn_cast<UnaryExpr>(e))
      return expr(unary->operand.get());
    if (auto *binary = llvm::dyn_cast<BinaryExpr>(e))
      return expr(binary->lhs.get()) || expr(binary->rhs.get());
    return false;
  }

  bool block(const StmtList &stmts) const {
    for (const StmtPtr &stmt : stmts) {
      if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
        for (const AssignTarget &target : assign->targets)
          if (target.isIndexed() && isList(target.name) &&
              (mentions(target.rows->begin.get(), var) &&
               (isMixedList(target.name) ||
                target.rows->begin->getKind() == Expr::Kind::String)))
            return true;
        if (expr(assign->value.get()))
          return true;
      } else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(stmt.get())) {
        if (expr(exprStmt->expr.get()))
          return true;
      } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
        if (expr(ifStmt->condition.get()) || block(ifStmt->thenBlock) ||
            block(ifStmt->elseBlock))
          return true;
      } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
        if (expr(whileStmt->condition.get()) || block(whileStmt->body))
          return true;
      } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
        if (block(forStmt->body))
          return true;
      }
    }
    return false;
  }
};

} // namespace

bool Importer::unrollIfNeeded(const ForStmt *forStmt, Value from, Value to,
                              Value step, bool integerLoop) {
  if (!UnrollCheck{env, forStmt->variable}.block(forStmt->body))
    return false;
  std::optional<double> first = constantNumber(from), last = constantNumber(to);
  std::optional<double> increment =
      step
          ? constantNumber(step)
          : std::optional<double>(first && last && *first > *last ? -1.0 : 1.0);
  SMLoc where = forStmt->getLoc();
  if (!first || !last || !increment) {
    error(where) << "this loop indexes a list of strings, lists or mixed "
                    "kinds by its counter, or appends to a list: AMLS "
                    "unrolls such loops while importing, which needs "
                    "bounds known while importing (constants, $ arguments, "
                    "length(L))";
    return true;
  }
  double count =
      *increment == 0 ? 0 : std::floor((*last - *first) / *increment) + 1;
  constexpr double kMaxUnrolled = 1024;
  if (count > kMaxUnrolled) {
    error(where) << "this loop would be unrolled while importing (it "
                    "indexes a list of strings, lists or mixed kinds by "
                    "its counter, or appends to a list), but it runs "
                 << static_cast<int64_t>(count)
                 << " times; AMLS unrolls at most "
                 << static_cast<int64_t>(kMaxUnrolled);
    return true;
  }
  Location l = loc(where);
  auto previous = env.find(forStmt->variable);
  std::optional<DValue> saved;
  if (previous != env.end())
    saved = previous->second;
  for (double k = 0; k < count; ++k) {
    env[forStmt->variable] = DValue{DValue::Kind::Scalar,
                                    constant(l, *first + k * *increment),
                                    {},
                                    integerLoop};
    genBlock(forStmt->body);
  }
  // DML's counter keeps its last value after the loop (ImportDML.cpp).
  if (count > 0)
    env[forStmt->variable] =
        DValue{DValue::Kind::Scalar, constant(l, *first + (count - 1) * *increment),
               {}, integerLoop};
  else if (saved)
    env[forStmt->variable] = *saved;
  else
    env.erase(forStmt->variable);
  return true;
}
