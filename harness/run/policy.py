"""The run policy: what a case's verdict means for the run, given its baseline line, whether a
flakes file lists it, and its re-runs. No pytest and no I/O here: the run core runs the case and
calls `decide`, whose Outcome (harness/model/outcome.py) and message make the case's Record.

- A failing verdict (Status.is_failure) is re-run; the first re-run that passes makes it a
  flake (where a re-run runs is the run core's: core.rerunner). Else a flakes-file entry
  matching the case makes it a flake, if the entry names its status (a case listed for its
  crashes that fails with a wrong value is a `fail`, the message saying which entry did not
  forgive it). A flake does not fail the run.
- A verdict the baseline expects (same status) is an expected failure: reported as skipped,
  the reason saying so. A pass of a case the baseline lists is an unexpected pass, and a failure
  less severe than the one listed (fail where it lists Crash) an unexpected improvement, as
  deqp-runner's UnexpectedImprovement(Pass|Fail): the run fails so that the baseline gets
  updated. Any other failure fails the run, naming the baseline line.
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Collection, Iterable, Sequence

from harness.model.outcome import Judged, Outcome
from harness.model.status import Status, Verdict


@dataclass(frozen=True)
class Expectation:
    """A baseline line: the failing statuses it expects, its status as written, and where it is
    written ('file:line'). `ExpectedFail` (how deqp-runner's results.csv, and so ours, writes an
    expected failure whatever its status) expects any failure the driver is blamed for."""
    statuses: frozenset[Status]
    name: str
    where: str = ""

    @classmethod
    def of(cls, status: Status, where: str = "") -> "Expectation":
        return cls(frozenset({status}), status.baseline_name or status.value, where)


def first_line(message: str) -> str:
    return message.splitlines()[0] if message else ""


Flakes = Sequence[tuple[str, Collection[Status]]]


_FLAKE = re.compile(r"flake(?: \(listed in [^)]*\))?: (\S+?)(?::| first)")


def flake_status(message: str) -> Status | None:
    """The status a flake's failing try had, from its message as with_flakes writes it."""
    match = _FLAKE.match(message)
    try:
        return Status(match[1]) if match else None
    except ValueError:
        return None


def with_flakes(verdict: Verdict, reruns: Iterable[Verdict], flakes: Flakes, rerun_where: str = "") -> Verdict:
    """The verdict after the flake rules. `reruns` is consumed lazily and only for a failure,
    up to its first pass (the plugin's re-runs happen as it is iterated); `flakes` holds
    (where, statuses) of each flakes-file entry matching the case: where it is written
    ('file:line') and the statuses it forgives; `rerun_where`: where the re-runs ran, for the
    message (' in a new process')."""
    if not verdict.status.is_failure():
        return verdict
    for attempt, again in enumerate(reruns, 1):
        if again.status is Status.PASS:
            return Verdict(Status.FLAKE, f"flake: {verdict.status} first, passed on re-run {attempt}{rerun_where}: "
                                         f"{first_line(verdict.message)}")
    listed = next((where for where, statuses in flakes if verdict.status in statuses), None)
    if listed:
        return Verdict(Status.FLAKE, f"flake (listed in {listed}): {verdict.status}: {first_line(verdict.message)}")
    if flakes:
        note = "; ".join(f"{where} forgives only {','.join(sorted(statuses))}" for where, statuses in flakes)
        return Verdict(verdict.status, f"{verdict.message}\n(not a listed flake: {note})")
    return verdict


def decide(verdict: Verdict, expected: Expectation | Status | None = None, flakes: Flakes = (),
           reruns: Iterable[Verdict] = (), rerun_where: str = "") -> tuple[Outcome, str]:
    """The outcome (the status after the flake rules, judged by the baseline: Outcome.judge) and
    its message: the skip reason or failure text, '' for a pass. `expected`: the case's baseline
    line (or the one status it names), or None; `flakes`, `rerun_where`: see with_flakes."""
    if isinstance(expected, Status):
        expected = Expectation.of(expected)
    verdict = with_flakes(verdict, reruns, flakes, rerun_where)
    status, message = verdict.status, verdict.message
    outcome = Outcome.judge(status, expected.statuses if expected is not None else None)
    listed = expected.name if expected is not None else ""
    if outcome.judged is Judged.EXPECTED_FAIL:
        return outcome, f"expected {listed} (baseline): {first_line(message)}"
    if outcome.judged is Judged.UNEXPECTED_PASS:
        return outcome, f"unexpected pass: the baseline expects {listed}; update the baseline"
    if outcome.judged is Judged.UNEXPECTED_IMPROVEMENT:
        return outcome, (f"unexpected improvement: {status}, the baseline expects {listed}; "
                         f"update the baseline: {first_line(message)}")
    if status is Status.PASS:
        return outcome, ""
    if not status.is_failure():                  # skip, flake, order-dependent
        return outcome, message
    note = f"\n(the baseline expects {listed})" if expected is not None else ""
    return outcome, f"{status}: {message}{note}"
