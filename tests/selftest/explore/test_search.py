"""Exploration with several cases in flight (harness/explore/search.py `explore`, `ahead`): the
cases are judged in the order drawn, the same ones with the same verdicts for any number in
flight, the budget is never exceeded, and the cases sent when it is spent are never judged.
Pure logic: a stand-in target that answers each case from its id (refusing some without a child,
as the driver does), and records what was sent and judged when (the real driver's side: tests/selftest/explore/test_driver.py)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from harness.explore import search
from harness.model.status import Status, Verdict
from harness.sources.explored import space


def roll(case_id: str) -> int:
    return hashlib.sha256(case_id.encode()).digest()[0]


def verdict_of(case_id: str) -> Verdict:
    """A fixed verdict by the id alone: some skips (which do not count against the budget), some
    of them refused without a child (`Target.send`), and some failures."""
    if roll(case_id) < 40:
        return Verdict(Status.SKIP, "needs GL 9.9")
    if roll(case_id) < 70:
        return Verdict(Status.FAIL, f"wrong value in {case_id}")
    return Verdict(Status.PASS)


@dataclass
class Target:
    """What search.explore hands the target: `send` queues (or refuses), `run` takes the oldest's verdict."""
    sent: list[str]
    judged: list[str]
    refused: int = 0
    waits: set[int] = field(default_factory=set)     # cases sent and not yet judged, as each is judged

    def send(self, case) -> bool:
        assert case.id not in self.sent, "a case sent twice"
        if roll(case.id) < 20:                          # answered without a child (driver.refusal)
            self.refused += 1
            return False
        self.sent.append(case.id)
        return True

    def run(self, case) -> Verdict:
        if case.id in self.sent:
            waiting = [c for c in self.sent if c not in self.judged]
            self.waits.add(len(waiting))
            assert waiting[0] == case.id, "judged before a case sent ahead of it"
        else:
            assert roll(case.id) < 20, "judged without being sent first"
        self.judged.append(case.id)
        return verdict_of(case.id)


def explored(family: str, seed: int, budget: int, ahead: int | None):
    """The samples of one exploration, and its stand-in target (ahead None: no `send`)."""
    target = Target([], [])
    samples = search.explore(space.get(family), target.run if ahead else verdict_of_case, seed,
                             search.Budget(cases=budget), send=target.send if ahead else None, ahead=ahead or 1)
    return samples, target


def verdict_of_case(case) -> Verdict:
    return verdict_of(case.id)


@pytest.mark.parametrize("family", ["tess", "draw_params"])
def test_several_in_flight_judge_the_same_cases_in_draw_order(family):
    alone, _ = explored(family, 11, 40, None)
    expected = [(s.case.id, s.outcome) for s in alone]
    assert sum(outcome.status is not Status.SKIP for _, outcome in expected) == 40
    for ahead in (1, 2, 3, 5):
        samples, target = explored(family, 11, 40, ahead)
        assert [(s.case.id, s.outcome) for s in samples] == expected, ahead
        assert target.judged == [case_id for case_id, _ in expected]          # judged as drawn (FIFO)
        # each judged with `ahead` sent behind it, whatever was refused between them
        assert target.refused and target.waits == {ahead + 1}
        unjudged = [c for c in target.sent if c not in target.judged]
        assert len(unjudged) <= ahead and target.sent[:len(target.sent) - len(unjudged)] == \
            [c for c in target.judged if c in target.sent]          # sent once the budget was spent: never judged


def test_the_budget_counts_judged_cases_only():
    for ahead in (1, 4):
        samples, target = explored("tess", 3, 7, ahead)
        judged = [s for s in samples if s.outcome.status is not Status.SKIP]
        assert len(judged) == 7 and samples[-1].outcome.status is not Status.SKIP
        assert len(samples) == len(target.judged)


def test_an_exhausted_space_judges_every_case_drawn(monkeypatch):
    """Five distinct cases, drawn over and over: each is judged once, the last ones too, whatever is in flight."""
    monkeypatch.setattr(search, "MISSES", 50)
    monkeypatch.setattr(search, "build", lambda sp, params: SimpleNamespace(id=f"few/{params['n']}"))
    few = SimpleNamespace(draw=lambda source: {"n": source.integer(0, 4)})
    for ahead in (1, 3, 8):
        target = Target([], [])
        samples = search.explore(few, target.run, 1, search.Budget(cases=100), send=target.send, ahead=ahead)
        assert sorted(s.case.id for s in samples) == [f"few/{n}" for n in range(5)]
        assert sorted(target.judged) == [s.case.id for s in sorted(samples, key=lambda s: s.case.id)]


def test_no_budget_no_case():
    samples, target = explored("tess", 1, 0, 2)
    assert samples == [] and target.sent == []
