"""The primitive-assembly oracle against GL 4.6 compatibility Table 13.2, written 1-based as the
spec writes it, and the restart rule of 10.3.6."""
import pytest

from harness.oracle import primitives as oracle

# mode -> (vertices of primitive i, first convention, last convention), 1-based, for n vertices
TABLE = {
    "POINTS": lambda i, n: ((i,), i, i),
    "LINES": lambda i, n: ((2 * i - 1, 2 * i), 2 * i - 1, 2 * i),
    "LINE_STRIP": lambda i, n: ((i, i + 1), i, i + 1),
    "LINE_LOOP": lambda i, n: ((i, i + 1 if i < n else 1), i, i + 1 if i < n else 1),
    "TRIANGLES": lambda i, n: ((3 * i - 2, 3 * i - 1, 3 * i), 3 * i - 2, 3 * i),
    # 10.1.6's vertex order, the A/B pointer toggling: (1, 2, 3), (3, 2, 4), (3, 4, 5), (5, 4, 6)
    "TRIANGLE_STRIP": lambda i, n: ((i, i + 1, i + 2) if i % 2 else (i + 1, i, i + 2), i, i + 2),
    "TRIANGLE_FAN": lambda i, n: ((1, i + 1, i + 2), i + 1, i + 2),
    "QUADS": lambda i, n: ((4 * i - 3, 4 * i - 2, 4 * i - 1, 4 * i), 4 * i - 3, 4 * i),
    "QUAD_STRIP": lambda i, n: ((2 * i - 1, 2 * i, 2 * i + 2, 2 * i + 1), 2 * i - 1, 2 * i + 2),
    "POLYGON": lambda i, n: (tuple(range(1, n + 1)), 1, 1),
    "LINES_ADJACENCY": lambda i, n: ((4 * i - 2, 4 * i - 1), 4 * i - 2, 4 * i - 1),
    "LINE_STRIP_ADJACENCY": lambda i, n: ((i + 1, i + 2), i + 1, i + 2),
    "TRIANGLES_ADJACENCY": lambda i, n: ((6 * i - 5, 6 * i - 3, 6 * i - 1), 6 * i - 5, 6 * i - 1),
    "TRIANGLE_STRIP_ADJACENCY": lambda i, n: ((2 * i - 1, 2 * i + 1, 2 * i + 3), 2 * i - 1, 2 * i + 3),
}
# how many primitives n vertices make (incomplete ones none)
COUNT = {"POINTS": lambda n: n, "LINES": lambda n: n // 2, "LINE_STRIP": lambda n: max(0, n - 1),
         "LINE_LOOP": lambda n: n if n >= 2 else 0, "TRIANGLES": lambda n: n // 3,
         "TRIANGLE_STRIP": lambda n: max(0, n - 2), "TRIANGLE_FAN": lambda n: max(0, n - 2),
         "QUADS": lambda n: n // 4, "QUAD_STRIP": lambda n: max(0, (n - 2) // 2),
         "POLYGON": lambda n: 1 if n >= 3 else 0, "LINES_ADJACENCY": lambda n: n // 4,
         "LINE_STRIP_ADJACENCY": lambda n: max(0, n - 3), "TRIANGLES_ADJACENCY": lambda n: n // 6,
         "TRIANGLE_STRIP_ADJACENCY": lambda n: max(0, (n - 4) // 2)}


@pytest.mark.parametrize("mode", oracle.MODES)
@pytest.mark.parametrize("n", range(0, 15))
def test_table_13_2(mode, n):
    got = oracle.assemble(mode, n)
    assert len(got) == COUNT[mode](n)
    for i, primitive in enumerate(got, start=1):
        vertices, first, last = TABLE[mode](i, n)
        assert tuple(v + 1 for v in primitive.vertices) == vertices
        assert (primitive.first + 1, primitive.last + 1) == (first, last)


@pytest.mark.parametrize("mode", ["QUADS", "QUAD_STRIP"])
def test_quads_not_following_take_the_last_vertex_under_either_convention(mode):
    for primitive in oracle.assemble(mode, 12):
        assert primitive.provoking("first", quads_follow=False) == primitive.last
        assert primitive.provoking("first", quads_follow=True) == primitive.first
    triangle = oracle.assemble("TRIANGLES", 3)[0]
    assert triangle.provoking("first", quads_follow=False) == triangle.first      # only quads


def test_restart_splits_runs_and_is_no_vertex():
    assert oracle.runs([5, 6, 0xFF, 7, 0xFF, 0xFF, 8], 0xFF) == [[0, 1], [3], [], [6]]
    assert oracle.runs([5, 6, 0xFF], None) == [[0, 1, 2]]
    assert oracle.runs([0xFF, 3], 0x1FF) == [[0, 1]]          # an index above the type's range never matches


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="PATCHES"):
        oracle.assemble("PATCHES", 3)


@pytest.mark.parametrize("mode, bounds", [
    # 9 vertices: three quads of 8, one vertex left over, which may or may not be counted (10.10)
    ("QUAD_STRIP", {"vertices_submitted": (8, 9), "primitives_generated": (3, 6)}),
    # a loop may count its first vertex twice; a loop of 6 is 6 lines
    ("LINE_LOOP", {"vertices_submitted": (6, 7), "primitives_generated": (6, 6), "primitives_submitted": (6, 6)}),
    # 8 vertices: two triangles and an incomplete one, whose vertices and primitive may be counted
    ("TRIANGLES", {"vertices_submitted": (6, 8), "primitives_generated": (2, 2), "primitives_submitted": (2, 3)}),
    # adjacency vertices may or may not be counted: only the main ones are sure
    ("LINES_ADJACENCY", {"vertices_submitted": (4, 10), "primitives_generated": (2, 2), "primitives_submitted": (2, 3)}),
])
def test_query_bounds_follow_10_10_and_13_4(mode, bounds):
    from tests.primitives import build
    case = build.make_case(build.Plan(mode, readout="stats"))
    assert {name: (low, high) for name, low, high in case.expect[0].bounds} == bounds
