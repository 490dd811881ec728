"""The layer's quads GS (harness/backends/vk/quads_gs.py) and the assembly of a draw
(harness/backends/vk/assembly.py): glslang takes every kind; flat outputs come from the provoking
input vertex and the others from their own; gl_PrimitiveID is the input primitive's; each GL
mode and restart reaches Vulkan in the path chosen, and each hazard plants its wrong choice."""
from __future__ import annotations

import re

import pytest

from harness.backends.vk import assembly, quads_gs, spirv
from harness.model.case import Draw, DrawEntry

VS = """#version 460
layout(location = 0) in vec2 a_position;
layout(location = 0) flat out int v_id;
layout(location = 1) out vec4 v_smooth;
layout(location = 2) out dvec2 v_double;
layout(location = 4) out Flat { flat int id; vec2 smooth_member; } v_block;
void main()
{
    v_id = 1; v_smooth = vec4(1.0); v_double = dvec2(1.0); v_block.id = 2; v_block.smooth_member = vec2(0.0);
    gl_Position = vec4(a_position, 0.0, 1.0);
    gl_PointSize = 1.0;
}
"""


@pytest.mark.parametrize("kind", quads_gs.KINDS)
@pytest.mark.parametrize("provoking", [0, 3, None])
def test_every_kind_compiles_and_copies_flat_outputs_from_the_provoking_vertex(kind, provoking):
    gs = quads_gs.quads_gs(VS, kind, provoking)
    assert spirv.compile_glsl("gs", gs)
    source = "p" if provoking is not None else "v"
    assert f"_quad_out0 = _quad_in0[{source}];" in gs               # flat int
    assert "_quad_out1 = _quad_in1[v];" in gs                       # smooth vec4
    assert f"_quad_out2 = _quad_in2[{source}];" in gs               # a double is flat
    assert f"_quad_block_out0.id = _quad_block_in0[{source}].id;" in gs
    assert "_quad_block_out0.smooth_member = _quad_block_in0[v].smooth_member;" in gs
    assert "gl_PrimitiveID = gl_PrimitiveIDIn;" in gs and "gl_PointSize = gl_in[v].gl_PointSize;" in gs


def test_a_quad_is_two_triangles_of_its_winding_and_its_outline_a_closed_strip():
    emitted = {kind: re.findall(r"emit\((\d), (\d)\)", quads_gs.quads_gs(VS, kind, 3)) for kind in quads_gs.KINDS}
    assert [int(v) for v, _ in emitted["quads"]] == [0, 1, 2, 0, 2, 3]
    assert [int(v) for v, _ in emitted["quad-outline"]] == [0, 1, 2, 3, 0]
    assert [int(v) for v, _ in emitted["edges"]] == [1, 2]


def _draw(mode: str, command: str = "DrawElements", restart: int | None = None) -> Draw:
    return Draw(command, mode, (DrawEntry(6, 1, 0),), restart_index=restart)


INDICES = [3, 4, 5, 7, 6, 8]
NATIVE = assembly.Paths()


def test_quads_are_lines_adjacency_through_the_gs_provoked_by_the_conventions_vertex():
    for first, provoking in ((True, 0), (False, 3)):
        asm = assembly.plan(_draw("QUADS"), INDICES, "UNSIGNED_SHORT", NATIVE, first)
        assert (asm.topology, asm.gs, asm.provoking, asm.indices) == ("LINES_ADJACENCY", "quads", provoking, None)
    hazard = assembly.plan(_draw("QUADS"), INDICES, "UNSIGNED_SHORT", assembly.Paths(without=frozenset(
        {"quads-provoking"})), False)
    assert hazard.provoking is None


def test_an_array_draw_of_a_rewritten_mode_becomes_an_element_draw_of_its_indices():
    asm = assembly.plan(Draw("DrawArrays", "LINE_LOOP", (DrawEntry(3, 1, 2),)), [], "UNSIGNED_SHORT", NATIVE, False)
    assert asm.draw.command == "DrawElements" and asm.topology == "LINE_STRIP"
    assert asm.indices == (2, 3, 4, 2) and asm.index_type == "UNSIGNED_INT"


@pytest.mark.parametrize("paths, restart, expected", [
    (NATIVE, True, None),                                                  # the extension restarts
    (assembly.Paths(list_restart="split"), False, (3, 4, 5)),              # runs 3 4 5 | 6 8: whole triangles
    (assembly.Paths(without=frozenset({"list-restart"})), False, (3, 4, 5, 6, 8)),     # the runs joined
])
def test_list_restart_native_split_or_ignored(paths, restart, expected):
    asm = assembly.plan(_draw("TRIANGLES", restart=7), INDICES, "UNSIGNED_SHORT", paths, False)
    assert (asm.restart, asm.indices) == (restart, expected)


def test_a_chosen_restart_index_is_recorded_rewritten_or_left_in_place():
    draw = _draw("TRIANGLE_STRIP", restart=7)
    native = assembly.plan(draw, INDICES, "UNSIGNED_BYTE", NATIVE, False)
    assert (native.restart, native.restart_index, native.indices) == (True, 7, None)
    rewrite = assembly.plan(draw, INDICES, "UNSIGNED_BYTE", assembly.Paths(restart_index="rewrite"), False)
    assert (rewrite.restart_index, rewrite.indices) == (None, (3, 4, 5, 0xFF, 6, 8))
    hazard = assembly.plan(draw, INDICES, "UNSIGNED_BYTE", assembly.Paths(without=frozenset({"restart-index"})), False)
    assert (hazard.restart, hazard.restart_index, hazard.indices) == (True, None, None)


def test_8_bit_indices_bound_widened_or_misread():
    draw = _draw("TRIANGLES")
    assert assembly.plan(draw, INDICES, "UNSIGNED_BYTE", NATIVE, False).bind_as == "UNSIGNED_BYTE"
    wide = assembly.plan(draw, INDICES, "UNSIGNED_BYTE", assembly.Paths(index_uint8="widen"), False)
    assert (wide.indices, wide.bind_as) == (tuple(INDICES), "UNSIGNED_SHORT")
    hazard = assembly.plan(draw, INDICES, "UNSIGNED_BYTE", assembly.Paths(without=frozenset({"index-uint8"})), False)
    assert (hazard.indices, hazard.index_type, hazard.bind_as) == (None, "UNSIGNED_BYTE", "UNSIGNED_SHORT")


def test_a_restart_index_above_the_types_maximum_leaves_restart_off():
    asm = assembly.plan(_draw("TRIANGLE_STRIP", restart=0x1FF), INDICES, "UNSIGNED_BYTE", NATIVE, False)
    assert not asm.restart and asm.restart_index is None
