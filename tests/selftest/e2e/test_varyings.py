"""The varyings family's generator and checker, and its hazard caught on real drivers."""
from __future__ import annotations

import base64
import dataclasses
import re

import numpy as np
import pytest
from conftest import family

from harness.model.status import Result
from harness.oracle.verdict import judge

V = family("varyings")
SIMPLE = "varyings/vs-fs/glsl130compat/builtins-color+tex2+fog/users-3xvec4-12c"
BACKSIDE = "varyings/vs-fs/glsl130compat/builtins-color+secondary+tex0/two-side-back/users-2xvec4-8c"
CLIPPED = "varyings/vs-fs/glsl130compat/builtins-color+tex1/clipvertex/users-2xvec4-8c"
PINNED = [SIMPLE, BACKSIDE, CLIPPED,
          "varyings/vs-tcs-tes-gs-fs/glsl400compat/builtins-color+secondary+tex0+tex1+tex2+tex3+tex4+tex5"
          "+tex6+tex7+fog/users-5xvec4-20c",
          "varyings/vs-fs/glsl450core/builtins-none/users-16xvec4-64c/at-limit64",
          "varyings/vs-fs/glsl450core/builtins-none/users-17xvec4-68c/over-limit64",
          "varyings/vs-fs/glsl450core/separable/builtins-pointsize/users-3xvec4-loc0+3+8-12c",
          "varyings/vs-gs-fs/glsl450core/builtins-none/users-3xmat2x3-16c"]


@pytest.mark.parametrize("case_id", PINNED)
def test_pinned_ids_exist(varyings_cases, case_id):
    assert case_id in varyings_cases


def test_values_unique_within_each_case(varyings_cases):
    for case in varyings_cases.values():
        for exp in case.expect:
            by_source = {}
            for p in exp.pixels:
                if p.source:
                    assert by_source.setdefault(p.source, p.value) == p.value, (case.id, p.source)
            distinct = set(by_source.values()) | {v for v, _ in exp.written}
            assert len(distinct) == len(by_source) + len(exp.written), case.id
            assert case.readback.clear not in distinct


def test_every_read_varying_is_written_with_its_value(varyings_cases):
    """What the checker expects is what the VS writes: each expected value is a literal there."""
    for case in varyings_cases.values():
        vs = dict(case.shaders)["vs"]
        for p in case.expect[0].pixels:
            if p.source:
                assert re.search(rf"(?<![\d.]){re.escape(repr(p.value) if p.value != int(p.value) else f'{p.value:.0f}')}",
                                 vs), (case.id, p.source, p.value)


def test_pixel_layout_matches_the_fragment_shader(varyings_cases):
    case = varyings_cases[SIMPLE]
    fs = dict(case.shaders)["fs"]
    (exp,) = case.expect
    width, height = case.readback.image
    assert height == 2 and width == -(-len(exp.pixels) // 2 // 4)
    row0 = [p for p in exp.pixels if p.quantity.startswith("row 0")]
    assert [p.index for p in row0] == list(range(len(row0)))
    assert "if (k == 0) r = vec4(float(gl_Color.x), float(gl_Color.y), float(gl_Color.z), float(gl_Color.w));" in fs
    assert "float(gl_FogFragCoord)" in fs and "float(u2.w)" in fs


def test_clip_vertex_case_expects_the_clear_value_in_row_1(varyings_cases):
    case = varyings_cases[CLIPPED]
    unclipped, clipped = case.expect
    row1 = [p for p in clipped.pixels if p.quantity.startswith("row 1")]
    assert row1 and all(p.value == case.readback.clear for p in row1)
    assert all(p.value != case.readback.clear for p in unclipped.pixels)      # plane disabled first
    assert "gl_ClipVertex = a_position;" in dict(case.shaders)["vs"]
    assert case.steps[0].state.enable == () and case.steps[1].state.enable == ("CLIP_PLANE0",)


def image_from(case, replace=None) -> dict:
    """The image a correct driver produces for the case, built from its expectations; `replace`
    maps a source name to the source whose value shows up instead."""
    (exp,) = case.expect
    width, height = case.readback.image
    image = np.full(width * height * 4, -1.0, dtype="<f4")
    value_of = {p.source: p.value for p in exp.pixels if p.source}
    value_of.update({n: v for v, n in exp.written})
    for p in exp.pixels:
        image[p.index] = value_of[replace[p.source]] if replace and p.source in replace else p.value
    return {"steps": [{"counts": {}, "image": base64.b64encode(image.tobytes()).decode()}]}


def test_checker_names_the_varying_whose_value_arrived(varyings_cases):
    case = varyings_cases[SIMPLE]
    assert judge(case, Result("ok", observation=image_from(case)), "t").status == "pass"
    clobbered = image_from(case, replace={"u1.y": "gl_TexCoord[2].y"})
    verdict = judge(case, Result("ok", observation=clobbered), "t")
    assert verdict.status == "fail"
    got = next(p for p in case.expect[0].pixels if p.source == "gl_TexCoord[2].y").value
    want = next(p for p in case.expect[0].pixels if p.source == "u1.y").value
    assert f"row 0, FS input u1.y = {got:g} (the value of gl_TexCoord[2].y), expected {want:g}" in verdict.message


def test_checker_names_the_front_colour_when_the_back_one_was_due(varyings_cases):
    case = varyings_cases[BACKSIDE]
    wrong = image_from(case, replace={"gl_BackColor.x": "gl_FrontColor.x"})
    verdict = judge(case, Result("ok", observation=wrong), "t")
    assert "FS input gl_Color.x (gl_BackColor.x) = " in verdict.message
    assert "(the value of gl_FrontColor.x)" in verdict.message


def test_clobbered_slot_is_caught_on_a_real_driver(executor, varyings_cases):
    """The hazard itself: a user varying and a builtin land on one slot. Make the VS write the
    user varying u0's value into gl_TexCoord[2] as a careless slot map would."""
    case = varyings_cases[SIMPLE]
    assert judge(case, executor.run(case), "t").status == "pass"
    vs = dict(case.shaders)["vs"]
    u0 = re.search(r"u0 = (vec4\([^)]*\));", vs)[1]
    clobbered = re.sub(r"gl_TexCoord\[2\] = vec4\([^)]*\);", f"gl_TexCoord[2] = {u0};", vs)
    bad = dataclasses.replace(case, shaders=(("vs", clobbered),) + case.shaders[1:])
    verdict = judge(bad, executor.run(bad), "t")
    assert verdict.status == "fail"
    assert "FS input gl_TexCoord[2].x = " in verdict.message and "(the value of u0.x)" in verdict.message


def test_allowed_link_failure_is_skip_not_pass(executor, varyings_cases):
    """Over a limit the spec lets a program fail to link: that is a skip naming the reason.
    (A VS/FS type mismatch stands in for the limit, since it fails to link everywhere.)"""
    case = varyings_cases["varyings/vs-fs/glsl450core/builtins-none/users-17xvec4-68c/over-limit64"]
    unlinkable = dataclasses.replace(case, requires=dataclasses.replace(case.requires, limits=()), shaders=tuple(
        (s, src.replace("in vec4 u0;", "in vec3 u0;").replace("float(u0.w)", "0.0") if s == "fs" else src)
        for s, src in case.shaders))
    verdict = judge(unlinkable, executor.run(unlinkable), "t")
    assert verdict.status == "skip", verdict.message
    assert "one component over GL_MAX_VARYING_COMPONENTS; the program did not link" in verdict.message
    strict = dataclasses.replace(unlinkable, requires=dataclasses.replace(unlinkable.requires,
                                                                          link_failure_allowed=""))
    verdict = judge(strict, executor.run(strict), "t")
    assert verdict.status == "fail" and "program failed to link" in verdict.message
