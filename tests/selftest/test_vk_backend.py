"""The Vulkan backend: its translation compiles, its slot map never collides, and each
translation switched off makes its family fail on lavapipe, the failure observed from the driver."""
from __future__ import annotations

import itertools
import os
import re
import shutil

import pytest
from conftest import family

from harness.backends.vk import spirv
from harness.backends.vk.tcs import passthrough_tcs
from harness.backends.vk.translate import STAGE_ORDER, Program, translate
from harness.executor import Executor
from harness.targets import get
from harness.verdict import judge

VARYINGS = family("varyings")
LAYOUT = re.compile(r"layout\(location = (\d+)(?:, component = (\d+))?[^)]*\)\s*(?:\w+\s+)*?(in|out)\s+(\w+)\s+(\w+)")


def program_of(case, without=frozenset()) -> Program:
    return Program(dict(case.shaders), frozenset(without),
                   captures=tuple((c.varying, c.type) for c in case.readback.captures),
                   attributes={a.name: a.location for a in case.attributes if a.name}, separable=case.separable)


def sample(cases, every: int):
    return [c for i, c in enumerate(cases) if i % every == 0]


@pytest.mark.skipif(not shutil.which("glslangValidator"), reason="glslang-tools not installed")
@pytest.mark.parametrize("name, every", [("tess", 40), ("draw_params", 10), ("varyings", 20)])
def test_translated_glsl_compiles(name, every, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))          # really compile, no cache
    for case in sample(family(name).generate(), every):
        stages = translate(program_of(case))
        if "tes" in stages and "tcs" not in stages:
            stages["tcs"] = passthrough_tcs(stages["vs"], case.draws[0].state.patch_vertices or 3)
        for stage, source in stages.items():
            assert spirv.compile_glsl(stage, source), (case.id, stage)


def declared(source: str) -> dict[str, list[tuple[int, int, str]]]:
    """direction -> [(location, component, name)] of the located declarations of one stage."""
    out = {"in": [], "out": []}
    for loc, comp, direction, _type, name in LAYOUT.findall(source):
        if name != "a_position" and not name.startswith("o_report") and name != "_gl_FragColor":
            out[direction].append((int(loc), int(comp or 0), name))
    return out


def builtin_subsets():
    keys = list(VARYINGS.BUILTINS)
    for size in range(len(keys) + 1):
        yield from itertools.combinations(keys, size)


def test_slot_map_never_collides_for_any_builtin_set():
    """Every subset of the legacy builtins (2^11), with user varyings, on VS -> FS: within a
    stage no two varyings share a location, and each name has one location in VS and FS."""
    d = VARYINGS.Dialect(130, True)
    checked = 0
    for subset in builtin_subsets():
        case = VARYINGS.make_case(VARYINGS.Plan(d, "vs-fs", subset, users=VARYINGS.vec4s(3), tag="vec4"))
        stages = translate(program_of(case))
        vs, fs = declared(stages["vs"])["out"], declared(stages["fs"])["in"]
        for side in (vs, fs):
            slots = [(loc, comp) for loc, comp, _ in side]
            assert len(slots) == len(set(slots)), (case.id, side)
        fs_by_name = {name.replace("_in", "_out") if name.startswith("_hl_") else name: loc for loc, _, name in fs}
        for loc, _, name in vs:
            if name in fs_by_name:
                assert fs_by_name[name] == loc, (case.id, name)
        checked += 1
    assert checked == 2 ** len(VARYINGS.BUILTINS)


def test_slot_map_consistent_on_every_chain():
    for case in VARYINGS.generate():
        if "builtins-none" in case.id:
            continue
        stages = translate(program_of(case))
        order = [s for s in STAGE_ORDER if s in stages]
        for producer, consumer in zip(order, order[1:]):
            outs = {n.removesuffix("_out"): loc for loc, _, n in declared(stages[producer])["out"]}
            ins = {n.removesuffix("_in"): loc for loc, _, n in declared(stages[consumer])["in"]}
            for name in set(outs) & set(ins):
                assert outs[name] == ins[name], (case.id, producer, consumer, name)


@pytest.fixture(scope="module")
def lavapipe():
    cache = {}

    def executor(without: str) -> Executor:
        if without not in cache:
            cache[without] = Executor(get("lavapipe"), vk_without=without)
        return cache[without]
    yield executor
    for ex in cache.values():
        ex.close()


def case_of(family_name: str, case_id: str):
    return {c.id: c for c in family(family_name).generate()}[case_id]


@pytest.mark.parametrize("switch, family_name, case_id, words", [
    ("base-vertex", "draw_params", "draw_params/DrawArrays/f5c4/glsl450/vs",
     "draw 0 (glDrawArrays), vertex 0, instance 0: gl_BaseVertex = 5, expected 0"),
    ("draw-id", "draw_params", "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450/vs",
     "draw 0 (glMultiDrawArrays), entry 2, vertex 0, instance 0: gl_DrawID = 0, expected 2"),
    ("passthrough-tcs", "tess", "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7",
     "patch 0, TES: gl_TessLevelOuter = (1, 1, 1, 1), expected (2, 3, 4, 5)"),
    ("slot-map", "varyings", "varyings/vs-fs/glsl130compat/builtins-secondary/users-3xvec4-12c",
     "FS input gl_SecondaryColor.x (gl_FrontSecondaryColor.x) = "),
])
def test_each_translation_off_fails_its_family(lavapipe, switch, family_name, case_id, words):
    case = case_of(family_name, case_id)
    on = judge(case, lavapipe("").run(case), "lavapipe")
    assert on.status == "pass", on.message
    off = judge(case, lavapipe(switch).run(case), "lavapipe")
    assert off.status == "fail"
    assert words in off.message, off.message
    if switch == "slot-map":
        assert "(the value of u0.x)" in off.message         # the user varying clobbered it


@pytest.mark.skipif(not os.path.exists("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"),
                    reason="Khronos validation layer not installed (Debian package vulkan-validationlayers)")
def test_cases_run_clean_under_the_validation_layer():
    ex = Executor(get("lavapipe"), extra_env={"HARNESS_VK_VALIDATION": "1"})
    try:
        ids = {"tess": "tess/no-tcs/triangles/fractional_odd/pv4/o2.5_1.25_3.75-i3.5",
               "draw_params": "draw_params/MultiDrawElementsIndirect/uint/f2c3i2bv7bi1+f0c0i1bv1bi0+f5c2i3bv-2bi4"
                              "/off0-stride0/glsl450/vs",
               "varyings": "varyings/vs-tcs-tes-gs-fs/glsl400compat/builtins-color+tex0+tex5+pointsize+clipdist"
                           "/users-4xvec4-16c"}
        for name, case_id in ids.items():
            verdict = judge(case_of(name, case_id), ex.run(case_of(name, case_id)), "lavapipe")
            assert verdict.status == "pass", verdict.message
    finally:
        ex.close()
