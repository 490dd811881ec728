"""The primitives family's index-type switches: one element array of bytes, two draws reading
their parts as different index types, each restarting where 10.3.6 says for its type."""
from __future__ import annotations

import pytest

from harness.model.case import Case
from harness.oracle import primitives as oracle
from tests.primitives import build, switches


@pytest.mark.parametrize("token", switches.TYPE_SWITCHES)
@pytest.mark.parametrize("mode", ["TRIANGLES", "LINE_LOOP", "QUAD_STRIP"])
def test_each_draw_restarts_where_its_type_says(mode, token):
    case = switches.type_switch(mode, token)
    assert Case.from_json(case.to_json()) == case and case.index_type == "UNSIGNED_BYTE"
    runs = []
    for draw in case.draws():
        index_type = case.index_type_of(draw)
        (entry,) = draw.entries
        values = case.elements(index_type)[entry.first:entry.first + entry.count]
        runs.append([len(r) for r in oracle.runs(values, draw.restart(index_type))])
        if "fixed-index" in token:
            assert draw.restart_fixed and draw.restart_index is None
    # the runs each draw's own family case lays out (RESTART_RUNS): restart happens in both draws,
    # except a 0xffff restart index over bytes, which no byte equals
    restarted = list(build.RESTART_RUNS[mode])
    assert runs == [restarted, [build.RUN[mode]] if token.endswith("ffff") else restarted]


def test_draw_1_holds_0xff_as_a_vertex_where_a_stale_restart_would_split_it():
    for token in ("elements-ubyte-then-ushort/restart-fixed-index", "elements-ushort-then-ubyte/restart-index-ffff"):
        case = switches.type_switch("TRIANGLES", token)
        draw = case.draws()[1]
        (entry,) = draw.entries
        assert 0xFF in case.elements(case.index_type_of(draw))[entry.first:entry.first + entry.count]


def test_elements_reads_the_bytes_as_another_type():
    case = switches.type_switch("POINTS", "elements-ushort-then-ubyte/restart-fixed-index")
    words = case.elements("UNSIGNED_SHORT")
    assert words[:3] == tuple(case.indices[2 * i] | case.indices[2 * i + 1] << 8 for i in range(3))
    assert case.elements() == case.indices
