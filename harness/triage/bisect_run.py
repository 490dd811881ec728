"""`git bisect run` driver: run named cases on one target; 0 all pass, 1 any fails, times out
or crashes (Status.blames_driver), 125 the target cannot start or a case gives no verdict on
the driver: a skip, or an `error` (a harness fault says nothing of the commit, so git bisect
skips it rather than calling it bad). An unknown id raises catalog.NoSuchCase (the caller
exits 128, which stops `git bisect run`). Cases run through the run core, with its flake
re-runs where asked: a case that fails once and then passes is a flake, not a bad commit."""
from __future__ import annotations

from harness.sources import catalog
from harness.run import core
from harness.model.status import Status
from harness.executor.executor import not_under_test
from harness.executor.targets import Target

GOOD, BAD, UNTESTABLE = 0, 1, 125


def bisect_run(case_ids: list[str], target: Target, out=print, settings: core.RunSettings | None = None,
               shader_tests=(), rules: core.Rules = core.Rules()) -> int:
    cases = [catalog.find(case_id, shader_tests) for case_id in case_ids]
    settings = settings or core.RunSettings()
    with core.runner(settings, target.name, children=1) as runner:
        why = not_under_test(target, runner.info(), settings.mesa)
        if why:                      # a build that loads another Mesa's driver says nothing of this one
            out(f"bisect-run: target {target.name} is not the build under test: {why}")
            return UNTESTABLE
        worst = GOOD
        for case in cases:
            record = core.run_case(case, target.name, runner, rules)
            out(f"{case.id}[{target.name}]: {record.status}"
                + (f": {record.message.splitlines()[0]}" if record.message else ""))
            if record.status.blames_driver():
                worst = BAD
            elif record.status not in (Status.PASS, Status.FLAKE) and worst == GOOD:
                worst = UNTESTABLE
        return worst
