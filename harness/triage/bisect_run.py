"""`git bisect run` driver: run named cases on one target; 0 all pass, 1 any fails, times out
or crashes (Status.blames_driver), 125 the target cannot start or a case gives no verdict on
the driver: a skip, or an `error` (a harness fault says nothing of the commit, so git bisect
skips it rather than calling it bad). An unknown id raises catalog.NoSuchCase (the caller
exits 128, which stops `git bisect run`). Cases run through the run core, with its flake
re-runs where asked: a case that fails once and then passes is a flake, not a bad commit.

An intermittent failure is bisected with `runs` > 1 (harness/triage/mesa_bisect.py's
runs_per_step): each case runs that many times and any failing run makes the commit bad, a
flake included (a retry's pass or a flakes file forgives exactly the failure looked for).

When one failure turns into another, `failure` (a regular expression, the command's --failure)
bisects the change: a case is bad only when it fails with a message the expression matches
(searched anywhere in it, not only its first line), a wrong value without it counts as good, the
old state, and a crash or timeout without it as untestable (125: it hides which state it is).
Where the old state is a crash (`old` "crash", --old crash: a crash that became a wrong value),
a crash without the expression is good and a wrong value or timeout without it untestable."""
from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Callable

from harness.base.errors import UsageError
from harness.sources import catalog
from harness.run import core
from harness.executor.settings import settings as run_settings
from harness.model.case import Case
from harness.model.outcome import Record
from harness.model.status import Status
from harness.executor.probe import not_under_test
from harness.executor.targets import Target

GOOD, BAD, UNTESTABLE = 0, 1, 125


def repeat(run_once: Callable[[], int], runs: int) -> tuple[int, int]:
    """A step's verdict over up to RUNS runs of one test: the first run that is not GOOD decides it
    (BAD, or UNTESTABLE: no verdict), GOOD only when every run is. Returns (verdict, runs made)."""
    for made in range(1, runs + 1):
        code = run_once()
        if code != GOOD:
            return code, made
    return GOOD, runs


def verdict(status: Status, strict: bool = False) -> int:
    """A record's exit code for git bisect; STRICT (several runs a step): a flake is a failure."""
    if status.blames_driver() or (strict and status is Status.FLAKE):
        return BAD
    return GOOD if status in (Status.PASS, Status.FLAKE) else UNTESTABLE


OLD_STATES = {"fail": Status.FAIL, "crash": Status.CRASH}      # --old: the failure --failure's turned from


def _repeated(case: Case, target_name: str, runner: core.Runner, rules: core.Rules, runs: int,
              failure: re.Pattern[str] | None = None, old: str = "fail") -> tuple[int, int, Record]:
    """(verdict, runs made, the last run's record) of one case run up to RUNS times; with a
    FAILURE pattern, a failure whose message does not match it is GOOD where its status is the
    OLD state's (a wrong value, or a crash), any other UNTESTABLE."""
    records: list[Record] = []

    def once() -> int:
        records.append(core.run_case(case, target_name, runner, rules))
        code = verdict(records[-1].status, strict=runs > 1)
        if code == BAD and failure is not None and not failure.search(records[-1].message or ""):
            # the old state is good; another failure (a timeout, say) hides which state it is
            return GOOD if records[-1].status is OLD_STATES[old] else UNTESTABLE
        return code

    code, made = repeat(once, runs)
    return code, made, records[-1]


def pattern(text: str) -> re.Pattern[str] | None:
    """--failure's expression compiled (None when not given); a bad one is a UsageError, one line."""
    if not text:
        return None
    try:
        return re.compile(text)
    except re.error as e:
        raise UsageError(f"--failure {text!r} is not a regular expression: {e}") from None


def add_failure_argument(parser: argparse.ArgumentParser) -> None:
    """--failure and --old, bisect-run's and bisect's."""
    parser.add_argument("--failure", default="", metavar="REGEX",
                        help="bisect one failure turning into another: a case is bad only when its failure message "
                             "matches REGEX (searched anywhere in it); a wrong value without it counts as good, a "
                             "crash or timeout without it as untestable (skipped)")
    parser.add_argument("--old", default="fail", choices=sorted(OLD_STATES),
                        help="with --failure: the old state, the failure without REGEX that counts as good (default "
                             "fail, a wrong value; crash: a crash that turned into the failure), any other untestable")


def old_state(old: str, failure: str) -> str:
    """--old checked against --failure: a UsageError, one line, when it is given without it."""
    if old != "fail" and not failure:
        raise UsageError(f"--old {old} needs --failure: it names the state a failure turned from")
    return old


def _failure_line(message: str, failure: re.Pattern[str] | None) -> str:
    """The message's line that matches FAILURE, else its first."""
    lines = message.splitlines()
    return next((line for line in lines if failure and failure.search(line)), lines[0] if lines else "")


def bisect_run(case_ids: list[str], target: Target, out: Callable[[str], object] = print,
               settings: core.RunSettings | None = None, shader_tests: Iterable[str | Path] = (), rules: core.Rules = core.Rules(), runs: int = 1,
               failure: re.Pattern[str] | None = None, old: str = "fail") -> int:
    cases = [catalog.find(case_id, shader_tests) for case_id in case_ids]
    settings = settings or run_settings()
    with core.runner(settings, target.name, children=1) as runner:
        why = not_under_test(target, runner.info(), settings.mesa)
        if why:                      # a build that loads another Mesa's driver says nothing of this one
            out(f"bisect-run: target {target.name} is not the build under test: {why}")
            return UNTESTABLE
        worst = GOOD
        for case in cases:
            code, made, record = _repeated(case, target.name, runner, rules, runs, failure, old)
            count = "" if runs == 1 else f" ({runs} runs)" if code == GOOD else f" (run {made} of {runs})"
            other = failure is not None and code != BAD and record.status.blames_driver()
            out(f"{case.id}[{target.name}]: {record.status}{count}"
                + (f" otherwise than --failure ({'good' if code == GOOD else 'untestable'})" if other else "")
                + (f": {_failure_line(record.message, failure)}" if record.message else ""))
            if code == BAD:
                worst = BAD
            elif code == UNTESTABLE and worst == GOOD:
                worst = UNTESTABLE
        return worst
