"""Numbers as shader_runner reads them from a command's words."""
from __future__ import annotations

import struct

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def number(text: str) -> float:
    """A number as shader_runner reads it: decimal, or 0x... as the bits of a float."""
    text = text.rstrip(";,")                       # shader_runner reads a number up to what follows it
    if text.lower().startswith("0x"):
        value: float = struct.unpack("<f", struct.pack("<I", int(text, 16)))[0]
        return value
    return float(text)


def integer(text: str) -> int:
    """An integer in any base Python's int(text, 0) reads (0x..., 0o..., decimal)."""
    return int(text.rstrip(";,"), 0)


def numbers(words: list[str], count: int, extra_ok: bool = False) -> tuple[float, ...]:
    """The first `count` non-empty words as numbers; more than `count` only if `extra_ok`."""
    words = [w for w in words if w]
    if len(words) < count or (len(words) > count and not extra_ok):
        raise ValueError(f"expected {count} numbers, got {len(words)}")
    return tuple(number(w) for w in words[:count])


def as_float32(value: float) -> float:
    """`value` rounded to a C float, as shader_runner holds it."""
    rounded: float = struct.unpack("<f", struct.pack("<f", value))[0]
    return rounded
