"""The dashboard's pages, each built from the store by one function of a read-only connection and
written by a Jinja template (harness/history/templates; autoescaped: messages and renderer strings
are the driver's text). Every page lives at the path the static export writes it to and links the
others by relative paths, so the local server (harness/history/serve.py) and the exported folder
(opened from file://, or published on GitLab Pages, where artifacts expire and the store's history
does not) show the same pages:

  index.html                 a timeline plot per target, the runs table below it (a text filter)
  runs/<id>.html             a run: its properties, counts per target, new and known failures apart
  cases/<name>.html          a case (ids.file_name): a history strip per target and lane, messages, the first-bad
                             range and the `harness bisect` command for it
  flakes.html                failure rates over a window, ranked, with the 95% interval
  regressions/<id>.html      a run against the previous run of its lane (the server also answers
  regressions.html             regressions.html?old=ID&new=ID; without them: the list of pairs)
"""
from __future__ import annotations

import datetime
import functools
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import jinja2
from sqlalchemy import Connection, Engine, func, select

from harness.history import defect_runs, queries, schema
from harness.history.plots import STACK, timeline
from harness.history.weblinks import web_url
from harness.model import defects, ids
from harness.model.outcome import Judged, Record
from harness.model.status import KNOWN, LOOKS, Change, RateKind, Status
from harness.results import compare, defect_groups

NEW = "new"                                     # a failure the baseline does not list (KNOWN: one it does)
THRESHOLD = 0.05                                # "fixed?": the confidence the rate is below this
DEFAULT_DAYS = 30.0
BISECT_TREE = "/path/to/mesa"


def case_named(connection: Connection, text: str) -> str | None:
    """The stored case id whose case page name (ids.file_name) is `text`, or None."""
    decoded = ids.case_of_name(text)
    if decoded is None:
        return None
    start, cut = decoded
    names = schema.cases.c.name
    where = func.substr(names, 1, len(start)) == start if cut else names == start
    found = connection.execute(select(names).where(where).distinct()).scalars()
    return next((name for name in found if ids.file_name(name) == text), None)


@dataclass
class Links:
    """A page's links to the others, relative to its folder (`root`: '' or '../'). The case pages
    it links are noted in `cases`: the static export writes those."""
    root: str = ""
    cases: set[str] = field(default_factory=set)
    runs: frozenset[int] | None = None       # the runs with a page (None: every run): a static export's newest

    def run(self, run_id: int) -> str:
        if self.runs is not None and run_id not in self.runs:
            return f"{self.root}runs/{OLDER}"
        return f"{self.root}runs/{run_id}.html"

    def case(self, name: str) -> str:
        self.cases.add(name)
        return f"{self.root}cases/{ids.file_name(name)}.html"

    def regressions(self, new_id: int) -> str:
        return f"{self.root}regressions/{new_id}.html"

    def page(self, name: str) -> str:
        return f"{self.root}{name}"

    def nested(self) -> "Links":
        """The same, for a page one folder down (runs/, cases/, regressions/)."""
        return Links("../", self.cases, self.runs)


@functools.cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.ChoiceLoader([jinja2.PackageLoader("harness.history", "templates"),
                                                         jinja2.PackageLoader("harness.report", "templates")]),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.globals["looks"] = LOOKS
    env.filters["when"] = lambda moment: f"{moment:%Y-%m-%d %H:%M}"
    env.filters["percent"] = lambda rate: f"{rate:.0%}" if rate >= 0.01 or rate == 0 else f"{rate:.1%}"
    env.filters["first_line"] = lambda text: text.strip().splitlines()[0] if text.strip() else ""
    env.filters["short"] = lambda rev: rev[:12] if len(rev) == 40 else rev
    env.filters["web_url"] = web_url        # a stored URL linked only where it is http(s)
    return env


def _render(template: str, links: Links, **context: object) -> str:
    return _environment().get_template(template).render(links=links, **context)


def shown(record: Record | queries.Point) -> str:
    """A result's column and colour: `known` for a failure the baseline expects, else its status."""
    judged = record.outcome.judged if isinstance(record, Record) else record.judged
    return KNOWN if judged is Judged.EXPECTED_FAIL else record.status.value


# ---- index: the timeline and the runs


def previous_runs(connection: Connection, runs: list[queries.Run]) -> dict[int, queries.Run]:
    """Each run's previous run on its lane (the store's, also where it is older than `runs`)."""
    known = {r.id: r for r in runs}
    before = queries.previous_ids(connection, list(known))
    for earlier in sorted(set(before.values()) - known.keys()):     # at most one a lane
        stored = queries.run(connection, earlier)
        if stored is not None:
            known[earlier] = stored
    return {later: known[earlier] for later, earlier in before.items() if earlier in known}


class IndexRow(TypedDict):
    run: queries.Run
    target: str
    counts: dict[str, Any]
    previous: queries.Run | None


def index(connection: Connection, links: Links | None = None, limit: int | None = None) -> str:
    links = links or Links()
    runs = queries.runs(connection, limit=limit)
    targets = sorted({t for r in runs for t in r.targets})
    previous = previous_runs(connection, runs)
    rows: list[IndexRow] = [{"run": r, "target": t, "counts": r.targets[t], "previous": previous.get(r.id)}
            for r in runs for t in sorted(r.targets)]
    return _render("index.html.j2", links, title="Conformance history", runs=runs, rows=rows,
                   plots=[timeline(t, runs, links) for t in targets], stack=STACK)


# ---- a run


def _failures(records: list[Record]) -> dict[str, list[Record]]:
    """A run's records worth a look: new failures (they fail the run), known ones, flakes."""
    return {NEW: [r for r in records if r.outcome.failed],
            KNOWN: [r for r in records if r.outcome.judged is Judged.EXPECTED_FAIL],
            "flakes": [r for r in records if r.status in (Status.FLAKE, Status.ORDER_DEPENDENT)]}


def run(connection: Connection, run_id: int, links: Links | None = None,
        registry: defects.Registry | None = None) -> str | None:
    """The run's page; None: no such run. Its failures by defect (the triage records, `registry`)
    come first, new ones apart, then the tables of new and known failures."""
    links = links or Links("../")
    found = queries.run(connection, run_id)
    if found is None:
        return None
    before = queries.previous(connection, found)
    records = queries.records(connection, run_id)
    grouping = defect_groups.group(defect_runs.failures(connection, records, found.mesa),
                                   registry if registry is not None else defects.load_all())
    return _render("run.html.j2", links, title=f"Run {found.id}", run=found, previous=before,
                   failures=_failures(records), shown=shown, grouping=grouping)


# ---- a case


class FirstBad(TypedDict):
    good: queries.Point | None
    bad: queries.Point
    command: str
    why: str
    history: str


class Cell(TypedDict):
    point: queries.Point
    shown: str
    href: str
    title: str


class Strip(TypedDict):
    history: queries.History
    rate: queries.Rate
    bisect: FirstBad | None
    cells: list[Cell]


def first_bad(history: queries.History) -> FirstBad | None:
    """The first-bad range of the case's latest failure on this target and lane, the command
    that bisects Mesa over it, or why there is none (None: it never failed)."""
    bad = history.first_bad
    if bad is None:
        return None
    try:
        history.bisect_range()
        why = ""
    except queries.BisectRangeError as exc:
        why = str(exc)
    return {"good": history.last_good, "bad": bad, "command": history.bisect_command(BISECT_TREE), "why": why,
            "history": f"python -m harness history bisect {shlex.quote(ids.key(history.name, history.target))} "
                       f"--tree {BISECT_TREE} --lane {shlex.quote(history.lane)}"}


def case(connection: Connection, name: str, links: Links | None = None) -> str | None:
    """The case's page; None: not in the history."""
    links = links or Links("../")
    histories = queries.history(connection, name)
    if not histories:
        return None
    messages: dict[str, list[tuple[queries.History, queries.Point]]] = {}
    reproducers: dict[tuple[str, str], None] = {}
    for h in histories:
        for point in h.points:
            if point.message and (point.failure or point.known or point.status.is_failure()):
                messages.setdefault(point.message, []).append((h, point))
            if point.reproducer:
                reproducers[(h.target, point.reproducer)] = None
    strips: list[Strip] = [{"history": h, "rate": h.rate, "bisect": first_bad(h),
               "cells": [{"point": p, "shown": shown(p), "href": links.run(p.run.id),
                          "title": f"run {p.run.id}, {p.run.started:%Y-%m-%d %H:%M}, Mesa {p.run.mesa or '?'}: "
                                   f"{p.status}{' (known)' if p.known else ''}"
                                   + (f"\n{p.message.strip().splitlines()[0][:300]}" if p.message.strip() else "")}
                         for p in h.points]} for h in histories]
    return _render("case.html.j2", links, title=f"Case {name}", name=name, strips=strips,
                   messages=sorted(messages.items(), key=lambda item: -len(item[1])),
                   reproducers=list(reproducers), threshold=THRESHOLD)


# ---- flakes


class FlakeRow(TypedDict):
    rate: queries.Rate
    low: float
    high: float
    known: bool
    fixed: float
    href: str


def flakes(connection: Connection, days: float = DEFAULT_DAYS, links: Links | None = None,
           now: datetime.datetime | None = None, registry: defects.Registry | None = None) -> str:
    """Failure rates over the last `days`: the failing series by defect (new ones apart: no
    baseline listed a failure of them), the flaky cases ranked by rate, then the others that
    failed (regressed, fixed, always failing)."""
    links = links or Links()
    now = now or datetime.datetime.now(datetime.UTC)
    since = now - datetime.timedelta(days=days)
    rates = queries.rates(connection, since=since)

    def row(rate: queries.Rate) -> FlakeRow:
        low, high = rate.interval
        return {"rate": rate, "low": low, "high": high, "known": rate.known,
                "fixed": rate.confidence_fixed(THRESHOLD), "href": links.case(rate.name)}
    first = defect_runs.first_failed(connection, {(r.name, r.target) for r in rates})
    grouping = defect_groups.group([defect_groups.Failure(r.name, r.target, r.mesa[-1] if r.mesa else "",
                                                          r.statuses[-1] if r.statuses else "", not r.known,
                                                          *first.get((r.name, r.target), (None, r.first_failed)))
                                    for r in rates], registry if registry is not None else defects.load_all())
    return _render("flakes.html.j2", links, title="Flakes", days=days, since=since, threshold=THRESHOLD,
                   grouping=grouping,
                   flaky=[row(r) for r in rates if r.kind is RateKind.FLAKY],
                   others=[row(r) for r in rates if r.kind is not RateKind.FLAKY])


# ---- regressions


ORDER = (Change.REGRESSION, Change.NEW_FLAKE, Change.FIX, Change.IMPROVEMENT, Change.STILL_FAILING,
         Change.NEW_SKIP, Change.UNSKIPPED)


class ChangeRow(TypedDict):
    row: compare.Row
    old: str
    new: str
    message: str
    href: str


class Section(TypedDict):
    name: str
    rows: list[ChangeRow]


def regressions(connection: Connection, old_id: int, new_id: int, links: Links | None = None) -> str | None:
    """What changed from run `old_id` to run `new_id` (None: either is not stored)."""
    links = links or Links()
    old, new = queries.run(connection, old_id), queries.run(connection, new_id)
    if old is None or new is None:
        return None
    before, after = queries.records(connection, old_id), queries.records(connection, new_id)
    diff = compare.compare(before, after)
    now = {(r.id, r.target): r for r in after}
    was = {(r.id, r.target): r for r in before}
    sections: list[Section] = [{"name": change.value,
                                "rows": [_change(row, was, now, links) for row in diff.changes[change]]}
                               for change in ORDER]
    sections += [{"name": "new cases", "rows": [_change(row, was, now, links) for row in diff.new]},
                 {"name": "removed cases", "rows": [_change(row, was, now, links) for row in diff.removed]}]
    return _render("regressions.html.j2", links, title=f"Run {old_id} → run {new_id}", old=old, new=new,
                   sections=[s for s in sections if s["rows"]], pairs=None, live=False)


def _change(row: compare.Row, was: dict[tuple[str, str], Record], now: dict[tuple[str, str], Record],
            links: Links) -> ChangeRow:
    old, new = was.get((row.case_id, row.target)), now.get((row.case_id, row.target))
    failed = any(r is not None and (r.status.is_failure() or r.outcome.failed) for r in (old, new))
    return {"row": row, "old": shown(old) if old else "", "new": shown(new) if new else "",
            "message": new.message if new is not None and new.status is not Status.PASS else "",
            "href": links.case(row.case_id) if failed else ""}


def regressions_index(connection: Connection, links: Links | None = None, live: bool = False,
                      limit: int | None = None) -> str:
    """The runs that have a previous run on their lane (among the newest `limit`), each linking its
    regressions page; `live`: served, so a form may ask for any two runs."""
    links = links or Links()
    runs = queries.runs(connection, limit=limit)
    previous = previous_runs(connection, runs)
    pairs = [(previous[r.id], r) for r in runs if r.id in previous]
    return _render("regressions.html.j2", links, title="Regressions", pairs=pairs, runs=runs, live=live,
                   old=None, new=None, sections=[])


def lane_regressions(connection: Connection, new_id: int, links: Links | None = None) -> str | None:
    """Run `new_id` against the previous run of its lane (None: no such run, or the lane's first)."""
    found = queries.run(connection, new_id)
    if found is None:
        return None
    before = queries.previous(connection, found)
    return None if before is None else regressions(connection, before.id, new_id, links or Links("../"))


# ---- the static site


OLDER = "older.html"            # where a static export's links to runs it holds no page of go


def export(engine: Engine, out: Path, days: float = DEFAULT_DAYS, now: datetime.datetime | None = None,
           limit: int | None = None, registry: defects.Registry | None = None) -> int:
    """Every page under `out`, linked relatively (it opens from file://); the number of pages.
    With `limit`, the newest runs only get a run and a regressions page (and the index's rows):
    a long history's every run would take minutes; the case pages still show every run."""
    out = Path(out)
    for folder in ("runs", "cases", "regressions"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    pages: dict[str, str] = {}
    registry = registry if registry is not None else defects.load_all()
    with engine.connect() as connection:
        runs = queries.runs(connection, limit=limit)
        top = Links(runs=frozenset(r.id for r in runs) if limit else None)
        down = top.nested()
        pages["index.html"] = index(connection, top, limit)
        if limit:
            pages[f"runs/{OLDER}"] = _render("older.html.j2", down, title="An older run", limit=limit)
        pages["flakes.html"] = flakes(connection, days, top, now, registry)
        pages["regressions.html"] = regressions_index(connection, top, limit=limit)
        for stored in runs:
            pages[f"runs/{stored.id}.html"] = run(connection, stored.id, down, registry) or ""
            changes = lane_regressions(connection, stored.id, down)     # None: the first of its lane
            if changes is not None:
                pages[f"regressions/{stored.id}.html"] = changes
        for name in sorted(top.cases):          # every case some page links (cases link no others)
            pages[f"cases/{ids.file_name(name)}.html"] = case(connection, name, down) or ""
    for path, text in pages.items():
        (out / path).write_text(text, encoding="utf-8")
    return len(pages)
