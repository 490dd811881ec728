"""Re-running a pytest run as N processes (harness/pytest_adapter/fanout.py): which layout the
options give, and what each process is handed."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.pytest_adapter import fanout
from harness.scheduler import layout as layout_mod


def _option(**given):
    return SimpleNamespace(**given)


@pytest.mark.parametrize("jobs, numprocesses, in_process, narrowing, args, expected", [
    (None, None, False, False, [], (1, 4)),             # pytest alone: this process, a child per core up to 4
    ("3", None, False, False, [], (3, 1)),              # --jobs 3: three processes
    (None, 2, False, False, [], (2, 1)),                # -n 2 reads as --jobs 2
    (None, "auto", False, False, [], (4, 1)),           # -n auto: one per two cores
    (None, 0, False, False, [], (1, 4)),                # -n 0: this process
    ("auto", None, False, True, [], (1, 4)),            # --case under auto: one process
    ("auto", None, False, False, ["tests/tess/cases.py::x"], (1, 4)),   # a node id
    ("3", None, True, False, [], (1, 3)),               # one of the scheduler's processes: children
])
def test_the_layout_of_the_options(jobs, numprocesses, in_process, narrowing, args, expected):
    option = _option(numprocesses=numprocesses)
    got = fanout.layout(option, args, jobs, in_process, narrowing, cores=8)
    assert (got.processes, got.children) == expected


def test_a_listing_and_a_narrowing_pytest_option_keep_one_process():
    assert fanout.layout(_option(collectonly=True), [], "4", False, False, cores=8).processes == 1
    assert fanout.layout(_option(exitfirst=True), [], "auto", False, False, cores=8).processes == 1
    assert fanout.layout(_option(exitfirst=True), [], "4", False, False, cores=8).processes == 4
    with pytest.raises(layout_mod.JobsError):
        fanout.layout(_option(), [], "0", False, False)


def test_each_process_gets_the_runs_arguments_less_the_schedulers_with_its_rootdir():
    args = fanout.process_args(["-n", "2", "tests/tess", "--jobs=3", "-k", "quads"], "/checkout")
    assert args == ["tests/tess", "-k", "quads", "--rootdir=/checkout"]
    assert fanout.process_args(["--rootdir=/x", "tests"], "/checkout") == ["--rootdir=/x", "tests"]
