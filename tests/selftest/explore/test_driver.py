"""Exploration's driver (harness/explore/driver.py): a case the target's GL version cannot run is
answered in the exploring process with the very verdict the target's child gives it, and the
cases queued around it still get their own answers; and several children judge what one does.
Real llvmpipe, the pinned Mesa (GL 4.5)."""
from __future__ import annotations

import dataclasses

from harness.base import config
from harness.explore import search
from harness.explore.driver import TRIAGE, driver, refusal
from harness.model.facts import Facts, Profile
from harness.model.status import Status
from harness.run import core
from harness.sources.explored import space

from conftest import pinned_mesa

SETTINGS = dataclasses.replace(TRIAGE, mesa=pinned_mesa())
ONE_DRAW = {"chain": "vs", "index_type": "uint", "only_draw_id": False, "version": 450,
            "draws": [{"command": "DrawArrays", "entries": [[3, 1, 0, 0, 0]], "restart": False,
                       "offset": 0, "stride": 0, "draw_count": None}]}


def needing(version: tuple[int, int]):
    """The one-draw case, requiring GL `version` (past any context's: the child refuses it)."""
    case = space.get("draw_params").build(ONE_DRAW)
    return dataclasses.replace(case, id=case.id + "/gl-needed", requires=dataclasses.replace(case.requires, gl_version=version))


def test_refusal_reads_the_profile_of_the_case():
    case = needing((4, 6))
    facts = Facts(profiles={"core": Profile(version_number=(4, 5), version="4.5 (Core Profile) Mesa"),
                            "compat": Profile(version_number=(4, 6), version="4.6 (Compatibility Profile) Mesa")})
    assert refusal(case, facts) == "needs GL 4.6 core, context has 4.5 (Core Profile) Mesa"
    assert refusal(dataclasses.replace(case, requires=dataclasses.replace(case.requires, profile="compat")), facts) == ""
    assert refusal(needing((4, 5)), facts) == ""
    assert refusal(case, Facts()) == "" and refusal(case, Facts(profiles={"core": Profile(version_number=(4, 5))})) == ""


def test_a_refused_case_gets_the_childs_verdict_and_its_neighbours_theirs():
    refused, plain = needing((9, 9)), space.get("draw_params").build(ONE_DRAW)
    with core.runner(SETTINGS, "llvmpipe") as runner:           # the child answers
        child = core.run_case(refused, "llvmpipe", runner)
        assert child.status is Status.SKIP and child.message.startswith("needs GL 9.9 core, context has ")
    with driver("llvmpipe", SETTINGS) as run:                   # answered here: never sent
        assert refusal(refused, run.facts)
        run.send(plain)
        run.send(refused)
        run.send(plain)
        here = run(refused)
        assert (here.status, here.message) == (child.status, child.message)
        assert run(plain).status is Status.PASS
        assert run.alone(refused) == here


def test_two_children_judge_what_one_does():
    """A short batched exploration of tess (seed 5 finds gl_PrimitiveID failures on llvmpipe) with
    two children and three cases in flight judges the same cases, with the same verdicts, as
    with one child."""
    batched = dataclasses.replace(SETTINGS, batch=config.BATCH)
    judged = {}
    for children in (1, 2):
        with driver("llvmpipe", dataclasses.replace(batched, children=children)) as run:
            assert run.children == children
            samples = search.explore(space.get("tess"), run, 5, search.Budget(cases=16), send=run.send,
                                     ahead=run.children)
        judged[children] = [(s.case.id, s.outcome.status, s.outcome.message) for s in samples]
    assert judged[1] == judged[2]
    assert {status for _, status, _ in judged[1]} >= {Status.PASS, Status.FAIL}
