"""A scheduler's process runs each case item through a shorter protocol than pytest's.

pytest's own protocol (_pytest/runner.py) runs three phases an item, setup, call and teardown,
each a hook call through every plugin that wraps it (capture, logging, skipping, the unraisable
and thread exception checks, the PYTEST_CURRENT_TEST variable), each with its own report made
and logged. A case item has nothing to set up or tear down: `CaseItem.runtest` is the case. A
process of the scheduler (harness/scheduler/processes.py: `--in-process` with `--shard`) is not
the user's terminal: its output is a log file, the run's JUnit and results come from its
results.json, and the pytest process that started it prints the run's summary. There an item
runs as one call, whose report goes through pytest's reporting hooks as a call report does
(the results writer, the terminal's counts, `-x` and `--maxfail`), and the wrappers of the whole
protocol (warnings, faulthandler) still wrap it.

Items that need pytest's phases keep them: anything but a case item, and a case item with a
skip, skipif or xfail mark (pytest's skipping plugin reads those in the setup phase). A case item
is not a test function: it has no fixtures to set up.
"""
from __future__ import annotations

from typing import TypeGuard

import pytest

from harness.base import profiling
from harness.pytest_adapter import state as state_mod
from harness.pytest_adapter.items import CaseItem

PHASED_MARKS = frozenset({"skip", "skipif", "xfail"})


def applies(item: pytest.Item) -> TypeGuard[CaseItem]:
    """Whether `item` runs through `run` in this process."""
    return (isinstance(item, CaseItem) and state_mod.of(item.config).scheduled
            and not any(mark.name in PHASED_MARKS for mark in item.iter_markers()))


def run(item: CaseItem, nextitem: pytest.Item | None) -> None:
    """The item's case run and reported as pytest's call phase would report it; the collectors
    above it torn down as far as `nextitem` needs (an item run by pytest's protocol before or
    after this one finds them as it expects)."""
    hooks = item.ihook
    hooks.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    with profiling.section("call"):            # as pytest's call phase is timed (harness/base/profiling.py)
        call = pytest.CallInfo.from_call(item.runtest, "call", reraise=(pytest.exit.Exception, KeyboardInterrupt))
    report = hooks.pytest_runtest_makereport(item=item, call=call)
    hooks.pytest_runtest_logreport(report=report)
    # pytest's private API, as its own pytest_runtest_teardown calls it: the public hook would run
    # every plugin's teardown wrapper for a setup that never ran (logging's deletes what its setup
    # stored: KeyError). pyproject bounds pytest to the majors test_lean.py checks this on.
    item.session._setupstate.teardown_exact(nextitem)
    hooks.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
