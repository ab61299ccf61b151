# AMLS: the two set-up commands are `make demo` and `make check`.
#
#   make demo    install what is missing, build, run the flagship example
#   make check   install what is missing, build, run every test suite
#   make examples  run the DML example scripts on generated data and compare
#                with their NumPy references (EXAMPLES="l2svm kmeans" for some,
#                EXAMPLE_SIZE=large for bigger data; data in build/examples/)
#   make bench   AMLS against NumPy on this machine (not a test), then the
#                sparse kernels on the 100k matrices (bench-sparse --quick)
#   make bench-sparse  AMLS's sparse kernels against SciPy and SuiteSparse:
#                GraphBLAS at 1 and 2 threads, the read bandwidth, PageRank and
#                components end to end on a 1M-vertex graph (all matrices;
#                SPARSE_BENCH_FLAGS=--quick for the 100k ones; matrices cached
#                in build/bench/sparse/)
#   make bench-sums  Kahan-compensated sums (AMLS's default, as SystemDS)
#                against --sums=plain on the bandwidth-bound reductions
#   make bench-parfor  parfor at 2 workers against the sequential loop and
#                NumPy (a compute-bound body, an imbalanced triangular loop
#                per task partitioner, seed 001's grid search)
#   make bench-embedding  the per-call overhead of a compiled function called
#                from Python and from the C API
#   make bench-threads  how many threads want a core at once (oversubscription)
#                while BLAS, LAPACK, parallel loops and parfor workers run
#   make bench-memory  the runtime's buffer pool against the system allocator
#                (loops of temporaries, the examples' peak memory, threads;
#                MEMORY_BENCH_FLAGS="--size large" for the large examples)
#   make leak-check  the integration tests under valgrind's leak checker
#   make asan-check  the integration and example tests and the runtime's unit
#                tests built with AddressSanitizer + UndefinedBehaviorSanitizer
#                (in build-asan/; CI runs it after `make check`)
#   make docs    regenerate the ODS references in docs/
#   make fuzz    fuzz the DML frontend (make fuzz-dml) and the file readers
#                (make fuzz-readers) with libFuzzer, FUZZ_SECONDS=600 each
#
# Incremental: with nothing changed, a second `make check` rebuilds nothing.

BUILD_DIR ?= build
JOBS ?= 2
LLVM_PREFIX ?= /usr/lib/llvm-22
AMLS_OPT := $(BUILD_DIR)/bin/amls-opt
AMLS_RUN := $(BUILD_DIR)/bin/amls-run

PACKAGES := cmake ninja-build ccache clang-22 g++ python3 llvm-22-dev llvm-22-tools \
            libmlir-22-dev mlir-22-tools libgtest-dev libopenblas-dev \
            libomp-22-dev python3-numpy python3-scipy libboost-dev \
            python3-dev pybind11-dev python3-pytest python3-matplotlib

# What the benchmarks need beyond the build (the sparse bench compiles its
# GraphBLAS and bandwidth programs with cc).
BENCH_PACKAGES := gcc libgraphblas-dev
SPARSE_BENCH_FLAGS ?=

.PHONY: all deps build install demo examples check bench bench-sparse bench-memory bench-sums bench-parfor bench-threads bench-library bench-embedding leak-check \
        asan-check \
        fuzz-readers docs \
        fuzz fuzz-dml clean

all: build

deps:
	@scripts/ensure-packages.sh $(PACKAGES)

# Built with clang-22, the compiler of Debian's libMLIR.so: a type's implicit
# TypeID is keyed by its name as the compiler spells it, and code in a
# shared library (the C API, the Python package) must spell the names of
# MLIR's traits as libMLIR does (docs/design-notes.md).
$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  -DPython3_EXECUTABLE=/usr/bin/python3

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@echo "== Inferred sizes and sparsity: amls-opt --amls-infer-properties --canonicalize examples/linreg-cg.mlir"
	@$(AMLS_OPT) --amls-infer-properties --canonicalize examples/linreg-cg.mlir | grep -E "amls.rand|scf.while" | cut -c1-160
	@/usr/bin/python3 examples/demo.py --amls-run $(AMLS_RUN) --dir $(BUILD_DIR)/demo

EXAMPLES ?= linreg-cg l2svm mlogreg pagerank components kmeans
EXAMPLE_SIZE ?= small
examples: build
	@for name in $(EXAMPLES); do \
	  echo "== examples/$$name.dml"; \
	  /usr/bin/python3 examples/reference/check.py $$name --amls-run $(AMLS_RUN) \
	    --size $(EXAMPLE_SIZE) --data $(BUILD_DIR)/examples/$$name --show || exit 1; \
	done

check: build
	cmake --build $(BUILD_DIR) -j $(JOBS) --target check-amls-lit
	cd $(BUILD_DIR) && ctest --output-on-failure --no-tests=error -j $(JOBS)
	cmake --build $(BUILD_DIR) --target check-docs

# Every integration program under valgrind: no memory may leak (slow).
leak-check: build
	@scripts/ensure-packages.sh valgrind
	cmake --build $(BUILD_DIR) --target amls-run
	/usr/lib/llvm-22/bin/lit -sv --param leak_check=1 $(BUILD_DIR)/test/Integration

# The project's code under AddressSanitizer and UndefinedBehaviorSanitizer
# (-O1; MLIR, LLVM and the JIT-compiled code are not instrumented). The
# runtime's pool poisons cached blocks and the slack after each buffer, so
# the runtime's kernels are checked against the sizes compiled code asked for.
ASAN_BUILD_DIR ?= build-asan
ASAN_TARGETS := amls-opt amls-run amls-translate amls_runtime AMLSRuntimeTests \
                AMLSSessionTests
export ASAN_OPTIONS ?= detect_leaks=1:allocator_may_return_null=1:abort_on_error=0
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
# GCC's sanitizers, as validated so far; its targets are executables, which
# the TypeID naming above does not affect.
asan-check: deps
	cmake -S . -B $(ASAN_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
	  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
	  -DAMLS_SANITIZERS=address,undefined \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  -DPython3_EXECUTABLE=/usr/bin/python3
	cmake --build $(ASAN_BUILD_DIR) -j $(JOBS) --target $(ASAN_TARGETS)
	$(LLVM_PREFIX)/bin/lit -sv --param sanitized=1 \
	  $(ASAN_BUILD_DIR)/test/Integration $(ASAN_BUILD_DIR)/test/Examples
	$(ASAN_BUILD_DIR)/unittests/AMLSRuntimeTests --gtest_brief=1
	$(ASAN_BUILD_DIR)/unittests/AMLSSessionTests --gtest_brief=1

bench: build
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	/usr/bin/python3 bench/run.py --amls-run $(AMLS_RUN)
	/usr/bin/python3 bench/sparse/run.py --amls-run $(AMLS_RUN) --quick
	/usr/bin/python3 bench/write_csv.py --amls-run $(AMLS_RUN)

bench-sums: build
	/usr/bin/python3 bench/compensated_sums.py --amls-run $(AMLS_RUN)

bench-parfor: build
	/usr/bin/python3 bench/parfor.py --amls-run $(AMLS_RUN)

# The per-call overhead of a compiled function from Python and from C.
bench-embedding: build
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	/usr/bin/python3 bench/embedding.py --build $(BUILD_DIR)

bench-threads: build
	/usr/bin/python3 bench/threads.py --amls-run $(AMLS_RUN)

# Every ML algorithm of the DML library against the same algorithm in
# NumPy/SciPy on the examples' large data (several minutes).
bench-library: build
	/usr/bin/python3 bench/library.py --amls-run $(AMLS_RUN) --size large

# The runtime's pool against glibc's malloc: loops of temporaries, the
# examples' wall time and peak memory, concurrent allocation.
bench-memory: build
	/usr/bin/python3 bench/memory/run.py --amls-run $(AMLS_RUN) $(MEMORY_BENCH_FLAGS)

bench-sparse: build
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	/usr/bin/python3 bench/sparse/run.py --amls-run $(AMLS_RUN) $(SPARSE_BENCH_FLAGS)

# libFuzzer needs clang: the frontend is compiled with clang-22 and the
# sanitizers, the dialect library comes from the regular build.
FUZZ_SECONDS ?= 600
FUZZER := $(BUILD_DIR)/bin/amls-dml-fuzzer
fuzz: fuzz-dml fuzz-readers
fuzz-dml: build
	@scripts/ensure-packages.sh clang-22 libclang-rt-22-dev
	$(LLVM_PREFIX)/bin/clang++ -std=c++17 -g -O1 \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  -Iinclude -I$(BUILD_DIR)/include -I$(LLVM_PREFIX)/include \
	  fuzz/dml-fuzzer.cpp lib/Frontend/DML/Lexer.cpp \
	  lib/Frontend/DML/Parser.cpp lib/Frontend/DML/ImportDML.cpp \
	  lib/Frontend/DML/Expressions.cpp lib/Frontend/DML/Builtins.cpp \
	  lib/Frontend/DML/BuiltinsIO.cpp \
	  $(BUILD_DIR)/lib/libMLIRAMLS.a $(BUILD_DIR)/lib/CostModel/libAMLSCostModel.a \
	  -L$(BUILD_DIR)/lib -lamls_runtime -Wl,-rpath,$(abspath $(BUILD_DIR))/lib \
	  -L$(LLVM_PREFIX)/lib -lMLIR -lLLVM -Wl,-rpath,$(LLVM_PREFIX)/lib \
	  -o $(FUZZER)
	mkdir -p $(BUILD_DIR)/fuzz-corpus
	$(FUZZER) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
	  -dict=fuzz/dml.dict -artifact_prefix=$(BUILD_DIR)/fuzz- \
	  $(BUILD_DIR)/fuzz-corpus fuzz/seeds

# The CSV and Matrix Market readers, compiled with the sanitizers.
READER_FUZZER := $(BUILD_DIR)/bin/amls-reader-fuzzer
fuzz-readers:
	@scripts/ensure-packages.sh clang-22 libclang-rt-22-dev
	mkdir -p $(BUILD_DIR)/bin $(BUILD_DIR)/fuzz-reader-corpus
	$(LLVM_PREFIX)/bin/clang++ -std=c++17 -g -O1 -pthread -fopenmp \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  -Iinclude fuzz/reader-fuzzer.cpp lib/Runtime/IO/MatrixIO.cpp \
	  lib/Runtime/IO/SparseIO.cpp lib/Runtime/IO/CoordinateReader.cpp \
	  lib/Runtime/IO/CsvReader.cpp lib/Runtime/IO/MatrixWriter.cpp \
	  lib/Runtime/IO/FileMetadata.cpp lib/Runtime/Core/Memory.cpp \
	  lib/Runtime/Core/Failure.cpp \
	  -Wl,-rpath,$(LLVM_PREFIX)/lib -o $(READER_FUZZER)
	$(READER_FUZZER) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=$(BUILD_DIR)/fuzz-reader- \
	  $(BUILD_DIR)/fuzz-reader-corpus fuzz/reader-seeds

# The tools, libraries, C headers, DML library and Python package under
# PREFIX (docs/user-guide.md, "Installing").
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

docs: build
	cmake --build $(BUILD_DIR) --target amls-doc

clean:
	rm -rf $(BUILD_DIR)
