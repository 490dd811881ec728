"""Targets: a name, the backend that runs cases on it, and the environment its driver needs.

Environment variables must be set before a driver loads, which is why each target's cases
run in a child process started with that environment (see executor.py).
"""
from __future__ import annotations

import platform
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Target:
    name: str
    backend: str                              # "gl", "vk", or "fault" (self-tests only)
    env: tuple[tuple[str, str], ...]          # set in the child before the driver loads
    description: str
    default: bool = False                     # part of the local default set
    unavailable: str = ""                     # non-empty: why this target cannot run at all

    def environment(self, base: dict[str, str]) -> dict[str, str]:
        env = dict(base)
        env.update(self.env)
        return env


_LVP_ICD = f"/usr/share/vulkan/icd.d/lvp_icd.{platform.machine()}.json"     # Debian's mesa-vulkan-drivers
_MESA_SW = (("LIBGL_ALWAYS_SOFTWARE", "1"), ("EGL_PLATFORM", "surfaceless"))

TARGETS = MappingProxyType({t.name: t for t in (
    Target("llvmpipe", "gl", _MESA_SW + (("GALLIUM_DRIVER", "llvmpipe"),),
           "Mesa llvmpipe (software GL)", default=True),
    # zink refuses lavapipe's CPU device unless software rendering is forced.
    Target("zink", "gl", _MESA_SW + (("GALLIUM_DRIVER", "zink"),),
           "Mesa zink on lavapipe (GL on Vulkan)", default=True),
    Target("system-gl", "gl", (), "the machine's own GL driver through EGL"),
    Target("lavapipe", "vk", (("VK_ICD_FILENAMES", _LVP_ICD), ("VK_DRIVER_FILES", _LVP_ICD)),
           "Mesa lavapipe through the harness's Vulkan backend (a GL-on-Vulkan layer of its own)",
           default=True),
    Target("system-vk", "vk", (), "the machine's own Vulkan driver through the harness's Vulkan backend"),
    # For the harness's own reliability tests: llvmpipe with the faults $HARNESS_FAULTS names.
    Target("fault-llvmpipe", "fault-gl", _MESA_SW + (("GALLIUM_DRIVER", "llvmpipe"),),
           "test only: llvmpipe with injected crashes, hangs, GL errors and dirty state"),
)})


class UnknownTarget(KeyError):
    def __str__(self):
        return f"unknown target {self.args[0]!r} (known: {', '.join(TARGETS)})"


def get(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise UnknownTarget(name) from None


def default_names() -> list[str]:
    return [t.name for t in TARGETS.values() if t.default]


def parse_list(text: str) -> list[str]:
    """'llvmpipe, zink' -> ['llvmpipe', 'zink']; each name must be known."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        get(n)
    return names
