"""Targets: a name, the backend that runs cases on it, and the environment its driver needs.

Environment variables must be set before a driver loads, which is why each target's cases
run in a child process started with that environment (see executor.py). A plugin
(harness/base/plugins.py) may `register` targets of its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from harness.backends import registry
from harness.base.errors import UsageError
from harness.model.facts import Facts
from harness.base.config import (RUN_PATHS, MesaBuild, VkIndexUint8, VkListRestart, VkPatchPath, VkPath, VkPaths,
                                 VkPointSize, VkRestartIndex, VkVertexInput)


# What of Mesa a target loads, and so takes from a --mesa build: "gl" (EGL, DRI drivers), "gl+vk"
# (also lavapipe: zink on lavapipe), "vk" (lavapipe only), "" (nothing of Mesa's).
MesaParts = Literal["", "gl", "vk", "gl+vk"]


@dataclass(frozen=True)
class Target:
    name: str
    backend: str                              # "gl", "vk", or a plugin's (harness/backends/registry.py)
    env: tuple[tuple[str, str], ...]          # set in the child before the driver loads
    description: str
    default: bool = False                     # part of the local default set
    unavailable: str = ""                     # non-empty: why this target cannot run at all
    # A regex the renderer string must match: an environment that loads another driver (an
    # EGL vendor file naming NVIDIA's, an ICD list without lavapipe) makes the target unavailable
    # rather than run another driver's results under this name.
    renderer: str = ""
    mesa: MesaParts = ""                      # what of Mesa it loads (mesa_gl, mesa_vulkan)
    # Its driver may be NVIDIA's, whose shader cache serves one process at a time: each child
    # claims a cache folder of its own (harness/executor/shader_cache.py).
    shader_cache_slot: bool = False
    # Whether the GL backend may keep a linked program for later cases (harness/backends/gl/programs.py `cacheable`).
    shared_programs: bool = True
    # The Vulkan layer's paths this target always takes (None in a field: the run's --vk-path and the like).
    vk_paths: VkPaths = RUN_PATHS
    # Only the cases whose Vulkan calls depend on the path (backends/vk/paths.py): the others
    # are the same calls as on the target taking the other path, and would only cost CI time.
    path_dependent_only: bool = False

    @property
    def mesa_gl(self) -> bool:
        """Whether it loads Mesa's GL (EGL, the DRI drivers), and so takes it from a --mesa build."""
        return self.mesa in ("gl", "gl+vk")

    @property
    def mesa_vulkan(self) -> bool:
        """Whether it loads Mesa's lavapipe, and so takes it from a --mesa build."""
        return self.mesa in ("vk", "gl+vk")

    @property
    def batches(self) -> bool:
        """Whether its backend can run cases batched, several in one context (harness/executor/batch.py)."""
        return registry.batches(self.backend)

    def wrong_driver(self, facts: Facts, build: MesaBuild | None = None) -> str:
        """'' if the child's driver is this target's (and, with a --mesa build, from it), else why not."""
        renderer = facts.renderer
        if self.renderer and not re.search(self.renderer, renderer):
            return (f"the renderer is {renderer!r}, not this target's driver (expected /{self.renderer}/); "
                    f"check the environment (__EGL_VENDOR_LIBRARY_FILENAMES, VK_DRIVER_FILES)")
        if build is not None and self.mesa:
            return build.check_loaded(facts.mesa, facts.mesa_libraries)
        return ""

    def environment(self, base: dict[str, str], build: MesaBuild | None = None) -> dict[str, str]:
        env = dict(base)
        env.update(self.env)
        if build is not None and self.mesa:
            env.update(build.environment(base, gl=self.mesa_gl, vulkan=self.mesa_vulkan))
        return env

    def command(self, argv: list[str], base: dict[str, str], build: MesaBuild | None = None) -> list[str]:
        """ARGV as a process of this target starts it: through the build's loader with a --mesa build."""
        return build.command(argv, base) if build is not None and self.mesa else argv


# The Vulkan loader picks lavapipe among the ICDs it finds, by its manifest's name (lvp_icd.json,
# lvp_icd.x86_64.json: each distribution names it its own way); a --mesa build's own ICD file is
# lvp_icd.json too (harness/mesa/runtime.py).
_LAVAPIPE_ONLY = ("VK_LOADER_DRIVERS_SELECT", "*lvp_icd*")
_MESA_SW = (("LIBGL_ALWAYS_SOFTWARE", "1"), ("EGL_PLATFORM", "surfaceless"))

_TARGETS = {t.name: t for t in (
    Target("llvmpipe", "gl", _MESA_SW + (("GALLIUM_DRIVER", "llvmpipe"),),
           "Mesa llvmpipe (software GL)", default=True, renderer=r"^llvmpipe", mesa="gl"),
    # zink refuses lavapipe's CPU device unless software rendering is forced. No program is
    # shared between the cases' contexts on zink: zink 25.0.7 crashes or reads zeros drawing a
    # program linked in another, since destroyed, context (triage/mesa-25.0.7/
    # zink-program-from-destroyed-context); linking per case is also faster there.
    Target("zink", "gl", _MESA_SW + (("GALLIUM_DRIVER", "zink"),),
           "Mesa zink on lavapipe (GL on Vulkan)", default=True, renderer=r"^zink.*llvmpipe", mesa="gl+vk",
           shared_programs=False),
    # zink on lavapipe as zink runs on hardware: on a CPU device zink inlines uniforms, which keeps
    # it off its "optimal keys" shader path (zink_screen.c, init_optimal_keys: `!inline_uniforms`
    # is one of its conditions); ZINK_INLINE_UNIFORMS=0 turns inlining off, and radv, anv and nvk
    # take that path. Not a default target: .ci/run gates it on the Mesas docs/ci.md names.
    Target("zink-optimal", "gl", _MESA_SW + (("GALLIUM_DRIVER", "zink"), ("ZINK_INLINE_UNIFORMS", "0")),
           "Mesa zink on lavapipe without inlined uniforms (the optimal-keys shader path hardware takes)",
           renderer=r"^zink.*llvmpipe", mesa="gl+vk", shared_programs=False),
    Target("system-gl", "gl", (), "the machine's own GL driver through EGL", shader_cache_slot=True),
    Target("lavapipe", "vk", (_LAVAPIPE_ONLY,),
           "Mesa lavapipe through the harness's Vulkan backend (a GL-on-Vulkan layer of its own)",
           default=True, renderer=r"llvmpipe", mesa="vk"),
    # lavapipe in the paths zink does not take on lavapipe, where `lavapipe` takes zink's own:
    # every direct multi-draw split into single draws and gl_DrawID pushed (zink without
    # VK_EXT_multi_draw), and the vertex input baked into the pipeline (zink without
    # VK_EXT_vertex_input_dynamic_state), and GL's point size written (zink without
    # VK_KHR_maintenance5: lavapipe 22.3.6 lacks it, so there `lavapipe` writes it too; 26.2.6
    # offers it, and `lavapipe` leaves it to the driver), and the patch size baked into each pipeline
    # (zink without extendedDynamicState2PatchControlPoints; both lavapipes offer it), and restart
    # and 8-bit indices through u_primconvert's rewrites (zink without VK_EXT_primitive_topology_
    # list_restart, VK_EXT_primitive_restart_index, VK_EXT_index_type_uint8). Its cases (a
    # direct multi-draw) all read attributes and leave gl_PointSize to the layer, and 12 of them draw
    # patches, so every path runs in CI (docs/vk-paths.md).
    Target("lavapipe-split", "vk", (_LAVAPIPE_ONLY,),
           "Mesa lavapipe through the harness's Vulkan backend, multi-draws split (--vk-path split) and the "
           "vertex input in the pipeline (--vk-vertex-input static), GL's point size written (--vk-point-size "
           "written), the patch size in the pipeline (--vk-patch-path static), list restart split (--vk-list-restart "
           "split), chosen restart indices rewritten (--vk-restart-index rewrite), 8-bit indices widened "
           "(--vk-index-uint8 widen); only the cases with a direct multi-draw",
           default=True, renderer=r"llvmpipe", mesa="vk",
           vk_paths=VkPaths(VkPath.SPLIT, VkPatchPath.STATIC, VkVertexInput.STATIC, VkPointSize.WRITTEN,
                            VkListRestart.SPLIT, VkRestartIndex.REWRITE, VkIndexUint8.WIDEN),
           path_dependent_only=True),
    Target("system-vk", "vk", (), "the machine's own Vulkan driver through the harness's Vulkan backend",
           shader_cache_slot=True),
    # Mesa's EGL and zink over whatever Vulkan driver the loader finds (bench/gpu/run.sh points
    # the EGL vendor and driver paths at a Mesa unpacked beside NVIDIA's driver). Not forced to
    # software: zink then takes only a CPU device. Without a DRM node EGL loads zink_dri.so.
    Target("zink-system", "gl", (("EGL_PLATFORM", "surfaceless"), ("MESA_LOADER_DRIVER_OVERRIDE", "zink")),
           "Mesa zink on the machine's own Vulkan driver", renderer=r"^zink", mesa="gl", shader_cache_slot=True,
           shared_programs=False),
)}
TARGETS = MappingProxyType(_TARGETS)


def register(target: Target) -> None:
    """Add a target (a plugin's); registering the same one again changes nothing."""
    if _TARGETS.get(target.name, target) != target:
        raise ValueError(f"target {target.name!r} is registered already, as {_TARGETS[target.name]}")
    _TARGETS[target.name] = target


class UnknownTarget(UsageError, KeyError):
    def __str__(self) -> str:
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
