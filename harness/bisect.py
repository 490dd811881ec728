"""`git bisect run` driver: run named cases on one target; 0 all pass, 1 any fails, times out
or crashes (Status.blames_driver), 125 the target cannot start or a case gives no verdict on
the driver: a skip, or an `error` (a harness fault says nothing of the commit, so git bisect
skips it rather than calling it bad). An unknown id raises catalog.NoSuchCase (the caller
exits 128, which stops `git bisect run`)."""
from __future__ import annotations

from harness import catalog
from harness.executor import Executor
from harness.status import Reply, Status
from harness.targets import Target
from harness.verdict import judge

GOOD, BAD, UNTESTABLE = 0, 1, 125


def bisect_run(case_ids: list[str], target: Target, out=print, vk_without: str = "", mesa=None,
               shader_tests=()) -> int:
    cases = [catalog.find(case_id, shader_tests) for case_id in case_ids]
    executor = Executor(target, vk_without=vk_without, mesa=mesa)
    try:
        started = executor.info()
        if started.status is not Reply.OK:
            out(f"bisect-run: target {target.name} cannot start: {started.message.splitlines()[0]}")
            return UNTESTABLE
        wrong = target.wrong_driver(started.observation, mesa)
        if wrong:                    # a build that loads another Mesa's driver says nothing of this one
            out(f"bisect-run: target {target.name} is not the build under test: {wrong}")
            return UNTESTABLE
        renderer = started.observation.get("renderer", "?")
        worst = GOOD
        for case in cases:
            verdict = judge(case, executor.run(case), f"{target.name}: {renderer}")
            out(f"{case.id}[{target.name}]: {verdict.status}"
                + (f": {verdict.message.splitlines()[0]}" if verdict.message else ""))
            if verdict.status.blames_driver():
                worst = BAD
            elif verdict.status is not Status.PASS and worst == GOOD:
                worst = UNTESTABLE
        return worst
    finally:
        executor.close()
