"""Whether a target's child runs the driver under test: `probe` starts one (or asks the run's
own runner) for its facts, and `not_under_test` is the check every front end makes on them
before it trusts a verdict."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from harness.base.config import MesaBuild, RunSettings
from harness.executor.executor import Executor
from harness.executor.settings import DEFAULT
from harness.executor.targets import Target
from harness.model.facts import Facts
from harness.model.status import Reply, Result


def probe(target: Target, settings: RunSettings | None = None, runner: Any = None, **overrides: Any) -> Result:
    """Start a child for the target once: its facts (renderer, version, limits) or why not.
    `overrides`: fields of `settings` (see Executor). `runner`: the run's own runner of the
    target (core.make_runner), whose first child is the one asked, and left running."""
    settings = replace(settings or DEFAULT, **overrides)
    mesa = settings.mesa
    lacking = mesa is not None and target.mesa and mesa.lacks(target.mesa_gl, target.mesa_vulkan)
    if lacking:
        return Result(Reply.ERROR, lacking)
    if runner is not None:
        result = runner.info()
    else:
        executor = Executor(target, settings, fork=False)
        try:
            result = executor.info()
        finally:
            executor.close()
    why = not_under_test(target, result, mesa)
    return Result(Reply.ERROR, why) if why else result


def not_under_test(target: Target, started: Result, mesa: MesaBuild | None = None) -> str:
    """'' where a child of `target` started (`started`: its info()) on the driver under test (the
    target's renderer, and with a --mesa build that build's libraries), else why not, in one line.
    The one check every front end makes before it trusts a verdict: probe (pytest), bisect-run,
    exploration."""
    if started.status is not Reply.OK:
        return f"cannot start: {(started.message or str(started.status)).splitlines()[0]}"
    return target.wrong_driver(started.info or Facts(), mesa)
