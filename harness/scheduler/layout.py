"""`--jobs N|auto`: how many cases a run has in flight, as processes x executor children.

Each case costs its pytest process CPU beside the driver's time in the child (judging,
reporting, the journal), so the processes, not the children, are what scale: two processes with a
child each outran one process with two children, and xdist's controller added its own cost a case
(the measurements: docs/decisions.md#parallel-auto, #xdist-workers). So `N` is N processes
with one child each, and `auto` is one process per two cores, at least two from 2 cores on. A run kept in one process (pytest alone, `-n 0`, or a
process of a run the scheduler split) pipelines instead: one child per core, up to 4, what one
pytest process's CPU per case can feed (docs/decisions.md#executor-children). Exploration
(`python -m harness explore --jobs`) is such a process with a rule of its own, `children`.
"""
from __future__ import annotations

from dataclasses import dataclass
from harness.base.errors import UsageError

AUTO = "auto"
MAX_CHILDREN = 4


class JobsError(UsageError, ValueError):
    """A --jobs value that is neither a positive number nor auto."""


@dataclass(frozen=True)
class Layout:
    processes: int          # pytest processes, each running every processes-th case
    children: int           # executor children per target in each process

    @property
    def slots(self) -> int:
        """A target's children alive at once in the whole run (NVIDIA's shader cache slots)."""
        return self.processes * self.children

    def describe(self) -> str:
        return f"{self.processes} process{'es' if self.processes > 1 else ''} x {self.children} " \
               f"child{'ren' if self.children > 1 else ''}"


def parse(word: str | int | None) -> str | int:
    """`auto` (also for None or ''), or a positive number of jobs."""
    if word in (None, "", AUTO):
        return AUTO
    text = str(word)
    if not text.isdigit() or int(text) < 1:
        raise JobsError(f"{word!r}: the number of cases in flight is a positive integer or auto")
    return int(text)


def choose(jobs: str | int, cores: int, one_process: bool = False) -> Layout:
    """The layout for `jobs` on `cores` cores; `one_process`: the run stays in this process."""
    if one_process:
        return Layout(1, jobs if isinstance(jobs, int) else max(1, min(cores, MAX_CHILDREN)))
    if isinstance(jobs, int):
        return Layout(jobs, 1)
    return Layout(max(min(cores, 2), cores // 2), 1)


def children(word: str | int | None, cores: int) -> int:
    """Executor children of exploration (its --jobs): N, or for `auto` (also None or '') one per
    core and one more, up to MAX_CHILDREN. Exploration takes its results in the order drawn, so
    a child whose case is done waits until the cases before it are judged; the extra one keeps
    the cores busy meanwhile (docs/decisions.md#explore-jobs)."""
    jobs = parse(word)
    return jobs if isinstance(jobs, int) else min(max(1, cores) + 1, MAX_CHILDREN)
