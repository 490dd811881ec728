"""A pytest run re-run as N processes: `--jobs`, or xdist's `-n` read as the same number, gives
the run's layout (harness/scheduler/layout.py); with more than one process the scheduler runs
the cases over them (harness/scheduler/processes.py), with one the run stays in this process."""
from __future__ import annotations

import os
from typing import Any, Sequence

from harness.base.args import taken
from harness.scheduler import layout as layout_mod

# Options under which pytest lists or shows rather than runs: one process says it once.
LISTINGS = ("help", "version", "collectonly", "showfixtures", "show_fixtures_per_test", "markers",
            "setuponly", "setupplan")
# pytest's options that stop a run early or narrow it to a few cases (see narrowed).
NARROWING = ("keyword", "lf", "exitfirst", "maxfail", "usepdb", "stepwise")


def layout(option: Any, args: Sequence[str], jobs: str | None, in_process: bool, narrowing: bool,
           cores: int | None = None) -> layout_mod.Layout:
    """--jobs (`jobs`), else -n as given (`option`: pytest's parsed options), on this machine's
    cores. Neither (or -n 0): this process, as pytest alone runs; so is a narrowed run under auto
    (`narrowing`: --case or --shuffle given)."""
    numprocesses = getattr(option, "numprocesses", None)
    if jobs is None and numprocesses not in (None, 0):
        jobs = layout_mod.AUTO if numprocesses in ("auto", "logical") else numprocesses
    listing = any(getattr(option, name, None) for name in LISTINGS)
    one_process = in_process or jobs is None or numprocesses == 0 or listing or \
        (jobs == layout_mod.AUTO and narrowed(option, args, narrowing))
    return layout_mod.choose(layout_mod.parse(jobs), cores or os.cpu_count() or 1, one_process)


def narrowed(option: Any, args: Sequence[str], narrowing: bool) -> bool:
    """A run narrowed to a few cases or made to stop at the first failure (-k, --case, a node id,
    --lf, -x, --pdb, --sw) or shuffled (one order, --shuffle): `auto` keeps it in one process,
    where starting a second one and merging would cost more than it saves, and -x and --pdb act
    on the whole run. (A listing, --collect-only and the like, is one process whatever --jobs.)"""
    return bool(narrowing or any("::" in arg for arg in args)
                or any(getattr(option, name, None) for name in NARROWING))


def without_jobs(args: list[str]) -> list[str]:
    """pytest's arguments less the ones the scheduler has read (-n, --numprocesses, --jobs)."""
    return taken(args, ("numprocesses", "jobs"))[1]


def process_args(args: Sequence[str], rootpath: str | os.PathLike[str]) -> list[str]:
    """The arguments each of the scheduler's processes is given: this run's, less what the
    scheduler decides, with this run's rootdir whatever its paths."""
    given = without_jobs(list(args))
    if not any(arg.startswith("--rootdir") for arg in given):
        given.append(f"--rootdir={rootpath}")
    return given
