"""OpenBLAS's core type for NumPy, shared by the bench scripts.

OpenBLAS reads OPENBLAS_CORETYPE when it is loaded and detects this VM's
CPU as Prescott (5x slow): `select()` sets the right type and re-executes
the script, so it must run before NumPy is imported.
"""

import os
import sys


def core_type():
    flags = open("/proc/cpuinfo").read()
    if " avx512f" in flags:
        return "SkylakeX"
    if " avx2" in flags:
        return "Haswell"
    return None


def select():
    if "OPENBLAS_CORETYPE" not in os.environ and core_type():
        os.environ["OPENBLAS_CORETYPE"] = core_type()
        os.execv(sys.executable, [sys.executable] + sys.argv)
