"""The conformance families' place in the tree: their names, the checkout's root, how a case id
names its source, and importing a family's cases.py. Below both the catalog (which finds any
case by id) and exploration (which builds cases with the families' own builders)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from harness.base.errors import UsageError

FAMILIES = ("tess", "draw_params", "varyings", "primitives")
CHECKOUT = Path(__file__).resolve().parents[2]
BUNDLED = Path(__file__).resolve().parents[1] / "bundled"     # an installed wheel's copy of tests/<family>
# Where tests/<family>/cases.py are: this checkout, else (installed) the wheel's bundled copy.
ROOT = CHECKOUT if (CHECKOUT / "tests" / FAMILIES[0] / "cases.py").is_file() else BUNDLED


class NoSuchCase(UsageError, LookupError):
    """No source has this id: one line for the user, not a harness error."""

    def __str__(self) -> str:
        return str(self.args[0])


def prefix(case_id: str) -> str:
    """The prefix that names a case id's source (and its family, in reports and JUnit)."""
    return case_id.split("/", 1)[0]


def cases_py(family: str, root: Path = ROOT) -> Path:
    return root / "tests" / family / "cases.py"


def family_module(path: Path) -> ModuleType:
    """Import a family's cases.py once per process (dataclasses need it in sys.modules), as a
    package whose folder is the family's: `from . import coords` finds a sibling module."""
    if not Path(path).is_file():
        raise NoSuchCase(f"the {path.parent.name} family is missing: no {path} (the families must be in "
                         f"a checkout's tests/<family>/, or an installed harness's {BUNDLED / 'tests'}/<family>/)")
    name = f"harness_family_{path.parent.name}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=[str(path.parent)])
        assert spec is not None and spec.loader is not None          # a .py file always has both
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module
