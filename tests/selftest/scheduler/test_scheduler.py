"""The one scheduler (harness/scheduler/): `--jobs N|auto` and xdist's `-n` give one layout of
processes x executor children, whatever the front end. The rule on its own, then real pytest runs
on llvmpipe: a run of more than one process is split and merged into one results folder (pytest
`-n 2`, `--jobs 2`, plain pytest under auto), a narrowed run or `-n 0` stays in one process, and
every way gives the same verdicts."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _pytest.config import get_config

from conftest import ROOT
from harness.pytest_adapter.fanout import without_jobs as _without_jobs
from harness.run import sharding
from harness.scheduler import layout, processes
from harness.scheduler.layout import Layout

SELECTION = ["tests/draw_params", "--target", "llvmpipe", "--case", "draw_params/DrawArraysInstanced/f0c4i1/glsl450/vs",
             "--case", "draw_params/DrawArraysInstanced/f0c4i3/glsl450/vs",
             "--case", "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450/vs"]
CI_CLEAN = {k: v for k, v in os.environ.items() if k not in ("CI_NODE_INDEX", "CI_NODE_TOTAL")}


@pytest.mark.parametrize("jobs, cores, one_process, expected", [
    ("auto", 1, False, Layout(1, 1)), ("auto", 2, False, Layout(2, 1)), ("auto", 16, False, Layout(8, 1)),
    (3, 2, False, Layout(3, 1)), (1, 16, False, Layout(1, 1)),
    ("auto", 2, True, Layout(1, 2)), ("auto", 16, True, Layout(1, 4)), (3, 16, True, Layout(1, 3))])
def test_the_layout_rule(jobs, cores, one_process, expected):
    assert layout.choose(jobs, cores, one_process) == expected


@pytest.mark.parametrize("word, cores, expected", [
    ("auto", 1, 2), ("auto", 2, 3), ("auto", 16, layout.MAX_CHILDREN), (None, 3, 4), ("3", 16, 3), ("8", 2, 8)])
def test_exploration_has_the_children_of_a_run_kept_in_one_process(word, cores, expected):
    assert layout.children(word, cores) == expected


def test_slots_count_every_child_of_the_run():
    assert Layout(3, 2).slots == 6


@pytest.mark.parametrize("word", ["0", "-1", "x", "2.5"])
def test_a_bad_jobs_value_is_one_clear_error(word):
    with pytest.raises(layout.JobsError, match=f"'{word}': the number of cases in flight is a positive integer"):
        layout.parse(word)


def test_the_processes_get_the_arguments_less_the_schedulers_own():
    assert _without_jobs(["-n", "2", "tests/tess", "-nauto", "--jobs", "3", "--jobs=4", "--numprocesses=2",
                          "-k", "quads"]) == ["tests/tess", "-k", "quads"]


@pytest.mark.parametrize("given, capture", [([], "sys"), (["-s"], "no"), (["-vs"], "no"), (["--capture=fd"], "fd"),
                                             (["--capture", "tee-sys"], "tee-sys")])
def test_a_process_captures_at_sys_unless_told_otherwise(given, capture, tmp_path):
    """pytest's own parser reads the process's command: no file-descriptor swap around every phase
    of every item, unless the run's own options ask for a capture mode."""
    cmd = processes._command(["tests/tess", *given], sharding.Shard(1, 2), tmp_path)
    args = cmd[cmd.index("pytest") + 1:]
    options = get_config()._parser.parse_known_args(args)      # pytest's built-in options, as pytest reads them
    assert options.capture == capture


@pytest.mark.parametrize("args, values, rest", [
    (["tests/tess", "-k", "not quads", "--baseline", "none", "--baseline=a.csv", "x.py::t", "-p", "no:x"],
     {"baseline": ["none", "a.csv"]}, ["tests/tess", "-k", "not quads", "x.py::t", "-p", "no:x"]),
    (["-k=--x", "--results-dir=r", "--results-dir", "s", "-vv", "--mesa", "m"],      # repeated: every value, in order
     {"results_dir": ["r", "s"], "mesa": ["m"]}, ["-k=--x", "-vv"]),
    (["-k", "--baseline-like", "--junit-xml=j.xml", "--junitxml", "k.xml", "--shard=1/2"],
     {"junitxml": ["j.xml", "k.xml"], "shard": ["1/2"]}, ["-k", "--baseline-like"]),    # no abbreviations
    (["--flakes=", "a", "--", "--baseline", "b"], {"flakes": [""]}, ["a", "--", "--baseline", "b"]),  # after --: paths
    (["--resume", "-x"], None, "--resume needs a value"),
])
def test_the_scheduler_reads_its_options_as_pytest_does_and_keeps_the_rest_in_order(args, values, rest):
    from harness.base.args import ArgsError, taken
    from harness.scheduler.processes import SCHEDULED
    if values is None:
        with pytest.raises(ArgsError, match=rest):
            taken(args, SCHEDULED)
        return
    found, left = taken(args, SCHEDULED)
    assert left == rest and {name: found[name] for name in found if found[name]} == values


@pytest.mark.parametrize("arg", [["-n", "2"], ["-n4"], ["-nauto"], ["--numprocesses=2"], ["--dist", "load"],
                                 ["--shuffle=1"], ["--jobs", "2"], ["--in-process"]])
def test_a_split_run_refuses_the_options_the_scheduler_sets(arg):
    from harness.scheduler.processes import ParallelError, scheduled
    with pytest.raises(ParallelError, match="`parallel` chooses the shards itself"):
        scheduled(["tests/tess", *arg])


def _pytest(tmp_path, name, *args):
    folder = tmp_path / name
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *SELECTION, *args,
                           "--results-dir", str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=CI_CLEAN)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    entries = json.loads((folder / "results.json").read_text())["results"]
    return proc.stdout, {(e["id"], e["target"]): e["status"] for e in entries}


def test_every_front_end_runs_through_the_scheduler_with_the_same_verdicts(tmp_path):
    split = {}
    for name, args in {"n2": ["-n", "2"], "jobs2": ["--jobs", "2"]}.items():
        out, split[name] = _pytest(tmp_path, name, *args)
        assert "3 results from 2 processes" in out, out           # split and merged
        assert (tmp_path / name / "shards" / "2" / "pytest.log").exists()
    out, one = _pytest(tmp_path, "n0", "-n", "0")
    assert "passed" in out and "processes" not in out                # pytest's own summary: one process
    assert not (tmp_path / "n0" / "shards").exists()
    assert split["n2"] == split["jobs2"] == one and len(one) == 3 and set(one.values()) == {"pass"}


def test_a_listing_is_one_process_under_auto():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/draw_params", "--target",
                           "llvmpipe", "--collect-only", "-q"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=CI_CLEAN)
    assert proc.returncode == 0 and "tests collected" in proc.stdout and "processes" not in proc.stdout, proc.stdout
