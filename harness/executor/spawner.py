"""Executor children forked from a process that has already imported what a child needs.

Starting `python -m harness.executor.child` costs most of a second of CPU, nearly all of it imports
(PyOpenGL's GL namespace, numpy, the harness); the driver's contexts are a tenth of it. A run
starts a child per crash, per timeout and per case that is the last in its child
(Case.last_in_child), and pays that every time. So an Executor may keep a spawner: a process
started once with the target's environment, which imports the child's modules and forks a
child on request. Nothing in the spawner touches a driver (no EGL display, no Vulkan
instance) or starts a thread, so each fork begins with no driver state and one thread, as a
fresh process does; it then runs harness.executor.child's main as `python -m harness.executor.child` would.

Once the first child has started its driver, the executor has the spawner load that child's
shared objects too (`Spawner.preload`): dlopen without a call into them, so a later fork inherits
them loaded and relocated instead of loading them again, about half of a fresh child's start-up
(bench/results/2026-11-28-spawner-preload.md). A library's constructors run there as at any
load, before any driver state exists; one that starts a thread would leave forks without it, so
a spawner that finds a thread after loading says so and ends (the executor then starts its
children directly, and the next spawner preloads nothing).

The executor hands the child's stdin, stdout and stderr to the spawner over a Unix socket
(SCM_RIGHTS). The spawner is the child's parent, so it reaps it and reports how it ended
(`Forked.wait`), which the executor turns into a verdict as it does for a child of its own.
"""
from __future__ import annotations

import ctypes
import importlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, BinaryIO, TypedDict

from harness.base.errors import CaseOutcome
from harness.mesa.runtime import mapped_paths

if TYPE_CHECKING:
    from harness.base.config import ChildOptions

MESSAGE = 4096
_SHARED_OBJECT = re.compile(r"\.so(\.[0-9.]+)?$")


class SpawnerGone(CaseOutcome):
    """The spawner process ended, or its socket failed."""


class Request(TypedDict, total=False):
    """One message to the spawner: fork a child, wait for one (`pid`) up to `timeout`, or load
    the shared objects one has mapped (`pid`; no reply)."""
    op: str                                 # "fork", "wait" or "preload"
    pid: int
    timeout: float | None


class Reply(TypedDict, total=False):
    pid: int                                # to "fork": the child's
    code: int | None                        # to "wait": as Spawner.wait returns it


class Spawner:
    """The parent's handle on one spawner process (started by `fork`'s first call). A fork is
    asked for without waiting: the child's pipes exist before it does, so requests can be written
    to it at once, and its pid is read from the spawner's replies, which come in the order asked,
    when something first needs it (`Forked.pid`) or before the next request's reply."""

    def __init__(self, launcher: list[str], child_args: list[str], env: dict[str, str]):
        self._launcher, self._args, self._env = launcher, child_args, env
        self._proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._unanswered: deque[Forked] = deque()  # forks asked for whose pid has not been read

    def start(self) -> None:
        """Start the spawner process, if it is not running; `fork` waits for its imports."""
        if self._proc is None:
            self._start()

    def fork(self, stderr: int) -> "Forked":
        """A new child running harness.executor.child, its stderr going to the file descriptor given."""
        self.start()
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        try:
            self._send({"op": "fork"}, [stdin_r, stdout_w, stderr])
        except BaseException:
            for fd in (stdin_w, stdout_r):
                os.close(fd)
            raise
        finally:
            os.close(stdin_r)               # the spawner holds its own copies now
            os.close(stdout_w)
        forked = Forked(self, os.fdopen(stdin_w, "wb", buffering=0), os.fdopen(stdout_r, "rb", buffering=0))
        self._unanswered.append(forked)
        return forked

    def wait(self, pid: int, timeout: float | None) -> int | None:
        """The child's exit code (negative: the signal), or None if it has not ended in time."""
        self._send({"op": "wait", "pid": pid, "timeout": timeout})
        return self._answer()["code"]

    def preload(self, pid: int) -> None:
        """Have the spawner load the shared objects its child `pid` has mapped (the driver's), for
        the children it forks next; the spawner answers nothing, and the next request waits."""
        try:
            self._send({"op": "preload", "pid": pid})
        except SpawnerGone:
            pass                            # the next request says so

    def settle(self) -> None:
        """Read the pids of the forks asked for (SpawnerGone: the spawner ended before answering;
        those forks have none)."""
        while self._unanswered:
            forked = self._unanswered.popleft()
            try:
                forked.answered(self._reply()["pid"])
            except SpawnerGone:
                for unanswered in (forked, *self._unanswered):
                    unanswered.answered(None)
                self._unanswered.clear()
                raise

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()              # the spawner's loop ends on EOF
        if self._proc is not None:
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for unanswered in self._unanswered:
            unanswered.answered(None)
        self._unanswered.clear()
        self._proc = self._sock = None

    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self._proc = subprocess.Popen(
                [*self._launcher, sys.executable, "-m", "harness.executor.spawner", str(theirs.fileno()), *self._args],
                stdin=subprocess.DEVNULL, env=self._env, pass_fds=(theirs.fileno(),),
                start_new_session=True)     # as a child started directly: no terminal signals
        self._sock = ours

    def _send(self, request: Request, fds: Sequence[int] = ()) -> None:
        if self._sock is None:                  # closed while a child was still being polled
            raise SpawnerGone("the spawner is closed")
        try:
            socket.send_fds(self._sock, [json.dumps(request).encode()], list(fds))
        except OSError as exc:
            raise SpawnerGone(f"spawner: {exc}") from None

    def _answer(self) -> Reply:
        """The reply to the request just sent, after those to the forks before it."""
        self.settle()
        return self._reply()

    def _reply(self) -> Reply:
        if self._sock is None:
            raise SpawnerGone("the spawner is closed")
        try:
            message = self._sock.recv(MESSAGE)
        except OSError as exc:
            raise SpawnerGone(f"spawner: {exc}") from None
        if not message:
            raise SpawnerGone("the spawner exited")
        reply: Reply = json.loads(message)
        return reply


class Forked:
    """A forked child, with what the executor uses of subprocess.Popen."""

    def __init__(self, spawner: Spawner, stdin: BinaryIO, stdout: BinaryIO):
        self._spawner, self.stdin, self.stdout = spawner, stdin, stdout
        self._pid: int | None = None        # None until the spawner answers
        self.unforked = False               # the spawner ended without answering: maybe never forked
        self.returncode: int | None = None

    def answered(self, pid: int | None) -> None:
        """The spawner's answer: the child's pid, or None where it ended without one."""
        self._pid, self.unforked = pid, pid is None
        if pid is None and self.returncode is None:
            self.returncode = -signal.SIGKILL   # never started, or nobody can say how it ended

    @property
    def pid(self) -> int:
        """The child's pid (SpawnerGone: the spawner ended before it said)."""
        if self._pid is None and not self.unforked:     # not answered yet
            self._spawner.settle()
        if self._pid is None:
            raise SpawnerGone("the spawner ended before it gave the child's pid")
        return self._pid

    def poll(self) -> int | None:
        return self._reap(0.0)

    def wait(self, timeout: float | None = None) -> int:
        code = self._reap(timeout)
        if code is None:
            # the exception's timeout is a float: 0.0 where there was none (the spawner had no such child)
            raise subprocess.TimeoutExpired(f"pid {self._pid}", 0.0 if timeout is None else timeout)
        return code

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)   # not reaped yet, so the pid is still this child's
            except SpawnerGone:
                pass                        # answered(None) set how it ended

    def _reap(self, timeout: float | None) -> int | None:
        if self.returncode is None:
            try:
                self.returncode = self._spawner.wait(self.pid, timeout)
            except SpawnerGone:             # nobody can reap it now, nor say how it ended
                if timeout is not None:
                    return self.returncode
                if self._pid is not None:
                    try:
                        os.kill(self._pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                self.returncode = -signal.SIGKILL
        return self.returncode


# -- the spawner process -------------------------------------------------------------------------
def preload(options: ChildOptions) -> None:
    """Import what harness.executor.child will need for this backend; nothing that opens a driver."""
    from harness.executor import child  # noqa: F401  the child, and with it the case model and the framing
    from harness.backends import registry
    from harness.base import plugins
    try:
        plugins.load(options.plugins)       # before the registry is asked: they may add the backend
    except plugins.PluginError:             # the child tries again and says why
        pass
    if registry.is_gl(options.backend):
        from harness.backends.gl.context import select_platform
        select_platform(options.gl_platform)        # PyOpenGL picks its loader on first import
    for name in registry.modules(options):
        try:
            importlib.import_module(name)
        except Exception:                   # the child imports it again and says why
            pass


def serve(sock: socket.socket, child_args: list[str]) -> None:
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, MESSAGE, 3)
        except OSError:
            return
        if not message:
            return                          # the executor is gone
        request: Request = json.loads(message)
        reply: Reply
        if request["op"] == "fork":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(sock, fds, child_args)
            for fd in fds:
                os.close(fd)
            reply = {"pid": pid}
        elif request["op"] == "preload":
            load_mapped(request["pid"])
            continue
        else:
            reply = {"code": _wait(request["pid"], request["timeout"])}
        try:
            sock.send(json.dumps(reply).encode())
        except OSError:                     # the executor closed with a fork still unanswered
            return


def shared_objects(maps: str) -> list[str]:
    """The shared objects a /proc/PID/maps text maps, by path, in the order first mapped."""
    return [path for path in mapped_paths(maps) if _SHARED_OBJECT.search(path)]


def load_mapped(pid: int) -> None:
    """Load what child `pid` has mapped and this process has not (RTLD_NOW: relocated here, once;
    RTLD_LOCAL: no symbol enters the global scope that the driver's own loading would not put
    there). A library that cannot be loaded is left to the child, as before. If a thread has
    started, this process ends: a fork carries only the forking thread."""
    try:
        with open(f"/proc/{pid}/maps") as theirs, open("/proc/self/maps") as mine:
            wanted, have = shared_objects(theirs.read()), set(shared_objects(mine.read()))
    except OSError:                         # the child has gone: nothing to learn from it
        return
    for path in wanted:
        if path not in have:
            try:
                ctypes.CDLL(path, mode=os.RTLD_NOW)
            except OSError:
                pass
    threads = len(os.listdir("/proc/self/task"))
    if threads > 1:
        print(f"spawner: {threads} threads after loading the driver's libraries; a fork would lose "
              "all but one, so this spawner ends", file=sys.stderr, flush=True)
        from harness.executor import child
        child.exit_now(3)


def _wait(pid: int, timeout: float | None) -> int | None:
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        try:
            done, status = os.waitpid(pid, 0 if deadline is None else os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return os.waitstatus_to_exitcode(status)
        if deadline is not None and time.monotonic() >= deadline:   # None: waitpid blocked until done
            return None
        time.sleep(0.002)


def _child(sock: socket.socket, fds: list[int], child_args: list[str]) -> None:
    """In the fork: become `python -m harness.executor.child ARGS` on the descriptors given; never returns."""
    from harness.executor import child
    from harness.base import profiling
    code = 1
    try:
        os.setsid()
        sock.close()
        for target, fd in zip((0, 1, 2), fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        profiling.forget()                  # the spawner's timers are not the child's
        child.main(child_args)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        child.exit_now(code)


def main(argv: list[str] | None = None) -> None:
    from harness.executor import child
    from harness.base import profiling
    from harness.base.config import ChildOptions
    argv = sys.argv[1:] if argv is None else argv
    sock = socket.socket(fileno=int(argv[0]))
    options = ChildOptions.from_arg(argv[1])
    # A spawner writes its timers itself when it ends: an atexit handler would be inherited by
    # every child it forks.
    timers = profiling.start("spawner", options.profile, at_exit=False) if options.profile else None
    preload(options)
    if timers:
        timers.mark("preloaded")
    serve(sock, argv[1:])
    if timers:
        timers.write()
    child.exit_now(0)      # the executor waits for this exit: skip the slow finalization


if __name__ == "__main__":
    main()
