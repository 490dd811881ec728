"""shader_test import as shader_runner runs it (issue 18), on real llvmpipe and zink: a core file
that only enables GL_CLIP_DISTANCEi, uniform commands on uniform block members, `link error`
and `link success`-only files, several shaders a stage, 1D, 2D and 3D rgbw textures (the 1D
and 3D ones read through a fixed-function vertex stage's texture coordinates), `[vertex data]`
columns for the elements of an attribute array at an explicit location. Each file passes, and
a twin with one thing changed (a wrong expected colour, a program that links) fails: the
import checks what the file says, not less. The files under shader_tests_fidelity/ were
written for these tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.importers import shader_test as st
from harness.verdict import judge

FILES = Path(__file__).parent / "shader_tests_fidelity"
# file -> (text to replace, replacement) that must turn its pass into a fail
TWINS = {
    "core-clip-distance": ("probe rect rgba (0, 0, 12, 32) (0.0, 0.0, 0.0, 1.0)",
                           "probe rect rgba (0, 0, 12, 32) (0.0, 1.0, 0.0, 1.0)"),
    "ubo-members": ("probe all rgba 0.5 0.75 0.25 1.0", "probe all rgba 0.5 0.5 0.25 1.0"),
    "link-error": ("vec4 shade();", "vec4 shade() { return vec4(1.0); }"),
    "link-success": ("\treturn v * 0.5;", "\treturn v * undeclared;"),
    "texture-rgbw": ("relative probe rgba (0.75, 0.25) (0.0, 1.0, 0.0, 1.0)",
                     "relative probe rgba (0.75, 0.25) (0.0, 0.0, 1.0, 1.0)"),
    "texture-3d": ("relative probe rgba (0.25, 0.625) (1.0, 1.0, 0.0, 1.0)",       # the front slice's red
                   "relative probe rgba (0.25, 0.625) (1.0, 0.0, 0.0, 1.0)"),
    "texture-1d": ("probe rect rgba (0, 0, 16, 32) (0.0, 0.0, 1.0, 1.0)",
                   "probe rect rgba (0, 0, 16, 32) (0.0, 1.0, 0.0, 1.0)"),
    "attrib-array-columns": ("probe all rgba 1.0 0.5 0.0 1.0", "probe all rgba 0.25 0.5 0.75 1.0"),   # element 0's
}


def status(executor, case) -> tuple[str, str]:
    verdict = judge(case, executor.run(case), executor.target.name)
    return verdict.status, verdict.message


@pytest.mark.parametrize("name", sorted(TWINS))
def test_file_passes_and_its_twin_fails(executor, name):
    path = FILES / f"{name}.shader_test"
    case = st.load(path)
    assert not case.requires.unsupported, case.requires.unsupported
    assert status(executor, case) == ("pass", "")
    old, new = TWINS[name]
    text = path.read_text()
    assert old in text
    twin = st.to_case(text.replace(old, new), case.id + "-twin")
    result, message = status(executor, twin)
    assert result == "fail", message


def test_link_only_files_check_the_link():
    error, success = st.load(FILES / "link-error.shader_test"), st.load(FILES / "link-success.shader_test")
    assert [e.counts for e in error.expect] == [(("link_failed", 1),)]
    assert [e.counts for e in success.expect] == [(("link_failed", 0),)]
    assert [stage for stage, _ in success.shaders] == ["vs", "vs", "fs"]      # both VS sections


def test_clip_planes_only_where_the_file_sets_them():
    core = st.load(FILES / "core-clip-distance.shader_test")
    assert all(draw.state.clip_planes == () for draw in core.draws)
    assert core.draws[0].state.enable == ("CLIP_DISTANCE0",)


def test_array_element_columns_follow_the_explicit_location():
    case = st.load(FILES / "attrib-array-columns.shader_test")
    assert [(a.name, a.location) for a in case.attributes] == [("pos", 0), ("colours", 3), ("", 4)]
    assert case.attributes[2].data[:4] == (1.0, 0.5, 0.0, 1.0)
