"""Cases on a real target, through the run core (harness/run/core.py): the one way the harness runs
and judges a case, here with no baseline, no flake re-runs and no triage files, so that a
verdict is the driver's answer against the family's spec oracle and nothing else.

A case whose GL version the target's context lacks (draw_params' GLSL 4.60 on a GL 4.5 Mesa) is
answered here, from the facts the target's child reported at start (its info(): each profile's
version), with the skip the child's backend would give (harness/backends/__init__.py
version_refusal, the first thing check_requirements asks): it never goes to the child, and the
run core judges that answer as it would the child's."""
from __future__ import annotations

import contextlib
from typing import Iterator

from harness.backends import version_refusal
from harness.base import config
from harness.run import core
from harness.base.config import RunSettings
from harness.executor.settings import settings as run_settings
from harness.executor.batch import Batched
from harness.executor.executor import ExecutorGroup
from harness.executor.probe import not_under_test
from harness.executor import targets as targets_mod
from harness.model.case import Case
from harness.model.facts import Facts
from harness.model.status import Reply, Result, Verdict
from harness.base.errors import UsageError


# What a driver runs with where its caller gives no settings: a triage command's timeout.
TRIAGE = run_settings(case_timeout=config.TRIAGE_CASE_TIMEOUT)


class TargetUnavailable(UsageError, RuntimeError):
    pass


def refusal(case: Case, facts: Facts) -> str:
    """The skip message the target's child would answer `case` with before drawing anything,
    from its facts (core.facts_of) alone; '' where it would run it (or the facts do not say)."""
    profile = facts.profiles.get(case.requires.profile)
    if profile is None or not profile.version:
        return ""
    return version_refusal(case.requires, profile)


class _Answered:
    """A runner whose reply to one case is known without its child (refusal): the run core
    judges it, and asks the runner it wraps for the target's facts."""

    def __init__(self, runner: core.Runner, message: str) -> None:
        self.runner, self.message = runner, message

    def run(self, case: Case) -> Result:
        return Result(Reply.SKIP, self.message)

    def info(self) -> Result:
        return self.runner.info()

    def close(self) -> None:
        pass


class Driver:
    """A callable case -> Verdict for one target (see `driver`), with the target's `facts`, its
    `children`, `alone` (a case in a context of its own) and `send` (a case queued ahead)."""

    def __init__(self, runner: ExecutorGroup | Batched, target: str, facts: Facts, rules: core.Rules,
                 children: int) -> None:
        self.runner, self.target, self.facts, self.rules, self.children = runner, target, facts, rules, children

    def _judged(self, case: Case, by: core.Runner) -> Verdict:
        refused = refusal(case, self.facts)
        record = core.run_case(case, self.target, _Answered(by, refused) if refused else by, self.rules)
        return Verdict(record.status, record.message)

    def __call__(self, case: Case) -> Verdict:
        return self._judged(case, self.runner)

    def alone(self, case: Case) -> Verdict:
        return self._judged(case, self.runner.alone if isinstance(self.runner, Batched) else self.runner)

    def send(self, case: Case) -> bool:
        """Queue a case in a child ahead of `run` (search.explore), unless it is answered here
        (False)."""
        if refusal(case, self.facts):
            return False
        if isinstance(self.runner, Batched):     # a pass the audit picks: its alone run beside the batch
            self.runner.send(case, alone_too=self.rules.audits(case.id))
        else:
            self.runner.send(case)
        return True


@contextlib.contextmanager
def driver(target: str, settings: RunSettings = TRIAGE, seed: int = 0) -> Iterator[Driver]:
    """A callable case -> Verdict for one target run with `settings` (a command's: executor.settings
    resolve), its `settings.children` executor children alive for the block (`run.send` queues a case
    ahead in the one with the fewest pending; `run` takes a case's result from the child that holds it).
    `settings.batch` > 1: cases run batched (harness/executor/batch.py; failures confirmed alone, passes audited
    by `seed`); `run.alone` runs a case in a context of its own all the same (reduction)."""
    spec = targets_mod.get(target)
    if spec.unavailable:
        raise TargetUnavailable(f"target {target}: {spec.unavailable}")
    rules = core.Rules(audit_seed=seed)
    with core.runner(settings, target) as runner:
        why = not_under_test(spec, runner.info(), settings.mesa)
        if why:
            raise TargetUnavailable(f"target {target} is not the Mesa asked for: {why}")
        yield Driver(runner, target, core.facts_of(runner), rules, settings.children)
