"""Real cases on real drivers (llvmpipe, zink): known state, hazards caught, bad cases reported."""
from __future__ import annotations

import dataclasses


from harness.oracle.verdict import judge

INITIAL = "tess/no-tcs/quads/equal/initial"
CHANGED = "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7/then/o2.5_1.25_3.75_4.5-i3.5_2.25"
GROWN = "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/pv16"


def verdict(executor, case):
    return judge(case, executor.run(case), executor.target.name)


def test_no_state_leaks_between_cases(executor, tess_cases):
    """Cases that change patch size and levels must not affect one that relies on GL's initial
    values (patch size 3, levels 1.0) run after them in the same context."""
    order = [INITIAL, CHANGED, INITIAL, "tess/no-tcs/isolines/fractional_odd/pv32/o2.5_1.25/then/pv1",
             INITIAL, "tess/no-tcs/quads/equal/pv4/o70_0.5_2_9-i0.25_5", INITIAL]
    pid = executor.pid
    for case_id in order:
        result = verdict(executor, tess_cases[case_id])
        assert result.status == "pass", f"{case_id}: {result.message}"
    assert executor.pid == pid                      # all in one child, one context


def without_state(case, draw: int, **fields):
    """The hazard a layer can have: a draw that does not apply the state the case sets."""
    draws = list(case.steps)
    draws[draw] = dataclasses.replace(draws[draw], state=dataclasses.replace(draws[draw].state, **fields))
    return dataclasses.replace(case, steps=tuple(draws))


def test_stale_levels_are_caught(executor, tess_cases):
    stale = without_state(tess_cases[CHANGED], 1, default_outer=None, default_inner=None)
    result = verdict(executor, stale)
    assert result.status == "fail"
    assert ("patch 0, TES: gl_TessLevelOuter = (2, 3, 4, 5), expected (2.5, 1.25, 3.75, 4.5)"
            in result.message)
    assert "gl_TessLevelInner = (6, 7), expected (3.5, 2.25)" in result.message
    assert "primitives_generated = " in result.message


def test_stale_patch_size_is_caught(executor, tess_cases):
    stale = without_state(tess_cases[GROWN], 1, patch_vertices=None)
    result = verdict(executor, stale)
    assert result.status == "fail"
    assert "patch 0, TES: gl_PatchVerticesIn = 4, expected 16" in result.message
    assert "which the draw should not produce" in result.message      # patches 2..7 appeared


def test_unmet_requirements_skip_naming_them(executor, tess_cases):
    case = tess_cases[INITIAL]
    for requires, words in [
        (dataclasses.replace(case.requires, gl_version=(9, 9)), "needs GL 9.9 core"),
        (dataclasses.replace(case.requires, extensions=("GL_HARNESS_nonexistent",)),
         "needs extension(s) GL_HARNESS_nonexistent"),
        (dataclasses.replace(case.requires, limits=(("GL_MAX_PATCH_VERTICES", ">=", 1000),)),
         "needs GL_MAX_PATCH_VERTICES >= 1000, context has 32"),
    ]:
        result = verdict(executor, dataclasses.replace(case, requires=requires))
        assert result.status == "skip" and words in result.message, result.message


def test_compile_error_fails_with_log(executor, tess_cases):
    case = tess_cases[INITIAL]
    shaders = tuple((s, src.replace("x_outer =", "x_outer = undeclared_thing +", 1) if s == "tes" else src)
                    for s, src in case.shaders)
    result = verdict(executor, dataclasses.replace(case, shaders=shaders))
    assert result.status == "fail"
    assert "TES failed to compile" in result.message and "undeclared_thing" in result.message


def test_gl_error_names_error_and_call(executor, tess_cases):
    bad = without_state(tess_cases[INITIAL], 0, patch_vertices=0)
    result = verdict(executor, bad)
    assert result.status == "fail"
    assert "GL error GL_INVALID_VALUE from glPatchParameteri" in result.message
    # and the context is usable again afterwards
    assert verdict(executor, tess_cases[INITIAL]).status == "pass"
