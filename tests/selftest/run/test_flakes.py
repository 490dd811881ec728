"""Flakes files forgive only what their evidence shows: an entry names the statuses it
forgives (`REGEX STATUS[,STATUS...]  # rate`); a failure with another status is reported as itself
and fails the run; an entry naming none (the old format, which forgave any status) is bad input."""
from __future__ import annotations

import re

from dataclasses import dataclass

import pytest
from conftest import ROOT
from e2e.test_reliability import pick, run, tree_with

from harness.run import baseline
from harness.results import files as results
from harness.model.outcome import Report
from harness.run import policy
from harness.model.status import Status
from harness.model.status import Verdict


def decide(*args, **kwargs):
    """policy.decide's outcome, and its message as `message`."""
    outcome, message = policy.decide(*args, **kwargs)
    return Decided(outcome.status, outcome.report, outcome.label, message)


@dataclass
class Decided:
    status: Status
    report: Report
    label: str
    message: str


WRONG = Verdict(Status.FAIL, "draw 0: gl_DrawID = 0, expected 2\n[zink: ...]")
CRASH = Verdict(Status.CRASH, "child process died: SIGSEGV\n--- stderr tail ---\n...")
HANG = Verdict(Status.TIMEOUT, "no result after 60 s; child killed")
PASS = Verdict(Status.PASS)
LISTED_FOR_CRASH = [("flakes.txt:3", frozenset({Status.CRASH}))]


def test_wrong_value_in_a_case_listed_for_crashes_fails_the_run():
    out = decide(WRONG, flakes=LISTED_FOR_CRASH)
    assert (out.status, out.report, out.label) == (Status.FAIL, Report.FAILED, "fail")
    assert out.message.startswith("fail: draw 0: gl_DrawID = 0, expected 2\n")
    assert out.message.endswith("\n(not a listed flake: flakes.txt:3 forgives only crash)")
    assert decide(HANG, flakes=LISTED_FOR_CRASH).report is Report.FAILED        # nor a hang
    # Nor after re-runs that all fail; a re-run that passes is still a flake, whatever the status.
    assert decide(WRONG, flakes=LISTED_FOR_CRASH, reruns=[WRONG]).status is Status.FAIL
    assert decide(WRONG, flakes=LISTED_FOR_CRASH, reruns=[PASS]).status is Status.FLAKE


def test_crash_in_a_case_listed_for_crashes_is_a_flake():
    out = decide(CRASH, flakes=LISTED_FOR_CRASH)
    assert (out.status, out.report, out.label) == (Status.FLAKE, Report.SKIPPED, "flake")
    assert out.message == "flake (listed in flakes.txt:3): crash: child process died: SIGSEGV"


def test_any_matching_entry_that_names_the_status_forgives_it():
    flakes = [("a.txt:1", frozenset({Status.CRASH})), ("b.txt:7", frozenset({Status.TIMEOUT, Status.CRASH}))]
    assert decide(HANG, flakes=flakes).message.startswith("flake (listed in b.txt:7): timeout")
    out = decide(WRONG, flakes=flakes)
    assert out.report is Report.FAILED
    assert out.message.endswith("(not a listed flake: a.txt:1 forgives only crash; "
                                "b.txt:7 forgives only timeout,crash)")
    # Against a baseline: the listed status is a flake, the baseline's is an expected failure.
    assert decide(CRASH, expected=Status.FAIL, flakes=LISTED_FOR_CRASH).status is Status.FLAKE
    assert decide(WRONG, expected=Status.FAIL, flakes=LISTED_FOR_CRASH).report is Report.SKIPPED


def test_load_flakes_reads_statuses_and_comments(tmp_path):
    path = tmp_path / "flakes.txt"
    path.write_text("# evidence first\n"
                    "^tess/seq/.*/delete[0-9]+\\[zink\\]$  crash,timeout  # 21/360 runs (5.8%), 2026-11-23\n"
                    "\n"
                    "draw_params/.*#x\\[llvmpipe\\]\tfail\n")
    flakes = baseline.load_flakes([path])
    assert [(regex.pattern, statuses, where) for regex, statuses, where in flakes] == [
        ("^tess/seq/.*/delete[0-9]+\\[zink\\]$", {Status.CRASH, Status.TIMEOUT}, f"{path}:2"),
        ("draw_params/.*#x\\[llvmpipe\\]", {Status.FAIL}, f"{path}:4")]
    assert baseline.matching_flakes(flakes, "tess/seq/a/delete12", "zink") == \
        [(f"{path}:2", {Status.CRASH, Status.TIMEOUT})]
    assert baseline.matching_flakes(flakes, "tess/seq/a/delete12", "llvmpipe") == []


@pytest.mark.parametrize("line, words", [
    ("^tess/seq/.*/delete[0-9]+\\[zink\\]$", "names no status it forgives"),
    ("^tess/seq/.*\\[zink\\]$  # 21/360 runs", "names no status it forgives"),
    ("^tess/seq/.*\\[zink\\]$  crash, timeout", "no spaces in REGEX or between statuses"),
    ("^tess/seq/.*\\[zink\\]$  Crash", "'Crash' is no status a flakes entry forgives"),
    ("^tess/seq/.*\\[zink\\]$  error", "'error' is no status a flakes entry forgives"),
    ("^tess/seq/.*\\[zink\\]$  flake", "'flake' is no status a flakes entry forgives"),
    ("([unclosed  crash", "bad regular expression"),
])
def test_malformed_entry_is_one_line_naming_file_and_line(tmp_path, line, words):
    path = tmp_path / "flakes.txt"
    path.write_text(f"# a comment\n{line}\n")
    with pytest.raises(baseline.BaselineError) as info:
        baseline.load_flakes([path])
    message = str(info.value)
    assert message.startswith(f"{path}:2: ") and words in message and "\n" not in message


def test_the_projects_flakes_files_name_the_statuses_their_evidence_shows():
    files = sorted((ROOT / "baselines").glob("*-flakes.txt"))
    assert files
    entries = {path.name: {pattern.pattern: statuses for pattern, statuses, _ in baseline.load_flakes([path])}
               for path in files}

    def statuses(name: str, case_key: str) -> set[Status]:
        return {s for pattern, listed in entries[name].items() if re.search(pattern, case_key) for s in listed}
    # 25.0.7: zink's delete cases crash (SIGSEGV) or read zeros; 26.1.6: they crash or hang.
    delete = "tess/seq/quads/fractional_odd/shared-tes-x3/delete2[zink]"
    assert statuses("mesa-25.0.7-2~bpo12+1-flakes.txt", delete) == {Status.CRASH, Status.FAIL}
    assert statuses("mesa-26.1.6-1~bpo13+1-flakes.txt", delete) == {Status.CRASH, Status.TIMEOUT}
    # the polygon index-type switch after the quad strip's: a wrong flat id, never a crash
    switch = "primitives/polygon/pv-last/elements-ushort-then-ubyte/restart-fixed-index[zink]"
    for name in ("mesa-25.0.7-2~bpo12+1-flakes.txt", "mesa-26.1.6-1~bpo13+1-flakes.txt"):
        assert statuses(name, switch) == {Status.FAIL}


def test_flakes_file_end_to_end(tmp_path):
    """On fault-llvmpipe with a flakes file listing two cases for crash: the one that crashes is
    a flake, the one with a wrong value (a GL error) fails the run as `fail`."""
    ids = pick(3)
    tree = tree_with(tmp_path, ids)
    crashing, wrong, clean = ids
    (tree / "flakes.txt").write_text("# both listed for their crashes\n"
                                     f"^({crashing}|{wrong})\\[fault-llvmpipe\\]$  crash  # 1/1 runs, test\n")
    proc = run(tree, "-p", "no:xdist", "--flakes", "flakes.txt", "--flake-retries", "1",
               faults={crashing: "segv", wrong: "gl-error"})
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, out[-3000:] + err[-3000:]
    entries = {e.id: e for e in results.read(tree / "results")}
    assert entries[crashing].status == "flake"
    assert entries[crashing].message.startswith("flake (listed in flakes.txt:2): crash: ")
    assert entries[wrong].status == "fail", entries[wrong]
    assert "GL error GL_INVALID_ENUM" in entries[wrong].message
    assert "not a listed flake: flakes.txt:2 forgives only crash" in entries[wrong].message
    assert entries[clean].status == "pass"

    (tree / "old.txt").write_text("# the old format: a regex alone\n^tess/seq/.*\\[zink\\]$\n")
    old = run(tree, "-p", "no:xdist", "--flakes", "old.txt")
    out, err = old.communicate(timeout=300)
    assert old.returncode == 2, out[-3000:] + err[-3000:]
    (line,) = err.strip().splitlines()
    assert "old.txt:2: flakes entry names no status it forgives" in line
