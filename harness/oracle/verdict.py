"""Observation against expectation: a status and a message that names each wrong quantity.

A message reads like `draw 1, patch 0, TES: gl_TessLevelOuter = (1, 1, 1, 1), expected
(2, 3, 4, 5) (all 6 records)` and ends with the target and its renderer.
"""
from __future__ import annotations

import operator
import struct
import sys
from typing import Any, cast

import numpy as np

from harness.model.case import Case, Expectation, step_label
from harness.oracle import captured_primitives
from harness.oracle.expected_tables import GroupTables, Table, tables
from harness.oracle.nearest import nearest_rows
from harness.model.expectations import UNBOUNDED
from harness.model.glfacts import GL_TYPE_ENUMS
from harness.model.observation import Observation, Step, decode_records
from harness.model.status import Reply, Result, Status, Verdict

MAX_PROBLEMS = 12


def judge(case: Case, result: Result, where: str) -> Verdict:
    """`where` names the target and renderer, e.g. 'zink (zink (llvmpipe ...), 4.6 Core ...)'."""
    if result.status is Reply.SKIP:
        return Verdict(Status.SKIP, f"{result.message} [{where}]")
    if result.status is not Reply.OK:
        return Verdict(cast(Status, result.status.status), f"{result.message}\n[{where}]")
    problems = check(case, observation_of(result))
    if not problems:
        return Verdict(Status.PASS)
    shown = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        shown.append(f"... and {len(problems) - MAX_PROBLEMS} more")
    return Verdict(Status.FAIL, "\n".join(shown) + f"\n[{where}]")


def observation_of(result: Result) -> Observation:
    """The observation of an `ok` reply; none observed: no steps."""
    return result.observation if result.observation is not None else Observation([])


def check(case: Case, observation: Observation) -> list[str]:
    if not case.expect:
        return [f"case {case.id} expects nothing: a case that checks nothing cannot pass"]
    steps = observation.steps
    problems: list[str] = []
    for expectation in case.expect:
        label = step_label(case.steps, expectation.step)
        if expectation.step >= len(steps):
            problems.append(f"{label}: no observation (the backend returned {len(steps)} steps)")
            continue
        problems += _check_step(case, expectation, steps[expectation.step], label)
    return problems


def _check_step(case: Case, exp: Expectation, observed: Step, label: str) -> list[str]:
    """Counts and missing or stray records first (they say what went wrong), then values."""
    shape: list[str] = []
    values: list[str] = []
    for name, expected in exp.counts:
        value = observed.counts.get(name)
        if value != expected:
            shape.append(f"{label}: {name} = {value}, expected {expected}")
    for name, low, high in exp.bounds:
        value = observed.counts.get(name)
        if value is None or not low <= value <= high:
            shape.append(f"{label}: {name} = {value}, expected " + (
                f"at least {low}" if high == UNBOUNDED else f"{low}" + (f" to {high}" if high != low else "")))
    if exp.pixels:
        shape += _check_pixels(case, exp, observed, label)
    if exp.probes:
        shape += _check_probes(case, exp, observed, label)
    if exp.queries:
        shape += _check_queries(exp, observed)
    if exp.storage:
        shape += _check_storage(exp, observed, label)
    if not exp.groups and not exp.sequence and not exp.value_sets and exp.tess_coord is None \
            and exp.primitives is None:
        return shape
    records = decode_records(case.readback.captures, observed.xfb)
    if exp.primitives is not None:
        values += captured_primitives.check(exp.primitives, records, label)
    for value_set in exp.value_sets:
        values += _check_value_set(value_set, records, label)
    if exp.tess_coord is not None:
        values += _check_tess_coord(exp.tess_coord, records, label)
    if exp.sequence:
        return shape + _check_sequence(exp, records, label) + values
    if not exp.groups:
        return shape + values
    grouped = tables(exp).groups
    if grouped is not None and _fits(grouped.tables, records) and records[grouped.key].dtype.kind in "iu":
        claimed = _check_groups(exp, grouped, records, label, shape, values)
    else:
        claimed = _check_groups_one_by_one(exp, records, label, shape, values)
    if not claimed.all():
        key = exp.groups[0].key
        strays = sorted({int(v) for v in records[key][~claimed][:, 0]})
        shape.append(f"{label}: {int((~claimed).sum())} records have {key} in {strays[:8]}, "
                     f"which the draw should not produce")
    return shape + values


def _check_groups_one_by_one(exp: Expectation, records: np.ndarray, label: str,
                             shape: list[str], values: list[str]) -> np.ndarray:
    """What _check_groups does, group by group: for groups that do not share one integer key."""
    claimed: np.ndarray = np.zeros(len(records), dtype=bool)
    for group in exp.groups:
        mask = records[group.key][:, 0] == group.key_value
        claimed |= mask
        total = int(mask.sum())
        if total == 0:
            shape.append(f"{label}, {group.label}: no record has {group.key} = {group.key_value}")
            continue
        for quantity, expected in group.values:
            want = np.atleast_1d(np.asarray(expected, dtype=np.float64))
            got = records[quantity][mask][:, :len(want)].astype(np.float64)
            bad = np.any(~_matches(got, want, exp.tolerance), axis=1)
            if bad.any():
                first = got[bad][0]
                scope = f"all {total} records" if bad.all() else f"{int(bad.sum())} of {total} records"
                values.append(f"{label}, {group.label}: {quantity} = {_fmt(first)}, "
                              f"expected {_fmt(want)} ({scope})")
    return claimed


def _check_groups(exp: Expectation, grouped: GroupTables, records: np.ndarray, label: str,
                  shape: list[str], values: list[str]) -> np.ndarray:
    """Each record's group by its key, then one comparison per quantity over all groups.
    Appends problems to `shape` and `values` (in the order of the groups and their values);
    returns which records some group claims."""
    key = records[grouped.key][:, 0]
    at = np.minimum(np.searchsorted(grouped.key_values, key), len(grouped.key_values) - 1)
    claimed: np.ndarray = grouped.key_values[at] == key
    everyone = bool(claimed.all())                      # the usual case: plain slices, no gathers
    rows = slice(None) if everyone else np.flatnonzero(claimed)
    group = grouped.group_of[at if everyone else at[rows]]   # index in exp.groups of each claimed record
    totals = np.bincount(group, minlength=len(exp.groups)).tolist()
    compared = {}
    for quantity, table in grouped.tables.items():
        got = records[quantity][rows, :table.want.shape[1]]
        bad = _wrong_rows(got, table, group, exp.tolerance)
        wrong = [0] * len(exp.groups) if bad is None else np.bincount(group[bad], minlength=len(exp.groups)).tolist()
        compared[quantity] = (got, bad, wrong)
    if min(totals, default=1) > 0 and not any(any(wrong) for _, _, wrong in compared.values()):
        return claimed                                  # every group seen, nothing wrong: no message
    for index, (g, total) in enumerate(zip(exp.groups, totals)):
        if total == 0:
            shape.append(f"{label}, {g.label}: no record has {g.key} = {g.key_value}")
            continue
        for quantity, expected in g.values:
            got, bad, wrong = compared[quantity]
            if wrong[index]:
                want = np.atleast_1d(np.asarray(expected, dtype=np.float64))
                first = got[np.flatnonzero(bad & (group == index))[0], :len(want)].astype(np.float64)
                scope = f"all {total} records" if wrong[index] == total else f"{wrong[index]} of {total} records"
                values.append(f"{label}, {g.label}: {quantity} = {_fmt(first)}, "
                              f"expected {_fmt(want)} ({scope})")
    return claimed


def _wrong_rows(got: np.ndarray, table: Table, rows: np.ndarray | slice, tolerance: float) -> np.ndarray | None:
    """Which records (of `got`, one a row of `table` by `rows`) have a compared value that does
    not match; None where none (the usual case, told by one equality test, without a gather
    where every row expects the same values). `got` is compared as float64, as numpy promotes it."""
    want = table.want[:1] if table.every and _one_row(table.want, len(got)) else table.want[rows]
    if table.every and (got == want).all():
        return None
    ok = _matches(got, want, tolerance)
    if not table.every:
        ok |= ~table.compared[rows]
    bad: np.ndarray = np.asarray(~ok.all(axis=1))
    if not table.every:
        bad &= table.has[rows]
    return bad if bad.any() else None


def _one_row(want: np.ndarray, records: int) -> bool:
    """Whether row 0 of `want` stands for all: one row, or (checked where it saves a gather of
    many records) every row equal to it."""
    return len(want) == 1 or (records > 256 and bool((want == want[:1]).all()))


def _fits(table: dict[str, Any] | None, records: np.ndarray) -> bool:
    """Whether every quantity of `table` is captured, with enough components for its widest
    expected value (or one, which numpy broadcasts): else the slow paths, which fail the same
    way they always did."""
    if not table:
        return False
    fields = records.dtype.fields
    if fields is None:
        return False
    for quantity, t in table.items():
        if quantity not in fields:
            return False
        components = fields[quantity][0].shape
        if len(components) != 1 or 1 < components[0] < t.want.shape[1]:
            return False
    return True


def _check_sequence(exp: Expectation, records: np.ndarray, label: str) -> list[str]:
    """Records compared one by one in capture order; the first mismatching ones are named."""
    problems = []
    if len(records) != len(exp.sequence):
        problems.append(f"{label}: {len(records)} records captured, expected {len(exp.sequence)}")
    sequence = tables(exp).sequence
    if sequence is None or not _fits(sequence, records):
        return problems + _check_sequence_one_by_one(exp, records, label)
    n = min(len(records), len(exp.sequence))
    bad = {}                                            # quantity -> which of the n records are wrong
    for quantity, table in sequence.items():
        wrong = _wrong_rows(records[quantity][:n, :table.want.shape[1]], table, slice(None, n), exp.tolerance)
        if wrong is not None:
            bad[quantity] = wrong
    if not bad:
        return problems
    for index in np.flatnonzero(np.logical_or.reduce(list(bad.values()))).tolist():
        record, expected = records[index], exp.sequence[index]
        for quantity, value in expected.values:
            if quantity in bad and bad[quantity][index]:
                problems += _sequence_problem(record, expected, quantity, value, exp.tolerance, label)
    return problems


def _check_sequence_one_by_one(exp: Expectation, records: np.ndarray, label: str) -> list[str]:
    """What _check_sequence compares, record by record: where a quantity is not captured as
    its expected values need."""
    problems = []
    for record, expected in zip(records, exp.sequence):
        for quantity, value in expected.values:
            problems += _sequence_problem(record, expected, quantity, value, exp.tolerance, label)
    return problems


def _sequence_problem(record: Any, expected: Any, quantity: str, value: Any, tolerance: float,
                      label: str) -> list[str]:
    want = np.atleast_1d(np.asarray(value, dtype=np.float64))
    got = np.atleast_1d(record[quantity])[:len(want)].astype(np.float64)
    if np.any(~_matches(got, want, tolerance)):
        return [f"{label}, {expected.label}: {quantity} = {_fmt(got)}, expected {_fmt(want)}"]
    return []


def _matches(got: np.ndarray, want: np.ndarray, tolerance: float) -> np.ndarray:
    """Within the tolerance, or equal (infinities); an observed NaN matches only an expected
    NaN (a value the spec hands on unchanged, e.g. a NaN inner tessellation level)."""
    with np.errstate(invalid="ignore"):                      # inf - inf
        matched: np.ndarray = (got == want) | (np.abs(got - want) <= tolerance) | (np.isnan(want) & np.isnan(got))
    return matched


def _check_value_set(vs: Any, records: np.ndarray, label: str) -> list[str]:
    """The set, or else one of its alternatives (a result the spec also allows)."""
    problems = _check_one_set(vs, records, label)
    if problems and vs.alternatives:
        if any(not _check_one_set(alt, records, label) for alt in vs.alternatives):
            return []
        problems.append(f"{label}: nor is it " + "; nor ".join(alt.label for alt in vs.alternatives))
    return problems


def _check_one_set(vs: Any, records: np.ndarray, label: str) -> list[str]:
    """The distinct observed values of one quantity against the expected set: values missing,
    values not expected, and (with `each`) values seen too often or too rarely."""
    where = f"{label}, {vs.label}"
    want = np.asarray(vs.values, dtype=np.float64).reshape(len(vs.values), -1)
    width = want.shape[1] if len(vs.values) else 1
    column = records[vs.quantity]                      # only this field is gathered, not whole records
    if vs.key:
        column = column[records[vs.key][:, 0] == vs.key_value]
    if len(column) == 0:
        return [f"{where}: no record to compare {vs.quantity} with {len(want)} expected values"] if len(want) else []
    got = np.asarray(column.reshape(len(column), -1)[:, :width], dtype=np.float64)
    # Each observed value is matched to the nearest expected one within the tolerance.
    nearest = nearest_rows(got, want, vs.tolerance)
    problems = []
    seen = np.bincount(nearest[nearest >= 0], minlength=len(want))
    missing = np.flatnonzero(seen == 0)
    if len(missing):
        problems.append(f"{where}: {vs.quantity}: {len(missing)} of {len(want)} expected values never "
                        f"seen, e.g. {_fmt(want[missing[0]])}")
    strays = got[nearest < 0]
    if len(strays):
        distinct = np.unique(strays, axis=0)
        problems.append(f"{where}: {vs.quantity} = {_fmt(distinct[0])} in {len(strays)} of {len(got)} "
                        f"records, which is not an expected value ({len(distinct)} such values)")
    if vs.each:
        wrong = np.flatnonzero((seen != vs.each) & (seen > 0))
        if len(wrong):
            problems.append(f"{where}: {vs.quantity} = {_fmt(want[wrong[0]])} seen {seen[wrong[0]]} times, "
                            f"expected {vs.each} ({len(wrong)} values seen a wrong number of times)")
    return problems


def _check_tess_coord(tc: Any, records: np.ndarray, label: str) -> list[str]:
    """Per-record rules of gl_TessCoord, and the winding of captured triangles."""
    coords = np.asarray(records[tc.quantity], dtype=np.float64)[:, :3]
    total = len(coords)
    if total == 0:
        return []
    problems = []

    def name(index: int) -> str:
        where = f"{label}, record {index}"
        return where + (f" ({tc.key} = {int(records[tc.key][index][0])})" if tc.key else "")

    inside = (coords >= 0.0) & (coords <= 1.0)
    outside = np.zeros(0, dtype=np.int64) if inside.all() else np.flatnonzero(~inside.all(axis=1))
    if len(outside):
        i = outside[0]
        problems.append(f"{name(i)}: {tc.quantity} = {_fmt(coords[i])}, expected every component in "
                        f"[0, 1] ({len(outside)} of {total} records)")
    x, y, z = coords[:, 0], coords[:, 1], coords[:, 2]
    if tc.domain == "triangles":
        want, rule = 1.0 - x - y, "z = 1 - x - y"
    else:
        want, rule = np.zeros(total), "z = 0"
    bad = np.flatnonzero(~(np.abs(z - want) <= tc.tolerance))
    if len(bad):
        i = bad[0]
        problems.append(f"{name(i)}: {tc.quantity} = {_fmt(coords[i])}, expected {rule} = "
                        f"{_fmt(want[i])} ({len(bad)} of {total} records)")
    if tc.winding:
        triangles = coords[: total - total % 3].reshape(-1, 3, 3)
        a, b, c = triangles[:, 0, :2], triangles[:, 1, :2], triangles[:, 2, :2]
        area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
        sign = 1.0 if tc.winding == "ccw" else -1.0
        wrong = np.flatnonzero(area * sign < -tc.tolerance)        # no area is allowed either way
        if len(wrong):
            t = wrong[0]
            found = "cw" if area[t] < 0 else "ccw"
            problems.append(f"{name(3 * t)}: triangle {t} of {len(triangles)} has {tc.quantity} "
                            f"{_fmt(triangles[t][0])}, {_fmt(triangles[t][1])}, {_fmt(triangles[t][2])}: "
                            f"{found} in (u, v), expected {tc.winding} ({len(wrong)} of "
                            f"{len(triangles)} triangles)")
    return problems


def _check_pixels(case: Case, exp: Expectation, observed: Step, label: str) -> list[str]:
    """Each expected channel of the image; a wrong value is traced to what carries that value,
    since the values of a case are unique (a clobbered varying shows whose value it got)."""
    image = np.frombuffer(observed.image or b"", dtype="<f4")
    carriers = {round(value, 4): source for value, source in exp.written}
    for pixel in exp.pixels:
        if pixel.source:
            carriers.setdefault(round(pixel.value, 4), pixel.source)
    clear = case.readback.clear
    problems = []
    for pixel in exp.pixels:
        got = float(image[pixel.index]) if pixel.index < image.size else float("nan")
        if abs(got - pixel.value) <= exp.tolerance:
            continue
        if got == clear:
            whose = " (nothing was drawn there: the clear value)"
        elif round(got, 4) in carriers:
            whose = f" (the value of {carriers[round(got, 4)]})"
        else:
            whose = ""
        problems.append(f"{label}: {pixel.quantity} = {got:g}{whose}, expected {pixel.value:g}")
    return problems


def _check_probes(case: Case, exp: Expectation, observed: Step, label: str) -> list[str]:
    """Each probe rectangle against its colour, piglit's way: a channel is wrong when
    |observed - expected| > tolerance. A message names the probe, the first wrong pixel with
    its observed and expected colour, and how many pixels of the rectangle are wrong."""
    width, height = cast(tuple[int, int], case.readback.image)
    if observed.image is None:
        return [f"{label}: no image was read back for its probes"]
    image = np.frombuffer(observed.image, dtype="<f4")
    if image.size != width * height * 4:
        return [f"{label}: read back {image.size} floats, expected a {width}x{height} RGBA image"]
    image = image.reshape(height, width, 4)                 # row 0 is the bottom row (GL's order)
    problems = []
    for probe in exp.probes:
        n = len(probe.expected)
        region = image[probe.y:probe.y + probe.height, probe.x:probe.x + probe.width, :n].astype(np.float64)
        want = np.asarray(probe.expected, dtype=np.float64)
        tolerance = np.asarray(probe.tolerance[:n], dtype=np.float64)
        with np.errstate(invalid="ignore"):
            bad = np.any(~(np.abs(region - want) <= tolerance), axis=2)
        if bad.any():
            ys, xs = np.nonzero(bad)
            got = region[ys[0], xs[0]]
            where = f"pixel ({probe.x + xs[0]}, {probe.y + ys[0]})"
            scope = "" if bad.size == 1 else f" ({int(bad.sum())} of {bad.size} pixels wrong)"
            problems.append(f"{label}, {probe.label}: {where} colour = {_fmt(got)}, expected {_fmt(want)} "
                            f"(tolerance {_fmt(tolerance)}){scope}")
    return problems


def _check_queries(exp: Expectation, observed: Step) -> list[str]:
    """Each program query's answer from every call that gave one (shader_runner's rule: each
    must equal the expected value; a name that is not active fails)."""
    answers, problems = observed.queries or {}, []
    for query in exp.queries:
        expected = _query_value(query.value, query.enum)
        if query.label not in answers:
            problems.append(f"{query.label}: no answer was read back")
        elif (answer := answers[query.label]) is None:
            problems.append(f"{query.label}: the program has no active resource of that name "
                            f"(expected {expected})")
        else:
            for call, value in answer.items():
                if value != query.value:
                    problems.append(f"{query.label}: {call} = {_query_value(value, query.enum)}, expected {expected}")
    return problems


def _query_value(value: int, enum: bool) -> str:
    if not enum:
        return str(value)
    name = next((n for n, v in GL_TYPE_ENUMS.items() if v == value), "not a GLSL type enum")
    return f"{name} ({value:#06x})"


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
           "<=": operator.le}


def _check_storage(exp: Expectation, observed: Step, label: str) -> list[str]:
    """Each `probe ssbo` value, shader_runner's way: observed OP expected; floats equal when
    they differ by less than DBL_EPSILON."""
    buffers, problems = observed.storage or {}, []
    for probe in exp.storage:
        where = f"{label}, {probe.label}"
        data = buffers.get(probe.binding)
        if data is None:
            problems.append(f"{where}: no storage buffer is bound at binding {probe.binding}")
            continue
        if probe.offset + 4 > len(data):
            problems.append(f"{where}: offset {probe.offset} is past the end of the {len(data)}-byte buffer")
            continue
        got = struct.unpack_from({"int": "<i", "uint": "<I", "float": "<f"}[probe.type], data, probe.offset)[0]
        if probe.type == "float" and probe.op in ("==", "!="):
            ok = (abs(got - probe.value) < sys.float_info.epsilon) == (probe.op == "==")
        else:
            ok = COMPARE[probe.op](got, probe.value)
        if not ok:
            shown = f"{got:.9g}" if probe.type == "float" else str(got)
            expected = f"{probe.value:.9g}" if probe.type == "float" else str(int(probe.value))
            wanted = expected if probe.op == "==" else f"{probe.op} {expected}"
            problems.append(f"{where}: {probe.type} at byte {probe.offset} of SSBO {probe.binding} = {shown}, "
                            f"expected {wanted}")
    return problems


def _fmt(values: Any) -> str:
    parts = [f"{float(v):g}" for v in np.atleast_1d(values)]
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
