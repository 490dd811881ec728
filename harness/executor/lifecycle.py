"""An executor's child process as the executor holds it, its end without waiting for it, and
whose fault its death is (`death_status`).

`Child`: the process (a subprocess.Popen, or a spawner.Forked) and the file its stderr goes to,
with what the executor reads of it (its pipes, its CPU so far, the tail of its stderr).

`Reaper`: children the executor is done with. A child is retired (its stdin closed: its loop
ends on EOF) or killed (a crash it answered itself, a hang), and the executor goes on at once:
the next child starts while the old one exits. The reaper collects each exit later (on the
next start, and at close), and kills a retired child that has not exited within GRACE seconds,
as the executor did when it waited; nothing is left a zombie and no pipe stays open.
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import IO, Union

from harness.executor.spawner import Forked, SpawnerGone
from harness.model.status import Reply

_GLSLANG_FRAME = os.path.join("harness", "backends", "vk", "spirv.py") + '"'   # a dumped frame's file
STDERR_TAIL = 2000          # characters of child stderr quoted in a crash message
GRACE = 5.0                 # seconds a retired child has to exit before it is killed
_TICK = os.sysconf("SC_CLK_TCK")

Process = Union["subprocess.Popen[bytes]", Forked]


def printable(text: str) -> str:
    """Drop control bytes (NUL and friends) that would break JUnit XML or a terminal."""
    return "".join(c if c.isprintable() or c in "\n\t" else "\ufffd" for c in text)


@dataclass
class Child:
    proc: Process
    stderr: IO[bytes]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def fd(self, name: str) -> int:
        """The child's stdin or stdout, as a file descriptor."""
        stream = getattr(self.proc, name)
        assert stream is not None, f"the child has no {name}"
        return int(stream.fileno())

    def cpu(self) -> float | None:
        """The child's CPU seconds so far, all its threads (None once it is gone)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _TICK
        except (OSError, IndexError, ValueError, SpawnerGone):   # gone, or never forked
            return None

    def stderr_tail(self) -> str:
        """The end of the child's stderr, four times the quote's length: a stack dump is longer."""
        self.stderr.seek(0, os.SEEK_END)
        size = self.stderr.tell()
        self.stderr.seek(max(0, size - STDERR_TAIL * 16))
        return printable(self.stderr.read().decode("utf-8", "replace"))[-STDERR_TAIL * 4:].strip()


@dataclass
class Reaper:
    """Children ended and not yet reaped, each with the time by which it must have exited."""
    ending: list[tuple[Process, float]] = field(default_factory=list)

    def end(self, child: Child, kill: bool = False) -> None:
        """Let the child go: its pipes and stderr file closed here (EOF ends its loop), killed
        first if `kill`; its exit is collected later."""
        proc = child.proc
        if kill and proc.poll() is None:
            proc.kill()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
        child.stderr.close()
        if proc.returncode is None:
            self.ending.append((proc, time.monotonic() + GRACE))

    def reap(self) -> None:
        """Collect the children that have exited; kill those past their grace."""
        left = []
        for proc, deadline in self.ending:
            if proc.poll() is None:
                if time.monotonic() > deadline:
                    proc.kill()
                left.append((proc, deadline))
        self.ending = left

    def close(self) -> None:
        """Wait for every child ended, each until its grace runs out, then kill it."""
        for proc, deadline in self.ending:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.ending.clear()


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return f"exit status {returncode}"


def death_status(returncode: int | None, stderr_tail: str) -> Reply:
    """Whose fault a child's death is: a Python traceback and an exit status (no signal) is the
    harness's own child failing (an import error while the checkout is being edited, a bug):
    `error`, which says nothing of the driver and which bisection skips; so is a fatal signal
    while the layer's glslang ran in the child (`in_glslang`); anything else (a signal, a
    driver's exit, a child that would not exit) is the driver's `crash`."""
    if returncode is not None and returncode > 0 and "Traceback (most recent call last)" in stderr_tail:
        return Reply.ERROR
    if in_glslang(returncode, stderr_tail):
        return Reply.ERROR
    return Reply.CRASH


def in_glslang(returncode: int | None, stderr: str) -> bool:
    """A death by signal while the Vulkan layer's glslang compiled in the child: only then does
    the child dump its stack (harness/backends/vk/spirv.py, faulthandler), and the stack passes
    through that file."""
    return (returncode is not None and returncode < 0 and "Fatal Python error" in stderr
            and _GLSLANG_FRAME in stderr)
