"""Reference model of the tessellation primitive generator (OpenGL 4.6, section 11.2.2).

Counts only: for one patch, given the domain, the spacing and the tessellation levels the
control shader wrote, say whether the patch is discarded, how many segments each edge and
each inner level is cut into, how many primitives come out and how many distinct vertices.
Standard library only; pure functions, no state.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal, Sequence

Domain = Literal["triangles", "quads", "isolines"]
Spacing = Literal["equal_spacing", "fractional_even_spacing", "fractional_odd_spacing"]

DOMAINS: tuple[str, ...] = ("triangles", "quads", "isolines")
SPACINGS: tuple[str, ...] = ("equal_spacing", "fractional_even_spacing", "fractional_odd_spacing")

# (outer levels used, inner levels used) per domain.
_USED = {"triangles": (3, 1), "quads": (4, 2), "isolines": (2, 0)}


@dataclass(frozen=True)
class Tessellation:
    """What the primitive generator makes of one patch (counts only).

    A discarded patch has empty ``outer`` and ``inner`` and zero primitives and points.
    """

    discarded: bool          # patch discarded (no primitives)
    outer: tuple[int, ...]   # effective segment count per used outer edge
    inner: tuple[int, ...]   # effective inner segment counts
    primitives: int          # triangles (triangles/quads), line segments (isolines)
    points: int              # distinct vertices generated (= primitives in point mode)


def used_levels(domain: Domain) -> tuple[int, int]:
    """(number of outer, number of inner) tessellation levels the domain uses."""
    try:
        return _USED[domain]
    except KeyError:
        raise ValueError(f"unknown tessellation domain {domain!r}") from None


def round_level(level: float, spacing: Spacing, max_level: int = 64) -> int:
    """Clamp and round one (non-discarding) level to a segment count, per the spacing.

    A NaN or below-minimum level clamps to the minimum; callers check outer levels for
    discard first.
    """
    if math.isnan(level):
        level = -math.inf  # NaN inner levels clamp to the minimum
    if spacing == "equal_spacing":
        # Clamp to [1, max], round up to the next integer.
        return math.ceil(min(max(level, 1.0), max_level))
    if spacing == "fractional_even_spacing":
        # Clamp to [2, max], round up to the next even integer.
        return 2 * math.ceil(min(max(level, 2.0), max_level) / 2)
    if spacing == "fractional_odd_spacing":
        # Clamp to [1, max - 1], round up to the next odd integer.
        return 2 * math.ceil((min(max(level, 1.0), max_level - 1) - 1) / 2) + 1
    raise ValueError(f"unknown tessellation spacing {spacing!r}")


def tessellate(domain: Domain, spacing: Spacing, outer: Sequence[float],
               inner: Sequence[float], max_level: int = 64) -> Tessellation:
    """Model the primitive generator for one patch; see the module docstring."""
    n_outer, n_inner = used_levels(domain)
    if spacing not in SPACINGS:
        raise ValueError(f"unknown tessellation spacing {spacing!r}")
    if max_level < 2:
        raise ValueError(f"max_level must be at least 2, got {max_level}")
    if len(outer) < n_outer or len(inner) < n_inner:
        raise ValueError(f"{domain} needs {n_outer} outer and {n_inner} inner levels, "
                         f"got {len(outer)} and {len(inner)}")
    outer_f = [float(x) for x in outer[:n_outer]]
    inner_f = [float(x) for x in inner[:n_inner]]

    # A patch is discarded if any outer level it uses is <= 0 or NaN; inner levels never discard.
    if any(math.isnan(x) or x <= 0.0 for x in outer_f):
        return Tessellation(True, (), (), 0, 0)

    if domain == "isolines":
        return _isolines(spacing, outer_f, max_level)
    o = tuple(round_level(x, spacing, max_level) for x in outer_f)
    n = tuple(round_level(x, spacing, max_level) for x in inner_f)
    if domain == "triangles":
        return _triangles(spacing, o, n[0])
    return _quads(spacing, o, n)


def primitives_generated(domain: Domain, spacing: Spacing, point_mode: bool,
                         outer: Sequence[float], inner: Sequence[float],
                         max_level: int = 64) -> int:
    """Primitives one patch emits: points in point mode, else triangles or lines; 0 if discarded."""
    t = tessellate(domain, spacing, outer, inner, max_level)
    return t.points if point_mode else t.primitives


def _bump_one(level: int, spacing: Spacing) -> int:
    # An inner level of exactly 1 (after clamping) is treated as 1 + epsilon: it rounds up to
    # 2 segments (equal, fractional_even) or 3 (fractional_odd).
    if level != 1:
        return level
    return 3 if spacing == "fractional_odd_spacing" else 2


def _isolines(spacing: Spacing, outer: list[float], max_level: int) -> Tessellation:
    # outer[0] (number of lines) always uses equal_spacing; outer[1] (segments per line) uses
    # the declared spacing. Lines lie at v = 0, 1/n0, ..., (n0-1)/n0 (no line at v = 1).
    lines = round_level(outer[0], "equal_spacing", max_level)
    segments = round_level(outer[1], spacing, max_level)
    return Tessellation(False, (lines, segments), (), lines * segments, lines * (segments + 1))


def _triangles(spacing: Spacing, o: tuple[int, ...], n: int) -> Tessellation:
    # Inner and all three outer levels exactly 1: a single triangle.
    if n == 1 and all(x == 1 for x in o):
        return Tessellation(False, o, (1,), 1, 3)
    n = _bump_one(n, spacing)
    perimeter = sum(o)
    # Outer ring: a strip between each outer edge (o_i segments) and the matching edge of the
    # first inner triangle (n - 2 segments); a strip of a and b segments holds a + b triangles.
    m = n - 2
    prims = perimeter + 3 * m
    points = perimeter
    # Inner rings: triangle with m segments per edge around one with m - 2, until the
    # innermost is a single triangle (m == 1) or a single point (m == 0).
    while m >= 2:
        points += 3 * m
        prims += 3 * (m + m - 2)
        m -= 2
    if m == 1:
        points += 3
        prims += 1
    else:
        points += 1  # centre point
    return Tessellation(False, o, (n,), prims, points)


def _quads(spacing: Spacing, o: tuple[int, ...], n: tuple[int, ...]) -> Tessellation:
    # Both inner and all four outer levels exactly 1: a single quad, two triangles.
    if all(x == 1 for x in n) and all(x == 1 for x in o):
        return Tessellation(False, o, n, 2, 4)
    n0, n1 = (_bump_one(x, spacing) for x in n)
    perimeter = sum(o)
    # Outer ring: edges along v (o0, o2) pair with the n1 - 2 segments of the inner rectangle's
    # v edges, edges along u (o1, o3) with its n0 - 2 segments. (Counts depend only on sum(o)
    # and n0 + n1, so they do not hinge on which inner level pairs with which edges.)
    a0, a1 = n0 - 2, n1 - 2
    prims = perimeter + 2 * a0 + 2 * a1
    points = perimeter
    # Inner rings: rectangle a0 x a1 around (a0-2) x (a1-2) while both dimensions are >= 2.
    while a0 >= 2 and a1 >= 2:
        points += 2 * (a0 + a1)
        prims += 2 * (a0 + a0 - 2) + 2 * (a1 + a1 - 2)
        a0, a1 = a0 - 2, a1 - 2
    lo, hi = min(a0, a1), max(a0, a1)
    if lo == 1:
        # Innermost rectangle one segment thick: a strip of hi quads.
        points += 2 * (hi + 1)
        prims += 2 * hi
    else:
        # Degenerate innermost rectangle: a line of hi segments, or a point.
        points += hi + 1
    return Tessellation(False, o, (n0, n1), prims, points)


# --- where the vertices are (equal spacing) ----------------------------------------------------
#
# With equal spacing every vertex position follows from the rules of section 11.2.2 alone, so the
# set of gl_TessCoord values a patch produces is exact (fractional spacing leaves the lengths of
# the two short segments to the implementation). Positions are computed exactly, as integers over
# a common denominator, and handed out as floats; a driver's fixed-point tessellator lands within
# about 2^-16 of them.

Coord = tuple[float, float, float]
# A coordinate before rounding: (u, v, w, d) is (u/d, v/d, w/d), in lowest terms (no common
# factor of all four), so that equal points are equal tuples. Integers, not Fractions: a
# 64-level triangle has thousands of vertices, and Fraction arithmetic cost exploration a few
# milliseconds of CPU a case.
Exact = tuple[int, int, int, int]


def exact(u: int, v: int, w: int, d: int) -> Exact:
    """The point (u/d, v/d, w/d) in lowest terms."""
    g = math.gcd(u, v, w, d)
    return u // g, v // g, w // g, d // g


def tess_coords(domain: Domain, spacing: Spacing, outer: Sequence[float],
                inner: Sequence[float], max_level: int = 64) -> tuple[Coord, ...]:
    """Every distinct (u, v, w) one patch produces, sorted; () for a discarded patch.

    Only equal_spacing fixes the positions; other spacings raise ValueError.
    """
    if spacing != "equal_spacing":
        raise ValueError(f"vertex positions are exact only for equal_spacing, not {spacing!r}")
    return _tess_coords(domain, tuple(map(float, outer)), tuple(map(float, inner)), max_level)


@functools.lru_cache(maxsize=256)
def _tess_coords(domain: Domain, outer: tuple[float, ...], inner: tuple[float, ...], max_level: int) -> tuple[Coord, ...]:
    t = tessellate(domain, "equal_spacing", outer, inner, max_level)
    if t.discarded:
        return ()
    if domain == "isolines":
        points = _isoline_coords(*t.outer)
    elif domain == "quads":
        points = _quad_coords(t)
    else:
        points = _triangle_coords(t)
    # int / int is correctly rounded: the float nearest each exact coordinate
    return tuple(sorted((u / d, v / d, w / d) for u, v, w, d in points))


def _isoline_coords(lines: int, segments: int) -> set[Exact]:
    # Lines at v = 0, 1/n, ..., (n-1)/n, each cut into `segments` equal pieces along u.
    return {exact(i * lines, j * segments, 0, segments * lines) for i in range(segments + 1) for j in range(lines)}


def _quad_coords(t: Tessellation) -> set[Exact]:
    if t.primitives == 2 and t.points == 4:                       # the single quad
        return {(u, v, 0, 1) for u in (0, 1) for v in (0, 1)}
    o0, o1, o2, o3 = t.outer
    n0, n1 = t.inner
    points: set[Exact] = set()
    # Outer edges: outer[0] cuts u == 0, outer[1] v == 0, outer[2] u == 1, outer[3] v == 1.
    points |= {exact(0, k, 0, o0) for k in range(o0 + 1)}
    points |= {exact(k, 0, 0, o1) for k in range(o1 + 1)}
    points |= {exact(o2, k, 0, o2) for k in range(o2 + 1)}
    points |= {exact(k, o3, 0, o3) for k in range(o3 + 1)}
    # The concentric inner rectangles keep the temporary subdivision of the edges by the inner
    # levels (inner[0] along u, inner[1] along v), so together they are the interior grid; a
    # degenerate innermost rectangle (a line or a point) lies on it too.
    points |= {exact(i * n1, j * n0, 0, n0 * n1) for i in range(1, n0) for j in range(1, n1)}
    return points


def _triangle_coords(t: Tessellation) -> set[Exact]:
    corners = {(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1)}
    if t.primitives == 1:                                          # the single triangle
        return corners
    o0, o1, o2 = t.outer
    (n,) = t.inner
    points: set[Exact] = set()
    # Outer edges: outer[0] cuts u == 0, outer[1] v == 0, outer[2] w == 0.
    points |= {exact(0, k, o0 - k, o0) for k in range(o0 + 1)}
    points |= {exact(k, 0, o1 - k, o1) for k in range(o1 + 1)}
    points |= {exact(k, o2 - k, 0, o2) for k in range(o2 + 1)}
    # Inner triangle k: each corner lies where the perpendiculars through the subdivision
    # vertices nearest that corner meet. For an equilateral triangle cut into n equal segments
    # that point is 2/n of the way from the corner to the centre, and repeating the
    # construction on a triangle of m segments moves 2/m further: triangle k is the outer
    # triangle scaled about the centre by (n - 2k)/n, its edges cut into n - 2k equal segments.
    # Its corners, over 3n: 1/3 + (m/n)(1 - 1/3) = (n + 2m)/3n where the outer corner has 1,
    # 1/3 + (m/n)(0 - 1/3) = (n - m)/3n where it has 0.
    k = 1
    while n - 2 * k >= 0:
        m = n - 2 * k
        if m == 0:
            points.add(exact(1, 1, 1, 3))                           # the centre
            break
        ring = [tuple(n + 2 * m if i == a else n - m for i in range(3)) for a in range(3)]
        for a in range(3):
            (s0, s1, s2), (e0, e1, e2) = ring[a], ring[(a + 1) % 3]
            # start + (j/m)(end - start), over 3n * m
            points |= {exact(s0 * m + j * (e0 - s0), s1 * m + j * (e1 - s1), s2 * m + j * (e2 - s2), 3 * n * m)
                       for j in range(m)}
        k += 1
    return points
