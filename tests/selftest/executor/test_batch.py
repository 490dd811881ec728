"""Batched execution (harness/executor/batch.py): up to K cases in one context, every failure
confirmed alone, a seeded audit of the passes. On real llvmpipe with planted faults
(fault-llvmpipe): a crash and a hang inside a batch cost no other case its verdict, a planted
state leak comes out as order-dependent (never as a wrong verdict), a batched failure is
confirmed alone. The confirmation's and the audit's decisions are pure logic, with a stand-in
runner."""
from __future__ import annotations

import dataclasses

import pytest

from harness.sources import catalog
from harness.run import core, policy
from harness.model.outcome import Judged
from harness.executor.batch import audited, describe
from harness.model.status import Reply, Result, Status, Verdict

from conftest import pinned_mesa
from faults import planted

# cases of each profile that read state a dirtier leaves (e2e/test_checks_can_fail.py)
READERS = ("tess/no-tcs/quads/equal/initial",
           "varyings/vs-fs/glsl130compat/builtins-color+tex1+tex2+tex3+tex4+tex5+fog/users-9xvec4-36c")


def plain(n: int) -> list:
    return [c for c in catalog.cases("draw_params") if c.id.startswith("draw_params/DrawArrays")
            and "glsl450/vs" in c.id][:n]


def run_all(cases, faults=None, batch=4, shared=False, audit=0.0, case_timeout=60.0, rules=None):
    """Every case's record, the cases sent ahead as the plugin sends them; and which ran alone."""
    settings = core.RunSettings(case_timeout=case_timeout, mesa=pinned_mesa(), batch=batch)
    rules = rules or core.Rules(audit=audit)
    with planted(faults, shared_context=shared), core.runner(settings, "fault-llvmpipe") as runner:
        alone = []
        if batch > 1:
            confirm = runner.run_alone
            runner.run_alone = lambda case: alone.append(case.id) or confirm(case)
        for case in cases:
            runner.send(case)
        records = {case.id: core.run_case(case, "fault-llvmpipe", runner, rules) for case in cases}
    return records, alone


def test_a_crash_and_a_hang_inside_a_batch_cost_no_other_verdict():
    cases = plain(10)
    faults = {cases[2].id: "segv", cases[6].id: "hang"}         # both inside a batch of 4
    records, alone = run_all(cases, faults, batch=4, case_timeout=15)   # the hang: 5 s without CPU
    assert {i: r.status for i, r in records.items()} == {
        c.id: Status.CRASH if c.id == cases[2].id else Status.TIMEOUT if c.id == cases[6].id else Status.PASS
        for c in cases}
    assert "SIGSEGV" in records[cases[2].id].message and "deadlock" in records[cases[6].id].message
    assert alone == [cases[2].id, cases[6].id]                  # each confirmed alone (and failing so)


def test_a_planted_state_leak_is_order_dependent_never_a_wrong_verdict(tess_cases, varyings_cases):
    """A dirtier (the dirty-state fault: clip planes and distances enabled, a program bound, every
    kind of state a case can set) runs first in its batch: the readers after it fail batched,
    pass alone, and are reported order-dependent, naming the dirtier; the same order a context per
    case passes. With the shared-context fault (one context for every case of a profile in the
    child) the same."""
    found = {**tess_cases, **varyings_cases}
    readers = [found[i] for i in READERS]
    dirtiers = [dataclasses.replace(r, id=f"selftest/batch/dirty-{n}", family="selftest") for n, r in enumerate(readers)]
    faults = {d.id: "dirty-state" for d in dirtiers}
    order = dirtiers + readers
    isolated, _ = run_all(order, faults, batch=0)
    assert {r.status for r in isolated.values()} == {Status.PASS}
    for shared in (False, True):
        records, alone = run_all(order, faults, batch=8, shared=shared)
        assert [records[d.id].status for d in dirtiers] == [Status.PASS, Status.PASS]
        for reader in readers:
            record = records[reader.id]
            assert record.status is Status.ORDER_DEPENDENT, (shared, record.message)
            assert record.message.startswith("order-dependent: fail batched (after ")
            assert dirtiers[0].id in record.message and "pass confirmed alone" in record.message
        assert alone == [r.id for r in readers]


def test_a_batched_failure_is_confirmed_alone():
    cases = plain(6)
    records, alone = run_all(cases, {cases[3].id: "gl-error"}, batch=4)
    assert records[cases[3].id].status is Status.FAIL
    assert "GL error GL_INVALID_ENUM from glEnable" in records[cases[3].id].message
    assert alone == [cases[3].id]
    assert {records[c.id].status for c in cases if c is not cases[3]} == {Status.PASS}


@pytest.mark.parametrize("batch", [4, 0])
def test_an_unexpected_failure_re_runs_in_a_new_process(batch):
    """The process-state fault fails a case unless it is the first its child process runs, as
    zink's restarted polygons failed after other cases, in the child's next context too
    (triage folder primconvert-restart-stale-indices). Cases 2 and 3 have it. Batched, case 2 fails
    and passes confirmed alone (the alone child's first case): order-dependent. Case 3 fails
    batched and alone (the alone child's second), and passes its flake re-run, in a child
    started for it: a flake, the message saying where. Unbatched (one child, each case in a
    context of its own), both fail first and pass so. The baseline expecting the failure, the
    re-run stays in the child that ran cases before (no start-up paid): an expected failure."""
    cases = plain(6)
    faults = {cases[2].id: "process-state", cases[3].id: "process-state"}
    records, alone = run_all(cases, faults, batch=batch, rules=core.Rules(flake_retries=1, audit=0.0))
    status = {c.id: records[c.id].status for c in cases}
    assert status == {c.id: Status.PASS for c in cases} | (
        {cases[2].id: Status.ORDER_DEPENDENT, cases[3].id: Status.FLAKE} if batch else
        {cases[2].id: Status.FLAKE, cases[3].id: Status.FLAKE})
    assert records[cases[3].id].message.startswith("flake: fail first, passed on re-run 1 in a new process: ")
    assert f"process state: {1 if batch else 3} case(s) ran in this process before this one" in records[cases[3].id].message
    assert alone == ([cases[2].id, cases[3].id] if batch else [])
    expected = {cases[3].id: policy.Expectation.of(Status.FAIL)}
    records, _ = run_all(cases, faults, batch=batch, rules=core.Rules(baseline=expected, flake_retries=1, audit=0.0))
    assert records[cases[3].id].outcome.judged is Judged.EXPECTED_FAIL, records[cases[3].id].message


def test_the_audit_reruns_its_sample_alone_and_agreeing_passes_stay_passes():
    cases = plain(6)
    records, alone = run_all(cases, batch=4, audit=1.0)
    # every pass but those first in their batch (cases 0 and 4), which ran alone already
    assert alone == [c.id for n, c in enumerate(cases) if n % 4] and {r.status for r in records.values()} == {Status.PASS}


def test_an_audit_known_ahead_runs_alone_beside_the_batch():
    """Batched.send(alone_too=True) queues the case in the alone child as well (exploration does so for
    the passes its audit picks): the confirmation takes that result; the verdicts are the audit's."""
    cases = plain(6)
    settings = core.RunSettings(mesa=pinned_mesa(), batch=4)
    with planted(None), core.runner(settings, "fault-llvmpipe") as runner:
        for case in cases:
            runner.send(case, alone_too=True)
        assert all(runner.alone.holds(case.id) for case in cases)       # queued before any is run
        records = {case.id: core.run_case(case, "fault-llvmpipe", runner, core.Rules(audit=1.0)) for case in cases}
        taken = [case.id for case in cases if not runner.alone.holds(case.id)]
    assert {r.status for r in records.values()} == {Status.PASS}
    # every audited pass took its queued alone result; those first in their batch (0, 4) were not audited
    assert taken == [c.id for n, c in enumerate(cases) if n % 4]


# -- pure logic, with a stand-in runner ----------------------------------------------------------

class StandIn:
    """Answers batched and alone with the statuses given."""

    def __init__(self, batched: Reply, alone: Reply):
        self.batched, self.alone_reply, self.alone_runs = batched, alone, 0

    def run_alone(self, case):
        self.alone_runs += 1
        return Result(self.alone_reply, "alone says so")

    def info(self):
        return Result(Reply.OK, observation={})


@pytest.mark.parametrize("batched, alone, audit, status, runs", [
    (Reply.FAIL, Reply.FAIL, 0.0, Status.FAIL, 1),                       # confirmed: the alone verdict
    (Reply.CRASH, Reply.FAIL, 0.0, Status.FAIL, 1),                      # failing both ways: alone's
    (Reply.FAIL, Reply.SKIP, 0.0, Status.ORDER_DEPENDENT, 1),
    (Reply.TIMEOUT, Reply.ERROR, 0.0, Status.ERROR, 1),
    (Reply.SKIP, Reply.FAIL, 1.0, Status.SKIP, 0),                       # a skip is not audited
])
def test_confirmation(batched, alone, audit, status, runs):
    case = plain(1)[0]
    runner = StandIn(batched, alone)
    first = Verdict(batched.status, "batched says so")
    got, _ = core.confirm(case, Result(batched, "x", batch=("a", "b")), first, runner, "here", core.Rules(audit=audit))
    assert got.status is status and runner.alone_runs == runs
    first_in_batch = StandIn(batched, alone)                 # it ran alone in a fresh context already
    got, _ = core.confirm(case, Result(batched, "x", batch=()), first, first_in_batch, "here", core.Rules(audit=1.0))
    assert got is first and first_in_batch.alone_runs == 0


def test_the_audit_reports_a_pass_that_fails_alone_as_order_dependent():
    case = plain(1)[0]
    runner = StandIn(Reply.OK, Reply.FAIL)
    got, _ = core.confirm(case, Result(Reply.OK, batch=("a",)), Verdict(Status.PASS), runner, "here",
                          core.Rules(audit=1.0))
    assert got.status is Status.ORDER_DEPENDENT and "pass batched (after 1 case in its batch's context: a)" in got.message
    assert "fail audited alone" in got.message
    untouched = StandIn(Reply.OK, Reply.FAIL)
    got, _ = core.confirm(case, Result(Reply.OK, batch=("a",)), Verdict(Status.PASS), untouched, "here",
                          core.Rules(audit=0.0))
    assert got.status is Status.PASS and untouched.alone_runs == 0


def test_the_audit_sample_is_seeded_and_its_size_is_the_fraction():
    ids = [f"family/case-{n}" for n in range(20000)]
    picked = [i for i in ids if audited(i, 7, 0.05)]
    assert 0.045 < len(picked) / len(ids) < 0.055
    assert picked == [i for i in ids if audited(i, 7, 0.05)]          # the same for the seed
    assert picked != [i for i in ids if audited(i, 8, 0.05)]
    assert describe(()) == "first in its batch's context"
    assert describe(tuple("abcdefghij")).endswith("10 cases in its batch's context: ... c, d, e, f, g, h, i, j")


def test_the_audit_fraction_is_pytests_audit_option(tmp_path):
    """`--audit FRACTION` (docs/batch.md) sets the share of batched passes audited alone; outside
    0..1 it is bad input: one line, exit status 2."""
    import subprocess
    import sys
    from conftest import ROOT
    bad = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                          "tests/draw_params", "--target", "llvmpipe", "--batch", "4", "--audit", "1.5",
                          "--results-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "--audit 1.5: expected a fraction from 0 to 1" in bad.stdout + bad.stderr
    from harness.base import options
    assert options.OPTIONS["audit"].default == core.Rules().audit == 0.05
