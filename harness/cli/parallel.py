"""`python -m harness parallel N|auto [PYTEST ARGS...]`: pytest's run of the cases over N processes
(`auto`: the scheduler's rule), as `pytest --jobs N` does (harness/scheduler/)."""
from __future__ import annotations

import os

from harness.scheduler import layout, processes


USAGE = """usage: python -m harness parallel N|auto [PYTEST ARGS...]

Runs pytest's selection of cases over N pytest processes (auto: harness/scheduler/layout.py's rule), each every
N-th case, and merges their results into --results-dir. PYTEST ARGS are pytest's and the
harness's run options: `python -m pytest --help` lists them (group "GL/Vulkan conformance
harness")."""


def main(argv: list[str]) -> int:
    """argv: N|auto, then pytest's arguments."""
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    try:
        jobs = layout.parse(argv[0] if argv else "")
    except layout.JobsError as exc:
        raise processes.ParallelError(str(exc)) from None
    return processes.run(layout.choose(jobs, os.cpu_count() or 1), argv[1:])
