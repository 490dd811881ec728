"""The one registry of backends: a target's backend name -> (module, class). Each class is made
from the child's options (harness.base.config.ChildOptions) by its `from_options`."""
from __future__ import annotations

import importlib

from harness.backends import Backend, BackendError

BACKENDS = {
    "gl": ("harness.backends.gl.runner", "GLBackend"),
    "vk": ("harness.backends.vk.runner", "VKBackend"),
    "fault": ("harness.backends.fault", "FaultBackend"),          # self-tests only
    "fault-gl": ("harness.backends.fault", "FaultyGL"),           # self-tests only
}


def modules(options) -> list[str]:
    """What a child of these options will import, for the spawner to import beforehand."""
    module = BACKENDS.get(options.backend, ("",))[0]
    gl = options.backend in ("gl", "fault-gl")
    return ([module] if module else []) + (["OpenGL.GL"] if gl else []) + \
        (["OpenGL.EGL", "OpenGL.EGL.EXT.device_enumeration"] if gl and options.gl_platform == "egl" else [])


def make(options) -> Backend:
    """The backend a child with these options runs; BackendError if there is none."""
    if options.backend not in BACKENDS:
        raise BackendError(f"target {options.target}: backend {options.backend!r} is not implemented")
    module, name = BACKENDS[options.backend]
    return getattr(importlib.import_module(module), name).from_options(options)
