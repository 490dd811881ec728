"""The registry of case sources: where a case id leads to its Case.

Every case id starts with the prefix of the source that owns it (its first '/' token): the three
families under tests/ (`tess/`, `draw_params/`, `varyings/`, each a `cases.py` with
`generate()`), and piglit's shader_runner files (`shader_test/`, harness/sources/shader_test/).
`find(id)` dispatches on the prefix, so export, bisect-run, --resume and the report resolve an id
the same way. An id no source has raises NoSuchCase; anything else a source raises is a harness error.

A `shader_test/` id is the file's path below the nearest folder named `tests` (see
harness/sources/shader_test/ids.py). Its file is looked for under the search path: the folders
given (`--shader-tests DIR`), then those in $HARNESS_SHADER_TESTS (':'-separated), then this
checkout's tests/ folder; each may be a piglit `tests` folder or any folder inside one.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Protocol

from harness.sources import case_cache
from harness.base import config
from harness.model.families import FAMILIES, ROOT, NoSuchCase, family_module, prefix  # noqa: F401 - the catalog's names
from harness.model.case import Case
from harness.sources import shader_test
from harness.sources.shader_test import FAMILY as SHADER_TEST

SEARCH_ENV = "HARNESS_SHADER_TESTS"


class Source(Protocol):
    prefix: str

    def find(self, case_id: str) -> Case: ...


def generate(path: Path) -> list[Case]:
    """A family's cases.py's cases and the findings kept beside them (tests/<family>/kept.json,
    harness/sources/explored/kept.py), from the case cache when their sources are unchanged."""
    def fresh() -> list[Case]:
        from harness.sources.explored import kept  # Hypothesis and the spaces (0.27 s): on a cache miss only
        generated: list[Case] = family_module(path).generate()
        return generated + kept.cases(path.parent.name, path.parents[2])
    return case_cache.load(path, fresh)


class FamilySource:
    def __init__(self, name: str, root: Path = ROOT):
        self.prefix = name
        self.path = root / "tests" / name / "cases.py"

    def cases(self) -> list[Case]:
        return generate(self.path)

    def find(self, case_id: str) -> Case:
        from harness.sources.explored import id_codec as ids  # an explored id rebuilds its case from its parameters
        if ids.is_explored(case_id):
            return ids.find(case_id)
        for case in self.cases():
            if case.id == case_id:
                return case
        raise NoSuchCase(f"no case {case_id!r} in family {self.prefix}")


class ShaderTestSource:
    prefix = SHADER_TEST

    def __init__(self, search: Iterable[Path]):
        self.search = [Path(p) for p in search]

    def find(self, case_id: str) -> Case:
        return shader_test.load(self.locate(case_id))

    def locate(self, case_id: str) -> Path:
        """The file whose id is `case_id`: first where the id's path says, below each search
        folder or the `tests` folder above it; else any file under the search path with that id
        (an id made of a name with characters a case id cannot hold)."""
        id_of = shader_test.case_id
        below = Path(*case_id.split("/")[1:]).with_suffix(".shader_test") if "/" in case_id else None
        folders = [f for f in self.search if f.is_dir()]
        if below is not None:
            for folder in folders:
                anchors = [folder] + [a for a in folder.resolve().parents if a.name == "tests"]
                for anchor in anchors:
                    candidate = anchor / below
                    if candidate.is_file() and id_of(candidate) == case_id:
                        return candidate
        for folder in folders:
            for candidate in sorted(folder.rglob("*.shader_test")):
                if id_of(candidate) == case_id:
                    return candidate
        where = ", ".join(str(f) for f in self.search) or "nowhere"
        raise NoSuchCase(f"no shader_test file with id {case_id!r} under {where} "
                         f"(add its folder with --shader-tests DIR or ${SEARCH_ENV})")


def search_path(folders: Iterable[str | Path] = ()) -> list[Path]:
    """The shader_test search path: `folders`, then $HARNESS_SHADER_TESTS, then tests/."""
    from_env = [p for p in config.knobs().shader_tests.split(os.pathsep) if p]
    return [Path(p) for p in [*folders, *from_env]] + [ROOT / "tests"]


def sources(shader_tests: Iterable[str | Path] = ()) -> dict[str, Source]:
    """Prefix -> source. `shader_tests`: folders searched before the rest of the search path."""
    found: dict[str, Source] = {name: FamilySource(name) for name in FAMILIES}
    found[SHADER_TEST] = ShaderTestSource(search_path(shader_tests))
    return found


def find(case_id: str, shader_tests: Iterable[str | Path] = ()) -> Case:
    registry = sources(shader_tests)
    source = registry.get(prefix(case_id))
    if source is None:
        raise NoSuchCase(f"no case source owns {case_id!r}: an id starts with one of "
                         f"{', '.join(p + '/' for p in registry)}")
    return source.find(case_id)


def cases(family: str, root: Path = ROOT) -> list[Case]:
    return FamilySource(family, root).cases()


def family_of_file(path: Path) -> str | None:
    """The family whose cases.py `path` is (tests/<family>/cases.py), else None."""
    path = Path(path)
    if path.name == "cases.py" and path.parent.name in FAMILIES and path.parent.parent.name == "tests":
        return path.parent.name
    return None
