"""Observation against expectation: a status and a message that names each wrong quantity.

A message reads like `draw 1, patch 0, TES: gl_TessLevelOuter = (1, 1, 1, 1), expected
(2, 3, 4, 5) (all 6 records)` and ends with the target and its renderer.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass

import numpy as np

from harness.case import Case, DrawExpectation
from harness.executor import Result
from harness.observation import decode_records

MAX_PROBLEMS = 12
STATUSES = ("pass", "fail", "skip", "crash", "timeout", "error")


@dataclass(frozen=True)
class Verdict:
    status: str
    message: str = ""


def judge(case: Case, result: Result, where: str) -> Verdict:
    """`where` names the target and renderer, e.g. 'zink (zink (llvmpipe ...), 4.6 Core ...)'."""
    if result.status == "skip":
        return Verdict("skip", f"{result.message} [{where}]")
    if result.status != "ok":
        status = "fail" if result.status == "fail" else result.status
        return Verdict(status, f"{result.message}\n[{where}]")
    problems = check(case, result.observation)
    if not problems:
        return Verdict("pass")
    shown = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        shown.append(f"... and {len(problems) - MAX_PROBLEMS} more")
    return Verdict("fail", "\n".join(shown) + f"\n[{where}]")


def check(case: Case, observation: dict) -> list[str]:
    if not case.expect:
        return [f"case {case.id} expects nothing: a case that checks nothing cannot pass"]
    draws = observation.get("draws", [])
    problems = []
    for expectation in case.expect:
        label = case.draws[expectation.draw].label or f"draw {expectation.draw}"
        if expectation.draw >= len(draws):
            problems.append(f"{label}: no observation (the backend returned {len(draws)} draws)")
            continue
        problems += _check_draw(case, expectation, draws[expectation.draw], label)
    return problems


def _check_draw(case: Case, exp: DrawExpectation, observed: dict, label: str) -> list[str]:
    """Counts and missing or stray records first (they say what went wrong), then values."""
    shape, values = [], []
    for name, expected in exp.counts:
        value = observed.get("counts", {}).get(name)
        if value != expected:
            shape.append(f"{label}: {name} = {value}, expected {expected}")
    if exp.pixels:
        shape += _check_pixels(case, exp, observed, label)
    if not exp.groups and not exp.sequence:
        return shape
    records = decode_records(case.readback.captures, observed.get("xfb", ""))
    if exp.sequence:
        return shape + _check_sequence(exp, records, label)
    claimed = np.zeros(len(records), dtype=bool)
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
            bad = np.any(~(np.abs(got - want) <= exp.tolerance), axis=1)   # NaN counts as bad
            if bad.any():
                first = got[bad][0]
                scope = f"all {total} records" if bad.all() else f"{int(bad.sum())} of {total} records"
                values.append(f"{label}, {group.label}: {quantity} = {_fmt(first)}, "
                              f"expected {_fmt(want)} ({scope})")
    if not claimed.all():
        key = exp.groups[0].key
        strays = sorted({int(v) for v in records[key][~claimed][:, 0]})
        shape.append(f"{label}: {int((~claimed).sum())} records have {key} in {strays[:8]}, "
                     f"which the draw should not produce")
    return shape + values


def _check_sequence(exp: DrawExpectation, records: np.ndarray, label: str) -> list[str]:
    """Records compared one by one in capture order; the first mismatching ones are named."""
    problems = []
    if len(records) != len(exp.sequence):
        problems.append(f"{label}: {len(records)} records captured, expected {len(exp.sequence)}")
    for record, expected in zip(records, exp.sequence):
        for quantity, value in expected.values:
            want = np.atleast_1d(np.asarray(value, dtype=np.float64))
            got = np.atleast_1d(record[quantity])[:len(want)].astype(np.float64)
            if np.any(~(np.abs(got - want) <= exp.tolerance)):
                problems.append(f"{label}, {expected.label}: {quantity} = {_fmt(got)}, expected {_fmt(want)}")
    return problems


def _check_pixels(case: Case, exp: DrawExpectation, observed: dict, label: str) -> list[str]:
    """Each expected channel of the image; a wrong value is traced to what carries that value,
    since the values of a case are unique (a clobbered varying shows whose value it got)."""
    image = np.frombuffer(base64.b64decode(observed.get("image", "")), dtype="<f4")
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


def _fmt(values) -> str:
    parts = [f"{float(v):g}" for v in np.atleast_1d(values)]
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
