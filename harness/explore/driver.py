"""Cases on a real target, through the run core (harness/run/core.py): the one way the harness runs
and judges a case, here with no baseline, no flake re-runs and no triage files, so that a
verdict is the driver's answer against the family's spec oracle and nothing else."""
from __future__ import annotations

import contextlib

from harness.base import config
from harness.run import core
from harness.base.config import RunSettings
from harness.executor.settings import settings as run_settings
from harness.executor.batch import Batched
from harness.executor.executor import not_under_test
from harness.executor import targets as targets_mod
from harness.model.case import Case
from harness.model.status import Verdict
from harness.base.errors import UsageError


# What a driver runs with where its caller gives no settings: a triage command's timeout.
TRIAGE = run_settings(case_timeout=config.TRIAGE_CASE_TIMEOUT)


class TargetUnavailable(UsageError, RuntimeError):
    pass


@contextlib.contextmanager
def driver(target: str, settings: RunSettings = TRIAGE, seed: int = 0):
    """A callable case -> Verdict for one target run with `settings` (a command's: executor.settings
    resolve), its executor child alive for the block. `settings.batch` > 1: cases run batched (harness/executor/batch.py; failures confirmed alone, passes audited
    by `seed`); `run.alone` runs a case in a context of its own all the same (reduction)."""
    spec = targets_mod.get(target)
    if spec.unavailable:
        raise TargetUnavailable(f"target {target}: {spec.unavailable}")
    rules = core.Rules(audit_seed=seed)
    with core.runner(settings, target) as runner:
        why = not_under_test(spec, runner.info(), settings.mesa)
        if why:
            raise TargetUnavailable(f"target {target} is not the Mesa asked for: {why}")

        def run(case: Case) -> Verdict:
            record = core.run_case(case, target, runner, rules)
            return Verdict(record.status, record.message)

        def alone(case: Case) -> Verdict:
            record = core.run_case(case, target, runner.alone if isinstance(runner, Batched) else runner, rules)
            return Verdict(record.status, record.message)
        run.facts = core.facts_of(runner)
        run.alone = alone
        run.send = runner.send              # queue a case ahead of `run` (search.explore)
        yield run
