"""Storing runs (harness/history/sources.py) in the history, all of one ingest in one transaction:
killed at any point, it leaves the store as it was. A run already stored (the same fingerprint)
adds nothing; two ingests of it at once store it once (the unique fingerprint, inserted with
ON CONFLICT DO NOTHING), and so are shared cases and messages.
"""
from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, Insert, Table, select
from sqlalchemy.dialects import postgresql, sqlite

from harness.history import schema, timestamps
from harness.history.store import chunks
from harness.history.sources import Run
from harness.model.outcome import Judged, Record
from harness.model.status import Status


@dataclass(frozen=True)
class Stored:
    run_id: int
    added: bool                         # False: it was there already
    run: Run


def ingest(engine: Engine, runs: list[Run]) -> list[Stored]:
    """Store `runs` in one transaction; each one's id, and whether it was new."""
    now = timestamps.now()
    with engine.begin() as connection:
        return [_store(connection, run, now) for run in runs]


def insert_ignoring(connection: Connection, table: Table) -> Insert:
    """INSERT ... ON CONFLICT DO NOTHING, in the connection's dialect."""
    if connection.dialect.name == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return sqlite.insert(table).on_conflict_do_nothing()


def failure(record: Record) -> bool:
    """The driver failed this time: a fail, timeout or crash, or a flake's failing try. Harness
    errors and order-dependent verdicts are not the case's own failures."""
    return record.status.blames_driver() or record.status is Status.FLAKE


def run_row(run: Run, now: datetime.datetime) -> dict[str, object]:
    """The run's row of `runs`, ingested at `now`."""
    p = run.properties
    return {"fingerprint": run.fingerprint(), "started": run.started, "ingested": now, "pipeline": run.pipeline,
           "job": run.job, "lane": run.lane, "job_ids": str(p.get("ci_job_ids") or p.get("ci_job_id") or ""),
           "commit": str(p.get("ci_commit_sha", "")), "ref": str(p.get("ci_commit_ref_name", "")),
           "url": str(p.get("ci_pipeline_url", "")), "harness_version": str(p.get("harness_version", "")),
           "harness_commit": str(p.get("harness_commit") or p.get("harness_git", "")), "mesa": run.mesa,
           "mesa_commit": str(p.get("mesa_commit", "")), "machine": str(p.get("machine", "")),
           "source": "\n".join(run.sources)}


def _store(connection: Connection, run: Run, now: datetime.datetime) -> Stored:
    row = run_row(run, now)
    run_id = connection.execute(insert_ignoring(connection, schema.runs).values(row).returning(schema.runs.c.id)).scalar()
    if run_id is None:
        existing = select(schema.runs.c.id).where(schema.runs.c.fingerprint == row["fingerprint"])
        return Stored(connection.execute(existing).scalar_one(), False, run)
    case_ids = _ids(connection, schema.cases, ("name", "target"), {(r.id, r.target) for r in run.records})
    digests = {r.message: hashlib.sha256(r.message.encode()).hexdigest() for r in run.records if r.message}
    message_ids = _messages(connection, digests)
    connection.execute(schema.results.insert(), [
        {"run_id": run_id, "case_id": case_ids[(r.id, r.target)], "status": r.status.value,
         "judged": r.outcome.judged.value, "failure": failure(r), "duration": float(r.duration),
         "message_id": message_ids.get(digests.get(r.message, "")), "expected": r.expected,
         "reproducer": r.reproducer} for r in run.records])
    connection.execute(schema.run_targets.insert(), target_rows(run_id, run.records))
    return Stored(run_id, True, run)


def _ids(connection: Connection, table: Table, columns: tuple[str, str], wanted: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The ids of rows keyed by two columns, inserting those missing (sorted: concurrent ingests
    then take their row locks in one order)."""
    a, b = (table.c[name] for name in columns)
    found: dict[tuple[str, str], int] = {}

    def fetch(seconds: set[str]) -> None:
        for chunk in chunks(sorted(seconds)):
            for row in connection.execute(select(table.c.id, a, b).where(b.in_(chunk))):
                if (row[1], row[2]) in wanted:
                    found[(row[1], row[2])] = row[0]
    fetch({second for _, second in wanted})
    missing = sorted(wanted - found.keys())
    if missing:
        connection.execute(insert_ignoring(connection, table), [{columns[0]: x, columns[1]: y} for x, y in missing])
        fetch({second for _, second in missing})
    return found


def _messages(connection: Connection, digests: dict[str, str]) -> dict[str, int]:
    """Message ids by digest, inserting the texts not stored yet."""
    table = schema.messages
    found: dict[str, int] = {}

    def fetch(wanted: set[str]) -> None:
        for chunk in chunks(sorted(wanted)):
            found.update(connection.execute(select(table.c.digest, table.c.id).where(table.c.digest.in_(chunk))).all())
    fetch(set(digests.values()))
    missing = {digest: text for text, digest in digests.items() if digest not in found}
    if missing:
        connection.execute(insert_ignoring(connection, table), [{"digest": d, "text": t} for d, t in sorted(missing.items())])
        fetch(set(missing))
    return found


def target_rows(run_id: int, records: list[Record]) -> list[dict[str, object]]:
    """Per target: its most common renderer, GL version and platform, and the counts the
    dashboard plots (a new failure and a known one apart)."""
    rows = []
    for target in sorted({r.target for r in records}):
        mine = [r for r in records if r.target == target]
        counts = Counter(count_column(r) for r in mine)
        rows.append({"run_id": run_id, "target": target, "renderer": _common(mine, "renderer"),
                     "gl_version": _common(mine, "gl_version"), "platform": _common(mine, "platform"),
                     **{name: counts[name] for name in ("passed", "skipped", "flaked", "failed", "known")}})
    return rows


def _common(records: list[Record], name: str) -> str:
    named = Counter(getattr(r, name) for r in records if getattr(r, name))
    return named.most_common(1)[0][0] if named else ""


def count_column(record: Record) -> str:
    """Which count of run_targets a record adds to."""
    if record.outcome.judged is Judged.EXPECTED_FAIL:
        return "known"
    if record.status in (Status.FLAKE, Status.ORDER_DEPENDENT):
        return "flaked"
    if record.outcome.failed:
        return "failed"
    return "passed" if record.status is Status.PASS else "skipped"
