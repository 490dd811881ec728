"""The tess family's dynamic-index dimensions catch a misplaced index, on real drivers (llvmpipe,
zink): a TCS writing the levels at the loop's index instead of the turned one, a TES reading
its per-vertex array at an index that does not turn with the patch. Each verdict fails and names
the quantity, observed and expected values, the draw and the patch."""
from __future__ import annotations

from .test_tess_runs import fails_naming, verdict, with_stage


def test_levels_written_at_dynamic_indices(executor, tess_cases):
    case = tess_cases["tess/tcs/quads/equal/levels-dyn/loop"]
    assert verdict(executor, case).status == "pass"
    unturned = with_stage(case, "tcs", "gl_TessLevelOuter[(i + turn) % 4] = OUTER[i];",
                          "gl_TessLevelOuter[i] = OUTER[i];")
    fails_naming(executor, unturned, "draw 0 (glDrawArrays(GL_PATCHES, 0, 16)), patch 1, TES: "
                                     "gl_TessLevelOuter = (2, 3, 4, 5), expected (5, 2, 3, 4)")


def test_tes_inputs_read_at_two_dynamic_indices(executor, tess_cases):
    case = tess_cases["tess/tcs/triangles/equal/inputs-dyn/vec2x4-patch3"]
    assert verdict(executor, case).status == "pass"
    vertex = with_stage(case, "tes", "t_in[(k + turn) % n].m[(3 * k + turn) % 4]", "t_in[k].m[(3 * k + turn) % 4]")
    fails_naming(executor, vertex, "patch 1, TES: sum of (k + 1) * t_in[(k + gl_PrimitiveID) % "
                                   "gl_PatchVerticesIn].m[(3 * k + gl_PrimitiveID) % 4] = ")
    element = with_stage(case, "tes", "p_m[(7 * turn + 1) % 3]", "p_m[1]")
    fails_naming(executor, element, "patch 1, TES: p_m[(7 * gl_PrimitiveID + 1) % 3] = (516.5, 517.5, 0, 0), "
                                    "expected (520.5, 521.5, 0, 0)")
