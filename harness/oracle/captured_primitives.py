"""Transform-feedback records read as whole primitives (OpenGL 4.6 compatibility, 13.3.2).

What the spec fixes and what it leaves open:
- The primitives come in the order they are assembled, their vertices appended one after the
  other ("The attributes of the first vertex received after BeginTransformFeedback are written
  at the starting offsets ..., and subsequent vertex attributes are appended").
- "Individual lines or triangles of a strip or fan primitive will be extracted and recorded
  separately. Incomplete primitives are not recorded."
- Which vertex of a line or triangle comes first is not fixed by any transform-feedback text:
  a recorded primitive may start at any of its vertices, in the order of assembly (10.1), which
  fixes its winding.
- The provoking vertex: Vulkan's VK_EXT_provoking_vertex (its appendix's Issues, question 2) states what GL requires of a
  layer: "All of OpenGL, OpenGL ES, and Direct3D 11 require that vertices are written to
  transform feedback buffers such that flat-shaded attributes have the same value when drawing
  the contents of the transform feedback buffer as they did in the original drawing": written
  first under the first vertex convention, last under the last.
- "When quads and polygons are provided to transform feedback with a primitive mode of
  TRIANGLES, they will be tessellated and recorded as triangles (the order of tessellation
  within a primitive is undefined)": any triangulation of the polygon's vertices, in any order.
Pure functions over decoded records.
"""
from __future__ import annotations

from itertools import combinations
from typing import Sequence

import numpy as np

from harness.model.expectations import CapturedPrimitive, PrimitiveCapture

SHOWN = 3                                  # problems named one by one; the rest are counted


def check(capture: PrimitiveCapture, records: np.ndarray, label: str) -> list[str]:
    """The records against the expected primitives, in order."""
    ids = [int(v) for v in np.asarray(records[capture.quantity]).reshape(len(records), -1)[:, 0]]
    problems: list[str] = []
    position = 0
    for primitive in capture.primitives:
        count = capture.size * (primitive.triangles or 1)
        got = ids[position:position + count]
        if len(got) < count:
            problems.append(f"{label}: {primitive.label}: {len(got)} of its {count} records captured "
                            f"({len(ids)} records in all, {_total(capture)} expected)")
            break
        position += count
        why = _triangulation(primitive, got) if primitive.triangles else _one(capture, primitive, got)
        if why:
            problems.append(f"{label}: {primitive.label} (vertices {_ids(primitive.vertices)}): recorded "
                            f"{capture.quantity} {_ids(got)}, {why}")
    if position < len(ids) and len(problems) == 0:
        problems.append(f"{label}: {len(ids) - position} records after the last expected primitive, "
                        f"{capture.quantity} {_ids(ids[position:position + 6])}...")
    if len(problems) > SHOWN:
        problems = problems[:SHOWN] + [f"{label}: {len(problems) - SHOWN} more primitives recorded wrongly"]
    return problems


def _total(capture: PrimitiveCapture) -> int:
    return sum(capture.size * (p.triangles or 1) for p in capture.primitives)


def _ids(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def _one(capture: PrimitiveCapture, primitive: CapturedPrimitive, got: Sequence[int]) -> str:
    """A point, line or triangle: a rotation of its assembly order, its provoking vertex where
    the convention puts it."""
    want = list(primitive.vertices)
    rotations = [want[k:] + want[:k] for k in range(len(want))]
    if list(got) not in rotations:
        return f"expected {_ids(want)} starting at any vertex (the order of 10.1)"
    if primitive.provoking < 0:
        return ""
    provoking = want[primitive.provoking]
    place = 0 if capture.convention == "first" else len(want) - 1
    if got[place] != provoking:
        return (f"expected the provoking vertex {provoking} written {capture.convention} (the "
                f"{capture.convention} vertex convention), so that a replay shades as the draw did")
    return ""


def _triangulation(primitive: CapturedPrimitive, got: Sequence[int]) -> str:
    """Quads and polygons: `triangles` triangles of the polygon's vertices that tile it: each
    side of the polygon in one triangle, each diagonal in two, no two diagonals crossing."""
    ring = {v: k for k, v in enumerate(primitive.vertices)}
    n = len(ring)
    triangles = [got[k:k + 3] for k in range(0, len(got), 3)]
    if any(v not in ring for v in got) or any(len(set(t)) != 3 for t in triangles):
        return f"expected {primitive.triangles} triangles of three distinct vertices among {_ids(primitive.vertices)}"
    uses: dict[tuple[int, int], int] = {}
    for triangle in triangles:
        for a, b in combinations(sorted(ring[v] for v in triangle), 2):
            uses[(a, b)] = uses.get((a, b), 0) + 1
    sides = {(k, k + 1) for k in range(n - 1)} | {(0, n - 1)}
    diagonals = [edge for edge in uses if edge not in sides]
    whole = all(uses.get(side) == 1 for side in sides) and all(uses[d] == 2 for d in diagonals)
    crossing = any(a < c < b < d or c < a < d < b for (a, b), (c, d) in combinations(diagonals, 2))
    if not whole or crossing:
        return f"which is no triangulation of the {n}-sided polygon {_ids(primitive.vertices)}"
    return ""
