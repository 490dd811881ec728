"""The self-tests' own JUnit in the history (`history ingest --selftest`, which .ci/run does after
bin/selftest): real pytest runs of a small test file, one test failing in one run of two, show
that test as flaky in `history flakes` with its rate, and nothing else; a node id becomes a case
id the history accepts, and a JUnit that is not one is refused in one line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.model.case import ID_RE
from harness.results import pytest_junit

ROOT = Path(__file__).resolve().parents[3]

TESTS = '''
import os, pytest
def test_steady():
    assert True
@pytest.mark.parametrize("where", ["a/b c", "[x]::y"])
def test_param(where):
    assert where
def test_sometimes():
    assert os.environ.get("FAIL_ONCE") != "1", "planted failure"
'''


def harness(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=ROOT)


def selftest_junit(folder: Path, name: str, fail: bool) -> Path:
    """pytest's own JUnit of TESTS, as bin/selftest writes it (a module below tests/selftest)."""
    package = folder / name / "tests" / "selftest"
    package.mkdir(parents=True)
    for init in (package.parent / "__init__.py", package / "__init__.py"):
        init.write_text("")
    module = package / "planted.py"             # collected by -o python_files: no self-test of this name
    module.write_text(TESTS)
    junit = folder / f"{name}.xml"
    env = {"PATH": "/usr/bin:/bin", "FAIL_ONCE": "1" if fail else "0"}
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                    "-o", "addopts=", "-o", f"python_files={module.name}", f"--junitxml={junit}",
                    str(module.relative_to(folder / name))],
                   cwd=folder / name, env=env, capture_output=True, text=True)
    return junit


def test_a_flaky_self_test_is_rated_in_history_flakes(tmp_path):
    store = f"sqlite:///{tmp_path}/history.sqlite"
    first = selftest_junit(tmp_path, "one", fail=True)
    second = selftest_junit(tmp_path, "two", fail=False)
    for junit in (first, second):
        stored = harness("history", "--store", store, "ingest", "--selftest", str(junit))
        assert stored.returncode == 0, stored.stderr
        assert "lane selftest" in stored.stdout, stored.stdout
    shown = harness("history", "--store", store, "flakes", "--all", "--json")
    assert shown.returncode == 0, shown.stderr
    rates = json.loads(shown.stdout)
    rows = rates["rates"] if isinstance(rates, dict) else rates
    flaky = {(r["case"], r["target"], r["lane"]): (r["failed"], r["runs"]) for r in rows if r["failed"]}
    assert flaky == {("selftest/planted/test_sometimes", "selftest", "selftest"): (1, 2)}, rows


def test_node_ids_become_distinct_case_ids():
    ids = [pytest_junit.case_id("tests.selftest.e2e.test_reliability", "test_shuffled[zink]"),
           pytest_junit.case_id("tests.selftest.model.test_case", "test_pinned[tess/no-tcs/quads/pv4/o2_3-i6]"),
           pytest_junit.case_id("tests.selftest.x", "test_p[a/b c]"),
           pytest_junit.case_id("tests.selftest.x", "test_p[[x]::y]")]
    assert ids[:2] == ["selftest/e2e/test_reliability/test_shuffled/zink",
                       "selftest/model/test_case/test_pinned/tess/no-tcs/quads/pv4/o2_3-i6"]
    assert all(ID_RE.match(i) for i in ids), ids


def test_the_same_case_id_twice_is_numbered(tmp_path):
    junit = tmp_path / "same.xml"
    junit.write_text('<testsuites><testsuite name="pytest" timestamp="2026-12-07T00:00:00+00:00">'
                     '<testcase classname="tests.selftest.x" name="test_p[a b]"/>'
                     '<testcase classname="tests.selftest.x" name="test_p[a:b]"><failure message="m"/></testcase>'
                     '</testsuite></testsuites>')
    records = pytest_junit.read(junit)
    assert [(r.id, r.status.value) for r in records] == [("selftest/x/test_p/a_b", "pass"),
                                                        ("selftest/x/test_p/a_b.2", "fail")]


@pytest.mark.parametrize("content", ["not xml", '<!DOCTYPE x [<!ENTITY a "b">]><testsuites/>'])
def test_a_bad_file_is_one_line(tmp_path, content):
    bad = tmp_path / "bad.xml"
    bad.write_text(content)
    refused = harness("history", "--store", f"sqlite:///{tmp_path}/h.sqlite", "ingest", "--selftest", str(bad))
    assert refused.returncode != 0
    assert len(refused.stderr.strip().splitlines()) == 1 and str(bad) in refused.stderr, refused.stderr
