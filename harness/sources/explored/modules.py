"""A family's modules as the spaces use them: each a stand-in that imports its module on first
use, through the catalog's loader (the family's cases.py as the package harness_family_<family>,
harness/model/families.py), so that importing a space imports no family until it draws or builds.

A space types each stand-in as the module itself, under TYPE_CHECKING: mypy checks the families
(tests/<family>/) as the packages tests.<family>, so a builder's call is checked against the
builder's own signature."""
from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

from harness.model import families


@functools.cache                    # asked per case built: the path and the lookup once
def load(family: str, name: str = "cases") -> ModuleType:
    """tests/<family>/<name>.py, as the catalog's loader imports it."""
    cases = families.family_module(families.ROOT / "tests" / family / "cases.py")
    return cases if name == "cases" else importlib.import_module(f"harness_family_{family}.{name}")


class FamilyModule:
    """tests/<family>/<name>.py, imported when an attribute is first read."""

    def __init__(self, family: str, name: str = "cases"):
        self.family, self.name = family, name

    def __getattr__(self, attr: str) -> Any:        # the module's own attribute, whatever it is
        return getattr(load(self.family, self.name), attr)
