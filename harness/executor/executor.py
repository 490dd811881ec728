"""Per (pytest process, target): a long-lived child that holds the driver's context.

A crash of the child (signal, abort, exit) becomes the verdict `crash` of the case in flight,
naming the signal and quoting the tail of the child's stderr; a hung case becomes `timeout` and
its child is killed. A case is hung when its child has spent the case's CPU budget without a
result (a spinning driver), or no CPU at all for a few seconds (a deadlock), or, last, when the
wall clock passes --case-timeout (a wait on a GPU). CPU, not wall time, is the measure: a case's
CPU does not grow with the machine's load, its wall time does (docs/decisions.md#hangs). A child
may also answer `crash` itself (a lost Vulkan device, harness.backends.DeviceLost). Either way the
next case gets a fresh child, as it does after a case that is the last in its child (Case.last_in_child).

Only the first child's start is waited for (its facts are checked before any case). A fresh child
after it starts without a wait: its first request goes down the pipe with the cases queued
behind it, and its reply is read first, when the first of them is run; the old child ends
meanwhile (harness/executor/lifecycle.py). That request is `adopt`, with the facts the first
child queried (its `info` reply's `known`), where the backend hands them down (GL: no queries,
and only the long-lived contexts its cases use, made as they come); else `info` again. Either
way its reply says whether the child started (a backend that could not: why). The other
executors of a group (`forks_from`) hand their first child the same facts.
"""
from __future__ import annotations

import itertools
import select
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Callable

from harness.base import config, profiling
from harness.executor import protocol
from harness.executor.protocol import Request
from harness.model.case import Case
from harness.base.config import RunSettings
from harness.executor.lifecycle import STDERR_TAIL, Child, Reaper, death_status, describe_exit, in_glslang, printable
from harness.executor.settings import DEFAULT
from harness.executor.spawner import Forked, Spawner, SpawnerGone
from harness.model.facts import Facts, Known
from harness.model.status import Reply, Result
from harness.executor.targets import Target

START_TIMEOUT = 60.0        # seconds for a child to start and create its context
POLL = 0.5                  # seconds between looks at a child's CPU while a case runs


class Executor:
    def __init__(self, target: Target, settings: RunSettings | None = None, forks_from: "Executor | None" = None,
                 **overrides: Any):
        """`settings` (harness.base.config.RunSettings; default: its defaults, without a spawner),
        with `overrides` of its fields (case_timeout=20, mesa=build, knobs=..., ...). `forks_from`:
        an executor of the same target and child options whose spawner this one forks its
        children from too (one spawner a target in a process, not one an executor); that
        executor owns and closes it."""
        settings = settings or DEFAULT
        if isinstance(overrides.get("vk_without"), str):
            overrides["vk_without"] = config.split_names(overrides["vk_without"])
        self.settings = replace(settings, **overrides)
        self.target = target
        self.mesa = self.settings.mesa
        self.case_timeout = self.settings.case_timeout
        self._proc: Child | None = None
        self._ended = Reaper()                      # children retired or killed, not yet reaped
        self._info: Facts | None = None
        self._known: Known | None = None            # what a fresh child adopts (the first child's facts)
        # False: a fresh child queries its facts itself (`info`), as before they were handed down;
        # bench/replacement_facts.py measures the two ways.
        self.adopts = True
        self._sent: deque[_Sent] = deque()          # requests the child has not answered yet
        self._answered: dict[str, Result] = {}      # replies to `send`s that `run` has not taken
        self._answered_at = 0.0
        self._fork = self.settings.fork             # children forked from a spawner (spawner.py)
        self._spawner: Spawner | None = None
        self._forks_from = forks_from
        self._borrowed = False                      # `_spawner` is forks_from's
        # Batched (harness/executor/batch.py): up to `batch` cases in one context of the child; a new
        # child starts a new batch. `_batch`: the ids sent into the child's batch so far.
        self.batch = self.settings.batch if target.batches and self.settings.batch > 1 else 0
        self._batch: list[str] = []

    # -- child lifecycle -------------------------------------------------------------------
    def _child_args(self) -> tuple[list[str], list[str], dict[str, str]]:
        """What starts a child's Python (a --mesa build's loader, or nothing), its arguments, its environment."""
        base = config.environ()
        return (self.target.command([], base, self.mesa), [self.settings.child_options(self.target).to_arg()],
                self.target.environment(base, self.mesa))

    def prepare(self) -> None:
        """Start the spawner now, without waiting for it: it imports while the caller goes on
        (collecting), and the first child forks at once. Nothing happens without a spawner."""
        if not self._fork:
            return
        lender = self._forks_from._spawner if self._forks_from is not None else None
        if lender is not None and (self._spawner is None or self._borrowed):
            self._spawner, self._borrowed = lender, True
        elif self._spawner is None or self._borrowed:
            self._spawner, self._borrowed = Spawner(*self._child_args()), False
            self._spawner.start()

    @profiling.timed("executor.start")
    def _start(self) -> None:
        self._ended.reap()                  # the children ended before, those that have exited
        self._batch = []
        stderr = tempfile.TemporaryFile()
        if self._fork:
            self.prepare()
            spawner = self._spawner
            assert spawner is not None                  # prepare made it
            try:
                self._proc = Child(spawner.fork(stderr.fileno()), stderr)
                return
            except SpawnerGone:             # start this child directly; the next fork starts a new spawner
                spawner.close()             # a borrowed one: its owner's next fork starts it again
                self._spawner = None
        launcher, args, env = self._child_args()
        self._proc = Child(subprocess.Popen(
            [*launcher, sys.executable, "-m", "harness.executor.child", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env,
            start_new_session=True), stderr)     # a hang cannot take the caller's signals with it

    def _kill(self) -> None:
        """End the child now (SIGKILL); its exit is collected later."""
        if self._proc is not None:
            self._ended.end(self._proc, kill=True)
        self._proc = None

    def _retire(self) -> None:
        """Let the child end (nothing may be in flight): its loop ends on EOF; its exit is collected
        later (the next start, or close). Answers not yet taken stay."""
        if self._proc is not None:
            self._ended.end(self._proc)
        self._proc = None

    @profiling.timed("executor.close")
    def close(self) -> None:
        if self._sent:
            self._kill()                  # nobody wants the answers still coming
        self._sent.clear()
        self._answered.clear()
        self._retire()
        self._ended.close()                 # before the spawner that reaps a forked child goes
        if self._spawner is not None and not self._borrowed:
            self._spawner.close()           # its own: a borrowed one is its owner's to close
        self._spawner = None

    def _child(self) -> Child:
        """The child a request goes to (started by then: info() or send starts it)."""
        assert self._proc is not None, "no child"
        return self._proc

    def _fd(self, name: str) -> int:
        """The child's stdin or stdout, as a file descriptor."""
        return self._child().fd(name)

    def child_cpu(self) -> float | None:
        """The running child's CPU seconds so far, all its threads (None without a child, or once
        it is gone)."""
        return self._proc.cpu() if self._proc is not None else None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def holds(self, case_id: str) -> bool:
        """Whether a run of this case is queued here or answered and not yet taken."""
        return case_id in self._answered or any(sent.case_id == case_id and not sent.starts for sent in self._sent)

    @property
    def blocked(self) -> bool:
        """Whether a case sent now would wait for `run`: the last one queued runs alone."""
        return bool(self._sent) and self._sent[-1].alone

    @property
    def pending(self) -> int:
        """Cases queued here whose results `run` has not taken."""
        return sum(not sent.starts for sent in self._sent) + len(self._answered)

    # -- requests ----------------------------------------------------------------------------
    # Requests are pipelined: `send` queues a case in the child while this process still
    # judges the one before, and the child answers in order. Each case keeps its own reset
    # GL state in the child, so the overlap changes no result, only who waits.
    @profiling.timed("executor.send")
    def send(self, case: Case) -> None:
        """Queue a case in the child ahead of `run` (a no-op if it is already queued)."""
        if self.holds(case.id):
            return
        if self.blocked:
            return                          # `run` queues it once the budgeted case is answered
        if self._info is None and self.info().status is not Reply.OK:
            return                          # the first child's facts come first; `run` reports why not
        if self._proc is None:              # a fresh child (or a group's executor that adopted its facts):
            self._replace()                 # its start is read before the case's reply
        # The child draws and reads back; the expectations (up to 300 KB of exact coordinates
        # in a case) stay here, where the verdict is made.
        message = Request("run", replace(case, expect=(), description=""))
        # A case with an address-space budget runs alone: the child reading the next request
        # would allocate inside that budget. A case that is the last in its child runs alone too.
        last = case.last_in_child()
        self._transmit(_Sent(case.id, message, alone=last or case.requires.address_space > 0, last=last,
                             cpu_seconds=case.requires.cpu_seconds, batched=bool(self.batch)))

    @profiling.timed("executor.run")
    def run(self, case: Case) -> Result:
        """The result of the earliest queued run of this case id, queueing one if none is."""
        if case.id in self._answered:
            return self._answered.pop(case.id)
        started = self.info()
        if started.status is not Reply.OK:
            return self._unstarted(started)
        while True:
            self.send(case)                 # a no-op once queued
            if case.id in self._answered:   # answered while the child was restarted
                return self._answered.pop(case.id)
            head = self._sent[0]
            if head.starts:
                self._started()
                continue
            result = self._receive()
            if head.case_id == case.id:
                return result
            self._answered[head.case_id] = result

    def run_fresh(self, case: Case) -> Result:
        """The case in a child started for it and ended after it: nothing ran before it in that
        process. A driver's process-wide state (zink's screen and its buffer allocator live as
        long as the process, and hand a new context memory an earlier one freed) cannot reach it,
        as it can reach a context of its own in a child that ran other cases (the flake re-run of
        a failure the baseline does not expect: core.rerunner)."""
        owner = self._forks_from or self            # whose spawner the fresh child forks from
        fresh = Executor(self.target, settings=replace(self.settings, batch=0), forks_from=owner)
        try:
            return fresh.run(case)
        finally:
            fresh.close()

    def _unstarted(self, started: Result, after_crash: bool = False) -> Result:
        """A case's result where its child did not start (`started`: the child's info reply)."""
        if after_crash:
            return Result(Reply.ERROR, f"target {self.target.name} did not restart after a crash")
        return Result(started.status if started.status in (Reply.CRASH, Reply.TIMEOUT) else Reply.ERROR,
                      f"target {self.target.name} did not start: {started.message}")

    def _replace(self, after_crash: bool = False) -> None:
        """Start a fresh child without waiting for it: its `adopt` (or `info`) request is queued
        first, and read (`_started`) before the reply of any case queued behind it."""
        self._start()
        adopt = self._known is not None and self.adopts
        first = Request("adopt", known=self._known) if adopt else Request("info")
        self._transmit(_Sent("", first, starts="after a crash" if after_crash else "fresh"))

    def _started(self) -> None:
        """Read the fresh child's facts, queued at the head. The child answers its cases after them,
        so a case's clock starts here: its child's start-up is not the case's. A child that did not
        start is ended, and the cases queued in it say why on `run`."""
        head = self._sent.popleft()
        started = self._read(head.at + START_TIMEOUT - time.perf_counter(), head.at, START_TIMEOUT)
        self._answered_at = time.perf_counter()
        if started.status is Reply.OK:
            self._info = started.info or self._info     # an adopting child answers no facts
            return
        self._kill()
        for sent in self._sent:
            self._answered.setdefault(sent.case_id, self._unstarted(started, head.starts == "after a crash"))
        self._sent.clear()

    def _transmit(self, sent: "_Sent") -> None:
        if sent.batched:                    # where it joins the child's batch, or begins a new one
            if len(self._batch) >= self.batch:
                self._batch = []
            sent.before = tuple(self._batch)
            sent.message = replace(sent.message, batch="keep" if self._batch else "new")
            self._batch.append(sent.case_id)
        sent.at = time.perf_counter()
        self._sent.append(sent)
        try:
            protocol.send_request(self._fd("stdin"), sent.message)
        except BrokenPipeError:
            pass                            # the child died: the reply read says how

    def _receive(self) -> Result:
        """The head request's reply. A crash or timeout is the head case's verdict; the requests
        queued behind it go to a fresh child."""
        head = self._sent[0]
        # The child starts a request when it has answered the one before.
        start = max(head.at, self._answered_at)
        hung = self._watch(start, head.cpu_seconds or self.settings.case_cpu)
        if hung:
            self._kill()
            result = Result(Reply.TIMEOUT, f"hang: {hung}; child killed", duration=time.perf_counter() - start)
        else:
            result = self._read(start + self.case_timeout - time.perf_counter(), start, self.case_timeout)
        self._sent.popleft()
        if head.batched:
            result = replace(result, batch=head.before)
        self._answered_at = time.perf_counter()
        # ended: the reply's read ended the child (a timeout, its death, a garbled reply)
        ended = self._proc is None or result.status in (Reply.CRASH, Reply.TIMEOUT)
        if head.last and not ended:
            self._retire()                  # nothing is queued behind it; the next case starts a child
        if ended:
            self._kill()                    # one that answered `crash` lives on, its device lost
            waiting = list(self._sent)
            self._sent.clear()
            if waiting:                     # to a fresh child, behind its facts
                self._replace(after_crash=True)
                for sent in waiting:
                    self._transmit(sent)
        return result

    def _watch(self, start: float, budget: float) -> str:
        """Wait until the head case's reply can be read: '' then (or when the child is gone or
        the wall timeout is reached: _read says which), else why the case is hung."""
        fd = self._fd("stdout")
        first = self._child().cpu()
        if first is None:
            return ""
        last = first
        progress = time.perf_counter()
        while True:
            left = start + self.case_timeout - time.perf_counter()
            if left <= 0 or select.select([fd], [], [], min(POLL, left))[0]:
                return ""
            cpu, now = self._child().cpu(), time.perf_counter()
            if cpu is None:
                return ""
            if cpu - first > budget:
                return (f"{cpu - first:.1f} s of CPU without a result (the case's budget: {budget:g} s), "
                        f"{now - start:.1f} s after it started")
            if cpu - last > 0.01:
                last, progress = cpu, now
            elif now - progress > self.settings.stall:
                return (f"no CPU for {now - progress:.1f} s and no result ({cpu - first:.1f} s of CPU "
                        f"in {now - start:.1f} s): a deadlock")

    def _request(self, message: Request, timeout: float) -> Result:
        """One synchronous request (nothing else in flight), starting the child if needed."""
        if self._proc is None:
            self._start()
        start = time.perf_counter()
        try:
            protocol.send_request(self._fd("stdin"), message)
        except BrokenPipeError:
            pass
        return self._read(timeout, start, timeout)

    def _read(self, timeout: float, start: float, allowed: float) -> Result:
        try:
            reply = protocol.recv_reply(self._fd("stdout"), max(0.0, timeout), since=start)
        except protocol.BadReply as exc:    # the pipe is out of step: a fresh child takes what is queued
            self._kill()
            return Result(Reply.ERROR, f"garbled reply from the child (child killed; no verdict on the driver): {exc}",
                          duration=time.perf_counter() - start)
        except protocol.ChildTimeout:
            self._kill()
            return Result(Reply.TIMEOUT, f"hang: no result after {allowed:g} s of wall time (--case-timeout); "
                          "child killed",
                          duration=time.perf_counter() - start)
        except protocol.ChildGone:
            return self._gone(start)
        return replace(reply, message=printable(reply.message))

    def _gone(self, start: float) -> Result:
        """The result where the child closed its pipe without a reply: how it ended, and whose
        fault that is (death_status)."""
        proc = self._child().proc
        try:
            code = proc.wait(timeout=5)     # a fork: its pid read first, if it had one
        except subprocess.TimeoutExpired:
            code = None
        if isinstance(proc, Forked) and proc.unforked:
            self._kill()                    # the harness's spawner, not the driver: never a crash
            return Result(Reply.ERROR, "the spawner ended before it forked the child (the harness's, "
                          "not the driver)", duration=time.perf_counter() - start)
        how = "did not exit" if code is None else describe_exit(code)
        longer = self._child().stderr_tail()
        tail = longer[-STDERR_TAIL:].strip()
        self._kill()                                     # closes the stderr file: read before
        status = death_status(code, longer)
        message = f"child process died: {how}" if status is Reply.CRASH else \
            f"the harness's layer crashed in glslang (not the driver): {how}" if in_glslang(code, longer) else \
            f"the harness's child failed (a Python exception, not the driver): {how}"
        if tail:
            message += "\n--- stderr tail ---\n" + tail
        return Result(status, message, duration=time.perf_counter() - start)

    @profiling.timed("executor.info")
    def info(self) -> Result:
        """The target's renderer, version and limits, from a live context."""
        lender = self._forks_from
        if self._info is None and lender is not None and lender._known is not None:
            self._info, self._known = lender._info, lender._known   # the same target and child options
        if self._info is None:
            # The first child creates its contexts here, so start-up does not count against a case;
            # a fresh child after it answers its `adopt` ahead of its first case (`_replace`).
            result = self._request(Request("info"), START_TIMEOUT)
            if result.status is not Reply.OK:
                return result
            self._info, self._known = result.info, result.known
            self._preload()
        return Result(Reply.OK, info=self._info)

    def _preload(self) -> None:
        """Have the spawner load the shared objects the started child mapped, for the children
        forked after it (spawner.py). Not for a target whose driver reads its shader cache slot
        when it loads (NVIDIA's: shader_cache.claim), nor for a child started directly."""
        if self._spawner is not None and self._proc is not None and isinstance(self._proc.proc, Forked) \
                and not self.target.shader_cache_slot:
            try:
                self._spawner.preload(self._proc.pid)
            except SpawnerGone:             # the next fork says so
                pass


class ExecutorGroup:
    """Up to `size` children of one target, each an Executor with its own queue: a case queued
    ahead goes to the child with the fewest cases pending that takes one now (not one whose last
    case runs alone), in turn among equals (a child is started when every one has work), and `run` takes its result from that child. One pytest
    process (or exploration) can so keep several cores busy; each case still runs in a context
    of its own, so which child runs it changes nothing in its result."""

    def __init__(self, make: Callable[[], Executor], size: int = 1):
        self._make, self._size = make, max(1, size)
        self._members: list[Executor] = []
        self._where: dict[str, Executor] = {}       # case id -> the child it is queued in
        self._sends = itertools.count()
        self._last: dict[Executor, int] = {}        # the number of the send each child took last

    def send(self, case: Case) -> None:
        if case.id in self._where:
            return
        member = self._pick()
        member.send(case)
        self._last[member] = next(self._sends)
        if member.holds(case.id):                   # not queued behind a case that runs alone
            self._where[case.id] = member

    def run(self, case: Case) -> Result:
        member = self._where.pop(case.id, None) or self._pick()
        return member.run(case)

    def info(self) -> Result:
        return self._first().info()

    def run_fresh(self, case: Case) -> Result:
        return self._first().run_fresh(case)

    def prepare(self) -> None:
        self._first().prepare()

    def close(self) -> None:
        for member in reversed(self._members):      # the first owns the spawner the others borrow
            member.close()
        self._members.clear()
        self._where.clear()
        self._last.clear()

    def _first(self) -> Executor:
        return self._members[0] if self._members else self._pick()

    def _pick(self) -> Executor:
        if len(self._members) < self._size and all(m.pending for m in self._members):
            self._members.append(self._make())
            return self._members[-1]
        # one that takes a case now (not behind a case that runs alone) with the fewest pending; of
        # those, the one sent to longest ago: children with equal work take cases in turn, so a run
        # that judges in the order sent keeps each of them busy
        return min(self._members, key=lambda m: (m.blocked, m.pending, self._last.get(m, -1)))


@dataclass
class _Sent:
    case_id: str
    message: Request
    at: float = 0.0                         # when it was written to the child
    alone: bool = False                     # nothing may be queued behind it
    last: bool = False                      # the child is retired once it has answered
    cpu_seconds: float = 0.0                # the case's own CPU budget (0: the run's)
    batched: bool = False                   # runs in the child's batch context
    starts: str = ""                        # not a case: a fresh child's `info` ("fresh", "after a crash")
    before: tuple[str, ...] = ()            # batched: the cases the child ran before it in that context
