"""A disk cache of each family's generated cases, so that every pytest-xdist worker does not
spend a second re-deriving 2,000 cases and their expected values.

An entry holds the cases and the size and mtime of every Python source that was loaded when they
were generated (generators, oracles, the case model, numpy...) and of every file in the family's
folder (its sub-family modules and GLSL templates); it is used only while all of them are unchanged. Anything wrong with an entry (missing, stale, unreadable) means the
cases are generated again. Set HARNESS_CASE_CACHE=0 to always generate.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from harness.base import config

VERSION = 1
T = TypeVar("T")


def folder() -> Path:
    return config.cache_home() / "cases"


def load(cases_py: Path, generate: Callable[[], list[T]]) -> list[T]:
    """The cases of `cases_py`, from the cache if every source they came from is unchanged;
    else `generate()`, stored for next time."""
    if not config.knobs().case_cache:
        return generate()
    entry = folder() / (hashlib.sha256(f"{cases_py.resolve()} {sys.version}".encode()).hexdigest()[:32] + ".pickle")
    try:
        with open(entry, "rb") as stream:
            version, sources, cached = pickle.load(stream)
        if version == VERSION and sources == _stamps(sources):
            found: list[T] = cached
            return found
    except Exception:               # missing, stale, truncated or from another numpy: regenerate
        pass
    cases = generate()
    # kept.json may not exist yet: its stamp (None) changes once a finding is kept
    sources = {path: None for path in _loaded_sources() + _family_files(cases_py.parent)
               + [str(cases_py.parent / "kept.json")]}
    _store(entry, (VERSION, _stamps(sources), cases))
    return cases


def _loaded_sources() -> list[str]:
    names = (getattr(module, "__file__", None) for module in list(sys.modules.values()))
    return sorted({name for name in names if name and name.endswith(".py")})


def _family_files(folder: Path) -> list[str]:
    """Templates are read, not imported: _loaded_sources() cannot see them."""
    return sorted(str(path) for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts)


Stamps = dict[str, tuple[int, int] | None]                # path -> (size, mtime), None: absent


def _stamps(sources: Iterable[str]) -> Stamps:
    stamps: Stamps = {}
    for path in sources:
        try:
            info = os.stat(path)
            stamps[path] = (info.st_size, info.st_mtime_ns)
        except OSError:
            stamps[path] = None
    return stamps


def _store(entry: Path, data: object) -> None:
    """Written whole, then renamed: workers that read at the same time see all or nothing."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=entry.parent, delete=False) as stream:
            pickle.dump(data, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(stream.name, entry)
    except Exception:               # a read-only home, cases that do not pickle: no cache
        pass
