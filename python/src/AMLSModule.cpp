//===- AMLSModule.cpp - The amls Python package's native part -------------===//
//
// A thin layer over the C API (include/amls-c/): sessions, programs from
// AMLS IR or DML, and runs on NumPy arrays. NumPy arrays of f64 go in
// without copies (the C API borrows them); result matrices come back as
// NumPy arrays over the buffer the program allocated, which the array owns
// through a capsule. python/amls/__init__.py binds arguments by name and
// caches the programs of a DML function per kind of input.
//
//===----------------------------------------------------------------------===//

#include "amls-c/Dialect.h"
#include "amls-c/Graph.h"
#include "amls-c/Session.h"

#include "mlir-c/BuiltinTypes.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// Raised for what a compile or a run reports (amls.Error in Python).
struct AmlsException {
  std::string message;
  /// The compiled program failed while it ran (amlsErrorIsRunFailure).
  bool runFailure = false;
};

std::string takeMessage(AmlsError error) {
  MlirStringRef message = amlsErrorGetMessage(error);
  std::string text(message.data, message.length);
  amlsErrorDestroy(error);
  return text;
}

MlirStringRef ref(const std::string &text) {
  return mlirStringRefCreate(text.data(), text.size());
}

/// An AmlsValue destroyed with its owner.
struct OwnedValue {
  AmlsValue value;
  explicit OwnedValue(AmlsValue value) : value(value) {}
  ~OwnedValue() { amlsValueDestroy(value); }
  OwnedValue(const OwnedValue &) = delete;
  OwnedValue &operator=(const OwnedValue &) = delete;
};

class Session;

class Program {
public:
  Program(std::shared_ptr<AmlsSession> session, AmlsProgram program)
      : session(std::move(session)), program(program) {}

  std::vector<std::string> parameterNames() const {
    std::vector<std::string> names;
    for (intptr_t i = 0; i < amlsProgramGetNumParameters(program); ++i) {
      MlirStringRef name = amlsProgramGetParameterName(program, i);
      names.emplace_back(name.data, name.length);
    }
    return names;
  }

  /// "matrix", "f64", "i64" or "i1" per parameter.
  std::vector<std::string> parameterKinds() const {
    std::vector<std::string> kinds;
    for (intptr_t i = 0; i < amlsProgramGetNumParameters(program); ++i) {
      MlirType type = amlsProgramGetParameterType(program, i);
      if (amlsTypeIsAMatrix(type))
        kinds.push_back("matrix");
      else if (mlirTypeIsAF64(type) || mlirTypeIsAF32(type))
        kinds.push_back("float");
      else if (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 1)
        kinds.push_back("bool");
      else
        kinds.push_back("int");
    }
    return kinds;
  }

  std::vector<std::string> resultNames() const {
    std::vector<std::string> names;
    for (intptr_t i = 0; i < amlsProgramGetNumResults(program); ++i) {
      MlirStringRef name = amlsProgramGetResultName(program, i);
      names.emplace_back(name.data, name.length);
    }
    return names;
  }

  /// The C API's values of `arguments` (owned by `packed`).
  struct PackedArguments {
    std::vector<std::unique_ptr<OwnedValue>> owned;
    std::vector<AmlsValue> values;
    std::vector<py::array> keptArrays;
  };
  static void pack(const py::list &arguments,
                   const std::vector<size_t> &rowBlocks,
                   PackedArguments &packed) {
    auto &owned = packed.owned;
    auto &values = packed.values;
    auto &keptArrays = packed.keptArrays;
    for (const py::handle &argument : arguments) {
      AmlsValue value;
      if (py::isinstance<py::tuple>(argument)) {
        // ('csr', rows, cols, row offsets, column indices, values), arrays
        // contiguous of int64, int32 and float64 (amls._csr).
        auto csr = py::reinterpret_borrow<py::tuple>(argument);
        if (csr.size() != 6 || csr[0].cast<std::string>() != "csr")
          throw AmlsException{"a sparse argument could not be passed"};
        auto offsets = csr[3].cast<py::array_t<int64_t, py::array::c_style>>();
        auto columns = csr[4].cast<py::array_t<int32_t, py::array::c_style>>();
        auto cells = csr[5].cast<py::array_t<double, py::array::c_style>>();
        auto rows = csr[1].cast<int64_t>();
        if (offsets.size() != rows + 1 || columns.size() < offsets.at(rows) ||
            cells.size() < offsets.at(rows))
          throw AmlsException{"a sparse argument's arrays disagree in size"};
        value = amlsValueCreateCSR(rows, csr[2].cast<int64_t>(), offsets.data(),
                                   columns.data(), cells.data());
        // The casts above may have converted: keep what was passed alive.
        keptArrays.push_back(offsets);
        keptArrays.push_back(columns);
        keptArrays.push_back(cells);
      } else if (py::isinstance<py::array>(argument)) {
        auto array = py::reinterpret_borrow<py::array>(argument);
        AmlsElementType element;
        if (array.dtype().is(py::dtype::of<double>()))
          element = AMLS_ELEMENT_F64;
        else if (array.dtype().is(py::dtype::of<float>()))
          element = AMLS_ELEMENT_F32;
        else
          element = AMLS_ELEMENT_I64;
        auto itemSize = static_cast<int64_t>(array.itemsize());
        value = amlsValueCreateDense(
            array.data(), element, array.shape(0), array.shape(1),
            array.strides(0) / itemSize, array.strides(1) / itemSize);
      } else if (py::isinstance<py::bool_>(argument)) {
        value = amlsValueCreateInteger(argument.cast<bool>() ? 1 : 0);
      } else if (py::isinstance<py::int_>(argument)) {
        value = amlsValueCreateInteger(argument.cast<int64_t>());
      } else {
        value = amlsValueCreateFloat(argument.cast<double>());
      }
      if (amlsValueIsNull(value))
        throw AmlsException{"an argument could not be passed"};
      owned.push_back(std::make_unique<OwnedValue>(value));
      if (std::find(rowBlocks.begin(), rowBlocks.end(), values.size()) !=
              rowBlocks.end() &&
          !amlsValueSetRowBlock(value, true))
        throw AmlsException{"a row block must be a matrix"};
      values.push_back(value);
    }
  }

  /// The optimized plan for `arguments` (as run takes them) as Graphviz
  /// DOT text.
  std::string explainPlan(const py::list &arguments,
                          const std::vector<size_t> &rowBlocks) {
    PackedArguments packed;
    pack(arguments, rowBlocks, packed);
    std::string graph;
    AmlsError error = {nullptr};
    MlirLogicalResult explained;
    {
      py::gil_scoped_release released;
      explained = amlsProgramExplainPlan(
          program, packed.values.data(),
          static_cast<intptr_t>(packed.values.size()),
          [](MlirStringRef text, void *userData) {
            static_cast<std::string *>(userData)->append(text.data,
                                                         text.length);
          },
          &graph, &error);
    }
    if (mlirLogicalResultIsFailure(explained))
      throw AmlsException{takeMessage(error), false};
    return graph;
  }

  /// Runs on `arguments` (one per parameter, already of the right kind:
  /// 2-D float64/float32/int64 arrays, floats, ints, bools) and returns
  /// the results: NumPy arrays owning the program's buffers, floats, ints
  /// and bools. The matrices at `rowBlocks` are this process's blocks of
  /// rows of matrices split over the processes (target "mpi").
  py::list run(const py::list &arguments, const std::vector<size_t> &rowBlocks) {
    PackedArguments packed;
    pack(arguments, rowBlocks, packed);
    std::vector<AmlsValue> &values = packed.values;
    intptr_t numResults = amlsProgramGetNumResults(program);
    std::vector<AmlsValue> results(numResults);
    AmlsError error = {nullptr};
    MlirLogicalResult ran;
    {
      py::gil_scoped_release released;
      ran = amlsProgramRun(program, values.data(),
                           static_cast<intptr_t>(values.size()), results.data(),
                           &error);
    }
    if (mlirLogicalResultIsFailure(ran)) {
      bool runFailure = amlsErrorIsRunFailure(error);
      throw AmlsException{takeMessage(error), runFailure};
    }
    py::list out;
    for (intptr_t i = 0; i < numResults; ++i) {
      AmlsValue result = results[i];
      switch (amlsValueGetKind(result)) {
      case AMLS_VALUE_KIND_MATRIX: {
        AmlsMatrixRef matrix;
        amlsValueGetMatrix(result, &matrix);
        // The array owns the value, and with it the program's buffer.
        py::capsule owner(result.ptr, [](void *value) {
          amlsValueDestroy(AmlsValue{value});
        });
        if (matrix.format == AMLS_MATRIX_CSR) {
          // The three arrays share the value (amls._csr's tuple; the
          // package makes the scipy.sparse matrix).
          auto *offsets = const_cast<int64_t *>(matrix.row_offsets);
          auto *columns = const_cast<int32_t *>(matrix.column_indices);
          out.append(py::make_tuple(
              "csr", matrix.rows, matrix.cols,
              py::array_t<int64_t>({matrix.rows + 1}, {8}, offsets, owner),
              py::array_t<int32_t>({matrix.nnz}, {4}, columns, owner),
              py::array_t<double>({matrix.nnz}, {8},
                                  static_cast<double *>(matrix.data), owner)));
          continue;
        }
        out.append(py::array(py::dtype::of<double>(),
                             {matrix.rows, matrix.cols},
                             {matrix.strides[0] * 8, matrix.strides[1] * 8},
                             static_cast<double *>(matrix.data), owner));
        continue;
      }
      case AMLS_VALUE_KIND_FLOAT:
        out.append(amlsValueGetFloat(result));
        break;
      case AMLS_VALUE_KIND_INTEGER:
        if (amlsProgramIsBooleanResult(program, i))
          out.append(py::bool_(amlsValueGetInteger(result) != 0));
        else
          out.append(amlsValueGetInteger(result));
        break;
      }
      amlsValueDestroy(result);
    }
    return out;
  }

private:
  /// Keeps the session (and so the program) alive.
  std::shared_ptr<AmlsSession> session;
  AmlsProgram program;
};

class Session {
public:
  Session(unsigned threads, uint64_t memoryLimit, const std::string &rewrites,
          const std::string &fusion, const std::string &formats,
          const std::string &sums, const std::string &blas,
          const std::string &target, const std::string &gpuChip,
          bool csrResults, const std::string &builtins,
          const std::string &sparsityEstimator) {
    AmlsSessionOptions options;
    amlsSessionOptionsInit(&options);
    options.builtins = builtins.empty() ? nullptr : builtins.c_str();
    options.csrResults = csrResults;
    options.target = target.empty() ? nullptr : target.c_str();
    options.gpuChip = gpuChip.empty() ? nullptr : gpuChip.c_str();
    options.threads = threads;
    options.memoryLimit = memoryLimit;
    options.rewrites = rewrites.c_str();
    options.fusion = fusion.c_str();
    options.formats = formats.c_str();
    options.sparsityEstimator = sparsityEstimator.c_str();
    options.sums = sums.c_str();
    options.blas = blas.c_str();
    AmlsError error = {nullptr};
    AmlsSession created = amlsSessionCreate(&options, &error);
    if (amlsSessionIsNull(created))
      throw AmlsException{takeMessage(error)};
    session = std::shared_ptr<AmlsSession>(new AmlsSession(created),
                                           [](AmlsSession *session) {
                                             amlsSessionDestroy(*session);
                                             delete session;
                                           });
  }

  Program compileMLIR(const std::string &source, const std::string &name,
                      const std::string &entry) {
    AmlsError error = {nullptr};
    AmlsProgram program = amlsSessionCompileMLIR(*session, ref(source),
                                                 ref(name), ref(entry), &error);
    if (amlsProgramIsNull(program))
      throw AmlsException{takeMessage(error)};
    return Program(session, program);
  }

  /// `inputs`: (name, kind) with kind "matrix", "float", "int" or "bool";
  /// `outputs`: the variables to return, or all the script assigns.
  /// `arguments`: `$name` arguments bound as text (constants).
  Program compileDML(
      const std::string &source, const std::string &name,
      const std::vector<std::pair<std::string, std::string>> &inputs,
      const std::optional<std::vector<std::string>> &outputs,
      const std::vector<std::pair<std::string, std::string>> &arguments) {
    std::vector<AmlsScriptInput> scriptInputs;
    for (const auto &[inputName, kind] : inputs) {
      AmlsInputKind inputKind = kind == "matrix" ? AMLS_INPUT_MATRIX
                                : kind == "int"  ? AMLS_INPUT_INTEGER
                                : kind == "bool" ? AMLS_INPUT_BOOLEAN
                                                 : AMLS_INPUT_DOUBLE;
      scriptInputs.push_back({ref(inputName), inputKind});
    }
    std::vector<MlirStringRef> outputRefs;
    if (outputs)
      for (const std::string &output : *outputs)
        outputRefs.push_back(ref(output));
    std::vector<MlirStringRef> argumentNames, argumentValues;
    for (const auto &[argumentName, value] : arguments) {
      argumentNames.push_back(ref(argumentName));
      argumentValues.push_back(ref(value));
    }
    AmlsError error = {nullptr};
    AmlsProgram program = amlsSessionCompileDMLFunction(
        *session, ref(source), ref(name), scriptInputs.data(),
        static_cast<intptr_t>(scriptInputs.size()), outputRefs.data(),
        static_cast<intptr_t>(outputRefs.size()), argumentNames.data(),
        argumentValues.data(), static_cast<intptr_t>(argumentNames.size()),
        &error);
    if (amlsProgramIsNull(program))
      throw AmlsException{takeMessage(error)};
    return Program(session, program);
  }

  /// A program built as an expression graph (amls-c/Graph.h): `sources`
  /// (name, text) for the positions, `nodes` in order, each a tuple whose
  /// first item says what it is (amls/lazy.py builds them), `outputs`
  /// (name, node).
  Program compileGraph(
      const std::string &name,
      const std::vector<std::pair<std::string, std::string>> &sources,
      const py::list &nodes,
      const std::vector<std::pair<std::string, intptr_t>> &outputs) {
    std::unique_ptr<void, void (*)(void *)> owner(
        amlsGraphCreate().ptr,
        [](void *graph) { amlsGraphDestroy(AmlsGraph{graph}); });
    AmlsGraph graph{owner.get()};
    for (const auto &[sourceName, text] : sources)
      amlsGraphAddSource(graph, ref(sourceName), mlirStringRefCreate(text.data(), text.size()));
    auto location = [](const py::handle &item) {
      auto position = item.cast<std::tuple<intptr_t, unsigned, unsigned>>();
      return AmlsGraphLocation{std::get<0>(position), std::get<1>(position),
                               std::get<2>(position)};
    };
    for (const py::handle &handle : nodes) {
      auto node = handle.cast<py::tuple>();
      auto what = node[0].cast<std::string>();
      // The names and operators the C API reads while the call lasts.
      std::string text =
          what == "input" || what == "string" || what == "unary" ||
                  what == "binary" || what == "call"
              ? node[1].cast<std::string>()
              : std::string();
      if (what == "input") {
        auto kind = node[2].cast<std::string>();
        amlsGraphAddInput(graph, mlirStringRefCreate(text.data(), text.size()),
                          kind == "matrix" ? AMLS_INPUT_MATRIX
                          : kind == "int"  ? AMLS_INPUT_INTEGER
                          : kind == "bool" ? AMLS_INPUT_BOOLEAN
                                           : AMLS_INPUT_DOUBLE);
      } else if (what == "number") {
        amlsGraphAddNumber(graph, node[1].cast<double>(),
                           node[2].cast<bool>(), location(node[3]));
      } else if (what == "bool") {
        amlsGraphAddBoolean(graph, node[1].cast<bool>(), location(node[2]));
      } else if (what == "string") {
        amlsGraphAddString(graph, mlirStringRefCreate(text.data(), text.size()),
                           location(node[2]));
      } else if (what == "unary") {
        amlsGraphAddUnary(graph, mlirStringRefCreate(text.data(), text.size()),
                          node[2].cast<intptr_t>(), location(node[3]));
      } else if (what == "binary") {
        amlsGraphAddBinary(graph, mlirStringRefCreate(text.data(), text.size()),
                           node[2].cast<intptr_t>(), node[3].cast<intptr_t>(),
                           location(node[4]));
      } else if (what == "call") {
        auto arguments = node[2].cast<std::vector<intptr_t>>();
        auto names = node[3].cast<std::vector<std::string>>();
        std::vector<MlirStringRef> nameRefs;
        for (const std::string &argumentName : names)
          nameRefs.push_back(ref(argumentName));
        if (names.size() != arguments.size())
          throw AmlsException{"a call's arguments and names differ in "
                              "number"};
        amlsGraphAddCall(graph, mlirStringRefCreate(text.data(), text.size()),
                         arguments.data(), nameRefs.data(),
                         static_cast<intptr_t>(arguments.size()),
                         node[4].cast<intptr_t>(), location(node[5]));
      } else if (what == "result") {
        amlsGraphGetResult(graph, node[1].cast<intptr_t>(),
                           node[2].cast<intptr_t>());
      } else if (what == "index") {
        amlsGraphAddIndex(graph, node[1].cast<intptr_t>(),
                          node[2].cast<intptr_t>(), node[3].cast<intptr_t>(),
                          node[4].cast<intptr_t>(), node[5].cast<intptr_t>(),
                          location(node[6]));
      } else {
        throw AmlsException{"unknown graph node '" + what + "'"};
      }
    }
    for (const auto &[outputName, node] : outputs)
      amlsGraphAddOutput(graph, ref(outputName), node);
    AmlsError error = {nullptr};
    AmlsProgram program =
        amlsSessionCompileGraph(*session, graph, ref(name), &error);
    if (amlsProgramIsNull(program))
      throw AmlsException{takeMessage(error)};
    return Program(session, program);
  }

  /// ([(name, kind, has_default)], [(name, kind)]) of DML library function
  /// `name`, or None where the library has no NAME.dml.
  py::object libraryFunction(const std::string &name) {
    AmlsError error = {nullptr};
    AmlsFunctionSignature signature =
        amlsSessionGetLibraryFunction(*session, ref(name), &error);
    if (!signature.ptr) {
      if (error.ptr)
        throw AmlsException{takeMessage(error)};
      return py::none();
    }
    auto text = [](MlirStringRef s) { return std::string(s.data, s.length); };
    py::list parameters, results;
    for (intptr_t i = 0,
                  e = amlsFunctionSignatureGetNumSlots(signature, false);
         i < e; ++i)
      parameters.append(py::make_tuple(
          text(amlsFunctionSignatureGetSlotName(signature, false, i)),
          text(amlsFunctionSignatureGetSlotKind(signature, false, i)),
          amlsFunctionSignatureSlotHasDefault(signature, false, i)));
    for (intptr_t i = 0, e = amlsFunctionSignatureGetNumSlots(signature, true);
         i < e; ++i)
      results.append(py::make_tuple(
          text(amlsFunctionSignatureGetSlotName(signature, true, i)),
          text(amlsFunctionSignatureGetSlotKind(signature, true, i))));
    amlsFunctionSignatureDestroy(signature);
    return py::make_tuple(parameters, results);
  }

  /// (rank, size): this process among those that run each program.
  std::pair<int64_t, int64_t> processRank() const {
    int64_t rank, size;
    amlsSessionGetProcessRank(*session, &rank, &size);
    return {rank, size};
  }

  /// (begin, count): this process's rows of a matrix of `rows` rows split
  /// over those processes.
  std::pair<int64_t, int64_t> rowBlock(int64_t rows) const {
    int64_t begin, count;
    amlsSessionGetRowBlock(*session, rows, &begin, &count);
    return {begin, count};
  }

  py::dict stats() const {
    AmlsSessionStatistics statistics = amlsSessionGetStatistics(*session);
    py::dict out;
    out["runs"] = statistics.runs;
    out["compilations"] = statistics.compilations;
    out["cache_hits"] = statistics.cacheHits;
    out["failed_runs"] = statistics.failedRuns;
    out["input_copies"] = statistics.inputCopies;
    out["input_copy_bytes"] = statistics.inputCopyBytes;
    out["input_layout_copies"] = statistics.inputLayoutCopies;
    out["input_layout_copy_bytes"] = statistics.inputLayoutCopyBytes;
    out["optimize_ms"] = statistics.optimizeMilliseconds;
    out["compile_ms"] = statistics.compileMilliseconds;
    out["execute_ms"] = statistics.executeMilliseconds;
    out["peak_memory_bytes"] = statistics.peakMemoryBytes;
    return out;
  }

private:
  std::shared_ptr<AmlsSession> session;
};

} // namespace

PYBIND11_MODULE(_amls, m) {
  m.doc() = "AMLS's native layer (see the amls package)";
  static py::exception<AmlsException> error(m, "Error");
  static py::exception<AmlsException> runError(m, "RunError", error.ptr());
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer)
        std::rethrow_exception(pointer);
    } catch (const AmlsException &e) {
      (e.runFailure ? runError : error)(e.message.c_str());
    }
  });
  py::class_<Program>(m, "Program")
      .def_property_readonly("parameter_names", &Program::parameterNames)
      .def_property_readonly("parameter_kinds", &Program::parameterKinds)
      .def_property_readonly("result_names", &Program::resultNames)
      .def("run", &Program::run, py::arg("arguments"),
           py::arg("row_blocks") = std::vector<size_t>())
      .def("explain_plan", &Program::explainPlan, py::arg("arguments"),
           py::arg("row_blocks") = std::vector<size_t>());
  py::class_<Session>(m, "Session")
      .def(py::init<unsigned, uint64_t, const std::string &,
                    const std::string &, const std::string &,
                    const std::string &, const std::string &,
                    const std::string &, const std::string &, bool,
                    const std::string &, const std::string &>())
      .def("compile_mlir", &Session::compileMLIR)
      .def("compile_dml", &Session::compileDML)
      .def("compile_graph", &Session::compileGraph)
      .def("library_function", &Session::libraryFunction)
      .def("process_rank", &Session::processRank)
      .def("row_block", &Session::rowBlock)
      .def("stats", &Session::stats);
}
