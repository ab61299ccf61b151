//===- EntryInterface.cpp - The entry's parameters and results ------------===//
//
// A host that calls a DML script as a function (the C API, the Python
// package) names its inputs and outputs (ImportOptions::inputs, outputs):
// the inputs become the entry's parameters, bound as variables and as
// `$name`, and the outputs its results, named by `amls.name`.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <set>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

Type Importer::inputType(ImportOptions::Input::Kind kind) {
  switch (kind) {
  case ImportOptions::Input::Kind::Matrix:
    return MatrixType::get(ShapedType::kDynamic, ShapedType::kDynamic,
                           builder.getF64Type());
  case ImportOptions::Input::Kind::Double:
    return builder.getF64Type();
  case ImportOptions::Input::Kind::Integer:
    return builder.getI64Type();
  case ImportOptions::Input::Kind::Boolean:
    return builder.getI1Type();
  }
  return builder.getF64Type();
}

DValue Importer::inputValue(ImportOptions::Input::Kind kind, Value argument) {
  switch (kind) {
  case ImportOptions::Input::Kind::Matrix:
    return DValue::matrix(argument);
  case ImportOptions::Input::Kind::Double:
    return DValue::scalar(argument);
  case ImportOptions::Input::Kind::Integer:
    // DML's integers are f64 values known to be integral.
    return DValue::integerScalar(arith::SIToFPOp::create(
        builder, argument.getLoc(), builder.getF64Type(), argument));
  case ImportOptions::Input::Kind::Boolean:
    return DValue::boolean(argument);
  }
  return {};
}

void Importer::returnOutputs(func::FuncOp entry, const Script &script) {
  Location l = loc(SMLoc());
  std::vector<std::string> names = options.outputs;
  if (names.empty() && options.returnAssigned) {
    std::set<std::string> assigned;
    collectAssigned(script.statements, assigned);
    for (const std::string &name : assigned) {
      auto it = env.find(name);
      // Not a variable assigned on some paths only: reading it where the
      // path taken did not would stop the host's run.
      if (it != env.end() && !it->second.defined &&
          (it->second.isMatrix() || it->second.isNumeric()))
        names.push_back(name);
    }
  }
  SmallVector<Value> results;
  SmallVector<Attribute> resultAttrs;
  for (const std::string &name : names) {
    auto it = env.find(name);
    if (it == env.end()) {
      error(SMLoc()) << "the script does not assign '" << name
                     << "', which was asked for as an output";
      continue;
    }
    DValue value = readVariable(name, SMLoc());
    if (!value.isValid())
      continue;
    NamedAttrList attrs;
    attrs.append(AMLSDialect::getNameAttrName(), builder.getStringAttr(name));
    if (value.isMatrix()) {
      results.push_back(value.value);
    } else if (value.kind == DValue::Kind::Scalar) {
      results.push_back(value.value);
    } else if (value.kind == DValue::Kind::Bool) {
      results.push_back(arith::ExtUIOp::create(builder, l, builder.getI64Type(),
                                               value.value));
      attrs.append(AMLSDialect::getBooleanAttrName(), builder.getUnitAttr());
    } else {
      error(SMLoc()) << "output '" << name << "' is a " << kindName(value.kind)
                     << ", which the script cannot return (matrices, numbers "
                        "and booleans only)";
      continue;
    }
    resultAttrs.push_back(attrs.getDictionary(builder.getContext()));
  }
  func::ReturnOp::create(builder, l, results);
  entry.setType(builder.getFunctionType(entry.getArgumentTypes(),
                                        ValueRange(results).getTypes()));
  for (auto [i, attrs] : llvm::enumerate(resultAttrs))
    entry.setResultAttrs(i, cast<DictionaryAttr>(attrs));
}
