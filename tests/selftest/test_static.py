"""Static checks: ruff over harness/ and tests/ (the rules in pyproject's [tool.ruff]), and mypy
on the run core's modules ([tool.mypy] files), each as a developer runs it from the checkout."""
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
    proc = _tool("ruff", "check", "--no-cache", "harness", "tests")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "All checks passed" in proc.stdout


def test_mypy_finds_nothing_in_the_core():
    proc = _tool("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.stdout.startswith("Success: no issues found in ")
