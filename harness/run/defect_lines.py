"""Which defect each baseline and flakes line belongs to: a `# defect: <id>` comment line names the
defect (a triage folder's record, harness/model/defects.py) or `untriaged` for the lines below it,
up to the next `# defect:` line. It is a comment, so deqp-runner-style tools read the files as
before; the prose comments stay where they are.

    # defect: zink-edge-flags
    # primitives family, edge flags ... (the evidence, as before)
    primitives/quads/pv-last/arrays/polygon-line/edge-flags[zink],Fail

`problems` is what the self-test refuses: a line under no `# defect:`, one naming no record, a
line its defect's record does not cover (or an untriaged one a record covers: the records and the
files tell one story, so a failure is grouped alike from either), and a record that covers no
line without saying why (`covers_none`), or says so and is named.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from harness.model import ids
from harness.model.defects import RECORD, UNTRIAGED, Registry, upstream

BASELINE_SUFFIX, FLAKES_SUFFIX = ".csv", "-flakes.txt"      # baselines/'s two kinds of file
MARK = "# defect:"
_MARK = re.compile(r"#\s*defect\s*:(.*)", re.IGNORECASE)
_ID = re.compile(r"[a-z0-9][a-z0-9.-]*")


@dataclass(frozen=True)
class Line:
    path: Path
    number: int
    text: str
    defect: str | None          # None: no `# defect:` above it
    flakes: bool                # a flakes file's regex line, else a baseline's `case,Status` line

    @property
    def where(self) -> str:
        return f"{self.path}:{self.number}"

    @property
    def key(self) -> str:
        """A baseline line's `case-id[target]` (or case id), a flakes line's regex."""
        text = self.text.split()[0] if self.flakes else self.text.split("#", 1)[0].strip()
        return text if self.flakes else text.rsplit(",", 1)[0].strip()


def mesa_of(path: Path) -> str:
    """The upstream Mesa version a baseline file is for, from its name ('' for a non-Mesa driver's)."""
    found = re.search(r"mesa-(\d+\.\d+\.\d+)", path.name)
    return upstream(found.group(1)) if found else ""


def read(path: Path) -> tuple[list[Line], list[str]]:
    """The file's entries with their defect, and the malformed `# defect:` lines (one message each)."""
    flakes = path.name.endswith(FLAKES_SUFFIX)
    lines, bad = [], []
    current: str | None = None
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = text.strip()
        mark = _MARK.fullmatch(stripped)
        if mark is not None:
            named = mark.group(1).split()
            if not stripped.startswith(MARK) or len(named) != 1 or not _ID.fullmatch(named[0]):
                bad.append(f"{path}:{number}: expected `{MARK} <id>` (a triage folder's name, or "
                           f"{UNTRIAGED}), got {stripped!r}")
                continue
            current = named[0]
        elif stripped and not stripped.startswith("#"):
            lines.append(Line(path, number, stripped, current, flakes))
    return lines, bad


def files(folder: Path) -> list[Path]:
    """The baseline and flakes files of a folder (baselines/)."""
    return sorted(p for p in folder.iterdir() if p.name.endswith((BASELINE_SUFFIX, FLAKES_SUFFIX)))


def _misfiled(line: Line, registry: Registry) -> str:
    """Why a baseline line's defect disagrees with the records' patterns ('' where it agrees)."""
    named = ids.split(line.key)
    case_id, target = named if named else (line.key, "")
    if target:
        found = [d.id for d in registry.matches(case_id, target, mesa_of(line.path))]
    else:
        found = [d.id for d in registry.defects if d.covers(case_id)]
    if line.defect == UNTRIAGED:
        return f"{line.where}: under `{MARK} {UNTRIAGED}`, yet {found[0]}'s {RECORD} covers it" if found else ""
    if line.defect not in found:
        why = f"it matches {', '.join(found)}" if found else "no record's cases, targets and mesas cover it"
        return f"{line.where}: under `{MARK} {line.defect}`, but its {RECORD} does not cover {line.key} ({why})"
    return ""


def problems(paths: list[Path], registry: Registry) -> list[str]:
    out: list[str] = []
    named: dict[str, str] = {}          # defect id -> the first line naming it
    for path in paths:
        lines, bad = read(path)
        out += bad
        for line in lines:
            if line.defect is None:
                out.append(f"{line.where}: no `{MARK} <id>` (or `{MARK} {UNTRIAGED}`) above this line")
                continue
            if line.defect != UNTRIAGED and registry.get(line.defect) is None:
                out.append(f"{line.where}: `{MARK} {line.defect}` names no triage folder's {RECORD}")
                continue
            named.setdefault(line.defect, line.where)
            if not line.flakes:
                out += [why for why in [_misfiled(line, registry)] if why]
    for defect in registry.defects:
        record = f"{defect.where}/{RECORD}"
        if defect.id not in named and not defect.covers_none:
            out.append(f"{record}: no baseline or flakes line names it: name it (`{MARK} {defect.id}`) "
                       f"or say why none does (covers_none)")
        elif defect.id in named and defect.covers_none:
            out.append(f"{record}: says it covers none ({defect.covers_none[:60]}...), yet {named[defect.id]} names it")
    return out


def defect_of_lines(paths: list[Path]) -> dict[tuple[str, str], str]:
    """(upstream Mesa of the file, baseline key) -> the defect its `# defect:` names (baseline lines only)."""
    found: dict[tuple[str, str], str] = {}
    for path in paths:
        for line in read(path)[0]:
            if not line.flakes and line.defect is not None:
                found[(mesa_of(path), line.key)] = line.defect
    return found
