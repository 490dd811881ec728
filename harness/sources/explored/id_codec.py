"""Explored case ids: `<family>/explore/v1-<parameters>`, so that the id alone rebuilds the case
(the family's builder computes the same expectations again) and a finding can be re-run,
exported or bisected by its id.

The parameters are written in the characters a case id token allows, short enough for a file
name (export names files after ids): `a...z` a list, `d...z` a dict (key, value, key, value),
items separated by `.`, integers as digits, `n`/`t`/`f` None/True/False, `s<i>` the i-th string
and `r<i>` the i-th float of the space's vocabulary (space.VOCAB, space.FLOATS), and `k<i>a...z`
a dict whose sorted keys are space.SHAPES[i], its values in that order; `m<k>x<item>` in a
list stands for k equal items in a row. A space only appends to
these, so older ids keep decoding. E.g. `k0at.3z` is {"a": True, "b": 3} where SHAPES[0] is
("a", "b").

`find(case_id)` rebuilds an explored id's case; catalog.find calls it, so export, bisect-run,
`--case` and the report take explored ids like any other.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Hashable, Sequence, TypeVar

from harness.model import families
from harness.model.case import Case
from harness.sources.explored import space
from harness.sources.explored.choices import Params
from harness.base.errors import HarnessFault

H = TypeVar("H", bound=Hashable)

MARK = "explore"
VERSION = "v1"


class VocabularyError(HarnessFault, LookupError):
    """A word, float or dict shape the space's vocabulary lacks: append it there (never a
    ValueError, which a search reads as parameters the builder refuses)."""


def encode(family: str, params: Params) -> str:
    sp = space.get(family)
    return f"{family}/{MARK}/{VERSION}-" + pack(params, sp)


@dataclass(frozen=True)
class _Index:
    """Where each word, float and dict shape of a space's vocabulary first is."""
    words: dict[str, int]
    floats: dict[float, int]                    # NaN apart: no NaN equals a key
    nan: int | None
    shapes: dict[tuple[str, ...], int]


def _first(items: Sequence[H]) -> dict[H, int]:
    """Each item's first index (the one `tuple.index` gives)."""
    return {item: i for i, item in reversed(list(enumerate(items)))}


@functools.cache            # a cache on a pure function of a space, whose vocabulary is constants
def _index(sp: space.Space) -> _Index:
    nans = [i for i, known in enumerate(sp.FLOATS) if math.isnan(known)]
    floats = {known: i for known, i in _first(sp.FLOATS).items() if not math.isnan(known)}
    return _Index(_first(sp.VOCAB), floats, nans[0] if nans else None, _first(sp.SHAPES))


def pack(value: object, sp: space.Space) -> str:
    return _pack(value, sp, _index(sp))


def _pack(value: object, sp: space.Space, index: _Index) -> str:
    if value is None or isinstance(value, bool):
        return {None: "n", True: "t", False: "f"}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        at = index.nan if math.isnan(value) else index.floats.get(value)
        if at is None:
            raise VocabularyError(f"float {value!r} is not in the {sp.family} space's FLOATS")
        return f"r{at}"
    if isinstance(value, str):
        if value not in index.words:
            raise VocabularyError(f"string {value!r} is not in the {sp.family} space's VOCAB")
        return f"s{index.words[value]}"
    if isinstance(value, dict):
        keys = tuple(sorted(value))
        if keys in index.shapes:
            return f"k{index.shapes[keys]}" + _pack([value[k] for k in keys], sp, index)
        return "d" + ".".join(_pack(k, sp, index) + "." + _pack(v, sp, index) for k, v in sorted(value.items())) + "z"
    if isinstance(value, (list, tuple)):
        runs: list[tuple[str, int]] = []             # (packed item, how many in a row)
        for item in (_pack(v, sp, index) for v in value):
            if runs and runs[-1][0] == item:
                runs[-1] = (item, runs[-1][1] + 1)
            else:
                runs.append((item, 1))
        return "a" + ".".join(f"m{k}x{item}" if k >= 3 else ".".join([item] * k) for item, k in runs) + "z"
    raise ValueError(f"cannot encode {type(value).__name__} {value!r}")


_ATOM = re.compile(r"-?\d+|[ntf]|[srk]\d+|m\d+x")


# A decoded value is JSON data whose shape is the space's (Params, at the top): Any.
def unpack(text: str, sp: space.Space) -> Any:
    value, end = _unpack(text, 0, sp)
    if end != len(text):
        raise ValueError(f"trailing text at {end}")
    return value


def _unpack(text: str, at: int, sp: space.Space) -> tuple[Any, int]:
    vocab, floats = sp.VOCAB, sp.FLOATS
    if text[at:at + 1] in ("a", "d"):
        kind, at = text[at], at + 1
        items: list[Any] = []
        while text[at:at + 1] != "z":
            run = re.compile(r"m(\d+)x").match(text, at)
            item, at = _unpack(text, run.end() if run else at, sp)
            items += [item] * (int(run.group(1)) if run else 1)
            if text[at:at + 1] == ".":
                at += 1
            elif text[at:at + 1] != "z":
                raise ValueError(f"expected '.' or 'z' at {at}")
        at += 1
        return (dict(zip(items[::2], items[1::2])) if kind == "d" else items), at
    match = _ATOM.match(text, at)
    if not match:
        raise ValueError(f"unexpected {text[at:at + 1]!r} at {at}")
    atom = match.group()
    if atom in ("n", "t", "f"):
        return {"n": None, "t": True, "f": False}[atom], match.end()
    if atom[0] == "s":
        return vocab[int(atom[1:])], match.end()
    if atom[0] == "r":
        return floats[int(atom[1:])], match.end()
    if atom[0] == "k":
        keys = sp.SHAPES[int(atom[1:])]
        values, end = _unpack(text, match.end(), sp)
        if not isinstance(values, list) or len(values) != len(keys):
            raise ValueError(f"dict of shape {atom} at {at} has {values!r}")
        return dict(zip(keys, values)), end
    return int(atom), match.end()


def is_explored(case_id: str) -> bool:
    parts = case_id.split("/")
    return len(parts) == 3 and parts[1] == MARK and parts[2].startswith(VERSION + "-")


def decode(case_id: str) -> tuple[str, Params]:
    if not is_explored(case_id):
        raise families.NoSuchCase(f"{case_id!r} is not an explored case id (<family>/{MARK}/{VERSION}-...)")
    family, _, token = case_id.split("/")
    payload = token[len(VERSION) + 1:]
    try:
        sp = space.get(family)
        params = unpack(payload, sp)
    except (ValueError, IndexError, KeyError) as exc:
        raise families.NoSuchCase(f"explored case id {case_id!r} does not decode: {exc}") from None
    return family, params


def build(family: str, params: Params) -> Case:
    """The family builder's case under its explored id (the builder's own id, which need not
    be unique outside the fixed list, goes into the description)."""
    case = space.get(family).build(params)
    return replace(case, id=encode(family, params),
                   description=f"{case.description} (explored; as the family names it: {case.id})")


def find(case_id: str) -> Case:
    """The case an explored id encodes (catalog.find calls this for explored ids)."""
    family, params = decode(case_id)
    try:
        return build(family, params)
    except KeyError as exc:
        raise families.NoSuchCase(str(exc)) from None
