//===- AMLSTypes.td - AMLS types ---------------------------*- tablegen -*-===//

#ifndef AMLS_DIALECT_AMLSTYPES_TD
#define AMLS_DIALECT_AMLSTYPES_TD

include "AMLS/Dialect/AMLSAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def AMLS_MatrixType : TypeDef<AMLS_Dialect, "Matrix"> {
  let summary = "2-D matrix with inferred sizes and sparsity";
  let description = [{
    Syntax:

    ```
    matrix-type ::= `!amls.matrix<` dim `x` dim `x` element-type
                    (`,` `sparsity` `=` float)? (`,` `format` `=` format)? `>`
    dim         ::= integer | `?`
    format      ::= `dense` | `csr`
    ```

    `R` and `C` are the number of rows and columns, `?` where unknown. The
    element type is `f64` (DML's default), `f32` or `i64`. `sparsity` is the
    estimated fraction of non-zero cells in [0, 1]; absent means unknown.
    `format` is absent until the optimizer picks a physical layout.

    Sizes and sparsity form a lattice in which a known value is more precise
    than `?`/absent; `amls.cast` converts between compatible types.

    Example:

    ```mlir
    !amls.matrix<1000x?xf64, sparsity = 0.01, format = csr>
    ```
  }];
  let parameters = (ins
    "int64_t":$rows,
    "int64_t":$cols,
    "::mlir::Type":$elementType,
    OptionalParameter<"::mlir::FloatAttr">:$sparsityAttr,
    OptionalParameter<"std::optional<::mlir::amls::MatrixFormat>">:$format
  );
  let typeName = "amls.matrix";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "int64_t":$rows, "int64_t":$cols, "::mlir::Type":$elementType,
        CArg<"std::optional<double>", "std::nullopt">:$sparsity,
        CArg<"std::optional<::mlir::amls::MatrixFormat>",
             "std::nullopt">:$format)>
  ];
  let extraClassDeclaration = [{
    /// The estimated fraction of non-zeros, if known.
    std::optional<double> getSparsity() const;
    bool hasStaticRows() const { return !::mlir::ShapedType::isDynamic(getRows()); }
    bool hasStaticCols() const { return !::mlir::ShapedType::isDynamic(getCols()); }
    bool hasStaticShape() const { return hasStaticRows() && hasStaticCols(); }
    /// Number of cells, if both sizes are known.
    std::optional<int64_t> getNumElements() const;

    MatrixType withShape(int64_t rows, int64_t cols) const;
    MatrixType withElementType(::mlir::Type elementType) const;
    MatrixType withSparsity(std::optional<double> sparsity) const;
    MatrixType withFormat(std::optional<::mlir::amls::MatrixFormat> format) const;
    /// Drops sparsity and format: only the logical shape and element type.
    MatrixType getLogicalType() const;
  }];
}

def AMLS_StringType : TypeDef<AMLS_Dialect, "String"> {
  let typeName = "amls.string";
  let summary = "a DML string computed at run time";
  let description = [{
    Syntax: `!amls.string`.

    The importer keeps a DML string as its text and the values printed into
    it while the text is known before the run; a string whose text depends
    on the path taken (assigned under control flow, carried by a loop, or
    chosen by `ifelse`) becomes an `!amls.string`, built by
    `amls.string_format` and compared by `amls.string_compare`. Messages
    (`amls.printf`, `amls.stop`, `amls.write_scalar`) print it. It lowers
    to a pointer to a NUL-terminated string the runtime owns for the rest
    of the run.
  }];
}

def AMLS_FrameType : TypeDef<AMLS_Dialect, "Frame"> {
  let typeName = "amls.frame";
  let summary = "a table of typed, named columns (DML's frame)";
  let description = [{
    Syntax:

    ```
    frame-type ::= `!amls.frame<` dim `x` dim (`,` `[` value-type (`,`
                   value-type)* `]`)? `>`
    value-type ::= `str` | `f64` | `f32` | `i64` | `i32` | `bool`
    ```

    `R` rows of `C` columns, `?` where unknown; the schema lists the value
    type of each column where the program or a `.mtd` file states it
    (absent: unknown until the run; a CSV read without a schema reads every
    column as `str`, as SystemDS does). Column names travel with the value
    at run time. A frame lowers to a handle of the runtime's column store
    (lib/Runtime/Frame), which owns it for the rest of the run.

    ```mlir
    !amls.frame<?x3, [str, f64, i64]>
    ```
  }];
  let parameters = (ins
    "int64_t":$rows,
    "int64_t":$cols,
    ArrayRefParameter<"::mlir::amls::FrameValueType">:$schema
  );
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasSchema() const { return !getSchema().empty(); }
  }];
}

#endif // AMLS_DIALECT_AMLSTYPES_TD
