# -*- Python -*-
# lit configuration for the AMLS test suites.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "AMLS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".dml"]
# Inputs/ directories hold files that tests read (scripts they source).
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.amls_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%amls_src_root", config.amls_src_root))
config.substitutions.append(("%amls_obj_root", config.amls_obj_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.amls_tools_dir, config.llvm_tools_dir]
tools = ["amls-capi-builtins", "amls-capi-compressed", "amls-capi-frontend", "amls-capi-fused-and-parfor", "amls-capi-graph", "amls-capi-session", "amls-example-ridge", "amls-opt", "amls-run", "amls-translate", "FileCheck", "not", "count", "mlir-opt", "mlir-runner"]
config.substitutions.append(("%python", config.python_executable))
# Tests that run several configurations into one folder clear what the
# previous run wrote, keeping the inputs (test/Oracles/outputs.py).
outputs_py = os.path.join(config.amls_src_root, "test", "Oracles", "outputs.py")
config.substitutions.append(
    ("%mark_inputs", f"{config.python_executable} {outputs_py} mark"))
config.substitutions.append(
    ("%clear_outputs", f"{config.python_executable} {outputs_py} clear"))
llvm_config.add_tool_substitutions(tools, tool_dirs)
# Upstream's runner libraries, for tests that execute IR of upstream
# dialects with mlir-runner (printMemrefF64).
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(("%mlir_runner_libs", ",".join(
    os.path.join(llvm_lib_dir, name)
    for name in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])))

# GPU tests. `ptxas`: the CUDA toolkit's assembler checks the generated PTX
# (gpu-module-to-binary runs it for bin and fatbin). `cuda-runtime`: this
# build has libamls_cuda_runtime. `cuda-stub`: the toolkit's stub driver,
# which loads but has no device (the error path). `cuda-device`: a driver
# and a GPU, where the execution tests run.
import ctypes
import glob
import shutil
import subprocess

cuda_root = os.environ.get("CUDA_HOME", "/usr/local/cuda")
ptxas = shutil.which("ptxas") or os.path.join(cuda_root, "bin", "ptxas")
stub = os.path.join(cuda_root, "lib64", "stubs", "libcuda.so")


def has_cuda_device():
    if not os.path.exists("/dev/nvidiactl"):
        return False
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return (driver.cuInit(0) == 0 and
                driver.cuDeviceGetCount(ctypes.byref(count)) == 0 and
                count.value > 0)
    except OSError:
        return False


def missing_modules(**packages):
    """The Python modules (keyword: module, value: its Debian package) that
    the tests' interpreter cannot import, as 'Module (package)'."""
    return [f"{module} ({package})" for module, package in packages.items()
            if subprocess.run([config.python_executable, "-c",
                               f"import {module}"],
                              capture_output=True).returncode != 0]


def missing_files(**paths):
    return [f"{what} ({path})" for what, path in paths.items()
            if not os.path.exists(path)]


# No silent skips: a suite whose dependencies are missing fails the run,
# naming each missing one, unless the user asked to skip it with
# AMLS_SKIP=suite[,suite...] (a note says what was skipped). Each suite's
# features are added only where it runs. Values: what is missing.
package_library = os.path.join(config.amls_obj_root, "python", "amls")
suites = {
    # The oracles of the execution suites (Integration, Conformance,
    # Examples, Oracles, GPU's CPU runs).
    "oracles": (missing_modules(numpy="python3-numpy", scipy="python3-scipy",
                                pytest="python3-pytest"), ["oracles"]),
    # The Python package and its tests (test/Python, test/Install).
    "python": ((["the Python package's build (pybind11-dev python3-dev, "
                 "then rebuild)"]
                if not glob.glob(os.path.join(package_library, "_amls*.so"))
                else []) + missing_modules(matplotlib="python3-matplotlib",
                                           sklearn="python3-sklearn",
                                           pandas="python3-pandas",
                                           venv="python3-venv",
                                           pip="python3-pip"),
               ["python-package"]),
    # Pictures of the plan rendered by Graphviz.
    "graphviz": ([] if shutil.which("dot") else ["dot (graphviz)"],
                 ["graphviz"]),
    # The GPU backend's compile tests: ptxas assembles the PTX; the runtime
    # is built from cuda.h; the stub driver is the no-device path. The CUDA
    # toolkit is not a Debian package: CUDA_HOME or /usr/local/cuda.
    "gpu": (missing_files(ptxas=ptxas, **{"stub driver": stub}) +
            ([] if config.amls_cuda_runtime else
             [f"cuda.h ({cuda_root}/include, then rebuild)"]),
            ["ptxas", "cuda-runtime", "cuda-stub"]),
    # Distributed runs (test/Distributed): both MPIs' launchers and the
    # runtime's backend for each (built when pkg-config finds the MPI).
    "mpi": ([f"{launcher} ({package})" for launcher, package in
             (("mpiexec.openmpi", "openmpi-bin"), ("mpiexec.mpich", "mpich"))
             if not shutil.which(launcher)] +
            missing_files(**{
                f"the {mpi} backend (lib{mpi}-dev, then rebuild)": os.path.join(
                    config.amls_obj_root, "lib", f"libamls_mpi_{mpi}.so")
                for mpi in ("openmpi", "mpich")}),
            ["mpi"]),
}
skipped = [name for name in os.environ.get("AMLS_SKIP", "").split(",") if name]
for name in skipped:
    if name not in suites:
        lit_config.fatal(f"AMLS_SKIP names '{name}'; the suites that can be "
                         f"skipped are {', '.join(sorted(suites))}")
# The sanitizer build (make asan-check) runs the Integration suite only and
# builds neither the Python package nor the GPU runtime.
sanitized = bool(lit_config.params.get("sanitized"))
for name, (missing, features) in suites.items():
    if name in skipped:
        lit_config.note(f"AMLS_SKIP={name}: the {name} tests are not run")
    elif not missing:
        config.available_features.update(features)
    elif sanitized and name != "oracles":
        continue
    else:
        lit_config.fatal(f"the {name} tests need {', '.join(missing)}, "
                         f"which {'is' if len(missing) == 1 else 'are'} "
                         f"missing: install it (make deps installs the "
                         f"Debian packages named; the CUDA toolkit goes "
                         f"under CUDA_HOME or /usr/local/cuda), or skip the "
                         f"{name} tests with AMLS_SKIP={name}")
if "ptxas" in config.available_features:
    config.environment["PATH"] = (
        config.environment["PATH"] + os.pathsep + os.path.dirname(ptxas))
    config.substitutions.append(("%cuda_stub", stub))
if has_cuda_device():
    config.available_features.add("cuda-device")

# `lit --param leak_check=1` (make leak-check) runs every amls-run under
# valgrind, the plain RUN lines and the oracle's alike, and fails on memory
# that is definitely or indirectly lost. `lit --param sanitized=1` (make
# asan-check) runs the sanitizer build's tools. Under either, the oracle
# (test/Integration/oracle.py) and the data-driven tests run the optimized
# configuration only: the differential configurations run in `make check`.
amls_run = os.path.join(config.amls_tools_dir, "amls-run")
leak_check = bool(lit_config.params.get("leak_check"))
if leak_check:
    valgrind = ("valgrind --quiet --leak-check=full --undef-value-errors=no "
                "--errors-for-leak-kinds=definite,indirect --error-exitcode=99 "
                + amls_run)
    config.substitutions = [
        (pattern, valgrind if replacement == amls_run else replacement)
        for pattern, replacement in config.substitutions]
    amls_run = valgrind
single_configuration = leak_check or sanitized
# RUN lines of a test's extra configurations (--O0, --formats=csr, ...)
# are guarded by `%if differential`.
if not single_configuration:
    config.available_features.add("differential")
# Checks of the differential runs' lines use the DIFFERENTIAL prefix,
# added by %differential_checks where the oracle runs them.
config.substitutions.append(
    ("%differential_checks", "" if single_configuration else ",DIFFERENTIAL"))
config.substitutions.append(
    ("%oracle",
     f"{config.python_executable} "
     f"{os.path.join(config.amls_src_root, 'test', 'Integration', 'oracle.py')}"
     f" --amls-run '{amls_run}'"
     + (" --no-differential" if single_configuration else "")))
