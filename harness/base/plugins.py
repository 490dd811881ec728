"""Plugins: modules a run imports at start, in every process that runs or names its targets,
so that they may add backends (harness/backends/registry.py `register`) and targets
(harness/executor/targets.py `register`) of their own. The harness's self-tests add their
test-only backends and targets this way (tests/selftest/faults.py).

A plugin is named by a module name (importable where the run starts) or by the path of a .py
file. The front ends (the pytest plugin, `python -m harness`) load those that $HARNESS_PLUGINS
names (comma-separated; harness/base/config.py `Knobs.plugins`); an executor's child loads
every plugin its parent had loaded (harness.base.config.ChildOptions.plugins), before it makes
its backend, so that a target a plugin registered runs in the child as in the parent.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterable
from harness.base.errors import UsageError

_loaded: dict[str, ModuleType] = {}          # the name it was loaded by -> the module, in order


class PluginError(UsageError):
    """A plugin that cannot be imported, and why."""


def load(names: Iterable[str]) -> list[ModuleType]:
    """Import each plugin once (a module name, or a path to a .py file); PluginError if one fails."""
    modules = []
    for name in names:
        if _is_file(name):
            name = str(Path(name).resolve())     # a child started elsewhere finds it too
        if name not in _loaded:
            _loaded[name] = _import(name)
        modules.append(_loaded[name])
    return modules


def loaded() -> tuple[str, ...]:
    """The plugins this process has loaded, as named to `load`: what its children load."""
    return tuple(_loaded)


def _import(name: str) -> ModuleType:
    try:
        if _is_file(name):
            return _import_file(Path(name))
        return importlib.import_module(name)
    except PluginError:
        raise
    except Exception as exc:
        raise PluginError(f"plugin {name}: {type(exc).__name__}: {exc}") from exc


def _is_file(name: str) -> bool:
    return name.endswith(".py") or "/" in name


def _import_file(path: Path) -> ModuleType:
    """The file as the module named by its stem, the module of that name if it is this file."""
    if not path.is_file():
        raise PluginError(f"plugin {path}: no such file")
    known = sys.modules.get(path.stem)
    if known is not None:
        where = getattr(known, "__file__", None)
        if where and Path(where).resolve() == path:
            return known
        raise PluginError(f"plugin {path}: a module named {path.stem!r} is already loaded from {where}")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"plugin {path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[path.stem]
        raise
    return module
