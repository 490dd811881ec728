"""The pipeline of one process: a group of executor children per target (harness/run/core.py
make_runner), each case queued with the next ones, so that a child runs the next case while this
process judges the last (the layout's children: one more case in flight per child)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from harness.model.case import Case
from harness.run import core


class Queued(core.Runner, Protocol):
    """A runner cases can be queued in ahead of their run (an ExecutorGroup, a Batched group)."""

    def send(self, case: Case) -> None:
        ...

    def prepare(self) -> None:
        ...


class Pipeline:
    """One group of executor children per target in this process, closed when the run ends."""

    def __init__(self, settings: core.RunSettings):
        self._settings = settings
        self._executors: dict[str, Queued] = {}
        self.children = settings.children

    def get(self, target: str) -> Queued:
        if target not in self._executors:
            self._executors[target] = core.make_runner(self._settings, target, self.children)
        return self._executors[target]

    def queue(self, target: str, case: Case, following: Iterable[Case]) -> None:
        """Queue this case and the cases that follow it on the same target, one per child (the
        caller stops `following` where the target changes or a case will not run)."""
        executor = self.get(target)
        executor.send(case)
        for n, later in enumerate(following):
            if n >= self.children:
                break
            executor.send(later)

    def prepare(self, target: str) -> None:
        """Start the target's spawner now (its imports overlap what the caller does next)."""
        self.get(target).prepare()

    def keep_only(self, targets: set[str]) -> None:
        """Close the executors of targets not named."""
        for name in set(self._executors) - targets:
            self.close(name)

    def close(self, target: str | None = None) -> None:
        """Close one target's executor, or (no name) all of them."""
        for name in [target] if target else list(self._executors):
            executor = self._executors.pop(name, None)
            if executor is not None:
                executor.close()
