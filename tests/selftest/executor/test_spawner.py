"""Children forked from a spawner (harness/executor/spawner.py) start as a new process would: one thread
and no driver state in the spawner at the fork (its libraries loaded, none started), the same facts
and libraries in the child."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest
from conftest import fault_case, pinned_mesa
from faults import FAULT

from harness.executor.batch import Batched
from harness.executor.executor import Executor
from harness.executor import protocol
from harness.executor.spawner import SpawnerGone, shared_objects
from harness.executor.settings import DEFAULT
from harness.run.core import make_runner
from harness.model.status import Reply
from harness.sources import catalog
from harness.executor.targets import get
from harness.oracle.verdict import judge


DRIVERS = ("swrast", "libgallium", "libvulkan_lvp", "libEGL_mesa")


@pytest.mark.parametrize("target", ["llvmpipe", "lavapipe"])
def test_the_spawner_forks_with_one_thread_and_the_driver_loaded_not_started(target):
    """No driver before the first child has started one; then its shared objects, loaded (so
    that a fork need not load them again) with no thread started, and a fresh child forked after
    that reports what the first one did."""
    executor = Executor(get(target), fork=True, mesa=pinned_mesa())
    try:
        executor.prepare()
        spawner = executor._spawner
        assert not [p for p in shared_objects(_maps(spawner._proc.pid)) if any(d in p for d in DRIVERS)]
        first = executor.info()
        assert first.status is Reply.OK, first.message
        spawner.wait(executor.pid, 0.0)             # answered after the preload before it
        assert os.listdir(f"/proc/{spawner._proc.pid}/task") == [str(spawner._proc.pid)]
        driver = [p for p in shared_objects(_maps(executor.pid)) if any(d in p for d in DRIVERS)]
        assert driver and set(driver) <= set(shared_objects(_maps(spawner._proc.pid)))
        executor._kill()
        again = executor._request(protocol.Request("info"), 60.0)
        assert again.status is Reply.OK and again.info == first.info
    finally:
        executor.close()


def _maps(pid: int) -> str:
    return open(f"/proc/{pid}/maps").read()


def test_shared_objects_are_read_from_maps_by_path_once():
    maps = ("7f00-7f01 r--p 00000000 08:01 12 /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1\n"
            "7f01-7f02 r-xp 00001000 08:01 12 /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1\n"
            "7f02-7f03 r--p 00000000 08:01 13 /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so\n"
            "7f03-7f04 rw-p 00000000 00:00 0 \n"
            "7f04-7f05 r--s 00000000 08:01 14 /root/.cache/mesa_shader_cache/index\n"
            "7f05-7f06 r--p 00000000 00:00 0 [vdso]\n"
            "7f06-7f07 r--p 00000000 08:01 15 /tmp/libx.so.1 (deleted)\n")
    assert shared_objects(maps) == ["/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1",
                                    "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"]


def test_a_spawner_that_finds_a_thread_after_loading_ends_and_says_why():
    """A fork keeps only the forking thread: a spawner with a second one must not fork."""
    code = ("import os, threading, time\n"
            "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
            "from harness.executor.spawner import load_mapped\n"
            "load_mapped(os.getpid())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3 and "2 threads after loading the driver's libraries" in done.stderr


def test_a_forked_child_reports_what_a_started_one_does():
    facts = {}
    for fork in (False, True):
        executor = Executor(get("llvmpipe"), fork=fork, mesa=pinned_mesa())
        try:
            info = executor.info()
            assert info.status is Reply.OK, info.message
            facts[fork] = info.info
            pid = executor.pid
        finally:
            executor.close()
        assert not os.path.exists(f"/proc/{pid}")                          # reaped on close
    assert facts[True] == facts[False]


def test_a_child_whose_spawner_died_still_ends_and_the_next_one_starts():
    """The spawner killed (say, by the OOM killer): the child it forked is ended rather than
    left behind, and the executor starts the next child directly."""
    executor = Executor(FAULT, case_timeout=5.0, fork=True)
    try:
        case = fault_case("none", value=3, expected=3)
        assert judge(case, executor.run(case), "fault").status == "pass"
        child = executor.pid
        os.kill(executor._spawner._proc.pid, 9)
        executor._spawner._proc.wait()
        executor._kill()                                  # as after a timeout
        assert _ends(child)
        assert judge(case, executor.run(case), "fault").status == "pass"
    finally:
        executor.close()


def _ends(pid: int, within: float = 5.0) -> bool:
    """Whether the process is gone (or a zombie) within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_a_targets_executors_in_one_process_fork_from_one_spawner():
    """A batched target's group and its alone executor (core.make_runner) share the group's
    spawner: one spawner process, not one an executor; closing the runner ends it and every
    child, and a borrower whose lender has closed starts its own."""
    settings = replace(DEFAULT, fork=True, batch=4, children=1, mesa=pinned_mesa())
    runner = make_runner(settings, "llvmpipe")
    try:
        drawn = next(c for c in catalog.cases("draw_params") if c.id.startswith("draw_params/DrawArrays"))
        assert isinstance(runner, Batched)
        assert judge(drawn, runner.run(drawn), "llvmpipe").status == "pass"
        assert judge(drawn, runner.run_alone(drawn), "llvmpipe").status == "pass"
        owner, alone = runner._group._members[0], runner.alone
        assert alone._spawner is owner._spawner and alone._borrowed and not owner._borrowed
        spawner, children = owner._spawner._proc.pid, (owner.pid, alone.pid)
    finally:
        runner.close()
    assert _ends(spawner) and all(_ends(child) for child in children)
    case = fault_case("none", value=3, expected=3)
    lender, borrower = Executor(FAULT, fork=True, case_timeout=5.0), None
    try:
        lender.prepare()
        borrower = Executor(FAULT, fork=True, case_timeout=5.0, forks_from=lender)
        lender.close()
        assert judge(case, borrower.run(case), "fault").status == "pass"
        assert not borrower._borrowed and borrower._spawner is not None
    finally:
        if borrower is not None:
            borrower.close()


def test_a_fork_is_asked_for_without_waiting_for_the_spawner():
    """The child's pipes exist before it does: a fork returns while the spawner has not run
    (stopped here), the child's first request is written at once, and its pid and reply come
    once the spawner has forked it."""
    executor = Executor(FAULT, fork=True, case_timeout=5.0)
    try:
        assert executor.info().status is Reply.OK
        spawner = executor._spawner
        os.kill(spawner._proc.pid, signal.SIGSTOP)
        try:
            asked: list = []
            thread = threading.Thread(target=lambda: asked.append(spawner.fork(2)), daemon=True)
            thread.start()
            thread.join(10.0)
            assert asked and not thread.is_alive(), "fork waited for a stopped spawner"
            forked = asked[0]
            protocol.send_request(forked.stdin.fileno(), protocol.Request("info"))
        finally:
            os.kill(spawner._proc.pid, signal.SIGCONT)
        assert forked.pid > 0 and protocol.recv(forked.stdout.fileno(), 30.0)[0]["status"] == Reply.OK
        forked.stdin.close()
        assert forked.wait(10.0) == 0
        forked.stdout.close()
    finally:
        executor.close()


def test_a_fork_the_spawner_never_answered_has_no_pid_and_is_not_killed_blindly():
    """The spawner killed before it answered a fork: the fork has no pid (SpawnerGone, never a
    signal to a pid it does not know), counts as killed, and the executor's next child starts
    directly and answers its case."""
    executor = Executor(FAULT, fork=True, case_timeout=5.0)
    try:
        assert executor.info().status is Reply.OK
        spawner = executor._spawner
        os.kill(spawner._proc.pid, signal.SIGSTOP)
        forked = spawner.fork(2)
        os.kill(spawner._proc.pid, signal.SIGKILL)
        spawner._proc.wait()
        with pytest.raises(SpawnerGone):
            assert forked.pid is None, "a pid for a fork never answered"
        forked.kill()
        assert forked.poll() == -signal.SIGKILL and forked.unforked
        forked.stdin.close()
        forked.stdout.close()
        executor._kill()
        case = fault_case("none", value=3, expected=3)
        assert judge(case, executor.run(case), "fault").status == "pass"
    finally:
        executor.close()


def test_a_spawner_that_ends_before_forking_a_fresh_child_is_an_error_not_a_crash():
    """The spawner killed with a fresh child's fork unanswered: the cases queued in that child
    get the harness's error (the driver never ran them), and the next case starts directly."""
    executor = Executor(FAULT, fork=True, case_timeout=5.0)
    try:
        assert executor.info().status is Reply.OK
        spawner = executor._spawner
        executor._kill()
        executor._ended.close()                     # reaped now: nothing asks the spawner below
        os.kill(spawner._proc.pid, signal.SIGSTOP)
        case = fault_case("none", value=3, expected=3)
        executor.send(case)                         # a fresh child: its fork asked, not answered
        os.kill(spawner._proc.pid, signal.SIGKILL)
        spawner._proc.wait()
        result = executor.run(case)
        assert result.status is Reply.ERROR and "spawner ended before it forked" in result.message
        assert judge(case, executor.run(case), "fault").status == "pass"
    finally:
        executor.close()
