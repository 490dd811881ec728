"""Retention: the runs a history no longer keeps, deleted with their results, their targets'
counts, and the messages and cases nothing refers to any more, in the caller's transaction
(all or nothing).

A run is kept while it is among the newest `keep_runs` of its lane (runs.lane: the CI job, else
the Mesa version) or started within the last `keep_days`; with one of the two given, that one
alone decides. A lane's newest run is kept whatever the rules say: the baseline and flakes lines
`history lines` writes cite their lane, and its newest run is where a reader checks them (a lane
no longer run keeps one run, not its history). The lane's ranking is SQL's (row_number over
ix_runs_lane), so the runs are never read into Python.
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, exists, func, select

from harness.history import schema
from harness.history.store import chunks

R, T, RT, M, C, K = (schema.runs, schema.results, schema.run_targets, schema.messages, schema.cases,
                     schema.culprits)


@dataclass(frozen=True)
class Pruned:
    runs: list[int]             # the deleted runs' ids, oldest first
    results: int
    messages: int
    cases: int
    kept: int                   # the runs left

    def to_json(self) -> dict[str, Any]:
        return {"runs": self.runs, "results": self.results, "messages": self.messages, "cases": self.cases,
                "kept": self.kept}


def doomed(connection: Connection, keep_days: float | None, keep_runs: int | None, now: datetime.datetime) -> list[int]:
    """The ids of the runs neither rule keeps, oldest first (never a lane's newest)."""
    rank = func.row_number().over(partition_by=R.c.lane, order_by=(R.c.started.desc(), R.c.id.desc()))
    ranked = select(R.c.id, R.c.started, rank.label("rank")).subquery()
    beyond = [ranked.c.rank > 1]
    if keep_runs is not None:
        beyond.append(ranked.c.rank > keep_runs)
    if keep_days is not None:
        beyond.append(ranked.c.started < now - datetime.timedelta(days=keep_days))
    query = select(ranked.c.id).where(and_(*beyond)).order_by(ranked.c.started, ranked.c.id)
    return list(connection.execute(query).scalars())


def prune(connection: Connection, keep_days: float | None, keep_runs: int | None,
          now: datetime.datetime | None = None) -> Pruned:
    """Delete the runs neither rule keeps, and what only they referred to."""
    if keep_days is None and keep_runs is None:
        raise ValueError("prune: give keep_days, keep_runs or both")
    ids = doomed(connection, keep_days, keep_runs, now or datetime.datetime.now(datetime.UTC))
    results, said = 0, set()
    for chunk in chunks(ids):
        said |= set(connection.execute(select(T.c.message_id).where(T.c.run_id.in_(chunk)).distinct()).scalars())
        results += connection.execute(delete(T).where(T.c.run_id.in_(chunk))).rowcount
        connection.execute(delete(RT).where(RT.c.run_id.in_(chunk)))
        connection.execute(delete(R).where(R.c.id.in_(chunk)))
    messages = 0
    for chunk in chunks(sorted(i for i in said if i is not None)):
        # no index on results.message_id: one uncorrelated scan a chunk, not one per message
        still = select(T.c.message_id).where(T.c.message_id.in_(chunk))
        messages += connection.execute(delete(M).where(M.c.id.in_(chunk), M.c.id.not_in(still))).rowcount
    cases = 0
    if ids:                     # ix_results_case and the culprits' key lead with the case: an index probe each
        cases = connection.execute(delete(C).where(~exists().where(T.c.case_id == C.c.id),
                                                   ~exists().where(K.c.case_id == C.c.id))).rowcount
    kept = connection.execute(select(func.count()).select_from(R)).scalar_one()
    return Pruned(ids, results, messages, cases, kept)
