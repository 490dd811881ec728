"""The executor turns a child that crashes or hangs into a verdict for that case alone."""
from __future__ import annotations

import pytest
from conftest import fault_case

from harness.executor import Executor
from harness.targets import Target
from harness.verdict import judge

FAULT = Target("fault", "fault", (), "test-only fault injector")


@pytest.fixture
def executor():
    ex = Executor(FAULT, case_timeout=2.0)
    yield ex
    ex.close()


def verdict(executor, case):
    return judge(case, executor.run(case), "fault: fault injector")


@pytest.mark.parametrize("fault, words", [
    ("segv", "SIGSEGV"), ("abort", "SIGABRT"), ("exit", "exit status 3"),
])
def test_crash_is_that_case_only(executor, fault, words):
    assert verdict(executor, fault_case("none")).status == "pass"
    first_pid = executor.pid
    crashed = verdict(executor, fault_case(fault))
    assert crashed.status == "crash"
    assert words in crashed.message
    after = verdict(executor, fault_case("none"))
    assert after.status == "pass", after.message
    assert executor.pid != first_pid                 # a fresh child serves the next case


def test_hang_is_timeout_and_child_replaced(executor):
    hung = verdict(executor, fault_case("hang"))
    assert hung.status == "timeout"
    assert "2 s" in hung.message
    assert verdict(executor, fault_case("none")).status == "pass"


def test_crash_quotes_stderr_without_control_bytes(executor):
    crashed = verdict(executor, fault_case("garbage"))
    assert crashed.status == "crash" and "SIGSEGV" in crashed.message
    assert "driver says" in crashed.message and "not utf-8" in crashed.message
    assert "\x00" not in crashed.message and "\x1b" not in crashed.message


def test_wrong_value_fails_naming_quantity(executor):
    failed = verdict(executor, fault_case("none", value=5, expected=7))
    assert failed.status == "fail"
    assert "primitives_generated = 5, expected 7" in failed.message
    assert "fault injector" in failed.message


def test_unknown_backend_is_an_error_not_a_crash_loop():
    ex = Executor(Target("nowhere", "nosuch", (), "bad"), case_timeout=5)
    try:
        result = ex.run(fault_case("none"))
    finally:
        ex.close()
    assert result.status == "error"
    assert "did not start" in result.message and "nosuch" in result.message
