"""Reference model of primitive assembly (OpenGL 4.6 compatibility profile, chapter 10.1 and the
Flatshading section 13.6): which vertices of a draw make which primitive, and which vertex of
each primitive provokes its flat-shaded values.

A draw transfers a sequence of vertices. Primitive restart splits it into runs ("as if the
drawing command had been called again", 10.3.6); instances and the sub-draws of a multi-draw
are runs of their own (10.4: each is a DrawArraysOneInstance / DrawElementsOneInstance call).
Within a run, `assemble` lists the primitives of a mode: the positions (0-based, in the run) of
the vertices that are rasterized, in the spec's order, and the provoking position under each
convention. Trailing vertices that complete no primitive make none (each rule of 10.1 counts
whole primitives only; 13.3.2: "Incomplete primitives are not recorded"). Pure functions, no
state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

# Table 13.2 (GL 4.6 compatibility, "Provoking vertex selection"; ARB_provoking_vertex), with
# the spec's 1-based primitive number i and vertex numbers rewritten 0-based (k = i - 1):
#
#   primitive type of polygon i     first vertex convention   last vertex convention
#   point                           i                         i
#   independent line                2i - 1                    2i
#   line loop                       i                         i + 1, if i < n; 1, if i = n
#   line strip                      i                         i + 1
#   independent triangle            3i - 2                    3i
#   triangle strip                  i                         i + 2
#   triangle fan                    i + 1                     i + 2
#   independent quad                4i - 3 (a)                4i
#   quad strip                      2i - 1 (a)                2i + 2
#   single polygon                  1                         1
#   line adjacency                  4i - 2                    4i - 1
#   line strip adjacency            i + 1                     i + 2
#   triangle adjacency              6i - 5                    6i - 1
#   triangle strip adjacency        2i - 1                    2i + 3
#
# (a) "If the value of QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION is TRUE, the provoking vertex of
# an independent quad or a quad strip follows the convention; otherwise it is the last vertex
# (4i or 2i + 2) under either convention."

MODES = ("POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN",
         "QUADS", "QUAD_STRIP", "POLYGON", "LINES_ADJACENCY", "LINE_STRIP_ADJACENCY",
         "TRIANGLES_ADJACENCY", "TRIANGLE_STRIP_ADJACENCY")
COMPAT_MODES = frozenset({"QUADS", "QUAD_STRIP", "POLYGON"})     # removed from the core profile
# What a primitive of each mode is once assembled, as rasterization and transform feedback see it.
KIND = {"POINTS": "point", "LINES": "line", "LINE_LOOP": "line", "LINE_STRIP": "line",
        "LINES_ADJACENCY": "line", "LINE_STRIP_ADJACENCY": "line", "TRIANGLES": "triangle",
        "TRIANGLE_STRIP": "triangle", "TRIANGLE_FAN": "triangle", "TRIANGLES_ADJACENCY": "triangle",
        "TRIANGLE_STRIP_ADJACENCY": "triangle", "QUADS": "quad", "QUAD_STRIP": "quad", "POLYGON": "polygon"}


@dataclass(frozen=True)
class Primitive:
    """One assembled primitive of a run."""
    number: int                       # k: 0-based, within the run
    vertices: tuple[int, ...]         # run positions of the vertices rasterized, in the spec's order
    first: int                        # the provoking position under FIRST_VERTEX_CONVENTION
    last: int                         # ... under LAST_VERTEX_CONVENTION
    kind: str                         # point, line, triangle, quad or polygon

    def provoking(self, convention: str, quads_follow: bool = True) -> int:
        """The provoking position under `convention` ("first" or "last")."""
        if convention == "first" and (self.kind != "quad" or quads_follow):
            return self.first
        return self.last


Rule = Callable[[int], list[tuple[tuple[int, ...], int, int]]]   # run length -> (vertices, first, last)


def _each(size: int, drawn: Callable[[int], tuple[int, ...]], first: Callable[[int], int],
          last: Callable[[int], int]) -> Rule:
    """Independent primitives of `size` vertices each."""
    return lambda n: [(drawn(k), first(k), last(k)) for k in range(n // size)]


def _loop(n: int) -> list[tuple[tuple[int, ...], int, int]]:
    # the final segment joins vertex n to vertex 1; its provoking vertex is n under the first
    # convention and 1 under the last (Table 13.2: "i + 1, if i < n; 1, if i = n")
    if n < 2:
        return []
    segments: list[tuple[tuple[int, ...], int, int]] = [((k, k + 1), k, k + 1) for k in range(n - 1)]
    return segments + [((n - 1, 0), n - 1, 0)]


RULES: dict[str, Rule] = {
    "POINTS": _each(1, lambda k: (k,), lambda k: k, lambda k: k),
    "LINES": _each(2, lambda k: (2 * k, 2 * k + 1), lambda k: 2 * k, lambda k: 2 * k + 1),
    "LINE_LOOP": _loop,
    "LINE_STRIP": lambda n: [((k, k + 1), k, k + 1) for k in range(n - 1)],
    "TRIANGLES": _each(3, lambda k: (3 * k, 3 * k + 1, 3 * k + 2), lambda k: 3 * k, lambda k: 3 * k + 2),
    # 10.1.6: "Any vertex after the second one sent forms a triangle from vertex A, vertex B, and
    # the current vertex (in that order)", the pointer toggling between A and B: odd triangles
    # are (k + 1, k, k + 2), so every triangle keeps the first one's winding
    "TRIANGLE_STRIP": lambda n: [((k + k % 2, k + 1 - k % 2, k + 2), k, k + 2) for k in range(n - 2)],
    # 10.1.7: "each vertex after the first always replaces vertex B of the two stored vertices"
    "TRIANGLE_FAN": lambda n: [((0, k + 1, k + 2), k + 1, k + 2) for k in range(n - 2)],
    "QUADS": _each(4, lambda k: (4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3), lambda k: 4 * k, lambda k: 4 * k + 3),
    # 10.1.9: "quad i has vertices (in order) v2i, v2i+1, v2i+3, and v2i+2" (0-based)
    "QUAD_STRIP": lambda n: [((2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2), 2 * k, 2 * k + 3)
                             for k in range(max(0, (n - 2) // 2))],
    "POLYGON": lambda n: [(tuple(range(n)), 0, 0)] if n >= 3 else [],
    # 10.1.11-14, with adjacency: without a geometry shader only the main vertices are drawn
    "LINES_ADJACENCY": _each(4, lambda k: (4 * k + 1, 4 * k + 2), lambda k: 4 * k + 1, lambda k: 4 * k + 2),
    "LINE_STRIP_ADJACENCY": lambda n: [((k + 1, k + 2), k + 1, k + 2) for k in range(n - 3)],
    "TRIANGLES_ADJACENCY": _each(6, lambda k: (6 * k, 6 * k + 2, 6 * k + 4), lambda k: 6 * k, lambda k: 6 * k + 4),
    "TRIANGLE_STRIP_ADJACENCY": lambda n: [((2 * k, 2 * k + 2, 2 * k + 4), 2 * k, 2 * k + 4)
                                           for k in range(max(0, (n - 4) // 2))],
}


def assemble(mode: str, n: int) -> list[Primitive]:
    """The primitives a run of `n` vertices of `mode` makes."""
    if mode not in RULES:
        raise ValueError(f"unknown primitive mode {mode!r} (one of {', '.join(MODES)})")
    return [Primitive(k, drawn, first, last, KIND[mode]) for k, (drawn, first, last) in enumerate(RULES[mode](n))]


def runs(indices: Sequence[int], restart_index: int | None) -> list[list[int]]:
    """The element positions of each run of an element draw: the restart index ends a run and
    is itself no vertex (10.3.6, "the index is compared before the base vertex is added")."""
    out: list[list[int]] = [[]]
    for position, index in enumerate(indices):
        if restart_index is not None and index == restart_index:
            out.append([])
        else:
            out[-1].append(position)
    return out
