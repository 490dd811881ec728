"""The run core: one case on one target, from running it to the record of its outcome. Nothing
here knows pytest; the pytest plugin, `bisect-run`, the release matrix and exploration all run
cases through `run_case`, as deqp-runner's core knows nothing of its suite adapters.

run_case: run the case in the target's executor child, judge the reply against the case's
expectations (harness/oracle/verdict.py), keep a failure's reproducer and observation for triage,
re-run a failure for flakes, and apply the baseline and flake policy (harness/run/policy.py). The
Record it returns (harness/model/outcome.py) is what the journal, results.json, JUnit and the
terminal show.
"""
from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Protocol, cast

from harness.run import baseline, export, gpu_hangs, policy
from harness.base import profiling
from harness.oracle import verdict
from harness.executor import targets as targets_mod
from harness.model.case import Case
from harness.executor.batch import Batched, audited, describe
from harness.base.config import AUDIT, RunSettings
from harness.executor.executor import Executor, ExecutorGroup
from harness.model.outcome import Judged, Outcome, Record
from harness.model.facts import Facts
from harness.model.status import Result, Status, Verdict

__all__ = ["RunSettings", "Rules", "Record", "Runner", "run_case", "runner", "where", "facts_of", "confirm", "make_runner"]


class Runner(Protocol):
    """What runs a target's cases: an Executor (one child), an ExecutorGroup (several), or a
    Batched group (harness/executor/batch.py)."""

    def run(self, case: Case) -> Result:
        ...

    def info(self) -> Result:
        ...

    def close(self) -> None:
        ...


class RunsAlone(Protocol):
    """A runner of batches that runs a case in a context of its own (executor/batch.py Batched)."""

    def run_alone(self, case: Case) -> Result:
        ...


@dataclass(frozen=True)
class Rules:
    """What a verdict means for the run: the baseline's expected failures (baseline.load), the
    flakes files' entries (baseline.load_flakes), how often a failure is re-run, and where a
    failure's reproducer and observation go (None: nowhere)."""
    baseline: dict[str, policy.Expectation] = field(default_factory=dict)
    flakes: tuple[tuple[re.Pattern[str], frozenset[Status], str], ...] = ()
    flake_retries: int = 0
    triage_dir: Path | None = None
    audit: float = AUDIT                 # batched passes re-run alone (harness/executor/batch.py), by `audit_seed`
    audit_seed: int = 0

    def audits(self, case_id: str) -> bool:
        """Whether the audit re-runs this case alone when it passes batched (not first in its batch)."""
        return audited(case_id, self.audit_seed, self.audit)


def facts_of(runner: Runner) -> Facts:
    """The target's renderer, version and Mesa, from its child (Facts() if it did not start)."""
    return runner.info().info or Facts()


def where(target: str, facts: Facts) -> str:
    """How a message names the target: 'zink: zink (llvmpipe ...), 4.6 ..., Mesa 26.2.6'."""
    text = f"{target}: {facts.renderer or '?'}, {facts.version or '?'}"
    if facts.mesa and f"Mesa {facts.mesa}" not in text:
        text += f", Mesa {facts.mesa}"              # the Vulkan layer's version names the layer
    return text


def run_case(case: Case, target: str, runner: Runner, rules: Rules = Rules()) -> Record:
    result = runner.run(case)
    facts = facts_of(runner)
    place = where(target, facts)
    with profiling.section("judge"):
        first = verdict.judge(case, result, place)
    if result.batch is not None:
        first, result = confirm(case, result, first, cast(RunsAlone, runner), place, rules)
    reproducer = ""
    if first.status.is_failure() and rules.triage_dir is not None:
        with profiling.section("triage files"):
            reproducer = keep_for_triage(case, target, result, rules.triage_dir)
    expected = baseline.lookup(rules.baseline, case.id, target)
    judged = Outcome.judge(first.status, expected.statuses if expected is not None else None).judged
    rerun, rerun_where = rerunner(runner, result, unexpected=judged is not Judged.EXPECTED_FAIL)
    # Re-runs happen only as the policy asks for them (a failure, up to its first pass).
    reruns = (verdict.judge(case, rerun(case), place) for _ in range(rules.flake_retries))
    outcome, message = policy.decide(first, expected, reruns=reruns, rerun_where=rerun_where,
                                     flakes=baseline.matching_flakes(rules.flakes, case.id, target))
    message = gpu_hangs.after(outcome.status, message, case.id, target, facts.renderer)
    return Record(id=case.id, target=target, outcome=outcome, message=message,
                  expected=expected.name if expected is not None else "",
                  duration=round(result.duration, 4), renderer=facts.renderer,
                  gl_version=facts.version, mesa=facts.mesa,
                  platform=facts.platform, reproducer=reproducer)


def rerunner(runner: Runner, result: Result, unexpected: bool) -> tuple[Callable[[Case], Result], str]:
    """Where a failure's flake re-runs run, and how the message says so. One the baseline does not
    expect (it would fail the run) runs each time in a child started for it (Executor.run_fresh):
    a context of its own is not enough where a driver's process-wide state carries over, as zink's
    buffer allocator hands a new context index memory an earlier case wrote (triage folder
    primconvert-restart-stale-indices), so that the failure came back in the child's next
    context too. An expected failure re-runs as before, at no start-up cost: a batched case's in
    the child that runs cases alone (harness/executor/batch.py), in a context of its own."""
    if unexpected and isinstance(runner, (Executor, ExecutorGroup, Batched)):
        return runner.run_fresh, " in a new process"
    if isinstance(runner, Batched) and result.batch is not None:
        return runner.run_alone, ""
    return runner.run, ""


def confirm(case: Case, result: Result, batched: Verdict, runner: RunsAlone, place: str, rules: Rules) -> tuple[Verdict, Result]:
    """A batched verdict checked alone (harness/executor/batch.py): a failure always, a pass where the
    audit picks it, unless it ran first in its batch (alone in a fresh context already). The same verdict alone stands; a failure that fails alone too is the alone
    verdict (and result); any other disagreement is order-dependent."""
    if not result.batch:                    # first in its batch: it ran alone, in a fresh context
        return batched, result
    if not (batched.status.is_failure() or (batched.status is Status.PASS
                                            and rules.audits(case.id))):
        return batched, result
    again = runner.run_alone(case)
    with profiling.section("judge"):
        alone = verdict.judge(case, again, place)
    if alone.status is batched.status or (alone.status.is_failure() and batched.status.is_failure()):
        return alone, again
    why = "confirmed alone" if batched.status.is_failure() else "audited alone"
    return Verdict(Status.ORDER_DEPENDENT,
                   f"order-dependent: {batched.status} batched ({describe(result.batch)}), {alone.status} {why}\n"
                   f"  batched: {policy.first_line(batched.message) or 'pass'}\n"
                   f"  alone: {policy.first_line(alone.message) or 'pass'}"), again


def crash_record(case_id: str, target: str, message: str) -> Record:
    """The record of a case whose runner died with it (an xdist worker killed mid-case)."""
    return Record(id=case_id, target=target, outcome=Outcome(Status.CRASH), message=message)


def keep_for_triage(case: Case, target: str, result: Result, folder: Path) -> str:
    """A failed case leaves its reproducer (case JSON + GLSL) and raw observation in the results
    folder; returns the reproducer's path ('' if it could not be written)."""
    stem = export.file_stem(case.id, target)
    try:
        written = export.export(case, "glsl", folder / "repro" / stem)
        if result.observation is not None:
            (folder / "observations").mkdir(parents=True, exist_ok=True)
            (folder / "observations" / f"{stem}.json").write_text(json.dumps(
                {"id": case.id, "target": target, "case": case.to_json(), "observation": result.observation.to_json()}))
    except OSError:
        return ""
    return str(written[0].resolve())


def make_runner(settings: RunSettings, target: str, children: int | None = None) -> ExecutorGroup | Batched:
    """An executor group for one target (`children`: its size; default settings.children),
    batched (harness/executor/batch.py) where the settings ask for batches and the target can."""
    spec = targets_mod.get(target)
    size = settings.children if children is None else children
    first: list[Executor] = []              # whose spawner the target's other executors fork from

    def make(settings: RunSettings) -> Executor:
        executor = Executor(spec, settings=settings, forks_from=first[0] if first else None)
        first[:] = first or [executor]
        return executor
    group = ExecutorGroup(lambda: make(settings), size)
    if settings.batch > 1 and spec.batches:      # the same child options: `batch` is not one of them
        return Batched(group, lambda: make(replace(settings, batch=0)))
    return group


@contextlib.contextmanager
def runner(settings: RunSettings, target: str, children: int | None = None) -> Iterator[ExecutorGroup | Batched]:
    """An executor group for one target, closed on exit."""
    group = make_runner(settings, target, children)
    try:
        yield group
    finally:
        group.close()
