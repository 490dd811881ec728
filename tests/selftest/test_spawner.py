"""Children forked from a spawner (harness/spawner.py) start as a new process would: one thread
and no driver state in the spawner at the fork, the same facts and libraries in the child."""
from __future__ import annotations

import os

import pytest

from harness.executor import Executor
from harness.status import Reply
from harness.targets import get


@pytest.mark.parametrize("target", ["llvmpipe", "lavapipe"])
def test_the_spawner_forks_with_one_thread_and_no_driver_loaded(target):
    executor = Executor(get(target), fork=True)
    try:
        assert executor.info().status is Reply.OK, executor.info().message
        spawner = executor._spawner._proc.pid
        assert os.listdir(f"/proc/{spawner}/task") == [str(spawner)]        # no thread to lose in a fork
        maps = open(f"/proc/{spawner}/maps").read()
        for driver in ("swrast", "libgallium", "libvulkan_lvp", "libEGL_mesa"):
            assert driver not in maps, f"the spawner has {driver} mapped before any fork"
    finally:
        executor.close()


def test_a_forked_child_reports_what_a_started_one_does():
    facts = {}
    for fork in (False, True):
        executor = Executor(get("llvmpipe"), fork=fork)
        try:
            info = executor.info()
            assert info.status is Reply.OK, info.message
            facts[fork] = info.observation
            pid = executor.pid
        finally:
            executor.close()
        assert not os.path.exists(f"/proc/{pid}")                          # reaped on close
    assert facts[True] == facts[False]
