"""Every example script of examples/ called from Python: the script's text
compiled with amls.Session.compile_dml, its $arguments bound by keyword (as
amls-run's --arg binds them), run on the data its NumPy/SciPy reference
(examples/reference/NAME.py) generates, and every output it writes
compared with the reference's, as `make examples` does through amls-run."""

import importlib.util
import os

import numpy as np
import pytest

import amls

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "examples")
NAMES = sorted(name[:-3] for name in os.listdir(os.path.join(EXAMPLES,
                                                             "reference"))
               if name.endswith(".py") and name not in ("check.py",
                                                        "common.py"))


def load_reference(name):
    reference_dir = os.path.join(EXAMPLES, "reference")
    spec = importlib.util.spec_from_file_location(
        "reference_" + name.replace("-", "_"),
        os.path.join(reference_dir, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    import sys
    sys.path.insert(0, reference_dir)          # their `common` module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(reference_dir)
    return module


def as_argument(value):
    """A --arg value as amls-run takes it: DML's TRUE/FALSE, numbers as
    written."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(value) if isinstance(value, float) else str(value)


def read_matrix(path):
    if path.endswith(".mtx"):
        import scipy.io
        data = scipy.io.mmread(path)
        return np.asarray(data.todense() if hasattr(data, "todense") else data)
    return np.loadtxt(path, delimiter=",", ndmin=2)


def test_every_example_has_a_reference():
    scripts = sorted(name[:-4] for name in os.listdir(EXAMPLES)
                     if name.endswith(".dml"))
    assert scripts == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_example_from_python(name, tmp_path, capfd):
    module = load_reference(name)
    args = module.generate(str(tmp_path), "small")
    path = os.path.join(EXAMPLES, module.SCRIPT)
    with open(path) as script:
        source = script.read()
    session = amls.Session(threads=2)
    function = session.compile_dml(source, name=path)
    results = function(**{key: as_argument(value)
                          for key, value in args.items()})
    printed = capfd.readouterr().out
    assert isinstance(results, dict)
    if hasattr(module, "check_output"):
        problem = module.check_output(printed, args)
        assert not problem, problem
    rtol, atol = module.TOLERANCE
    references = module.reference(args)
    assert references
    for output, expected in references.items():
        actual = read_matrix(output)
        assert actual.shape == np.shape(expected), output
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol,
                                   err_msg=output)
