"""Every family's cases, loaded the way the pytest plugin loads them, for the command line."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from harness import case_cache
from harness.case import Case

FAMILIES = ("tess", "draw_params", "varyings")
ROOT = Path(__file__).resolve().parents[1]


def family_module(path: Path):
    """Import a family's cases.py once per process (dataclasses need it in sys.modules), as a
    package whose folder is the family's: `from . import coords` finds a sibling module."""
    name = f"harness_family_{path.parent.name}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=[str(path.parent)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


def cases(family: str, root: Path = ROOT) -> list[Case]:
    return generate(root / "tests" / family / "cases.py")


def generate(path: Path) -> list[Case]:
    """A family's cases.py's cases (from the case cache when its sources are unchanged)."""
    return case_cache.load(path, lambda: family_module(path).generate())


def find(case_id: str, root: Path = ROOT) -> Case:
    family = case_id.split("/", 1)[0]
    if family not in FAMILIES:
        raise KeyError(f"no family {family!r} (families: {', '.join(FAMILIES)})")
    for case in cases(family, root):
        if case.id == case_id:
            return case
    raise KeyError(f"no case {case_id!r} in family {family}")
