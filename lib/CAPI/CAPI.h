//===- CAPI.h - AMLS C API: the objects behind the handles ------*- C++ -*-===//

#ifndef AMLS_LIB_CAPI_CAPI_H
#define AMLS_LIB_CAPI_CAPI_H

#include "amls-c/Graph.h"
#include "amls-c/Session.h"
#include "amls-c/Support.h"
#include "amls-c/Value.h"

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/Frontend/DML/AST.h"
#include "AMLS/Frontend/DML/ImportDML.h"

#include "mlir/CAPI/Wrap.h"

#include "llvm/Support/SourceMgr.h"

#include <mutex>
#include <string>
#include <vector>

namespace mlir::amls::capi {

struct CError {
  std::string message;
  /// The compiled program failed while it ran (amlsErrorIsRunFailure).
  bool runFailure = false;
};

struct CValue {
  RuntimeValue value;
  /// The cells of an input converted to row-major f64.
  std::vector<double> cells;
};

struct CProgram;
struct CGraph;

struct CSession {
  explicit CSession(SessionOptions options) : session(std::move(options)) {}

  Session session;
  std::vector<std::unique_ptr<CProgram>> programs;
  double optimizeMilliseconds = 0, compileMilliseconds = 0,
         executeMilliseconds = 0;
  /// Serializes the calls on the session (its context's diagnostics).
  std::mutex mutex;
};

struct CProgram {
  Program *program;
  CSession *session;
};

DEFINE_C_API_PTR_METHODS(AmlsError, CError)
DEFINE_C_API_PTR_METHODS(AmlsValue, CValue)
DEFINE_C_API_PTR_METHODS(AmlsSession, CSession)
DEFINE_C_API_PTR_METHODS(AmlsProgram, CProgram)
DEFINE_C_API_PTR_METHODS(AmlsGraph, CGraph)

/// The script of `graph` (a handle of amls-c/Graph.h) with the inputs and
/// outputs it declares in `options`, its sources kept by `session` (their
/// buffers in `sourceBuffers`); false with `problem` set where the graph
/// had one.
bool buildGraphScript(AmlsGraph graph, Session &session, dml::Script &script,
                      dml::ImportOptions &options,
                      std::vector<unsigned> &sourceBuffers,
                      std::string &problem);

/// Stores a new error with `message` in `error` (if not null).
void setError(AmlsError *error, std::string message,
              bool runFailure = false);

} // namespace mlir::amls::capi

#endif // AMLS_LIB_CAPI_CAPI_H
