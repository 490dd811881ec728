"""The release matrix: each case on each target, its verdict on every Mesa release in Debian
version order, and the releases where the verdict changed. No I/O here: `python -m harness
matrix` (harness/cli/matrix.py) runs or reads the results, and the HTML report shows the view.

The rule, over the releases in version order, for one case on one target:
- pass and fail/timeout/crash are the driver's verdicts; skip, flake, error (a harness fault) and
  no result are not, and neither change nor end a run of equal verdicts.
- pass -> bad is a regression: the last good release (the last pass before it) and the first bad.
- bad -> pass is a fix: the last bad release and the first fixed.
- bad -> another bad (fail -> crash) is a change of status: the last release with the old one and
  the first with the new.
Every change of a row is listed, in version order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from harness.base import debversion
from harness.model import ids
from harness.model.outcome import Record
from harness.model.status import Status

REGRESSION, FIX, CHANGE = "regression", "fix", "change"
# What the two releases of each kind of change are called.
NAMES = {REGRESSION: ("last good", "first bad"), FIX: ("last bad", "first fixed"), CHANGE: ("last", "first")}


def driver_verdict(status: Status | None) -> TypeGuard[Status]:
    """Whether a status says something of the driver: pass, fail, timeout, crash."""
    return status is not None and (status is Status.PASS or status.blames_driver())


@dataclass(frozen=True)
class Transition:
    kind: str               # REGRESSION, FIX or CHANGE
    before: str             # the last release with the old verdict (last good, last bad)
    after: str              # the first with the new one (first bad, first fixed)
    old: Status
    new: Status

    def __str__(self) -> str:
        first, second = NAMES[self.kind]
        return f"{self.kind}: {first} {self.before} ({self.old}), {second} {self.after} ({self.new})"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "before": self.before, "after": self.after,
                "from": self.old.value, "to": self.new.value, "text": str(self)}


def transitions(verdicts: list[tuple[str, Status | None]]) -> list[Transition]:
    """The changes in (release, status) pairs in version order (None: no result there)."""
    found: list[Transition] = []
    last: tuple[str, Status] | None = None
    for version, status in verdicts:
        if not driver_verdict(status):
            continue
        if last is not None and last[1] is not status:
            kind = REGRESSION if last[1] is Status.PASS else FIX if status is Status.PASS else CHANGE
            found.append(Transition(kind, last[0], version, last[1], status))
        last = (version, status)
    return found


@dataclass(frozen=True)
class Row:
    case_id: str
    target: str
    verdicts: dict[str, Status]             # release -> verdict, oldest first; absent: no result
    changes: tuple[Transition, ...]

    @property
    def key(self) -> str:
        return ids.key(self.case_id, self.target)

    @property
    def latest(self) -> tuple[str, Status] | None:
        """The newest release with a verdict of the driver's, and that verdict."""
        return next(((v, s) for v, s in reversed(self.verdicts.items()) if driver_verdict(s)), None)

    def ever_bad(self) -> bool:
        return any(s.blames_driver() for s in self.verdicts.values())


@dataclass(frozen=True)
class Matrix:
    versions: tuple[str, ...]              # Mesa releases, oldest first
    rows: tuple[Row, ...]                  # changed rows first, then by case id and target

    def count(self, kind: str) -> int:
        return sum(t.kind == kind for row in self.rows for t in row.changes)

    def to_json(self) -> dict[str, Any]:
        return {"versions": list(self.versions),
                "rows": [{"id": row.case_id, "target": row.target,
                          "verdicts": {v: s.value for v, s in row.verdicts.items()},
                          "changes": [t.to_json() for t in row.changes]} for row in self.rows]}


def build(entries: list[Record]) -> Matrix:
    """The matrix of a run's Records, each with the release it ran on in `mesa`; a later record
    for the same case, target and release wins."""
    versions = tuple(sorted({e.mesa for e in entries}, key=debversion.key))
    cells: dict[tuple[str, str], dict[str, Status]] = {}
    for e in entries:
        cells.setdefault((e.id, e.target), {})[e.mesa] = e.status
    rows = []
    for (case_id, target), by_version in cells.items():
        verdicts = {v: by_version[v] for v in versions if v in by_version}
        rows.append(Row(case_id, target, verdicts, tuple(transitions(list(verdicts.items())))))
    rows.sort(key=lambda row: (not row.changes, row.case_id, row.target))
    return Matrix(versions, tuple(rows))


def format_text(matrix: Matrix) -> str:
    """Releases numbered in version order, then each case on each target: its verdict per
    release (- where it has none) and its changes."""
    lines = ["Mesa releases, oldest first:"]
    lines += [f"  {n}. {v}" for n, v in enumerate(matrix.versions, 1)]
    width = max([len(s) for s in Status] + [1])
    header = " ".join(f"{n:<{width}}" for n in range(1, len(matrix.versions) + 1))
    lines.append(f"{header}  case [target]")
    for row in matrix.rows:
        cells = " ".join(f"{row.verdicts.get(v, '-'):<{width}}" for v in matrix.versions)
        lines.append(f"{cells}  {row.case_id} [{row.target}]")
        lines += [f"{'':{len(header)}}    {t}" for t in row.changes]
    lines.append(f"{len(matrix.rows)} cases x targets on {len(matrix.versions)} releases: "
                 f"{matrix.count(REGRESSION)} regressions, {matrix.count(FIX)} fixes, "
                 f"{matrix.count(CHANGE)} changes of failure")
    return "\n".join(lines)
