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
tools = ["amls-capi-frontend", "amls-capi-fused-and-parfor", "amls-capi-session", "amls-example-ridge", "amls-opt", "amls-run", "amls-translate", "FileCheck", "not", "count", "mlir-opt", "mlir-runner"]
config.substitutions.append(("%python", config.python_executable))
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
import shutil

cuda_root = os.environ.get("CUDA_HOME", "/usr/local/cuda")
ptxas = shutil.which("ptxas") or os.path.join(cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.environment["PATH"] = (
        config.environment["PATH"] + os.pathsep + os.path.dirname(ptxas))
if config.amls_cuda_runtime:
    config.available_features.add("cuda-runtime")
stub = os.path.join(cuda_root, "lib64", "stubs", "libcuda.so")
if os.path.exists(stub):
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", stub))


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


if has_cuda_device():
    config.available_features.add("cuda-device")

# The Python package is built (pybind11 and Python's headers were found).
import glob

if glob.glob(os.path.join(config.amls_obj_root, "python", "amls", "_amls*.so")):
    config.available_features.add("python-package")
