"""The tessellation family's checks catch the hazards, on real drivers (llvmpipe, zink).

Each test takes a real case that passes, builds in one hazard a layer could have (a TCS that
writes stale levels, a TES that drops a vertex's value, a draw on the wrong program, primitive
ids that do not restart per instance, ...) and asserts that the verdict fails and names the
quantity, with observed and expected values, the draw and the patch.
"""
from __future__ import annotations

import dataclasses
import re


from harness.oracle.verdict import judge


def verdict(executor, case):
    return judge(case, executor.run(case), executor.target.name)


def with_stage(case, stage: str, old: str, new: str, program: int = 0, regex: bool = False):
    """The case with `old` replaced by `new` in one stage of one of its programs."""
    def edit(shaders):
        out = []
        for s, src in shaders:
            if s == stage:
                changed = re.sub(old, new, src) if regex else src.replace(old, new)
                assert changed != src, f"{old!r} not in the {stage}"
                src = changed
            out.append((s, src))
        return tuple(out)
    if program == 0:
        return dataclasses.replace(case, shaders=edit(case.shaders))
    programs = list(case.programs)
    programs[program - 1] = edit(programs[program - 1])
    return dataclasses.replace(case, programs=tuple(programs))


def with_draw(case, index: int, **fields):
    draws = list(case.steps)
    draws[index] = dataclasses.replace(draws[index], **fields)
    return dataclasses.replace(case, steps=tuple(draws))


def fails_naming(executor, case, *words):
    result = verdict(executor, case)
    assert result.status == "fail", result.message
    for w in words:
        assert w in result.message, f"{w!r} not in:\n{result.message}"
    return result.message


COORDS = "tess/tcs/quads/equal/ccw/coords/o6_1_3_1-i8_2"
POINTS = "tess/no-tcs/quads/equal/points/coords/o6_1_3_1-i8_2"


def test_unmodified_cases_pass(executor, tess_cases):
    for case_id in (COORDS, POINTS, "tess/seq/quads/equal/no-tcs-tcs-no-tcs", "tess/tcs/quads/equal/gs/instanced",
                    "tess/no-tcs/quads/equal/types/block/mat3/pv3", "tess/no-tcs/quads/equal/pv1-to-32"):
        result = verdict(executor, tess_cases[case_id])
        assert result.status == "pass", f"{case_id}: {result.message}"


def test_tcs_writing_stale_levels(executor, tess_cases):
    """The TCS writes the levels of an earlier draw: levels, counts and vertex positions all say so."""
    case = tess_cases[COORDS]
    for i, old in enumerate(("6.0", "1.0", "3.0", "1.0")):
        case = with_stage(case, "tcs", f"gl_TessLevelOuter[{i}] = {old};", f"gl_TessLevelOuter[{i}] = {i + 2}.0;")
    fails_naming(executor, case,
                 "draw 0 (glDrawArrays(GL_PATCHES, 2, 6)), patch 0, TES: gl_TessLevelOuter = (2, 3, 4, 5), "
                 "expected (6, 1, 3, 1) (all ",
                 "draw 0 (glDrawArrays(GL_PATCHES, 2, 6)): primitives_generated = ",
                 "patch 1, TES: gl_TessCoord: ")


def test_tess_coords_not_where_the_spec_puts_them(executor, tess_cases):
    """u and v swapped: the exact set of gl_TessCoord fails (the levels are right)."""
    case = with_stage(tess_cases[POINTS], "tes", "x_coord = gl_TessCoord;", "x_coord = gl_TessCoord.yxz;")
    message = fails_naming(executor, case, "patch 0, TES: gl_TessCoord: ", "expected values never seen, e.g. ",
                           "which is not an expected value")
    assert "gl_TessLevelOuter" not in message


def test_point_mode_vertex_twice(executor, tess_cases):
    """In point mode every distinct vertex comes once: coordinates snapped to a coarser grid repeat."""
    case = with_stage(tess_cases["tess/no-tcs/quads/equal/points/coords/o4_4_4_4-i4_4"], "tes",
                      "x_coord = gl_TessCoord;", "x_coord = round(gl_TessCoord * 2.0) / 2.0;")
    fails_naming(executor, case, "patch 0, TES: gl_TessCoord = (0, 0, 0) seen ", " times, expected 1",
                 "expected values never seen, e.g. (0, 0.25, 0)")


def test_tess_coord_z_and_range(executor, tess_cases):
    tri = with_stage(tess_cases["tess/no-tcs/triangles/equal/points/coords/o4_4_4-i4"], "tes",
                     "x_coord = gl_TessCoord;", "x_coord = vec3(gl_TessCoord.xy, 0.0);")
    fails_naming(executor, tri, "(gl_PrimitiveID = 0): gl_TessCoord = ", ", expected z = 1 - x - y = ")
    quad = with_stage(tess_cases["tess/no-tcs/quads/equal/points/coords/o4_4_4_4-i4_4"], "tes",
                      "x_coord = gl_TessCoord;", "x_coord = vec3(gl_TessCoord.xy * 1.5, 0.5);")
    fails_naming(executor, quad, ", expected z = 0 = 0 (", ", expected every component in [0, 1] (")


def test_winding_through_transform_feedback_and_front_facing(executor, tess_cases):
    """The tessellator asked for cw where the case expects ccw: captured triangles and
    gl_FrontFacing both show it."""
    captured = with_stage(tess_cases["tess/no-tcs/triangles/equal/ccw/coords/o2_3_4-i6"], "tes",
                          "equal_spacing, ccw", "equal_spacing, cw")
    fails_naming(executor, captured, ": cw in (u, v), expected ccw (", " triangles)")
    facing = with_stage(tess_cases["tess/tcs/quads/fractional_odd/ccw/front-facing/o2_3_4_5-i6_7"], "tes",
                        "fractional_odd_spacing, ccw", "fractional_odd_spacing, cw")
    fails_naming(executor, facing, "draw 0 (glDrawArrays(GL_PATCHES, 0, 6)): pixel (0, 0): "
                                   "gl_FrontFacing (1 front, -1 back) = -1, expected 1")


def test_injected_tcs_outliving_the_real_one(executor, tess_cases):
    """The TCS-less draw after a draw with a real TCS runs the TCS program's pipeline."""
    case = with_draw(tess_cases["tess/seq/quads/equal/no-tcs-tcs-no-tcs"], 2, program=1)
    message = fails_naming(executor, case,
                           "draw 2 (program 0: glDrawArrays(GL_PATCHES, 15, 6)), patch 0, TES: gl_TessLevelOuter = "
                           "(2.5, 1.25, 3.75, 4.5), expected (2, 3, 4, 5)",
                           "(gl_PatchVerticesIn, sum of v_in[].vertex, v_in[0].vertex) = (4, ")
    assert "draw 0" not in message and "draw 1" not in message


def test_shared_tes_program_deleted(executor, tess_cases):
    """After one of three programs that share a TES is deleted, a draw of another runs the wrong VS."""
    case = tess_cases["tess/seq/triangles/equal/shared-tes-x3/delete1"]
    case = with_draw(case, 4, program=0)                # should have drawn program 2
    fails_naming(executor, case, "draw 4 (program 2: glDrawArrays(GL_PATCHES, ",
                 "(gl_PatchVerticesIn, sum of v_in[].vertex, v_in[0].vertex) = (4, ")


def test_primitive_ids_not_restarting_per_instance(executor, tess_cases):
    tes = with_stage(tess_cases["tess/tcs/triangles/equal/primitive-id/instanced"], "tes",
                     "x_patch = gl_PrimitiveID;", "x_patch = gl_PrimitiveID + tcs.w * 3;")
    fails_naming(executor, tes, "draw 0 (glDrawArraysInstanced), instance 1, patch 0, vertices 1..3, TES: "
                                "gl_PrimitiveID (TES) = 3, expected 0")
    gs = with_stage(tess_cases["tess/tcs/quads/equal/gs/instanced"], "gs",
                    "x_gs_primitive = gl_PrimitiveIDIn;", "x_gs_primitive = gl_PrimitiveIDIn + from_tes[0].tcs.w * 100;")
    fails_naming(executor, gs, "instance 1, patch 0, vertices 1..3, GS: gl_PrimitiveIDIn (GS): ",
                 "expected values never seen, e.g. 0")


def test_tcs_invocations_and_barrier(executor, tess_cases):
    neighbours = with_stage(tess_cases["tess/tcs/quads/equal/in4-out2/barrier"], "tcs",
                            "int next = (id + 1) % 2;", "int next = 0;")
    fails_naming(executor, neighbours, "TES: sum of t_in[].neighbours (read after barrier()) = ")
    invocation = with_stage(tess_cases["tess/tcs/triangles/equal/in3-out7"], "tcs",
                            "t_out[gl_InvocationID].invocation = id;", "t_out[gl_InvocationID].invocation = 0;")
    fails_naming(executor, invocation, "(TES gl_PatchVerticesIn, sum and weighted sum of t_in[].invocation "
                                       "(gl_InvocationID), t_in[last].inputs.y) = (7, 0, 0, ")


def test_tes_dropping_a_vertex(executor, tess_cases):
    """The TES never sees the first vertex of each patch."""
    case = with_stage(tess_cases["tess/no-tcs/quads/equal/types/block/mat3/pv3"], "tes",
                      "for (int i = 0; i < gl_PatchVerticesIn; i++)", "for (int i = 1; i < gl_PatchVerticesIn; i++)")
    fails_naming(executor, case, "draw 0 (glDrawArrays(GL_PATCHES, 1, 6)), patch 0, TES: sum over the patch of "
                                 "x[0][0], x[0][1], x[0][2], x[1][0] = ")
    large = with_stage(tess_cases["tess/no-tcs/isolines/equal/large-in/pv32-15xvec4"], "tes",
                       "for (int i = 0; i < gl_PatchVerticesIn; i++)", "for (int i = 1; i < gl_PatchVerticesIn; i++)")
    fails_naming(executor, large, "patch 1, TES: component-weighted and vertex-weighted sums of u0, u1 = ")


def test_per_patch_and_large_outputs(executor, tess_cases):
    patch = with_stage(tess_cases["tess/tcs/quads/equal/patch-out/vec4/last-of-4"], "tcs",
                       "gl_PrimitiveID * 64", "(gl_PrimitiveID + 1) * 64")
    fails_naming(executor, patch, "patch 0, TES: patch in x.x, x.y, x.z, x.w = (16.25, 16.5, 16.75, 17), "
                                  "expected (0.25, 0.5, 0.75, 1)")
    large = with_stage(tess_cases["tess/tcs/quads/equal/large-out/out4-7xvec4-patch24xvec4"], "tcs",
                       "t_out[gl_InvocationID].a[k] = vec4(", "if (k < 6) t_out[gl_InvocationID].a[k] = vec4(")
    fails_naming(executor, large, "TES: sum of t_in[].a[] (all, vertex-weighted, index-weighted, component-weighted) = ")


def test_stale_patch_size_in_a_sweep(executor, tess_cases):
    case = with_draw(tess_cases["tess/no-tcs/quads/equal/pv1-to-32"], 5,
                     state=dataclasses.replace(tess_cases["tess/no-tcs/quads/equal/pv1-to-32"].steps[5].state,
                                               patch_vertices=None))
    fails_naming(executor, case, "draw 5 (glDrawArrays(GL_PATCHES, ",
                 "(gl_PatchVerticesIn, sum of v_in[].vertex, v_in[0].vertex) = (5, ")


def test_very_many_patches_counted(executor, tess_cases):
    case = tess_cases["tess/tcs/quads/equal/patches100000/pv1"]
    half = with_draw(case, 0, entries=(dataclasses.replace(case.steps[0].entries[0], count=50000),))
    fails_naming(executor, half, "draw 0 (glDrawArrays(GL_PATCHES, 0, 100000)): primitives_generated = 100000, "
                                 "expected 200000")
