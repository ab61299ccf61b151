//===- BuiltinsIO.cpp - DML builtins that read, write and print -----------===//
//
// read, write, print, stop and toString: files and messages, whose text is
// a sequence of literal pieces and values (printed by the runtime). Files
// are read and written as SystemDS does: the format from the `format`
// argument, else the `.mtd` metadata file beside the file, else its
// extension, else text-cell; a write also writes the `.mtd` file; scalars
// are files of their text.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "AMLS/Runtime/FileMetadata.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <cctype>
#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {

/// The printf-style format and operands of a string; INT pieces become
/// integers with `integersAsIntegers` and stay doubles otherwise.
std::string formatOf(OpBuilder &builder, Location l, const DValue &text,
                     bool integersAsIntegers,
                     llvm::SmallVectorImpl<Value> &values) {
  std::string format;
  for (const StringPiece &piece : text.pieces) {
    if (piece.value && !piece.spec.empty()) {
      format += "{" + piece.spec + "}";
      values.push_back(piece.value);
      continue;
    }
    if (piece.value) {
      format += "{}";
      values.push_back(piece.integer && integersAsIntegers
                           ? arith::FPToSIOp::create(
                                 builder, l, builder.getI64Type(), piece.value)
                                 .getResult()
                           : piece.value);
      continue;
    }
    for (char c : piece.text) {
      if (c == '{' || c == '}')
        format.push_back(c);
      format.push_back(c);
    }
  }
  return format;
}

} // namespace

/// The .mtd file of `path` at compile time, or an error at `where`.
static bool
readCompileTimeMtd(Importer &im, llvm::SMLoc where, const std::string &path,
                   std::optional<::amls::runtime::MtdMetadata> &mtd) {
  std::string problem = ::amls::runtime::readMtdFor(path, mtd);
  if (problem.empty())
    return true;
  im.error(where) << "read: " << problem;
  return false;
}

DValue BuiltinCall::buildRead() {
  std::optional<std::string> path =
      im.genConstantString(args[0], "the file of 'read'");
  if (!path)
    return {};
  std::optional<::amls::runtime::MtdMetadata> mtd;
  if (!readCompileTimeMtd(im, where, *path, mtd))
    return {};
  std::string mtdPath = ::amls::runtime::mtdPathFor(*path);
  std::string dataType = mtd ? mtd->dataType : "matrix";
  if (args.has(6)) {
    std::optional<std::string> text =
        im.genConstantString(args[6], "'data_type'");
    if (!text)
      return {};
    if (*text != "matrix" && *text != "scalar" && *text != "frame") {
      im.error(args[6]->getLoc())
          << "read(data_type=\"" << *text
          << "\"): expected \"matrix\", \"frame\" or \"scalar\"";
      return {};
    }
    if (mtd && mtd->dataType != *text) {
      im.error(args[6]->getLoc())
          << "read(data_type=\"" << *text << "\"): the metadata file '"
          << mtdPath << "' says data_type \"" << mtd->dataType << "\"";
      return {};
    }
    dataType = *text;
  }
  if (dataType == "scalar")
    return buildReadScalar(*path);
  if (dataType == "frame")
    return buildReadFrame(*path, mtd);
  std::optional<FileFormat> mtdFormat;
  if (mtd && mtd->format)
    mtdFormat = static_cast<FileFormat>(*mtd->format);
  std::optional<FileFormat> format =
      fileFormat(*path, /*formatParameter=*/1, mtdFormat);
  if (!format)
    return {};
  // rows= and cols=: the sizes of a text-cell file without a .mtd file.
  // Known before the run, they become the result's type; they must agree
  // with the .mtd file.
  int64_t sizes[2] = {ShapedType::kDynamic, ShapedType::kDynamic};
  for (int d = 0; d < 2; ++d) {
    size_t parameter = d ? 5 : 4;
    if (!args.has(parameter))
      continue;
    DValue size = im.gen(args[parameter]);
    if (!size.isValid())
      return {};
    std::optional<double> number =
        size.isNumeric() ? Importer::constantNumber(size.value) : std::nullopt;
    if (!number)
      continue; // Known only at run time: the .mtd file must give it.
    if (!(*number >= 0) || *number != std::floor(*number) || *number > 9e15) {
      im.error(args[parameter]->getLoc())
          << "read: expected " << (d ? "cols" : "rows")
          << " to be a count (0 or more), found " << *number;
      return {};
    }
    sizes[d] = static_cast<int64_t>(*number);
    std::optional<int64_t> fromMtd =
        mtd ? (d ? mtd->cols : mtd->rows) : std::nullopt;
    if (fromMtd && *fromMtd != sizes[d]) {
      im.error(args[parameter]->getLoc())
          << "read: " << (d ? "cols" : "rows") << "=" << sizes[d]
          << " disagrees with the metadata file '" << mtdPath
          << "', which gives " << (mtd->rows ? *mtd->rows : -1) << "x"
          << (mtd->cols ? *mtd->cols : -1);
      return {};
    }
  }
  // header, sep, value_type and nnz describe the file; the runtime finds
  // a CSV header itself, and only ',' separates CSV fields.
  if (args.has(3)) {
    std::optional<std::string> sep = im.genConstantString(args[3], "'sep'");
    if (!sep)
      return {};
    if (*sep != ",") {
      im.error(args[3]->getLoc()) << "read(sep=\"" << *sep
                                  << "\") is not supported: AMLS reads CSV "
                                     "files separated by ','";
      return {};
    }
  } else if (mtd && mtd->separator && *mtd->separator != "," &&
             *format == FileFormat::CSV) {
    im.error(where) << "read: the metadata file '" << mtdPath
                    << "' gives sep \"" << *mtd->separator
                    << "\", which is not supported: AMLS reads CSV files "
                       "separated by ','";
    return {};
  }
  for (size_t i : {2, 7, 8})
    if (args.has(i) && !im.gen(args[i]).isValid())
      return {};
  auto type = MatrixType::get(sizes[0], sizes[1], im.f64());
  Value read =
      ReadOp::create(builder, l, type, builder.getStringAttr(*path), *format);
  return DValue::matrix(im.relaxed(l, read));
}

DValue BuiltinCall::buildReadScalar(const std::string &path) {
  std::optional<::amls::runtime::MtdMetadata> mtd;
  if (!readCompileTimeMtd(im, where, path, mtd))
    return {};
  std::string valueType = mtd ? mtd->valueType : "double";
  if (args.has(7)) {
    std::optional<std::string> text =
        im.genConstantString(args[7], "'value_type'");
    if (!text)
      return {};
    valueType = *text == "integer" ? "int" : *text;
  }
  if (args.has(1)) {
    std::optional<std::string> format =
        im.genConstantString(args[1], "'format'");
    if (!format)
      return {};
    if (*format != "text") {
      im.error(args[1]->getLoc()) << "read: a scalar is read from a text file "
                                     "(format=\"text\"), found format=\""
                                  << *format << "\"";
      return {};
    }
  }
  ScalarType type;
  if (valueType == "double") {
    type = ScalarType::Double;
  } else if (valueType == "int") {
    type = ScalarType::Int;
  } else if (valueType == "boolean") {
    type = ScalarType::Boolean;
  } else if (valueType == "string") {
    return DValue::runTime(
        ReadTextOp::create(builder, l, StringType::get(builder.getContext()),
                           builder.getStringAttr(path)));
  } else {
    im.error(args.has(7) ? args[7]->getLoc() : where)
        << "read(data_type=\"scalar\", value_type=\"" << valueType
        << "\"): expected double, int, boolean or string";
    return {};
  }
  Value value = ReadScalarOp::create(builder, l, im.f64(),
                                     builder.getStringAttr(path), type);
  if (type == ScalarType::Boolean)
    return DValue::boolean(arith::CmpFOp::create(
        builder, l, arith::CmpFPredicate::UNE, value, im.constant(l, 0.0)));
  return DValue::number(value, type == ScalarType::Int);
}

DValue BuiltinCall::buildToString() {
  DValue x = im.gen(args[0]);
  if (!x.isValid() || x.isString())
    return x;
  if (x.isFrame())
    return frameToString(x.value);
  if (x.isList()) {
    im.error(where) << "toString of a list is not supported; print its "
                       "elements";
    return {};
  }
  return DValue::string({StringPiece{"", x.value}});
}

/// Calls emit(integersAsIntegers) for `message`: an INT prints as an
/// integer ("7"); one that is not finite (7 %% 0 is NaN) has no integer to
/// print and prints as a double ("NaN").
/// Whether every INT piece of `message` is finite (so prints as an integer);
/// null when it has none.
static Value integersFinite(OpBuilder &builder, Location l,
                            const DValue &message) {
  Value allFinite;
  for (const StringPiece &piece : message.pieces) {
    if (!piece.integer)
      continue;
    Value magnitude = math::AbsFOp::create(builder, l, piece.value);
    Value finite = arith::CmpFOp::create(
        builder, l, arith::CmpFPredicate::ONE, magnitude,
        arith::ConstantOp::create(builder, l,
                                  builder.getF64FloatAttr(INFINITY)));
    allFinite =
        allFinite
            ? arith::AndIOp::create(builder, l, allFinite, finite).getResult()
            : finite;
  }
  return allFinite;
}

static void emitMessage(OpBuilder &builder, Location l, const DValue &message,
                        llvm::function_ref<void(bool)> emit) {
  Value allFinite = integersFinite(builder, l, message);
  if (!allFinite) {
    emit(/*integersAsIntegers=*/false);
    return;
  }
  auto branch = scf::IfOp::create(builder, l, allFinite,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(branch.thenBlock());
  emit(/*integersAsIntegers=*/true);
  builder.setInsertionPointToStart(branch.elseBlock());
  emit(/*integersAsIntegers=*/false);
}

Value Importer::materializeString(Location l, const DValue &text) {
  if (Value runTime = text.runTimeString())
    return runTime;
  Type type = StringType::get(builder.getContext());
  auto build = [&](OpBuilder &b, bool integersAsIntegers) -> Value {
    llvm::SmallVector<Value> values;
    std::string format = formatOf(b, l, text, integersAsIntegers, values);
    return StringFormatOp::create(b, l, type, b.getStringAttr(format), values);
  };
  Value allFinite = integersFinite(builder, l, text);
  if (!allFinite)
    return build(builder, /*integersAsIntegers=*/false);
  auto branch = scf::IfOp::create(
      builder, l, allFinite,
      [&](OpBuilder &b, Location) {
        scf::YieldOp::create(b, l, build(b, /*integersAsIntegers=*/true));
      },
      [&](OpBuilder &b, Location) {
        scf::YieldOp::create(b, l, build(b, /*integersAsIntegers=*/false));
      });
  return branch.getResult(0);
}

std::optional<DValue> BuiltinCall::formatArguments(const DValue &format) {
  std::optional<std::string> text = format.constantString();
  if (!text) {
    im.error(args[0]->getLoc())
        << "'" << name
        << "' with arguments needs a format string known before the script "
           "runs";
    return std::nullopt;
  }
  std::vector<StringPiece> pieces;
  std::string literal;
  auto flush = [&] {
    if (!literal.empty())
      pieces.push_back({literal, Value()});
    literal.clear();
  };
  size_t next = 0, n = text->size();
  for (size_t i = 0; i < n; ++i) {
    if ((*text)[i] != '%') {
      literal.push_back((*text)[i]);
      continue;
    }
    // %[flags][width][.precision]conversion, as Java's String.format.
    size_t j = i + 1;
    while (j < n && llvm::StringRef("-+ 0#").contains((*text)[j]))
      ++j;
    while (j < n && std::isdigit(static_cast<unsigned char>((*text)[j])))
      ++j;
    if (j < n && (*text)[j] == '.') {
      ++j;
      while (j < n && std::isdigit(static_cast<unsigned char>((*text)[j])))
        ++j;
    }
    if (j >= n) {
      im.error(args[0]->getLoc())
          << "'" << name << "': the format ends inside the conversion '"
          << text->substr(i) << "'";
      return std::nullopt;
    }
    std::string spec = text->substr(i, j - i + 1);
    char conversion = (*text)[j];
    i = j;
    if (conversion == '%' || conversion == 'n') {
      literal.push_back(conversion == '%' ? '%' : '\n');
      continue;
    }
    if (!llvm::StringRef("sdfeEgGxXo").contains(conversion)) {
      im.error(args[0]->getLoc())
          << "'" << name << "': unsupported conversion '" << spec
          << "' in the format: expected %s, %d, %f, %e, %g, %x, %o, %% or %n";
      return std::nullopt;
    }
    if (next >= args.rest.size()) {
      im.error(args[0]->getLoc())
          << "'" << name << "': the format has more conversions than the "
          << args.rest.size() << " argument(s) given";
      return std::nullopt;
    }
    const Expr *argument = args.rest[next++];
    DValue value = im.gen(argument);
    if (!value.isValid())
      return std::nullopt;
    flush();
    if (conversion == 's' && spec == "%s") {
      if (value.isString()) {
        llvm::append_range(pieces, value.pieces);
        continue;
      }
      if (value.isNumeric()) {
        pieces.push_back({"", value.value, value.integer});
        continue;
      }
    } else if (value.isNumeric() && conversion != 's') {
      pieces.push_back({"", im.toF64(l, value), false, spec});
      continue;
    }
    im.error(argument->getLoc())
        << "'" << name << "': conversion '" << spec << "' expects "
        << (conversion == 's' ? "a string or a number (and no width)"
                              : "a number")
        << ", found " << kindName(value.kind);
    return std::nullopt;
  }
  flush();
  if (next != args.rest.size()) {
    im.error(args.rest[next]->getLoc())
        << "'" << name << "': the format has " << next << " conversion(s) but "
        << args.rest.size() << " argument(s) are given";
    return std::nullopt;
  }
  return DValue::string(std::move(pieces));
}

DValue BuiltinCall::buildPrintOrStop() {
  DValue message = im.gen(args[0]);
  if (!message.isValid())
    return {};
  if (!args.rest.empty()) {
    std::optional<DValue> formatted = formatArguments(message);
    if (!formatted)
      return {};
    message = std::move(*formatted);
  }
  if (message.isList()) {
    im.error(args[0]->getLoc()) << "'" << name
                                << "' of a list is not "
                                   "supported; print its elements";
    return {};
  }
  if (message.isFrame())
    message = frameToString(message.value);
  if (!message.isString())
    message = DValue::string(
        {StringPiece{"", message.value, /*integer=*/message.integer}});
  emitMessage(builder, l, message, [&](bool integersAsIntegers) {
    llvm::SmallVector<Value> values;
    std::string format =
        formatOf(builder, l, message, integersAsIntegers, values);
    if (name == "print")
      PrintfOp::create(builder, l, builder.getStringAttr(format), values);
    else
      StopOp::create(builder, l, builder.getStringAttr(format), values);
  });
  return {};
}

DValue BuiltinCall::buildWrite() {
  DValue x = im.gen(args[0]);
  std::optional<std::string> path =
      im.genConstantString(args[1], "the file of 'write'");
  if (!x.isValid() || !path)
    return {};
  if (x.isList()) {
    im.error(args[0]->getLoc()) << "writing a list is not supported; write "
                                   "its elements";
    return {};
  }
  if (x.isFrame())
    return buildWriteFrame(x.value, *path);
  if (!x.isMatrix())
    return buildWriteScalar(x, *path);
  std::optional<FileFormat> format =
      fileFormat(*path, /*formatParameter=*/2, std::nullopt);
  if (!format)
    return {};
  for (size_t i : {3, 4, 5})
    if (args.has(i) && !im.gen(args[i]).isValid())
      return {};
  WriteOp::create(builder, l, x.value, builder.getStringAttr(*path), *format);
  return {};
}

DValue BuiltinCall::buildWriteScalar(const DValue &x, const std::string &path) {
  // SystemDS writes scalars as text, whatever the format.
  if (args.has(2)) {
    std::optional<std::string> format =
        im.genConstantString(args[2], "'format'");
    if (!format)
      return {};
    if (*format != "text" && *format != "csv") {
      im.error(args[2]->getLoc()) << "write: a scalar is written as text "
                                     "(format=\"text\"), found format=\""
                                  << *format << "\"";
      return {};
    }
  }
  for (size_t i : {3, 4, 5})
    if (args.has(i) && !im.gen(args[i]).isValid())
      return {};
  ScalarType type = x.isString()                   ? ScalarType::String
                    : x.kind == DValue::Kind::Bool ? ScalarType::Boolean
                    : x.integer                    ? ScalarType::Int
                                                   : ScalarType::Double;
  DValue text =
      x.isString() ? x : DValue::string({StringPiece{"", x.value, x.integer}});
  emitMessage(builder, l, text, [&](bool integersAsIntegers) {
    llvm::SmallVector<Value> values;
    std::string format = formatOf(builder, l, text, integersAsIntegers, values);
    WriteScalarOp::create(builder, l, builder.getStringAttr(path), type,
                          builder.getStringAttr(format), values);
  });
  return {};
}

std::optional<FileFormat>
BuiltinCall::fileFormat(llvm::StringRef path, size_t formatParameter,
                        std::optional<FileFormat> mtdFormat) {
  if (!args.has(formatParameter)) {
    if (mtdFormat)
      return *mtdFormat;
    if (path.ends_with(".mtx") || path.ends_with(".mm"))
      return FileFormat::MatrixMarket;
    if (path.ends_with(".csv"))
      return FileFormat::CSV;
    return FileFormat::Text;
  }
  const Expr *formatArg = args[formatParameter];
  std::optional<std::string> text = im.genConstantString(formatArg, "'format'");
  if (!text)
    return std::nullopt;
  AmlsFileFormat format;
  std::string problem = ::amls::runtime::parseFormatName(*text, format);
  if (!problem.empty()) {
    im.error(formatArg->getLoc()) << problem;
    return std::nullopt;
  }
  return static_cast<FileFormat>(format);
}
