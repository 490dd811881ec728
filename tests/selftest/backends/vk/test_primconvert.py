"""The layer's index rewriting (harness/backends/vk/primconvert.py) against GL's assembly: every
rewritten run draws, in its output topology, the primitives GL 4.6 compatibility 10.1 makes of
the run (harness/oracle/primitives.py, Table 13.2 computed from the spec's rules), each with
GL's provoking vertex where the output's convention puts it; restart splits runs as 10.3.6 does."""
from __future__ import annotations

import pytest

from harness.backends.vk import primconvert
from harness.oracle import primitives as gl

SIZES = range(0, 12)


def _cycle(vertices) -> tuple:
    """A closed outline up to where it starts (the same winding)."""
    k = vertices.index(min(vertices))
    return tuple(vertices[k:]) + tuple(vertices[:k])


def _groups(values, size):
    assert len(values) % size == 0
    return [tuple(values[i:i + size]) for i in range(0, len(values), size)]


def _run(n, base=10):
    return list(range(base, base + n))     # index values distinct from positions


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_a_quad_strip_becomes_its_quads_with_gls_provoking_vertex_first_or_last(n, first):
    run = _run(n)
    quads = _groups(primconvert.rewrite_run("QUAD_STRIP", run, first), 4)
    expected = gl.assemble("QUAD_STRIP", n)
    assert len(quads) == len(expected)
    for quad, p in zip(quads, expected):
        assert _cycle(quad) == _cycle([run[k] for k in p.vertices])        # the same quad, the same winding
        assert quad[0 if first else 3] == run[p.provoking("first" if first else "last")]


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_a_polygon_becomes_triangles_each_provoked_by_its_vertex_1(n, first):
    run = _run(n)
    triangles = _groups(primconvert.rewrite_run("POLYGON", run, first), 3)
    expected = gl.assemble("POLYGON", n)
    assert len(triangles) == max(0, n - 2)
    for k, triangle in enumerate(triangles):
        assert _cycle(triangle) == _cycle([run[0], run[k + 1], run[k + 2]])   # a fan, the polygon's winding
        assert triangle[0 if first else 2] == run[expected[0].provoking("first" if first else "last")]


@pytest.mark.parametrize("n", SIZES)
def test_a_polygons_outline_is_its_edges_each_carrying_vertex_1(n):
    run = _run(n)
    edges = _groups(primconvert.rewrite_run("POLYGON", run, True, outline=True), 4)
    if n < 3:
        assert edges == []
        return
    ring = [run[k] for k in gl.assemble("POLYGON", n)[0].vertices]
    assert [(a, b) for _, a, b, _ in edges] == list(zip(ring, ring[1:] + ring[:1]))
    assert {(p, q) for p, _, _, q in edges} == {(run[0], run[0])}


def test_the_polygon_provoking_hazard_keeps_the_fan_order_whatever_the_convention():
    run = _run(5)
    wrong = _groups(primconvert.rewrite_run("POLYGON", run, False, polygon_order=False), 3)
    assert [t[2] for t in wrong] == run[2:]            # the last vertex provokes: not vertex 1


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_a_line_loop_becomes_a_strip_whose_segments_and_provoking_vertices_are_the_loops(n, first):
    run = _run(n)
    strip = primconvert.rewrite_run("LINE_LOOP", run, first)
    segments = list(zip(strip, strip[1:]))
    expected = gl.assemble("LINE_LOOP", n)
    assert segments == [tuple(run[k] for k in p.vertices) for p in expected]
    convention = "first" if first else "last"
    assert [s[0 if first else 1] for s in segments] == [run[p.provoking(convention)] for p in expected]


@pytest.mark.parametrize("mode", sorted(primconvert.LIST_SIZE))
@pytest.mark.parametrize("n", SIZES)
def test_a_list_run_keeps_its_whole_primitives(mode, n):
    run = _run(n)
    kept = primconvert.rewrite_run(mode, run, True)
    size = primconvert.LIST_SIZE[mode]
    assert kept == run[:size * len(gl.assemble(mode, n))]


RESTART = 7


@pytest.mark.parametrize("mode", ["QUAD_STRIP", "POLYGON", "LINE_LOOP", "TRIANGLES", "QUADS", "POINTS"])
@pytest.mark.parametrize("pieces", [(6, 3, 4), (4, 0, 5), (1,), (2, 2)])
def test_restart_splits_the_draw_into_runs_each_rewritten_alone(mode, pieces):
    values, runs, next_value = [], [], 10
    for i, n in enumerate(pieces):
        run = list(range(next_value, next_value + n))
        next_value += n
        values += ([RESTART] if i else []) + run
        runs.append(run)
    assert primconvert.runs(values, RESTART) == runs
    out = primconvert.convert(mode, values, RESTART, first=False)
    rewritten = [primconvert.rewrite_run(mode, r, False) for r in runs]
    if mode == "LINE_LOOP":
        strips = [[]]
        for v in out:
            strips.append([]) if v == primconvert.STRIP_RESTART else strips[-1].append(v)
        assert strips == [r for r in rewritten if r] or (strips == [[]] and not any(rewritten))
    else:
        assert out == [v for r in rewritten for v in r]
    assert RESTART not in out


def test_the_list_restart_hazard_joins_the_runs():
    assert primconvert.joined([1, 2, RESTART, 3], RESTART) == [1, 2, 3]


@pytest.mark.parametrize("values, index_type, expected", [
    ([1, 7, 2], "UNSIGNED_BYTE", ([1, 0xFF, 2], "UNSIGNED_BYTE")),
    ([1, 7, 0xFF], "UNSIGNED_BYTE", ([1, 0xFFFF, 0xFF], "UNSIGNED_SHORT")),        # the maximum is a vertex
    ([1, 7, 0xFFFF], "UNSIGNED_SHORT", ([1, 0xFFFFFFFF, 0xFFFF], "UNSIGNED_INT")),
])
def test_a_chosen_restart_index_moves_to_the_maximum_of_a_type_that_holds_it(values, index_type, expected):
    assert primconvert.restart_at_maximum(values, 7, index_type) == expected


def test_widened_8_bit_indices_restart_at_the_16_bit_maximum():
    assert primconvert.restart_at_maximum([1, 0xFF, 3], 0xFF, "UNSIGNED_SHORT") == ([1, 0xFFFF, 3], "UNSIGNED_SHORT")
    assert primconvert.restart_at_maximum([1, 0xFF, 3], None, "UNSIGNED_SHORT") == ([1, 0xFF, 3], "UNSIGNED_SHORT")
