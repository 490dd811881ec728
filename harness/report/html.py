"""`python -m harness report RESULTS... [-o DIR]`: results.json files (and the observations
beside them) merged into one static HTML page, DIR/index.html, with the PNGs it shows under
DIR/images/. Relative links, inline CSS, no script: it opens from file:// without a server.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2

from harness.sources import catalog
from harness.run import export
from harness.results import release_matrix as matrix, files as results
from harness.model import defects, ids
from harness.model.case import Case, CaseError, step_label
from harness.model.observation import steps_of
from harness.report import images
from harness.results import defect_groups
from harness.model.outcome import Judged, Outcome, Record
from harness.model.status import KNOWN, LOOKS, Status
from harness.base.errors import UsageError

# Columns, best first; a known failure is counted as known, not under its status, so that a gated
# run's expected failures and its new ones stand apart.
STATUSES = tuple(s.value for s in Status if not s.is_failure()) + (KNOWN,) + \
    tuple(s.value for s in Status if s.is_failure())
# Shown with message, GLSL and images: failures, and flakes (they failed once).
FAILED = tuple(s.value for s in Status if s.is_failure() or s in (Status.FLAKE, Status.ORDER_DEPENDENT))
DEFAULT_OUT = Path("results") / "report"


class ReportError(UsageError):
    """Input the report cannot use: said in one line."""


@dataclass
class Row:
    id: str
    target: str
    status: str
    expected: str
    duration: float | None
    renderer: str
    message: str
    folder: Path                   # the results directory, where observations/ may be
    mesa: str = ""                 # the Mesa version that ran it ('' when not Mesa or unknown)
    known: bool = False            # the baseline expects this failure
    family: str = field(init=False)
    column: str = field(init=False)   # one column per target and Mesa: runs of one target on two
                                      # Mesas stand side by side

    def __post_init__(self) -> None:
        self.family = catalog.prefix(self.id)
        self.column = f"{self.target} · Mesa {self.mesa}" if self.mesa else self.target

    @property
    def shown(self) -> str:
        """Its column and colour: `known` for an expected failure, else its status."""
        return KNOWN if self.known else self.status


def load(paths: list[Path]) -> tuple[list[Row], list[str]]:
    """Every entry of every results file, a later entry for the same case and target replacing
    an earlier one; and notes on what was replaced."""
    rows: dict[tuple[str, str], Row] = {}
    notes = []
    for path in paths:
        for row in _read(path):
            key = (row.id, row.column)
            if key in rows:
                notes.append(f"{row.id} [{row.column}] appears twice; {row.folder} wins")
            rows[key] = row
    return list(rows.values()), notes


def _read(path: Path) -> list[Row]:
    file = path / "results.json" if path.is_dir() else path
    if not path.exists():
        raise ReportError(f"{path}: no such results directory or file")
    if not file.is_file():
        raise ReportError(f"{path}: no results.json in this directory")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{file}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"{file}: not JSON: {exc}") from None
    entries = data.get("results") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ReportError(f'{file}: not a results file: expected {{"results": [...]}}')
    try:
        records = results.read_entries(entries, str(file))
    except results.ResultsError as exc:
        raise ReportError(str(exc)) from None
    timed = [isinstance(entry, dict) and "duration" in entry for entry in entries]
    records = results.fill_mesa(records)              # a dead worker's entry: its run's Mesa
    return [Row(id=r.id, target=r.target, status=r.status.value, expected=r.expected,
                duration=r.duration if has_time else None, renderer=r.renderer, mesa=r.mesa,
                message=r.message, folder=file.parent, known=r.outcome.judged is Judged.EXPECTED_FAIL)
            for r, has_time in zip(records, timed)]


def observation_path(folder: Path, case_id: str, target: str) -> Path:
    """Where the plugin keeps the observation of a failed case on a target."""
    return folder / "observations" / f"{export.file_stem(case_id, target)}.json"


def slug(text: str) -> str:
    """A column name as an HTML id or file name part ('llvmpipe · Mesa 25.0.7' -> 'llvmpipe-Mesa-25.0.7')."""
    return re.sub(r"[^A-Za-z0-9._~+-]+", "-", text)


def anchor(case_id: str) -> str:
    return "case-" + ids.file_name(case_id)


def _counts(rows: list[Row], statuses: tuple[str, ...]) -> dict[str, Any]:
    count = Counter(row.shown for row in rows)
    durations = [row.duration for row in rows if row.duration is not None]
    seconds = sum(durations)
    whole = len(durations) == len(rows) and seconds > 0
    return {"cases": len(rows), "by_status": [count.get(s, 0) for s in statuses],
            "seconds": seconds if durations else None,
            "rate": len(rows) / seconds if whole else None}


def _statuses(rows: list[Row]) -> tuple[str, ...]:
    """Every status, and any other a results file holds, after them."""
    extra = sorted({row.shown for row in rows} - set(STATUSES))
    return STATUSES + tuple(extra)


def _title(row: Row) -> str:
    lines = [f"{row.status}" + (" (known: the baseline expects it)" if row.known else "")
             + (f" (expected {row.expected})" if row.expected else "")]
    if row.message:
        lines.append(row.message.strip().splitlines()[0][:300])
    return "\n".join(lines)


class _Images:
    """Writes the PNGs of failures under out_dir/images/, one folder per case and target."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir

    def of(self, row: Row, case: Case, observation: dict[str, Any] | None) -> tuple[list[dict[str, Any]], list[str]]:
        if case.readback.image is None:
            return [], []
        size = case.readback.image
        steps = steps_of(observation)
        if not isinstance(steps, list):
            return [], ["the observation has no steps"]
        stem = f"{ids.file_name(row.id)}.{slug(row.column)}"
        shown, notes = [], []
        for expectation in case.expect:
            if not expectation.pixels:
                continue
            label = step_label(case.steps, expectation.step)
            if expectation.step >= len(steps) or not isinstance(steps[expectation.step], dict):
                notes.append(f"{label}: not in the observation")
                continue
            try:
                made = images.write_draw(expectation, steps[expectation.step], size,
                                         expectation.tolerance, self.out_dir / "images" / stem,
                                         f"step{expectation.step}")
            except images.ImageError as exc:
                notes.append(f"{label}: {exc}")
                continue
            shown.append({"draw": made.draw, "label": label,
                          "width": made.width, "height": made.height, "scale": made.scale,
                          "wrong": made.wrong, "checked": made.checked,
                          **{name: self.link(getattr(made, name))
                             for name in ("expected", "observed", "diff")}})
        return shown, notes

    def link(self, path: Path) -> str:
        return quote(path.relative_to(self.out_dir).as_posix())


def _observation(row: Row) -> tuple[Case | None, dict[str, Any] | None, str]:
    """The case and observation from the row's observation file; a note when there is one that
    cannot be read. No file: (None, None, "")."""
    path = observation_path(row.folder, row.id, row.target)
    if not path.is_file():
        return None, None, ""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        text = data["case"]
        case = Case.from_json(text if isinstance(text, str) else json.dumps(text))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, CaseError) as exc:
        return None, None, f"{path.name}: unreadable observation file ({exc})"
    if case.id != row.id:
        return None, None, f"{path.name}: holds case {case.id}, not {row.id}"
    return case, data.get("observation"), ""


def _programs(case: Case) -> list[dict[str, Any]]:
    """The GLSL of each program, per stage."""
    programs = [case.shaders] + list(case.programs)
    return [{"name": f"program {i}" if len(programs) > 1 else "", "stages": list(stages)}
            for i, stages in enumerate(programs)]


def by_defect(rows: list[Row], registry: defects.Registry | None = None) -> defect_groups.Grouping:
    """The failing rows by defect: new ones (the baseline does not list them) apart from known ones."""
    failing = [r for r in rows if r.known or Status(r.status).is_failure()] if rows else []
    return defect_groups.group([defect_groups.Failure(r.id, r.target, r.mesa, r.status, not r.known) for r in failing],
                               registry)


def context(rows: list[Row], out_dir: Path, inputs: list[Path], notes: list[str],
            registry: defects.Registry | None = None) -> dict[str, Any]:
    statuses = _statuses(rows)
    targets = list(dict.fromkeys(row.column for row in rows))
    by_target = {t: [row for row in rows if row.column == t] for t in targets}
    families = sorted({row.family for row in rows})
    totals = [{"target": t, "renderers": sorted({r.renderer for r in by_target[t] if r.renderer}),
               **_counts(by_target[t], statuses)} for t in targets]
    family_tables = []
    for name in families:
        in_family = [row for row in rows if row.family == name]
        family_tables.append({
            "name": name, "cases": len({row.id for row in in_family}),
            "rows": [{"target": t, **_counts([r for r in in_family if r.column == t], statuses)}
                     for t in targets if any(r.column == t for r in in_family)],
            "all": _counts(in_family, statuses)})

    cells: dict[str, dict[str, Row]] = {}
    for row in rows:
        cells.setdefault(row.id, {})[row.column] = row
    diff_rows: list[dict[str, Any]] = []
    for case_id in sorted(cells):
        present = cells[case_id]
        disagree = len({row.status for row in present.values()}) > 1
        failed = any(row.status in FAILED for row in present.values())
        diff_rows.append({
            "id": case_id, "family": catalog.prefix(case_id), "disagree": disagree,
            "anchor": anchor(case_id) if failed else "",
            "cells": [{"status": present[t].status, "shown": present[t].shown, "expected": present[t].expected,
                       "title": _title(present[t])} if t in present else None for t in targets]})
    diff_rows.sort(key=lambda d: not d["disagree"])          # stable: by id within each part

    writer = _Images(out_dir)
    failures = []
    for diff_row in diff_rows:
        failed_rows = [cells[diff_row["id"]][t] for t in targets
                       if t in cells[diff_row["id"]] and cells[diff_row["id"]][t].status in FAILED]
        if not failed_rows:
            continue
        entry: dict[str, Any] = {"id": diff_row["id"], "anchor": diff_row["anchor"], "disagree": diff_row["disagree"],
                 "programs": [], "targets": []}
        for row in failed_rows:
            case, observation, note = _observation(row)
            shown, image_notes = writer.of(row, case, observation) if case else ([], [])
            if case and not entry["programs"]:
                entry["programs"] = _programs(case)
            entry["targets"].append({"target": row.column, "status": row.status, "shown": row.shown,
                                     "expected": row.expected, "renderer": row.renderer,
                                     "duration": row.duration, "message": row.message,
                                     "images": shown, "notes": ([note] if note else []) + image_notes})
        failures.append(entry)

    return {"inputs": [str(p) for p in inputs], "notes": notes, "statuses": statuses,
            "targets": targets, "totals": totals, "all": _counts(rows, statuses),
            "case_count": len(cells), "families": family_tables, "diff_rows": diff_rows,
            "disagreeing": sum(d["disagree"] for d in diff_rows), "failures": failures,
            "matrix": release_matrix(rows), "grouping": by_defect(rows, registry),
            "case_href": lambda case_id: f"#{anchor(case_id)}",
            "legend": images.LEGEND}


def release_matrix(rows: list[Row]) -> dict[str, Any] | None:
    """The release matrix (harness/results/release_matrix.py) of runs on two Mesa releases or more: the cases
    on a target that changed or failed on some release, changed first, each cell that starts a
    change marked with its kind; None for fewer releases."""
    table = matrix.build([Record(r.id, r.target, Outcome(Status(r.status)), mesa=r.mesa)
                          for r in rows if r.mesa and r.status in STATUSES])
    if len(table.versions) < 2:
        return None
    shown = [row for row in table.rows if row.changes or row.ever_bad()]
    view = []
    for row in shown:
        starts = {t.after: t for t in row.changes}
        view.append({"id": row.case_id, "target": row.target, "anchor": anchor(row.case_id),
                     "changes": [str(t) for t in row.changes],
                     "cells": [{"status": row.verdicts[v], "mark": starts[v].kind if v in starts else "",
                                "title": str(starts[v]) if v in starts else f"{row.verdicts[v]} on Mesa {v}"}
                               if v in row.verdicts else None for v in table.versions]})
    return {"versions": table.versions, "rows": view, "hidden": len(table.rows) - len(shown),
            "regressions": table.count(matrix.REGRESSION), "fixes": table.count(matrix.FIX),
            "changes": table.count(matrix.CHANGE)}


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("harness.report", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["seconds"] = lambda s: "—" if s is None else f"{s:.2f} s"
    env.filters["slug"] = slug
    env.filters["rate"] = lambda r: "—" if r is None else f"{r:.1f}"
    env.globals["looks"] = LOOKS
    return env


def write_report(results: list[Path], out_dir: Path) -> Path:
    """Merge the results files (or directories holding results.json) into out_dir/index.html;
    returns its path. Raises ReportError for input it cannot use."""
    results = [Path(p) for p in results]
    if not results:
        raise ReportError("no results given")
    rows, notes = load(results)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    page = _environment().get_template("index.html.j2").render(
        **context(rows, out_dir, results, notes))
    index = out_dir / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
