"""Drivers crash, hang and misbehave: every case still gets its verdict, and the results are
complete and well formed. Faults are injected into real llvmpipe runs (target fault-llvmpipe, which
the self-tests' plugin faults.py adds)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, pinned_mesa
from faults import environment as planting
from junitparser import JUnitXml

from harness.sources import catalog
from harness.results import files as results
from harness.run import baseline, gating

SUBSET = '''
import sys
sys.path.insert(0, {root!r})
from harness.sources import catalog

def generate():
    return [c for c in catalog.cases("draw_params") if c.id in {ids!r}]
'''


def pick(n: int) -> list[str]:
    return [c.id for c in catalog.cases("draw_params")
            if c.id.startswith("draw_params/DrawArrays") and "glsl450/vs" in c.id][:n]


def tree_with(tmp_path, ids):
    (tmp_path / "tests" / "tess").mkdir(parents=True)
    (tmp_path / "tests" / "tess" / "cases.py").write_text(SUBSET.format(root=str(ROOT), ids=sorted(ids)))
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["harness.pytest_adapter.plugin"]\n')
    return tmp_path


def run(tree, *args, faults=None, mark="", **kwargs):
    env = {**os.environ, **planting(faults, mark=mark)}
    return subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess",
                             "--target", "fault-llvmpipe", *args], cwd=tree, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def junit_cases(path):
    return [tc for suite in JUnitXml.fromfile(str(path)) for tc in suite]


FAULTS = {"segv": ("crash", "SIGSEGV"), "abort": ("crash", "SIGABRT"), "exit": ("crash", "exit status 3"),
          "hang": ("timeout", "no result after 3 s"), "garbage": ("crash", "driver says"),
          "gl-error": ("fail", "GL error GL_INVALID_ENUM from glEnable"), "dirty-state": ("pass", "")}


def test_each_fault_costs_one_case_only(tmp_path):
    ids = pick(16)
    faulted = dict(zip(ids[::2], FAULTS))                   # every other case has a fault
    tree = tree_with(tmp_path, ids)
    proc = run(tree, "-n", "2", "-v", "--case-timeout", "3", faults=faulted)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 1, out[-3000:] + err[-3000:]
    # The terminal names what happened: segv, abort, exit and garbage crash; the hang times out.
    assert "harness: the failures include 4 crash, 1 timeout" in out, out[-3000:]
    hang = next(i for i, fault in faulted.items() if fault == "hang")
    assert any(line.startswith(f"FAILED {hang}[fault-llvmpipe]: timeout: hang") for line in out.splitlines()), out[-3000:]
    entries = {e.id: e for e in results.read(tree / "results")}
    assert sorted(entries) == sorted(ids)                    # results.json is complete
    for case_id in ids:
        status, words = FAULTS[faulted[case_id]] if case_id in faulted else ("pass", "")
        assert entries[case_id].status == status, (case_id, entries[case_id])
        assert words in entries[case_id].message
    cases = junit_cases(tree / "results" / "junit.xml")      # parses, every case exactly once
    assert sorted(tc.name for tc in cases) == sorted(f"{i}[fault-llvmpipe]" for i in ids)
    assert "\x1b" not in (tree / "results" / "junit.xml").read_text()


def test_killed_worker_loses_only_its_case(tmp_path):
    ids = pick(8)
    tree = tree_with(tmp_path, ids)
    proc = run(tree, "-n", "2", faults={ids[3]: "kill-worker"})
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 1
    entries = {e.id: e for e in results.read(tree / "results")}
    assert sorted(entries) == sorted(ids)
    assert entries[ids[3]].status == "crash"
    assert "harness: the failures include 1 crash" in out, out[-3000:]
    assert all(entries[i].status == "pass" for i in ids if i != ids[3])
    names = [tc.name for tc in junit_cases(tree / "results" / "junit.xml")]
    assert sorted(names) == sorted(f"{i}[fault-llvmpipe]" for i in ids)


def test_interrupted_run_resumes_to_the_full_result(tmp_path):
    ids = pick(10)
    tree = tree_with(tmp_path, ids)
    order = [c.id for c in catalog.cases("draw_params") if c.id in ids]   # collection order
    mark = tmp_path / "hanging"
    # SIGINT's default action back: a shell that starts a job in the background (CI runners
    # may) leaves SIGINT ignored, and Python then never turns it into KeyboardInterrupt.
    proc = run(tree, "-p", "no:xdist", "--case-timeout", "120", faults={order[5]: "hang"},
               mark=mark,
               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)                # the first five cases run; the sixth hangs
    time.sleep(2)                      # the fifth's verdict is reported meanwhile
    assert mark.exists() and proc.poll() is None
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=120)
    partial = {e.id for e in results.read(tree / "results")}
    assert set(order[:5]) <= partial and order[5] not in partial          # finished work kept
    resumed = run(tree, "-p", "no:xdist", "--resume", "results")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, out[-2000:]
    assert f"{len(partial)} deselected" in out
    merged = {e.id: e.status for e in results.read(tree / "results")}
    assert merged == {i: "pass" for i in ids}


def known_flakes(ids, target) -> dict[str, str]:
    """The cases the pinned Mesa's flakes file forgives on `target` (as the gate of the child pytest
    runs, --baseline auto, finds it: harness/run/gating.py), each with the entry that lists it."""
    gate = gating.choose([], [], pinned_mesa())
    flakes = baseline.load_flakes([ROOT / path for path in gate.flakes])
    return {case_id: where for case_id in ids for where, _ in baseline.matching_flakes(flakes, case_id, target)}


def test_the_shuffled_selections_zink_crash_is_a_listed_flake_of_zink_only():
    """docs/decisions.md#shuffled-zink-crash: the pinned Mesa's flakes file lists it, for zink."""
    case_id = "varyings/vs-fs/glsl130compat/builtins-none/users-16xvec4-64c"
    assert case_id in known_flakes([case_id], "zink")
    assert known_flakes([case_id], "llvmpipe") == {}


@pytest.mark.parametrize("target", ["llvmpipe", "zink"])
def test_shuffled_orders_give_the_same_verdicts(tmp_path, target):
    """A case the driver's flakes file lists may be `flake` in one order and `pass` in the other
    (docs/decisions.md#shuffled-zink-crash): the gate forgives it, and so does this test; any
    other status of it, or any difference of another case, fails."""
    ids = pick(6) + [c.id for c in catalog.cases("varyings") if "/vs-fs/glsl130compat/" in c.id][:10]
    flaky = known_flakes(ids, target)
    tree = tree_with(tmp_path, ids)
    (tree / "tests" / "tess" / "cases.py").write_text(
        SUBSET.format(root=str(ROOT), ids=sorted(ids)).replace(
            'catalog.cases("draw_params")', 'catalog.cases("draw_params") + catalog.cases("varyings")'))
    verdicts, messages = [], {}
    for seed in (1, 2):
        proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
                               "tests/tess", "--target", target, "--shuffle", str(seed),
                               "--results-dir", f"r{seed}"], cwd=tree, capture_output=True, text=True, timeout=300)
        assert f"shuffled with --shuffle {seed}" in proc.stdout
        entries = results.read(tree / f"r{seed}")
        verdicts.append({e.id: e.status for e in entries})
        messages.update({(seed, e.id): e.message for e in entries if e.status != "pass"})
        order = [e.id for e in entries]
        assert len(order) == len(ids)
    unforgiven = differences(verdicts, messages, ids, flaky)
    assert not unforgiven, unforgiven


def differences(verdicts, messages, ids, flaky) -> dict[str, tuple]:
    """The cases whose verdicts differ between the two orders, less the listed flakes that were
    `flake` in one and `pass` in the other. Each names its two verdicts and the message of the one
    that did not pass (a crash's signal and the child's stderr tail), so that a rare one can be
    told apart afterwards."""
    differing = {case_id: (verdicts[0].get(case_id), verdicts[1].get(case_id),
                           messages.get((1, case_id)) or messages.get((2, case_id)))
                 for case_id in ids if verdicts[0].get(case_id) != verdicts[1].get(case_id)}
    return {case_id: seen for case_id, seen in differing.items()
            if case_id not in flaky or not {seen[0], seen[1]} <= {"pass", "flake"}}


def test_only_a_listed_flake_may_differ_between_orders_and_only_as_a_flake():
    ids = ["a", "b", "c"]
    messages = {(1, "a"): "crash forgiven: child process died: SIGSEGV"}
    assert differences([{"a": "flake", "b": "pass"}, {"a": "pass", "b": "pass"}], messages, ids, {"a": "flakes:3"}) == {}
    assert differences([{"a": "flake"}, {"a": "pass"}], messages, ids, {}) == {
        "a": ("flake", "pass", "crash forgiven: child process died: SIGSEGV")}       # not listed
    assert differences([{"a": "fail"}, {"a": "pass"}], {}, ids, {"a": "flakes:3"}) == {"a": ("fail", "pass", None)}


def test_empty_selection_is_one_clear_line_and_nonzero(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess", "--target",
                           "llvmpipe", "-k", "no-such-case", "--results-dir", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 5
    assert "harness: the selection is empty: no case of the chosen families matched on llvmpipe" in proc.stdout


def test_unwritable_results_dir_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess", "--target",
                           "llvmpipe", "--results-dir", str(blocker / "results")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"Exit: ERROR: results directory {blocker / 'results'} is not writable: Not a directory"]
