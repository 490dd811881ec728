"""The run's journal: each finished case's record, appended as its verdict lands, so that a run
killed by any signal loses only the cases in flight.

Every process that finishes cases (the pytest process, each xdist worker, each `harness
parallel` shard) appends JSON lines to a file of its own, RESULTS_DIR/journal/<run>-<pid>.jsonl,
flushed after every line: a SIGKILL of that process or of the controller above it leaves every
line written before it. results.json, JUnit and the report are derived from the journal when the
run ends (also on SIGTERM or Ctrl-C), and `--resume DIR` reads it to run only what has no record.
"""
from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path
from typing import IO, Any

from harness.model.outcome import Record, RecordError

FOLDER = "journal"
RUNNING = ".running"           # beside a process's journal: the case it is on (Journal.begin)


def new_run() -> str:
    return uuid.uuid4().hex[:12]


class Journal:
    """This process's journal file for one run; opened on the first record."""

    def __init__(self, results_dir: Path, run: str):
        self.path = Path(results_dir) / FOLDER / f"{run}-{os.getpid()}.jsonl"
        self._stream: IO[str] | None = None
        self._running: IO[str] | None = None

    def append(self, entry: Record | dict[str, Any]) -> None:
        """A case's Record (its to_json), or another tool's entry (exploration's ledger)."""
        if isinstance(entry, Record):
            entry = entry.to_json()
        if self._stream is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._stream = open(self.path, "a", encoding="utf-8")
        self._stream.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._stream.flush()                # into the kernel: a killed process keeps it

    def begin(self, key: str) -> None:
        """The case this process is now on (`<id>[<target>]`), in RUNNING beside its journal: if
        the process is killed (an OOM killer, a driver taking the process down), the scheduler
        that started it knows which case it died in (in_flight)."""
        if self._running is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._running = open(self.path.with_suffix(RUNNING), "w", encoding="utf-8")
        self._running.seek(0)
        self._running.write(key)
        self._running.truncate()
        self._running.flush()

    def close(self) -> None:
        for stream in (self._stream, self._running):
            if stream is not None:
                stream.close()
        self._stream = self._running = None


def read(folder: Path, run: str | None = None) -> list[dict[str, Any]]:
    """Every entry under folder's journals (all runs, or one), in file order, as written; a torn
    last line (the process died writing it) is left out. Journals of shard folders below count too."""
    entries = []
    for path in sorted(Path(folder).glob(f"**/{FOLDER}/*.jsonl")):
        if run is not None and not path.name.startswith(f"{run}-"):
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entries.append(json.loads(line))
            except ValueError:
                continue
    return entries


def records(folder: Path, run: str | None = None) -> list[Record]:
    """The case Records under folder's journals (read's entries, as Record.from_json reads them);
    a line that is no Record (torn, or another tool's entry) is left out."""
    found = []
    for entry in read(folder, run):
        try:
            found.append(Record.from_json(entry))
        except RecordError:
            continue
    return found


def in_flight(folder: Path) -> list[str]:
    """The cases (`<id>[<target>]`) processes of folder's run were on and left without a record:
    where a process died."""
    done = {record.key for record in records(folder)}
    keys = (path.read_text(encoding="utf-8", errors="replace").strip()
            for path in sorted(Path(folder).glob(f"{FOLDER}/*{RUNNING}")))
    return [key for key in keys if key and key not in done]


def clear(folder: Path) -> None:
    """Forget an earlier run's records (a new run that does not resume it)."""
    shutil.rmtree(Path(folder) / FOLDER, ignore_errors=True)
