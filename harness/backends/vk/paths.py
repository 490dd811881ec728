"""Which path the Vulkan layer takes where zink's Vulkan calls depend on the device's features,
chosen as zink chooses it: a GL direct multi-draw (`--vk-path`), the tessellation patch size
(patch control points, below; `--vk-patch-path`), the vertex input (bindings and attributes,
below; `--vk-vertex-input`) and GL's point size (below; `--vk-point-size`).

- `native`: one `vkCmdDrawMultiEXT` / `vkCmdDrawMultiIndexedEXT` (VK_EXT_multi_draw) with every
  entry of the GL call, zero-count ones included, and `gl_DrawID` read from the native
  `DrawIndex` builtin. zink takes it where the device offers VK_EXT_multi_draw (its draw
  template's HAS_MULTIDRAW) and shaderDrawParameters: in zink_draw.cpp the draw id is pushed
  only when `(!HAS_MULTIDRAW && num_draws > 1) || (HAS_MULTIDRAW && num_draws > 1 &&
  !dinfo->increment_draw_id)`.
- `split`: one `vkCmdDraw` / `vkCmdDrawIndexed` per entry of non-zero count, each told its index
  through the layer's push constant (the `draw-id` translation): zink without VK_EXT_multi_draw.

Every other draw (single, indirect, indirect-count) is the same call in both paths; so is
`gl_BaseVertex` (`indexed ? BaseVertex : 0`, which zink lowers the same way whatever the device).
Pure logic: the device's features come in as booleans, so the choice is self-tested without one.

The patch size of a draw with tessellation (GL_PATCH_VERTICES) reaches the driver one of two ways:
- `dynamic`: the pipeline declares VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT and each draw records
  vkCmdSetPatchControlPointsEXT; pipelines of a program with a TCS serve every patch size. zink
  takes it where the device offers VK_EXT_extended_dynamic_state2's
  extendedDynamicState2PatchControlPoints (zink_context.c, zink_set_patch_vertices: the command;
  zink_pipeline.c: the dynamic state, and `patchControlPoints = 32` in a pipeline library, which
  the layer writes too so that only the dynamic value is right).
- `static`: patchControlPoints in the pipeline, one pipeline per patch size (zink without it:
  `vertices_per_patch` is pipeline state, zink_pipeline.c).
zink injects its pass-through TCS (a program with a TES and no TCS) whatever the device offers,
its output patch size GL_PATCH_VERTICES (a shader key) in both paths.

The vertex input (the bindings' strides and rates, the attributes' locations, formats and
offsets) reaches the driver one of two ways:
- `dynamic`: every pipeline declares VK_DYNAMIC_STATE_VERTEX_INPUT_EXT with an empty vertex input
  state, and each draw records vkCmdSetVertexInputEXT with VkVertexInputBindingDescription2EXT
  (divisor 1) and VkVertexInputAttributeDescription2EXT; pipelines are not keyed by the layout.
  zink (25.0.7 and later) takes it where the device offers VK_EXT_vertex_input_dynamic_state's
  vertexInputDynamicState and VK_EXT_extended_dynamic_state2's extendedDynamicState2
  (zink_device_info.py: each extension counts only with its feature; zink_screen.c:2848-2850
  drops the first without the second; zink_pipeline.c:233-234 the dynamic state,
  zink_draw.cpp:150-151 the command).
- `static`: the layout in the pipeline's VkPipelineVertexInputStateCreateInfo, a pipeline per
  layout (zink without them).

GL's point size (1.0: the harness sets no other), where no shader writes gl_PointSize, reaches
the driver one of two ways:
- `default`: no PointSize store at all, so the driver's default applies: maintenance5's "If the
  maintenance5 feature is enabled and a value is not written to a variable decorated with
  PointSize, a value of 1.0 is used as the size of points" (the Vulkan spec, PointSize). zink
  25.0.7 with VK_KHR_maintenance5 (have_KHR_maintenance5: the extension offered, which requires
  the feature) reports point_size_fixed PIPE_POINT_SIZE_LOWER_USER_ONLY (zink_screen.c:1165-1167),
  so Mesa's GLSL linker injects no `gl_PointSize = 1.0` (consts->PointSizeFixed,
  gl_nir_linker.c) in any stage; and zink_compiler_assign_io (zink_compiler.c:2893-2911) deletes
  a producer's constant-1.0 PointSize store where the consumer does not read PointSize and it is
  not captured (explicit_xfb_buffer), the last pre-rasterization stage (consumer: the FS)
  included. Whatever the topology: zink does not look at it.
- `written`: the last pre-rasterization stage writes `gl_PointSize = 1.0` (zink without
  maintenance5: PIPE_POINT_SIZE_LOWER_ALWAYS, the linker injects the store into every VS, TES
  and GS that does not write it, and zink_compiler_assign_io removes it again from all but the
  last: the same as the layer writing it in the last stage only).
Primitive assembly (assembly.py) has three such areas, each `native` where the device offers
the extension (auto) and else u_primconvert's rewrite, as zink falls back to it:
`--vk-list-restart` native|split (VK_EXT_primitive_topology_list_restart), `--vk-restart-index`
native|rewrite (VK_EXT_primitive_restart_index, lavapipe from Mesa 26.1), `--vk-index-uint8`
native|widen (VK_EXT_index_type_uint8).
docs/vulkan-backend.md ("zink's feature-dependent paths") lists the other feature-dependent choices.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from harness.base.config import VkIndexUint8, VkListRestart, VkPatchPath, VkPath, VkPointSize, VkRestartIndex, VkVertexInput
from harness.model import glfacts
from harness.base.errors import UsageError

if TYPE_CHECKING:
    from harness.model.case import Case

# The choices of each area: the enums of harness/base/config.py, whose option table
# (harness/base/options.py) declares --vk-path and the like.
CHOICES = tuple(VkPath)
PATHS = CHOICES[1:]
PATCH_CHOICES = tuple(VkPatchPath)
PATCH_PATHS = PATCH_CHOICES[1:]
PATCH_FEATURE = "VK_EXT_extended_dynamic_state2 (extendedDynamicState2PatchControlPoints)"
VERTEX_INPUT_CHOICES = tuple(VkVertexInput)
VERTEX_INPUT_PATHS = VERTEX_INPUT_CHOICES[1:]
POINT_SIZE_CHOICES = tuple(VkPointSize)
POINT_SIZE_PATHS = POINT_SIZE_CHOICES[1:]
POINT_SIZE_FEATURE = "VK_KHR_maintenance5 (maintenance5)"
VERTEX_INPUT_FEATURES = ("VK_EXT_vertex_input_dynamic_state (vertexInputDynamicState)",
                         "VK_EXT_extended_dynamic_state2 (extendedDynamicState2)")


# An area's choices: one of the enums above (its `auto` is never chosen: it is asked for).
P = TypeVar("P", VkPath, VkPatchPath, VkVertexInput, VkPointSize, VkListRestart, VkRestartIndex, VkIndexUint8)


class PathError(UsageError, ValueError):
    """A path the device cannot take, or an unknown name: one line for the user."""


@dataclass(frozen=True)
class Choice(Generic[P]):
    path: P                         # VkPath.NATIVE or VkPath.SPLIT; VkPatchPath.DYNAMIC or .STATIC; ...
    why: str                        # how it was chosen, for the target's info and results
    area: str = "multi-draw"        # or "patch-size", "vertex-input", "point-size", ...

    def describe(self) -> str:
        return f"{self.area} path {self.path} ({self.why})"


@dataclass(frozen=True)
class _Rule(Generic[P]):
    """One area's choice, as zink makes it: the path that needs device features (taken by auto
    where the device has them all), the other one (always possible), and the words of its lines."""
    area: str                       # Choice.area
    option: str                     # the command-line option
    unknown: str                    # what an unknown name is called
    featured: P                     # the path that needs the features
    other: P                        # the path without them
    choices: tuple[P, ...]
    offered: str                    # auto's reason where the device has the features
    as_zink: str                    # auto's reason where it lacks one, after "the device lacks ..."
    refused: str = ""               # after the refusal's list of what the device lacks


_MULTI_DRAW = _Rule("multi-draw", "--vk-path", "Vulkan path", VkPath.NATIVE, VkPath.SPLIT, CHOICES,
                    "the device offers VK_EXT_multi_draw and shaderDrawParameters, as zink does", "as zink splits")
_PATCH_SIZE = _Rule("patch-size", "--vk-patch-path", "patch-size path", VkPatchPath.DYNAMIC, VkPatchPath.STATIC,
                    PATCH_CHOICES, "the device offers extendedDynamicState2PatchControlPoints, as zink uses it",
                    "as zink bakes the patch size")
_VERTEX_INPUT = _Rule("vertex-input", "--vk-vertex-input", "vertex-input path", VkVertexInput.DYNAMIC,
                      VkVertexInput.STATIC, VERTEX_INPUT_CHOICES, "the device offers vertexInputDynamicState and "
                      "extendedDynamicState2, as zink records the vertex input per draw", "as zink bakes the vertex input")
_LIST_RESTART = _Rule("list-restart", "--vk-list-restart", "list-restart path", VkListRestart.NATIVE,
                      VkListRestart.SPLIT, tuple(VkListRestart), "the device offers primitiveTopologyListRestart, "
                      "as zink restarts lists natively", "as u_primconvert splits the runs")
_RESTART_INDEX = _Rule("restart-index", "--vk-restart-index", "restart-index path", VkRestartIndex.NATIVE,
                       VkRestartIndex.REWRITE, tuple(VkRestartIndex), "the device offers "
                       "VK_EXT_primitive_restart_index, as zink records the index", "as u_primconvert rewrites the index")
_INDEX_UINT8 = _Rule("index-uint8", "--vk-index-uint8", "8-bit index path", VkIndexUint8.NATIVE, VkIndexUint8.WIDEN,
                     tuple(VkIndexUint8), "the device offers indexTypeUint8, as zink binds 8-bit indices",
                     "as u_primconvert widens them")
_POINT_SIZE = _Rule("point-size", "--vk-point-size", "point-size path", VkPointSize.DEFAULT, VkPointSize.WRITTEN,
                    POINT_SIZE_CHOICES,
                    "the device offers maintenance5, as zink leaves an unwritten point size to the driver's 1.0",
                    "as zink writes gl_PointSize = 1.0", ", without which a point's size must be written")


def _choose(rule: _Rule[P], requested: str, lacks: list[str]) -> Choice[P]:
    """`requested` is auto or one of the rule's paths; auto takes the featured path exactly where
    the device lacks none of its features (`lacks`), as zink does."""
    if requested not in rule.choices:
        raise PathError(f"unknown {rule.unknown} {requested!r} (known: {', '.join(rule.choices)})")
    lacking = " and ".join(lacks)
    if requested == rule.other:
        return Choice(rule.other, f"{rule.option} {rule.other}", rule.area)
    if requested == rule.featured:
        if lacks:
            raise PathError(f"{rule.option} {rule.featured}: the Vulkan device lacks {lacking}{rule.refused}")
        return Choice(rule.featured, f"{rule.option} {rule.featured}", rule.area)
    if lacks:
        return Choice(rule.other, f"auto: the device lacks {lacking}, {rule.as_zink}", rule.area)
    return Choice(rule.featured, f"auto: {rule.offered}", rule.area)


def _lacking(features: Iterable[tuple[str, bool]]) -> list[str]:
    return [name for name, have in features if not have]


def missing(multi_draw: bool, draw_parameters: bool) -> list[str]:
    """What the native path needs that the device lacks."""
    return _lacking((("VK_EXT_multi_draw (multiDraw)", multi_draw), ("shaderDrawParameters", draw_parameters)))


def choose(requested: str, multi_draw: bool, draw_parameters: bool) -> Choice[VkPath]:
    """`requested` is auto, native or split; auto takes native exactly where zink does."""
    return _choose(_MULTI_DRAW, requested, missing(multi_draw, draw_parameters))


def choose_patch_size(requested: str, dynamic_patch_control_points: bool) -> Choice[VkPatchPath]:
    """`requested` is auto, dynamic or static; auto takes dynamic exactly where zink does."""
    return _choose(_PATCH_SIZE, requested, _lacking(((PATCH_FEATURE, dynamic_patch_control_points),)))


def choose_vertex_input(requested: str, vertex_input_dynamic: bool, extended_dynamic_state2: bool) -> Choice[VkVertexInput]:
    """`requested` is auto, dynamic or static; auto takes dynamic exactly where zink does: the
    device offers both vertexInputDynamicState and extendedDynamicState2."""
    return _choose(_VERTEX_INPUT, requested,
                   _lacking(zip(VERTEX_INPUT_FEATURES, (vertex_input_dynamic, extended_dynamic_state2))))


def choose_point_size(requested: str, maintenance5: bool) -> Choice[VkPointSize]:
    """`requested` is auto, default or written; auto takes default exactly where zink does: the
    device offers VK_KHR_maintenance5."""
    return _choose(_POINT_SIZE, requested, _lacking(((POINT_SIZE_FEATURE, maintenance5),)))


def choose_list_restart(requested: str, list_restart: bool) -> Choice[VkListRestart]:
    """`requested` is auto, native or split; auto takes native where the device restarts lists."""
    return _choose(_LIST_RESTART, requested,
                   _lacking((("VK_EXT_primitive_topology_list_restart (primitiveTopologyListRestart)", list_restart),)))


def choose_restart_index(requested: str, restart_index: bool) -> Choice[VkRestartIndex]:
    """`requested` is auto, native or rewrite; auto takes native where the device offers the index."""
    return _choose(_RESTART_INDEX, requested,
                   _lacking((("VK_EXT_primitive_restart_index (primitiveRestartIndex)", restart_index),)))


def choose_index_uint8(requested: str, uint8: bool) -> Choice[VkIndexUint8]:
    """`requested` is auto, native or widen; auto takes native where the device reads 8-bit indices."""
    return _choose(_INDEX_UINT8, requested, _lacking((("VK_EXT_index_type_uint8 (indexTypeUint8)", uint8),)))


def depends_on_point_size(case: Case) -> bool:
    """Whether the point-size paths give the driver different shaders: a program whose last
    pre-rasterization stage does not write gl_PointSize itself (translate.writes_point_size: a
    read of gl_in[i].gl_PointSize is no write), where the `written` path adds `gl_PointSize = 1.0`."""
    from harness.backends.vk.translate import Program, models, writes_point_size
    for shaders in (case.shaders,) + tuple(case.programs):
        stages = models(Program(dict(shaders), frozenset()))
        last = glfacts.last_vertex_stage(stages)
        if last is not None and not writes_point_size(stages[last]):
            return True
    return False


def rasterizes_points(case: Case) -> bool:
    """Whether a draw of the case rasterizes points, where a point's size can matter: the last
    pre-rasterization stage's primitives are points (GL_POINTS without a TES or GS, a TES in
    point_mode, a GS whose output is points) or triangles in polygon mode GL_POINT. A case that
    captures varyings draws with rasterization discarded (as the GL backend does), so never."""
    if case.readback.captures:
        return False
    programs = (case.shaders,) + tuple(case.programs)
    for d in case.draws():
        primitive = primitive_of(dict(programs[d.program]), d.mode)
        if primitive == "points" or (primitive == "triangles" and d.state.polygon_mode == "POINT"):
            return True
    return False


def primitive_of(stages: dict[str, str], mode: str) -> str:
    """What the last pre-rasterization stage of a draw in `mode` emits: points, lines or
    triangles (a GS's output primitive; a TES's point_mode, isolines or else triangles; else the
    draw's mode)."""
    if "gs" in stages:
        out = re.search(r"layout\s*\(\s*(points|line_strip|triangle_strip)\b[^)]*\)\s*out\b", stages["gs"])
        return {"points": "points", "line_strip": "lines"}.get(out[1] if out else "", "triangles")
    if "tes" in stages:
        return ("points" if re.search(r"\bpoint_mode\b", stages["tes"]) else
                "lines" if re.search(r"\bisolines\b", stages["tes"]) else "triangles")
    return "points" if mode == "POINTS" else "lines" if mode.startswith("LINE") else "triangles"


def provokes(stages: dict[str, str], mode: str) -> bool:
    """Whether a draw's primitives have a provoking vertex that GL's convention picks: they are
    not points, nor tessellated patches without a GS (GL's Table 13.2 lists the drawing modes, and
    a TES's primitives are none of them; a GS's output strips are, so they follow the convention)."""
    if "tes" in stages and "gs" not in stages:
        return False
    return primitive_of(stages, mode) != "points"


def depends_on_vertex_input(case: Case) -> bool:
    """Whether the vertex-input paths record any of the case's draws differently: a case with
    vertex attributes (without any, both paths give the driver an empty layout; the dynamic path
    records it per draw, which the driver has no attribute to fetch by)."""
    return bool(case.attributes) and bool(case.draws())


def depends_on_patch_size_path(case: Case) -> bool:
    """Whether the patch-size paths record any of the case's draws differently: a program with a TES."""
    programs = (case.shaders,) + tuple(case.programs)
    return any(d.mode == "PATCHES" for d in case.draws()) and any(
        any(stage == "tes" for stage, _ in shaders) for shaders in programs)


def depends_on_path(case: Case) -> bool:
    """Whether the paths record any of the case's draws differently: a GL direct multi-draw."""
    return any(d.command in glfacts.MULTI_COMMANDS and d.command not in glfacts.INDIRECT_COMMANDS
               for d in case.draws())
