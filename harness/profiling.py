"""Timers per process for bench/bench.py's profile; nothing happens unless $HARNESS_PROFILE
names a folder.

Every process of a run writes `<role>-<pid>.json` there when it ends (a child also every second,
as a driver may crash it): its CPU time (all threads, from getrusage), when it started and ended
(or last wrote), and for each timed section the count, wall seconds and process CPU seconds
spent in it. Roles:

- `main`: the pytest process (-n 0), or xdist's controller (-n N);
- `worker`: an xdist worker;
- `child`: an executor's child (harness/worker.py), which holds the driver;
- `spawner`: the process an executor forks its children from (harness/spawner.py).

The pytest processes take this module as a plugin (`-p harness.profiling`, which xdist hands on
to its workers); the child calls `child(backend)` once, from harness/worker.py. Sections are
timed by wrapping functions and by pytest hook wrappers, so nothing in the harness changes when
the variable is unset. bench/wall_profile.py reads the folder and prints where the wall time went.
"""
from __future__ import annotations

import atexit
import functools
import json
import os
import pickle
import resource
import threading
import time

import pluggy

hookimpl = pluggy.HookimplMarker("pytest")          # pytest.hookimpl, without importing pytest in the child

DIR = os.environ.get("HARNESS_PROFILE", "")


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
    def __init__(self, role: str, at_exit: bool = True, every: float = 0.0):
        """`every` > 0: also write the file when a section ends that many seconds after the
        last write, so that a process that crashes leaves what it measured until then."""
        self.role = role
        self.started = _process_start()
        self.sections: dict[str, list] = {}          # name -> [count, wall s, cpu s]
        self.events: dict[str, list] = {}            # name -> [epoch s, process CPU s] when it happened
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

    def wrap(self, owner, attribute: str, name: str) -> None:
        """Time every call of owner.attribute as section `name`; a missing attribute is an error,
        so that a renamed function cannot drop out of the profile silently."""
        function = getattr(owner, attribute)
        if getattr(function, "_profiled", False):
            return

        @functools.wraps(function)
        def timed(*args, **kwargs):
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(name, time.perf_counter() - wall, time.process_time() - cpu)
        timed._profiled = True
        setattr(owner, attribute, timed)

    def write(self) -> None:
        with self._lock:
            self._write()

    def _write(self) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        data = {"role": self.role, "pid": os.getpid(), "ppid": os.getppid(), "started": self.started,
                "ended": time.time(), "cpu": usage.ru_utime + usage.ru_stime,
                "sections": self.sections, "events": self.events}
        path = os.path.join(DIR, f"{self.role}-{os.getpid()}.json")
        with open(path + ".tmp", "w") as out:
            json.dump(data, out)
        os.replace(path + ".tmp", path)
        self._written = time.monotonic()


class _Timed:
    """Stands in for the json or pickle module inside harness.protocol: the framing's
    serialization, timed as "<module>.dumps" and "<module>.loads"."""

    def __init__(self, timers: Timers, module):
        self.dumps, self.loads = module.dumps, module.loads
        timers.wrap(self, "dumps", f"{module.__name__}.dumps")
        timers.wrap(self, "loads", f"{module.__name__}.loads")


def _framing(timers: Timers) -> None:
    from harness import protocol
    protocol.json = _Timed(timers, json)
    protocol.pickle = _Timed(timers, pickle)
    timers.wrap(protocol, "send", "pipe.send")           # dumps + write


def _waits(timers: Timers) -> None:
    from harness import protocol
    timers.wrap(protocol, "recv", "pipe.recv")           # waiting + read + loads, on the main thread


# -- the executor's child ------------------------------------------------------------------
def child(backend) -> None:
    """Called once by harness/worker.py with its backend, the context made."""
    if not DIR:
        return
    timers = Timers("child", every=1.0)        # a driver may crash the child: keep the file current
    timers.mark("backend ready")
    _framing(timers)
    timers.wrap(backend, "run", "backend.run")
    timers.wrap(backend, "info", "backend.info")
    for attribute, name in (("_link", "compile+link"), ("_draw", "draw+readback"),
                            ("_vertex_data", "vertex data"), ("_reset", "reset state")):
        if hasattr(type(backend), attribute):            # the GL backend's parts
            timers.wrap(type(backend), attribute, name)
    contexts = getattr(backend, "_contexts", None)       # the GL backend's context per case
    if contexts is not None:
        timers.wrap(type(contexts), "begin_case", "case context")
        timers.wrap(type(contexts), "end_case", "case context")
        timers.wrap(type(backend), "_framebuffer", "framebuffer")


# -- the spawner (harness/spawner.py) --------------------------------------------------------
def spawner() -> Timers | None:
    """Timers for a spawner, which writes them itself when it ends: an atexit handler would be
    inherited by every child it forks."""
    return Timers("spawner", at_exit=False) if DIR else None


# -- pytest processes (-p harness.profiling) -----------------------------------------------
_timers: Timers | None = None


def pytest_configure(config):
    global _timers
    if not DIR or _timers is not None:
        return
    _timers = Timers("worker" if hasattr(config, "workerinput") else "main")
    _framing(_timers)
    _waits(_timers)
    from harness.executor import Executor
    for attribute in ("run", "send", "info", "close", "_start"):
        _timers.wrap(Executor, attribute, f"executor.{attribute.lstrip('_')}")
    config.pluginmanager.register(_Hooks(_timers), "harness-profiling-hooks")


def pytest_unconfigure(config):
    if _timers is not None:
        _timers.write()             # xdist workers may end without running atexit


class _Hooks:
    def __init__(self, timers: Timers):
        self.t = timers

    def _section(self, name):
        wall, cpu = time.perf_counter(), time.process_time()
        return lambda: self.t.add(name, time.perf_counter() - wall, time.process_time() - cpu)

    def pytest_sessionstart(self, session):
        self.t.mark("sessionstart")
        from harness import plugin
        self.t.wrap(plugin, "judge", "judge")
        self.t.wrap(plugin.CaseItem, "_keep_for_triage", "triage files")

    @hookimpl(hookwrapper=True)
    def pytest_collection(self, session):
        done = self._section("collection")
        yield
        done()
        self.t.mark("collected")

    @hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.t.mark("first item")
        done = self._section("item")
        yield
        done()
        self.t.mark("last item", last=True)

    @hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        done = self._section("setup")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        done = self._section("call")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        done = self._section("teardown")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        done = self._section("makereport")
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_runtest_logreport(self, report):
        # -n 0 and the controller: JUnit, terminal, results; an xdist worker: serialize and send
        done = self._section("logreport")
        yield
        done()
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.t.mark("first verdict")
            self.t.mark("last verdict", last=True)

    @hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        self.t.mark("a worker collected")
        self.t.mark("every worker collected", last=True)

    @hookimpl(hookwrapper=True)
    def pytest_report_from_serializable(self, config, data):
        done = self._section("report.unserialize")          # the controller, per report
        yield
        done()

    @hookimpl(hookwrapper=True)
    def pytest_sessionfinish(self, session, exitstatus):
        self.t.mark("sessionfinish")
        done = self._section("sessionfinish")               # JUnit and results files, closing
        yield
        done()
        self.t.mark("sessionfinished")

    def pytest_unconfigure(self, config):
        self.t.mark("unconfigure")
