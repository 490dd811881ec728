"""Batched execution: up to K cases one after another in one context of a child (RunSettings.
batch; the GL backends), as piglit's and deqp-runner's batches run, without giving up the rule
that a verdict depends on the case alone.

- A crash or hang ends its batch: the cases queued behind it go to a new child, in a new batch
  (harness/executor/executor.py).
- Every failing verdict from a batch is confirmed by running the case alone, in a context of its
  own, in a second child that runs nothing batched (`Batched.run_alone`). Failing alone too, the
  alone verdict is the case's; passing alone, the case is `order-dependent` (harness/model/status.py),
  its message naming both verdicts and the cases that ran before it in its batch.
- An audit runs a seeded sample of the batched passes alone too (`audited`, config.AUDIT of them)
  and reports a disagreement the same way.

The confirmation and the audit happen in the run core (core.run_case), which judges; so does a
failure's flake re-run, in the alone child, or in a child of its own (`run_fresh`) where the
baseline does not expect the failure (core.rerunner).
"""
from __future__ import annotations

import hashlib
from typing import Callable

from harness.model.case import Case
from harness.executor.executor import Executor, ExecutorGroup
from harness.model.status import Result

SHOWN = 8                   # batch mates a message names, the last ones (the nearest in time)


def audited(case_id: str, seed: int, fraction: float) -> bool:
    """Whether the audit re-runs this batched pass alone: a fixed share of the ids, picked by
    the seed (the same cases for the same seed, whatever order they run in)."""
    digest = hashlib.sha256(f"{seed}:{case_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < fraction * 2 ** 64


def describe(before: tuple[str, ...]) -> str:
    if not before:
        return "first in its batch's context"
    shown = ", ".join(before[-SHOWN:])
    return (f"after {len(before)} case{'s' * (len(before) != 1)} in its batch's context: "
            + ("... " if len(before) > SHOWN else "") + shown)


class Batched:
    """A target's batched children (an ExecutorGroup with RunSettings.batch > 1) and, made on
    the first confirmation, one child that runs each case in a context of its own."""

    def __init__(self, group: ExecutorGroup, make_alone: Callable[[], Executor]):
        self._group, self._make_alone = group, make_alone
        self._alone: Executor | None = None

    def send(self, case: Case, alone_too: bool = False) -> None:
        """Queue a case ahead of `run`; `alone_too`: in the alone child as well, where its alone run
        is known to come (an audit decided by its id): it runs beside the batch, and `run_alone`
        takes that result, the same request made earlier."""
        self._group.send(case)
        if alone_too:
            self.alone.send(case)

    def run(self, case: Case) -> Result:
        return self._group.run(case)

    def info(self) -> Result:
        return self._group.info()

    def prepare(self) -> None:
        self._group.prepare()

    @property
    def alone(self) -> Executor:
        """The child that runs each case in a context of its own."""
        if self._alone is None:
            self._alone = self._make_alone()
        return self._alone

    def run_alone(self, case: Case) -> Result:
        result: Result = self.alone.run(case)
        return result

    def run_fresh(self, case: Case) -> Result:
        """The case in a child started for it alone (Executor.run_fresh)."""
        return self._group.run_fresh(case)

    def close(self) -> None:
        if self._alone is not None:                 # first: it forks from the group's spawner
            self._alone.close()
            self._alone = None
        self._group.close()
