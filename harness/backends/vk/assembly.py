"""How one GL draw's primitive assembly reaches Vulkan: the topology, the layer's GS, the
indices and the restart state, as zink (with u_primconvert) takes them where Vulkan differs from GL.

- GL_QUADS: lines-adjacency topology and the quads GS (quads_gs.py), as zink draws them.
- GL_QUAD_STRIP, GL_POLYGON, GL_LINE_LOOP: their indices rewritten (primconvert.py) into quads,
  triangles (a polygon's outline in polygon mode LINE: its edges through the GS) and line strips;
  an array draw becomes an element draw of its generated indices (u_primconvert's way).
- Restart in a list topology: VK_EXT_primitive_topology_list_restart (`--vk-list-restart
  native`), or the runs split apart and their whole primitives joined without restart indices
  (`split`).
- A restart index other than the type's maximum: VK_EXT_primitive_restart_index
  (`--vk-restart-index native`, vkCmdSetPrimitiveRestartIndexEXT after the index buffer is bound),
  or the index rewritten to the maximum of a type wide enough that it is no vertex (`rewrite`).
  One above the type's maximum never equals an index value: restart is left off.
- 8-bit indices: VK_EXT_index_type_uint8 (`--vk-index-uint8 native`) or widened to 16 bits (`widen`).
The hazards (`--vk-without`): `list-restart` (restart indices dropped, runs joined),
`restart-index` (the chosen index left in place, Vulkan restarting at the maximum), `index-uint8`
(8-bit indices read as 16-bit ones), `quads-provoking` (the GS copies no provoking vertex's flat
outputs), `polygon-provoking` (a polygon's triangles in fan order whatever the convention).
Pure logic: the case's indices and the chosen paths come in; the runner records the result.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple, Sequence

from harness.backends import Skip
from harness.backends.vk import primconvert
from harness.backends.vk.program import ASSEMBLY_HAZARDS
from harness.base.config import VkIndexUint8, VkListRestart, VkRestartIndex
from harness.model import glfacts
from harness.model.case import Case, Draw, DrawEntry
from harness.model.glfacts import INDEX_TYPES

# The Vulkan backend's answer to GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION: its quads GS takes
# the convention's vertex (Table 13.2, 4i - 3 under FIRST), as zink's does.
QUADS_FOLLOW = 1
HAZARDS = ASSEMBLY_HAZARDS


@dataclass(frozen=True)
class Paths:
    """The paths chosen (paths.py) and the hazards planted."""
    list_restart: VkListRestart = VkListRestart.NATIVE      # VK_EXT_primitive_topology_list_restart, or split
    restart_index: VkRestartIndex = VkRestartIndex.NATIVE   # VK_EXT_primitive_restart_index, or rewrite
    index_uint8: VkIndexUint8 = VkIndexUint8.NATIVE         # VK_EXT_index_type_uint8, or widen
    without: frozenset[str] = frozenset()

    def rewrites(self, mode: str, restarted: bool) -> bool:
        """Whether a draw of `mode` becomes a list without restart (primconvert): a type Vulkan
        lacks, or a restarted list where the list-restart path splits the runs."""
        return mode in primconvert.REWRITTEN or (
            restarted and mode in primconvert.LIST_SIZE and self.list_restart == VkListRestart.SPLIT)


@dataclass(frozen=True)
class Assembly:
    """One GL draw as the layer records it."""
    draw: Draw                          # the command, entries and restart index as recorded
    topology: str                       # the GL mode whose Vulkan topology the pipeline takes
    gs: str = ""                        # the layer's GS kind (quads_gs.KINDS), "" for none
    provoking: int | None = None        # the GS's provoking input vertex (None: the hazard)
    restart: bool = False               # primitiveRestartEnable
    restart_index: int | None = None    # recorded through VK_EXT_primitive_restart_index
    indices: tuple[int, ...] | None = None   # the draw's own index values; None: the case's
    index_type: str = ""                # the GL type of the indices bound
    bind_as: str = ""                   # the type Vulkan reads them as (the `index-uint8` hazard)


def plan(draw: Draw, case_indices: Sequence[int], index_type: str, paths: Paths, first: bool,
         outline: bool = False) -> Assembly:
    """The draw's assembly. `first`: the pipeline draws with the first vertex provoking (GL's
    FIRST convention, or none chained); `outline`: polygon mode LINE on both faces."""
    if outline and draw.mode in ("QUADS", "QUAD_STRIP", "POLYGON") and "CULL_FACE" in draw.state.enable:
        raise Skip("the Vulkan layer's outline GS does not cull: polygon mode LINE with GL_CULL_FACE")
    indexed = draw.command in glfacts.ELEMENTS_COMMANDS
    top = INDEX_TYPES[index_type].fixed_restart if indexed else 0
    # GL compares the restart index with index values only; one above the type's maximum never matches.
    restart = draw.restart_index if indexed and draw.restart_index is not None and draw.restart_index <= top else None
    listed = draw.mode in primconvert.LIST_SIZE
    if paths.rewrites(draw.mode, restart is not None):
        return _rewritten(draw, case_indices, restart, paths, first, outline and draw.mode != "LINE_LOOP")
    shape = _Shape(draw.mode)
    if draw.mode == "QUADS":
        shape = _Shape("LINES_ADJACENCY", "quad-outline" if outline else "quads",
                       None if "quads-provoking" in paths.without else (0 if first else 3))
    if not indexed:                     # the case's indices, if any, stay bound as they are
        return Assembly(draw, *shape, index_type=index_type, bind_as=index_type)
    if restart is not None and listed and "list-restart" in paths.without:
        return _joined(draw, shape, case_indices, index_type)
    chosen = restart is not None and restart != top
    if chosen and "restart-index" in paths.without:
        return _bound(draw, shape, None, index_type, paths, restart=True)
    widen = index_type == "UNSIGNED_BYTE" and paths.index_uint8 == VkIndexUint8.WIDEN
    if (chosen and paths.restart_index == VkRestartIndex.REWRITE) or widen:
        narrowest = "UNSIGNED_SHORT" if widen else index_type
        rewritten, wide = primconvert.restart_at_maximum(case_indices, restart, narrowest)
        return Assembly(draw, *shape, restart is not None, None, tuple(rewritten), wide, wide)
    return _bound(draw, shape, restart if chosen else None, index_type, paths, restart=restart is not None)


class _Shape(NamedTuple):
    """The topology, the layer's GS and its provoking input vertex (Assembly's fields)."""
    topology: str
    gs: str = ""
    provoking: int | None = None


def _bound(draw: Draw, shape: _Shape, restart_index: int | None, index_type: str, paths: Paths,
           restart: bool) -> Assembly:
    """The case's own index buffer, bound as its type (the hazard: 8-bit as 16-bit)."""
    bind_as = "UNSIGNED_SHORT" if index_type == "UNSIGNED_BYTE" and "index-uint8" in paths.without else index_type
    return Assembly(draw, *shape, restart, restart_index, None, index_type, bind_as)


def _joined(draw: Draw, shape: _Shape, case_indices: Sequence[int], index_type: str) -> Assembly:
    """The `list-restart` hazard: each entry's restart indices dropped, its runs joined."""
    values: list[int] = []
    entries = []
    for e in draw.entries:
        part = primconvert.joined(case_indices[e.first:e.first + e.count], draw.restart_index)
        entries.append(replace(e, first=len(values), count=len(part)))
        values += part
    recorded = replace(draw, entries=tuple(entries), indirect_stride=0, indirect_offset=0)
    wide = "UNSIGNED_SHORT" if index_type == "UNSIGNED_BYTE" else index_type
    return Assembly(recorded, *shape, False, None, tuple(values), wide, wide)


def _rewritten(draw: Draw, case_indices: Sequence[int], restart: int | None, paths: Paths, first: bool,
               outline: bool) -> Assembly:
    """Every entry's primitives rewritten (primconvert.convert) into one 32-bit index list, the
    entries pointing into it; an array draw becomes the element draw of its vertices' indices."""
    indexed = draw.command in glfacts.ELEMENTS_COMMANDS
    out_mode = primconvert.output_mode(draw.mode, outline)
    values: list[int] = []
    entries = []
    for e in draw.entries:
        source = case_indices[e.first:e.first + e.count] if indexed else range(e.first, e.first + e.count)
        part = primconvert.convert(draw.mode, list(source), restart, first, outline,
                                   "polygon-provoking" not in paths.without)
        entries.append(DrawEntry(len(part), e.instance_count, len(values), e.base_vertex if indexed else 0,
                                 e.base_instance))
        values += part
    recorded = replace(draw, command=draw.command.replace("Arrays", "Elements"), entries=tuple(entries),
                       indirect_stride=0, indirect_offset=0)
    shape = _Shape(out_mode)
    if out_mode == "QUADS":     # a quad strip's quads, GL's provoking vertex first or last (rewrite_run)
        shape = _Shape("LINES_ADJACENCY", "quad-outline" if outline else "quads",
                       None if "quads-provoking" in paths.without else (0 if first else 3))
    elif out_mode == primconvert.POLYGON_EDGES:
        shape = _Shape("LINES_ADJACENCY", "edges", 0)
    return Assembly(recorded, *shape, out_mode == "LINE_STRIP", None, tuple(values),
                    primconvert.OUTPUT_TYPE, primconvert.OUTPUT_TYPE)


def needs(case: Case, paths: Paths) -> list[str]:
    """The device features (Device.has) the case's draws take in these paths; Skip where the
    layer's conversions cannot take a draw (captured varyings, a program's own GS or TES)."""
    out = []
    programs = (case.shaders,) + tuple(case.programs)
    for d in case.draws():
        indexed = d.command in glfacts.ELEMENTS_COMMANDS
        index_type = case.index_type_of(d)
        top = INDEX_TYPES[index_type].fixed_restart if indexed else 0
        restart_index = d.restart(index_type)
        restart = indexed and restart_index is not None and restart_index <= top
        listed = d.mode in primconvert.LIST_SIZE
        rewritten = paths.rewrites(d.mode, restart)
        if indexed and not rewritten and index_type == "UNSIGNED_BYTE" and paths.index_uint8 == VkIndexUint8.NATIVE \
                and "index-uint8" not in paths.without:
            out.append("uint8_indices")
        if restart and d.mode == "PATCHES":
            out.append("patch_restart")
        elif restart and listed and not rewritten and "list-restart" not in paths.without:
            out.append("list_restart")
        if d.mode in primconvert.REWRITTEN or d.mode == "QUADS":
            stages = dict(programs[d.program])
            # a line loop's rewritten line strips reach a program's own GS as the loop's segments
            # (lines), in the same order: gl_PrimitiveIDIn counts them as GL counts the loop's
            if case.readback.captures or "tes" in stages or ("gs" in stages and d.mode != "LINE_LOOP"):
                raise Skip(f"the Vulkan layer converts GL_{d.mode} for a VS and FS alone (no captured "
                           "varyings, no program TES, a program GS only for line loops)")
            if d.mode != "LINE_LOOP":
                out.append("geometry")
    return sorted(set(out))
