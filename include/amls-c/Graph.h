/*===- Graph.h - AMLS C API: programs built as expression graphs -*- C -*-===*\
|*                                                                            *|
|* A graph is a program a host builds node by node instead of writing DML   *|
|* text: inputs, literals, operators, calls of DML builtins and library     *|
|* functions, indexing, and the outputs it returns. A session compiles it   *|
|* as it compiles a DML script (the same import, the full optimizer), so    *|
|* the whole graph is fused and rewritten together, and its program is      *|
|* called like one of amlsSessionCompileDMLFunction: the inputs are its     *|
|* parameters, in the order they were added, the outputs its results.       *|
|*                                                                            *|
|* Each node may carry a position in a source the host adds (its own file,  *|
|* e.g. the Python line that built the node): messages about the node show  *|
|* that file's line and a caret, as they show a DML script's.               *|
|*                                                                            *|
|* A node is a number; a call that cannot be taken (an unknown operator, a  *|
|* node that does not exist) returns -1 and the graph keeps the first such  *|
|* problem, which amlsSessionCompileGraph reports.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_C_GRAPH_H
#define AMLS_C_GRAPH_H

#include "amls-c/Session.h"

#ifdef __cplusplus
extern "C" {
#endif

AMLS_DEFINE_C_API_STRUCT(AmlsGraph, void);

/// A node of a graph; -1: none (an absent index bound) or a failed call.
typedef intptr_t AmlsGraphNode;

/// Where a node was built: line and column (1-based) in a source of the
/// graph (amlsGraphAddSource); source -1: nowhere.
typedef struct AmlsGraphLocation {
  intptr_t source;
  unsigned line;
  unsigned column;
} AmlsGraphLocation;

AMLS_CAPI_EXPORTED AmlsGraph amlsGraphCreate(void);
AMLS_CAPI_EXPORTED void amlsGraphDestroy(AmlsGraph graph);

/// Adds a source, `name` (a file name, shown in messages) holding `text`,
/// and returns its number for AmlsGraphLocation.
AMLS_CAPI_EXPORTED intptr_t amlsGraphAddSource(AmlsGraph graph,
                                               MlirStringRef name,
                                               MlirStringRef text);

/// The next parameter of the program: a matrix, double, integer or
/// boolean named `name` (unique, not starting with "_t").
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphAddInput(AmlsGraph graph,
                                                   MlirStringRef name,
                                                   AmlsInputKind kind);

/// A number (an integer if `isInteger`, as DML's INT literal), a boolean
/// or a string literal.
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphAddNumber(AmlsGraph graph,
                                                    double value,
                                                    bool isInteger,
                                                    AmlsGraphLocation location);
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphAddBoolean(
    AmlsGraph graph, bool value, AmlsGraphLocation location);
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphAddString(AmlsGraph graph,
                                                    MlirStringRef value,
                                                    AmlsGraphLocation location);

/// A unary operator, spelled as in DML: "-" or "!".
AMLS_CAPI_EXPORTED AmlsGraphNode
amlsGraphAddUnary(AmlsGraph graph, MlirStringRef op, AmlsGraphNode operand,
                  AmlsGraphLocation location);

/// A binary operator, spelled as in DML: "+", "-", "*", "/", "^", "%%",
/// "%/%", "%*%", "<", "<=", ">", ">=", "==", "!=", "&", "|".
AMLS_CAPI_EXPORTED AmlsGraphNode
amlsGraphAddBinary(AmlsGraph graph, MlirStringRef op, AmlsGraphNode lhs,
                   AmlsGraphNode rhs, AmlsGraphLocation location);

/// A call of a DML builtin or library function (`rowSums`, `solve`, `lm`,
/// ...) with `numArguments` arguments, each named by `argumentNames[i]`
/// (empty: positional; `argumentNames` may be NULL: all positional).
/// `numResults`: 1 for a value; 0 for a call made for its effect (print,
/// write), which runs where it stands among the graph's calls; more for
/// a function returning several (`[B, S] = f(...)`), whose results are
/// amlsGraphGetResult.
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphAddCall(
    AmlsGraph graph, MlirStringRef callee, const AmlsGraphNode *arguments,
    const MlirStringRef *argumentNames, intptr_t numArguments,
    intptr_t numResults, AmlsGraphLocation location);

/// Result `index` of a call with several results.
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphGetResult(AmlsGraph graph,
                                                    AmlsGraphNode call,
                                                    intptr_t index);

/// `base[rowBegin:rowEnd, colBegin:colEnd]` with DML's 1-based, inclusive
/// bounds: a begin of -1 takes the whole dimension, an end of -1 the single
/// position `begin`.
AMLS_CAPI_EXPORTED AmlsGraphNode amlsGraphAddIndex(
    AmlsGraph graph, AmlsGraphNode base, AmlsGraphNode rowBegin,
    AmlsGraphNode rowEnd, AmlsGraphNode colBegin, AmlsGraphNode colEnd,
    AmlsGraphLocation location);

/// Returns `node` as the program's next result, named `name` (unique).
/// False if the node does not exist, has no value or the name is taken.
AMLS_CAPI_EXPORTED bool amlsGraphAddOutput(AmlsGraph graph, MlirStringRef name,
                                           AmlsGraphNode node);

/// What a DML library function takes and returns, for a host that calls
/// it by name.
AMLS_DEFINE_C_API_STRUCT(AmlsFunctionSignature, void);

/// The signature of library function `name` (m_NAME in NAME.dml) in the
/// session's builtin folders, then AMLS's library: null without an error
/// if none has NAME.dml (a builtin or an unknown name), null with `error`
/// set if the file does not read, parse or define m_NAME.
AMLS_CAPI_EXPORTED AmlsFunctionSignature amlsSessionGetLibraryFunction(
    AmlsSession session, MlirStringRef name, AmlsError *error);
AMLS_CAPI_EXPORTED void
amlsFunctionSignatureDestroy(AmlsFunctionSignature signature);
/// Parameters (`isResult` false) or results (true): how many, and each
/// one's name, kind ("matrix", "double", "integer", "boolean", "string",
/// "list") and whether it has a default.
AMLS_CAPI_EXPORTED intptr_t amlsFunctionSignatureGetNumSlots(
    AmlsFunctionSignature signature, bool isResult);
AMLS_CAPI_EXPORTED MlirStringRef amlsFunctionSignatureGetSlotName(
    AmlsFunctionSignature signature, bool isResult, intptr_t index);
AMLS_CAPI_EXPORTED MlirStringRef amlsFunctionSignatureGetSlotKind(
    AmlsFunctionSignature signature, bool isResult, intptr_t index);
AMLS_CAPI_EXPORTED bool amlsFunctionSignatureSlotHasDefault(
    AmlsFunctionSignature signature, bool isResult, intptr_t index);

/// Compiles the graph (it may be destroyed after) as a program named
/// `name` in messages without a position. Null with `error` set if the
/// graph had a problem or does not import or verify (the message shows
/// the positions of the nodes involved).
AMLS_CAPI_EXPORTED AmlsProgram amlsSessionCompileGraph(AmlsSession session,
                                                       AmlsGraph graph,
                                                       MlirStringRef name,
                                                       AmlsError *error);

#ifdef __cplusplus
}
#endif

#endif // AMLS_C_GRAPH_H
