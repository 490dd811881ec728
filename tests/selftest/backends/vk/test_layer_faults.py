"""A fault of the harness's own Vulkan layer is the case's `error`, never a `fail` (docs/decisions.md#a-fail-on-a-lavapipe-target):
each fault planted in a real case run on real lavapipe, through the executor's child as a run
does it. The plant is in the case itself (its shaders), nothing global:
- a declaration the translator refuses (a location shared by two declarators): translate.py;
- a VS the translator passes through and glslang refuses (an ill-typed statement): spirv.py,
  the layer's output refused before any Vulkan call;
- a validation report on the layer's own call: backends/vk/test_translate.py's planted invalid calls under
  --vk-validation (the Khronos validation layer; skipped, saying so, where it is not installed).
The same case unplanted passes, so each `error` is the plant's."""
from __future__ import annotations

import dataclasses
import itertools
import re
import shutil

import pytest
from conftest import ROOT, generated, pinned_mesa

from harness.backends.vk import spirv
from harness.backends.vk.tcs import passthrough_tcs
from harness.backends.vk.translate import Program, translate
from harness.base.errors import LayerFault
from harness.sources import catalog
from harness.executor.executor import Executor
from harness.executor.targets import get
from harness.model.status import Status
from harness.oracle.verdict import judge

CASE_ID = "draw_params/DrawArrays/f5c4/glsl450/vs"


def planted(case, edit):
    """The case with its VS edited; the same id, so the message is checked to name it."""
    shaders = tuple((stage, edit(source) if stage == "vs" else source) for stage, source in case.shaders)
    return dataclasses.replace(case, shaders=shaders)


def refused_by_translator(source: str) -> str:
    return source.replace("void main()", "layout(location = 30) out vec4 _planted_a, _planted_b;\nvoid main()", 1)


def refused_by_glslang(source: str) -> str:
    return source.replace("void main()\n{", "void main()\n{\n    float _planted = vec4(1.0);", 1)


@pytest.fixture(scope="module")
def lavapipe():
    ex = Executor(get("lavapipe"), mesa=pinned_mesa())
    if ex.info().status != "ok":
        ex.close()
        pytest.skip(f"lavapipe does not start here: {ex.info().message}")
    yield ex
    ex.close()


@pytest.fixture(scope="module")
def case():
    return {c.id: c for c in generated("draw_params")}[CASE_ID]


def test_the_unplanted_case_passes(lavapipe, case):
    verdict = judge(case, lavapipe.run(case), "lavapipe")
    assert verdict.status is Status.PASS, verdict.message


@pytest.mark.parametrize("edit, says", [
    (refused_by_translator, "harness layer: cannot translate the GLSL: layout(location) on several declarators"),
    (refused_by_glslang, "harness layer: VS (translated) failed to compile:"),
])
def test_a_planted_layer_fault_is_error_naming_the_layer_the_case_and_the_target(lavapipe, case, edit, says):
    bad = planted(case, edit)
    assert bad.shaders != case.shaders                      # the plant took
    verdict = judge(bad, lavapipe.run(bad), "lavapipe")
    assert verdict.status is Status.ERROR, verdict.message
    assert verdict.message.startswith(says), verdict.message
    assert f"\n[case {CASE_ID}]\n" in verdict.message and verdict.message.endswith("[lavapipe]"), verdict.message
    assert not verdict.status.blames_driver()


def test_the_child_goes_on_after_a_layer_fault(lavapipe, case):
    """A layer fault ends the case, not the child: the next case runs in the same process."""
    pid = lavapipe.pid
    judge(case, lavapipe.run(planted(case, refused_by_glslang)), "lavapipe")
    assert judge(case, lavapipe.run(case), "lavapipe").status is Status.PASS
    assert lavapipe.pid == pid


BASELINES = sorted((ROOT / "baselines").glob("*.csv"))
LAYER_TARGET = re.compile(r"^(?P<id>[^#\s][^\[]*)\[(?P<target>lavapipe(?:-split)?)\],")


def baselined_layer_cases() -> list[tuple[str, str]]:
    """(baseline file, case id) of every line of a target that runs the harness's Vulkan layer."""
    return [(path.name, m["id"]) for path in BASELINES for line in path.read_text().splitlines()
            if (m := LAYER_TARGET.match(line))]


def test_no_baseline_line_is_a_layer_fault_of_translation_or_glslang():
    """A baseline lists the driver's failures; a case on a Vulkan-layer target whose GLSL the layer
    cannot translate, or whose translation glslang refuses, would be the harness's `error`, which a
    baseline must never hold. Both are checked here without a driver, for every path the layer's
    programs depend on (the native multi-draw path, the written point size). The third layer fault,
    a validation report on the layer's own call, needs a device: the baselines' cases were run under
    --vk-validation instead (docs/decisions.md#a-fail-on-a-lavapipe-target)."""
    if not shutil.which("glslangValidator"):
        pytest.skip("glslangValidator not installed (Debian package glslang-tools)")
    listed = baselined_layer_cases()
    assert listed, "no lavapipe line in baselines/*.csv: the check checks nothing"
    faults = []
    by_family = {f: {c.id: c for c in generated(f)} for f in {case_id.split("/")[0] for _, case_id in listed}}
    for name, case_id in listed:
        case = by_family[case_id.split("/")[0]].get(case_id) or catalog.find(case_id)     # explored: by its id
        for native, written in itertools.product((False, True), repeat=2):
            try:
                for shaders in (case.shaders,) + case.programs:
                    program = Program(dict(shaders), frozenset(),
                                      captures=tuple((c.varying, c.type) for c in case.readback.captures),
                                      attributes={a.name: a.location for a in case.attributes if a.name},
                                      separable=case.separable, fixed_function_fs=bool(case.readback.image),
                                      native_draw_id=native, point_size_written=written)
                    stages = translate(program)
                    if "tes" in stages and "tcs" not in stages:
                        draws = case.draws()
                        stages["tcs"] = passthrough_tcs(stages["vs"], (draws[0].state.patch_vertices if draws
                                                                       else None) or 3)
                    for stage, source in stages.items():
                        spirv.compile_glsl(stage, source)      # cached: glslang took it before
            except LayerFault as exc:
                faults.append(f"{name}: {case_id}: {str(exc).splitlines()[0]}")
                break
    assert not faults, "baselined as the driver's failure, but the harness layer's fault:\n" + "\n".join(faults)


def test_glslang_dying_in_the_child_is_the_layers_error_not_the_drivers_crash(case, tmp_path, monkeypatch):
    """glslang compiles in the driver's process: a SIGSEGV in it (planted: faults.py glslang-segv,
    a real fatal signal in the ctypes call) is `error`, named so, while a SIGSEGV elsewhere in that
    child stays the driver's `crash` (tests/selftest/executor)."""
    import faults
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))     # a SPIR-V cache miss: glslang runs
    with faults.planted({CASE_ID: "glslang-segv"}):
        ex = Executor(get("fault-lavapipe"), mesa=pinned_mesa())
        try:
            result = ex.run(case)
        finally:
            ex.close()
    assert result.status.value == "error", result.message
    assert "crashed in glslang (not the driver)" in result.message
    assert judge(case, result, "fault-lavapipe").status is Status.ERROR
