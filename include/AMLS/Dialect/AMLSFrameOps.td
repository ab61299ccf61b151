//===- AMLSFrameOps.td - Frames and feature transformation -*- tablegen -*-===//
//
// DML's frames: tables of typed, named columns read from CSV files, and the
// transform builtins that encode them into matrices from a JSON spec
// (SystemDS's transformencode, transformapply and transformdecode). A frame
// is immutable; every op here reads its operands and makes new values.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSFRAMEOPS_TD
#define AMLS_DIALECT_AMLSFRAMEOPS_TD

def AMLS_FrameReadOp : AMLS_Op<"frame_read", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "read a frame from a CSV file [read(path, data_type=\"frame\")]";
  let description = [{
    Reads a CSV file into a frame: the first line names the columns when
    `header` is set (else they are `C1`, `C2`, ...), fields are separated by
    `sep` and may be quoted with `"` (a quoted field may hold the separator,
    a line break and `""` for a quote), and a field equal to one of
    `na_strings` is missing. Every column is read as a string unless the
    result type's schema (from the program or the file's `.mtd`) says
    otherwise; a field that does not parse under its column's type, or a
    line with another number of fields than the first, is an error naming
    the file, line and column.

    ```mlir
    %F = amls.frame_read "data/homes.csv" {header = true, sep = ","}
        : !amls.frame<?x?>
    ```
  }];
  let arguments = (ins StrAttr:$path,
                       DefaultValuedAttr<BoolAttr, "false">:$header,
                       DefaultValuedStrAttr<StrAttr, ",">:$sep,
                       DefaultValuedAttr<StrArrayAttr, "{}">:$na_strings);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = "$path attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def AMLS_FrameWriteOp : AMLS_Op<"frame_write", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "write a frame to a CSV file [write(F, path, format=\"csv\")]";
  let description = [{
    Writes the frame as CSV with a header line of its column names (fields
    holding the separator, a quote or a line break are quoted; a missing
    value is an empty field) and a `.mtd` file beside it with the sizes and
    the schema, as SystemDS does.

    ```mlir
    amls.frame_write %F, "out/F.csv" {sep = ","} : !amls.frame<?x?>
    ```
  }];
  let arguments = (ins AMLS_Frame:$input, StrAttr:$path,
                       DefaultValuedAttr<BoolAttr, "true">:$header,
                       DefaultValuedStrAttr<StrAttr, ",">:$sep);
  let assemblyFormat = "$input `,` $path attr-dict `:` type($input)";
  let hasVerifier = 1;
}

class AMLS_FrameSizeOp<string mnemonic, string what>
    : AMLS_Op<mnemonic, [Pure]> {
  let summary = "the number of " # what # " of a frame [n" # mnemonic # "(F)]";
  let description = [{
    Folds to a constant where the frame type states the size.
  }];
  let arguments = (ins AMLS_Frame:$input);
  let results = (outs Index:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def AMLS_FrameNRowOp : AMLS_FrameSizeOp<"frame_nrow", "rows">;
def AMLS_FrameNColOp : AMLS_FrameSizeOp<"frame_ncol", "columns">;

def AMLS_FrameAsMatrixOp : AMLS_Op<"frame_as_matrix", [NoMemoryEffect]> {
  let summary = "the numbers of a frame as a matrix [as.matrix(F)]";
  let description = [{
    Parses every cell as a number (booleans as 0 and 1); a missing cell is
    NaN, and a cell that is not a number is an error naming its row and
    column.
  }];
  let arguments = (ins AMLS_Frame:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def AMLS_FrameToStringOp : AMLS_Op<"frame_to_string", [NoMemoryEffect]> {
  let summary = "a frame as text [toString(F), print(F)]";
  let description = [{
    As SystemDS prints a frame: a line `# FRAME: nrow = R, ncol = C`, a line
    of the column names and one of the schema, each prefixed `# `, then one
    line per row of the values separated by spaces (a missing value prints
    as `null`, an `f64` value with 3 decimals), at most `rows` rows
    and `cols` columns.
  }];
  let arguments = (ins AMLS_Frame:$input,
                       DefaultValuedAttr<I64Attr, "100">:$rows,
                       DefaultValuedAttr<I64Attr, "100">:$cols);
  let results = (outs AMLS_String:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def AMLS_FrameSliceOp : AMLS_Op<"frame_slice", [NoMemoryEffect]> {
  let summary = "rows and columns of a frame [F[i:j, k:l]]";
  let description = [{
    Rows `[row_begin, row_end)` of columns `[col_begin, col_end)`, 0-based
    and half-open as `amls.slice`; bounds outside the frame are an error at
    run time. Names, types and transform metadata travel with the columns.
  }];
  let arguments = (ins AMLS_Frame:$input, Index:$row_begin, Index:$row_end,
                       Index:$col_begin, Index:$col_end);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = [{
    $input `[` $row_begin `:` $row_end `,` $col_begin `:` $col_end `]`
    attr-dict `:` type($input) `->` type($result)
  }];
}

def AMLS_FrameFromMatrixOp : AMLS_Op<"frame_from_matrix", [Pure]> {
  let summary = "a matrix as a frame [as.frame(X)]";
  let description = [{
    An FP64 column per column of the matrix, named `C1`, `C2`, ...
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

class AMLS_FrameBindOp<string mnemonic, string builtin>
    : AMLS_Op<mnemonic, [NoMemoryEffect]> {
  let summary = "two frames side by side or one above the other "
                "[" # builtin # "(A, B)]";
  let arguments = (ins AMLS_Frame:$lhs, AMLS_Frame:$rhs);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def AMLS_FrameCBindOp : AMLS_FrameBindOp<"frame_cbind", "cbind"> {
  let description = [{
    The columns of `lhs` then those of `rhs`, which has as many rows (else
    an error at run time).
  }];
}

def AMLS_FrameRBindOp : AMLS_FrameBindOp<"frame_rbind", "rbind"> {
  let description = [{
    The rows of `lhs` then those of `rhs`, which has as many columns (else
    an error at run time); a column whose types differ becomes a string
    column, the names are `lhs`'s.
  }];
}

def AMLS_FrameDetectSchemaOp : AMLS_Op<"frame_detect_schema", [Pure]> {
  let summary = "the value types of a frame's columns [detectSchema(F)]";
  let description = [{
    A 1 x C frame of type names: a typed column's type, else the narrowest
    type every cell of a string column parses as (INT64, FP64, BOOLEAN,
    else STRING).
  }];
  let arguments = (ins AMLS_Frame:$input);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_FrameApplySchemaOp : AMLS_Op<"frame_apply_schema", [NoMemoryEffect]> {
  let summary = "a frame with the column types of a schema "
                "[applySchema(F, S)]";
  let description = [{
    The columns converted to the types the 1 x C frame `schema` names; a
    name that is not a type or a cell that does not parse is an error at
    run time.
  }];
  let arguments = (ins AMLS_Frame:$input, AMLS_Frame:$schema);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = [{
    $input `,` $schema attr-dict `:` type($input) `,` type($schema) `->`
    type($result)
  }];
}

def AMLS_FrameCellOp : AMLS_Op<"frame_cell", [NoMemoryEffect]> {
  let summary = "the cell of a 1 x 1 frame as a string [as.scalar(F)]";
  let description = [{
    The text of the cell (`NULL` where it is missing); a frame of other
    sizes is an error at run time.
  }];
  let arguments = (ins AMLS_Frame:$input);
  let results = (outs AMLS_String:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def AMLS_FrameCastOp : AMLS_Op<"frame_cast", [Pure]> {
  let summary = "the same frame under a less precise type";
  let description = [{
    Forgets sizes or the schema the input type states (the importer relaxes
    a frame to `!amls.frame<?x?>` where paths or loop iterations join); the
    types agree where both state a size, and where both state a schema.
    Folds away when the types are equal.
  }];
  let arguments = (ins AMLS_Frame:$input);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def AMLS_FrameColNamesOp : AMLS_Op<"frame_colnames", [Pure]> {
  let summary = "the column names of a frame [colnames(F)]";
  let description = [{
    A 1 x C frame of strings: column j holds the name of column j.
  }];
  let arguments = (ins AMLS_Frame:$input);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_ReadTextOp : AMLS_Op<"read_text", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "read a file as one string "
                "[read(path, data_type=\"scalar\", value_type=\"string\")]";
  let description = [{
    The whole file, as SystemDS reads a string scalar (a transform spec, a
    text). Reading it at run time keeps the program correct when an earlier
    statement writes the file.
  }];
  let arguments = (ins StrAttr:$path);
  let results = (outs AMLS_String:$result);
  let assemblyFormat = "$path attr-dict";
}

def AMLS_TransformEncodeOp : AMLS_Op<"transform_encode", [NoMemoryEffect]> {
  let summary = "encode a frame into a matrix [transformencode(target, spec)]";
  let description = [{
    Builds the encoders the JSON `spec` names (`recode`, `dummycode`, `bin`,
    `hash`, `impute`, `omit`; columns by 1-based index with `ids: true`, else
    by name) from the frame's values, and returns the encoded matrix and the
    metadata frame that `amls.transform_apply` and `amls.transform_decode`
    read: per column, the recode map (`token·code`), the bin bounds
    (`min·max`) or the imputed value. A column no encoder names passes
    through as a number. Errors in the spec name its key.
  }];
  let arguments = (ins AMLS_Frame:$target, AMLS_String:$spec);
  let results = (outs AMLS_Matrix:$result, AMLS_Frame:$meta);
  let assemblyFormat = [{
    $target `,` $spec attr-dict `:` type($target) `->` type($result) `,`
    type($meta)
  }];
  let hasVerifier = 1;
}

def AMLS_TransformApplyOp : AMLS_Op<"transform_apply", [NoMemoryEffect]> {
  let summary = "encode a frame with fitted metadata "
                "[transformapply(target, spec, meta)]";
  let description = [{
    Encodes the frame as `amls.transform_encode` did the frame its `meta`
    came from; a token the recode map does not hold encodes as NaN (a zero
    row of its dummy codes), as in SystemDS.
  }];
  let arguments = (ins AMLS_Frame:$target, AMLS_String:$spec,
                       AMLS_Frame:$meta);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $target `,` $spec `,` $meta attr-dict `:` type($target) `,` type($meta)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def AMLS_TransformDecodeOp : AMLS_Op<"transform_decode", [NoMemoryEffect]> {
  let summary = "decode a matrix back into a frame "
                "[transformdecode(target, spec, meta)]";
  let description = [{
    The inverse of the encoding: recoded and dummy-coded columns give their
    tokens back, binned columns the middle of their bin, passed-through
    columns their numbers.
  }];
  let arguments = (ins AMLS_Matrix:$target, AMLS_String:$spec,
                       AMLS_Frame:$meta);
  let results = (outs AMLS_Frame:$result);
  let assemblyFormat = [{
    $target `,` $spec `,` $meta attr-dict `:` type($target) `,` type($meta)
    `->` type($result)
  }];
}

#endif // AMLS_DIALECT_AMLSFRAMEOPS_TD
