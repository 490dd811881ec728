"""Every self-test that runs a real driver runs it on the pinned Mesa (bookworm's 22.3.6 as
bin/fetch-mesa fetched it, tests/selftest/conftest.py), whose verdicts the tests are written
against, not on whatever Mesa the host has (Debian 13's 25.0.7 zink crashes at random in a
long-lived child: bench/results/2026-11-26-selftest-repeat.md). The children a test starts get it
from $HARNESS_MESA; an executor
or probe in the test's own process must be handed it (mesa=pinned_mesa()), which this checks in
the source, so that a new test cannot silently run on the host's Mesa."""
from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from conftest import PINNED, PINNED_MESA, ROOT, SELFTEST

STARTERS = {"Executor", "probe"}           # what starts a driver child in this process
# first arguments that start no Mesa driver: the test-only fault backends of executor/test_executor.py
# and executor/test_spawner.py (Target("fault", "fault", ...)) and a target that does not exist
NO_MESA = {"FAULT"}


def _starts_without_mesa(call: ast.Call) -> bool:
    if not call.args:
        return False
    first = call.args[0]
    if isinstance(first, ast.Name) and first.id in NO_MESA:
        return False
    if isinstance(first, ast.Call) and getattr(first.func, "id", "") == "Target":
        return False                       # a literal test-only target (no Mesa)
    keywords = {k.arg for k in call.keywords}
    return not ({"mesa", "settings"} & keywords or len(call.args) > 1)


def test_every_executor_in_a_self_test_is_handed_its_mesa():
    unpinned = []
    for path in sorted(SELFTEST.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in STARTERS \
                    and _starts_without_mesa(node):
                unpinned.append(f"{path.name}:{node.lineno}")
    assert not unpinned, ("a driver started without mesa=pinned_mesa() (the host's Mesa): "
                          + ", ".join(unpinned))


@pytest.mark.skipif(not PINNED, reason=f"{PINNED_MESA} not fetched (bin/fetch-mesa 22.3.6-1+deb12u2)")
def test_a_child_of_a_self_test_loads_the_pinned_mesa():
    assert os.environ["HARNESS_MESA"] == str(PINNED_MESA)
    proc = subprocess.run([sys.executable, "-m", "harness", "targets", "zink"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    [loaded] = [line for line in proc.stdout.splitlines() if line.startswith("  Mesa ")]
    assert loaded.startswith("  Mesa 22.3.6: "), loaded
    libraries = loaded.split(": ", 1)[1].split(", ")
    assert libraries and all(lib.startswith(f"{PINNED_MESA.resolve()}/") for lib in libraries), loaded
