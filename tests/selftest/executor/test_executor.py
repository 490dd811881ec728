"""The executor turns a child that crashes or hangs into a verdict for that case alone."""
from __future__ import annotations

import dataclasses
import time
from types import SimpleNamespace

import pytest
from conftest import fault_case
from faults import FAULT

from harness.executor.executor import Executor, ExecutorGroup, death_status
from harness.backends import AdoptingBackend
from harness.executor.protocol import Request
from harness.model.facts import Facts, Known, Profile
from harness.model.status import Reply, Result
from harness.executor.targets import Target
from harness.oracle.verdict import judge


@pytest.fixture(params=[False, True], ids=["started", "forked"])
def executor(request):
    """Each test runs twice: with children started as new processes, and forked from a spawner."""
    ex = Executor(FAULT, case_timeout=2.0, fork=request.param)
    yield ex
    ex.close()


def verdict(executor, case):
    return judge(case, executor.run(case), "fault: fault injector")


@pytest.mark.parametrize("fault, words", [
    ("segv", "SIGSEGV"), ("abort", "SIGABRT"), ("exit", "exit status 3"),
])
def test_crash_is_that_case_only(executor, fault, words):
    assert verdict(executor, fault_case("none")).status == "pass"
    first_pid = executor.pid
    crashed = verdict(executor, fault_case(fault))
    assert crashed.status == "crash"
    assert words in crashed.message
    after = verdict(executor, fault_case("none"))
    assert after.status == "pass", after.message
    assert executor.pid != first_pid                 # a fresh child serves the next case


def test_hang_is_timeout_and_child_replaced(executor):
    hung = verdict(executor, fault_case("hang"))
    assert hung.status == "timeout"
    assert "2 s" in hung.message
    assert verdict(executor, fault_case("none")).status == "pass"


@pytest.mark.parametrize("fault, rule, words", [
    ("spin", {"case_cpu": 1.0}, "s of CPU without a result (the case's budget: 1 s)"),
    ("hang", {"stall": 1.0}, "a deadlock"),
    ("spin", {"case_cpu": 30.0, "case_timeout": 1.5}, "1.5 s of wall time"),
])
def test_a_hang_is_caught_by_its_cpu_budget_its_stall_or_the_wall_clock(fault, rule, words):
    """A spinning child is caught once it has spent the case's CPU budget, a sleeping one
    once it has spent no CPU for the stall time, either long before --case-timeout; the wall
    clock is the last resort. The next case gets a fresh child."""
    executor = Executor(FAULT, **({"case_timeout": 30.0} | rule))
    try:
        started = time.perf_counter()
        hung = verdict(executor, fault_case(fault))
        assert hung.status == "timeout" and "hang: " in hung.message and words in hung.message, hung.message
        assert time.perf_counter() - started < 6
        assert verdict(executor, fault_case("none")).status == "pass"
    finally:
        executor.close()


def test_a_case_may_declare_a_larger_cpu_budget():
    """Requirements.cpu_seconds (the tess cases with long cold compiles) overrides the run's."""
    executor = Executor(FAULT, case_timeout=30.0, case_cpu=0.5)
    case = fault_case("spin")
    case = dataclasses.replace(case, requires=dataclasses.replace(case.requires, cpu_seconds=1.5))
    try:
        hung = verdict(executor, case)
        assert "the case's budget: 1.5 s" in hung.message, hung.message
    finally:
        executor.close()


def test_crash_quotes_stderr_without_control_bytes(executor):
    crashed = verdict(executor, fault_case("garbage"))
    assert crashed.status == "crash" and "SIGSEGV" in crashed.message
    assert "driver says" in crashed.message and "not utf-8" in crashed.message
    assert "\x00" not in crashed.message and "\x1b" not in crashed.message


def test_wrong_value_fails_naming_quantity(executor):
    failed = verdict(executor, fault_case("none", value=5, expected=7))
    assert failed.status == "fail"
    assert "primitives_generated = 5, expected 7" in failed.message
    assert "fault injector" in failed.message


def test_unknown_backend_is_an_error_not_a_crash_loop():
    ex = Executor(Target("nowhere", "nosuch", (), "bad"), case_timeout=5)
    try:
        result = ex.run(fault_case("none"))
    finally:
        ex.close()
    assert result.status == "error"
    assert "did not start" in result.message and "nosuch" in result.message


def test_a_child_dying_of_a_python_exception_is_the_harnesss_error_not_a_driver_crash():
    """Seen when a checkout was edited under a running suite: the respawned child failed to
    import, exit status 1 with a traceback, and six zink cases were called crashes. A signal, or
    a driver's own exit, stays a crash."""
    traceback = 'Traceback (most recent call last):\n  File "harness/executor/child.py", line 21\nSyntaxError: x'
    assert death_status(1, traceback) is Reply.ERROR
    assert death_status(-11, traceback) is Reply.CRASH           # SIGSEGV while printing one
    assert death_status(1, "zink: device lost") is Reply.CRASH
    assert death_status(None, traceback) is Reply.CRASH           # would not exit


@pytest.mark.parametrize("fault, words", [
    ("garbled-reply", r"Expecting value: line 1 column 1 (char 0); received 21 bytes: b'\x00\x00\x00\x11not json, garbage'"),
    ("truncated-reply", r"""a reply's JSON of 200 bytes in a body of 47; received 47 bytes: b'\x00\x00\x00\xc8{"status":"ok","""),
    ("misshapen-reply", """('list' object has no attribute 'items'); received 62 bytes: b'{"status": "ok", "observation": {"steps": [{"storage": [7]}]}}'"""),
    # quoted with what follows it in the pipe now (the case queued behind may have been answered)
    ("text-reply", r"a frame's length of 1685219702 bytes, over the 268435456 a reply may have; received "),
    ("text-reply", r" bytes: b'driver says hello on the wrong fd\n"),
])
def test_a_garbled_reply_is_that_cases_error_and_its_child_is_replaced(executor, fault, words):
    """A child's reply that is not one (written by the child on the real pipe: faults.GARBLED)
    leaves the pipe out of step: the child is killed, the case is `error` quoting what came, and
    the cases queued behind it run in a fresh child."""
    first, bad, behind = named("none", "first"), named(fault, "bad"), named("none", "behind", value=4, expected=4)
    assert verdict(executor, first).status == "pass"
    pid = executor.pid
    executor.send(bad)
    executor.send(behind)
    garbled = verdict(executor, bad)
    assert garbled.status == "error", garbled.message
    assert "garbled reply from the child (child killed" in garbled.message and words in garbled.message, garbled.message
    assert verdict(executor, behind).status == "pass"
    assert executor.pid != pid


def named(fault, name, **params):
    return dataclasses.replace(fault_case(fault, **params), id=f"selftest/pipelined/{name}")


@pytest.mark.parametrize("fault, status", [("segv", "crash"), ("hang", "timeout")])
def test_queued_case_survives_the_crash_of_the_one_ahead(executor, fault, status):
    """Cases queued ahead (the plugin sends the next case while it judges this one): a crash
    or hang is the verdict of the case that caused it; the one behind runs in a fresh child."""
    bad, good = named(fault, "bad"), named("none", "good", value=4, expected=4)
    executor.send(bad)
    executor.send(good)
    assert verdict(executor, bad).status == status
    assert verdict(executor, good).status == "pass"


def test_crash_of_a_queued_case_is_its_own(executor):
    first, bad = named("none", "first"), named("segv", "bad")
    executor.send(first)
    executor.send(bad)                               # the child crashes on it while `first` is judged
    assert verdict(executor, first).status == "pass"
    assert verdict(executor, bad).status == "crash"
    again = named("none", "after")
    assert verdict(executor, again).status == "pass"


def test_run_after_send_runs_once_and_a_rerun_runs_again(executor):
    case = named("none", "once", value=2, expected=2)
    executor.send(case)
    executor.send(case)                              # already queued: not sent twice
    first_pid = executor.pid
    assert executor.run(case).status == "ok"
    assert executor.run(case).status == "ok"         # a flake re-run is a new request
    assert executor.pid == first_pid and not executor._sent and not executor._answered


def test_a_case_that_deletes_a_program_is_the_last_its_child_runs(executor):
    """A use after free in the driver can corrupt the heap of the child (Case.last_in_child):
    nothing is queued behind such a case, and the case after it gets a fresh child."""
    before, after = named("none", "before"), named("none", "after", value=5, expected=5)
    deleting = named("none", "deletes", value=2, expected=2)
    deleting = dataclasses.replace(deleting, programs=((),), steps=(
        dataclasses.replace(deleting.steps[0], delete_programs=(1,)),))
    assert deleting.last_in_child() and not before.last_in_child()
    for case in (before, deleting, after):
        executor.send(case)
    assert executor.holds(deleting.id) and not executor.holds(after.id)
    assert verdict(executor, before).status == "pass"
    first_pid = executor.pid
    assert verdict(executor, deleting).status == "pass"
    assert executor.pid is None                      # retired once it answered
    assert verdict(executor, after).status == "pass"
    assert executor.pid not in (None, first_pid)


def test_a_group_spreads_queued_cases_over_its_children_and_each_keeps_its_verdict():
    """ExecutorGroup (the plugin's children of one target): a case queued while every child
    has work starts another child, up to the group's size; each result comes from the child
    that ran the case, and a crash in one child is that case's alone."""
    made = []

    def make():
        made.append(Executor(FAULT, case_timeout=5.0))
        return made[-1]
    group = ExecutorGroup(make, size=2)
    try:
        cases = [named("none", "a", value=1, expected=1), named("segv", "b"),
                 named("none", "c", value=3, expected=3), named("none", "d", value=4, expected=5)]
        for case in cases:
            group.send(case)
        assert len(made) == 2 and [m.pending for m in made] == [2, 2]
        assert made[0].holds("selftest/pipelined/a") and made[1].holds("selftest/pipelined/b")
        statuses = [judge(case, group.run(case), "fault").status for case in cases]
        assert statuses == ["pass", "crash", "pass", "fail"]
        assert [m.pending for m in made] == [0, 0]
        again = named("none", "again", value=2, expected=2)
        assert judge(again, group.run(again), "fault").status == "pass"      # run without send
        assert len(made) == 2
    finally:
        group.close()


class Queue:
    """A child's queue as ExecutorGroup sees it (pending, holds, send, run), with no child behind it:
    where the group puts each case is what is tested."""

    def __init__(self):
        self.queued: list[str] = []
        self.took: list[str] = []

    @property
    def pending(self) -> int:
        return len(self.queued)

    @property
    def blocked(self) -> bool:
        return bool(self.queued) and self.queued[-1].endswith("/alone")

    def holds(self, case_id: str) -> bool:
        return case_id in self.queued

    def send(self, case) -> None:
        self.queued.append(case.id)
        self.took.append(case.id)

    def run(self, case):
        self.queued.remove(case.id)
        return Reply.OK


@pytest.mark.parametrize("size", [2, 3])
def test_children_with_equal_work_take_cases_in_turn(size):
    """Exploration keeps N+1 cases queued in N children and takes the oldest's result before
    queueing the next (harness/explore/search.py): each child gets every N-th case, not one
    child two of every three."""
    made: list[Queue] = []
    group = ExecutorGroup(lambda: made.append(Queue()) or made[-1], size=size)
    cases = [SimpleNamespace(id=f"case/{n}") for n in range(12 * size)]
    for case in cases[:size + 1]:
        group.send(case)
    for number, case in enumerate(cases):
        assert group.run(case) is Reply.OK
        if number + size + 1 < len(cases):
            group.send(cases[number + size + 1])
    assert [member.took for member in made] == [[c.id for c in cases[k::size]] for k in range(size)]


def test_a_case_goes_to_a_child_that_takes_it_now():
    """A child whose last case runs alone (Case.last_in_child, an address-space budget) takes no
    case behind it: the next goes to another child, even one with more pending."""
    made: list[Queue] = []
    group = ExecutorGroup(lambda: made.append(Queue()) or made[-1], size=2)
    for name in ("a", "b", "c", "d/alone", "e", "f"):
        group.send(SimpleNamespace(id=f"case/{name}"))
    assert [member.took for member in made] == [["case/a", "case/c", "case/e", "case/f"], ["case/b", "case/d/alone"]]


def test_the_pool_closes_executors_of_targets_left_without_cases():
    """The first target's spawner starts before collection; if -k, --shard or --resume leaves
    that target no case, pytest_collection_finish closes it (scheduler.pipeline.Pipeline.keep_only)."""
    from harness.base.config import RunSettings
    from harness.scheduler.pipeline import Pipeline

    class Group:
        closed = False

        def close(self):
            self.closed = True

    pool = Pipeline(RunSettings())
    groups = {"llvmpipe": Group(), "zink": Group()}
    pool._executors.update(groups)
    pool.keep_only({"zink", "lavapipe"})
    assert groups["llvmpipe"].closed and not groups["zink"].closed
    assert list(pool._executors) == ["zink"]


def test_a_fresh_child_does_not_hold_up_send_and_its_start_is_not_the_cases():
    """After a case that is the last in its child (a real llvmpipe child, a tess sequence that
    deletes programs), `send` of the next case starts the fresh child and queues the case behind
    its `info` without reading the reply; `run` reads the facts first, then the case's result."""
    from conftest import generated, pinned_mesa
    from harness.executor.targets import get
    cases = generated("tess")
    last = next(case for case in cases if case.last_in_child())
    after = next(case for case in cases if not case.last_in_child() and case.id.startswith("tess/seq/"))
    executor = Executor(get("llvmpipe"), case_timeout=60, fork=True, mesa=pinned_mesa())
    try:
        assert executor.info().status is Reply.OK, executor.info().message
        assert executor.run(last).status is Reply.OK
        old = executor.pid
        assert old is None                               # retired; its exit is collected later
        executor.send(after)
        assert executor.pid is not None and [sent.starts for sent in executor._sent] == ["fresh", ""]
        assert executor.pending == 1 and executor.holds(after.id)
        result = executor.run(after)
        assert judge(after, result, "llvmpipe").status == "pass", result.message
        assert not executor._sent and executor.info().info.renderer.startswith("llvmpipe")
    finally:
        executor.close()


def test_a_fresh_child_that_does_not_start_answers_the_cases_queued_in_it(executor, tmp_path):
    """The first child starts; then every new child fails as it starts ($HARNESS_FAULT_START):
    the cases queued behind a crash get "did not restart", a case after a case that is the last
    in its child "did not start" with the reason; once children start again, cases run."""
    from faults import planted
    failing = tmp_path / "start-fault"
    with planted(start=failing):                         # before the executor's first child (or spawner) starts
        first = named("none", "first", value=1, expected=1)
        assert verdict(executor, first).status == "pass"
        failing.write_text("exit")
        bad, queued = named("segv", "bad"), named("none", "queued", value=2, expected=2)
        executor.send(bad)
        executor.send(queued)
        assert verdict(executor, bad).status == "crash"
        behind = executor.run(queued)
        assert behind.status is Reply.ERROR and behind.message == "target fault did not restart after a crash"
        again = executor.run(named("none", "again"))
        assert again.status is Reply.CRASH and again.message.startswith(
            "target fault did not start: child process died: exit status 3"), again.message
        failing.unlink()
        assert verdict(executor, named("none", "started", value=3, expected=3)).status == "pass"


def test_a_replacement_child_adopts_the_first_childs_facts_and_answers_as_a_first_child():
    """Real llvmpipe children. The facts an executor hands down (its first child's `known`, through
    the pipe) equal those a child started on its own queries, both profiles, extensions and limits
    included. A replacement child (after a case that is the last in its child) is sent them
    (`adopt`), and answers a compat case, core cases, one that needs an extension and one that the
    context's version refuses as that other executor's first child does."""
    from conftest import generated, pinned_mesa
    from harness.executor.targets import get
    tess, params = generated("tess"), generated("draw_params")
    last = next(case for case in tess if case.last_in_child())
    cases = [next(case for case in tess if case.requires.profile == "compat"),
             next(case for case in tess if case.id.startswith("tess/seq/") and not case.last_in_child()),
             next(case for case in params if case.requires.extensions),
             next(case for case in params if tuple(case.requires.gl_version) >= (4, 6))]
    replaced = Executor(get("llvmpipe"), case_timeout=60, fork=True, mesa=pinned_mesa())
    alone = Executor(get("llvmpipe"), case_timeout=60, fork=False, mesa=pinned_mesa())
    try:
        assert replaced.info().status is Reply.OK and alone.info().status is Reply.OK
        handed, queried = replaced._known, alone._known
        assert handed is not None and sorted(handed.profiles) == ["compat", "core"]
        assert handed == queried
        assert all(len(facts.extensions or ()) > 100 and facts.limits for facts in handed.profiles.values())
        assert replaced.run(last).status is Reply.OK and replaced.pid is None
        replaced.send(cases[0])
        assert [sent.message.op for sent in replaced._sent] == ["adopt", "run"]
        assert replaced._sent[0].message.known == queried
        results = [(replaced.run(case), alone.run(case)) for case in cases]
        for case, (mine, theirs) in zip(cases, results):
            assert (mine.status, mine.message) == (theirs.status, theirs.message), case.id
            assert (mine.observation and mine.observation.to_json()) == \
                (theirs.observation and theirs.observation.to_json()), case.id
        assert [mine.status for mine, _ in results[:3]] == [Reply.OK] * 3
        assert all(judge(case, mine, "llvmpipe").status == "pass" for case, (mine, _) in zip(cases[:3], results))
        if results[3][0].status is Reply.SKIP:             # a driver without GL 4.6
            assert "needs GL 4.6" in results[3][0].message
        assert replaced.info().info.profiles == alone.info().info.profiles     # kept from the first child
    finally:
        replaced.close()
        alone.close()


def test_a_groups_other_executors_adopt_the_first_ones_facts():
    """A group's second child (its executor forks from the first's spawner) is not asked for its
    facts: it adopts those of the group's first child, read once."""
    from harness.executor.settings import DEFAULT
    from harness.run.core import make_runner
    group = make_runner(dataclasses.replace(DEFAULT, fork=True), "fault", children=2)
    try:
        group.send(named("none", "one", value=1, expected=1))
        group.send(named("none", "two", value=2, expected=2))
        first, second = group._members
        assert second._sent[0].message == Request("adopt", known=first._known) and first._known == Known()
        for name, value in (("one", 1), ("two", 2)):
            assert judge(named("none", name, value=value, expected=value),
                         group.run(named("none", name, value=value, expected=value)), "fault").status == "pass"
        assert second.info().info == first.info().info
    finally:
        group.close()


def test_a_replacement_child_queries_its_facts_when_not_adopting():
    """`adopts = False` (the other way bench/replacement_facts.py measures): the fresh child after
    a crash is sent `info`, not `adopt`, and answers the next case as well; `child_cpu` reads the
    running child's CPU seconds, None without a child."""
    ex = Executor(FAULT, case_timeout=2.0, fork=True)
    try:
        assert ex.child_cpu() is None
        for adopts, op in ((True, "adopt"), (False, "info")):
            ex.adopts = adopts
            assert verdict(ex, fault_case("none")).status == "pass"
            assert isinstance(ex.child_cpu(), float)
            assert verdict(ex, fault_case("segv")).status == "crash"
            case = named("none", f"after-{op}", value=1, expected=1)
            ex.send(case)
            assert [sent.message.op for sent in ex._sent] == [op, "run"]
            assert judge(case, ex.run(case), "fault").status == "pass"
    finally:
        ex.close()
    assert ex.child_cpu() is None


def test_a_childs_first_reply_says_whether_it_started_whichever_request_it_gets():
    """harness/executor/child.py `handle`: a backend that could not start (Unusable) answers
    `adopt` as it answers `info`, with why; one that cannot adopt (no `adopt`, as the Vulkan
    backend) answers `adopt` with its facts queried, as `info`; one that can answers only OK."""
    from harness.executor import child

    handed = Known({"core": Profile("queried")})

    class Queried:
        def info(self):
            return Facts(renderer="queried", version="1.0")

        def run(self, case):
            raise AssertionError("not a run")

    class Adopting(Queried):
        adopted = None

        def known(self):
            return handed

        def adopt(self, known):
            self.adopted = known

    assert isinstance(Adopting(), AdoptingBackend) and not isinstance(Queried(), AdoptingBackend)
    for op in ("info", "adopt"):
        assert child.handle(child.Unusable("no driver"), Request(op, known=Known())) == Result(Reply.ERROR, "no driver")
    queried = child.handle(Queried(), Request("adopt", known=handed))
    assert queried.status is Reply.OK and queried.info.renderer == "queried" and queried.known is None
    adopting = Adopting()
    first = child.handle(adopting, Request("info"))
    assert first.known == handed and first.info.renderer == "queried" and adopting.adopted is None
    assert child.handle(adopting, Request("adopt", known=first.known)) == Result(Reply.OK)
    assert adopting.adopted == handed
