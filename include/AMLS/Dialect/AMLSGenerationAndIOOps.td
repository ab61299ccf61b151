//===- AMLSGenerationAndIOOps.td - Data generation, I/O ----*- tablegen -*-===//
//
// Matrices generated from sizes and values (fill, rand, seq, constant),
// and reading, writing and printing them.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSGENERATIONANDIOOPS_TD
#define AMLS_DIALECT_AMLSGENERATIONANDIOOPS_TD

//===----------------------------------------------------------------------===//
// Data generation
//===----------------------------------------------------------------------===//

def AMLS_FillOp : AMLS_InferOp<"fill", [Pure]> {
  let summary = "matrix filled with one value [matrix(v, rows, cols)]";
  let description = [{
    Creates a `rows x cols` matrix whose cells all hold `value`. The value's
    type is the matrix element type.

    ```mlir
    %z = amls.fill %zero, %r, %c : f64 -> !amls.matrix<?x10xf64>
    ```
  }];
  let arguments = (ins AMLS_Scalar:$value, Index:$rows, Index:$cols);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $value `,` $rows `,` $cols attr-dict `:` type($value) `->` type($result)
  }];
}

def AMLS_RandOp : AMLS_InferOp<"rand", [
    AllTypesMatch<["min", "max", "sparsity"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "random matrix [rand(rows, cols, min, max, sparsity, seed, pdf)]";
  let description = [{
    Creates a `rows x cols` matrix with a fraction `sparsity` of non-zero
    cells drawn from `pdf` (uniform in [min, max], or standard normal).

    Without `seed`, every execution draws a fresh random stream: the op is
    modelled as allocating its result, so two of them are never merged by CSE
    (but an unused one is still removed). With an explicit seed the op is pure
    and two with the same seed and arguments are the same matrix.

    ```mlir
    %X = amls.rand %r, %c, %min, %max, %sp seed %s uniform
         : f64 -> !amls.matrix<1000x100xf64>
    ```
  }];
  let arguments = (ins Index:$rows, Index:$cols, AnyFloat:$min, AnyFloat:$max,
                       AnyFloat:$sparsity, Optional<I64>:$seed,
                       AMLS_RandPdf:$pdf);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $rows `,` $cols `,` $min `,` $max `,` $sparsity (`seed` $seed^)? $pdf
    attr-dict `:` type($min) `->` type($result)
  }];
}

def AMLS_SeqOp : AMLS_InferOp<"seq", [
    Pure, AllTypesMatch<["from", "to", "incr"]>]> {
  let summary = "column vector from, from+incr, ..., to [seq(from, to, incr)]";
  let description = [{
    Creates the column vector `from, from + incr, ...` up to and including
    `to`; its length is `floor((to - from) / incr) + 1`.

    ```mlir
    %s = amls.seq %one, %ten, %one : f64 -> !amls.matrix<10x1xf64>
    ```
  }];
  let arguments = (ins AnyFloat:$from, AnyFloat:$to, AnyFloat:$incr);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $from `,` $to `,` $incr attr-dict `:` type($from) `->` type($result)
  }];
}

def AMLS_ConstantOp : AMLS_InferOp<"constant", [ConstantLike, Pure]> {
  let summary = "dense matrix literal";
  let description = [{
    A matrix given by a dense literal of the same shape and element type.

    ```mlir
    %A = amls.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
         -> !amls.matrix<2x2xf64>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$value attr-dict `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// I/O
//===----------------------------------------------------------------------===//

def AMLS_ReadOp : AMLS_InferOp<"read", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "read a matrix from a file [read(path, format)]";
  let description = [{
    Reads a matrix from `path` in CSV, Matrix Market (`mm`), AMLS binary or
    SystemDS text-cell (`text`: "i j v" lines, 1-based) format. A relative
    path is relative to the working directory of the run.

    `--amls-infer-properties` takes the sizes (and, for a general
    coordinate file, the sparsity) from the header of a Matrix Market file
    that exists at compile time, and the sizes and non-zeros from a
    SystemDS `.mtd` file beside it (`path.mtd`); the lowered code checks
    them against the file it reads at run time. A text-cell file states no
    sizes: they come from its `.mtd` file at run time, or from the result
    type when it has none (DML's `read(..., rows=, cols=)`).

    ```mlir
    %X = amls.read "data/X.csv" csv : !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins StrAttr:$path, AMLS_FileFormat:$format);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$path $format attr-dict `:` type($result)";
}

def AMLS_WriteOp : AMLS_Op<"write", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "write a matrix to a file [write(X, path, format)]";
  let description = [{
    Writes the matrix and, as SystemDS does, a `.mtd` metadata file beside
    it (`path.mtd`: sizes, non-zeros, format).

    ```mlir
    amls.write %X, "out/X.mtx" mm : !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, StrAttr:$path,
                       AMLS_FileFormat:$format);
  let assemblyFormat = "$input `,` $path $format attr-dict `:` type($input)";
}

def AMLS_ReadScalarOp : AMLS_Op<"read_scalar", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "read a scalar from a text file "
                "[read(path, data_type=\"scalar\")]";
  let description = [{
    Reads the number or boolean (`TRUE`/`FALSE`) in the text file `path`
    (as SystemDS and `amls.write_scalar` write it), checked against
    `value_type`; booleans read as 1.0 and 0.0. A `.mtd` file beside it, if
    any, must say `data_type` scalar.

    ```mlir
    %x = amls.read_scalar "out/x" double : f64
    ```
  }];
  let arguments = (ins StrAttr:$path, AMLS_ScalarType:$value_type);
  let results = (outs F64:$result);
  let assemblyFormat = "$path $value_type attr-dict `:` type($result)";
}

def AMLS_WriteScalarOp : AMLS_Op<"write_scalar", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "write a scalar to a text file [write(x, path)]";
  let description = [{
    Writes `format` with each `{}` replaced by the next value, as
    `amls.printf` formats it but without a newline, to `path`, and a `.mtd`
    file beside it with `data_type` scalar and `value_type` (SystemDS's
    scalar files: a double's shortest round-trip text, an integer without
    ".0", TRUE/FALSE, a string as it is). A matrix value is written in
    `toString`'s format: `write(toString(X), path)` writes a string scalar.

    ```mlir
    amls.write_scalar "out/x" double "{}" (%x : f64)
    ```
  }];
  let arguments = (ins StrAttr:$path, AMLS_ScalarType:$value_type,
                       StrAttr:$format,
                       Variadic<AMLS_Printable>:$values);
  let assemblyFormat = [{
    $path $value_type $format (` ` `(` $values^ `:` type($values) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def AMLS_PrintOp : AMLS_Op<"print", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "print a matrix or scalar [print(x)]";
  let description = [{
    ```mlir
    amls.print %X : !amls.matrix<3x3xf64>
    amls.print %s : f64
    ```
  }];
  let arguments = (ins AMLS_MatrixOrScalar:$input);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

class AMLS_MessageOp<string mnemonic> : AMLS_Op<mnemonic, [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let arguments = (ins StrAttr:$format,
                       Variadic<AMLS_Printable>:$values);
  let assemblyFormat = [{
    $format (` ` `(` $values^ `:` type($values) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def AMLS_PrintfOp : AMLS_MessageOp<"printf"> {
  let summary = "print a message built from text and values [print(\"a\" + x)]";
  let description = [{
    Prints `format` with each `{}` replaced by the next value, followed by
    a newline; `{{` and `}}` print literal braces. Numbers are printed as
    `amls.print` prints them (Java's double format for floats, integers as
    integers, `i1` as TRUE/FALSE), matrices in DML's `toString` format.
    A placeholder `{%spec}` prints its `f64` value with the C conversion
    `spec` (`%5.4f`, `%d`, `%e`, `%x`; integer conversions print the value
    truncated, non-finite values print as `NaN`/`Infinity`): DML's
    `print(format, args...)`. This is DML's `print` of a string
    concatenation.

    ```mlir
    amls.printf "iteration {}: loss = {}" (%i, %loss : i64, f64)
    amls.printf "obj={%5.4f}" (%loss : f64)
    amls.printf "done"
    ```
  }];
}

def AMLS_ReportOp : AMLS_MessageOp<"report"> {
  let summary = "print a compiler diagnostic on stderr while the program runs";
  let description = [{
    As `amls.printf`, on stderr: what a pass wants to report about the run
    (`--amls-select-formats`'s `actual-nnz` reports each product's
    non-zeros after it is computed). Not a DML statement.

    ```mlir
    amls.report "amls-select-formats: loc(...): actual nnz {}" (%n : i64)
    ```
  }];
}

def AMLS_StopOp : AMLS_MessageOp<"stop"> {
  let summary = "end the program with a message [stop(\"...\")]";
  let description = [{
    Prints `amls: stop: ` and the message (formatted as in `amls.printf`)
    to standard error and ends the program with exit status 1. Code after
    it does not run.

    ```mlir
    amls.stop "invalid value {} for lambda" (%lambda : f64)
    ```
  }];
}

def AMLS_TimeOp : AMLS_Op<"time", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "nanoseconds on a monotonic clock [time()]";
  let description = [{
    Reads a monotonic clock (nanoseconds since an arbitrary start), as
    SystemDS's `time()` does; the difference of two readings is the time
    between them. It reads and writes the default resource so that it
    stays in order with the code it times.

    ```mlir
    %t = amls.time : i64
    ```
  }];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def AMLS_StringFormatOp : AMLS_Op<"string_format", [Pure]> {
  let summary = "a string built from text and values at run time";
  let description = [{
    The string `amls.printf` would print for the same format and values,
    without the newline: DML's concatenation (`"loss " + x`) where the
    result's text depends on the path taken.

    ```mlir
    %s = amls.string_format "iteration {}" (%i : i64) : !amls.string
    ```
  }];
  let arguments = (ins StrAttr:$format, Variadic<AMLS_Printable>:$values);
  let results = (outs AMLS_String:$result);
  let assemblyFormat = [{
    $format (` ` `(` $values^ `:` type($values) `)`)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def AMLS_StringCompareOp : AMLS_Op<"string_compare", [Pure]> {
  let summary = "compare two strings [s == \"a\", s < t, ...]";
  let description = [{
    Compares the strings' bytes lexicographically (Java's `compareTo` for
    the ASCII strings of DML scripts), as SystemDS compares strings.

    ```mlir
    %same = amls.string_compare eq, %a, %b
    ```
  }];
  let arguments = (ins AMLS_StringPredicate:$predicate, AMLS_String:$lhs,
                       AMLS_String:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict";
}

#endif // AMLS_DIALECT_AMLSGENERATIONANDIOOPS_TD
