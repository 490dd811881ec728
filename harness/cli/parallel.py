"""`python -m harness parallel N|auto [PYTEST ARGS...]`: pytest's run of the cases over N processes
(`auto`: the scheduler's rule), as `pytest --jobs N` does (harness/scheduler/)."""
from __future__ import annotations

import os

from harness.scheduler import layout, processes


def main(argv: list[str]) -> int:
    """argv: N|auto, then pytest's arguments."""
    try:
        jobs = layout.parse(argv[0] if argv else "")
    except layout.JobsError as exc:
        raise processes.ParallelError(str(exc)) from None
    return processes.run(layout.choose(jobs, os.cpu_count() or 1), argv[1:])
