//===- BuiltinsFrame.cpp - DML builtins of frames and transform -----------===//
//
// read(data_type="frame"), write, toString and print of a frame, nrow/ncol
// and as.matrix (in Builtins.cpp), and the transform builtins. A frame's
// type carries the sizes and the schema its `.mtd` file states; the
// transform spec is a string, known before the run or read by it.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

/// The schema a .mtd file gives ("STRING,FP64,INT64"), or an error.
static std::optional<SmallVector<FrameValueType>>
parseMtdSchema(llvm::StringRef text, std::string &problem) {
  SmallVector<FrameValueType> schema;
  SmallVector<llvm::StringRef> names;
  text.split(names, ',');
  for (llvm::StringRef name : names) {
    std::string upper = name.trim().upper();
    std::optional<FrameValueType> type =
        llvm::StringSwitch<std::optional<FrameValueType>>(upper)
            .Cases({"STRING", "STR"}, FrameValueType::String)
            .Cases({"FP64", "DOUBLE"}, FrameValueType::FP64)
            .Case("FP32", FrameValueType::FP32)
            .Cases({"INT64", "INT", "INTEGER"}, FrameValueType::INT64)
            .Case("INT32", FrameValueType::INT32)
            .Cases({"BOOLEAN", "BOOL"}, FrameValueType::Boolean)
            .Default(std::nullopt);
    if (!type) {
      problem = "unknown column type '" + name.trim().str() +
                "' in the schema (expected STRING, FP64, FP32, INT64, INT32 "
                "or BOOLEAN)";
      return std::nullopt;
    }
    schema.push_back(*type);
  }
  return schema;
}

DValue BuiltinCall::buildReadFrame(
    const std::string &path,
    const std::optional<::amls::runtime::MtdMetadata> &mtd) {
  std::string mtdPath = ::amls::runtime::mtdPathFor(path);
  std::optional<FileFormat> mtdFormat;
  if (mtd && mtd->format)
    mtdFormat = static_cast<FileFormat>(*mtd->format);
  std::optional<FileFormat> format = fileFormat(
      path, /*formatParameter=*/1, mtdFormat ? mtdFormat : FileFormat::CSV);
  if (!format)
    return {};
  if (*format != FileFormat::CSV) {
    im.error(args.has(1) ? args[1]->getLoc() : where)
        << "read(data_type=\"frame\"): AMLS reads frames from CSV files "
           "(format=\"csv\")";
    return {};
  }
  std::optional<bool> header = mtd ? mtd->header : std::nullopt;
  if (args.has(2)) {
    header = flagArgument(2, "read: 'header'");
    if (!header)
      return {};
  }
  std::string sep = mtd && mtd->separator ? *mtd->separator : ",";
  if (args.has(3)) {
    std::optional<std::string> text = im.genConstantString(args[3], "'sep'");
    if (!text)
      return {};
    sep = *text;
  }
  if (sep.empty() || sep.find_first_of("\"\n\r") != std::string::npos) {
    im.error(args.has(3) ? args[3]->getLoc() : where)
        << "read: expected a separator without a quote or a line break, "
           "found \""
        << sep << "\"";
    return {};
  }
  // na.strings, also spelled naStrings.
  SmallVector<Attribute> naStrings;
  if (args.has(9) && args.has(10)) {
    im.error(args[10]->getLoc())
        << "read: give 'na.strings' or 'naStrings', not both";
    return {};
  }
  if (size_t naParameter = args.has(10) ? 10 : 9; args.has(naParameter)) {
    DValue na = im.gen(args[naParameter]);
    if (!na.isValid())
      return {};
    std::vector<DValue> words = na.isList() ? na.elements : std::vector{na};
    for (const DValue &word : words) {
      std::optional<std::string> text =
          word.isString() ? word.constantString() : std::nullopt;
      if (!text) {
        im.error(args[naParameter]->getLoc())
            << "read: 'na.strings' expects strings known before the run, "
               "found "
            << kindName(word.kind);
        return {};
      }
      naStrings.push_back(builder.getStringAttr(*text));
    }
  }
  // The .mtd file's naStrings where the read names none.
  if (naStrings.empty() && mtd && mtd->naStrings)
    for (const std::string &word : *mtd->naStrings)
      naStrings.push_back(builder.getStringAttr(word));
  // The schema: the schema= argument ("STRING,FP64"), else the .mtd file's.
  SmallVector<FrameValueType> schema;
  std::optional<std::string> schemaText = mtd ? mtd->schema : std::nullopt;
  if (args.has(11)) {
    schemaText = im.genConstantString(args[11], "read's 'schema'");
    if (!schemaText)
      return {};
  }
  if (schemaText) {
    std::string problem;
    std::optional<SmallVector<FrameValueType>> parsed =
        parseMtdSchema(*schemaText, problem);
    if (!parsed) {
      if (args.has(11))
        im.error(args[11]->getLoc()) << "read: " << problem;
      else
        im.error(where) << "read: the metadata file '" << mtdPath
                        << "': " << problem;
      return {};
    }
    schema = std::move(*parsed);
  }
  // rows= and cols= state the sizes where the .mtd file does not.
  int64_t sizes[2] = {mtd && mtd->rows ? *mtd->rows : ShapedType::kDynamic,
                      mtd && mtd->cols ? *mtd->cols : ShapedType::kDynamic};
  for (int d = 0; d < 2; ++d) {
    size_t parameter = d ? 5 : 4;
    if (!args.has(parameter))
      continue;
    std::optional<Value> size = im.genNumber(args[parameter], "read's size");
    if (!size)
      return {};
    std::optional<double> known = Importer::constantNumber(*size);
    if (!known)
      continue;
    if (*known < 0 || *known != std::floor(*known) ||
        (!ShapedType::isDynamic(sizes[d]) &&
         sizes[d] != static_cast<int64_t>(*known))) {
      im.error(args[parameter]->getLoc())
          << "read: " << (d ? "cols" : "rows") << "=" << *known
          << (ShapedType::isDynamic(sizes[d])
                  ? std::string(" is not a count")
                  : " disagrees with the metadata file '" + mtdPath + "'");
      return {};
    }
    sizes[d] = static_cast<int64_t>(*known);
  }
  int64_t rows = sizes[0], cols = sizes[1];
  if (!schema.empty()) {
    if (cols != ShapedType::kDynamic &&
        cols != static_cast<int64_t>(schema.size())) {
      im.error(where) << "read: the metadata file '" << mtdPath << "' gives "
                      << cols << " column(s) but a schema of " << schema.size();
      return {};
    }
    cols = static_cast<int64_t>(schema.size());
  }
  for (size_t i : {7, 8})
    if (args.has(i) && !im.gen(args[i]).isValid())
      return {};
  auto type = FrameType::get(builder.getContext(), rows, cols, schema);
  Value frame = FrameReadOp::create(
      builder, l, type, builder.getStringAttr(path),
      builder.getBoolAttr(header.value_or(false)), builder.getStringAttr(sep),
      builder.getArrayAttr(naStrings));
  return DValue::frame(frame);
}

DValue BuiltinCall::frameToString(Value frame) {
  // toString's rows= and cols= (100 each, as in SystemDS) when it is the
  // call; print(F) prints as toString(F) does.
  int64_t limits[2] = {100, 100};
  if (name == "toString") {
    for (size_t i : {1, 2}) {
      if (!args.has(i))
        continue;
      std::optional<Value> number = im.genNumber(
          args[i], i == 1 ? "toString's 'rows'" : "toString's 'cols'");
      if (!number)
        return {};
      std::optional<double> known = Importer::constantNumber(*number);
      if (!known || *known < 0 || *known != std::floor(*known)) {
        im.error(args[i]->getLoc())
            << "toString of a frame: expected " << (i == 1 ? "rows" : "cols")
            << " to be a count known before the run";
        return {};
      }
      limits[i - 1] = static_cast<int64_t>(*known);
    }
  }
  Value text =
      FrameToStringOp::create(builder, l, StringType::get(builder.getContext()),
                              frame, builder.getI64IntegerAttr(limits[0]),
                              builder.getI64IntegerAttr(limits[1]));
  return DValue::runTime(text);
}

DValue BuiltinCall::buildWriteFrame(Value frame, const std::string &path) {
  std::optional<FileFormat> format =
      fileFormat(path, /*formatParameter=*/2, FileFormat::CSV);
  if (!format)
    return {};
  if (*format != FileFormat::CSV) {
    im.error(args.has(2) ? args[2]->getLoc() : where)
        << "write: AMLS writes frames as CSV (format=\"csv\")";
    return {};
  }
  // No header unless asked for, as SystemDS writes.
  std::optional<bool> header = false;
  if (args.has(3) && !(header = flagArgument(3, "write: 'header'")))
    return {};
  std::string sep = ",";
  if (args.has(4)) {
    std::optional<std::string> text = im.genConstantString(args[4], "'sep'");
    if (!text)
      return {};
    sep = *text;
  }
  if (sep.empty() || sep.find_first_of("\"\n\r") != std::string::npos) {
    im.error(args[4]->getLoc())
        << "write: expected a separator without a quote or a line break, "
           "found \""
        << sep << "\"";
    return {};
  }
  if (args.has(5) && !im.gen(args[5]).isValid())
    return {};
  FrameWriteOp::create(builder, l, frame, builder.getStringAttr(path),
                       builder.getBoolAttr(*header),
                       builder.getStringAttr(sep));
  return {};
}

std::optional<Value> BuiltinCall::frameArgument(size_t i, StringRef what) {
  DValue value = im.gen(args[i]);
  if (!value.isValid())
    return std::nullopt;
  if (!value.isFrame()) {
    im.error(args[i]->getLoc()) << "expected a frame for " << what << ", found "
                                << kindName(value.kind);
    return std::nullopt;
  }
  return value.value;
}

std::optional<Value> BuiltinCall::runTimeStringArgument(size_t i,
                                                        StringRef what) {
  DValue value = im.gen(args[i]);
  if (!value.isValid())
    return std::nullopt;
  if (!value.isString()) {
    im.error(args[i]->getLoc()) << "expected a string for " << what
                                << ", found " << kindName(value.kind);
    return std::nullopt;
  }
  return im.materializeString(l, value);
}

/// The metadata frame of a transform over `target`: one column per column
/// of the target.
static FrameType metaTypeFor(FrameType target) {
  return FrameType::get(target.getContext(), ShapedType::kDynamic,
                        target.getCols(), {});
}

std::vector<DValue> BuiltinCall::buildTransformEncode() {
  std::optional<Value> target =
      frameArgument(0, "the target of 'transformencode'");
  if (!target)
    return {};
  std::optional<Value> spec =
      runTimeStringArgument(1, "the spec of 'transformencode'");
  if (!spec)
    return {};
  auto encode = TransformEncodeOp::create(
      builder, l, im.matrixType(),
      metaTypeFor(cast<FrameType>(target->getType())), *target, *spec);
  return {DValue::matrix(encode.getResult()), DValue::frame(encode.getMeta())};
}

DValue BuiltinCall::buildTransformApply() {
  std::optional<Value> target =
      frameArgument(0, "the target of 'transformapply'");
  if (!target)
    return {};
  std::optional<Value> spec =
      runTimeStringArgument(1, "the spec of 'transformapply'");
  if (!spec)
    return {};
  std::optional<Value> meta = frameArgument(2, "the meta of 'transformapply'");
  if (!meta)
    return {};
  return DValue::matrix(TransformApplyOp::create(builder, l, im.matrixType(),
                                                 *target, *spec, *meta));
}

DValue BuiltinCall::buildTransformDecode() {
  std::optional<Value> target =
      im.genMatrix(args[0], "the target of 'transformdecode'");
  if (!target)
    return {};
  std::optional<Value> spec =
      runTimeStringArgument(1, "the spec of 'transformdecode'");
  if (!spec)
    return {};
  std::optional<Value> meta = frameArgument(2, "the meta of 'transformdecode'");
  if (!meta)
    return {};
  FrameType metaType = cast<FrameType>(meta->getType());
  auto type = FrameType::get(builder.getContext(), ShapedType::kDynamic,
                             metaType.getCols(), {});
  return DValue::frame(
      TransformDecodeOp::create(builder, l, type, *target, *spec, *meta));
}

DValue BuiltinCall::buildAsFrame() {
  DValue x = im.gen(args[0]);
  if (!x.isValid() || x.isFrame())
    return x;
  if (!x.isMatrix() && !x.isNumeric()) {
    im.error(args[0]->getLoc())
        << "as.frame needs a matrix or a number, found " << kindName(x.kind);
    return {};
  }
  Value matrix = im.asMatrix(
      l, x.kind == DValue::Kind::Bool ? DValue::scalar(im.toF64(l, x)) : x);
  auto type = FrameType::get(builder.getContext(), ShapedType::kDynamic,
                             ShapedType::kDynamic, {});
  return DValue::frame(FrameFromMatrixOp::create(builder, l, type, matrix));
}

DValue BuiltinCall::buildDetectSchema() {
  std::optional<Value> frame = frameArgument(0, "'detectSchema'");
  if (!frame)
    return {};
  auto type = FrameType::get(builder.getContext(), 1,
                             cast<FrameType>(frame->getType()).getCols(), {});
  return DValue::frame(FrameDetectSchemaOp::create(builder, l, type, *frame));
}

DValue BuiltinCall::buildColNames() {
  std::optional<Value> frame = frameArgument(0, "'colnames'");
  if (!frame)
    return {};
  auto type = FrameType::get(builder.getContext(), 1,
                             cast<FrameType>(frame->getType()).getCols(), {});
  return DValue::frame(FrameColNamesOp::create(builder, l, type, *frame));
}

DValue BuiltinCall::buildApplySchema() {
  std::optional<Value> frame = frameArgument(0, "the target of 'applySchema'");
  if (!frame)
    return {};
  std::optional<Value> schema = frameArgument(1, "the schema of 'applySchema'");
  if (!schema)
    return {};
  FrameType target = cast<FrameType>(frame->getType());
  auto type = FrameType::get(builder.getContext(), target.getRows(),
                             target.getCols(), {});
  return DValue::frame(
      FrameApplySchemaOp::create(builder, l, type, *frame, *schema));
}

DValue BuiltinCall::bindFrames(llvm::ArrayRef<DValue> values) {
  for (auto [arg, value] : llvm::zip(call->args, values))
    if (!value.isFrame()) {
      im.error(arg.loc) << "'" << name << "' of frames needs frames only, "
                        << "found " << kindName(value.kind)
                        << " (as.frame converts a matrix)";
      return {};
    }
  auto type = FrameType::get(builder.getContext(), ShapedType::kDynamic,
                             ShapedType::kDynamic, {});
  Value result = values.front().value;
  for (const DValue &next : values.drop_front())
    result = name == "rbind"
                 ? FrameRBindOp::create(builder, l, type, result, next.value)
                       .getResult()
                 : FrameCBindOp::create(builder, l, type, result, next.value)
                       .getResult();
  return DValue::frame(result);
}
