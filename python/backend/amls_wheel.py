"""The PEP 517 backend of python/pyproject.toml: AMLS's CMake build packed
as a wheel, with the standard library only.

The wheel holds what `cmake --install` puts in a prefix, laid out so that
the installed pieces find each other as they do there: the package
(PREFIX/lib/python3/dist-packages/amls) at the wheel's root, installed into
site-packages; the shared libraries, the DML library (share/amls/builtins),
the C API's headers and the tools as the wheel's data, installed under the
environment's prefix (lib/, share/, include/, bin/). The native module
finds PREFIX/lib three directories above itself ($ORIGIN/../../.. from
site-packages/amls, as from dist-packages/amls), and the C API finds the
DML library beside its lib/. libMLIR comes from the LLVM installation AMLS
was built against (Debian's llvm-22), as for `make install`.

AMLS_BUILD_DIR names the CMake build directory (default: build/ of the
source tree), brought up to date with `cmake --build` (without one, `make
build` configures and builds it, installing the Debian packages it needs
first); AMLS_WHEEL_SKIP_BUILD=1 packs it as it is.
"""

import base64
import csv
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

_PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SOURCE_DIR = os.path.dirname(_PYTHON_DIR)
_NAME = "amls"


def _build_dir():
    return os.path.abspath(os.environ.get("AMLS_BUILD_DIR") or
                           os.path.join(_SOURCE_DIR, "build"))


def _version():
    """project(amls VERSION ...) of the top-level CMakeLists.txt."""
    with open(os.path.join(_SOURCE_DIR, "CMakeLists.txt")) as file:
        match = re.search(r"project\(amls\s+VERSION\s+([0-9.]+)", file.read())
    if not match:
        raise RuntimeError("CMakeLists.txt names no project(amls VERSION ...)")
    return match.group(1)


def _log(message):
    print(f"amls_wheel: {message}", file=sys.stderr, flush=True)


def _run(command, **kwargs):
    _log(" ".join(command))
    kwargs.setdefault("stdout", sys.stderr)
    done = subprocess.run(command, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"'{' '.join(command)}' failed with exit status "
                           f"{done.returncode}")


def _build_and_stage(prefix):
    build = _build_dir()
    if os.environ.get("AMLS_WHEEL_SKIP_BUILD"):
        pass  # built by the caller (make wheel, the tests inside the build)
    elif os.path.exists(os.path.join(build, "build.ninja")):
        _run(["cmake", "--build", build])
    else:
        _run(["make", "-C", _SOURCE_DIR, "build", f"BUILD_DIR={build}"])
    if not os.path.exists(os.path.join(build, "python", _NAME, "_version.py")):
        raise RuntimeError(f"{build} has no Python package: CMake found no "
                           f"pybind11 or Python headers (make deps installs "
                           f"them)")
    _run(["cmake", "--install", build, "--prefix", prefix],
         stdout=subprocess.DEVNULL)


def _tag():
    python = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}-{platform}"


def _metadata(version):
    return (f"Metadata-Version: 2.1\n"
            f"Name: {_NAME}\n"
            f"Version: {version}\n"
            f"Summary: AMLS: an MLIR compiler for linear-algebra ML programs "
            f"(DML, lazy matrices, scikit-learn estimators)\n"
            f"Requires-Python: >=3.9\n"
            f"Requires-Dist: numpy\n"
            f"Provides-Extra: sparse\n"
            f"Requires-Dist: scipy; extra == \"sparse\"\n"
            f"Provides-Extra: sklearn\n"
            f"Requires-Dist: scikit-learn; extra == \"sklearn\"\n"
            f"Requires-Dist: scipy; extra == \"sklearn\"\n")


def _wheel_file(tag):
    return (f"Wheel-Version: 1.0\nGenerator: amls_wheel\n"
            f"Root-Is-Purelib: false\nTag: {tag}\n")


def _files(prefix, version):
    """(path in the wheel, path on disk) of every file staged."""
    package = os.path.join(prefix, "lib", "python3", "dist-packages", _NAME)
    data = f"{_NAME}-{version}.data"
    mapping = []
    for root, _, names in os.walk(package):
        for name in sorted(names):
            if name.endswith(".pyc"):
                continue
            path = os.path.join(root, name)
            mapping.append((os.path.join(_NAME, os.path.relpath(path, package)),
                            path))
    for top, where in (("lib", "data/lib"), ("share", "data/share"),
                       ("include", "data/include"), ("bin", "scripts")):
        for root, dirs, names in os.walk(os.path.join(prefix, top)):
            if top == "lib":
                dirs[:] = [d for d in dirs if d != "python3"]
            for name in sorted(names):
                if name.endswith(".a"):  # the compiler's static libraries
                    continue
                path = os.path.join(root, name)
                relative = os.path.relpath(path, os.path.join(prefix, top))
                mapping.append((f"{data}/{where}/{relative}", path))
    return mapping


def _record_entry(name, content):
    digest = base64.urlsafe_b64encode(
        hashlib.sha256(content).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(content))]


def _write_metadata_dir(directory, version, tag):
    info = os.path.join(directory, f"{_NAME}-{version}.dist-info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as file:
        file.write(_metadata(version))
    with open(os.path.join(info, "WHEEL"), "w") as file:
        file.write(_wheel_file(tag))
    return os.path.basename(info)


# -- PEP 517 hooks ----------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_metadata_dir(metadata_directory, _version(), _tag())


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version, tag = _version(), _tag()
    wheel_name = f"{_NAME}-{version}-{tag}.whl"
    info = f"{_NAME}-{version}.dist-info"
    with tempfile.TemporaryDirectory(prefix="amls-wheel-") as prefix:
        _build_and_stage(prefix)
        records = []
        path = os.path.join(wheel_directory, wheel_name)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
            def add(name, content, mode=0o644):
                entry = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                entry.external_attr = (mode | 0o100000) << 16
                entry.compress_type = zipfile.ZIP_DEFLATED
                wheel.writestr(entry, content)
                records.append(_record_entry(name, content))

            for name, source in _files(prefix, version):
                with open(source, "rb") as file:
                    content = file.read()
                add(name, content,
                    0o755 if os.access(source, os.X_OK) else 0o644)
            add(f"{info}/METADATA", _metadata(version).encode())
            add(f"{info}/WHEEL", _wheel_file(tag).encode())
            record = io.StringIO()
            writer = csv.writer(record, lineterminator="\n")
            writer.writerows(records)
            writer.writerow([f"{info}/RECORD", "", ""])
            wheel.writestr(f"{info}/RECORD", record.getvalue())
    _log(f"built {wheel_name}")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("AMLS has no source distribution of the package "
                       "alone: build a wheel from the source tree (pip "
                       "install ./python, make wheel)")
