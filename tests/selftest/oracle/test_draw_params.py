"""Self-tests of the draw-parameter model (harness/oracle/draw_params.py).

Every expected list is worked out by hand from the GL 4.6 section 10.4 definitions and the
GLSL 4.60 built-in rules, not taken from any driver. Rows are written as
(entry, instance, vertex, vertex_id, instance_id, base_vertex, base_instance, draw_id,
fetched_vertex, fetched_instance) unless a test picks fewer fields.
"""
from __future__ import annotations

import pytest

from harness.model.case import DrawEntry
from harness.oracle.draw_params import (
    ARRAYS_COMMANDS, COMMANDS, ELEMENTS_COMMANDS, INDIRECT_COMMANDS, MULTI_COMMANDS,
    Invocation, invocations, takes,
)

ALL = ("entry", "instance", "vertex", "vertex_id", "instance_id", "base_vertex",
       "base_instance", "draw_id", "fetched_vertex", "fetched_instance")


def rows(invs, *fields):
    fields = fields or ALL
    return [tuple(getattr(inv, f) for f in fields) for inv in invs]


# --- command sets and `takes` -----------------------------------------------------------

def test_command_sets():
    assert len(COMMANDS) == 20 and len(set(COMMANDS)) == 20
    assert COMMANDS[0] == "DrawArrays" and COMMANDS[-1] == "MultiDrawElementsIndirectCount"
    for c in COMMANDS:
        assert (c in ARRAYS_COMMANDS) != (c in ELEMENTS_COMMANDS), c
        assert {"count", "first"} <= takes(c) <= {f for f in DrawEntry.__dataclass_fields__}
    assert ARRAYS_COMMANDS | ELEMENTS_COMMANDS == set(COMMANDS)
    assert MULTI_COMMANDS == {
        "MultiDrawArrays", "MultiDrawElements", "MultiDrawElementsBaseVertex",
        "MultiDrawArraysIndirect", "MultiDrawElementsIndirect",
        "MultiDrawArraysIndirectCount", "MultiDrawElementsIndirectCount"}
    assert INDIRECT_COMMANDS == {
        "DrawArraysIndirect", "DrawElementsIndirect", "MultiDrawArraysIndirect",
        "MultiDrawElementsIndirect", "MultiDrawArraysIndirectCount",
        "MultiDrawElementsIndirectCount"}


def test_takes_table():
    C, F, I, V, B = "count", "first", "instance_count", "base_vertex", "base_instance"
    expected = {
        "DrawArrays": {C, F},
        "DrawArraysInstanced": {C, F, I},
        "DrawArraysInstancedBaseInstance": {C, F, I, B},
        "DrawElements": {C, F},
        "DrawRangeElements": {C, F},
        "DrawElementsBaseVertex": {C, F, V},
        "DrawRangeElementsBaseVertex": {C, F, V},
        "DrawElementsInstanced": {C, F, I},
        "DrawElementsInstancedBaseVertex": {C, F, I, V},
        "DrawElementsInstancedBaseInstance": {C, F, I, B},
        "DrawElementsInstancedBaseVertexBaseInstance": {C, F, I, V, B},
        "MultiDrawArrays": {C, F},
        "MultiDrawElements": {C, F},
        "MultiDrawElementsBaseVertex": {C, F, V},
        # DrawArraysIndirectCommand: count, instanceCount, first, baseInstance.
        "DrawArraysIndirect": {C, F, I, B},
        "MultiDrawArraysIndirect": {C, F, I, B},
        "MultiDrawArraysIndirectCount": {C, F, I, B},
        # DrawElementsIndirectCommand: count, instanceCount, firstIndex, baseVertex, baseInstance.
        "DrawElementsIndirect": {C, F, I, V, B},
        "MultiDrawElementsIndirect": {C, F, I, V, B},
        "MultiDrawElementsIndirectCount": {C, F, I, V, B},
    }
    assert set(expected) == set(COMMANDS)
    for c in COMMANDS:
        assert takes(c) == expected[c], c


def test_base_vertex_is_zero_for_every_arrays_command():
    # GLSL 4.60: gl_BaseVertex is the basevertex argument, zero when there is none; arrays
    # commands have none, so first (Vulkan's firstVertex) must not leak into it.
    entry = DrawEntry(count=2, instance_count=1, first=5, base_vertex=9, base_instance=0)
    for c in sorted(ARRAYS_COMMANDS):
        dc = 1 if c.endswith("Count") else None
        invs = invocations(c, [entry], draw_count=dc)
        assert rows(invs, "vertex_id", "base_vertex", "fetched_vertex") == [
            (5, 0, 5), (6, 0, 6)], c


# --- single array draws -----------------------------------------------------------------

def test_draw_arrays():
    # DrawArraysOneInstance(first=3, count=2): vertex ids 3, 4; nothing else is non-zero.
    invs = invocations("DrawArrays", [DrawEntry(count=2, first=3)])
    assert invs == [
        Invocation(0, 0, 0, 3, 0, 0, 0, 0, 3, 0),
        Invocation(0, 0, 1, 4, 0, 0, 0, 0, 4, 0),
    ]


def test_draw_arrays_ignores_fields_it_does_not_take():
    # instance_count, base_vertex, base_instance are not DrawArrays arguments.
    invs = invocations("DrawArrays", [DrawEntry(count=1, instance_count=3, first=0,
                                            base_vertex=7, base_instance=4)])
    assert rows(invs) == [(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)]


def test_draw_arrays_instanced_base_instance():
    # Instance 0 then instance 1, each over vertices first..first+count-1 = 1, 2.
    # gl_InstanceID excludes baseinstance; the divisor-1 attribute reads instance + 5.
    invs = invocations("DrawArraysInstancedBaseInstance",
                       [DrawEntry(count=2, instance_count=2, first=1, base_instance=5)])
    assert rows(invs) == [
        (0, 0, 0, 1, 0, 0, 5, 0, 1, 5),
        (0, 0, 1, 2, 0, 0, 5, 0, 2, 5),
        (0, 1, 0, 1, 1, 0, 5, 0, 1, 6),
        (0, 1, 1, 2, 1, 0, 5, 0, 2, 6),
    ]


def test_draw_arrays_instanced_has_no_base_instance():
    invs = invocations("DrawArraysInstanced",
                       [DrawEntry(count=1, instance_count=2, first=4, base_instance=5)])
    assert rows(invs, "vertex_id", "instance_id", "base_instance", "fetched_instance") == [
        (4, 0, 0, 0), (4, 1, 0, 1)]


# --- single element draws ---------------------------------------------------------------

IDX = [10, 11, 12, 13, 14, 15]


def test_draw_elements_offset():
    # first=2 offsets into the element array: indices[2], indices[3] = 12, 13.
    invs = invocations("DrawElements", [DrawEntry(count=2, first=2, base_vertex=100)], IDX)
    assert rows(invs, "vertex", "vertex_id", "base_vertex", "fetched_vertex") == [
        (0, 12, 0, 12), (1, 13, 0, 13)]


def test_draw_elements_base_vertex_negative():
    # indices[1..3] = 11, 12, 13; gl_VertexID = index + (-10) = 1, 2, 3; gl_BaseVertex = -10.
    invs = invocations("DrawElementsBaseVertex", [DrawEntry(count=3, first=1, base_vertex=-10)], IDX)
    assert rows(invs) == [
        (0, 0, 0, 1, 0, -10, 0, 0, 1, 0),
        (0, 0, 1, 2, 0, -10, 0, 0, 2, 0),
        (0, 0, 2, 3, 0, -10, 0, 0, 3, 0),
    ]


def test_draw_range_elements_base_vertex():
    # Same as DrawElementsBaseVertex; start/end are only a promise about the indices.
    # indices[4], indices[5] = 14, 15; + 3 -> 17, 18.
    invs = invocations("DrawRangeElementsBaseVertex", [DrawEntry(count=2, first=4, base_vertex=3)], IDX)
    assert rows(invs, "vertex_id", "base_vertex", "draw_id") == [(17, 3, 0), (18, 3, 0)]
    plain = invocations("DrawRangeElements", [DrawEntry(count=2, first=4, base_vertex=3)], IDX)
    assert rows(plain, "vertex_id", "base_vertex") == [(14, 0), (15, 0)]


def test_draw_elements_instanced_base_vertex_base_instance():
    # 2 instances x indices[0..1] = 10, 11; + base_vertex 2 -> 12, 13; baseinstance 7.
    invs = invocations("DrawElementsInstancedBaseVertexBaseInstance",
                       [DrawEntry(count=2, instance_count=2, first=0, base_vertex=2, base_instance=7)],
                       IDX)
    assert rows(invs) == [
        (0, 0, 0, 12, 0, 2, 7, 0, 12, 7),
        (0, 0, 1, 13, 0, 2, 7, 0, 13, 7),
        (0, 1, 0, 12, 1, 2, 7, 0, 12, 8),
        (0, 1, 1, 13, 1, 2, 7, 0, 13, 8),
    ]


def test_draw_elements_instanced_base_instance_has_no_base_vertex():
    invs = invocations("DrawElementsInstancedBaseInstance",
                       [DrawEntry(count=1, instance_count=2, first=5, base_vertex=2, base_instance=3)],
                       IDX)
    assert rows(invs, "vertex_id", "instance_id", "base_vertex", "base_instance",
                "fetched_instance") == [(15, 0, 0, 3, 3), (15, 1, 0, 3, 4)]


# --- primitive restart ------------------------------------------------------------------

def test_primitive_restart_compared_before_base_vertex():
    # indices[0..4] = 0, 5, 2, 5, 3 with restart index 5 and basevertex 3:
    # positions 1 and 3 hold 5 and are dropped (even though 2 + 3 == 5 afterwards, position 2
    # is not: the comparison happens before basevertex is added). Kept positions keep
    # their numbers: 0 -> 3, 2 -> 5, 4 -> 6.
    idx = [0, 5, 2, 5, 3]
    invs = invocations("DrawElementsInstancedBaseVertex",
                       [DrawEntry(count=5, instance_count=2, base_vertex=3)], idx, restart_index=5)
    assert rows(invs, "instance", "vertex", "vertex_id", "base_vertex") == [
        (0, 0, 3, 3), (0, 2, 5, 3), (0, 4, 6, 3),
        (1, 0, 3, 3), (1, 2, 5, 3), (1, 4, 6, 3),
    ]
    # Without restart all five positions are drawn.
    invs = invocations("DrawElementsBaseVertex", [DrawEntry(count=5, base_vertex=3)], idx)
    assert rows(invs, "vertex_id") == [(3,), (8,), (5,), (8,), (6,)]


def test_primitive_restart_ignored_for_arrays():
    # 10.3.6: restart applies only to commands that take a type (element commands).
    invs = invocations("DrawArrays", [DrawEntry(count=3, first=0)], restart_index=1)
    assert rows(invs, "vertex_id") == [(0,), (1,), (2,)]


# --- multi draws ------------------------------------------------------------------------

def test_multi_draw_arrays_draw_ids():
    # Entries (count 2 at 0), (count 0 at 7), (count 1 at 4): the empty sub-draw uses up
    # draw id 1, so the third one's vertex has gl_DrawID 2. gl_BaseVertex stays 0.
    invs = invocations("MultiDrawArrays",
                       [DrawEntry(count=2, first=0), DrawEntry(count=0, first=7), DrawEntry(count=1, first=4)])
    assert rows(invs) == [
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 1, 0, 0, 0, 0, 1, 0),
        (2, 0, 0, 4, 0, 0, 0, 2, 4, 0),
    ]


def test_multi_draw_elements_base_vertex():
    # Sub-draw 0: indices[0..1] = 10, 11, + 1 -> 11, 12. Sub-draw 1: indices[3] = 13, - 13 -> 0.
    invs = invocations("MultiDrawElementsBaseVertex",
                       [DrawEntry(count=2, first=0, base_vertex=1),
                        DrawEntry(count=1, first=3, base_vertex=-13, instance_count=4)], IDX)
    assert rows(invs) == [
        (0, 0, 0, 11, 0, 1, 0, 0, 11, 0),
        (0, 0, 1, 12, 0, 1, 0, 0, 12, 0),
        (1, 0, 0, 0, 0, -13, 0, 1, 0, 0),
    ]
    # MultiDrawElements takes no basevertex.
    invs = invocations("MultiDrawElements",
                       [DrawEntry(count=1, first=0, base_vertex=1), DrawEntry(count=1, first=3)], IDX)
    assert rows(invs, "vertex_id", "base_vertex", "draw_id") == [(10, 0, 0), (13, 0, 1)]


def test_multi_draw_empty():
    for c in sorted(MULTI_COMMANDS):
        dc = 0 if c.endswith("Count") else None
        assert invocations(c, [], draw_count=dc) == []


# --- indirect draws ---------------------------------------------------------------------

def test_draw_arrays_indirect_base_instance():
    # DrawArraysIndirectCommand {count 1, instanceCount 2, first 6, baseInstance 3}.
    invs = invocations("DrawArraysIndirect",
                       [DrawEntry(count=1, instance_count=2, first=6, base_vertex=9, base_instance=3)])
    assert rows(invs) == [
        (0, 0, 0, 6, 0, 0, 3, 0, 6, 3),
        (0, 1, 0, 6, 1, 0, 3, 0, 6, 4),
    ]


def test_draw_elements_indirect():
    # DrawElementsIndirectCommand {count 2, instanceCount 1, firstIndex 1, baseVertex -5,
    # baseInstance 2}: indices[1], indices[2] = 11, 12 -> 6, 7.
    invs = invocations("DrawElementsIndirect",
                       [DrawEntry(count=2, first=1, base_vertex=-5, base_instance=2)], IDX)
    assert rows(invs) == [
        (0, 0, 0, 6, 0, -5, 2, 0, 6, 2),
        (0, 0, 1, 7, 0, -5, 2, 0, 7, 2),
    ]


def test_multi_draw_elements_indirect():
    invs = invocations("MultiDrawElementsIndirect",
                       [DrawEntry(count=1, first=0, base_vertex=1, base_instance=4),
                        DrawEntry(count=1, instance_count=2, first=2, base_vertex=0, base_instance=1)],
                       IDX)
    assert rows(invs, "entry", "vertex_id", "instance_id", "base_vertex", "base_instance",
                "draw_id", "fetched_instance") == [
        (0, 11, 0, 1, 4, 0, 4),
        (1, 12, 0, 0, 1, 1, 1),
        (1, 12, 1, 0, 1, 1, 2),
    ]


def test_indirect_count_draws_min_of_count_and_max():
    entries = [DrawEntry(count=1, first=0), DrawEntry(count=1, first=1), DrawEntry(count=1, first=2)]
    # draw_count 2 < maxdrawcount 3: only the first two sub-draws run.
    invs = invocations("MultiDrawArraysIndirectCount", entries, draw_count=2)
    assert rows(invs, "entry", "vertex_id", "draw_id") == [(0, 0, 0), (1, 1, 1)]
    # draw_count 9 > maxdrawcount 3: all three.
    invs = invocations("MultiDrawArraysIndirectCount", entries, draw_count=9)
    assert rows(invs, "entry", "vertex_id", "draw_id") == [(0, 0, 0), (1, 1, 1), (2, 2, 2)]
    # draw_count 0: nothing.
    assert invocations("MultiDrawElementsIndirectCount", entries, IDX, draw_count=0) == []
    # Elements variant, draw_count 1: only indices[0] + 2 = 12.
    invs = invocations("MultiDrawElementsIndirectCount",
                       [DrawEntry(count=1, base_vertex=2, base_instance=1), DrawEntry(count=1, first=99)],
                       IDX, draw_count=1)
    assert rows(invs) == [(0, 0, 0, 12, 0, 2, 1, 0, 12, 1)]


def test_zero_counts():
    assert invocations("DrawArrays", [DrawEntry(count=0, first=3)]) == []
    assert invocations("DrawElementsInstanced", [DrawEntry(count=2, instance_count=0)], IDX) == []


# --- errors -----------------------------------------------------------------------------

def test_single_commands_take_exactly_one_entry():
    for c in sorted(set(COMMANDS) - MULTI_COMMANDS):
        with pytest.raises(ValueError, match="exactly one"):
            invocations(c, [DrawEntry(count=1), DrawEntry(count=1)], IDX)
        with pytest.raises(ValueError, match="exactly one"):
            invocations(c, [], IDX)


def test_index_out_of_range():
    with pytest.raises(ValueError, match="out of range"):
        invocations("DrawElements", [DrawEntry(count=3, first=4)], IDX)     # positions 4..6 of 6
    with pytest.raises(ValueError, match="out of range"):
        invocations("MultiDrawElements", [DrawEntry(count=1), DrawEntry(count=1, first=6)], IDX)
    with pytest.raises(ValueError, match="out of range"):
        invocations("DrawElements", [DrawEntry(count=1)])                  # no indices at all


def test_draw_count_only_for_count_commands():
    with pytest.raises(ValueError, match="draw_count"):
        invocations("MultiDrawArraysIndirect", [DrawEntry(count=1)], draw_count=1)
    with pytest.raises(ValueError, match="draw_count"):
        invocations("DrawArrays", [DrawEntry(count=1)], draw_count=0)
    with pytest.raises(ValueError, match="draw_count"):
        invocations("MultiDrawArraysIndirectCount", [DrawEntry(count=1)])
    with pytest.raises(ValueError, match="draw_count"):
        invocations("MultiDrawArraysIndirectCount", [DrawEntry(count=1)], draw_count=-1)


def test_negative_arguments_and_unknown_command():
    with pytest.raises(ValueError, match="count"):
        invocations("DrawArrays", [DrawEntry(count=-1)])
    with pytest.raises(ValueError, match="instance_count"):
        invocations("DrawArraysInstanced", [DrawEntry(count=1, instance_count=-2)])
    with pytest.raises(ValueError, match="unknown"):
        invocations("glDrawArrays", [DrawEntry(count=1)])
    with pytest.raises(ValueError, match="unknown"):
        takes("DrawMeshTasks")
