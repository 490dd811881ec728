"""Where each vertex of a run goes on screen, and which pixels tell each primitive's flat value.

Every run (a restart-separated piece of a sub-draw) has a band of its own, BAND pixels high. The
shapes keep primitives apart: no two primitives cover a sampled pixel, and every sampled pixel's
centre lies at least MARGIN pixels inside its primitive (a filled shape) or on an axis-aligned
segment between pixel centres (a line, an edge in polygon mode LINE), so that no rasterization
rule the spec leaves open decides a value. `check` proves this for every case the family makes.
Coordinates are window coordinates, origin at the lower left, vertices at pixel centres.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from harness.oracle.primitives import Primitive

BAND = 32             # pixels between the bands of two runs
MARGIN = 1.0          # pixels between a sampled pixel's centre and its filled primitive's edges
Point = tuple[float, float]


def _strip(k: int) -> Point:
    """Zigzag: even positions along the bottom, odd along the top, 12 pixels apart."""
    return 1.5 + 12 * (k // 2), 2.5 + 12 * (k % 2)


def _staircase(k: int, n: int) -> Point:
    """A rectilinear closed outline of n (even) corners: every segment, the closing one
    included, is axis-aligned and the outline does not cross itself."""
    m = n // 2
    if k == 0:
        x, y = 0, 0
    elif k == n - 1:
        x, y = 0, 12 * (m - 1)
    else:
        j = (k + 1) // 2
        x, y = 12 * j, 12 * (j - 1) if k % 2 else 12 * j
    return 2.5 + x, 2.5 + y


def _rectangle(k: int, n: int) -> Point:
    """A convex n-gon (n >= 4) whose edges are all axis-aligned: a rectangle with the extra
    corners on its bottom and top edges, counter-clockwise."""
    if n < 4:                               # a right triangle (a polygon of 3), or nothing drawn
        return [(2.5, 2.5), (26.5, 2.5), (2.5, 20.5)][k]
    bottom = n // 2
    top = n - bottom
    if k < bottom:
        return 2.5 + k * 24 / (bottom - 1), 2.5
    j = k - bottom
    return 2.5 + 24 - j * 24 / (top - 1), 20.5


def position(mode: str, k: int, n: int, back: bool = False) -> Point:
    """Run position k of a run of n vertices of `mode`. `back`: independent triangles and
    quads alternate their winding (odd ones clockwise), for front and back polygon modes."""
    if mode == "POINTS":
        return 4.5 + 8 * k, 8.5
    if mode == "LINES":
        return 2.5 + 16 * (k // 2) + 11 * (k % 2), 8.5
    if mode == "LINE_STRIP":
        return 2.5 + 12 * k, 8.5
    if mode == "LINE_LOOP":
        return _staircase(k, n)
    if mode == "LINES_ADJACENCY":       # the adjacent vertices sit on the line's own ends
        return position("LINES", 2 * (k // 4) + (0 if k % 4 < 2 else 1), 0)
    if mode == "LINE_STRIP_ADJACENCY":
        return position("LINE_STRIP", min(max(k - 1, 0), n - 3), 0)
    if mode == "TRIANGLES":
        corner = [(0, 0), (12, 0), (0, 12)][k % 3]
        if back and (k // 3) % 2:
            corner = [(0, 0), (0, 12), (12, 0)][k % 3]
        return 1.5 + 16 * (k // 3) + corner[0], 2.5 + corner[1]
    if mode == "TRIANGLES_ADJACENCY":
        return position("TRIANGLES", 3 * (k // 6) + (k % 6) // 2, 0)
    if mode == "TRIANGLE_STRIP":
        return _strip(k)
    if mode == "TRIANGLE_STRIP_ADJACENCY":      # odd positions are adjacent vertices: beside the next
        return _strip(min(k // 2 + k % 2, (n - 1) // 2))
    if mode == "TRIANGLE_FAN":                  # a half disc: the hub, then the rim anticlockwise
        if k == 0:
            return 40.5, 2.5
        angle = math.pi * (k - 1) / max(1, n - 2)
        return 40.5 + 28 * math.cos(angle), 2.5 + 28 * math.sin(angle)
    if mode == "QUADS":
        corner = [(0, 0), (12, 0), (12, 12), (0, 12)][k % 4]
        if back and (k // 4) % 2:
            corner = [(0, 0), (0, 12), (12, 12), (12, 0)][k % 4]
        return 1.5 + 16 * (k // 4) + corner[0], 2.5 + corner[1]
    if mode == "QUAD_STRIP":
        return _strip(k)
    if mode == "POLYGON":
        return _rectangle(k, n)
    raise ValueError(f"no layout for GL_{mode}")


@dataclass(frozen=True)
class Sample:
    pixel: tuple[int, int]            # (x, y) in the band
    what: str                         # how messages name it: "inside", "edge 1-2", "vertex 3"
    drawn: bool = True                # False: nothing of this primitive may reach it (polygon mode)


def _pixel(p: Point) -> tuple[int, int]:
    return int(math.floor(p[0])), int(math.floor(p[1]))


def _centroid(points: list[Point]) -> Point:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def samples(primitive: Primitive, corners: list[Point], polygon_mode: str,
            boundary: list[bool] | None = None) -> list[Sample]:
    """The pixels that tell this primitive's flat value. `corners`: the positions of its
    rasterized vertices, in order. In polygon mode LINE and POINT (triangles, quads, polygons),
    the edges and corners that are axis-aligned and the inside, which must stay clear.
    `boundary`: each corner's edge flag; 14.6.4: LINE "causes edges that are tagged as boundary
    to be rasterized", POINT draws the vertices "tagged as having a polygon boundary edge
    beginning on them"; the others stay clear."""
    boundary = boundary or [True] * len(corners)
    if primitive.kind == "point":
        return [Sample(_pixel(corners[0]), "the point")]
    if primitive.kind == "line":
        return [Sample(_pixel(_centroid(corners)), "the line's middle")]
    centre = _centroid(corners)
    if polygon_mode == "LINE":
        edges = [(i, (i + 1) % len(corners)) for i in range(len(corners))]
        return [Sample(_pixel(_centroid([corners[a], corners[b]])), f"edge {a}-{b}", drawn=boundary[a])
                for a, b in edges if corners[a][0] == corners[b][0] or corners[a][1] == corners[b][1]] + \
               [Sample(_pixel(centre), "inside", drawn=False)]
    if polygon_mode == "POINT":
        return [Sample(_pixel(c), f"vertex {i}", drawn=boundary[i]) for i, c in enumerate(corners)] + \
               [Sample(_pixel(centre), "inside", drawn=False)]
    if primitive.kind == "triangle":
        return [Sample(_pixel(centre), "inside")]
    # a quad or polygon: near each edge's middle and the centre, so that both triangles of any
    # split of a quad, and several of a polygon's, are sampled
    mids = [_centroid([corners[i], corners[(i + 1) % len(corners)]]) for i in range(len(corners))]
    inner = [(centre[0] + 0.6 * (m[0] - centre[0]), centre[1] + 0.6 * (m[1] - centre[1])) for m in mids]
    return [Sample(_pixel(centre), "inside")] + [Sample(_pixel(p), f"inside, by edge {i}")
                                                   for i, p in enumerate(inner)]


# -- the proof that a layout decides every sampled pixel ----------------------------------------

def signed_area(polygon: list[Point]) -> float:
    """Twice the polygon's area, positive counter-clockwise (GL's initial front face)."""
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(polygon, polygon[1:] + polygon[:1]))


def _inside_by(p: Point, polygon: list[Point]) -> float:
    """The distance from p to the nearest edge of a convex polygon, negative outside (any
    winding; collinear corners allowed)."""
    sign = 1 if signed_area(polygon) > 0 else -1
    best = math.inf
    for a, b in zip(polygon, polygon[1:] + polygon[:1]):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length == 0:
            continue
        best = min(best, sign * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length)
    return best


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    """p is a pixel centre strictly between a and b on an axis-aligned segment through pixel
    centres, at least one pixel from either end."""
    if a[1] == b[1] == p[1]:
        return min(a[0], b[0]) + 1 <= p[0] <= max(a[0], b[0]) - 1
    if a[0] == b[0] == p[0]:
        return min(a[1], b[1]) + 1 <= p[1] <= max(a[1], b[1]) - 1
    return False


def check(shapes: list[tuple[Primitive, list[Point], list[Sample]]]) -> None:
    """Every sample of filled primitives, lines and points lies well inside its own primitive
    (on its segment, at its point) and away from every other filled one. Raises ValueError
    naming the first that does not."""
    for number, (primitive, corners, picks) in enumerate(shapes):
        for pick in picks:
            centre = (pick.pixel[0] + 0.5, pick.pixel[1] + 0.5)
            if pick.drawn:
                if primitive.kind == "point" or pick.what.startswith("vertex"):
                    ok = any(c == centre for c in corners)
                elif primitive.kind == "line" or pick.what.startswith("edge"):
                    ok = any(_on_segment(centre, corners[i], corners[(i + 1) % len(corners)])
                             for i in range(len(corners)))
                else:
                    ok = _inside_by(centre, corners) >= MARGIN
                if not ok:
                    raise ValueError(f"primitive {number}: {pick.what} at {pick.pixel} is not decided")
            for other, (o_primitive, o_corners, _) in enumerate(shapes):
                if other == number or o_primitive.kind in ("point", "line"):
                    continue
                if len(o_corners) >= 3 and _inside_by(centre, o_corners) > -MARGIN and pick.drawn:
                    raise ValueError(f"primitive {number}: {pick.what} at {pick.pixel} is near primitive {other}")
