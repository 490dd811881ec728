"""What an exploration judged, journaled as it lands, and the clock its budget runs on.

An exploration's folder holds `command.json` (the seed, target, Mesa, families and budget that
`--continue` must find again) and, per family, the run journal of harness/run/journal.py: one line per
case the target judged (exploring or reducing), flushed as its verdict lands, with the seconds
the whole command had spent by then. A SIGKILL loses at most the cases in flight (the one
judged and the --jobs ones queued behind it, search.explore). `--continue`
reads them back: the seed draws the same cases (draws.Plain), every case already judged is
answered from the journal (none is judged twice), and the budget's clock starts at the seconds
the killed command had spent.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from harness.run import journal
from harness.model.case import Case
from harness.model.status import Verdict
from harness.model.status import Status
from harness.base.errors import UsageError

COMMAND = "command.json"


class ResumeError(UsageError, ValueError):
    pass


def start(results: Path, command: dict[str, Any], families: Iterable[str], resume: bool) -> float:
    """Begin (or, with `resume`, continue) the exploration in `results`; returns the seconds
    the earlier commands spent (0 for a new one). A new exploration forgets the folder's journals."""
    path = results / COMMAND
    if resume:
        if not path.is_file():
            raise ResumeError(f"{results}: no exploration to resume (no {COMMAND})")
        before = json.loads(path.read_text())
        changed = sorted(k for k in command if before.get(k) != command[k])
        if changed:
            raise ResumeError(f"{results}: explored with other {', '.join(changed)} "
                              f"({', '.join(f'{k}={before.get(k)!r}' for k in changed)}); resume with the same command")
        return max((e.get("t", 0.0) for f in families for e in journal.read(results / f)), default=0.0)
    for family in families:
        journal.clear(results / family)
    results.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(command, indent=1) + "\n")
    return 0.0


def process_started() -> float:
    """When this process started, on time.monotonic()'s clock: a budget counts Python's start
    and imports too (/proc/self/stat's start time is in clock ticks since boot)."""
    with open("/proc/self/stat", "rb") as stat:
        ticks = int(stat.read().rsplit(b")", 1)[1].split()[19])
    age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    return time.monotonic() - max(0.0, age)


class Clock:
    """The command's seconds since its process started, plus what the commands it resumes spent."""

    def __init__(self, spent_before: float = 0.0, since: float | None = None):
        self.started = (process_started() if since is None else since) - spent_before

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def at(self, seconds: float) -> float:
        """The monotonic time at which the command will have spent `seconds`."""
        return self.started + seconds


NOT_RUN = "not run: its share of the budget was spent"


class Ledger:
    """One family's judged cases: `judge` answers a case from the journal or runs it and
    journals the verdict. `deadline` (monotonic; None: none): past it, a case not judged yet
    is not run, and gets a skip saying so (never journaled: a resumed command may run it)."""

    def __init__(self, folder: Path, clock: Clock, run: Callable[[Case], Verdict],
                 alone: Callable[[Case], Verdict] | None = None):
        """`run` judges explored cases; `alone` (default: `run`) those of reduction and baselines."""
        self.clock, self._run, self._alone = clock, run, alone or run
        self._send = getattr(run, "send", None)
        self.known = {e["id"]: Verdict(Status.parse(e["status"]), e.get("message", ""))
                      for e in journal.read(folder) if e.get("kind") == "case"}
        self.replayed = self.judged = self.refused = 0
        self.deadline: float | None = None
        self._journal = journal.Journal(folder, journal.new_run())

    def judge(self, case: Case, phase: str = "explore") -> Verdict:
        if case.id in self.known:
            self.replayed += 1
            return self.known[case.id]
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.refused += 1
            return Verdict(Status.SKIP, NOT_RUN)
        outcome = (self._run if phase == "explore" else self._alone)(case)
        self.known[case.id] = outcome
        self.judged += 1
        self._journal.append({"kind": "case", "id": case.id, "status": outcome.status.value,
                              "message": outcome.message, "phase": phase, "t": round(self.clock.elapsed(), 3)})
        return outcome

    def send(self, case: Case) -> bool:
        """Queue an explored case in the target's children ahead of `judge` (where `run` can);
        False where `judge` will answer it without them (from the journal, or a refusal)."""
        if case.id in self.known:
            return False
        return self._send is None or bool(self._send(case))

    def close(self) -> None:
        self._journal.close()
