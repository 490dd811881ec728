"""Results folders for the history's self-tests, written by the harness's own writer
(harness/results/files.py) as a run writes them: records of made-up cases (pure logic: the
history stores and reads results, it never runs a driver)."""
from __future__ import annotations

from pathlib import Path

from harness.model.outcome import Judged, Outcome, Record
from harness.model.status import Status
from harness.results import files

MESA = "22.3.6-1+deb12u2"


def record(case: str, status: Status = Status.PASS, target: str = "llvmpipe", message: str = "",
           known: bool = False, mesa: str = MESA, duration: float = 0.25) -> Record:
    judged = Judged.EXPECTED_FAIL if known else Judged.AS_IS
    return Record(case, target, Outcome(status, judged), message=message or ("" if status is Status.PASS else
                  f"{case}: gl_TessLevelOuter = (1, 1, 1, 1), expected (2, 3, 4, 5)"),
                  expected="Fail" if known else "", duration=duration, renderer="llvmpipe (LLVM 15.0.6, 256 bits)",
                  mesa=mesa, gl_version="4.5 (Compatibility Profile) Mesa 22.3.6")


def run(folder: Path, records: list[Record], started: str, **properties) -> Path:
    """A results folder as a run writes it: results.json, results.csv, junit.xml and run.json."""
    files.write(folder, records, folder / "junit.xml",
                {"harness_version": "0.test", "machine": "selftest", "started": started, **properties})
    return folder


def series(root: Path, statuses: dict[str, str], started: str = "2026-11-{day:02d}T06:00:00+00:00",
           **properties) -> list[Path]:
    """One run a day: `statuses` maps a case id to a string of its statuses, one letter a run
    (. pass, F fail, C crash, T timeout, s skip, x known failure, f flake); `{day}` in a
    property's value is the run's day (1, 2, ...)."""
    letters = {".": Status.PASS, "F": Status.FAIL, "C": Status.CRASH, "T": Status.TIMEOUT, "s": Status.SKIP,
               "x": Status.FAIL, "f": Status.FLAKE}
    length = len(next(iter(statuses.values())))
    folders = []
    for day in range(length):
        records = [record(case, letters[text[day]], known=text[day] == "x") for case, text in statuses.items()]
        folders.append(run(root / f"run{day}", records, started.format(day=day + 1),
                           **{name: value.format(day=day + 1) for name, value in properties.items()}))
    return folders
