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

from harness.backends import version_refusal
from harness.base import config
from harness.run import core
from harness.base.config import RunSettings
from harness.executor.settings import settings as run_settings
from harness.executor.batch import Batched
from harness.executor.executor import not_under_test
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

    def __init__(self, runner: core.Runner, message: str):
        self.runner, self.message = runner, message

    def run(self, case: Case) -> Result:
        return Result(Reply.SKIP, self.message)

    def info(self) -> Result:
        return self.runner.info()

    def close(self) -> None:
        pass


@contextlib.contextmanager
def driver(target: str, settings: RunSettings = TRIAGE, seed: int = 0):
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

        facts = core.facts_of(runner)

        def judged(case: Case, by: core.Runner) -> Verdict:
            refused = refusal(case, facts)
            record = core.run_case(case, target, _Answered(by, refused) if refused else by, rules)
            return Verdict(record.status, record.message)

        def run(case: Case) -> Verdict:
            return judged(case, runner)

        def alone(case: Case) -> Verdict:
            return judged(case, runner.alone if isinstance(runner, Batched) else runner)

        def send(case: Case) -> bool:
            """Queue a case in a child ahead of `run` (search.explore), unless it is answered here
            (False)."""
            if refusal(case, facts):
                return False
            if isinstance(runner, Batched):     # a pass the audit picks: its alone run beside the batch
                runner.send(case, alone_too=rules.audits(case.id))
            else:
                runner.send(case)
            return True
        run.facts = facts
        run.alone = alone
        run.send = send
        run.children = settings.children
        yield run
