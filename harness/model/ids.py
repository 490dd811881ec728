"""The one name of a case on a target, `<case id>[<target>]`: the pytest item's name (so -k
matches it), the key of results files, and what baseline, skips and flakes lines match."""
from __future__ import annotations

import re

from harness.model.case import ID_RE

_KEY = re.compile(r"^(?P<case>[^\[\]]+)\[(?P<target>[A-Za-z0-9_.+-]+)\]$")


def key(case_id: str, target: str) -> str:
    return f"{case_id}[{target}]"


def split(name: str) -> tuple[str, str] | None:
    """(case id, target) of a `<case id>[<target>]` name; None for any other name."""
    match = _KEY.match(name)
    if not match or not ID_RE.match(match["case"]):
        return None
    return match["case"], match["target"]


def from_nodeid(nodeid: str) -> tuple[str, str] | None:
    """(case id, target) of a case item's pytest node id (`<file>::<case id>[<target>]`: case
    items sit directly under their file), or None for a node that is not a case item."""
    return split(nodeid.rpartition("::")[2]) if "::" in nodeid else None
