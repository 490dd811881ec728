"""The verdict's array paths (expected_tables, one comparison per quantity over all records;
distinct rows by hash) say exactly what its one-by-one paths say: the same problems, in the
same order, with the same values, for passing and failing observations of every kind of case.

bench/judge_bench.py --check does the same over observations of real runs.
"""
from __future__ import annotations

import base64

import numpy as np
import pytest

from harness.oracle import expected_tables, nearest, verdict
from harness.model.observation import Observation, encode_records, record_dtype

SAMPLE = {"tess": 25, "draw_params": 12}      # every n-th case of a family (10-30 s in all)


def synthetic_observation(case) -> dict:
    """Records built from the expectations: each group's values in 3 records, each keyed value
    set's values in records of its key, each sequence record in order."""
    dtype = record_dtype(case.readback.captures)
    draws = [{"counts": {}, "xfb": ""} for _ in case.steps]
    for exp in case.expect:
        rows = []
        for group in exp.groups:
            for _ in range(3):
                rows.append([(group.key, group.key_value)] + list(group.values))
            for vs in exp.value_sets:
                if vs.key == group.key and vs.key_value == group.key_value:
                    for value in vs.values[:64]:
                        rows.append([(group.key, group.key_value)] + list(group.values) + [(vs.quantity, value)])
        for record in exp.sequence:
            rows.append(list(record.values))
        records = np.zeros(len(rows), dtype)
        for i, row in enumerate(rows):
            for quantity, value in row:
                value = np.atleast_1d(value)
                records[quantity][i, :len(value)] = value
        draws[exp.step] = {"counts": dict(exp.counts), "xfb": encode_records(records.tobytes())}
    return {"steps": draws}


def mutated(case, observation):
    """The observation, and variants that fail: values changed, records dropped, duplicated,
    rekeyed, reordered."""
    yield observation
    dtype = record_dtype(case.readback.captures)
    for d, draw in enumerate(observation["steps"]):
        if not draw["xfb"]:
            continue
        records = np.frombuffer(base64.b64decode(draw["xfb"]), dtype)

        def variant(changed, d=d):
            draws = [dict(x) for x in observation["steps"]]
            draws[d]["xfb"] = encode_records(changed.tobytes())
            return {"steps": draws}
        for name in dtype.names:
            for change in (1, np.nan):
                changed = records.copy()
                column = changed[name][::2]
                if column.dtype.kind == "f":
                    changed[name][::2] = column + change
                elif change == 1:
                    changed[name][::2] = column + 1
                yield variant(changed)
        yield variant(records[1:])
        yield variant(records[[0] + list(range(len(records)))])
        yield variant(records[::-1])


def one_by_one(monkeypatch):
    """The verdict without its tables and without distinct rows by hash."""
    monkeypatch.setattr(verdict, "tables", lambda exp: expected_tables.ExpectationTables(None, None))
    monkeypatch.setattr(nearest, "_distinct_rows",
                        lambda rows, keys: (lambda d, i: (d, i.reshape(-1)))(*np.unique(rows, axis=0,
                                                                                        return_inverse=True)))


# tess's sample is the larger sweep: it runs in CI (marked slow), draw_params' everywhere
@pytest.mark.parametrize("family", [pytest.param("tess", marks=pytest.mark.slow), "draw_params"])
def test_array_paths_match_one_by_one(family, monkeypatch, tess_cases, draw_params_cases):
    cases = list((tess_cases if family == "tess" else draw_params_cases).values())[::SAMPLE[family]]
    inputs = [(case, Observation.from_json(observation))
              for case in cases for observation in mutated(case, synthetic_observation(case))]
    fast = [verdict.check(case, observation) for case, observation in inputs]
    with monkeypatch.context() as patch:
        one_by_one(patch)
        slow = [verdict.check(case, observation) for case, observation in inputs]
    assert sum(bool(problems) for problems in slow) > len(inputs) // 3      # failures of all kinds
    for (case, _), a, b in zip(inputs, fast, slow):
        assert a == b, case.id


def test_whole_tables_match_the_row_by_row_build():
    """_tables' one-conversion path (every row, one width) and its row-by-row path (a row
    without the quantity, mixed widths) give the same arrays for the rows they share."""
    whole = expected_tables._tables([(("a", 1), ("b", (1.0, 2))), (("a", 2.5), ("b", (3, 4)))])
    assert whole is not None
    assert whole["a"].want.tolist() == [[1.0], [2.5]] and whole["a"].compared.all() and whole["a"].has.all()
    assert whole["b"].want.tolist() == [[1.0, 2.0], [3.0, 4.0]] and whole["b"].compared.all()
    mixed = expected_tables._tables([(("a", 1), ("b", (1.0, 2))), (("b", 3),)])
    assert mixed is not None
    assert mixed["a"].want.tolist() == [[1.0], [0.0]] and mixed["a"].has.tolist() == [True, False]
    assert mixed["b"].want.tolist() == [[1.0, 2.0], [3.0, 0.0]]
    assert mixed["b"].compared.tolist() == [[True, True], [True, False]]
    assert expected_tables._tables([(("a", 1), ("a", 2))]) is None          # a quantity twice in a row
