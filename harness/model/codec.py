"""The case JSON: a case's frozen dataclass tree written as plain JSON data, and read back.

A field that holds its default is left out; a field holding a tuple of a union of dataclasses
(Case.steps) writes each member with its class's name under "kind"; the nested dataclasses are
found from the type annotations. Reading turns lists back into tuples and refuses unknown fields.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import math
import typing
from typing import Any, TypeVar

from harness.base.errors import UsageError

T = TypeVar("T")

# The case JSON's schema. 1: no "schema" key, every field written. 2: a field that holds its
# default is left out (so a field added with a default changes no older case's JSON), and the
# nested dataclasses are found from the type annotations. 3: "steps", each an object with its
# class's name under "kind", replace "draws" and "draw"; "expect" names a step. A reader takes
# any schema up to its own.
SCHEMA = 3


class CaseError(UsageError, ValueError):
    """A case description that cannot be used (malformed JSON, unknown field, bad id)."""


def dumps(case: object) -> str:
    """The case's JSON, its keys sorted, with the schema it is written in."""
    return json.dumps(to_plain(case) | {"schema": SCHEMA}, sort_keys=True, separators=(",", ":"))


def loads(cls: type[T], text: str) -> T:
    """The case `cls` (the Case class) that `text` describes, from any schema up to SCHEMA."""
    try:
        # NaN (a tessellation level may be one) comes back as the one math.nan object, so a
        # case that holds math.nan compares equal to its round trip.
        return _load(cls, json.loads(text, parse_constant=_constant))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:   # CaseError included
        raise CaseError(f"malformed case description: {exc}") from None


def _constant(name: str) -> float:
    return math.nan if name == "NaN" else float(name)


def to_plain(value: Any, tagged: bool = False) -> Any:
    """dataclasses.asdict, less every field that holds its default; `tagged`: with the class's
    name under "kind" (a member of a union, such as a step)."""
    if dataclasses.is_dataclass(value):
        cls: Any = type(value)
        out: dict[str, Any] = {"kind": cls.__name__} if tagged else {}
        unions = _unions(cls)
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item == _default(f):
                continue
            if f.name in unions:
                out[f.name] = [to_plain(v, tagged=True) for v in item]
            else:
                out[f.name] = to_plain(item)
        return out
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING                  # a required field is always written


def _load(cls: type[T], data: Any) -> T:
    if not isinstance(data, dict):
        raise CaseError(f"Case: expected an object, got {type(data).__name__}")
    schema = data.pop("schema", 1)
    if not isinstance(schema, int) or not 1 <= schema <= SCHEMA:
        raise CaseError(f"case JSON schema {schema!r}: this harness reads 1 to {SCHEMA}")
    if schema < 3:
        data = _steps_from_draws(data)
    return from_plain(cls, data)


# Draw fields of schema 2 that schema 3 writes as steps of their own.
_SCRIPT_FIELDS = ("read_image", "list", "work_groups", "queries", "read_storage")


def _steps_from_draws(data: dict[str, Any]) -> dict[str, Any]:
    """A schema 1 or 2 case as schema 3: each draw a Draw step. Only imported shader_test cases
    used draws that were not draw calls; those are made again by importing the file."""
    draws = data.pop("draws", [])
    for draw in draws if isinstance(draws, list) else ():
        if isinstance(draw, dict) and (draw.get("command") == "None" or set(_SCRIPT_FIELDS) & set(draw)
                                       or "clear_color" in (draw.get("state") or {})):
            raise CaseError("a schema 1 or 2 imported case with script steps: import its shader_test file again")
    data["steps"] = [{"kind": "Draw", **d} if isinstance(d, dict) else d for d in draws]
    data["expect"] = [{"step": e.pop("draw"), **e} if isinstance(e, dict) and "draw" in e else e
                      for e in data.get("expect", [])]
    return data


def from_plain(cls: type[T], data: Any) -> T:
    """Rebuild a dataclass tree from json.loads output, turning lists back into tuples."""
    if not isinstance(data, dict):
        raise CaseError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(typing.cast(Any, cls))}
    unknown = set(data) - set(fields)
    if unknown:
        raise CaseError(f"{cls.__name__}: unknown field(s) {sorted(unknown)}")
    nested, unions = _nested(typing.cast(Any, cls)), _unions(typing.cast(Any, cls))
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        sub = nested.get(name)
        if name in unions:
            if not isinstance(value, list):
                raise CaseError(f"{cls.__name__}.{name}: expected a list, got {type(value).__name__}")
            kwargs[name] = tuple(_build_member(unions[name], v) for v in value)
        elif sub is not None and isinstance(value, list):
            kwargs[name] = tuple(from_plain(sub, v) for v in value)
        elif sub is not None and value is not None:
            kwargs[name] = from_plain(sub, value)
        else:
            kwargs[name] = _tuplify(value)
    return cls(**kwargs)


def _build_member(members: dict[str, type[Any]], data: Any) -> Any:
    if not isinstance(data, dict) or data.get("kind") not in members:
        kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
        raise CaseError(f"{kind!r} is not one of {', '.join(members)}")
    return from_plain(members[data["kind"]], {k: v for k, v in data.items() if k != "kind"})


@functools.cache
def _unions(cls: type[Any]) -> dict[str, dict[str, type[Any]]]:
    """Field name -> {class name: class} for fields holding a tuple of a union of dataclasses."""
    out: dict[str, dict[str, type[Any]]] = {}
    for name, hint in typing.get_type_hints(cls).items():
        for arg in typing.get_args(hint):                   # tuple[A | B, ...]
            members = typing.get_args(arg)
            if len(members) > 1 and all(dataclasses.is_dataclass(m) for m in members):
                out[name] = {m.__name__: m for m in members}
    return out


@functools.cache
def _nested(cls: type[Any]) -> dict[str, type[Any]]:
    """Field name -> the dataclass it holds (alone, optional, or as the items of a tuple),
    read from the class's annotations."""
    out: dict[str, type[Any]] = {}
    for name, hint in typing.get_type_hints(cls).items():
        for arg in (hint, *typing.get_args(hint)):          # X, X | None, tuple[X, ...]
            if isinstance(arg, type) and dataclasses.is_dataclass(arg):
                out[name] = arg
                break
    return out


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value
