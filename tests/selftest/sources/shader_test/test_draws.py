"""The drawing commands (harness/sources/shader_test/draws.py): draw arrays, draw rect, compute
and display lists."""
from __future__ import annotations

import pytest

from harness.model.case import CallList, DeleteList, Dispatch, Draw, DrawEntry, NewList
from harness.sources.shader_test import commands
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import Script


def builder(gl: tuple[int, int] = (2, 1), vs: str = "") -> Builder:
    b = Builder(Script())
    b.context.gl = gl
    b.shaders = [("vs", vs)] if vs else []
    return b


def run(b: Builder, *texts: str) -> None:
    for number, text in enumerate(texts, 1):
        commands.run(b, number, text)


def test_draw_arrays_and_instanced():
    b = builder()
    run(b, "draw arrays GL_TRIANGLES 0 3", "draw arrays instanced GL_POINTS 1 2 4")
    assert [(s.command, s.mode, s.entries) for s in b.steps] == [
        ("DrawArrays", "TRIANGLES", (DrawEntry(3),)), ("DrawArraysInstanced", "POINTS", (DrawEntry(2, 4, 1),))]
    with pytest.raises(Unsupported, match="primitive mode GL_BOGUS"):
        run(b, "draw arrays GL_BOGUS 0 3")


def test_draw_rect_adds_a_strip_and_ortho_maps_window_coordinates():
    b = builder()
    run(b, "draw rect ortho patch 0 0 125 250")
    draw = b.steps[0]
    assert isinstance(draw, Draw) and draw.mode == "PATCHES" and draw.state.patch_vertices == 4
    assert b.vertices.rows == 4
    assert b.vertices.columns["piglit_vertex"].data[:8] == [-1.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0]


def test_draw_rect_tex_uses_the_fixed_function_array_without_piglit_vertex():
    b = builder(vs="void main() { gl_Position = gl_Vertex; gl_TexCoord[0] = gl_MultiTexCoord0; }")
    run(b, "draw rect tex -1 -1 2 2 0 0 1 1")
    assert b.vertices.columns["gl_MultiTexCoord0"].location == -1
    core = builder(gl=(3, 3), vs="in vec4 piglit_vertex; void main() { gl_Position = gl_MultiTexCoord0; }")
    with pytest.raises(Unsupported, match="fixed-function arrays"):
        run(core, "draw rect tex -1 -1 2 2 0 0 1 1")


def test_compute_dispatches():
    b = builder(gl=(4, 3))
    run(b, "compute 2 3 4")
    assert isinstance(b.steps[0], Dispatch) and b.steps[0].work_groups == (2, 3, 4)


def test_a_display_list_holds_patch_parameters_and_one_draw():
    b = builder()
    run(b, "newlist GL_COMPILE", "patch parameter vertices 7", "draw arrays GL_PATCHES 0 7", "endlist")
    assert isinstance(b.steps[0], NewList) and b.steps[0].draw.state.patch_vertices == 7
    assert b.state.patch_vertices == 3                  # GL_COMPILE changes nothing until called
    run(b, "calllist")
    assert isinstance(b.steps[1], CallList) and b.state.patch_vertices == 7
    run(b, "deletelist")
    assert isinstance(b.steps[2], DeleteList) and b.display_list.contents is None
    with pytest.raises(Unsupported, match="compatibility profile"):
        run(builder(gl=(3, 3)), "newlist GL_COMPILE")
