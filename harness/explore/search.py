"""Seeded exploration of a space, and shrinking below a failing case.

Exploration draws parameters with the space's description and a seeded random source
(draws.Plain), so a seed alone decides what is drawn, whatever the driver answers: a cheap
draw, where Hypothesis's engine cost more than the driver's run of a case. Reduction drives
Hypothesis's own engine through `@given`, with no example database: its test fails when the case
fails the original way, and Hypothesis's shrinker walks `space.below(params)` toward its simplest
value. Verdicts are cached by case id, so Hypothesis sees a deterministic function even where a
driver is flaky; in both, a case drawn twice runs once.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Collection

from harness.model.case import Case
from harness.sources.explored import id_codec as ids
from harness.sources.explored.choices import canonical
from harness.sources.explored.draws import Plain
from harness.explore.signature import ReductionKey, same_failure
from harness.model.status import Verdict
from harness.sources.explored.space import Space
from harness.model.status import Status
from harness.base.errors import CaseOutcome

if TYPE_CHECKING:
    from hypothesis import Phase, settings

Run = Callable[[Case], Verdict]
Params = dict[str, Any]         # a space's parameters of one case (space.Space.draw)


def _settings(max_examples: int, phases: Collection[Phase]) -> settings:
    from hypothesis import HealthCheck, Verbosity, settings       # reduction's only: its import costs ~0.4 s CPU
    return settings(database=None, max_examples=max_examples, deadline=None, phases=phases,
                    suppress_health_check=list(HealthCheck), derandomize=False, print_blob=False,
                    verbosity=Verbosity.quiet,
                    report_multiple_bugs=False)


@dataclass
class Budget:
    """Cases (distinct ones the target judged: skips do not count, so a target without GL 4.6
    spends its budget on what it runs) and/or seconds; whichever ends first. At most
    SKIP_FACTOR times the case budget is drawn in all. `reserve`: seconds at the end of a time
    budget kept for what follows the exploration (reducing its findings)."""
    cases: int | None = None
    seconds: float | None = None
    started: float = field(default_factory=time.monotonic)
    reserve: float = 0.0

    def spent(self, done: int, drawn: int = 0) -> bool:
        if self.cases is not None and (done >= self.cases or drawn >= SKIP_FACTOR * self.cases):
            return True
        return self.seconds is not None and time.monotonic() - self.started >= self.seconds - self.reserve

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """`200` (cases), `60s`, `5m`."""
        text = text.strip()
        if text.endswith("s"):
            return cls(seconds=float(text[:-1]))
        if text.endswith("m"):
            return cls(seconds=60 * float(text[:-1]))
        return cls(cases=int(text))


@dataclass(frozen=True)
class Sample:
    """One distinct case exploration ran, in the order drawn."""
    params: Params
    case: Case
    outcome: Verdict


SKIP_FACTOR = 4
MISSES = 1000                   # draws in a row that give no new case: the space is exhausted


def build(space: Space, params: Params) -> Case | None:
    """The case, or None where the parameters fall outside what the builder accepts."""
    try:
        return ids.build(space.family, params)
    except (ValueError, AssertionError):
        return None


def _builder(space: Space) -> Callable[[Params], Case | None]:
    """build, remembered: Hypothesis's shrinker asks for the same parameters many times."""
    made: dict[str, Case | None] = {}

    def cached(params: Params) -> Case | None:
        key = canonical(params)
        if key not in made:
            made[key] = build(space, params)
        return made[key]
    return cached


def explore(space: Space, run: Run, seed: int, budget: Budget,
            on_sample: Callable[[Sample], None] | None = None,
            send: Callable[[Case], bool] | None = None, ahead: int = 1) -> list[Sample]:
    """The cases `space.draw` makes from draws.Plain(seed), each distinct one judged by `run` in
    the order drawn, until `budget` is spent (or MISSES draws in a row give no new case). `send`,
    if given, queues a case in the target's children ahead of `run` (False: it answers the case
    without them: a refusal, a journal's verdict): each drawn case is sent as soon as it is built,
    and the oldest is judged once `ahead` newer ones went to the children (one a child), at once
    if it did not go, so the children and this process work at once. What is judged, and in
    what order, is the same for any `ahead`: the budget sees every judged case before the next
    is judged, and the cases sent when it is spent are never judged."""
    samples: dict[str, Sample] = {}
    drawn: set[str] = set()                         # every distinct case drawn, judged or not
    pending: deque[tuple[Params, Case, bool]] = deque()   # not judged yet, oldest first; whether it went
    went = 0                                        # of them, those that went to the children
    skipped = 0
    source = Plain(seed)
    misses = 0

    def judge_oldest() -> bool:
        """Judge the oldest pending case; whether the budget is spent after it."""
        nonlocal skipped, went
        params, case, sent = pending.popleft()
        went -= sent
        sample = samples[case.id] = Sample(params, case, run(case))
        skipped += sample.outcome.status is Status.SKIP
        if on_sample:
            on_sample(sample)
        return budget.spent(len(samples) - skipped, len(samples))

    if budget.spent(0):
        return []
    while misses < MISSES:
        params = space.draw(source)
        case = None if params is None else build(space, params)
        if params is None or case is None or case.id in drawn:
            misses += 1
        else:                                       # a fresh case
            misses = 0
            drawn.add(case.id)
            sent = send(case) if send is not None else True
            went += sent
            pending.append((params, case, sent))
        while pending and (went > ahead or not pending[0][2]):
            if judge_oldest():
                return list(samples.values())   # the cases sent behind it are never judged
        if budget.spent(len(samples) - skipped, len(samples)):
            return list(samples.values())
    while pending:                                  # the space is exhausted: judge what is drawn
        if judge_oldest():
            break
    return list(samples.values())


class _Reproduced(CaseOutcome):
    def __init__(self, params: Params, case: Case, outcome: Verdict) -> None:
        super().__init__(case.id)
        self.params, self.case, self.outcome = params, case, outcome


@dataclass(frozen=True)
class Reduction:
    params: Params
    case: Case
    outcome: Verdict
    runs: int                        # distinct cases run while reducing


class _OutOfTime(BaseException):
    """Not an Exception: Hypothesis lets it through at once, neither a failure nor shrunk."""


def reduce(space: Space, params: Params, run: Run, key: ReductionKey, max_runs: int = 300,
           tries: int = 200, seed: int = 0, stop: Callable[[], bool] | None = None) -> Reduction | None:
    """The simplest parameters below `params` whose case fails the way `key` (signature.
    reduction_key) says, as Hypothesis's shrinker finds them; None if no draw reproduced it
    (the caller keeps the original). `tries`: random draws to find a first reproduction;
    `max_runs`: driver runs in all, after which every new case counts as not reproducing;
    `stop()` true: end now, with the simplest reproduction so far (the shrinker only tries
    candidates simpler than its current one), or None."""
    from hypothesis import Phase, given, reject, seed as hypothesis_seed
    verdicts: dict[str, Verdict] = {}
    make = _builder(space)
    best: list[Reduction] = []

    @_settings(max_examples=tries, phases=(Phase.generate, Phase.shrink))
    @hypothesis_seed(seed)
    @given(space.below(params))
    def attempt(candidate: Params) -> None:
        if stop is not None and stop():
            raise _OutOfTime
        case = make(candidate)
        if case is None:
            reject()
        outcome = verdicts.get(case.id)
        if outcome is None:
            if len(verdicts) >= max_runs:
                return
            outcome = verdicts[case.id] = run(case)
        if same_failure(key, outcome):
            best[:] = [Reduction(candidate, case, outcome, len(verdicts))]
            raise _Reproduced(candidate, case, outcome)

    try:
        attempt()
    except _Reproduced as found:
        return Reduction(found.params, found.case, found.outcome, len(verdicts))
    except _OutOfTime:
        return replace(best[0], runs=len(verdicts)) if best else None
    return None
