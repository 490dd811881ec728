"""Static checks: ruff over harness/, tests/ and bench/ (the rules in pyproject's [tool.ruff]), mypy
on the run core's modules and the families' case builders ([tool.mypy] files), each as a developer
runs it from the checkout, and the sizes of the harness's and the families' modules."""
from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from conftest import ROOT


def _tool(name: str, *args: str) -> subprocess.CompletedProcess:
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed in this Python ({sys.executable}): pip install -e '.[test]'")
    return subprocess.run([sys.executable, "-m", name, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing():
    proc = _tool("ruff", "check", "--no-cache", "harness", "tests", "bench")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "All checks passed" in proc.stdout


def test_mypy_finds_nothing_in_the_core():
    proc = _tool("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.stdout.startswith("Success: no issues found in ")


def _harness_imports(path):
    """(module, name or None) for each import of the harness in a script's source, at any depth."""
    import ast
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
            yield from ((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names if alias.name.split(".")[0] == "harness")


def _unresolved(path) -> list[str]:
    missing = []
    for module, name in _harness_imports(path):
        try:
            imported = importlib.import_module(module)
        except ImportError as e:
            missing.append(f"{path.relative_to(ROOT)}: import {module}: {e}")
            continue
        if name and not hasattr(imported, name) and importlib.util.find_spec(f"{module}.{name}") is None:
            missing.append(f"{path.relative_to(ROOT)}: from {module} import {name}: no such name")
    return missing


def test_the_bench_scripts_import_what_the_harness_has():
    """The bench and GPU scripts are not run by CI (bench/gpu/ needs the lent GPU machine), so a
    moved module would break them unseen: every harness name they import must exist."""
    missing = [line for path in sorted((ROOT / "bench").rglob("*.py")) for line in _unresolved(path)]
    assert not missing, "\n".join(missing)


def test_a_moved_module_in_a_bench_script_is_found(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    script = tmp_path / "old.py"
    script.write_text("def main():\n    from harness import catalog\n    from harness.sources import catalog as c\n")
    assert _unresolved(script) == ["old.py: from harness import catalog: no such name"]


# Sizes a reader can hold in their head: a module past MODULE_LINES or a function past
# FUNCTION_LINES is split along its seams, not waived here.
MODULE_LINES, FUNCTION_LINES = 500, 80


def oversized(path, text: str) -> list[str]:
    """'path: N lines' for a module, 'path:LINE name(): N lines' for each function, over the limits."""
    import ast
    found = []
    if text.count("\n") > MODULE_LINES:
        found.append(f"{path}: {text.count(chr(10))} lines (> {MODULE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append(f"{path}:{node.lineno} {node.name}(): {length} lines (> {FUNCTION_LINES})")
    return found


def test_no_module_or_function_of_the_harness_is_too_long():
    """The harness's modules and the families' case builders (tests/<family>/*.py, shipped in the wheel)."""
    from harness.model.families import FAMILIES
    paths = sorted((ROOT / "harness").rglob("*.py")) + [p for f in FAMILIES for p in sorted((ROOT / "tests" / f).glob("*.py"))]
    found = [line for path in paths for line in oversized(path.relative_to(ROOT), path.read_text())]
    assert not found, "split along its seams:\n" + "\n".join(found)


def test_the_size_check_sees_a_long_function_and_a_long_module():
    body = "".join(f"    x = {i}\n" for i in range(FUNCTION_LINES))
    assert oversized("f.py", f"def long():\n{body}") == [f"f.py:1 long(): {FUNCTION_LINES + 1} lines (> 80)"]
    assert oversized("m.py", "x = 1\n" * (MODULE_LINES + 1)) == [f"m.py: {MODULE_LINES + 1} lines (> 500)"]
    short = "".join(f"    x = {i}\n" for i in range(FUNCTION_LINES - 1))
    assert oversized("ok.py", f"def short():\n{short}" + "x = 1\n" * (MODULE_LINES - FUNCTION_LINES)) == []
