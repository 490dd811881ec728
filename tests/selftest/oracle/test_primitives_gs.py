"""The primitives family through a geometry shader, and its statistics and clipping counts: the
expectations the generator computes, and the verdict failing on planted wrong readbacks."""
from __future__ import annotations

import numpy as np
import pytest

from harness.model.expectations import UNBOUNDED
from harness.model.observation import Observation, Step
from harness.oracle.verdict import check
from tests.primitives import build, geometry


def consistent(case) -> Observation:
    """An observation that meets every expectation: the image holds the expected channels (the
    rest cleared), the counts their expected values or their bounds' lowest."""
    steps = []
    for exp in case.expect:
        width, height = case.readback.image or (1, 1)
        image = np.full(width * height * 4, case.readback.clear, dtype="<f4")
        for pixel in exp.pixels:
            image[pixel.index] = pixel.value
        counts = dict(exp.counts) | {name: low for name, low, _ in exp.bounds}
        steps.append(Step(counts=counts, image=image.tobytes() if case.readback.image else None))
    return Observation(steps=steps)


def with_pixel(case, observation: Observation, wanted: str, change, channel: str = "") -> tuple[Observation, str]:
    """The observation with the first expected channel whose quantity contains `wanted` (and
    `channel`) changed."""
    pixel = next(p for p in case.expect[0].pixels if wanted in p.quantity and channel in p.quantity)
    image = np.frombuffer(observation.steps[0].image or b"", dtype="<f4").copy()
    image[pixel.index] = change(pixel.value)
    observation.steps[0].image = image.tobytes()
    return observation, pixel.quantity


def test_every_type_a_gs_takes_has_its_input_layout():
    assert set(geometry.INPUT) | set(geometry.REFUSED) == set(build.oracle.MODES)
    case = build.make_case(build.Plan("TRIANGLE_STRIP_ADJACENCY", gs=1))
    gs = case.shader("gs")
    assert "layout(triangles_adjacency) in;" in gs and "gl_PrimitiveID = gl_PrimitiveIDIn;" in gs
    assert [stage for stage, _ in case.shaders] == ["vs", "gs", "fs"] and "flat in int g_id;" in case.shader("fs")


@pytest.mark.parametrize("path, restart", [("elements-bv", "chosen"), ("multi-elements-bv", "fixed")])
def test_consistent_gs_readback_passes_and_a_restarted_primitive_id_fails(path, restart):
    case = build.make_case(build.Plan("LINE_STRIP", path=path, index_type="ushort", restart=restart, gs=1))
    assert check(case, consistent(case)) == []
    # a layer that begins the count again at a restart: a later run's first primitive reads 0
    observation, quantity = with_pixel(case, consistent(case), "run 2, primitive 0", lambda v: 0.0, "gl_PrimitiveID")
    assert "gl_PrimitiveID" in quantity
    problems = check(case, observation)
    assert len(problems) == 1 and "gl_PrimitiveID (the GS's gl_PrimitiveIDIn) = 0" in problems[0], problems


def test_only_the_first_instance_and_sub_draw_count_primitive_ids():
    """Whether an instance or a multi-draw's sub-draw begins the count again is left open (the
    generator's quote): their primitive ids are not checked, their flat ids are."""
    case = build.make_case(build.Plan("TRIANGLES", path="multi-elements-bv", index_type="ushort", restart="fixed",
                                      gs=1))
    ids = [p.quantity for p in case.expect[0].pixels if "gl_PrimitiveID" in p.quantity]
    assert ids and all(q.startswith("entry 0,") for q in ids)
    assert any(p.quantity.startswith("entry 1,") for p in case.expect[0].pixels)
    case = build.make_case(build.Plan("POINTS", path="elements-instanced-bv", index_type="uint", gs=1))
    assert all(q.startswith("instance 0,") for q in (p.quantity for p in case.expect[0].pixels
                                                     if "gl_PrimitiveID" in p.quantity))


@pytest.mark.parametrize("mode", geometry.REFUSED)
def test_types_no_gs_takes_are_an_error_that_draws_nothing(mode):
    case = build.make_case(build.Plan(mode, gs=1))
    exp = case.expect[0]
    assert case.readback.gl_error and dict(exp.counts) == {"gl_error": 0x0502, "primitives_generated": 0}
    assert exp.pixels and all(p.value == build.CLEAR for p in exp.pixels)
    observation, _ = with_pixel(case, consistent(case), "nothing drawn", lambda v: 9.0)
    assert "flat id (nothing drawn" in check(case, observation)[0]


def test_gs_invocations_are_counted_per_invocation_and_at_least():
    case = build.make_case(build.Plan("TRIANGLES", readout="stats", gs=3))
    bounds = {name: (low, high) for name, low, high in case.expect[0].bounds}
    # 8 vertices: two triangles, each drawn by three invocations
    assert bounds["geometry_shader_invocations"] == (6, UNBOUNDED)
    assert bounds["geometry_shader_primitives_emitted"] == (6, UNBOUNDED)
    assert bounds["primitives_generated"] == (6, 6) and bounds["clipping_input_primitives"] == (6, 6)
    assert bounds["clipping_output_primitives"] == (6, UNBOUNDED)
    observation = consistent(case)
    assert check(case, observation) == []
    observation.steps[0].counts["geometry_shader_invocations"] = 2          # the invocations not counted
    assert check(case, observation) == [
        "draw 0 (glDrawArrays(GL_TRIANGLES)): geometry_shader_invocations = 2, expected at least 6"]


@pytest.mark.parametrize("mode, clip_in", [("QUADS", (2, 4)), ("POLYGON", (1, 4)), ("LINE_LOOP", (6, 6))])
def test_clipping_counts_follow_13_7_3(mode, clip_in):
    case = build.make_case(build.Plan(mode, readout="clipping"))
    bounds = {name: (low, high) for name, low, high in case.expect[0].bounds}
    assert bounds == {"clipping_input_primitives": clip_in, "clipping_output_primitives": (clip_in[0], UNBOUNDED)}
