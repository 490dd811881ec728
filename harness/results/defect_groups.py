"""Failures grouped by defect, the same for every view (`harness report`, `harness compare`,
`history flakes`, `history lines`, the dashboard): each defect once, with its cases, targets, the
Mesas they failed on, the first bad run (where the view knows runs), its fixed version and folder.

A failure belongs to the defect whose record (harness/model/defects.py) covers its case on its
target and Mesa; none: `untriaged`. New failures (those the baseline does not list) come first
and apart, untriaged first: a new failure that a known defect's patterns cover is labelled with
it, and still counted as new.
"""
from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from harness.model import ids
from harness.model.defects import UNTRIAGED, Defect, Registry, load_all, upstream


@dataclass(frozen=True)
class Failure:
    case_id: str
    target: str
    mesa: str = ""
    status: str = ""
    new: bool = True                          # the baseline does not list it: it fails the run
    run: int | None = None                    # the run it failed in (first, where several)
    started: datetime.datetime | None = None


@dataclass
class Group:
    defect: Defect | None                     # None: untriaged
    new: bool
    failures: list[Failure] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.defect.id if self.defect else UNTRIAGED

    @property
    def cases(self) -> list[str]:
        return sorted({f.case_id for f in self.failures})

    @property
    def keys(self) -> list[str]:
        return sorted({ids.key(f.case_id, f.target) for f in self.failures})

    @property
    def targets(self) -> list[str]:
        return sorted({f.target for f in self.failures})

    @property
    def mesas(self) -> list[str]:
        return sorted({upstream(f.mesa) or f.mesa for f in self.failures if f.mesa})

    @property
    def first(self) -> Failure | None:
        """The earliest failure of the group that names its run."""
        timed = [f for f in self.failures if f.started is not None]
        return min(timed, key=lambda f: (f.started, f.run or 0)) if timed else None

    def summary(self) -> str:
        """One line: the defect, its counts, and what its record says."""
        head = f"{self.id}: {len(self.cases)} case{'s' if len(self.cases) != 1 else ''}, " \
               f"{len(self.failures)} failure{'s' if len(self.failures) != 1 else ''} on {', '.join(self.targets)}"
        if self.mesas:
            head += f" (Mesa {', '.join(self.mesas)})"
        first = self.first
        if first is not None and first.started is not None:
            head += (f"; first bad run {first.run} ({first.started:%Y-%m-%d})" if first.run is not None
                     else f"; first failed {first.started:%Y-%m-%d}")
        if self.defect is None:
            return head
        d = self.defect
        return (f"{head}; {d.status}, first bad {d.first_bad}, fixed in {d.fixed}; {d.component}; "
                f"{d.where}/ — {d.title}")


@dataclass
class Grouping:
    new: list[Group]                          # untriaged first, then each defect a new failure matches
    known: list[Group]                        # each defect, untriaged last

    @property
    def new_count(self) -> int:
        return sum(len(g.failures) for g in self.new)

    def lines(self, indent: str = "  ") -> list[str]:
        """The grouping as text: new failures first, then the known ones, a defect a line and its
        case[target] keys below it."""
        out = []
        for title, groups in ((f"new failures ({self.new_count}; a defect named: its patterns cover "
                               "them, still new)", self.new),
                              (f"known failures by defect ({sum(len(g.failures) for g in self.known)})", self.known)):
            out.append(f"{title}:")
            for group in groups:
                out.append(f"{indent}{group.summary()}")
                out += [f"{indent * 2}{key}" for key in group.keys]
        return out

    def to_json(self) -> dict[str, list[dict[str, object]]]:
        def one(group: Group) -> dict[str, object]:
            d = group.defect
            first = group.first
            return {"defect": group.id, "new": group.new, "cases": group.cases, "keys": group.keys,
                    "targets": group.targets, "mesas": group.mesas,
                    "first_bad_run": first.run if first else None,
                    "first_bad_started": first.started.isoformat() if first and first.started else None,
                    **({"title": d.title, "status": d.status, "component": d.component,
                        "first_bad": str(d.first_bad), "fixed": str(d.fixed), "folder": d.where,
                        "bisections": [asdict(b) for b in d.bisections]} if d else {})}
        return {"new": [one(g) for g in self.new], "known": [one(g) for g in self.known]}


def group(failures: Iterable[Failure], registry: Registry | None = None) -> Grouping:
    """The failures by defect, new ones apart (see the module's docstring)."""
    registry = registry if registry is not None else load_all()
    new: dict[str, Group] = {}
    known: dict[str, Group] = {}
    for failure in failures:
        defect = registry.match(failure.case_id, failure.target, failure.mesa)
        part = new if failure.new else known
        key = defect.id if defect else UNTRIAGED
        part.setdefault(key, Group(defect, failure.new)).failures.append(failure)
    for groups in (new, known):
        for one in groups.values():
            one.failures.sort(key=lambda f: (f.case_id, f.target))
    by_size = sorted((g for k, g in new.items() if k != UNTRIAGED), key=lambda g: (-len(g.failures), g.id))
    known_groups = sorted((g for k, g in known.items() if k != UNTRIAGED), key=lambda g: (-len(g.failures), g.id))
    return Grouping(new=([new[UNTRIAGED]] if UNTRIAGED in new else []) + by_size,
                    known=known_groups + ([known[UNTRIAGED]] if UNTRIAGED in known else []))
