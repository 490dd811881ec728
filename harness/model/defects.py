"""A driver defect as a record: triage/<where found>/<id>/defect.toml, one schema for every folder.

The triage folder's README is the write-up; defect.toml is what tools read of it: the title, the
component (and what `harness blame` said, with the evidence the README gives), the targets and
Mesa versions affected, the first bad and the fixed version (with commits where bisected), the
status, and the case ids or fnmatch patterns (over case ids, no target) the defect covers.

    id = "zink-edge-flags"                 # the folder's name
    title = "..."
    status = "open"                        # one of STATUSES
    targets = ["zink", "zink-optimal"]
    mesas = ["22.3.6", "26.2.6"]           # upstream versions measured failing
    cases = ["primitives/*/edge-flags"]    # fnmatch over case ids; GLOB[t1,t2]: on those targets only
    covers_none = "why no baseline or flakes line names it"     # only where none does
    [component]
    name = "zink"
    blame = "undecided"                    # one of BLAME: harness blame's verdict, or "not run"
    evidence = "llvmpipe passes; ..."
    files = ["blame.txt"]                  # evidence files in the folder
    [first_bad]
    version = "22.3.6"
    or_earlier = true                      # the oldest Mesa measured already fails
    commit = "1280cf5b2af"                 # only where bisected
    [fixed]
    version = "25.0.7"                     # absent: not fixed
    commit = "35030fc79c38"
    [[bisections]]                         # each `harness bisect` run kept in the folder
    finds = "first bad"                    # one of FINDS
    commit = "90a8525d703"
    subject = "zink: handle edgeflags"
    verified = true                        # its parent and it, built and run, differ as it says
    log = "bisect.log"                     # the folder's file with the bisection's output
    what = "the triangle LINE case: edges not drawn"
    failure = "..."                        # only where bisected with --failure REGEX

A bisection can find a commit that is neither end of the defect's window (where one failure turned
into another): `first_bad` and `fixed` name a commit only where it is that end.

`load` refuses a bad record in one line naming the file; `Registry.match` says which defect a
failure of a case on a target and Mesa belongs to, by the records' patterns.
"""
from __future__ import annotations

import fnmatch
import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.base.errors import UsageError
from harness.model.blame import VERDICTS
from harness.model.families import CHECKOUT

TRIAGE = CHECKOUT / "triage"
RECORD = "defect.toml"
UNTRIAGED = "untriaged"
WRITE_UP = "README.md"          # the folder's write-up: a folder of triage/ is one that has it
# open: fails on the newest Mesa measured; fixed: passes since `fixed.version` and the change is
# known (a commit, or the cited code changed); gone: passes since `fixed.version`, but the fix is
# not located (the code the README cites is still there)
STATUSES = ("open", "fixed", "gone")
# harness blame's verdicts (harness/model/blame.py), and "not run" where the README says blame was
# not or cannot be run
BLAME = VERDICTS + ("not run",)
_ID = re.compile(r"[a-z0-9][a-z0-9.-]*")
_VERSION = re.compile(r"\d+\.\d+\.\d+")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
# what a bisection found: the first commit failing (first bad), passing again (first fixed), or
# failing with the --failure looked for where an earlier one failed otherwise (failure changed)
FINDS = ("first bad", "first fixed", "failure changed")


class DefectError(UsageError, ValueError):
    """A record that breaks the schema: one line naming the file and the field."""


@dataclass(frozen=True)
class Version:
    version: str = ""               # '' (fixed only): not fixed
    commit: str = ""                # where bisected
    or_earlier: bool = False        # first bad only: the oldest version measured already fails

    def __str__(self) -> str:
        if not self.version:
            return "not yet"
        text = self.version + (" or earlier" if self.or_earlier else "")
        return text + (f" (commit {self.commit})" if self.commit else "")


@dataclass(frozen=True)
class Bisection:
    finds: str                      # one of FINDS
    commit: str
    subject: str
    verified: bool
    log: str                        # a file in the folder
    what: str
    failure: str = ""               # the --failure expression, where one was given

    def __str__(self) -> str:
        return (f"{self.finds} {self.commit} \"{self.subject}\" ({'verified' if self.verified else 'NOT verified'}"
                f"; {self.what}; {self.log})")


@dataclass(frozen=True)
class Defect:
    id: str
    title: str
    status: str
    component: str
    blame: str
    evidence: str
    evidence_files: tuple[str, ...]
    targets: tuple[str, ...]
    mesas: tuple[str, ...]
    first_bad: Version
    fixed: Version
    cases: tuple[str, ...]
    covers_none: str
    folder: Path
    bisections: tuple[Bisection, ...] = ()

    def covers(self, case_id: str, target: str = "") -> bool:
        """Whether a pattern covers the case (on `target`, where a pattern names its targets)."""
        for pattern in self.cases:
            glob, targets = _pattern(pattern)
            if fnmatch.fnmatchcase(case_id, glob) and (not target or not targets or target in targets):
                return True
        return False

    def affects(self, mesa: str) -> bool:
        """Whether a Mesa version lies in the defect's window: from its first bad version (any
        older one too where that is `or_earlier`) to before its fixed version. A Mesa defect's
        only (its folder under triage/mesa-*); an unknown version is in every window."""
        version = _numbers(upstream(mesa))
        if not version or not self.folder.parent.name.startswith("mesa-"):
            return True
        first, fixed = _numbers(self.first_bad.version), _numbers(self.fixed.version)
        if first and version < first and not self.first_bad.or_earlier:
            return False
        return not (fixed and version >= fixed)

    @property
    def where(self) -> str:
        """The folder, relative to the checkout where it is inside it."""
        try:
            return self.folder.relative_to(CHECKOUT).as_posix()
        except ValueError:
            return str(self.folder)


def upstream(mesa: str) -> str:
    """The upstream version in a Mesa name ('26.2.6-1' -> '26.2.6'; '' if none)."""
    found = _VERSION.search(mesa)
    return found.group(0) if found else ""


_TARGETED = re.compile(r"([^\[\]]+)(?:\[([^\[\]]+)\])?")


@functools.cache
def _pattern(text: str) -> tuple[str, frozenset[str]]:
    """(glob, targets) of a case pattern: `GLOB` on the record's every target, or `GLOB[t1,t2]`
    on those only (where another defect shows in the same cases on the record's other targets)."""
    found = _TARGETED.fullmatch(text)
    if found is None:
        raise DefectError(f"case pattern {text!r}: expected GLOB or GLOB[target,...] (fnmatch over case ids)")
    return found.group(1), frozenset(found.group(2).split(",")) if found.group(2) else frozenset()


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split(".")) if version else ()


def _field(data: dict[str, Any], name: str, kind: type, where: str, required: bool = True) -> Any:
    if name not in data:
        if required:
            raise DefectError(f"{where}: no `{name}`")
        return kind()
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DefectError(f"{where}: `{name}` must be a {kind.__name__}, got {value!r}")
    return value


def _strings(data: dict[str, Any], name: str, where: str, required: bool = True) -> tuple[str, ...]:
    values = _field(data, name, list, where, required)
    if not all(isinstance(v, str) and v for v in values):
        raise DefectError(f"{where}: `{name}` must be a list of non-empty strings")
    return tuple(values)


def _table(data: dict[str, Any], name: str, where: str, allowed: set[str], required: bool = True) -> dict[str, Any]:
    table: dict[str, Any] = _field(data, name, dict, where, required)
    extra = sorted(set(table) - allowed)
    if extra:
        raise DefectError(f"{where}: unknown field `{name}.{extra[0]}` (known: {', '.join(sorted(allowed))})")
    return table


def _check_commit(commit: str, what: str) -> None:
    """A commit field's one check (`what`: where and which field, for the message)."""
    if not _COMMIT.fullmatch(commit):
        raise DefectError(f"{what} {commit!r} is no commit hash (7 to 40 hex digits)")


def _version(data: dict[str, Any], name: str, where: str) -> Version:
    table = _table(data, name, where, {"version", "commit", "or_earlier"}, required=name == "first_bad")
    version = _field(table, "version", str, f"{where}: {name}", required=name == "first_bad")
    commit = _field(table, "commit", str, f"{where}: {name}", required=False)
    if version and not _VERSION.fullmatch(version):
        raise DefectError(f"{where}: `{name}.version` {version!r} is no version (x.y.z)")
    if commit:
        _check_commit(commit, f"{where}: `{name}.commit`")
    if commit and not version:
        raise DefectError(f"{where}: `{name}.commit` without `{name}.version`")
    return Version(version, commit, _field(table, "or_earlier", bool, where, required=False))


def _bisections(data: dict[str, Any], folder: Path, where: str) -> tuple[Bisection, ...]:
    found = []
    for n, table in enumerate(_field(data, "bisections", list, where, required=False)):
        at = f"{where}: bisections[{n}]"
        if not isinstance(table, dict):
            raise DefectError(f"{at}: must be a table ([[bisections]])")
        extra = sorted(set(table) - {"finds", "commit", "subject", "verified", "log", "what", "failure"})
        if extra:
            raise DefectError(f"{at}: unknown field `{extra[0]}`")
        bisection = Bisection(**{name: _field(table, name, kind, at, required=name != "failure") for name, kind in (
            ("finds", str), ("commit", str), ("subject", str), ("verified", bool), ("log", str), ("what", str),
            ("failure", str))})
        if bisection.finds not in FINDS:
            raise DefectError(f"{at}: `finds` {bisection.finds!r}: expected one of {', '.join(FINDS)}")
        _check_commit(bisection.commit, f"{at}: `commit`")
        log = folder / bisection.log
        if not log.is_file():
            raise DefectError(f"{at}: `log` names {bisection.log!r}, which is not in {folder}")
        if bisection.commit not in log.read_text(encoding="utf-8", errors="replace"):
            raise DefectError(f"{at}: {bisection.log} does not name commit {bisection.commit}: not this bisection's log")
        found.append(bisection)
    return tuple(found)


FIELDS = {"id", "title", "status", "targets", "mesas", "cases", "covers_none", "component", "first_bad", "fixed",
          "bisections"}


def parse(text: str, folder: Path, where: str) -> Defect:
    """A record from its TOML text; DefectError names the first thing wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DefectError(f"{where}: not TOML: {exc}") from None
    extra = sorted(set(data) - FIELDS)
    if extra:
        raise DefectError(f"{where}: unknown field `{extra[0]}` (known: {', '.join(sorted(FIELDS))})")
    ident = _field(data, "id", str, where)
    if ident != folder.name or not _ID.fullmatch(ident) or ident == UNTRIAGED:
        raise DefectError(f"{where}: `id` {ident!r} must be its folder's name ({folder.name!r}), "
                          f"lower case, and not {UNTRIAGED!r}")
    status = _field(data, "status", str, where)
    if status not in STATUSES:
        raise DefectError(f"{where}: `status` {status!r}: expected one of {', '.join(STATUSES)}")
    component = _table(data, "component", where, {"name", "blame", "evidence", "files"})
    blame = _field(component, "blame", str, f"{where}: component")
    if blame not in BLAME:
        raise DefectError(f"{where}: `component.blame` {blame!r}: expected one of {', '.join(BLAME)}")
    files = _strings(component, "files", f"{where}: component", required=False)
    missing = [name for name in files if not (folder / name).exists()]
    if missing:
        raise DefectError(f"{where}: `component.files` names {missing[0]!r}, which is not in {folder}")
    first_bad, fixed = _version(data, "first_bad", where), _version(data, "fixed", where)
    if (status == "open") == bool(fixed.version):
        raise DefectError(f"{where}: status {status!r} " + ("with a `fixed.version`" if fixed.version else
                                                            "needs `fixed.version`"))
    cases = _strings(data, "cases", where, required=False)
    targets = _strings(data, "targets", where)
    covers_none = _field(data, "covers_none", str, where, required=False)
    if not cases and not covers_none:
        raise DefectError(f"{where}: no `cases`: name the case ids or patterns it covers, or say in "
                          f"`covers_none` why none")
    for pattern in cases:
        try:
            _glob, only = _pattern(pattern)
        except DefectError as exc:
            raise DefectError(f"{where}: {exc}") from None
        if not only <= set(targets):
            raise DefectError(f"{where}: case pattern {pattern!r} names a target not in `targets`")
    return Defect(id=ident, title=_field(data, "title", str, where), status=status,
                  component=_field(component, "name", str, f"{where}: component"), blame=blame,
                  evidence=_field(component, "evidence", str, f"{where}: component"), evidence_files=files,
                  targets=targets, mesas=_strings(data, "mesas", where, required=False),
                  first_bad=first_bad, fixed=fixed, cases=cases, covers_none=covers_none, folder=folder,
                  bisections=_bisections(data, folder, where))


def load(path: Path) -> Defect:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DefectError(f"{path}: cannot read: {exc}") from None
    return parse(text, path.parent, str(path))


@dataclass(frozen=True)
class Registry:
    defects: tuple[Defect, ...]

    def get(self, ident: str) -> Defect | None:
        return next((d for d in self.defects if d.id == ident), None)

    def matches(self, case_id: str, target: str, mesa: str = "") -> list[Defect]:
        """The defects whose patterns cover the case on this target, with the run's Mesa in their
        window (one case may show two defects on two releases)."""
        return [d for d in self.defects if target in d.targets and d.covers(case_id, target) and d.affects(mesa)]

    def match(self, case_id: str, target: str, mesa: str = "") -> Defect | None:
        """The defect a failure of the case belongs to, by the records' patterns (None: untriaged)."""
        found = self.matches(case_id, target, mesa)
        return found[0] if found else None


def folders(root: Path = TRIAGE) -> list[Path]:
    """The defect folders: each triage/<where found>/<id>/ with its write-up (WRITE_UP)."""
    return sorted(p.parent for p in root.glob(f"*/*/{WRITE_UP}"))


def load_all(root: Path = TRIAGE) -> Registry:
    """Every folder's record, sorted by id; DefectError for a folder without one or a bad one."""
    found: dict[str, Defect] = {}
    for folder in folders(root):
        record = folder / RECORD
        if not record.is_file():
            raise DefectError(f"{folder}: no {RECORD} (every triage folder has its record)")
        defect = load(record)
        if defect.id in found:
            raise DefectError(f"{record}: id {defect.id!r} also in {found[defect.id].folder}")
        found[defect.id] = defect
    return Registry(tuple(found[key] for key in sorted(found)))
