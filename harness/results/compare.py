"""Two runs side by side: `python -m harness compare OLD NEW`.

Cases are matched by (id, target), or by id alone with `by_id` (one target against another).
Each matched case's change is status.Change.of(old, new): regressions (a case that did not fail
before, passed or was skipped, and fails, times out, crashes or errs now; or one that now fails
worse), improvements, fixes, still failing, new skips, no longer skipped, new flakes. Cases in
one run only are listed as new or removed. Within a section, rows are grouped by family and
target, the group with the worst status first, and the worst status first in each group.
The runs may come from different Mesa versions: records with a `mesa` name theirs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from harness.sources import catalog
from harness.model.defects import Registry
from harness.model.outcome import Record
from harness.results import defect_groups
from harness.model.status import Change, Status

SECTIONS = tuple(c for c in Change if c is not Change.UNCHANGED)


@dataclass(frozen=True)
class Row:
    case_id: str
    target: str                     # by_id: "old target / new target"
    old: Status | None              # None: not in that run
    new: Status | None

    @property
    def worst(self) -> Status:
        return max(s for s in (self.old, self.new) if s is not None)


@dataclass
class Diff:
    changes: dict[Change, list[Row]] = field(default_factory=lambda: {c: [] for c in SECTIONS})
    new: list[Row] = field(default_factory=list)
    removed: list[Row] = field(default_factory=list)
    mesa: tuple[list[str], list[str]] = ([], [])     # the Mesa versions each run's entries name

    @property
    def regressions(self) -> list[Row]:
        return self.changes[Change.REGRESSION]


def compare(old: list[Record], new: list[Record], by_id: bool = False) -> Diff:
    """`old` and `new` are a run's Records (harness.results.files.read)."""
    def index(entries: list[Record]) -> dict[tuple[str, str], Record]:
        return {(e.id, "" if by_id else e.target): e for e in entries}
    before, after = index(old), index(new)
    diff = Diff(mesa=(_versions(old), _versions(new)))
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a is None or b is None:
            either = a or b
            assert either is not None
            row = Row(key[0], either.target, a.status if a else None, b.status if b else None)
            (diff.new if a is None else diff.removed).append(row)
        else:
            row = Row(key[0], f"{a.target} / {b.target}" if by_id else a.target, a.status, b.status)
            change = Change.of(a.status, b.status)
            if change is not Change.UNCHANGED:
                diff.changes[change].append(row)
    return diff


def _versions(entries: list[Record]) -> list[str]:
    return sorted({e.mesa for e in entries if e.mesa})


def grouped(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """(`family [target]`, rows) groups, worst first; rows worst first, then by id."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(f"{catalog.prefix(row.case_id)} [{row.target}]", []).append(row)
    for members in groups.values():
        members.sort(key=lambda r: (-r.worst.severity, r.case_id))
    return sorted(groups.items(), key=lambda item: (-item[1][0].worst.severity, item[0]))


def by_defect(diff: Diff, registry: Registry | None = None) -> defect_groups.Grouping:
    """What fails in NEW, by defect: a regression is a new failure (it did not fail in OLD), one
    still failing (or failing otherwise) a known one."""
    mesa = diff.mesa[1][0] if len(diff.mesa[1]) == 1 else ""
    failing = [(row, True) for row in diff.changes[Change.REGRESSION] + diff.new if row.new and row.new.is_failure()]
    failing += [(row, False) for change in (Change.STILL_FAILING, Change.IMPROVEMENT) for row in diff.changes[change]
                if row.new and row.new.is_failure()]
    return defect_groups.group([defect_groups.Failure(row.case_id, row.target.split(" / ")[-1], mesa,
                                                      (row.new or row.worst).value, new) for row, new in failing], registry)


def format_report(diff: Diff, old_name: str = "OLD", new_name: str = "NEW", registry: Registry | None = None) -> str:
    """The sections; with `registry` (the defect records), then what fails in NEW by defect."""
    lines = []
    for name, versions in ((old_name, diff.mesa[0]), (new_name, diff.mesa[1])):
        lines.append(f"{name}" + (f": Mesa {', '.join(versions)}" if versions else ""))
    sections = [(change.value, rows) for change, rows in diff.changes.items()]
    sections += [("new cases", diff.new), ("removed cases", diff.removed)]
    for title, rows in sections:
        lines.append(f"{title}: {len(rows)}")
        for group, members in grouped(rows):
            lines.append(f"  {group}: {len(members)}")
            lines += [f"    {r.case_id}: {r.old or '-'} -> {r.new or '-'}" for r in members]
    if registry is not None:
        lines.append(f"failing in {new_name}, by defect (a regression or new case is a new failure):")
        lines += by_defect(diff, registry).lines()
    return "\n".join(lines)
