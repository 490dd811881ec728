"""How the terminal names a case's outcome (a pytest plugin, loaded by harness.pytest_adapter.plugin).

pytest knows passed, skipped and failed. A crash, a timeout, a harness error and an unexpected
pass are failures that say more than "failed"; a flake and an expected failure are reported as
skipped (JUnit must show them so) but are not skips. Each gets its own letter and word; the
failures stay in pytest's "failed" category, so its failure sections and summary still list
them, and a line after the summary counts them by kind.
"""
from __future__ import annotations

from collections import Counter

import pytest

from harness.model import ids
from harness.model.outcome import FAILURE_KINDS, Judged
from harness.model.status import KNOWN, LOOKS, Status

OUTCOME_ATTRIBUTE = "harness_outcome"      # on a case's call report: its Outcome.label (a plain string)

# Outcome.label -> (letter, word); labels not here (pass, skip, fail) keep pytest's own. A status's
# letter is its glyph (harness/model/status.py's LOOKS), an expected failure's KNOWN's.
NAMES = {**{status.value: (LOOKS[status].glyph, word) for status, word in (
             (Status.CRASH, "CRASH"), (Status.TIMEOUT, "TIMEOUT"), (Status.ERROR, "HARNESS ERROR"),
             (Status.FLAKE, "FLAKE"), (Status.ORDER_DEPENDENT, "ORDER-DEPENDENT"))},
         Judged.UNEXPECTED_PASS.value: ("U", "UNEXPECTED PASS"),
         Judged.UNEXPECTED_IMPROVEMENT.value: ("I", "UNEXPECTED IMPROVEMENT"),
         Judged.EXPECTED_FAIL.value: (LOOKS[KNOWN].glyph, "EXPECTED FAIL")}


def worker_crash(report: pytest.TestReport | pytest.CollectReport) -> tuple[str, str] | None:
    """(case id, target) of the case an xdist worker died in (kill -9, OOM): xdist reports it
    with its node id only, in a phase named '???'."""
    if report.failed and getattr(report, "when", None) not in ("setup", "call", "teardown") \
            and "case_id" not in dict(getattr(report, "user_properties", ())):
        return ids.from_nodeid(report.nodeid)
    return None


def _label(report: pytest.TestReport | pytest.CollectReport) -> str | None:
    return getattr(report, OUTCOME_ATTRIBUTE, None) or (Status.CRASH.value if worker_crash(report) else None)


def pytest_report_teststatus(report: pytest.TestReport | pytest.CollectReport,
                             config: pytest.Config) -> tuple[str, str, str] | None:
    label = _label(report)
    if label not in NAMES or report.when not in ("call", "???"):
        return None
    letter, word = NAMES[label]
    return ("failed" if report.failed else label), letter, word


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    kinds = Counter(_label(report) for report in terminalreporter.stats.get("failed", []))
    named = [f"{kinds[label]} {label}" for label in FAILURE_KINDS if kinds.get(label)]
    if named:
        terminalreporter.write_line(f"harness: the failures include {', '.join(named)}")
