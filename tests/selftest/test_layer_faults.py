"""A fault of the harness's own Vulkan layer is the case's `error`, never a `fail` (docs/decisions.md#a-fail-on-a-lavapipe-target):
each fault planted in a real case run on real lavapipe, through the executor's child as a run
does it. The plant is in the case itself (its shaders), nothing global:
- a declaration the translator refuses (a location shared by two declarators): translate.py;
- a VS the translator passes through and glslang refuses (an ill-typed statement): spirv.py,
  the layer's output refused before any Vulkan call;
- a validation report on the layer's own call: test_vk_backend.py's planted invalid calls under
  --vk-validation (the Khronos validation layer; skipped, saying so, where it is not installed).
The same case unplanted passes, so each `error` is the plant's."""
from __future__ import annotations

import dataclasses

import pytest
from conftest import family, pinned_mesa

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
    return {c.id: c for c in family("draw_params").generate()}[CASE_ID]


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
