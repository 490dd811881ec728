"""Index rewriting for what Vulkan cannot draw as GL gives it, as Gallium's u_indices and
u_primconvert do for zink: quad strips, polygons and line loops (no Vulkan topology), restart
in list topologies without VK_EXT_primitive_topology_list_restart, a restart index other than
the type's maximum without VK_EXT_primitive_restart_index, and 8-bit indices without
VK_EXT_index_type_uint8.

Pure functions over index values as GL compares them (before the base vertex is added; an
array draw's values are first, first + 1, ...). A run is a piece between restart indices
(GL 4.6 compatibility 10.3.6: "as if the drawing command had been called again"); each run
is rewritten on its own, so restart inside a converted primitive splits it as GL does, and
the pieces are joined in one list, so that gl_PrimitiveID counts on across restarts (15.2.2:
restart "has no effect on the primitive ID counter"), as a single GL draw's does.
"""
from __future__ import annotations

from collections.abc import Sequence

from harness.model.glfacts import INDEX_TYPES

# List topologies: a run keeps its whole primitives, the trailing incomplete one dropped (10.1).
LIST_SIZE = {"POINTS": 1, "LINES": 2, "TRIANGLES": 3, "QUADS": 4, "LINES_ADJACENCY": 4, "TRIANGLES_ADJACENCY": 6}
REWRITTEN = frozenset({"QUAD_STRIP", "POLYGON", "LINE_LOOP"})     # no Vulkan topology: always rewritten
# A polygon's outline (polygon mode LINE): each edge (a, b) as a lines-adjacency primitive
# (p, a, b, p) whose adjacent vertices carry the provoking vertex p to the layer's GS (quads_gs.py).
POLYGON_EDGES = "POLYGON_EDGES"
WIDTHS = ("UNSIGNED_BYTE", "UNSIGNED_SHORT", "UNSIGNED_INT")
OUTPUT_TYPE = "UNSIGNED_INT"            # a rewritten draw's indices, as u_primconvert's 32-bit ones
STRIP_RESTART = INDEX_TYPES[OUTPUT_TYPE].fixed_restart    # between the line strips of a loop's runs


def runs(values: Sequence[int], restart: int | None) -> list[list[int]]:
    """The index values of each run: the restart index ends one and is no vertex."""
    out: list[list[int]] = [[]]
    for v in values:
        if restart is not None and v == restart:
            out.append([])
        else:
            out[-1].append(v)
    return out


def output_mode(mode: str, outline: bool = False) -> str:
    """What a mode is drawn as once rewritten: quad strips as quads (the quads GS), polygons as
    triangles (their outline, polygon mode LINE, as POLYGON_EDGES), line loops as line strips;
    every other mode as itself (restart removed)."""
    if mode == "POLYGON":
        return POLYGON_EDGES if outline else "TRIANGLES"
    return {"QUAD_STRIP": "QUADS", "LINE_LOOP": "LINE_STRIP"}.get(mode, mode)


def rewrite_run(mode: str, run: Sequence[int], first: bool, outline: bool = False, polygon_order: bool = True) -> list[int]:
    """One run's primitives in output_mode(mode). `first`: the provoking vertex the output is
    drawn with is each primitive's first (else its last), so that the order puts GL's provoking
    vertex (Table 13.2) there. `polygon_order` False (the `polygon-provoking` hazard): a
    polygon's triangles in fan order (0, k+1, k+2) whatever `first` is."""
    n = len(run)
    if mode in LIST_SIZE:
        return list(run[:n - n % LIST_SIZE[mode]])
    out: list[int] = []
    if mode == "QUAD_STRIP":
        # 10.1.9: quad k is v2k, v2k+1, v2k+3, v2k+2 (0-based); its provoking vertex is v2k
        # (first, QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION TRUE) or v2k+3 (last): rotated so it
        # is the quad's first or last, the winding kept.
        for k in range(max(0, (n - 2) // 2)):
            a, b, c, d = run[2 * k], run[2 * k + 1], run[2 * k + 3], run[2 * k + 2]
            out += [a, b, c, d] if first else [d, a, b, c]
    elif mode == "POLYGON" and n >= 3:
        # Table 13.2: vertex 1 (0-based 0) provokes a polygon under either convention.
        if outline:
            for i in range(n):
                out += [run[0], run[i], run[(i + 1) % n], run[0]]
        else:
            for k in range(n - 2):
                fan = [run[0], run[k + 1], run[k + 2]]
                out += fan if first or not polygon_order else fan[1:] + fan[:1]
    elif mode == "LINE_LOOP" and n >= 2:
        out = list(run) + [run[0]]          # the closing segment: its last vertex is vertex 1
    elif mode not in ("QUAD_STRIP", "POLYGON", "LINE_LOOP"):
        raise ValueError(f"GL_{mode} is not rewritten (its Vulkan topology takes it)")
    return out


def convert(mode: str, values: Sequence[int], restart: int | None, first: bool, outline: bool = False,
            polygon_order: bool = True) -> list[int]:
    """A draw's (one sub-draw's) index values rewritten into output_mode(mode), without restart
    indices: line strips apart are joined by STRIP_RESTART, the only restart left."""
    pieces = [p for p in (rewrite_run(mode, r, first, outline, polygon_order) for r in runs(values, restart)) if p]
    if output_mode(mode, outline) == "LINE_STRIP":
        out: list[int] = []
        for i, piece in enumerate(pieces):
            out += ([STRIP_RESTART] if i else []) + piece
        return out
    return [v for piece in pieces for v in piece]


def joined(values: Sequence[int], restart: int | None) -> list[int]:
    """The `list-restart` hazard: the restart indices dropped and the runs joined into one, as a
    layer that neither enables list restart nor splits would draw them."""
    return [v for v in values if restart is None or v != restart]


def restart_at_maximum(values: Sequence[int], restart: int | None, index_type: str) -> tuple[list[int], str]:
    """Index values whose restart index is their type's maximum, the one Vulkan restarts at
    without VK_EXT_primitive_restart_index: the narrowest type from `index_type` up whose
    maximum is no real index value, the restart index rewritten to it. Widening 8-bit indices
    to 16 bits (without VK_EXT_index_type_uint8) is the same with `index_type` UNSIGNED_SHORT."""
    real = {v for v in values if v != restart}
    width = WIDTHS.index(index_type)
    while restart is not None and INDEX_TYPES[WIDTHS[width]].fixed_restart in real:
        if width == len(WIDTHS) - 1:
            raise ValueError("every 32-bit index value is a vertex: no restart index is left")
        width += 1
    wide = WIDTHS[width]
    top = INDEX_TYPES[wide].fixed_restart
    return [top if restart is not None and v == restart else v for v in values], wide
