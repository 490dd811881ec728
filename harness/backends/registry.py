"""The one registry of backends: a target's backend name -> where its class is and what it
needs. Each class is made from the child's options (harness.base.config.ChildOptions) by its
`from_options`. A plugin (harness/base/plugins.py) may `register` more."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from harness.backends import Backend
from harness.base.errors import HarnessFault


class UnknownBackend(HarnessFault, LookupError):
    """A target whose backend no one registered (the harness's or a plugin's target table): no driver ran."""


@dataclass(frozen=True)
class Entry:
    module: str                     # imported by the child (and beforehand by its spawner)
    cls: str                        # the class in it, with `from_options(options)`
    gl: bool = False                # runs on PyOpenGL: the spawner imports GL for the child's platform
    batches: bool = False           # runs batched cases (harness/executor/batch.py)


_BACKENDS: dict[str, Entry] = {
    "gl": Entry("harness.backends.gl.runner", "GLBackend", gl=True, batches=True),
    "vk": Entry("harness.backends.vk.runner", "VKBackend"),
}
BACKENDS = MappingProxyType(_BACKENDS)


def register(name: str, entry: Entry) -> None:
    """Add a backend (a plugin's); registering the same entry again changes nothing."""
    if _BACKENDS.get(name, entry) != entry:
        raise ValueError(f"backend {name!r} is registered already, as {_BACKENDS[name]}")
    _BACKENDS[name] = entry


def is_gl(name: str) -> bool:
    return name in _BACKENDS and _BACKENDS[name].gl


def batches(name: str) -> bool:
    return name in _BACKENDS and _BACKENDS[name].batches


def modules(options: Any) -> list[str]:
    """What a child of these options will import, for the spawner to import beforehand."""
    entry = _BACKENDS.get(options.backend)
    gl = entry is not None and entry.gl
    return ([entry.module] if entry else []) + (["OpenGL.GL"] if gl else []) + \
        (["OpenGL.EGL", "OpenGL.EGL.EXT.device_enumeration"] if gl and options.gl_platform == "egl" else [])


def make(options: Any) -> Backend:
    """The backend a child with these options runs; UnknownBackend if there is none."""
    if options.backend not in _BACKENDS:
        raise UnknownBackend(f"target {options.target}: backend {options.backend!r} is not implemented")
    entry = _BACKENDS[options.backend]
    backend: Backend = getattr(importlib.import_module(entry.module), entry.cls).from_options(options)
    return backend
