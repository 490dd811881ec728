"""harness/pytest_adapter/lean.py: a scheduler's process runs each case item as one call, and
what it reports is what pytest's own protocol reports: real cases on llvmpipe (a pass, a failure
with no baseline, a case the context may refuse), the same records, statuses and exit status."""
from __future__ import annotations

import ast
import importlib.metadata
import inspect
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import _pytest.runner
from conftest import ROOT
from packaging.requirements import Requirement

CASES = ["draw_params/DrawArrays/f0c4/glsl450/vs", "draw_params/DrawArrays/f5c4/glsl460/vs",
         "draw_params/explore/v1-k0as11.ak1as29.n.aa1.1.m3x0z.a1.1.m3x0zz.0.t.0zz.s14.f.450z"]

# Counts the reports pytest's reporting hooks see, by phase, into the file $PHASES names.
COUNTER = '''
import json, os
seen = {}
def pytest_runtest_logreport(report):
    seen[report.when] = seen.get(report.when, 0) + 1
def pytest_unconfigure(config):
    open(os.environ["PHASES"], "w").write(json.dumps(seen))
'''


def _run(tmp_path: Path, name: str, *extra: str) -> tuple[int, dict, list[dict]]:
    folder = tmp_path / name
    (tmp_path / "phase_counter.py").write_text(COUNTER)
    path = os.pathsep.join(filter(None, [str(ROOT), str(tmp_path), os.environ.get("PYTHONPATH")]))
    args = [a for case in CASES for a in ("--case", case)]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "phase_counter", "-q",
                           "tests/draw_params", "--target", "llvmpipe", "--baseline", "none", "--in-process",
                           "--results-dir", str(folder), *args, *extra], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": path, "PHASES": str(tmp_path / f"{name}.json")})
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-3000:]
    results = json.loads((folder / "results.json").read_text())["results"]
    kept = [{k: r.get(k) for k in ("id", "target", "status", "label", "report", "message", "expected")} for r in results]
    return proc.returncode, json.loads((tmp_path / f"{name}.json").read_text()), sorted(kept, key=lambda r: r["id"])


def test_a_scheduled_process_reports_one_call_a_case_as_pytests_protocol_would(tmp_path):
    code, phases, records = _run(tmp_path, "phased")
    lean_code, lean_phases, lean_records = _run(tmp_path, "lean", "--shard", "1/1")
    assert phases == {"setup": 3, "call": 3, "teardown": 3}        # not a scheduler's process: pytest's phases
    assert lean_phases == {"call": 3}
    assert lean_code == code
    assert lean_records == records
    assert {r["id"] for r in records} == set(CASES)
    assert "pass" in {r["status"] for r in records}


# -- pytest's private API: lean.py tears down through `session._setupstate` (pyproject bounds pytest) --
LEAN = ROOT / "harness" / "pytest_adapter" / "lean.py"


def private_uses(source: str) -> dict[str, set[str]]:
    """Each private attribute a module reads (`x._name`), with the attributes it reads of it."""
    uses: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            uses.setdefault(node.attr, set())
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr.startswith("_"):
            uses.setdefault(node.value.attr, set()).add(node.attr)
    return uses


def shape_problems(state: object) -> list[str]:
    """How a session's `_setupstate` differs from what lean.py calls: teardown_exact(nextitem)."""
    method = getattr(state, "teardown_exact", None)
    if not callable(method):
        return [f"{type(state).__name__} has no teardown_exact"]
    params = list(inspect.signature(method).parameters)
    return [] if params == ["nextitem"] else [f"teardown_exact takes {params}, not ['nextitem']"]


def test_lean_uses_of_pytests_private_api_are_the_ones_checked_here():
    assert private_uses(LEAN.read_text()) == {"_setupstate": {"teardown_exact"}}


def test_pytests_setupstate_has_the_shape_lean_calls(request):
    """Fails on a pytest whose Session._setupstate moved or changed: lean.py must follow it, and
    pyproject's bound on pytest must not be raised before it does."""
    assert isinstance(request.session._setupstate, _pytest.runner.SetupState)
    assert shape_problems(request.session._setupstate) == []


def test_the_shape_check_sees_a_changed_setupstate():
    class Renamed:
        def teardown_nodes(self, nextitem): ...

    class Reshaped:
        def teardown_exact(self, item, nextitem): ...
    assert shape_problems(Renamed()) == ["Renamed has no teardown_exact"]
    assert shape_problems(Reshaped()) == ["teardown_exact takes ['item', 'nextitem'], not ['nextitem']"]


def test_pyproject_bounds_pytest_to_the_majors_whose_setupstate_is_checked():
    requirements = [Requirement(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]]
    pytest_req = next(r for r in requirements if r.name == "pytest")
    assert not pytest_req.specifier.contains("10.0"), f"pytest requirement {pytest_req}: no upper bound below 10"
    assert pytest_req.specifier.contains(importlib.metadata.version("pytest")), \
        f"installed pytest {importlib.metadata.version('pytest')} is outside {pytest_req}"
