"""The history's times: timezone-aware UTC, stored so on both databases. PostgreSQL keeps them as
`timestamp with time zone` (migration 0006); SQLite has no zone type, so a time is stored as its
UTC wall clock and read back with the UTC zone attached. A naive time given to a query or an
insert is taken for UTC, the harness's convention for every naive time before 0006.
"""
from __future__ import annotations

import datetime

from sqlalchemy import DateTime, Dialect
from sqlalchemy.types import TypeDecorator


def utc(moment: datetime.datetime) -> datetime.datetime:
    """`moment` as aware UTC (a naive one taken for UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC)


def now() -> datetime.datetime:
    """This second, aware UTC (what ingests and verdicts record)."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0)


class UTCDateTime(TypeDecorator[datetime.datetime]):
    """DateTime(timezone=True) whose values are aware UTC both ways."""
    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime.datetime | None, dialect: Dialect) -> datetime.datetime | None:
        if value is None:
            return None
        moment = utc(value)
        # SQLite's DATETIME writes the wall clock and drops any zone: give it UTC's
        return moment.replace(tzinfo=None) if dialect.name == "sqlite" else moment

    def process_result_value(self, value: datetime.datetime | None, dialect: Dialect) -> datetime.datetime | None:
        return None if value is None else utc(value)
