"""A draw expectation's per-record values as numpy tables, so that the verdict compares all
records of a draw with a few array operations instead of a few per group or per record.

One table per quantity: row i holds what group (or sequence record) i expects, `compared`
marks the components it names (an expected value compares its first len(value) components)
and `has` the rows that expect the quantity at all. Tables depend only on the case, so they are
kept for the next few judgements (the flake re-runs of a failing case).
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from harness.model.case import Expectation

_INT_RANGE = (-2**31, 2**31 - 1)       # key values beyond: group by group, as numpy compares them


@dataclass(frozen=True)
class Table:
    want: np.ndarray                   # (rows, width) float64, 0 where not compared
    compared: np.ndarray               # (rows, width) bool
    has: np.ndarray                    # (rows,) bool
    every: bool = False                # every row expects every component: `compared` and `has` all true


@dataclass(frozen=True)
class GroupTables:
    key: str
    key_values: np.ndarray             # (groups,) int64, sorted
    group_of: np.ndarray               # (groups,) index in exp.groups of each sorted key value
    tables: dict[str, Table]


def _tables(rows: Any) -> dict[str, Table] | None:
    """rows: each a tuple of (quantity, value); None where a row names a quantity twice."""
    wants: dict[str, dict[int, Any]] = {}
    for i, values in enumerate(rows):
        for quantity, value in values:
            per_row = wants.setdefault(quantity, {})
            if i in per_row:
                return None
            per_row[i] = value
    tables = {}
    for quantity, per_row in wants.items():
        whole = _whole(per_row, len(rows))
        if whole is not None:
            tables[quantity] = whole
            continue
        per_row = {i: _components(value) for i, value in per_row.items()}
        width = max(map(len, per_row.values()))
        want = [[0.0] * width for _ in rows]
        compared = [[False] * width for _ in rows]
        for i, components in per_row.items():
            want[i][:len(components)] = components
            compared[i][:len(components)] = [True] * len(components)
        mask = np.array(compared, dtype=bool).reshape(len(rows), width)
        has = np.array([i in per_row for i in range(len(rows))], dtype=bool)
        tables[quantity] = Table(np.array(want, dtype=np.float64).reshape(len(rows), width), mask, has,
                                 bool(mask.all() and has.all()))
    return tables


def _whole(per_row: dict[int, Any], rows: int) -> Table | None:
    """The common table, in one numpy conversion: every row expects the quantity, each value a
    number or a flat sequence of numbers of one width. None otherwise (mixed widths, scalars
    beside sequences, a row without the quantity): _tables then builds it row by row."""
    if len(per_row) != rows or not rows:
        return None
    try:
        want = np.asarray(list(per_row.values()), dtype=np.float64)
    except (ValueError, TypeError):
        return None
    if want.ndim == 1:
        want = want.reshape(rows, 1)
    elif want.ndim != 2:
        return None
    flags = np.ones(want.size + rows, dtype=bool)         # one allocation for both masks
    return Table(want, flags[rows:].reshape(want.shape), flags[:rows], True)


def _components(value: Any) -> tuple[float, ...]:
    """What np.atleast_1d(np.asarray(value, dtype=np.float64)) holds, as Python floats."""
    if isinstance(value, (int, float)):
        return (float(value),)
    if isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value):
        return tuple(float(v) for v in value)
    return tuple(np.atleast_1d(np.asarray(value, dtype=np.float64)).tolist())


def _group_tables(exp: Expectation) -> GroupTables | None:
    """None where the groups do not map each record to at most one group by one integer key
    (several keys, a key value twice, a key value no int32 holds): the verdict then goes
    group by group."""
    keys = {group.key for group in exp.groups}
    values = [group.key_value for group in exp.groups]
    if len(keys) != 1 or len(set(values)) != len(values) \
            or not all(isinstance(v, int) and _INT_RANGE[0] <= v <= _INT_RANGE[1] for v in values):
        return None
    tables = _tables([group.values for group in exp.groups])
    if tables is None:
        return None
    key_values = np.asarray(values, dtype=np.int64)
    order = np.argsort(key_values)
    return GroupTables(keys.pop(), key_values[order], order, tables)


@dataclass(frozen=True)
class ExpectationTables:
    groups: GroupTables | None
    sequence: dict[str, Table] | None


_CACHE: OrderedDict[int, tuple[Expectation, ExpectationTables]] = OrderedDict()
_CACHE_SIZE = 16


def forget() -> None:
    """Drop every kept table, so that the next judgement builds its expectation's tables again, as
    a run's first judgement of a case does (bench/judge_bench.py times judgements that way)."""
    _CACHE.clear()


def tables(exp: Expectation) -> ExpectationTables:
    """The tables of `exp`, kept by identity (hashing a case's expectations costs more than
    building its tables) for the last few expectations."""
    hit = _CACHE.get(id(exp))
    if hit is not None and hit[0] is exp:
        _CACHE.move_to_end(id(exp))
        return hit[1]
    built = ExpectationTables(
        _group_tables(exp) if exp.groups else None,
        _tables([record.values for record in exp.sequence]) if exp.sequence else None)
    _CACHE[id(exp)] = (exp, built)             # holding exp keeps its id from being reused
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return built
