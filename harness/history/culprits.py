"""`harness blame`'s verdicts in the history (the `culprits` table): which component a case's
failure on one Mesa is the fault of, recorded by hand or from blame's saved evidence, and read
back per run for the KCIDB export (harness/history/kcidb.py).

A verdict is recorded for the case on each target where it failed in a stored run of that Mesa:
the verdict explains failures, and the export links only failing tests to it. Recording again for
a case and Mesa replaces the earlier verdict (the newer evidence wins).
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, select

from harness.history import schema, timestamps
from harness.base.errors import UsageError
from harness.model.blame import COMPONENTS as COMPONENTS      # the CLI names them from here

C, R, T, K = schema.cases, schema.runs, schema.results, schema.culprits


class CulpritError(UsageError, ValueError):
    """A verdict that cannot be recorded: one line for the user."""


@dataclass(frozen=True)
class Culprit:
    name: str                       # the case id
    target: str
    mesa: str
    component: str                  # one of COMPONENTS
    reason: str
    recorded: datetime.datetime     # UTC

    def to_json(self) -> dict[str, Any]:
        return {"case": self.name, "target": self.target, "mesa": self.mesa, "component": self.component,
                "reason": self.reason, "recorded": self.recorded.isoformat()}


def record(connection: Connection, name: str, target: str | None, mesa: str, component: str, reason: str = "") -> list[Culprit]:
    """Record `component` as the culprit of the case's failures on Mesa `mesa`, on `target` or on
    every target where it failed in a run of that Mesa, in the caller's transaction; CulpritError
    (before anything is written) where there is no such failure."""
    if component not in COMPONENTS:
        raise CulpritError(f"component {component!r}: expected one of {', '.join(COMPONENTS)}")
    cases = _failed(connection, name, target, mesa)
    if not cases:
        on = f" on {target}" if target else ""
        raise CulpritError(f"{name}{on}: no failure of it in a stored run of Mesa {mesa!r} "
                           f"(the Mesa versions it ran on: {', '.join(_mesas(connection, name)) or 'none'})")
    now = timestamps.now()
    connection.execute(delete(K).where(K.c.case_id.in_(list(cases.values())), K.c.mesa == mesa))
    connection.execute(K.insert(), [{"case_id": case_id, "mesa": mesa, "component": component, "reason": reason,
                                     "recorded": now} for case_id in cases.values()])
    return [Culprit(name, t, mesa, component, reason, now) for t in sorted(cases)]


def _failed(connection: Connection, name: str, target: str | None, mesa: str) -> dict[str, int]:
    """target -> case row id, for the case's targets (or `target`) with a failure on `mesa`."""
    query = (select(C.c.target, C.c.id).join(T, T.c.case_id == C.c.id).join(R, R.c.id == T.c.run_id)
             .where(C.c.name == name, R.c.mesa == mesa, T.c.failure).distinct())
    if target:
        query = query.where(C.c.target == target)
    return dict(connection.execute(query).all())


def _mesas(connection: Connection, name: str) -> list[str]:
    query = (select(R.c.mesa).join(T, T.c.run_id == R.c.id).join(C, C.c.id == T.c.case_id)
             .where(C.c.name == name).distinct())
    return sorted(m for (m,) in connection.execute(query))


def of_mesa(connection: Connection, mesa: str) -> dict[tuple[str, str], Culprit]:
    """(case id, target) -> the verdict recorded for its failures on `mesa`."""
    query = (select(C.c.name, C.c.target, K.c.mesa, K.c.component, K.c.reason, K.c.recorded)
             .join(C, C.c.id == K.c.case_id).where(K.c.mesa == mesa))
    return {(row[0], row[1]): Culprit(*row) for row in connection.execute(query)}
