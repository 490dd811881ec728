"""`python -m harness parallel N|auto [PYTEST ARGS...]`: pytest's run of the cases over N processes
(`auto`: the scheduler's rule), as `pytest --jobs N` does (harness/scheduler/)."""
from __future__ import annotations

import argparse
import os
import sys

from harness.scheduler import layout, processes

DESCRIPTION = """Runs pytest's selection of cases over N pytest processes (auto: harness/scheduler/layout.py's
rule), each every N-th case, and merges their results into --results-dir. PYTEST ARGS are pytest's
and the harness's run options: `python -m pytest --help` lists them (group "GL/Vulkan conformance
harness")."""
PYTEST_USAGE = 4            # bad input exits as pytest's own usage error does


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.usage = "python -m harness parallel N|auto [PYTEST ARGS...]"
    cmd.description = DESCRIPTION
    cmd.add_argument("jobs", nargs="?", default="", metavar="N|auto", help="pytest processes")
    cmd.set_defaults(pass_on=True)       # every other argument is pytest's: args.unknown


def run(args: argparse.Namespace) -> int:
    try:
        jobs = layout.parse(args.jobs)
        return processes.run(layout.choose(jobs, os.cpu_count() or 1), args.unknown)
    except (layout.JobsError, processes.ParallelError) as exc:
        print(f"python -m harness parallel: {exc}", file=sys.stderr)
        return PYTEST_USAGE
