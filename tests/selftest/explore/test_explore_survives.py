"""An exploration survives a kill and keeps its budget, on llvmpipe of the
pinned Mesa (fault-llvmpipe: llvmpipe with a hang planted on one explored case, so the command
is killed at a known point), where seed 5 of tess finds gl_PrimitiveID failures."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from harness.run import journal
from harness.explore import findings, search
from harness.sources.explored import space
from harness.model.status import Verdict
from harness.model.status import Status

from conftest import ROOT, pinned_args
from faults import environment as planting

SEED, CASES = 5, 40
JOBS = 2                # cases queued behind the one judged, each in a child of its own


def drawn() -> list[str]:
    """The ids seed 5 draws, in order: the same whatever the driver answers."""
    sp = space.get("tess")
    return [s.case.id for s in search.explore(sp, lambda case: Verdict(Status.PASS), SEED, search.Budget(cases=CASES))]


def explore(results, *extra, faults=None, mark=None, case_timeout=20, budget=str(CASES)):
    argv = [sys.executable, "-m", "harness", "explore", "--family", "tess", "--seed", str(SEED), "--budget", budget,
            "--target", "fault-llvmpipe", "--results-dir", str(results), "--reduce-runs", "10",
            "--case-timeout", str(case_timeout), "--jobs", str(JOBS), *extra]
    argv += pinned_args()
    env = {**os.environ, **planting(faults, mark=mark or "")}
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def report(results) -> dict:
    return json.loads((results / "tess" / "findings.json").read_text())


def outcome_of(found: dict) -> list:
    return [(f["signature"], f["reduced_id"], f["original_id"], f["seen"], f["reduced_by"]) for f in found["findings"]]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    results = tmp_path_factory.mktemp("whole")
    out, err = explore(results).communicate(timeout=300)
    found = report(results)
    assert found["complete"] and found["findings"], out + err
    return found


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_exploration_keeps_its_cases_and_findings_and_resumes_to_the_same(tmp_path, uninterrupted, how):
    ids = drawn()
    hang = ids[20]                  # the 21st case hangs: 20 judged before it, failures among them
    mark = tmp_path / "hanging"
    proc = explore(tmp_path, faults={hang: "hang"}, mark=mark)
    deadline = time.monotonic() + 120
    while not (mark.exists() and mark.read_text()) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert mark.exists() and proc.poll() is None, proc.communicate()
    proc.send_signal(how)
    out, err = proc.communicate(timeout=60)
    if how is signal.SIGKILL:
        os.kill(int(mark.read_text()), signal.SIGKILL)      # the hanging child outlives a SIGKILLed parent
    assert proc.returncode == (-9 if how is signal.SIGKILL else 128 + signal.SIGTERM), out + err
    # every case before the hang, in order, but those judged as the hang began (the hanging case
    # was sent as the JOBS-th before it was judged): a kill loses at most the cases in flight
    judged = [e["id"] for e in journal.read(tmp_path / "tess")]
    assert judged in [ids[:k] for k in range(20 - JOBS, 21)]
    kept = report(tmp_path)
    # SIGTERM writes it as it stops; a SIGKILL leaves the last one written, at the last new failure
    assert not kept["complete"] and (kept["cases_run"] == len(judged) if how is signal.SIGTERM
                                     else kept["cases_run"] <= len(judged))
    assert kept["findings"] and all(f["unreduced"] for f in kept["findings"])
    assert {f["reduced_by"] for f in kept["findings"]} == {
        findings.PENDING if how is signal.SIGKILL else findings.INTERRUPTED}
    if how is signal.SIGTERM:
        assert "--continue goes on" in err
    table = findings.summary([tmp_path / "tess" / "findings.json"])
    assert "| tess (unfinished) |" in table and table.count("**UNREDUCED**") == len(kept["findings"])

    out, err = explore(tmp_path, "--continue").communicate(timeout=300)
    resumed = report(tmp_path)
    assert resumed["complete"] and resumed["from_journal"] >= 20, out + err
    assert outcome_of(resumed) == outcome_of(uninterrupted)
    entries = journal.read(tmp_path / "tess")
    assert len({e["id"] for e in entries}) == len(entries)   # no case judged twice
    assert resumed["statuses"] == uninterrupted["statuses"]


def test_resume_refuses_another_command(tmp_path):
    out, err = explore(tmp_path, "--continue").communicate(timeout=60)
    assert "no exploration to resume" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "command.json").write_text(json.dumps({"seed": 4}))
    proc = explore(tmp_path, "--continue")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "resume with the same command" in err, err


@pytest.mark.slow          # a 15 s budget spent by design
def test_a_time_budget_bounds_the_whole_command(tmp_path):
    """Every explored case hangs (fault-llvmpipe, a pattern), so exploring and reducing each cost
    a case timeout a run: the command (its clock starts with its process) still ends within the
    budget plus one case timeout plus what starting and stopping it costs on this machine now (a
    child closed, findings written, Python's exit, which the command cannot see: measured as the
    same command judging no case), and the finding its share of the budget left unreduced says so
    in findings.json and in the summary."""
    # The budget leaves room for the command's start (Python's imports, the cases, the first
    # child), which its clock counts: at a load of 14-18 on 2 cores (2026-11-26) 6 s went to
    # starting alone, leaving no case run and nothing found; and a fixed 0.5 s for the wrap-up was
    # exceeded by 1.6 s (the command judging no case took 8.4 s of wall time for 0.8 s of CPU).
    budget, case_timeout, python_exit = 15.0, 2.0, 0.5
    started = time.monotonic()
    out, err = explore(tmp_path / "idle", budget="0", case_timeout=case_timeout).communicate(timeout=120)
    idle = time.monotonic() - started
    assert "explore tess: 0 cases in " in out, out + err
    started = time.monotonic()
    proc = explore(tmp_path, faults={"tess/explore/*": "hang"}, budget=f"{budget:g}s", case_timeout=case_timeout)
    out, err = proc.communicate(timeout=120)
    took = time.monotonic() - started
    assert proc.returncode == 1, out + err
    print(f"{took:.2f} s for a budget of {budget:g} s (judging no case: {idle:.2f} s)")
    assert took <= budget + case_timeout + max(python_exit, idle), (took, idle, out)
    found = report(tmp_path)
    assert found["complete"] and set(found["statuses"]) == {"timeout"}, found
    # each reduction was cut short by its share of the budget, or never had one; which of them
    # reproduced the hang in a simpler case first depends on the machine's speed
    assert found["findings"] and all("budget" in f["reduced_by"] for f in found["findings"]), found
    table = findings.summary([tmp_path / "tess" / "findings.json"])
    assert table.count("**UNREDUCED**") == sum(f["unreduced"] for f in found["findings"])
