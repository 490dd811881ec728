"""Self-tests of the tessellation primitive generator model (harness/oracle/tessellator.py).

Every expected count below is worked out by hand in a comment from the GL 4.6 rules
(section 11.2.2), not taken from any driver. Notation: o = effective outer segment counts,
n = effective inner count(s), P = sum(o) (perimeter vertices).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

from harness.oracle.tessellator import (
    Tessellation, primitives_generated, round_level, tessellate, used_levels,
)

EQ, EVEN, ODD = "equal_spacing", "fractional_even_spacing", "fractional_odd_spacing"
SPACINGS = (EQ, EVEN, ODD)
NAN, INF = math.nan, math.inf


def counts(domain, spacing, outer, inner=()):
    t = tessellate(domain, spacing, outer, inner)
    return t.primitives, t.points


# --- used levels, rounding and clamping ---------------------------------------------------

def test_used_levels():
    assert used_levels("triangles") == (3, 1)
    assert used_levels("quads") == (4, 2)
    assert used_levels("isolines") == (2, 0)
    with pytest.raises(ValueError):
        used_levels("pentagons")


@pytest.mark.parametrize("spacing, level, expected", [
    # equal: clamp to [1, 64], round up to an integer.
    (EQ, 2.5, 3), (EQ, 3.0, 3), (EQ, 0.25, 1), (EQ, 100.0, 64), (EQ, 63.01, 64), (EQ, INF, 64),
    # fractional_even: clamp to [2, 64], round up to an even integer.
    (EVEN, 2.5, 4), (EVEN, 1.0, 2), (EVEN, 0.5, 2), (EVEN, 4.0, 4), (EVEN, 63.5, 64),
    (EVEN, 100.0, 64),
    # fractional_odd: clamp to [1, 63], round up to an odd integer.
    (ODD, 2.5, 3), (ODD, 1.0, 1), (ODD, 1.5, 3), (ODD, 3.0, 3), (ODD, 62.5, 63), (ODD, 64.0, 63),
    (ODD, 100.0, 63),
    # NaN and below-minimum levels (only inner levels get here) clamp to the minimum.
    (EQ, NAN, 1), (EVEN, NAN, 2), (ODD, NAN, 1), (EQ, -3.0, 1), (EVEN, 0.0, 2),
])
def test_round_level(spacing, level, expected):
    assert round_level(level, spacing) == expected


def test_max_level_parameter():
    # max 16: equal 100 -> 16; fractional_odd clamps to max-1 = 15.
    assert round_level(100.0, EQ, 16) == 16
    assert round_level(100.0, ODD, 16) == 15
    t = tessellate("isolines", ODD, (100, 100), (), max_level=16)
    assert t.outer == (16, 15)  # lines always use equal spacing, so 16 lines


def test_inner_rounding_per_spacing():
    # Inner 2.5 with outer 3s: equal -> 3, fractional_odd -> 3, fractional_even -> 4.
    assert tessellate("triangles", EQ, (3, 3, 3), (2.5,)).inner == (3,)
    assert tessellate("triangles", ODD, (3, 3, 3), (2.5,)).inner == (3,)
    assert tessellate("triangles", EVEN, (3, 3, 3), (2.5,)).inner == (4,)
    # Outer 1 under fractional_even clamps to 2.
    assert tessellate("triangles", EVEN, (1, 1, 1), (1,)).outer == (2, 2, 2)
    # Outer 100 clamps to 64 (equal, even) or 63 (odd).
    assert tessellate("quads", EQ, (100,) * 4, (1, 1)).outer == (64,) * 4
    assert tessellate("quads", EVEN, (100,) * 4, (1, 1)).outer == (64,) * 4
    assert tessellate("quads", ODD, (100,) * 4, (1, 1)).outer == (63,) * 4


def test_result_is_frozen():
    t = tessellate("triangles", EQ, (1, 1, 1), (1,))
    assert isinstance(t, Tessellation)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.primitives = 5


# --- discard ----------------------------------------------------------------------------

@pytest.mark.parametrize("spacing", SPACINGS)
@pytest.mark.parametrize("bad", [0.0, -0.0, -1.0, -INF, NAN])
@pytest.mark.parametrize("domain, index", [
    ("triangles", 0), ("triangles", 2), ("quads", 1), ("quads", 3), ("isolines", 0), ("isolines", 1),
])
def test_discard_on_used_outer(domain, index, bad, spacing):
    outer = [4.0] * 4
    outer[index] = bad
    t = tessellate(domain, spacing, outer, (4.0, 4.0))
    assert t == Tessellation(True, (), (), 0, 0)
    for point_mode in (False, True):
        assert primitives_generated(domain, spacing, point_mode, outer, (4.0, 4.0)) == 0


@pytest.mark.parametrize("domain, outer", [
    ("triangles", (2, 2, 2, 0)),      # outer[3] unused by triangles
    ("isolines", (2, 2, NAN, -1)),    # outer[2], outer[3] unused by isolines
])
def test_unused_outer_never_discards(domain, outer):
    assert not tessellate(domain, EQ, outer, (2, 2)).discarded


@pytest.mark.parametrize("bad", [0.0, -5.0, NAN])
def test_inner_never_discards(bad):
    # Triangles equal, inner -> 1 with outer 2s -> bumped to 2: 6 triangles (see below).
    t = tessellate("triangles", EQ, (2, 2, 2), (bad,))
    assert (t.discarded, t.inner, t.primitives) == (False, (2,), 6)
    # Quads equal, inner (bad, bad) -> (1, 1) with outer 2s -> bumped to (2, 2): 8 triangles.
    t = tessellate("quads", EQ, (2, 2, 2, 2), (bad, bad))
    assert (t.discarded, t.inner, t.primitives) == (False, (2, 2), 8)


# --- triangles --------------------------------------------------------------------------

def test_triangles_single():
    # Inner and all outer exactly 1: one triangle, 3 vertices.
    assert counts("triangles", EQ, (1, 1, 1), (1,)) == (1, 3)
    assert counts("triangles", ODD, (0.5, 1, 1), (0.2,)) == (1, 3)  # all clamp to 1
    # fractional_even clamps everything to 2, so never a single triangle: o=(2,2,2), n=2,
    # P=6, inner is a point: 6 triangles, 6+1 = 7 vertices.
    assert counts("triangles", EVEN, (1, 1, 1), (1,)) == (6, 7)


def test_triangles_inner_one_is_bumped():
    # Equal, inner 1, outer (2,1,1): n -> 2, inner triangle has 0 segments (a point).
    # P = 4: 4 triangles fan to the centre; vertices 4 + 1 = 5.
    t = tessellate("triangles", EQ, (2, 1, 1), (1,))
    assert (t.inner, t.primitives, t.points) == ((2,), 4, 5)
    # Odd, inner 1, outer (1,1,2): outer 2 rounds up to odd 3, so o=(1,1,3), P = 5; n -> 3,
    # inner triangle 1 segment per edge. Ring: 5 + 3*1 = 8, innermost +1 = 9 triangles;
    # vertices 5 + 3 = 8.
    t = tessellate("triangles", ODD, (1, 1, 2), (1,))
    assert (t.outer, t.inner, t.primitives, t.points) == ((1, 1, 3), (3,), 9, 8)


def test_triangles_worked_examples():
    # n=2, o=(2,2,2): P=6, centre point: 6 + 3*0 = 6 triangles, 6 + 1 = 7 vertices.
    assert counts("triangles", EQ, (2, 2, 2), (2,)) == (6, 7)
    # n=3, o=(3,3,3): P=9, ring 9 + 3*1 = 12, inner triangle +1 = 13; vertices 9 + 3 = 12.
    assert counts("triangles", EQ, (3, 3, 3), (3,)) == (13, 12)
    # n=4, o=(1,1,1): P=3, ring 3 + 3*2 = 9; ring m=2 -> centre 3*(2+0) = 6: 15 triangles;
    # vertices 3 + 6 + 1 = 10.
    assert counts("triangles", EQ, (1, 1, 1), (4,)) == (15, 10)
    # n=5, o=(5,5,5): P=15, ring 15 + 9 = 24; m=3 -> 1: 3*(3+1) = 12; innermost +1: 37.
    # vertices 15 + 9 + 3 = 27.
    assert counts("triangles", EQ, (5, 5, 5), (5,)) == (37, 27)
    # fractional_even inner 2.5 -> 4, outer (1.5, 3, 6.2) -> (2, 4, 8): P=14,
    # ring 14 + 6 = 20, m=2 -> centre +6 = 26; vertices 14 + 6 + 1 = 21.
    t = tessellate("triangles", EVEN, (1.5, 3, 6.2), (2.5,))
    assert (t.outer, t.inner, t.primitives, t.points) == ((2, 4, 8), (4,), 26, 21)
    # Full GL arrays: outer[3] and inner[1] are ignored.
    assert counts("triangles", EQ, (3, 3, 3, 0), (3, NAN)) == (13, 12)


def test_triangles_max_level():
    # Equal, all levels 100 -> 64: P = 192, outer ring 192 + 3*62 = 378. Inner rings
    # m = 62, 60, ..., 2 (31 rings) hold 3*(m + m-2) = 6m - 6 each: 6*992 - 6*31 = 5766.
    # Innermost m = 0 is a point. Total 378 + 5766 = 6144 (= 3*64^2/2, see the closed form).
    assert tessellate("triangles", EQ, (100, 100, 100), (100,)).primitives == 6144


@pytest.mark.parametrize("n", range(1, 65))
def test_triangles_uniform_closed_form(n):
    # All levels n (equal spacing). Rings: n -> n-2 -> ... each holds 3*(m + m-2) triangles,
    # innermost triangle 1 (n odd) or centre point (n even). Summing gives
    #   n even: 3*(n^2/2) ; n odd: (3*n^2 - 1)/2  -> both 3*n*n // 2.
    # Vertices: rings of 3m for m = n, n-2, ..., plus the centre when n is even:
    #   n even: 3*(n/2)*(n/2 + 1) + 1 ; n odd: 3*((n+1)/2)^2.
    h = n // 2
    points = 3 * h * (h + 1) + 1 if n % 2 == 0 else 3 * (h + 1) ** 2
    assert counts("triangles", EQ, (n, n, n), (n,)) == (3 * n * n // 2, points)


# --- quads ------------------------------------------------------------------------------

def test_quads_single():
    # Both inner and all outer exactly 1: one quad = 2 triangles, 4 vertices.
    assert counts("quads", EQ, (1, 1, 1, 1), (1, 1)) == (2, 4)
    assert counts("quads", ODD, (1, 1, 1, 1), (1, 1)) == (2, 4)
    # fractional_even: all clamp to 2: P=8, inner rect 0x0 (a point): 8 triangles, 9 vertices.
    assert counts("quads", EVEN, (1, 1, 1, 1), (1, 1)) == (8, 9)


def test_quads_inner_one_is_bumped():
    # Equal, outer (2,1,1,1), inner (1,1) -> (2,2): P=5, inner rect 0x0: 5 triangles, 6 vertices.
    t = tessellate("quads", EQ, (2, 1, 1, 1), (1, 1))
    assert (t.inner, t.primitives, t.points) == ((2, 2), 5, 6)
    # Equal, outer 1s, inner (1,2): not all 1, so (2,2): 4 triangles fan to the centre, 5 vertices.
    assert counts("quads", EQ, (1, 1, 1, 1), (1, 2)) == (4, 5)
    # Equal, outer 1s, inner (1,4) -> (2,4): P=4, inner rect 0x2 (a line of 3 vertices).
    # Ring: 4 + 2*0 + 2*2 = 8 triangles; vertices 4 + 3 = 7.
    t = tessellate("quads", EQ, (1, 1, 1, 1), (1, 4))
    assert (t.inner, t.primitives, t.points) == ((2, 4), 8, 7)
    # Odd, outer 1s, inner (1,4) -> (3,5): P=4, inner rect 1x3 (a strip of 3 quads).
    # Ring: 4 + 2*1 + 2*3 = 12, strip 6 -> 18 triangles; vertices 4 + 2*(1+3) = 12.
    t = tessellate("quads", ODD, (1, 1, 1, 1), (1, 4))
    assert (t.inner, t.primitives, t.points) == ((3, 5), 18, 12)


def test_quads_worked_examples():
    # n=(2,2), outer 2s: P=8, inner rect 0x0: 8 triangles, 9 vertices.
    assert counts("quads", EQ, (2, 2, 2, 2), (2, 2)) == (8, 9)
    # n=(3,3), outer 3s: P=12, ring 12 + 2 + 2 = 16, inner 1x1 quad +2 = 18; vertices 12 + 4 = 16.
    assert counts("quads", EQ, (3, 3, 3, 3), (3, 3)) == (18, 16)
    # Inner 1x3 strip: n=(3,5), outer (5,3,5,3): P=16, ring 16 + 2*1 + 2*3 = 24, strip of 3
    # quads +6 = 30; vertices 16 + 2*(1+3) = 24 (a 3x5 grid: 2*15 triangles, 4*6 vertices).
    assert counts("quads", EQ, (5, 3, 5, 3), (3, 5)) == (30, 24)
    # n=(4,6), outer 1s: P=4, ring 4 + 2*2 + 2*4 = 16; ring 2x4 -> 0x2: 2*(2+0) + 2*(4+2) = 16,
    # total 32; vertices 4 + 2*(2+4) + (2+1) = 19.
    assert counts("quads", EQ, (1, 1, 1, 1), (4, 6)) == (32, 19)
    # n=(5,9), outer 1s: P=4, ring 4 + 6 + 14 = 24; ring 3x7 -> 1x5: 2*(3+1) + 2*(7+5) = 32,
    # strip of 5 quads +10: 66 triangles; vertices 4 + 2*(3+7) + 2*(1+5) = 36.
    assert counts("quads", EQ, (1, 1, 1, 1), (5, 9)) == (66, 36)
    # Outer edges matter only through their sum: (1,2,3,4) vs (4,3,2,1) with n=(2,2):
    # P=10, 10 triangles, 11 vertices.
    assert counts("quads", EQ, (1, 2, 3, 4), (2, 2)) == (10, 11)
    assert counts("quads", EQ, (4, 3, 2, 1), (2, 2)) == (10, 11)


@pytest.mark.parametrize("n0, n1", [(a, b) for a in range(2, 21) for b in range(2, 21)])
def test_quads_matching_levels_form_a_grid(n0, n1):
    # With outer levels matching the inner ones (o0 = o2 = n1 along v, o1 = o3 = n0 along u)
    # the ring structure covers the n0 x n1 grid: 2*n0*n1 triangles, (n0+1)*(n1+1) vertices.
    assert counts("quads", EQ, (n1, n0, n1, n0), (n0, n1)) == (2 * n0 * n1, (n0 + 1) * (n1 + 1))


# --- isolines ---------------------------------------------------------------------------

def test_isolines():
    # Equal (1,1): 1 line of 1 segment: 1 primitive, 2 vertices.
    assert counts("isolines", EQ, (1, 1)) == (1, 2)
    # fractional_even (1,1): lines use equal -> 1; segments clamp to 2: 2 primitives, 3 vertices.
    t = tessellate("isolines", EVEN, (1, 1), ())
    assert (t.outer, t.inner, t.primitives, t.points) == ((1, 2), (), 2, 3)
    # fractional_odd (2.5, 2.5): lines ceil(2.5) = 3 (equal), segments 3 (odd): 9 primitives,
    # 3 * (3+1) = 12 vertices.
    t = tessellate("isolines", ODD, (2.5, 2.5), ())
    assert (t.outer, t.primitives, t.points) == ((3, 3), 9, 12)
    # fractional_even (2.5, 2.5): lines 3, segments 4: 12 primitives, 15 vertices.
    assert counts("isolines", EVEN, (2.5, 2.5)) == (12, 15)
    # fractional_odd (100, 100): lines clamp to 64 (equal), segments to 63: 4032, 64*64 = 4096.
    t = tessellate("isolines", ODD, (100, 100, 0, 0), (0, 0))
    assert (t.outer, t.primitives, t.points) == ((64, 63), 4032, 4096)


# --- point mode -------------------------------------------------------------------------

def test_primitives_generated_point_mode():
    # Triangles n=3, o=3s: 13 triangles, 12 vertices (see above).
    assert primitives_generated("triangles", EQ, False, (3, 3, 3, 0), (3, 0)) == 13
    assert primitives_generated("triangles", EQ, True, (3, 3, 3, 0), (3, 0)) == 12
    # Quads n=(3,3), o=3s: 18 triangles, 16 vertices.
    assert primitives_generated("quads", EQ, False, (3, 3, 3, 3), (3, 3)) == 18
    assert primitives_generated("quads", EQ, True, (3, 3, 3, 3), (3, 3)) == 16
    # Isolines odd (2.5, 2.5): 9 segments, 12 vertices.
    assert primitives_generated("isolines", ODD, False, (2.5, 2.5), ()) == 9
    assert primitives_generated("isolines", ODD, True, (2.5, 2.5), ()) == 12
    # Single triangle / quad: 3 / 4 points.
    assert primitives_generated("triangles", EQ, True, (1, 1, 1), (1,)) == 3
    assert primitives_generated("quads", EQ, True, (1, 1, 1, 1), (1, 1)) == 4


# --- argument errors --------------------------------------------------------------------

def test_bad_arguments():
    with pytest.raises(ValueError):
        tessellate("triangles", "integer_spacing", (1, 1, 1), (1,))
    with pytest.raises(ValueError):
        tessellate("hexagons", EQ, (1, 1, 1), (1,))
    with pytest.raises(ValueError):
        tessellate("quads", EQ, (1, 1, 1), (1, 1))   # quads need 4 outer levels
    with pytest.raises(ValueError):
        tessellate("quads", EQ, (1, 1, 1, 1), (1,))  # and 2 inner levels


# --- sweeps: Euler's relation and level invariants -----------------------------------------

LEVELS = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.2, 5.0, 6.5, 9.0, 64.0, 100.0)


def check_invariants(domain, spacing, outer, inner):
    t = tessellate(domain, spacing, outer, inner)
    assert not t.discarded
    lo, hi = {EQ: (1, 64), EVEN: (2, 64), ODD: (1, 63)}[spacing]
    for x in t.outer + t.inner:
        assert lo <= x <= hi
        assert spacing == EQ or x % 2 == (0 if spacing == EVEN else 1)
    # Inner counts of 1 only survive in the single-primitive case.
    single = all(x == 1 for x in t.outer + t.inner)
    assert single or 1 not in t.inner
    # Euler for a triangulated disc with B = sum(o) boundary vertices and V vertices:
    # F = 2V - B - 2 triangles.
    assert t.primitives == 2 * t.points - sum(t.outer) - 2
    return t


@pytest.mark.parametrize("spacing", SPACINGS)
def test_euler_sweep_triangles(spacing):
    for levels in itertools.product(LEVELS, repeat=4):
        check_invariants("triangles", spacing, levels[:3], levels[3:])


@pytest.mark.parametrize("spacing", SPACINGS)
def test_euler_sweep_quads(spacing):
    for outer in itertools.product((1.0, 2.5, 5.0), repeat=4):
        for inner in itertools.product(LEVELS, repeat=2):
            check_invariants("quads", spacing, outer, inner)
    rng = random.Random(4611)  # fixed seed: the same levels every run
    for _ in range(3000):
        levels = [rng.choice((rng.uniform(0.01, 70.0), float(rng.randint(1, 64)))) for _ in range(6)]
        check_invariants("quads", spacing, levels[:4], levels[4:])


# --- exact vertex positions (equal spacing) -------------------------------------------------
#
# Worked from the rules of 11.2.2: outer[0..3] cut the u == 0, v == 0, u == 1, v == 1 edges of
# the quad (outer[0..2] the u == 0, v == 0, w == 0 edges of the triangle); inner levels cut the
# temporary subdivision that places the inner rings.

from fractions import Fraction as F  # noqa: E402

from harness.oracle.tessellator import tess_coords  # noqa: E402


def exact(points):
    return tuple(sorted((float(u), float(v), float(w)) for u, v, w in points))


def test_coords_isolines_two_lines_of_three():
    # Lines at v = 0 and 1/2 (never v = 1), each cut into 3: u = 0, 1/3, 2/3, 1.
    want = {(F(i, 3), F(j, 2), 0) for i in range(4) for j in range(2)}
    assert tess_coords("isolines", EQ, (2, 3), ()) == exact(want)
    # Fractional levels round up: (1.5, 2.2) -> 2 lines of 3 segments, the same set.
    assert tess_coords("isolines", EQ, (1.5, 2.2), ()) == exact(want)


def test_coords_single_quad_and_triangle():
    assert tess_coords("quads", EQ, (1, 1, 1, 1), (1, 1)) == exact({(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)})
    assert tess_coords("triangles", EQ, (1, 1, 1), (1,)) == exact({(1, 0, 0), (0, 1, 0), (0, 0, 1)})
    # Levels below 1 clamp to 1: still the single primitive.
    assert tess_coords("triangles", EQ, (0.5, 0.25, 1), (0.1,)) == exact({(1, 0, 0), (0, 1, 0), (0, 0, 1)})


def test_coords_quads_grid():
    # All levels 2: the 3x3 grid.
    want = {(F(i, 2), F(j, 2), 0) for i in range(3) for j in range(3)}
    assert tess_coords("quads", EQ, (2, 2, 2, 2), (2, 2)) == exact(want)


def test_coords_quads_which_inner_level_cuts_which_axis():
    # outer (1, 2, 1, 2): the u == 0 and u == 1 edges are not cut, v == 0 and v == 1 are cut
    # in half. inner (3, 1): inner[1] = 1 becomes 1 + epsilon -> 2, so the interior grid is
    # u = 1/3, 2/3 (inner[0] cuts along u) by v = 1/2 (inner[1] along v).
    want = {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0),            # corners
            (F(1, 2), 0, 0), (F(1, 2), 1, 0),                       # outer[1], outer[3] midpoints
            (F(1, 3), F(1, 2), 0), (F(2, 3), F(1, 2), 0)}           # the inner row
    assert tess_coords("quads", EQ, (1, 2, 1, 2), (3, 1)) == exact(want)


def test_coords_quads_outer_edges_cut_independently():
    # outer (4, 1, 2, 1), inner (2, 2): u == 0 cut in 4, u == 1 in 2, the v edges not at all;
    # the inner "ring" of a 2 x 2 inner subdivision is the centre point.
    want = ({(0, F(k, 4), 0) for k in range(5)} | {(1, F(k, 2), 0) for k in range(3)}
            | {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)} | {(F(1, 2), F(1, 2), 0)})
    assert tess_coords("quads", EQ, (4, 1, 2, 1), (2, 2)) == exact(want)


def test_coords_triangle_inner_ring_n3():
    # outer 3s: each edge at thirds. Inner level 3: the corner of the inner triangle is where
    # the perpendiculars through the 1/3 points of the two edges at a corner meet: 2/3 of the
    # way from the corner towards the centre (1/3, 1/3, 1/3), i.e. (5/9, 2/9, 2/9) for the
    # u corner; n = 3 leaves that triangle undivided.
    outer = ({(0, F(k, 3), 1 - F(k, 3)) for k in range(4)} | {(F(k, 3), 0, 1 - F(k, 3)) for k in range(4)}
             | {(F(k, 3), 1 - F(k, 3), 0) for k in range(4)})
    inner = {(F(5, 9), F(2, 9), F(2, 9)), (F(2, 9), F(5, 9), F(2, 9)), (F(2, 9), F(2, 9), F(5, 9))}
    assert tess_coords("triangles", EQ, (3, 3, 3), (3,)) == exact(outer | inner)


def test_coords_triangle_inner_rings_n4():
    # outer 1s (the three corners), inner 4: the first inner triangle has corners half way to
    # the centre, (2/3, 1/6, 1/6) and its turns, each edge cut in 2 (n - 2) with midpoints like
    # (5/12, 5/12, 1/6); the next ring has n - 4 = 0 segments: the centre point.
    corners = {(1, 0, 0), (0, 1, 0), (0, 0, 1)}
    ring = {(F(2, 3), F(1, 6), F(1, 6)), (F(1, 6), F(2, 3), F(1, 6)), (F(1, 6), F(1, 6), F(2, 3)),
            (F(5, 12), F(5, 12), F(1, 6)), (F(1, 6), F(5, 12), F(5, 12)), (F(5, 12), F(1, 6), F(5, 12))}
    centre = {(F(1, 3), F(1, 3), F(1, 3))}
    assert tess_coords("triangles", EQ, (1, 1, 1), (4,)) == exact(corners | ring | centre)


def test_coords_triangle_inner_one_becomes_two():
    # outer (2, 1, 1), inner 1: not all 1, so the inner level acts as 1 + epsilon -> 2 (equal):
    # the corners, the midpoint of the u == 0 edge, and the centre.
    want = {(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, F(1, 2), F(1, 2)), (F(1, 3), F(1, 3), F(1, 3))}
    assert tess_coords("triangles", EQ, (2, 1, 1), (1,)) == exact(want)


def test_coords_clamping_nan_and_discard():
    # Above the maximum clamps to 64; NaN and negative inner levels clamp to 1.
    assert tess_coords("quads", EQ, (70, 100, 64, 65), (64, 99)) == tess_coords("quads", EQ, (64,) * 4, (64, 64))
    assert tess_coords("triangles", EQ, (3, 3, 3), (NAN,)) == tess_coords("triangles", EQ, (3, 3, 3), (1,))
    assert tess_coords("quads", EQ, (2, 2, 2, 2), (-1, -5)) == tess_coords("quads", EQ, (2, 2, 2, 2), (1, 1))
    # A discarded patch has no vertices; an unused NaN outer level discards nothing.
    assert tess_coords("quads", EQ, (2, 2, NAN, 2), (2, 2)) == ()
    assert tess_coords("triangles", EQ, (0, 2, 2), (2,)) == ()
    assert tess_coords("isolines", EQ, (2, -1), ()) == ()
    assert tess_coords("isolines", EQ, (2, 3, NAN, -1), ()) != ()


def test_coords_only_for_equal_spacing():
    for spacing in (EVEN, ODD):
        with pytest.raises(ValueError):
            tess_coords("quads", spacing, (2, 2, 2, 2), (2, 2))


@pytest.mark.parametrize("domain", ["triangles", "quads", "isolines"])
def test_coords_agree_with_the_counts(domain):
    # Independent derivations: the positions and the ring-by-ring vertex counts.
    rng = random.Random(1157)
    for _ in range(150):
        levels = [rng.choice((rng.uniform(0.1, 30.0), float(rng.randint(1, 12)))) for _ in range(6)]
        coords = tess_coords(domain, EQ, levels[:4], levels[4:])
        t = tessellate(domain, EQ, levels[:4], levels[4:])
        assert len(coords) == t.points, (levels, len(coords), t.points)
        for u, v, w in coords:
            assert 0.0 <= min(u, v, w) and max(u, v, w) <= 1.0
            assert w == pytest.approx(1 - u - v if domain == "triangles" else 0.0, abs=1e-12)


@pytest.mark.parametrize("domain", ["triangles", "quads", "isolines"])
def test_coords_count_the_points_tessellate_counts(domain):
    # Two models of one rule: tess_coords lists the vertices (exactly, as integers over a common
    # denominator), tessellate counts them ring by ring. Every inner level to 64, with outer
    # levels that differ from it and from each other.
    for n in range(1, 65):
        outer, inner = (n, max(1, 65 - n), 1 + n % 7, 64), (n, 1 + (n * 5) % 64)
        coords = tess_coords(domain, EQ, outer, inner)
        assert len(coords) == len(set(coords)) == tessellate(domain, EQ, outer, inner).points
        if domain == "triangles":                       # barycentric: u + v + w == 1
            assert all(abs(u + v + w - 1) < 1e-15 for u, v, w in coords)


def test_exact_points_are_in_lowest_terms():
    from harness.oracle.tessellator import exact as lowest
    assert lowest(6, 3, 0, 12) == lowest(2, 1, 0, 4) == (2, 1, 0, 4)       # one point, one tuple
    assert lowest(0, 0, 0, 5) == (0, 0, 0, 1)
    assert lowest(1, 1, 1, 3) == (1, 1, 1, 3)
