"""The one name of a case on a target, `<case id>[<target>]`: the pytest item's name (so -k
matches it), the key of results files, and what baseline, skips and flakes lines match; and the
one name of a case id in a file name or URL (file_name)."""
from __future__ import annotations

import hashlib
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


# ---- a case id as one file or URL name

# The characters a name keeps as they are: a case id's (harness/model/case.py's ID_RE) but '/'.
# '/' is written '~' (no case id holds a '~'); any other character, '~' and '=' among them, as '='
# and two upper-case hex digits a byte of its UTF-8. Every character of a name is then one a file
# name and a URL's path segment or fragment hold as it is ([A-Za-z0-9._+~=-]), and each name
# reads back to one id (case_of_name). KCIDB's test paths are another spelling, its schema's
# (harness/history/kcidb.py).
_KEPT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-")
_ESCAPE = re.compile(r"=[0-9A-F]{2}")
NAME_LIMIT = 200        # characters: file names stop at 255 bytes, and suffixes follow
CUT = "=="              # a cut name: its head, then CUT and DIGEST hex digits of the whole id
DIGEST = 16


def file_name(case_id: str) -> str:
    """The one name of a case id in a file name or URL (the reproducer and observation files,
    the report's anchors and image folders, the dashboard's case pages). Deterministic and
    injective; an id whose name would pass NAME_LIMIT (an explored id can encode 270 characters of
    parameters) keeps its head, cut between characters, then CUT and a digest of the whole id."""
    pieces = ["~" if c == "/" else c if c in _KEPT else "".join(f"={b:02X}" for b in c.encode()) for c in case_id]
    whole = "".join(pieces)
    if len(whole) <= NAME_LIMIT:
        return whole
    kept, size = [], 0
    for piece in pieces:
        if size + len(piece) > NAME_LIMIT - len(CUT) - DIGEST:
            break
        kept.append(piece)
        size += len(piece)
    return "".join(kept) + CUT + hashlib.sha256(case_id.encode()).hexdigest()[:DIGEST]


def case_of_name(name: str) -> tuple[str, bool] | None:
    """(the case id file_name wrote `name` for, False), or (its head, True) for a cut name; None
    where file_name writes no such name."""
    head, cut, _ = name.partition(CUT)
    raw, i = bytearray(), 0
    while i < len(head):
        if head[i] == "=":
            if not _ESCAPE.match(head, i):
                return None
            raw.append(int(head[i + 1:i + 3], 16))
            i += 3
        elif head[i] == "~" or head[i] in _KEPT:
            raw += b"/" if head[i] == "~" else head[i].encode()
            i += 1
        else:
            return None
    try:
        return raw.decode(), bool(cut)
    except UnicodeDecodeError:
        return None
