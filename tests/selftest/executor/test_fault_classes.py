"""The harness's own faults are `error` and bad input is a usage error, never the driver's `fail`
(harness/base/errors.py): what the child answers for each, and how a command line refuses bad
input before any case runs."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from types import SimpleNamespace

import pytest
from conftest import ROOT, fault_case

from harness.backends import registry
from harness.backends.gl import draws
from harness.backends.vk import program
from harness.base.errors import HarnessFault, UsageError
from harness.executor import child, protocol
from harness.executor.settings import resolve
from harness.model.status import Reply


class Faulty:
    """A backend whose run raises what it is given (pure logic: no driver is involved)."""

    def __init__(self, exc: Exception):
        self.exc = exc

    def run(self, case, **_):
        raise self.exc


def run_request(case):
    return protocol.Request("run", case)


def test_a_backend_that_did_not_start_answers_error_not_fail():
    reply = child.handle(child.Unusable("no EGL display"), run_request(fault_case("none")))
    assert reply.status is Reply.ERROR, reply
    assert "no EGL display" in reply.message


def test_a_harness_fault_is_error_even_under_an_address_space_budget():
    """Under a budget an unexpected exception is read as an allocation that failed (`fail`); a
    HarnessFault never is."""
    case = fault_case("none")
    budgeted = dataclasses.replace(case, requires=dataclasses.replace(case.requires, address_space=1 << 40))
    reply = child.handle(Faulty(draws.UnknownDraw("unknown draw command glNothing")), run_request(budgeted))
    assert reply.status is Reply.ERROR, reply
    assert "unknown draw command glNothing" in reply.message


def test_an_unknown_draw_command_is_the_harnesss_fault():
    with pytest.raises(HarnessFault, match="unknown draw command glMultiDrawNothing"):
        draws._multi(None, "MultiDrawNothing", 0, [], 0, 4)


def test_an_unregistered_backend_is_the_harnesss_fault():
    with pytest.raises(HarnessFault, match="backend 'nosuch' is not implemented"):
        registry.make(SimpleNamespace(target="nowhere", backend="nosuch"))


def test_an_unknown_vk_without_name_is_bad_input_named_with_the_known_ones():
    with pytest.raises(program.UnknownTranslation, match="unknown translation.s. nosuch; known: passthrough-tcs"):
        program.check_translations({"nosuch", "draw-id"})
    with pytest.raises(UsageError, match="nosuch"):
        resolve({"vk_without": "draw-id,nosuch"}, mesa=None)
    assert resolve({"vk_without": "draw-id"}, mesa=None).vk_without == ("draw-id",)


def test_an_unknown_vk_without_name_ends_the_run_in_one_line_before_any_case(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess", "--target",
                           "lavapipe", "--vk-without", "nosuch", "--results-dir", str(tmp_path / "r")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--vk-without: unknown translation(s) nosuch" in lines[0], proc.stderr
    assert not (tmp_path / "r").exists()                   # nothing ran, nothing written
