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

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.amls_tools_dir, config.llvm_tools_dir]
tools = ["amls-capi-frontend", "amls-capi-known-issue-fused", "amls-capi-session", "amls-example-ridge", "amls-opt", "amls-run", "amls-translate", "FileCheck", "not", "count"]
config.substitutions.append(("%python", config.python_executable))
llvm_config.add_tool_substitutions(tools, tool_dirs)
