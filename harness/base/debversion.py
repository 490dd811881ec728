"""Debian's version order (`dpkg --compare-versions`), as a pure function: Mesa versions are
Debian package versions (22.3.6, 25.0.7-2~bpo12+1, 25.0.7-2+deb13u1, 26.2.6-1), and two builds
of one upstream version are told apart by their revision.

[epoch:]upstream[-revision]: epochs compare as numbers, then the upstream part, then the
revision, each with dpkg's rule: alternately a run of non-digits, compared character by
character ('~' before anything, even the end; letters before other characters), and a run of
digits, compared as a number.
"""
from __future__ import annotations

import functools

DIGITS = frozenset("0123456789")


def compare(a: str, b: str) -> int:
    """<0, 0 or >0 as version a is older than, the same as, or newer than b."""
    (epoch_a, upstream_a, revision_a), (epoch_b, upstream_b, revision_b) = _split(a), _split(b)
    return (_sign(epoch_a - epoch_b) or _compare_part(upstream_a, upstream_b)
            or _compare_part(revision_a, revision_b))


key = functools.cmp_to_key(compare)          # sorted(versions, key=debversion.key)


def _split(version: str) -> tuple[int, str, str]:
    epoch, colon, rest = version.partition(":")
    if not (colon and epoch.isdigit()):
        epoch, rest = "0", version
    upstream, dash, revision = rest.rpartition("-")
    return (int(epoch), upstream, revision) if dash else (int(epoch), rest, "")


def _order(char: str) -> int:
    """A non-digit character's place; '' is the end of the string."""
    if char == "~":
        return -1
    if not char:
        return 0
    return ord(char) if char.isascii() and char.isalpha() else ord(char) + 256


def _compare_part(a: str, b: str) -> int:
    i = j = 0
    while i < len(a) or j < len(b):
        while (i < len(a) and a[i] not in DIGITS) or (j < len(b) and b[j] not in DIGITS):
            ca = a[i] if i < len(a) and a[i] not in DIGITS else ""
            cb = b[j] if j < len(b) and b[j] not in DIGITS else ""
            if _order(ca) != _order(cb):
                return _sign(_order(ca) - _order(cb))
            i, j = i + bool(ca), j + bool(cb)
        start_i, start_j = i, j
        while i < len(a) and a[i] in DIGITS:
            i += 1
        while j < len(b) and b[j] in DIGITS:
            j += 1
        difference = int(a[start_i:i] or 0) - int(b[start_j:j] or 0)
        if difference:
            return _sign(difference)
    return 0


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)
