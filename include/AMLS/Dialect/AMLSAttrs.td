//===- AMLSAttrs.td - AMLS enums and attributes ------------*- tablegen -*-===//

#ifndef AMLS_DIALECT_AMLSATTRS_TD
#define AMLS_DIALECT_AMLSATTRS_TD

include "AMLS/Dialect/AMLSDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class AMLS_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::amls";
}

def AMLS_MatrixFormat : AMLS_I32Enum<"MatrixFormat", "physical matrix layout", [
  I32EnumAttrCase<"Dense", 0, "dense">,
  I32EnumAttrCase<"CSR", 1, "csr">,
  I32EnumAttrCase<"Compressed", 2, "compressed">
]>;

def AMLS_StringPredicate : AMLS_I32Enum<"StringPredicate",
    "comparison of two strings", [
  I32EnumAttrCase<"EQ", 0, "eq">,
  I32EnumAttrCase<"NE", 1, "ne">,
  I32EnumAttrCase<"LT", 2, "lt">,
  I32EnumAttrCase<"LE", 3, "le">,
  I32EnumAttrCase<"GT", 4, "gt">,
  I32EnumAttrCase<"GE", 5, "ge">
]>;

def AMLS_AggKind : AMLS_I32Enum<"AggKind", "aggregation function", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"SumSq", 1, "sumsq">,
  I32EnumAttrCase<"Min", 2, "min">,
  I32EnumAttrCase<"Max", 3, "max">,
  I32EnumAttrCase<"Mean", 4, "mean">,
  I32EnumAttrCase<"Prod", 5, "prod">,
  I32EnumAttrCase<"Var", 6, "var">,
  I32EnumAttrCase<"Sd", 7, "sd">,
  I32EnumAttrCase<"MaxIndex", 8, "maxindex">,
  I32EnumAttrCase<"MinIndex", 9, "minindex">
]>;

def AMLS_AggAxis : AMLS_I32Enum<"AggAxis", "aggregation direction", [
  I32EnumAttrCase<"All", 0, "all">,
  I32EnumAttrCase<"Row", 1, "row">,
  I32EnumAttrCase<"Col", 2, "col">
]>;

def AMLS_CumAggKind : AMLS_I32Enum<"CumAggKind", "cumulative aggregate", [
  I32EnumAttrCase<"CumSum", 0, "cumsum">,
  I32EnumAttrCase<"CumProd", 1, "cumprod">,
  I32EnumAttrCase<"CumMin", 2, "cummin">,
  I32EnumAttrCase<"CumMax", 3, "cummax">
]>;

def AMLS_RandPdf : AMLS_I32Enum<"RandPdf", "probability distribution", [
  I32EnumAttrCase<"Uniform", 0, "uniform">,
  I32EnumAttrCase<"Normal", 1, "normal">
]>;

// Numbered as amls::distributions::Kind (AMLS/Runtime/Distributions.h).
def AMLS_Distribution : AMLS_I32Enum<"Distribution",
    "distribution of cdf and icdf", [
  I32EnumAttrCase<"Normal", 0, "normal">,
  I32EnumAttrCase<"Exp", 1, "exp">,
  I32EnumAttrCase<"ChiSquared", 2, "chisq">,
  I32EnumAttrCase<"F", 3, "f">,
  I32EnumAttrCase<"T", 4, "t">
]>;

// Numbered as AmlsParforPartitioner (AMLS/Runtime/ABI.h).
def AMLS_ParforPartitioner : AMLS_I32Enum<"ParforPartitioner",
    "how a parfor's iterations are cut into tasks", [
  I32EnumAttrCase<"Naive", 0, "naive">,
  I32EnumAttrCase<"Static", 1, "static">,
  I32EnumAttrCase<"Fixed", 2, "fixed">,
  I32EnumAttrCase<"Factoring", 3, "factoring">
]>;

// How the workers' writes to a shared matrix of a parfor reach its result
// (SystemDS's result merge). The values are the entries of amls.parfor's
// `result_merge`.
def AMLS_ParforResultMerge : AMLS_I32Enum<"ParforResultMerge",
    "how a parfor's result matrix is merged", [
  // The iterations write disjoint parts of the one buffer (proven).
  I32EnumAttrCase<"InPlace", 0, "in_place">,
  // Each worker updates its own copy; cells that differ from the value
  // before the loop are copied into the result.
  I32EnumAttrCase<"Compare", 1, "compare">,
  // Each worker updates its own copy of an all-zero matrix; its nonzero
  // cells are copied into the result (no copy of the value before).
  I32EnumAttrCase<"NonZeros", 2, "nonzeros">
]>;

def AMLS_FileFormat : AMLS_I32Enum<"FileFormat", "matrix file format", [
  I32EnumAttrCase<"CSV", 0, "csv">,
  I32EnumAttrCase<"MatrixMarket", 1, "mm">,
  I32EnumAttrCase<"Binary", 2, "binary">,
  I32EnumAttrCase<"Text", 3, "text">
]>;

// The value types of frame columns (SystemDS's ValueType for frames); the
// values are AmlsFrameValueType's (ABI.h), which the runtime reads.
def AMLS_FrameValueType : AMLS_I32Enum<"FrameValueType",
    "value type of a frame column", [
  I32EnumAttrCase<"String", 0, "str">,
  I32EnumAttrCase<"FP64", 1, "f64">,
  I32EnumAttrCase<"FP32", 2, "f32">,
  I32EnumAttrCase<"INT64", 3, "i64">,
  I32EnumAttrCase<"INT32", 4, "i32">,
  I32EnumAttrCase<"Boolean", 5, "bool">
]>;

def AMLS_ScalarType : AMLS_I32Enum<"ScalarType", "value type of a scalar in a file", [
  I32EnumAttrCase<"Double", 0, "double">,
  I32EnumAttrCase<"Int", 1, "int">,
  I32EnumAttrCase<"Boolean", 2, "boolean">,
  I32EnumAttrCase<"String", 3, "string">
]>;

def AMLS_TsmmSide : AMLS_I32Enum<"TsmmSide", "which transpose-self product", [
  I32EnumAttrCase<"Left", 0, "left">,
  I32EnumAttrCase<"Right", 1, "right">
]>;

def AMLS_TriangleSide : AMLS_I32Enum<"TriangleSide",
                                      "which triangle of a matrix", [
  I32EnumAttrCase<"Lower", 0, "lower">,
  I32EnumAttrCase<"Upper", 1, "upper">
]>;

def AMLS_PoolingKind : AMLS_I32Enum<"PoolingKind",
                                     "what a pooling window computes", [
  I32EnumAttrCase<"Max", 0, "max">,
  I32EnumAttrCase<"Avg", 1, "avg">
]>;

def AMLS_Margin : AMLS_I32Enum<"Margin", "rows or columns", [
  I32EnumAttrCase<"Rows", 0, "rows">,
  I32EnumAttrCase<"Cols", 1, "cols">
]>;

def AMLS_FusedTemplate : AMLS_I32Enum<"FusedTemplate",
                                      "fused operator template", [
  I32EnumAttrCase<"Cell", 0, "cell">,
  I32EnumAttrCase<"Row", 1, "row">,
  I32EnumAttrCase<"MAgg", 2, "magg">,
  I32EnumAttrCase<"Outer", 3, "outer">
]>;

def AMLS_AggKindArrayAttr
    : TypedArrayAttrBase<AMLS_AggKind, "array of aggregation kinds">;

//===----------------------------------------------------------------------===//
// Attributes passed between passes (AMLSDialect's verifiers check them)
//===----------------------------------------------------------------------===//

class AMLS_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<AMLS_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def AMLS_ParforPlanAttr : AMLS_Attr<"ParforPlan", "parfor_plan"> {
  let summary = "how a planned parfor loop runs on worker threads";
  let description = [{
    Set by `--convert-amls-to-linalg` on the `scf.for` of an `amls.parfor`
    that `--amls-parfor` proved independent and planned for several workers
    (as `amls.parfor_plan`); `--amls-parfor-private-results` gives each
    worker its own copy of the results that `result_merge` names, and
    `--amls-parfor-workers` runs the loop on the workers after
    bufferization.

    ```mlir
    scf.for ... {amls.parfor_plan = #amls.parfor_plan<workers = 4,
        partitioner = factoring, task_size = 1, inner_threads = 1,
        result_merge = array<i32: 1>>}
    ```
  }];
  let parameters = (ins "int64_t":$workers,
                        EnumParameter<AMLS_ParforPartitioner>:$partitioner,
                        "int64_t":$task_size,
                        "int64_t":$inner_threads,
                        OptionalParameter<"::mlir::DenseI32ArrayAttr">:
                            $result_merge);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def AMLS_MNCSketchParameter
    : AttrParameter<"::mlir::amls::MNCSketchRef", "an MNC sketch"> {
  // Equal counts are the same sketch, wherever they were built.
  let comparator = "*$_lhs == *$_rhs";
}

def AMLS_MNCSketchAttr : AMLS_Attr<"MNCSketch", "mnc"> {
  let summary = "the MNC sketch of a matrix parameter's data";
  let description = [{
    The non-zero count of every row and column of the data a parameter
    receives, with the extension vectors (per row, its non-zeros in columns
    holding a single non-zero; per column, its non-zeros in rows holding a
    single non-zero) and whether the non-zeros are exactly a full diagonal
    (lib/CostModel/MNCSketch.h; the MNC paper, SIGMOD 2019). The session
    sets it as `amls.mnc` on each CSR parameter of the specialized entry;
    `--amls-infer-properties` propagates it through the program and takes
    the sparsity of products and element-wise results from it.

    ```mlir
    func.func @f(%P: !amls.matrix<3x3xf64, sparsity = 0.33, csr>
        {amls.mnc = #amls.mnc<rows = [1, 1, 1], cols = [1, 1, 1]>})
    ```

    A sketch of more than 4,096 counts prints elided
    (`#amls.mnc<elided 1000000x1000000, nnz = 10000000>`), which does not
    parse back.
  }];
  let parameters = (ins AMLS_MNCSketchParameter:$sketch);
  let hasCustomAssemblyFormat = 1;
}

// How a result of a function crosses the boundary of compiled code: a
// matrix in one of its storage layouts (StorageLayouts.def), or a scalar.
def AMLS_ResultKind : I32EnumAttr<"ResultKind",
    "how a function result crosses the boundary", [
  I32EnumAttrCase<"Dense", 0, "dense">,
  I32EnumAttrCase<"CSR", 1, "csr">,
  I32EnumAttrCase<"Float", 2, "float">,
  I32EnumAttrCase<"Integer", 3, "integer">
]> {
  let cppNamespace = "::mlir::amls";
  let genSpecializedAttr = 0;
}

def AMLS_ResultKindAttr : EnumAttr<AMLS_Dialect, AMLS_ResultKind,
                                   "result_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def AMLS_ResultKindArrayAttr
    : TypedArrayAttrBase<AMLS_ResultKindAttr, "array of result kinds">;

#endif // AMLS_DIALECT_AMLSATTRS_TD
