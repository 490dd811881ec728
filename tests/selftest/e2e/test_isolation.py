"""No verdict depends on the cases before it: in one child, a case that leaves every
kind of state a case can set changed (the fault target's `dirty-state`, see
the self-tests' faults.py: clip planes and their equations, clip control, enables, blend, depth,
stencil, polygon mode, pixel store, current vertex attributes, bound objects, patch parameters,
provoking vertex, point size, legacy state) runs first, in both profiles, then cases of every
family and imported shader_test files. Each must give the verdict and the very observation it
gives in a child of its own where nothing ran before it; on llvmpipe and zink."""
from __future__ import annotations

import dataclasses
import json

import pytest
from faults import FAULT_LLVMPIPE, planted

from harness.executor.executor import Executor
from harness.sources import shader_test
from harness.executor.targets import get
from harness.oracle.verdict import judge

from conftest import SELFTEST, pinned_mesa

DIRTY = "selftest/isolation/dirty"
# Chosen to notice the dirt: the tess cases read GL's initial patch size and levels (or set
# their own), draw_params read attributes and indices through bound buffers and draw with
# primitive restart, the varyings and shader_test cases read images back (blend, depth,
# stencil, scissor, colour mask, viewport, clip planes, polygon mode, pixel store, current
# colour and texture coordinates all change those pixels).
CASES = {
    "tess": ["tess/no-tcs/quads/equal/initial", "tess/no-tcs/triangles/equal/pv4/o1_1_1-i1",
             "tess/no-tcs/isolines/fractional_even/points/coords/o2_3",
             "tess/tcs/quads/fractional_even/points/coords/o1_1_1_1-i1_4",
             "tess/tcs/triangles/equal/primitive-id/indirect-instanced",
             "tess/no-tcs/quads/equal/cw/front-facing/o2.5_1.25_3.75_4.5-i3.5_2.25"],
    "draw_params": ["draw_params/DrawArrays/f0c4/glsl450/vs",
                    "draw_params/DrawElementsInstancedBaseVertex/uint/f3c4i3bv7/glsl450/vs",
                    "draw_params/MultiDrawArraysIndirect/f1c2i1bi0+f4c1i1bi0+f0c2i1bi2+f6c3i2bi0/off0-stride0/glsl450/vs"],
    "varyings": ["varyings/vs-fs/glsl130compat/builtins-color+tex1+tex2+tex3+tex4+tex5+fog/users-9xvec4-36c",
                 "varyings/vs-gs-fs/glsl150compat/builtins-color+tex2+fog/users-13xvec4-52c",
                 "varyings/vs-fs/glsl450core/builtins-none/users-3xmat4x3-28c"],
}
SHADER_TESTS = ["clip-vertex-ortho", "legacy-colour-uniform", "tess-no-tcs-levels", "wrong-colour"]


def fault_target(driver: str):
    """The fault-injecting GL backend on `driver` (the fault-llvmpipe target, with `driver`'s environment)."""
    base, plain = FAULT_LLVMPIPE, get(driver)
    return dataclasses.replace(base, name=f"fault-{driver}", env=plain.env, renderer=plain.renderer, mesa=plain.mesa)


@pytest.fixture(scope="module")
def cases(tess_cases, draw_params_cases, varyings_cases):
    found = {**tess_cases, **draw_params_cases, **varyings_cases}
    chosen = [found[i] for family in CASES.values() for i in family]
    chosen += [shader_test.load(SELFTEST / "shader_tests" / f"{name}.shader_test") for name in SHADER_TESTS]
    # the dirtiers: real cases in each profile, renamed so that the fault target dirties after them
    core = dataclasses.replace(found[CASES["tess"][0]], id=DIRTY + "-core", family="selftest")
    compat = dataclasses.replace(found[CASES["varyings"][0]], id=DIRTY + "-compat", family="selftest")
    assert core.requires.profile == "core" and compat.requires.profile == "compat"
    return chosen, (core, compat)


def outcome(executor: Executor, case, driver: str):
    result = executor.run(case)
    verdict = judge(case, result, driver)
    return verdict.status, verdict.message, json.dumps(result.observation and result.observation.to_json(), sort_keys=True)


@pytest.mark.parametrize("driver", ["llvmpipe", "zink"])
def test_dirt_from_earlier_cases_changes_no_verdict(driver, cases):
    chosen, dirtiers = cases
    clean = {}
    for case in chosen:                       # the reference: each case in a child of its own
        alone = Executor(get(driver), case_timeout=60, mesa=pinned_mesa())
        try:
            clean[case.id] = outcome(alone, case, driver)
        finally:
            alone.close()
    families = {c.family for c in chosen if clean[c.id][0] == "pass"}
    assert families == {"tess", "draw_params", "varyings", "shader_test"}, clean   # a test that can fail
    faults = {d.id: "dirty-state" for d in dirtiers}
    with planted(faults):                     # in the child's environment
        shared = Executor(fault_target(driver), case_timeout=60, mesa=pinned_mesa())
        try:
            assert shared.info().status == "ok", shared.info().message
            pid = shared.pid
            for dirtier in dirtiers:
                status, message, _ = outcome(shared, dirtier, driver)
                assert status == "pass", f"the dirtier did not run cleanly: {message}"
            for order in (chosen, chosen[::-1]):  # and again in reverse, after more dirt
                for case in order:
                    assert outcome(shared, case, driver) == clean[case.id], case.id
                for dirtier in dirtiers:
                    assert outcome(shared, dirtier, driver)[0] == "pass"
            assert shared.pid == pid              # all of it in one child
        finally:
            shared.close()
