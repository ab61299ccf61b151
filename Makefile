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
#   make bench-distributed  AMLS at 1 and 2 MPI ranks against Dask arrays on
#                L2SVM (2M x 100) and PageRank (1M vertices, 10M links), end
#                to end, with the bytes each collective moved per iteration
#   make bench-mnc  what the MNC sketches cost (the optimizer's time with
#                and without them) against the programs' run time
#   make bench-compressed  the runtime's compressed kernels against NumPy
#                (dense) and SciPy (CSR) on 2M x 50 categorical features and
#                their one-hot encoding, with sizes and compression time
#   make bench-frames  reading and encoding a 1,000,000-row mixed CSV
#                (read(data_type="frame") + transformencode) against pandas
#                read_csv + scikit-learn's encoders, with peak memory
#   make bench-embedding  the per-call overhead of a compiled function called
#                from Python and from the C API
#   make bench-threads  how many threads want a core at once (oversubscription)
#                while BLAS, LAPACK, parallel loops and parfor workers run
#   make bench-memory  the runtime's buffer pool against the system allocator
#                (loops of temporaries, the examples' peak memory, threads;
#                MEMORY_BENCH_FLAGS="--size large" for the large examples)
#   make leak-check  the integration tests under valgrind's leak checker
#   make asan-check  the integration programs (optimized configuration), the
#                runtime's and the session's unit tests built with clang-22's
#                AddressSanitizer + UndefinedBehaviorSanitizer (in build-asan/),
#                then each fuzz target for FUZZ_SMOKE_SECONDS=60 (CI runs it
#                after `make check`)
#   make docs    regenerate the ODS references in docs/
#   make fuzz    fuzz the DML frontend (make fuzz-dml) and the file readers
#                (make fuzz-readers) with libFuzzer, FUZZ_SECONDS=600 each
#                (the targets come from the sanitizer build, build-asan/)
#   make fuzz-programs  random DML programs through every configuration
#                against NumPy for SECONDS (600), reduced on failure
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
            python3-dev pybind11-dev python3-pytest python3-matplotlib \
            libopenmpi-dev openmpi-bin libmpich-dev mpich graphviz \
            python3-sklearn python3-pandas python3-venv python3-pip \
            nlohmann-json3-dev

# What the benchmarks need beyond the build (the sparse bench compiles its
# GraphBLAS and bandwidth programs with cc).
BENCH_PACKAGES := gcc libgraphblas-dev python3-dask
SPARSE_BENCH_FLAGS ?=

.PHONY: all deps build install wheel demo examples check bench bench-distributed bench-sparse bench-memory bench-sums bench-parfor bench-threads bench-library bench-embedding bench-estimators bench-mnc bench-compressed bench-frames leak-check \
        asan-build asan-check \
        fuzz-readers docs \
        fuzz fuzz-dml fuzz-programs clean

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

# Every integration program under valgrind, once each: no memory may leak
# (about 75 minutes on 2 cores; docs/testing.md).
leak-check: build
	@scripts/ensure-packages.sh valgrind
	cmake --build $(BUILD_DIR) --target amls-run
	/usr/lib/llvm-22/bin/lit -sv --param leak_check=1 $(BUILD_DIR)/test/Integration

# The project's code under AddressSanitizer and UndefinedBehaviorSanitizer
# (-O1; MLIR, LLVM and the JIT-compiled code are not instrumented), built with
# clang-22 like the main build, in build-asan/. The runtime's pool poisons
# cached blocks and the slack after each buffer, so the runtime's kernels
# are checked against the sizes compiled code asked for. The same build has
# the libFuzzer targets (fuzz/CMakeLists.txt); CI runs each for a smoke.
# Integration programs run in their optimized configuration only (the
# differential configurations run unsanitized in `make check`).
ASAN_BUILD_DIR ?= build-asan
ASAN_TARGETS := amls-opt amls-run amls-translate amls_runtime AMLSUnitTests \
                AMLSRuntimeTests AMLSSessionTests amls-dml-fuzzer \
                amls-reader-fuzzer
SANITIZER_PACKAGES := clang-22 libclang-rt-22-dev
export ASAN_OPTIONS ?= detect_leaks=1:allocator_may_return_null=1:abort_on_error=0
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
FUZZ_SMOKE_SECONDS ?= 60
$(ASAN_BUILD_DIR)/build.ninja:
	cmake -S . -B $(ASAN_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
	  -DAMLS_SANITIZERS=address,undefined \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  -DPython3_EXECUTABLE=/usr/bin/python3
asan-build: deps
	@scripts/ensure-packages.sh $(SANITIZER_PACKAGES)
	@$(MAKE) --no-print-directory $(ASAN_BUILD_DIR)/build.ninja
	cmake --build $(ASAN_BUILD_DIR) -j $(JOBS) --target $(ASAN_TARGETS)
asan-check: asan-build
	$(LLVM_PREFIX)/bin/lit -s --param sanitized=1 $(ASAN_BUILD_DIR)/test/Integration
	$(ASAN_BUILD_DIR)/unittests/AMLSUnitTests --gtest_brief=1
	$(ASAN_BUILD_DIR)/unittests/AMLSRuntimeTests --gtest_brief=1
	$(ASAN_BUILD_DIR)/unittests/AMLSSessionTests --gtest_brief=1
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

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

# amls.sklearn against scikit-learn, and the lazy API against DML (issue 44).
bench-estimators: build
	OPENBLAS_CORETYPE=SkylakeX PYTHONPATH=$(BUILD_DIR)/python \
	  /usr/bin/python3 bench/estimators.py

# What building and propagating MNC sketches costs against the programs'
# run time (sparse PageRank, one-hot products).
bench-mnc: build
	PYTHONPATH=$(BUILD_DIR)/python /usr/bin/python3 bench/mnc_cost.py

bench-compressed: build
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	/usr/bin/python3 bench/compressed.py --amls-lib $(BUILD_DIR)/lib

bench-frames: build
	/usr/bin/python3 bench/frames.py --amls-run $(AMLS_RUN)

# The runtime's pool against glibc's malloc: loops of temporaries, the
# examples' wall time and peak memory, concurrent allocation.
bench-memory: build
	/usr/bin/python3 bench/memory/run.py --amls-run $(AMLS_RUN) $(MEMORY_BENCH_FLAGS)

# AMLS at 1 and 2 MPI ranks against Dask on L2SVM and PageRank, end to end
# (data cached in build/bench/distributed/, about 2 GB).
bench-distributed: build
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	/usr/bin/python3 bench/distributed.py --amls-run $(AMLS_RUN)

bench-sparse: build
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	/usr/bin/python3 bench/sparse/run.py --amls-run $(AMLS_RUN) $(SPARSE_BENCH_FLAGS)

# The fuzz targets of the sanitizer build, FUZZ_SECONDS each over their
# seeds (fuzz/seeds, fuzz/reader-seeds) and the corpus kept in
# build-asan/fuzz-*-corpus; a finding is written to build-asan/fuzz-*.
FUZZ_SECONDS ?= 600
fuzz: fuzz-dml fuzz-readers
# $(1): the target's name (amls-$(1)-fuzzer), $(2): its seeds, $(3): flags.
define run-fuzzer
mkdir -p $(ASAN_BUILD_DIR)/fuzz-$(1)-corpus
$(ASAN_BUILD_DIR)/bin/amls-$(1)-fuzzer -max_total_time=$(FUZZ_SECONDS) \
  -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 $(3) \
  -artifact_prefix=$(ASAN_BUILD_DIR)/fuzz-$(1)- \
  $(ASAN_BUILD_DIR)/fuzz-$(1)-corpus $(2)
endef
fuzz-dml: asan-build
	$(call run-fuzzer,dml,fuzz/seeds,-dict=fuzz/dml.dict)
fuzz-readers: asan-build
	$(call run-fuzzer,reader,fuzz/reader-seeds,)

# Random DML programs through every configuration against NumPy
# (fuzz/programs/run.py) for SECONDS, from PROGRAM_SEED; reduced
# reproducers of failures go to build/fuzz-programs/ (docs/testing.md).
SECONDS ?= 600
PROGRAM_SEED ?= 1000
fuzz-programs: build
	/usr/bin/python3 fuzz/programs/run.py --amls-run $(AMLS_RUN) \
	  --seconds $(SECONDS) --seed $(PROGRAM_SEED) --save $(BUILD_DIR)/fuzz-programs

# The tools, libraries, C headers, DML library and Python package under
# PREFIX (docs/user-guide.md, "Installing").
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# The Python package as a wheel in $(BUILD_DIR)/wheels (python/pyproject.toml;
# pip install it into any environment of this Python: docs/python.md).
wheel: build
	AMLS_BUILD_DIR=$(abspath $(BUILD_DIR)) AMLS_WHEEL_SKIP_BUILD=1 \
	  /usr/bin/python3 -m pip wheel --no-deps --no-index -w $(BUILD_DIR)/wheels ./python

docs: build
	cmake --build $(BUILD_DIR) --target amls-doc

clean:
	rm -rf $(BUILD_DIR)
