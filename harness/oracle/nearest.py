"""Each observed row's nearest expected row within a tolerance in every component, the
comparison of a value set (verdict.py): first exactly, by a hash of the rows' float32 bits,
then by search for the rows that are not exact.
"""
from __future__ import annotations

import numpy as np


def nearest_rows(got: np.ndarray, want: np.ndarray, tolerance: float) -> np.ndarray:
    """For each row of `got`, the index of the nearest row of `want` no farther than
    `tolerance` in any component, else -1."""
    keys = _row_keys(got)
    found = _exact(got, keys, want, tolerance)
    rest = np.flatnonzero(found < 0)
    if len(rest) and len(want):
        distinct, inverse = _distinct_rows(got[rest], keys[rest])
        found[rest] = _near(distinct, want, tolerance)[inverse]
    return found


def _distinct_rows(rows: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows and each row's index among them, like np.unique(axis=0) but by the
    rows' float32-bit hashes (a sort of one integer per row, not of whole rows, which is
    faster on a large draw); where two different rows share a hash, by np.unique after all.
    `keys`: the rows' _row_keys."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    distinct = rows[first]
    again = distinct[inverse]
    with np.errstate(invalid="ignore"):
        if np.all((again == rows) | (np.isnan(again) & np.isnan(rows))):
            return distinct, inverse
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    return distinct, inverse.reshape(-1)


def _exact(got: np.ndarray, got_keys: np.ndarray, want: np.ndarray, tolerance: float) -> np.ndarray:
    """The common case, and the cheap one: a row equal to an expected row rounded to float32
    (what a driver captures) and within the tolerance of the exact value. Else -1. Rows are
    looked up by a hash of their float32 bits (`got_keys`: _row_keys of `got`); a collision
    fails the closeness check below."""
    found = np.full(len(got), -1, dtype=np.int64)
    if not len(want) or not len(got):
        return found
    want_keys = _row_keys(want)
    order = np.argsort(want_keys, kind="stable")           # equal rows: the first one wins
    sorted_keys = want_keys[order]
    at = np.minimum(np.searchsorted(sorted_keys, got_keys), len(want) - 1)
    hit = np.flatnonzero(sorted_keys[at] == got_keys)
    candidate = order[at[hit]]
    with np.errstate(invalid="ignore"):
        good = np.all(np.abs(got[hit] - want[candidate]) <= tolerance, axis=1)
    found[hit[good]] = candidate[good]
    return found


def _row_keys(rows: np.ndarray) -> np.ndarray:
    bits = (rows.astype(np.float32) + np.float32(0)).view(np.uint32).astype(np.uint64)   # -0 is 0
    keys = np.zeros(len(rows), dtype=np.uint64)
    for column in bits.T:
        keys = keys * np.uint64(0x9E3779B97F4A7C15) + column    # wraps around, as meant
    return keys


def _near(got: np.ndarray, want: np.ndarray, tolerance: float) -> np.ndarray:
    """nearest_rows by search: each observed row keeps the closest expected row within the tolerance
    in every component, the first in the order of the column with the most distinct values
    where two are as close. The candidates are found by windows on two columns (_candidates)."""
    found = np.full(len(got), -1, dtype=np.int64)
    distinct = _distinct_counts(want)
    column = max(range(want.shape[1]), key=distinct.__getitem__)
    rank = np.empty(len(want), dtype=np.int64)
    rank[np.argsort(want[:, column], kind="stable")] = np.arange(len(want))
    second = max((c for c in range(want.shape[1]) if c != column), key=distinct.__getitem__, default=column)
    rows, candidates = _candidates(got, want, tolerance, column, second)
    with np.errstate(invalid="ignore"):                       # inf - inf
        distance = np.abs(got[rows] - want[candidates]).max(axis=1)
    keep = distance <= tolerance
    rows, candidates, distance = rows[keep], candidates[keep], distance[keep]
    best = np.lexsort((rank[candidates], distance, rows))      # by row, the nearest first
    rows, candidates = rows[best], candidates[best]
    first = np.ones(len(rows), dtype=bool)
    first[1:] = rows[1:] != rows[:-1]
    found[rows[first]] = candidates[first]
    return found


def _distinct_counts(want: np.ndarray) -> list[int]:
    """len(np.unique(want[:, c])) of each column c, from one sort of all columns (NaNs count
    once, as np.unique counts them)."""
    ordered = np.sort(want, axis=0)
    with np.errstate(invalid="ignore"):
        change = (ordered[1:] != ordered[:-1]) & ~(np.isnan(ordered[1:]) & np.isnan(ordered[:-1]))
    counts: list[int] = (change.sum(axis=0) + min(len(want), 1)).tolist()
    return counts


def _candidates(got: np.ndarray, want: np.ndarray, tolerance: float, column: int,
                second: int) -> tuple[np.ndarray, np.ndarray]:
    """(observed row, expected row) pairs: every pair within the tolerance in all components,
    and some that are not (the caller measures them). Rows with an infinity or NaN are left
    out: their distance is never within the tolerance. Expected rows are sorted on `column`,
    then `second`; an observed row's window on `column` covers a few runs of equal values,
    and in each run its window on `second` is found by one search over all runs, each run
    offset past the one before it."""
    finite_want = np.flatnonzero(np.isfinite(want).all(axis=1))
    finite_got = np.flatnonzero(np.isfinite(got).all(axis=1))
    if not len(finite_want) or not len(finite_got):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    sorted_rows = finite_want[np.lexsort((want[finite_want, second], want[finite_want, column]))]
    by_column, by_second = want[sorted_rows, column], want[sorted_rows, second]
    runs = np.unique(by_column)
    run_start = np.searchsorted(by_column, runs, side="left")
    run_end = np.searchsorted(by_column, runs, side="right")
    low, width = by_second.min(), by_second.max() - by_second.min() + 4 * tolerance + 1
    keys = np.repeat(np.arange(len(runs)) * width, run_end - run_start) + (by_second - low)
    g = got[finite_got]
    owner, run = _spans(np.searchsorted(runs, g[:, column] - tolerance, side="left"),
                        np.searchsorted(runs, g[:, column] + tolerance, side="right"))
    at = run * width + (g[owner, second] - low)
    slack = tolerance + 1e-9 * (1 + len(runs) * width + np.abs(at))   # rounding of the offsets
    lo = np.maximum(np.searchsorted(keys, at - slack, side="left"), run_start[run])
    hi = np.minimum(np.searchsorted(keys, at + slack, side="right"), run_end[run])
    pair, position = _spans(lo, hi)
    return finite_got[owner[pair]], sorted_rows[position]


def _spans(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each i, the positions lo[i] .. hi[i] - 1 (none where hi <= lo): (i, position) pairs."""
    size = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(len(lo)), size)
    position = np.arange(len(owner)) - np.repeat(np.cumsum(size) - size, size) + np.repeat(lo, size)
    return owner, position
