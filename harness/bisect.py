"""`git bisect run` driver: run named cases on one target; 0 all pass, 1 any fails,
125 the target cannot start or a case cannot run (git bisect skips that commit)."""
from __future__ import annotations

from harness import catalog
from harness.executor import Executor
from harness.targets import Target
from harness.verdict import judge

GOOD, BAD, UNTESTABLE = 0, 1, 125


def bisect_run(case_ids: list[str], target: Target, out=print, vk_without: str = "", mesa=None) -> int:
    cases = [catalog.find(case_id) for case_id in case_ids]          # KeyError: the caller's usage error
    executor = Executor(target, vk_without=vk_without, mesa=mesa)
    try:
        started = executor.info()
        if started.status != "ok":
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
            if verdict.status in ("fail", "crash", "timeout"):
                worst = BAD
            elif verdict.status != "pass" and worst == GOOD:
                worst = UNTESTABLE
        return worst
    finally:
        executor.close()
