"""The run's files from the pytest side: the controller's records of cases no item recorded, and
results.json, results.csv, failures.csv and junit.xml derived from every journal of the run when
the session ends (also on SIGTERM and Ctrl-C, which end the run as an interrupt does)."""
from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from harness.model.outcome import Outcome, Record
from harness.model.status import Status
from harness.pytest_adapter import state as state_mod, terminal
from harness.pytest_adapter.items import journal_entry
from harness.results import files as results
from harness.run import core, journal


def clear(folder: Path) -> None:
    """An earlier run's journals and files in `folder`, gone."""
    journal.clear(folder)
    for name in ("results.json", "results.csv", "failures.csv", results.MANIFEST, results.RUN):
        (folder / name).unlink(missing_ok=True)


def interrupt_on_sigterm() -> None:
    """SIGTERM (what a CI job's timeout sends first) ends the run as Ctrl-C does: pytest stops,
    and the session's end writes results and JUnit of what finished, exiting non-zero."""
    def interrupt(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)       # a second SIGTERM kills
        raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")
    signal.signal(signal.SIGTERM, interrupt)


def unrecorded(report: pytest.TestReport) -> Record | None:
    """The record of a report no item recorded (a skips-file entry, a setup error, an xdist
    worker that died mid-case), else None."""
    props = dict(report.user_properties)
    crashed = terminal.worker_crash(report)
    if crashed:                     # no properties: the worker died mid-case
        return core.crash_record(*crashed, str(report.longrepr or "the xdist worker died"))
    if "case_id" in props and report.when == "setup" and not report.passed:
        message = report.longrepr[2].removeprefix("Skipped: ") if isinstance(report.longrepr, tuple) \
            else str(report.longrepr or "")
        status = Status.SKIP if report.skipped else Status.ERROR
        return Record(str(props["case_id"]), str(props["target"]), Outcome(status), message=message)
    return None


class ResultsWriter:
    """Controller-side: the records of cases no item recorded go to the controller's journal;
    when the session ends, the run's files are derived from every journal of this run and the
    resumed entries."""

    def __init__(self, folder: Path, config: pytest.Config):
        self.folder = folder
        self.config = config

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        record = unrecorded(report)
        state = state_mod.of(self.config)
        if record is not None and state.journal is not None:
            state.journal.append(journal_entry(self.config, record))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Also on Ctrl-C and SIGTERM: what finished is written, and --resume can run the rest."""
        state = state_mod.of(self.config)
        if state.journal is not None:
            state.journal.close()
        fresh = journal.records(self.folder, state.run)
        keys = {e.key for e in fresh}
        earlier = [e for name, e in state.done.items() if name not in keys]
        # A scheduler's process (harness/scheduler/processes.py): the scheduler writes the run's
        # JUnit from every process's results.json; one of its own would never be read.
        results.write(self.folder, earlier + fresh, None if state.scheduled else self.folder / "junit.xml",
                      state.properties, state.manifest)
