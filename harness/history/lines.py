"""Baseline and flakes lines written from the history, each with its evidence in the comment:
the fields drm/ci asks of a flake (Board, first version, Failure Rate; the bug report is left for
a person), and first seen, last seen, n failed of N runs, the rate and its 95% interval.

- a case that failed in every counted run of the window, or failed in each run since it
  regressed, gets a baseline line (`case-id[target],Status`, its latest failing status);
- a flaky case (failures between passes) gets a flakes line (`^<key>$ statuses`);
- a case that failed earlier in the window and passes since gets no line, and a comment says
  to drop the line it may have.

`under_defects` puts the lines of each defect (the triage record covering the case on its target
and Mesa, harness/model/defects.py) under its `# defect: <id>` line, as the project's baselines
hold them; the untriaged first, under `# defect: untriaged`.
"""
from __future__ import annotations

import datetime
import re
from typing import Callable

from harness.history.queries import Rate
from harness.model import ids
from harness.model.defects import UNTRIAGED, Registry
from harness.model.status import RateKind, Status


def _when(rate: Rate) -> str:
    def day(moment: datetime.datetime | None) -> str:
        return moment.date().isoformat() if moment else "-"
    return f"first seen {day(rate.first_failed)}, last seen {day(rate.last_failed)}"


def evidence(rate: Rate, renderer: str = "") -> str:
    low, high = rate.interval
    board = f"{rate.target}" + (f" ({renderer})" if renderer else "")
    failure_rate = f"{rate.failed}/{rate.runs} runs ({rate.rate:.0%}, 95% CI {low:.0%}-{high:.0%})"
    if rate.kind is RateKind.REGRESSED:        # the rate since it regressed is what the line is about
        failure_rate = (f"{rate.failed}/{rate.failed} runs since it regressed, after {rate.runs - rate.failed} "
                        f"passing")
    return (f"Board: {board}; first version: {rate.mesa[0] if rate.mesa else '-'}; Failure Rate: {failure_rate}; "
            f"{_when(rate)}; lane {rate.lane}; Bug Report: -")


def baseline_lines(found: list[Rate], renderers: dict[str, str] | None = None) -> list[str]:
    """Lines for a baseline file: a comment with the evidence, then the line."""
    out = []
    for rate in sorted(found, key=lambda r: (r.target, r.name)):
        if rate.kind not in (RateKind.FAILING, RateKind.REGRESSED):
            continue
        status = Status(rate.statuses[-1]) if rate.statuses else Status.FAIL
        name = status.baseline_name or "Fail"
        out += [f"# {evidence(rate, (renderers or {}).get(rate.target, ''))}",
                f"{ids.key(rate.name, rate.target)},{name}"]
    return out


def flakes_lines(found: list[Rate], renderers: dict[str, str] | None = None) -> list[str]:
    """Lines for a flakes file: `^<key>$ statuses  # evidence`."""
    out = []
    for rate in sorted(found, key=lambda r: (-r.rate, r.target, r.name)):
        if rate.kind is not RateKind.FLAKY:
            continue
        statuses = ",".join(sorted({s if s != "flake" else "fail" for s in rate.statuses}))
        pattern = f"^{re.escape(ids.key(rate.name, rate.target))}$".replace(" ", r"\ ")
        out.append(f"{pattern} {statuses}  # {evidence(rate, (renderers or {}).get(rate.target, ''))}")
    return out


def fixed_lines(found: list[Rate]) -> list[str]:
    """Comments naming cases that failed in the window and pass since (drop their lines)."""
    return [f"# fixed? {ids.key(r.name, r.target)}: {r.failed}/{r.runs} failed, clean for the last "
            f"{r.clean_since} runs ({_when(r)}): drop its line" for r in found if r.kind is RateKind.FIXED]


def under_defects(found: list[Rate], write: Callable[[list[Rate]], list[str]], registry: Registry) -> list[str]:
    """The lines `write` makes of the rates, each defect's under its `# defect:` line, untriaged first."""
    groups: dict[str, list[Rate]] = {}
    for rate in found:
        defect = registry.match(rate.name, rate.target, rate.mesa[-1] if rate.mesa else "")
        groups.setdefault(defect.id if defect else UNTRIAGED, []).append(rate)
    out: list[str] = []
    for key in sorted(groups, key=lambda k: (k != UNTRIAGED, k)):
        made = write(groups[key])
        out += [f"# defect: {key}", *made] if made else []
    return out
