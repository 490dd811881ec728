"""harness/base/errors.py: every exception the harness defines is under one root, in the branch
that says whose fault it is; the command line answers each branch the same way in every command."""
from __future__ import annotations

import ast
from conftest import ROOT

import pytest

from harness import __main__ as cli
from harness.base import errors
from harness.model.status import Status

PACKAGE = ROOT / "harness"
BUILTIN = {"Exception", "ValueError", "LookupError", "KeyError", "RuntimeError", "TypeError", "OSError"}
BRANCHES = {"UsageError", "HarnessFault", "LayerFault", "CaseOutcome"}


def exception_classes() -> dict[str, tuple[str, list[str]]]:
    """name -> (module path, base names) of every class under harness/ that derives from an exception."""
    classes: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
                         for b in node.bases]
                classes.setdefault(node.name, (str(path.relative_to(PACKAGE.parent)), bases))
    found, grew = {}, True
    while grew:                                     # classes whose bases are exceptions, to a fixed point
        grew = False
        for name, (path, bases) in classes.items():
            if name not in found and any(b in BUILTIN or b in found for b in bases):
                found[name] = (path, bases)
                grew = True
    return found


def test_every_exception_class_is_under_the_root_in_one_branch():
    found = exception_classes()
    assert len(found) > 40                                  # the walk sees them (a test that can fail)
    outside = []
    for name, (path, bases) in found.items():
        if path == "harness/base/errors.py":
            continue
        first = bases[0]
        # the first base is a branch or another harness exception; a builtin only as a second base
        if first in BUILTIN or (first not in BRANCHES and first not in found):
            outside.append(f"{path}: class {name}({', '.join(bases)})")
    assert not outside, "exceptions outside harness/base/errors.py's branches:\n" + "\n".join(outside)


def test_no_two_exception_classes_share_a_name():
    seen: dict[str, list[str]] = {}
    exceptions = exception_classes()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name in exceptions:
                seen.setdefault(node.name, []).append(str(path.relative_to(PACKAGE.parent)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


def test_a_layer_fault_names_the_harness_layer_and_the_case():
    fault = errors.LayerFault("VS (translated) failed to compile")
    assert isinstance(fault, errors.HarnessFault) and not isinstance(fault, errors.UsageError)
    assert str(fault) == "harness layer: VS (translated) failed to compile"
    assert fault.on("tess/x") == "harness layer: VS (translated) failed to compile\n[case tess/x]"


def test_the_layer_faults_are_layer_faults_and_no_driver_outcome_is():
    from harness.backends import BackendError, DeviceLost, Skip
    from harness.backends.vk.spirv import CompileError
    from harness.backends.vk.translate import TranslationError
    assert issubclass(TranslationError, errors.LayerFault) and issubclass(CompileError, errors.LayerFault)
    for outcome in (BackendError, DeviceLost, Skip):       # the driver's verdicts stay fail, crash, skip
        assert issubclass(outcome, errors.CaseOutcome) and not issubclass(outcome, errors.HarnessFault)


def test_error_is_never_the_drivers():
    """What a layer fault becomes: a failure of the run that no baseline may list and bisect skips."""
    assert Status.ERROR.is_failure() and not Status.ERROR.blames_driver()
    with pytest.raises(ValueError):
        Status.from_baseline("Error")


def test_bad_input_is_one_line_and_exit_2_in_every_command(capsys):
    assert cli.main(["export", "tess/no/such"]) == 2
    assert cli.main(["blame", "tess/no/such"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("python -m harness ") for line in err), err


def test_bisect_run_stops_git_bisect_on_bad_input_and_on_a_harness_fault(capsys):
    assert cli.main(["bisect-run", "tess/no/such", "--target", "llvmpipe"]) == cli.STOP_BISECTION

    def fault() -> int:
        raise errors.HarnessFault("planted")
    assert cli.guarded("bisect-run", fault) == cli.STOP_BISECTION
    assert cli.guarded("export", fault) == cli.FAULT == 3
    assert "harness error (the traceback above)" in capsys.readouterr().err
