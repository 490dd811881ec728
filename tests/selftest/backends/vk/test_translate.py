"""The Vulkan backend: its translation compiles, its slot map never collides, and each
translation switched off makes its family fail on lavapipe, the failure observed from the driver."""
from __future__ import annotations

import itertools
import os
import shutil

import pytest
from conftest import family, generated, on_the_systems_mesa, pinned_mesa
from faults import FAULT_LAVAPIPE, planted

from harness.backends.vk import spirv
from harness.backends.vk.tcs import passthrough_tcs
from harness.glsl import types
from harness.glsl.model import parse
from harness.backends.vk.locations import interface
from harness.backends.vk.locations import size as locations_of
from harness.backends.vk.translate import STAGE_ORDER, Program, translate
from harness.base.config import VkPath, VkPaths
from harness.executor.executor import Executor
from harness.executor.targets import get
from harness.oracle.verdict import judge

VARYINGS = family("varyings")


def program_of(case, without=frozenset()) -> Program:
    return Program(dict(case.shaders), frozenset(without),
                   captures=tuple((c.varying, c.type) for c in case.readback.captures),
                   attributes={a.name: a.location for a in case.attributes if a.name}, separable=case.separable)


def sample(cases, every: int):
    return [c for i, c in enumerate(cases) if i % every == 0]


@pytest.mark.skipif(not shutil.which("glslangValidator"), reason="glslang-tools not installed")
# a glslang process per stage: the two larger samples run in CI (marked slow), draw_params' everywhere
@pytest.mark.parametrize("name, every", [pytest.param("tess", 40, marks=pytest.mark.slow), ("draw_params", 10),
                                         pytest.param("varyings", 20, marks=pytest.mark.slow)])
def test_translated_glsl_compiles(name, every, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))          # really compile, no cache
    for case in sample(generated(name), every):
        stages = translate(program_of(case))
        if "tes" in stages and "tcs" not in stages:
            stages["tcs"] = passthrough_tcs(stages["vs"], case.steps[0].state.patch_vertices or 3)
        for stage, source in stages.items():
            assert spirv.compile_glsl(stage, source), (case.id, stage)


def located(stage: str, source: str) -> dict[str, dict[str, tuple]]:
    """direction -> {name: (location, first component, slots, {member: location})} of every
    located varying and block of one translated stage, read through the GLSL model; a legacy
    builtin (_hl_X_in / _hl_X_out) is named gl_X on both sides."""
    shader = parse(source)
    structs = {d.type: [(m.type, x.dims + m.type_dims) for m in d.members for x in m.declarators]
               for d in shader.structs()}
    out = {"in": {}, "out": {}}
    for v in interface(stage, shader):
        loc = v.decl.location
        assert loc is not None, (stage, v.name, "no location")
        component = int(v.decl.layout.get("component") or 0)
        members, at = {}, loc
        for m in v.decl.members:                   # a block's members: consecutive locations
            for x in m.declarators:
                members[x.name] = at
                at += types.locations(m.type, structs) * types.element_count(x.dims + m.type_dims)
        name = v.name
        if name.startswith("_hl_"):
            name = "gl_" + name[4:].rsplit("_", 1)[0]
        out[v.direction][name] = (loc, component, locations_of(v, structs), members, v.decl.type)
    return out


def slots(entry) -> set[tuple[int, int]]:
    """(location, component) pairs a varying occupies: whole locations, except a scalar or small
    vector given a component."""
    loc, component, size, _, type_ = entry
    basic = types.basic(type_)
    width = 4 if basic is None or basic.columns > 1 else min(4, basic.rows * (2 if basic.scalar == "double" else 1))
    return {(l, c) for l in range(loc, loc + size) for c in range(component, component + width)}


def check_interfaces(case_id: str, stages: dict[str, str]) -> int:
    """Within a stage no two varyings (user or builtin) share a slot; between a producer and its
    consumer, each varying and block member has one location. Returns the pairs compared."""
    order = [s for s in STAGE_ORDER if s in stages]
    found = {stage: located(stage, stages[stage]) for stage in order}
    if "tcs" in found:          # the injected TCS's copies (_pass_in3, _pass_out3): the VS's names
        by_location = {entry[0]: name for name, entry in found["vs"]["out"].items()}
        for direction in ("in", "out"):
            found["tcs"][direction] = {by_location.get(e[0], n) if n.startswith("_pass_") else n: e
                                       for n, e in found["tcs"][direction].items()}
    for stage in order:
        for direction, entries in found[stage].items():
            taken = {}
            for name, entry in entries.items():
                for slot in slots(entry):
                    assert slot not in taken, (case_id, stage, direction, name, taken.get(slot), slot)
                    taken[slot] = name
    compared = 0
    for producer, consumer in zip(order, order[1:]):
        outs, ins = found[producer]["out"], found[consumer]["in"]
        for name in set(outs) & set(ins):
            assert outs[name][:2] == ins[name][:2], (case_id, producer, consumer, name, outs[name], ins[name])
            assert outs[name][3] == ins[name][3], (case_id, producer, consumer, name, "members")
            compared += 1
    return compared


def builtin_subsets():
    keys = list(VARYINGS.BUILTINS)
    for size in range(len(keys) + 1):
        yield from itertools.combinations(keys, size)


@pytest.mark.slow          # exhaustive: 2^11 builtin sets
def test_slot_map_never_collides_for_any_builtin_set():
    """Every subset of the legacy builtins (2^11), with user varyings, on VS -> FS: within a
    stage no two varyings share a location, and each name has one location in VS and FS."""
    d = VARYINGS.Dialect(130, True)
    checked = 0
    for subset in builtin_subsets():
        case = VARYINGS.make_case(VARYINGS.Plan(d, "vs-fs", subset, users=VARYINGS.vec4s(3), tag="vec4"))
        assert check_interfaces(case.id, translate(program_of(case))) >= 3
        checked += 1
    assert checked == 2 ** len(VARYINGS.BUILTINS)


def with_tcs(case, stages: dict[str, str]) -> dict[str, str]:
    if "tes" in stages and "tcs" not in stages:
        stages["tcs"] = passthrough_tcs(stages["vs"], case.steps[0].state.patch_vertices or 3)
    return stages


@pytest.mark.parametrize("name, every", [("varyings", 1), ("tess", 3), ("draw_params", 2)])
def test_slot_map_consistent_on_every_interface(name, every):
    """Every producer/consumer pair the families generate (the injected TCS included), blocks
    and their members too."""
    compared = blocks = 0
    for case in sample(generated(name), every):
        stages = with_tcs(case, translate(program_of(case)))
        compared += check_interfaces(case.id, stages)
        blocks += sum(1 for src in stages.values() for d in parse(src).blocks() if not d.type.startswith("gl_"))
    assert compared > 0
    if name != "draw_params":
        assert blocks > 0                       # the families' interface blocks were compared


@pytest.fixture(scope="module")
def lavapipe():
    cache = {}

    def executor(without: str) -> Executor:
        if without not in cache:
            # draw-id is the split path's emulation: the native path reads DrawIndex (paths.py)
            cache[without] = Executor(get("lavapipe"), mesa=pinned_mesa(), vk_without=without,
                                      vk_paths=VkPaths(multi_draw=VkPath.SPLIT if without == "draw-id" else VkPath.AUTO))
        return cache[without]
    yield executor
    for ex in cache.values():
        ex.close()


def case_of(family_name: str, case_id: str):
    return {c.id: c for c in generated(family_name)}[case_id]


@pytest.mark.parametrize("switch, family_name, case_id, words", [
    ("base-vertex", "draw_params", "draw_params/DrawArrays/f5c4/glsl450/vs",
     "draw 0 (glDrawArrays), vertex 0, instance 0: gl_BaseVertex = 5, expected 0"),
    ("draw-id", "draw_params", "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450/vs",
     "draw 0 (glMultiDrawArrays), entry 2, vertex 0, instance 0: gl_DrawID = 0, expected 2"),
    ("passthrough-tcs", "tess", "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7",
     "patch 0, TES: gl_TessLevelOuter = (1, 1, 1, 1), expected (2, 3, 4, 5)"),
    ("slot-map", "varyings", "varyings/vs-fs/glsl130compat/builtins-secondary/users-3xvec4-12c",
     "FS input gl_SecondaryColor.x (gl_FrontSecondaryColor.x) = "),
    ("provoking-vertex", "primitives", "primitives/lines/pv-last/arrays",
     "flat id (vertex 3, the last vertex convention's) = 3 (the value of vertex 2), expected 4"),
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


needs_validation_layer = pytest.mark.skipif(
    not os.path.exists("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"),
    reason="Khronos validation layer not installed (Debian package vulkan-validationlayers)")
# The validation tests run on the system's Mesa: the layer is the distribution's, built for its
# runtime, and does not load into a fetched Mesa of another release (Debian 13's layer under
# bookworm's 22.3.6: VkErrorLayerNotPresent). Their lavapipe cases are checked against the
# system Mesa's known defects first (conftest.on_the_systems_mesa); the messages of both
# Debian 12's and 13's layers are accounted for below.
CLEAN_UNDER_VALIDATION = {
    "tess": "tess/no-tcs/triangles/fractional_odd/pv4/o2.5_1.25_3.75-i3.5",
    "draw_params": "draw_params/MultiDrawElementsIndirect/uint/f2c3i2bv7bi1+f0c0i1bv1bi0+f5c2i3bv-2bi4"
                   "/off0-stride0/glsl450/vs",
    "varyings": "varyings/vs-tcs-tes-gs-fs/glsl400compat/builtins-color+tex0+tex5+pointsize+clipdist"
                "/users-4xvec4-16c"}
PLANTED_UNDER_VALIDATION = "draw_params/DrawArrays/f5c4/glsl450/vs"


@needs_validation_layer
def test_cases_run_clean_under_the_validation_layer():
    system = on_the_systems_mesa({"lavapipe": list(CLEAN_UNDER_VALIDATION.values())})
    ex = Executor(get("lavapipe"), mesa=system, vk_validation=True)
    try:
        for name, case_id in CLEAN_UNDER_VALIDATION.items():
            verdict = judge(case_of(name, case_id), ex.run(case_of(name, case_id)), "lavapipe")
            assert verdict.status == "pass", verdict.message
    finally:
        ex.close()


@needs_validation_layer
@pytest.mark.parametrize("fault, vuid, words", [
    # Debian 12's layer writes "offset.x (=-1) is negative", Debian 13's "offset.x (-1) is negative"
    ("negative-scissor", "VUID-vkCmdSetScissor-x-00595", "pScissors[0].offset.x ("),
    ("fence-stype", "VUID-VkFenceCreateInfo-sType-sType", "pCreateInfo->sType must be VK_STRUCTURE_TYPE_FENCE_CREATE_INFO"),
])
def test_a_planted_invalid_call_is_the_harness_layers_error_with_the_validation_message(fault, vuid, words):
    """The twin of the clean run above: one invalid call (faults.FaultyVK) that changes nothing the
    case reads passes without the validation layer; under it, it is the case's `error` (every
    Vulkan call of this backend is the harness's own), never a `fail`, with the layer's VUID."""
    case = case_of("draw_params", PLANTED_UNDER_VALIDATION)
    system = on_the_systems_mesa({"lavapipe": [PLANTED_UNDER_VALIDATION]})
    for validation in (False, True):
        with planted(vk=fault):
            ex = Executor(FAULT_LAVAPIPE, mesa=system, vk_validation=validation)
            try:
                verdict = judge(case, ex.run(case), "lavapipe")
            finally:
                ex.close()
        if not validation:
            assert verdict.status == "pass", verdict.message       # the fault alone changes no value
            continue
        assert verdict.status == "error", verdict.message
        # Debian 12's layer (1.3.239) heads each message with "Validation Error: [ VUID ]"; Debian
        # 13's names the VUID only in the spec link that ends the message
        assert verdict.message.startswith("harness layer: Vulkan validation error(s) in its own calls:\n") \
            and vuid in verdict.message, verdict.message
        assert f"[case {case.id}]" in verdict.message and verdict.message.endswith("[lavapipe]"), verdict.message
        assert words in verdict.message, verdict.message


def test_the_interface_check_sees_a_naive_slot_map():
    """Without slot-map the colour lands on a user varying's location: the check must say so.
    (The user varying is a vec4 array: onto a plain vec4 the naive layer aliases the builtin,
    one slot with two names, which only a run shows.)"""
    users = (VARYINGS.Varying("u", "vec4", array=3),)
    case = VARYINGS.make_case(VARYINGS.Plan(VARYINGS.Dialect(130, True), "vs-fs", ("color",),
                                            users=users, tag="vec4"))
    check_interfaces(case.id, translate(program_of(case)))
    with pytest.raises(AssertionError):
        check_interfaces(case.id, translate(program_of(case, without={"slot-map"})))


def test_a_lost_device_is_the_cases_crash_and_the_next_case_gets_a_fresh_device():
    """NVIDIA loses its device on vkCmdDrawIndirectCount with a count >= 2^31. A lost device
    (faults.FaultyVK `device-lost`: from that case on, every submit or wait of the child reports
    it) is the case's crash, naming the call and the step; the next case, queued in the same child
    behind it, runs in a fresh child on a fresh device and passes."""
    lost, after = "draw_params/DrawArrays/f5c4/glsl450/vs", "draw_params/DrawArrays/f0c4/glsl450/vs"
    cases = [case_of("draw_params", lost), case_of("draw_params", after)]
    with planted({lost: "device-lost"}):
        ex = Executor(FAULT_LAVAPIPE, mesa=pinned_mesa())
        try:
            for case in cases:
                ex.send(case)                   # both queued in the first child
            first = ex.pid
            verdicts = [judge(case, ex.run(case), "lavapipe") for case in cases]
            second = ex.pid
        finally:
            ex.close()
    assert verdicts[0].status == "crash", verdicts[0].message
    assert verdicts[0].message.startswith("Vulkan device lost (VK_ERROR_DEVICE_LOST) in vkQueueSubmit "
                                          "during step 0: draw 0 (glDrawArrays)\n"), verdicts[0].message
    assert second != first, "the child whose device was lost ran the next case"
    assert verdicts[1].status == "pass", verdicts[1].message
