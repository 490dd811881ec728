"""Findings kept as fixed cases: tests/<family>/kept.json lists explored ids (each rebuilds its
case from the parameters it encodes, through the family's builder, so its expectations come
from the spec like every fixed case's), with a note saying what the case found.

`cases(family)` is what catalog.generate appends to the family's list, so that a kept finding
runs in every conformance run, baselines and all, under its id.
"""
from __future__ import annotations

import json
from pathlib import Path

from harness.model import families
from harness.model.case import Case
from harness.sources.explored import id_codec as ids


def path(family: str, root: Path = families.ROOT) -> Path:
    return root / "tests" / family / "kept.json"


def entries(family: str, root: Path = families.ROOT) -> list[dict[str, str]]:
    """kept.json's entries: {"id": explored id, "note": what the case found}."""
    file = path(family, root)
    kept: list[dict[str, str]] = json.loads(file.read_text()) if file.is_file() else []
    return kept


def cases(family: str, root: Path = families.ROOT) -> list[Case]:
    """What catalog.generate appends to the family's fixed list."""
    return [ids.find(entry["id"]) for entry in entries(family, root)]


def add(case_id: str, note: str, root: Path = families.ROOT) -> Path:
    """Keep an explored case (checked to rebuild); a case kept already is left as it is."""
    family, _ = ids.decode(case_id)
    case_id = ids.find(case_id).id          # the canonical form (an older spelling rebuilds the same case)
    kept = entries(family, root)
    if all(entry["id"] != case_id for entry in kept):
        kept.append({"id": case_id, "note": note})
    file = path(family, root)
    file.write_text(json.dumps(kept, indent=1) + "\n")
    return file
