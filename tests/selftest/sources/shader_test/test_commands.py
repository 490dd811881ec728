"""The [test] command table (harness/sources/shader_test/commands.py): which handler each
shader_runner command reaches, first match first, and what no entry takes is unsupported."""
from __future__ import annotations

import pytest

from harness.sources.shader_test import commands
from harness.sources.shader_test.builder import Builder
from harness.sources.shader_test.errors import Unsupported
from harness.sources.shader_test.sections import Script
from harness.sources.shader_test.state import Line

# A line for each entry, and the handler the table must give it.
SAMPLES = {
    "newlist GL_COMPILE": "display_list", "active shader program GL_VERTEX_SHADER": "active_shader_program",
    "clear color 0 0 0 1": "clear_color", "clear": "clear", "patch parameter vertices 4": "patch_parameter",
    "draw arrays GL_POINTS 0 1": "draw_arrays", "draw rect -1 -1 2 2": "draw_rect",
    "atomic counters 2": "atomic_counters", "probe atomic counter 0 == 1": "probe_counter",
    "probe ssbo int 0 0 == 1": "probe_storage", "ssbo 0 16": "storage_buffer", "compute 1 1 1": "compute",
    "active uniform u GL_UNIFORM_TYPE GL_FLOAT": "program_query", "probe all rgba 1 0 0 1": "probe",
    "relative probe rgb (0.5, 0.5) (1, 0, 0)": "probe", "tolerance 0 0 0 0": "tolerance",
    "uniform float u 1": "uniform", "ortho": "ortho", "disable GL_CLIP_PLANE0": "enable",
    "clip plane 0 1 0 0 0": "clip_plane", "polygon mode GL_FRONT_AND_BACK GL_LINE": "polygon_mode",
    "texture rgbw 0 (8, 8)": "texture", "texparameter 2D min linear": "texparameter", "fb tex 2d 0": "framebuffer",
    "provoking vertex first": "provoking_vertex", "frontface GL_CW": "front_face", "link error": "link",
}


def handler(text: str) -> str:
    line = Line(1, text, text.split())
    return next(c.handle.__name__ for c in commands.COMMANDS if c.matches(line))


@pytest.mark.parametrize("text", SAMPLES)
def test_each_command_reaches_its_handler(text):
    assert handler(text) == SAMPLES[text]


def test_every_entry_of_the_table_has_a_sample():
    assert {c.handle.__name__ for c in commands.COMMANDS} == set(SAMPLES.values())


def run(b: Builder, text: str) -> None:
    commands.run(b, 7, text)


@pytest.mark.parametrize("text, message", [
    ("frobnicate 3", r"^command 'frobnicate 3' \(line 7\)$"),
    ("texparameter 2D", r"cannot read it \(list index out of range\)"),
    ("tolerance a b c d", r"cannot read it \(could not convert"),
    ("texparameter 2D min linear", r"^command 'texparameter 2D min linear' \(line 7\)$"),   # no texture yet
    ("enable GL_BLEND", "capability GL_BLEND"),
])
def test_what_no_entry_takes_or_cannot_be_read_is_unsupported(text, message):
    with pytest.raises(Unsupported, match=message):
        run(Builder(Script()), text)


def test_state_commands_set_the_state_the_next_step_carries():
    b = Builder(Script())
    b.context.gl = (2, 1)
    for text in ("uniform vec2 u 1 2", "uniform vec2 u 3 4", "enable GL_CLIP_PLANE1", "clip plane 1 0 1 0 0",
                 "polygon mode GL_FRONT_AND_BACK GL_POINT", "texture rgbw 2 (4, 4)", "texparameter 2D mag linear",
                 "frontface GL_CW", "provoking vertex first", "ortho", "patch parameter vertices 5",
                 "draw arrays GL_PATCHES 0 5"):
        run(b, text)
    state = b.steps[0].state
    assert [u.values for u in state.uniforms] == [(3.0, 4.0)]
    assert state.enable == ("CLIP_PLANE1",) and state.clip_planes[1] == (0.0, 1.0, 0.0, 0.0)
    assert (state.polygon_mode, state.front_face, state.provoking_vertex) == ("POINT", "CW", "FIRST")
    assert state.textures[0].unit == 2 and state.textures[0].mag_filter == "LINEAR"
    assert state.projection[0] == 2 / 250 and state.patch_vertices == 5


def test_inside_a_display_list_every_line_belongs_to_the_list():
    b = Builder(Script())
    b.context.gl = (2, 1)
    run(b, "newlist GL_COMPILE")
    with pytest.raises(Unsupported, match="display lists holding patch parameters"):
        run(b, "clear")


def test_fb_tex_2d_makes_the_texture_the_image_of_its_format():
    """harness export writes an image case as `texture rgbw 0 (W, H) GL_RGBA32F` + `fb tex 2d 0`
    (values above 1 probed): the image is then that texture's size and format, and no texture
    the draws sample."""
    for format_, image_format in (("GL_RGBA32F", "RGBA32F"), ("", "RGBA8"), ("GL_RGBA8", "RGBA8")):
        b = Builder(Script())
        for text in (f"texture rgbw 0 (8, 4) {format_}".strip(), "fb tex 2d 0", "clear"):
            run(b, text)
        b.finish()
        case = b.case("shader_test/fb", "")
        assert (b.context.size, case.readback.image, case.readback.image_format) == ((8, 4), (8, 4), image_format)
        assert b.state.textures == {}


@pytest.mark.parametrize("lines, message", [
    (["fb tex 2d 0"], "fb tex 2d of a 2D rgbw texture"),                                  # no texture there
    (["texture rgbw 1D 0", "fb tex 2d 0"], "fb tex 2d of a 2D rgbw texture"),
    (["texture rgbw 0 (8, 4)", "clear", "fb tex 2d 0"], "before any draw, clear or probe"),
    (["texture rgbw 0 (8, 4) GL_R8", "fb tex 2d 0"], "rgbw texture formats GL_RGBA, GL_RGBA8, GL_RGBA32F only"),
])
def test_what_fb_tex_2d_cannot_be_is_unsupported(lines, message):
    b = Builder(Script())
    with pytest.raises(Unsupported, match=message):
        for text in lines:
            run(b, text)


def test_fb_tex_2d_read_before_a_clear_is_unsupported():
    """Its texels would be shader_runner's rgbw pattern, and the harness's image starts cleared."""
    b = Builder(Script())
    for text in ("texture rgbw 0 (8, 4) GL_RGBA32F", "fb tex 2d 0", "probe all rgba 0 0 0 0"):
        run(b, text)
    with pytest.raises(Unsupported, match="before the first `clear`"):
        b.finish()
