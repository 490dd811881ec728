"""What the GL runner sets beyond a draw (harness/backends/gl/state.py) and which programs it keeps
across cases (harness/backends/gl/programs.py), as pure logic: shader_runner's textures texel by
texel, capability names, and the program cache's rule."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from harness.backends.gl import programs, state
from harness.model.case import Texture

RED, GREEN, BLUE, WHITE = (1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)


def test_rgbw_has_red_at_the_origin_then_green_blue_white_quadrants():
    texels = state.texels(Texture(0, "rgbw", 4, 4))[0]            # slice z = 0, rows by y
    assert [tuple(texels[y][x]) for y, x in ((0, 0), (0, 3), (3, 0), (3, 3))] == [RED, GREEN, BLUE, WHITE]


def test_a_1d_rgbw_is_quarters_and_a_3d_one_has_its_back_half_behind():
    row = state.texels(Texture(0, "rgbw", 8, 1, target="1D"))[0][0]
    assert [tuple(row[x]) for x in (0, 2, 4, 6)] == [RED, GREEN, BLUE, WHITE]
    volume = state.texels(Texture(0, "rgbw", 2, 2, target="3D", depth=2))
    assert tuple(volume[1][0][0]) == (1, 1, 0, 1)                 # yellow behind red


def test_a_checkerboard_alternates_its_two_colours():
    colors = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    texels = state.texels(Texture(0, "checkerboard", 4, 4, colors=colors))[0]
    assert tuple(texels[0][0]) == colors[:4] and tuple(texels[0][2]) == colors[4:] == tuple(texels[2][0])
    assert tuple(texels[2][2]) == colors[:4]


def test_clip_planes_past_five_are_clip_distances():
    GL = SimpleNamespace(GL_CLIP_DISTANCE0=0x3000, GL_CULL_FACE=0x0B44)
    assert state.capability(GL, "CLIP_PLANE7") == 0x3007 and state.capability(GL, "CLIP_DISTANCE2") == 0x3002
    assert state.capability(GL, "CULL_FACE") == 0x0B44


@pytest.mark.parametrize("change, kept", [
    ({}, True),
    ({"separable": True}, False),
    ({"programs": ((("vs", "void main() {}"),),)}, False),
    ({"shaders": (("vs", "uniform float u; void main() {}"),)}, False),
])
def test_only_a_plain_program_without_uniforms_is_kept_across_cases(change, kept):
    case = SimpleNamespace(separable=False, programs=(), shaders=(("vs", "void main() {}"),), draws=lambda: ())
    assert programs.cacheable(SimpleNamespace(**(vars(case) | change))) is kept


def test_state_extras_are_only_what_shader_test_files_set():
    plain = SimpleNamespace(uniforms=(), polygon_mode="", polygon_mode_back="", front_face="", provoking_vertex="",
                            textures=(), projection=None, storage_buffers=())
    assert not state.has_extras(plain)
    assert state.has_extras(SimpleNamespace(**(vars(plain) | {"front_face": "CW"})))
    assert state.has_extras(SimpleNamespace(**(vars(plain) | {"polygon_mode_back": "LINE"})))
    assert state.has_extras(SimpleNamespace(**(vars(plain) | {"projection": np.eye(4).ravel()})))
