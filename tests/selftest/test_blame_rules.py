"""The blame rules (harness/triage/blame_rules.py, docs/triage.md) over evidence tables: each verdict,
and "undecided" where the evidence conflicts or cannot tell. The first tables are the evidence
`python -m harness blame` recorded for the kept multi-draw cases on 2026-11-25 (first lines
shortened); the others are small tables made for one rule each."""
from __future__ import annotations

import pytest

from harness.triage.blame_rules import VERDICTS, Row, judge, judge_mesa

ZERO = "draw 0 (glMultiDrawElements): xfb_vertices = 0, expected 1"
DRAW_ID = "draw 0 (glMultiDrawElements), entry 1, vertex 0, instance 0: gl_DrawID = 0, expected 1"
RESTART = "draw 0 (glMultiDrawElementsIndirectCount): xfb_vertices = 4, expected 3"


def rows(mesa, llvmpipe, zink, native, split, other=None, zink_validation="", layer_validation="", path="native"):
    """One Mesa's table: each argument a status, or (status, first line)."""
    def row(setup, value, validation=""):
        status, message = value if isinstance(value, tuple) else (value, "")
        return Row(setup, mesa, status, message, validation, zinks_path=setup == f"layer/{path}")
    table = [row("llvmpipe", llvmpipe), row("zink/lavapipe", zink, zink_validation)]
    if other is not None:
        table.append(row("zink/other", other))
    return table + [row("layer/native", native, layer_validation), row("layer/split", split, layer_validation)]


RECORDED = {
    # kept first-count-zero, on 22.3.6 and 26.2.6-1 alike
    "first-count-zero": (rows("22.3.6", ("fail", ZERO), ("fail", ZERO), ("fail", ZERO), "pass")
                         + rows("26.2.6-1", ("fail", ZERO), ("fail", ZERO), ("fail", ZERO), "pass"),
                         "gallium draw module"),
    "restart-draw-id": (rows("22.3.6", ("fail", DRAW_ID), ("fail", DRAW_ID), ("fail", DRAW_ID), "pass")
                        + rows("26.2.6-1", ("fail", DRAW_ID), ("fail", DRAW_ID), ("fail", DRAW_ID), "pass"),
                        "gallium draw module"),
    # kept indirect-count restart: lavapipe on 22.3.6, fixed in 26.2.6-1
    "indirect-count-restart": (rows("22.3.6", "pass", ("fail", RESTART), ("fail", RESTART), ("fail", RESTART))
                               + rows("26.2.6-1", "pass", "pass", "pass", "pass"), "lavapipe"),
}


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_evidence(name):
    table, component = RECORDED[name]
    verdict = judge(table)
    assert verdict.component == component, verdict.reason
    if name == "indirect-count-restart":
        assert verdict.reason.startswith("on Mesa 22.3.6: ") and "passes everywhere on 26.2.6-1" in verdict.reason


@pytest.mark.parametrize("table, component, words", [
    (rows("m", "fail", "fail", "pass", "pass"), "GL front end / state tracker", "fail the same"),
    (rows("m", "fail", "fail", "pass", "pass", other="fail"), "GL front end / state tracker",
     "and over another Vulkan driver"),
    (rows("m", "fail", "pass", "pass", "pass"), "llvmpipe", "zink over lavapipe passes"),
    (rows("m", "fail", "fail", "fail", "pass"), "gallium draw module", "lavapipe shares with llvmpipe"),
    (rows("m", "pass", "fail", "pass", "pass", other="fail"), "zink", "over another Vulkan driver"),
    (rows("m", "pass", "crash", "pass", "pass", zink_validation="VUID-VkShaderModuleCreateInfo-pCode-08737: "
          "not valid SPIR-V"), "zink", "pCode-08737"),
    (rows("m", "pass", "fail", "fail", "fail"), "lavapipe", "the Vulkan calls zink makes"),
    (rows("m", "pass", "pass", "pass", "fail"), "harness layer", "not in the path zink takes (layer/native)"),
    (rows("m", "pass", "pass", "fail", "fail", layer_validation="VUID-vkCmdSetScissor-x-00595"), "harness layer",
     "VUID-vkCmdSetScissor-x-00595"),
])
def test_each_verdict(table, component, words):
    verdict = judge_mesa(table)
    assert verdict.component == component and words in verdict.reason, verdict


@pytest.mark.parametrize("table, words", [
    # lavapipe fails the calls zink makes, yet zink over lavapipe passes
    (rows("m", "pass", "pass", "fail", "pass"), "the evidence conflicts"),
    # zink over lavapipe alone cannot tell zink from lavapipe
    (rows("m", "pass", "crash", "pass", "pass"), "no other Vulkan driver"),
    # llvmpipe and zink fail, but zink over another driver passes and lavapipe passes zink's calls
    (rows("m", "fail", "fail", "pass", "pass", other="pass"), "does not agree"),
    (rows("m", "pass", "pass", "pass", "pass"), "nothing to blame"),
    (rows("m", "skip", "error", "pass", "pass"), "nothing to blame"),
])
def test_undecided_where_the_evidence_conflicts_or_cannot_tell(table, words):
    verdict = judge_mesa(table)
    assert verdict.component == "undecided" and words in verdict.reason, verdict


def test_mesas_that_disagree_leave_it_undecided():
    table = rows("22.3.6", "fail", "pass", "pass", "pass") + rows("26.2.6-1", "pass", "fail", "fail", "fail")
    verdict = judge(table)
    assert verdict.component == "undecided"
    assert "22.3.6: llvmpipe" in verdict.reason and "26.2.6-1: lavapipe" in verdict.reason


def test_every_verdict_is_reachable():
    reached = {judge_mesa(t).component for t, _, _ in test_each_verdict.pytestmark[0].args[1]}
    assert reached | {"undecided"} == set(VERDICTS)
