"""A child the executor is done with ends without being waited for (harness/executor/lifecycle.py):
its exit is collected later, a retired child that will not exit is killed after its grace, and
nothing is left a zombie or an open descriptor."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile

import pytest
from conftest import fault_case
from faults import FAULT

from harness.executor import lifecycle
from harness.executor.executor import Executor
from harness.executor.lifecycle import Child, Reaper


def _descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def _gone(pid: int) -> bool:
    """Reaped: no process, not even a zombie, has the pid (nothing else reuses it this quickly)."""
    return not os.path.exists(f"/proc/{pid}")


def _deleting(name: str):
    case = dataclasses.replace(fault_case("none", value=2, expected=2), id=f"selftest/lifecycle/{name}",
                               programs=((),))
    return dataclasses.replace(case, steps=(dataclasses.replace(case.steps[0], delete_programs=(1,)),))


@pytest.mark.parametrize("fork", [False, True], ids=["started", "forked"])
def test_retired_and_killed_children_are_reaped_and_leave_no_descriptor(fork):
    """Cases that are each the last in their child, and a crash: every child they used is gone
    after close (reaped, by this process or by the spawner), and this process holds the
    descriptors it held before."""
    before = _descriptors()
    executor = Executor(FAULT, case_timeout=5.0, fork=fork)
    pids = []
    try:
        for number in range(3):
            assert executor.run(_deleting(f"d{number}")).status == "ok"
            pids.append(executor._ended.ending[-1][0].pid if executor._ended.ending else None)
            assert executor.pid is None                      # retired without waiting for its exit
        assert executor.run(fault_case("segv")).status == "crash"
        assert executor.run(fault_case("none")).status == "ok"
        pids.append(executor.pid)
    finally:
        executor.close()
    assert all(_gone(pid) for pid in pids if pid is not None)
    assert not executor._ended.ending
    assert _descriptors() == before


def test_a_retired_child_that_does_not_exit_is_killed_after_its_grace(monkeypatch):
    """A child that ignores EOF (`sleep`) is killed once its grace has passed, on the next reap."""
    monkeypatch.setattr(lifecycle, "GRACE", 0.0)
    reaper = Reaper()
    proc = subprocess.Popen(["sleep", "30"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    reaper.end(Child(proc, tempfile.TemporaryFile()))
    assert proc.stdin.closed and proc.stdout.closed and reaper.ending
    reaper.reap()                                           # past its grace: killed
    reaper.close()
    assert proc.returncode == -9 and not reaper.ending and _gone(proc.pid)


def test_a_retired_child_that_exits_is_reaped_with_its_own_status():
    reaper = Reaper()
    proc = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    reaper.end(Child(proc, tempfile.TemporaryFile()))       # EOF on its stdin ends it
    reaper.close()
    assert proc.returncode == 0 and _gone(proc.pid)
