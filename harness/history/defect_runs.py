"""The failures of stored runs as harness/results/defect_groups.py groups them: each with the first
run of its case and target that failed (the first bad run the dashboard shows for a defect).

Computed from the store at render time, joined on the case id and target: the history's schema
holds no defect (the records under triage/ do, and they change without a migration)."""
from __future__ import annotations

import datetime

from sqlalchemy import Connection, select

from harness.history import schema
from harness.history.store import chunks
from harness.model.outcome import Judged, Record
from harness.results.defect_groups import Failure

C, R, T = schema.cases, schema.runs, schema.results
FirstFailed = dict[tuple[str, str], tuple[int, datetime.datetime]]     # (case id, target) -> (run id, start)


def first_failed(connection: Connection, keys: set[tuple[str, str]]) -> FirstFailed:
    """(case id, target) -> (run id, start) of its earliest failing run in the store."""
    found: FirstFailed = {}
    for chunk in chunks(sorted({name for name, _ in keys})):
        failing = (select(C.c.name, C.c.target, R.c.id, R.c.started).join(T, T.c.case_id == C.c.id)
                   .join(R, R.c.id == T.c.run_id).where(C.c.name.in_(chunk), T.c.failure))
        for name, target, run_id, started in connection.execute(failing):
            key = (name, target)
            if key in keys and (key not in found or (started, run_id) < (found[key][1], found[key][0])):
                found[key] = (run_id, started)
    return found


def failures(connection: Connection, records: list[Record], mesa: str) -> list[Failure]:
    """A run's failing records (new ones: they fail the run; known: the baseline expects them)."""
    failing = [r for r in records if r.outcome.failed or r.outcome.judged is Judged.EXPECTED_FAIL]
    first = first_failed(connection, {(r.id, r.target) for r in failing})
    out: list[Failure] = []
    for r in failing:
        run_id, started = first.get((r.id, r.target), (None, None))
        out.append(Failure(r.id, r.target, r.mesa or mesa, r.status.value, r.outcome.failed, run_id, started))
    return out
