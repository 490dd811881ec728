"""Timers per process for bench/bench.py's profile: named sections the harness's code marks
explicitly (`with profiling.section("compile+link"):`), which cost one check when profiling is
off. It is on in a process once `start` is called: in the pytest processes when
$HARNESS_PROFILE names a folder (`-p harness.base.profiling`, which xdist hands on to its workers),
in the executor's child and the spawner when their ChildOptions carry that folder.

Every profiled process writes `<role>-<pid>.json` there when it ends (a child also every second,
as a driver may crash it): its CPU time (all threads, from getrusage), when it started and ended
(or last wrote), and for each section the count, wall seconds and process CPU seconds spent in
it. Roles:

- `main`: the pytest process (-n 0), or xdist's controller (-n N);
- `worker`: an xdist worker;
- `child`: an executor's child (harness/executor/child.py), which holds the driver;
- `spawner`: the process an executor forks its children from (harness/executor/spawner.py).

bench/wall_profile.py reads the folder and prints where the wall time went.
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import resource
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterator, Literal, ParamSpec, TypeVar

import pluggy

from harness.base.config import knobs

if TYPE_CHECKING:         # pytest's types only: the child imports this module without pytest
    import pytest

P = ParamSpec("P")
R = TypeVar("R")

hookimpl = pluggy.HookimplMarker("pytest")          # pytest.hookimpl, without importing pytest in the child
_OFF = contextlib.nullcontext()
_active: "list[Timers]" = []        # the process's timers once started (one at most)


def start(role: str, folder: str, at_exit: bool = True, every: float = 0.0) -> "Timers":
    """Turn the sections on in this process, writing to `folder`."""
    if not _active:
        _active.append(Timers(role, folder, at_exit=at_exit, every=every))
    return _active[0]


def timed(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator: every call of the function is section `name`."""
    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if not _active:
                return function(*args, **kwargs)
            with _Section(_active[0], name):
                return function(*args, **kwargs)
        return wrapper
    return decorate


def forget() -> None:
    """In a forked process: drop the timers inherited from the parent (started anew if wanted)."""
    _active.clear()


def section(name: str) -> ContextManager[None]:
    """A context manager timing what it encloses as section `name` (nothing when off)."""
    return _Section(_active[0], name) if _active else _OFF


def mark(name: str, last: bool = False) -> None:
    if _active:
        _active[0].mark(name, last)


class _Section:
    __slots__ = ("timers", "name", "wall", "cpu")

    def __init__(self, timers: "Timers", name: str) -> None:
        self.timers, self.name = timers, name

    def __enter__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __exit__(self, *exc: object) -> Literal[False]:
        self.timers.add(self.name, time.perf_counter() - self.wall, time.process_time() - self.cpu)
        return False


def _process_start() -> float:
    """When this process started (epoch seconds, 10 ms resolution), from /proc."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        started = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]) / ticks
        uptime = float(open("/proc/uptime").read().split()[0])
        return time.time() - (uptime - started)
    except (OSError, ValueError, IndexError):
        return time.time()


class Timers:
    def __init__(self, role: str, folder: str, at_exit: bool = True, every: float = 0.0) -> None:
        """`every` > 0: also write the file when a section ends that many seconds after the
        last write, so that a process that crashes leaves what it measured until then."""
        self.role, self.folder = role, folder
        self.started = _process_start()
        self.sections: dict[str, list[float]] = {}   # name -> [count, wall s, cpu s]
        self.events: dict[str, list[float]] = {}     # name -> [epoch s, process CPU s] when it happened
        self.every, self._written = every, time.monotonic()
        self._lock = threading.Lock()       # a child's request thread times too (pickle.loads)
        if at_exit:
            atexit.register(self.write)

    def add(self, name: str, wall: float, cpu: float) -> None:
        with self._lock:
            entry = self.sections.get(name)
            if entry is None:
                self.sections[name] = [1, wall, cpu]
            else:
                entry[0] += 1
                entry[1] += wall
                entry[2] += cpu
            if self.every and time.monotonic() - self._written >= self.every:
                self._write()

    def mark(self, name: str, last: bool = False) -> None:
        if last or name not in self.events:
            self.events[name] = [time.time(), time.process_time()]

    def write(self) -> None:
        with self._lock:
            self._write()

    def _write(self) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        data = {"role": self.role, "pid": os.getpid(), "ppid": os.getppid(), "started": self.started,
                "ended": time.time(), "cpu": usage.ru_utime + usage.ru_stime,
                "sections": self.sections, "events": self.events}
        path = os.path.join(self.folder, f"{self.role}-{os.getpid()}.json")
        with open(path + ".tmp", "w") as out:
            json.dump(data, out)
        os.replace(path + ".tmp", path)
        self._written = time.monotonic()


# -- pytest processes (-p harness.base.profiling) -----------------------------------------------
def pytest_configure(config: pytest.Config) -> None:
    folder = knobs().profile
    if folder and not _active:
        timers = start("worker" if hasattr(config, "workerinput") else "main", folder)
        config.pluginmanager.register(_Hooks(timers), "harness-profiling-hooks")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _active:
        _active[0].write()          # xdist workers may end without running atexit


class _Hooks:
    def __init__(self, timers: Timers) -> None:
        self.t = timers

    def _section(self, name: str) -> Callable[[], None]:
        wall, cpu = time.perf_counter(), time.process_time()
        return lambda: self.t.add(name, time.perf_counter() - wall, time.process_time() - cpu)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.t.mark("sessionstart")

    @hookimpl(hookwrapper=True)
    def pytest_collection(self, session: pytest.Session) -> Iterator[None]:
        done = self._section("collection")
        yield
        done()
        self.t.mark("collected")

    @hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        self.t.mark("first item")
        done = self._section("item")
        yield
        done()
        self.t.mark("last item", last=True)

    @hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        done = self._section("setup")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        done = self._section("call")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        done = self._section("teardown")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
        done = self._section("makereport")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Iterator[None]:
        # -n 0 and the controller: JUnit, terminal, results; an xdist worker: serialize and send
        done = self._section("logreport")
        yield
        done()
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.t.mark("first verdict")
            self.t.mark("last verdict", last=True)

    @hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self.t.mark("a worker collected")
        self.t.mark("every worker collected", last=True)

    @hookimpl(hookwrapper=True)
    def pytest_report_from_serializable(self, config: pytest.Config, data: dict[str, Any]) -> Iterator[None]:
        done = self._section("report.unserialize")          # the controller, per report
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int | pytest.ExitCode) -> Iterator[None]:
        self.t.mark("sessionfinish")
        done = self._section("sessionfinish")               # JUnit and results files, closing
        yield
        done()
        self.t.mark("sessionfinished")

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.t.mark("unconfigure")
