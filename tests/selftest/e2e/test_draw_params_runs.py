"""The draw-parameters checks catch the hazards, on real drivers (llvmpipe, zink).

A layer that does not lower gl_BaseVertex gives a non-indexed draw Vulkan's BaseVertex, which
is `first`; one that splits multi-draws without passing the index gives gl_DrawID = 0. The
shaders below read exactly that instead of the built-in, and the verdict must name it.
"""
from __future__ import annotations

import dataclasses

import pytest

from harness.oracle.verdict import judge

ARRAYS = "draw_params/DrawArrays/f5c4/glsl450/vs"
MULTI = "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450/vs"
PINNED = [ARRAYS, MULTI,
          "draw_params/DrawElementsInstancedBaseVertexBaseInstance/uint/f3c4i3bv-2bi5/glsl450/vs",
          "draw_params/MultiDrawElementsIndirectCount/uint/f2c3i2bv7bi1+f0c0i1bv1bi0+f5c2i3bv-2bi4"
          "/off0-stride32/count1/glsl450/vs",
          "draw_params/DrawElements/ushort/restart/f0c8/glsl450/vs",
          "draw_params/sequence/arrays-indexed-arrays/glsl460/vs",
          "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450-drawid-only/vs"]


@pytest.mark.parametrize("case_id", PINNED)
def test_pinned_ids_exist(draw_params_cases, case_id):
    assert case_id in draw_params_cases


def with_vs(case, old: str, new: str):
    shaders = tuple((stage, src.replace(old, new) if stage == "vs" else src) for stage, src in case.shaders)
    assert shaders != case.shaders
    return dataclasses.replace(case, shaders=shaders)


def test_unmodified_cases_pass(executor, draw_params_cases):
    for case_id in (ARRAYS, MULTI):
        verdict = judge(draw_params_cases[case_id], executor.run(draw_params_cases[case_id]), "t")
        assert verdict.status == "pass", verdict.message


def test_base_vertex_equal_to_first_is_caught(executor, draw_params_cases):
    hazard = with_vs(draw_params_cases[ARRAYS], "x_base_vertex = gl_BaseVertexARB;", "x_base_vertex = 5;")
    verdict = judge(hazard, executor.run(hazard), "t")
    assert verdict.status == "fail"
    assert "draw 0 (glDrawArrays), vertex 0, instance 0: gl_BaseVertex = 5, expected 0" in verdict.message


def test_draw_id_stuck_at_zero_is_caught(executor, draw_params_cases):
    hazard = with_vs(draw_params_cases[MULTI], "x_draw_id = gl_DrawIDARB;", "x_draw_id = 0;")
    verdict = judge(hazard, executor.run(hazard), "t")
    assert verdict.status == "fail"
    assert "draw 0 (glMultiDrawArrays), entry 2, vertex 0, instance 0: gl_DrawID = 0, expected 2" in verdict.message
    assert "entry 0," not in verdict.message                         # entry 0 really is 0


def test_lost_draw_is_caught(executor, draw_params_cases):
    """A layer that drops the last sub-draw: fewer records, and the count says so."""
    case = draw_params_cases[MULTI]
    draws = (dataclasses.replace(case.steps[0], entries=case.steps[0].entries[:2]),)
    verdict = judge(dataclasses.replace(case, steps=draws), executor.run(dataclasses.replace(case, steps=draws)), "t")
    assert "xfb_vertices = 3, expected 5" in verdict.message
    assert "3 records captured, expected 5" in verdict.message
