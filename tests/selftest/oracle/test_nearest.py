"""harness/oracle/nearest.py: each observed row's nearest expected row within the tolerance,
against a brute-force search; distinct rows by hash as np.unique finds them."""
from __future__ import annotations

import numpy as np

from harness.oracle.nearest import _distinct_rows, _near, _row_keys, nearest_rows


def test_nearest_matches_within_tolerance_only():
    want = np.array([[0.0, 0.0], [0.5, 0.5], [1.0, 1.0], [0.5, 0.5004]])
    got = np.array([[0.0009, 0.0], [0.5, 0.5003], [0.3, 0.3], [np.inf, 0.0], [1e30, 1.0], [1.0, 0.9981]])
    assert list(nearest_rows(got, want, 1e-3)) == [0, 3, -1, -1, -1, -1]
    assert list(nearest_rows(np.array([[3.0], [4.0], [7.0]]), np.array([[3.0], [4.0], [5.0]]), 0.0)) == [0, 1, -1]


def nearest_by_brute_force(got, want, tolerance):
    """Each row's nearest expected row within the tolerance in every component; of equally near
    ones the first in the stable order of the column with the most distinct values."""
    column = max(range(want.shape[1]), key=lambda c: len(np.unique(want[:, c])))
    rank = np.argsort(np.argsort(want[:, column], kind="stable"), kind="stable")
    with np.errstate(invalid="ignore"):
        distance = np.abs(got[:, None, :] - want[None, :, :]).max(axis=2)
    found = []
    for row in distance:
        near = [(d, rank[j], j) for j, d in enumerate(row) if d <= tolerance]
        found.append(min(near)[2] if near else -1)
    return found


def test_near_is_the_nearest_by_brute_force():
    """Grids with duplicate rows, offsets of exactly the tolerance (ties), infinities and NaNs,
    large offsets: the windows on two columns find every row within the tolerance."""
    rng = np.random.default_rng(47)
    for _ in range(300):
        width, expected, observed = int(rng.integers(1, 5)), int(rng.integers(1, 30)), int(rng.integers(1, 40))
        tolerance = float(rng.choice([0.0, 0.002, 0.25, 1.0]))
        want = np.round(rng.uniform(-2, 2, (expected, width)) * 4) / 4 * float(rng.choice([1.0, 1e6])) \
            + float(rng.choice([0.0, 1e6]))
        want[rng.integers(0, expected)] = want[rng.integers(0, expected)]
        got = want[rng.integers(0, expected, observed)] + rng.choice([0, tolerance, -tolerance, 2 * tolerance],
                                                                     (observed, width))
        got.flat[rng.integers(0, got.size)] = rng.choice([np.nan, np.inf])
        want.flat[rng.integers(0, want.size)] = rng.choice([np.nan, -np.inf, want.flat[0]])
        assert list(_near(got, want, tolerance)) == nearest_by_brute_force(got, want, tolerance)


def test_distinct_rows_as_np_unique():
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 4, (500, 3)).astype(np.float64) / 4
    rows[::7, 1] = np.nan
    rows[::11, 2] = -0.0
    distinct, inverse = _distinct_rows(rows, _row_keys(rows))
    again = distinct[inverse]
    assert np.array_equal(again, rows, equal_nan=True)
    assert len(distinct) == len({tuple(np.nan_to_num(row, nan=9) + 0.0) for row in rows})   # -0 is 0
