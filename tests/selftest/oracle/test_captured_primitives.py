"""Transform-feedback records read as primitives: what 13.3.2 fixes passes, each thing it fixes
broken fails, and what it leaves open (the first vertex, a quad's split) passes either way."""
from __future__ import annotations

import numpy as np
import pytest

from harness.model.case import CapturedPrimitive, PrimitiveCapture
from harness.oracle import captured_primitives


def records(ids):
    out = np.zeros(len(ids), dtype=[("id", "i4", (1,))])
    out["id"][:, 0] = ids
    return out


def strip(convention):
    # a triangle strip of vertices 1..5 (10.1.6: (1, 2, 3), (3, 2, 4), (3, 4, 5)); provoking: i / i + 2
    triangles = [(1, 2, 3), (3, 2, 4), (3, 4, 5)]
    provoking = [0, 1, 0] if convention == "first" else [2, 2, 2]
    return PrimitiveCapture("id", 3, convention, tuple(
        CapturedPrimitive(f"primitive {k}", t, p) for k, (t, p) in enumerate(zip(triangles, provoking))))


def check(capture, ids):
    return captured_primitives.check(capture, records(ids), "draw 0")


@pytest.mark.parametrize("convention, ids", [
    ("last", [1, 2, 3, 3, 2, 4, 3, 4, 5]),          # the assembly order itself
    ("first", [1, 2, 3, 2, 4, 3, 3, 4, 5]),         # each rotated to start at its provoking vertex
])
def test_rotations_that_keep_the_provoking_vertex_pass(convention, ids):
    assert check(strip(convention), ids) == []


def test_a_reversed_winding_fails():
    problems = check(strip("last"), [1, 2, 3, 2, 3, 4, 3, 4, 5])
    assert problems == ["draw 0: primitive 1 (vertices 3, 2, 4): recorded id 2, 3, 4, expected 3, 2, 4 "
                        "starting at any vertex (the order of 10.1)"]


def test_the_provoking_vertex_in_the_wrong_place_fails():
    problems = check(strip("first"), [1, 2, 3, 3, 2, 4, 3, 4, 5])     # the last convention's order
    assert len(problems) == 1 and "expected the provoking vertex 2 written first" in problems[0]


def test_missing_and_stray_records_fail():
    assert "2 of its 3 records captured" in check(strip("last"), [1, 2, 3, 3, 2, 4, 3, 4])[0]
    assert "3 records after the last expected primitive" in \
        check(strip("last"), [1, 2, 3, 3, 2, 4, 3, 4, 5, 7, 8, 9])[0]


def quad():
    return PrimitiveCapture("id", 3, "last", (CapturedPrimitive("primitive 0", (1, 2, 3, 4), triangles=2),))


@pytest.mark.parametrize("ids", [[1, 2, 3, 1, 3, 4], [3, 4, 1, 2, 3, 1], [1, 2, 4, 2, 3, 4], [4, 2, 3, 1, 2, 4]])
def test_any_split_of_a_quad_passes(ids):
    assert check(quad(), ids) == []


@pytest.mark.parametrize("ids", [[1, 2, 3, 2, 3, 4], [1, 2, 3, 1, 2, 3], [1, 2, 3, 1, 3, 5], [1, 1, 3, 1, 3, 4]])
def test_what_does_not_tile_the_quad_fails(ids):
    assert len(check(quad(), ids)) == 1


def test_a_hexagon_needs_non_crossing_diagonals():
    hexagon = PrimitiveCapture("id", 3, "last", (CapturedPrimitive("primitive 0", (1, 2, 3, 4, 5, 6), triangles=4),))
    assert check(hexagon, [1, 2, 3, 1, 3, 4, 1, 4, 5, 1, 5, 6]) == []          # a fan
    assert check(hexagon, [1, 2, 3, 3, 4, 5, 5, 6, 1, 1, 3, 5]) == []          # a triangle in the middle
    # diagonals 1-4 and 2-5 cross: four triangles with every side once, yet no tiling
    assert len(check(hexagon, [1, 2, 4, 2, 5, 4, 2, 3, 4, 4, 5, 6])) == 1
