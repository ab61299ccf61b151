//===- AMLSTypes.cpp - AMLS types -----------------------------------------===//

#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <charconv>

using namespace mlir;
using namespace mlir::amls;

static_assert(kUnknownSize == ShapedType::kDynamic,
              "the analysis library's unknown size must match MLIR's");

#include "AMLS/Dialect/AMLSEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "AMLS/Dialect/AMLSOpsTypes.cpp.inc"

bool mlir::amls::isValidMatrixElementType(Type type) {
  return type.isF64() || type.isF32() || type.isSignlessInteger(64);
}

static FloatAttr getSparsityAttr(MLIRContext *context,
                                 std::optional<double> sparsity) {
  if (!sparsity)
    return nullptr;
  return FloatAttr::get(Float64Type::get(context), *sparsity);
}

MatrixType MatrixType::get(int64_t rows, int64_t cols, Type elementType,
                           std::optional<double> sparsity,
                           std::optional<MatrixFormat> format) {
  MLIRContext *context = elementType.getContext();
  return Base::get(context, rows, cols, elementType,
                   ::getSparsityAttr(context, sparsity), format);
}

MatrixType MatrixType::getChecked(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t rows, int64_t cols, Type elementType,
                                  std::optional<double> sparsity,
                                  std::optional<MatrixFormat> format) {
  MLIRContext *context = elementType.getContext();
  return Base::getChecked(emitError, context, rows, cols, elementType,
                          ::getSparsityAttr(context, sparsity), format);
}

LogicalResult MatrixType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t rows, int64_t cols, Type elementType,
                                 FloatAttr sparsityAttr,
                                 std::optional<MatrixFormat> format) {
  if (rows < 0 && rows != ShapedType::kDynamic)
    return emitError() << "matrix row count must be non-negative or '?', got "
                       << rows;
  if (cols < 0 && cols != ShapedType::kDynamic)
    return emitError()
           << "matrix column count must be non-negative or '?', got " << cols;
  if (!isValidMatrixElementType(elementType))
    return emitError() << "matrix element type must be f64, f32 or i64, got "
                       << elementType;
  if (sparsityAttr) {
    double sparsity = sparsityAttr.getValueAsDouble();
    if (!(sparsity >= 0.0 && sparsity <= 1.0))
      return emitError() << "matrix sparsity must be in [0, 1], got "
                         << sparsity;
  }
  return success();
}

std::optional<double> MatrixType::getSparsity() const {
  if (FloatAttr attr = getSparsityAttr())
    return attr.getValueAsDouble();
  return std::nullopt;
}

std::optional<int64_t> MatrixType::getNumElements() const {
  int64_t cells = multiplySizes(getRows(), getCols());
  if (!isKnownSize(cells))
    return std::nullopt;
  return cells;
}

MatrixType MatrixType::withShape(int64_t rows, int64_t cols) const {
  return get(getContext(), rows, cols, getElementType(), getSparsityAttr(),
             getFormat());
}

MatrixType MatrixType::withElementType(Type elementType) const {
  return get(getContext(), getRows(), getCols(), elementType, getSparsityAttr(),
             getFormat());
}

MatrixType MatrixType::withSparsity(std::optional<double> sparsity) const {
  return get(getContext(), getRows(), getCols(), getElementType(),
             ::getSparsityAttr(getContext(), sparsity), getFormat());
}

MatrixType MatrixType::withFormat(std::optional<MatrixFormat> format) const {
  return get(getContext(), getRows(), getCols(), getElementType(),
             getSparsityAttr(), format);
}

MatrixType MatrixType::getLogicalType() const {
  return get(getContext(), getRows(), getCols(), getElementType(), nullptr,
             std::nullopt);
}

//===----------------------------------------------------------------------===//
// Parsing and printing
//===----------------------------------------------------------------------===//

// matrix-type ::= `matrix` `<` dim `x` dim `x` type
//                 (`,` `sparsity` `=` float)? (`,` `format` `=` id)? `>`
static Type parseMatrixType(DialectAsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t, 2> dims;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/true,
                                /*withTrailingX=*/true))
    return {};
  if (dims.size() != 2) {
    parser.emitError(loc, "expected a 2-D shape 'RxC' for a matrix, found ")
        << dims.size() << " dimension(s)";
    return {};
  }
  if (parser.parseType(elementType))
    return {};

  std::optional<double> sparsity;
  std::optional<MatrixFormat> format;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "sparsity" && !sparsity) {
      double value;
      if (parser.parseFloat(value))
        return {};
      sparsity = value;
    } else if (key == "format" && !format) {
      StringRef name;
      SMLoc nameLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&name))
        return {};
      format = symbolizeMatrixFormat(name);
      if (!format) {
        parser.emitError(nameLoc, "expected matrix format 'dense' or 'csr', "
                                  "found '")
            << name << "'";
        return {};
      }
    } else {
      parser.emitError(keyLoc, "expected 'sparsity' or 'format' (each at "
                               "most once), found '")
          << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return MatrixType::getChecked([&] { return parser.emitError(loc); }, dims[0],
                                dims[1], elementType, sparsity, format);
}

// frame-type ::= `frame` `<` dim `x` dim (`,` `[` value-type (`,`
//                value-type)* `]`)? `>`
static Type parseFrameType(DialectAsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t, 2> dims;
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/true,
                                /*withTrailingX=*/false))
    return {};
  if (dims.size() != 2) {
    parser.emitError(loc, "expected a 2-D shape 'RxC' for a frame, found ")
        << dims.size() << " dimension(s)";
    return {};
  }
  SmallVector<FrameValueType> schema;
  if (succeeded(parser.parseOptionalComma())) {
    auto parseValueType = [&]() -> ParseResult {
      StringRef name;
      SMLoc nameLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&name))
        return failure();
      std::optional<FrameValueType> valueType = symbolizeFrameValueType(name);
      if (!valueType)
        return parser.emitError(nameLoc, "expected a frame column type (str, "
                                         "f64, f32, i64, i32, bool), found '")
               << name << "'";
      schema.push_back(*valueType);
      return success();
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                       parseValueType))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return FrameType::getChecked([&] { return parser.emitError(loc); },
                               parser.getContext(), dims[0], dims[1], schema);
}

LogicalResult FrameType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t rows, int64_t cols,
                                ArrayRef<FrameValueType> schema) {
  if (rows < 0 && rows != ShapedType::kDynamic)
    return emitError() << "frame row count must be non-negative or '?', got "
                       << rows;
  if (cols < 0 && cols != ShapedType::kDynamic)
    return emitError() << "frame column count must be non-negative or '?', got "
                       << cols;
  if (!schema.empty() && cols != ShapedType::kDynamic &&
      static_cast<int64_t>(schema.size()) != cols)
    return emitError() << "frame schema lists " << schema.size()
                       << " column type(s) for " << cols << " column(s)";
  if (!schema.empty() && cols == ShapedType::kDynamic)
    return emitError() << "a frame with a schema states its column count";
  return success();
}

std::string mlir::amls::formatShortest(double value) {
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, error == std::errc() ? end : buffer);
}

/// The shortest decimal that reads back as `value`, in MLIR's float literal
/// syntax (which needs a '.'): 0.5, 1.0, 1.0e-05.
static std::string formatSparsity(double value) {
  std::string text = formatShortest(value);
  if (text.find('.') == std::string::npos) {
    size_t exponent = text.find('e');
    text.insert(exponent == std::string::npos ? text.size() : exponent, ".0");
  }
  return text;
}

static void printDim(DialectAsmPrinter &printer, int64_t dim) {
  if (ShapedType::isDynamic(dim))
    printer << '?';
  else
    printer << dim;
}

Type AMLSDialect::parseType(DialectAsmParser &parser) const {
  StringRef mnemonic;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&mnemonic))
    return {};
  if (mnemonic == "matrix")
    return parseMatrixType(parser);
  if (mnemonic == "string")
    return StringType::get(parser.getContext());
  if (mnemonic == "frame")
    return parseFrameType(parser);
  parser.emitError(loc, "unknown AMLS type '") << mnemonic << "'";
  return {};
}

void AMLSDialect::printType(Type type, DialectAsmPrinter &printer) const {
  if (isa<StringType>(type)) {
    printer << "string";
    return;
  }
  if (auto frame = dyn_cast<FrameType>(type)) {
    printer << "frame<";
    printDim(printer, frame.getRows());
    printer << 'x';
    printDim(printer, frame.getCols());
    if (frame.hasSchema()) {
      printer << ", [";
      llvm::interleaveComma(frame.getSchema(), printer,
                            [&](FrameValueType valueType) {
                              printer << stringifyFrameValueType(valueType);
                            });
      printer << ']';
    }
    printer << '>';
    return;
  }
  auto matrix = cast<MatrixType>(type);
  printer << "matrix<";
  printDim(printer, matrix.getRows());
  printer << 'x';
  printDim(printer, matrix.getCols());
  printer << 'x' << matrix.getElementType();
  if (std::optional<double> sparsity = matrix.getSparsity()) {
    printer << ", sparsity = " << formatSparsity(*sparsity);
  }
  if (std::optional<MatrixFormat> format = matrix.getFormat())
    printer << ", format = " << stringifyMatrixFormat(*format);
  printer << '>';
}

void AMLSDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "AMLS/Dialect/AMLSOpsTypes.cpp.inc"
      >();
}
