"""The blame rules (harness/triage/blame_rules.py, docs/triage.md) over evidence tables: each verdict,
and "undecided" where the evidence conflicts or cannot tell. The first tables are the evidence
`python -m harness blame` recorded for the kept multi-draw cases on 2026-11-25 (first lines
shortened); the others are small tables made for one rule each."""
from __future__ import annotations

import pytest

from harness.model.blame import VERDICTS
from harness.triage.blame_rules import Row, judge, judge_mesa, set_aside

ZERO = "draw 0 (glMultiDrawElements): xfb_vertices = 0, expected 1"
DRAW_ID = "draw 0 (glMultiDrawElements), entry 1, vertex 0, instance 0: gl_DrawID = 0, expected 1"
RESTART = "draw 0 (glMultiDrawElementsIndirectCount): xfb_vertices = 4, expected 3"
STRUCT = ("draw 0 (glDrawArrays(GL_PATCHES, 1, 2)), patch 0, TES: sum over the patch of s.a.x, s.a.y, s.a.z, s.b = "
          "(16.25, 16.5, 16.75, 0), expected (16.25, 16.5, 16.75, 1")
INJECTED_TCS = ("UNASSIGNED-CoreValidation-Shader-InconsistentSpirv(ERROR / SPEC): ... | SPIR-V module not valid: "
                "Expected input to be a point")


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


# lavapipe-tes-struct-input's case, recorded 2026-11-26 (harness blame ... --mesa system --mesa mesa/26.2.6-1):
# on 22.3.6 zink crashes in its injected pass-through TCS (another defect, the zink struct lines of the 22.3.6
# baseline) before its TES reads anything; llvmpipe and lavapipe fail on the values.
STRUCT_CASE = (rows("22.3.6", ("fail", STRUCT), ("crash", "child process died: SIGSEGV"), ("fail", STRUCT),
                    ("fail", STRUCT), zink_validation=INJECTED_TCS)
               + rows("26.2.6-1", "pass", "pass", "pass", "pass"))


def test_a_second_defect_on_one_row_decides_without_the_failure_under_triage():
    verdict = judge(STRUCT_CASE)
    assert verdict.component == "zink" and "Expected input to be a point" in verdict.reason


def test_a_row_failing_otherwise_than_the_failure_under_triage_is_set_aside():
    verdict = judge(STRUCT_CASE, failure=r"TES: sum over the patch of s\.")
    assert verdict.component == "gallium draw module", verdict.reason
    assert verdict.reason.startswith("on Mesa 22.3.6: llvmpipe fails, and lavapipe fails the Vulkan calls zink makes")
    assert "set aside, failing otherwise than /TES: sum over the patch of s\\./: zink/lavapipe (crash: child " \
           "process died: SIGSEGV)" in verdict.reason
    assert "fails of /TES: sum over the patch of s\\./ nowhere on 26.2.6-1" in verdict.reason


def test_rows_failing_as_the_failure_under_triage_stay():
    # the same failure on every row: nothing set aside, the verdict as without --failure
    table, component = RECORDED["restart-draw-id"]
    verdict = judge(table, failure="gl_DrawID = 0")
    assert verdict.component == component and "set aside" not in verdict.reason
    # a failure no row shows: every failing row is set aside, nothing is left to blame
    assert judge(table, failure="no such failure").component == "undecided"


def test_set_aside_drops_the_rows_validation_and_leaves_the_others():
    kept, aside = set_aside(STRUCT_CASE, r"s\.b = ")
    assert [r.setup for r in aside] == ["zink/lavapipe"]
    zink = next(r for r in kept if r.setup == "zink/lavapipe" and r.mesa == "22.3.6")
    assert zink.status == "aside" and zink.validation == ""
    assert [r for r in kept if r.setup != "zink/lavapipe"] == [r for r in STRUCT_CASE if r.setup != "zink/lavapipe"]
    assert set_aside(STRUCT_CASE, "") == (STRUCT_CASE, [])


def test_without_zinks_row_llvmpipe_and_lavapipe_in_zinks_path_name_the_draw_module():
    verdict = judge_mesa(rows("m", "fail", "skip", "fail", "pass"))
    assert verdict.component == "gallium draw module" and "says nothing of this failure" in verdict.reason
    # not so where lavapipe passes zink's calls: llvmpipe alone could be at fault
    assert judge_mesa(rows("m", "fail", "skip", "pass", "fail")).component == "undecided"


def test_zink_over_another_driver_alone_is_undecided_and_says_what_is_missing():
    """A GPU machine without lavapipe (blame --setups llvmpipe,zink/other) has no zink/lavapipe or
    layer rows: its table alone cannot name zink, and must not claim the layer's rows conflict."""
    table = [Row("llvmpipe", "25.0.7", "pass"), Row("zink/other", "25.0.7", "crash", "SIGSEGV (5 of 5 runs)")]
    verdict = judge(table)
    assert verdict.component == "undecided"
    assert "zink over lavapipe gave no verdict" in verdict.reason and "the layer fails" not in verdict.reason


def test_a_validation_report_on_a_passing_zink_row_is_another_defect():
    """25.0.7, llvmpipe-tcs-large-out-crash's case: llvmpipe crashes, zink passes, and the validation
    layer reports zink's SPIR-V ("Entry-point has conflicting ..."): zink is not at fault for the
    crash it does not have; the report is named as another defect."""
    report = "UNASSIGNED-CoreValidation-Shader-InconsistentSpirv ... SPIR-V module not valid: Entry-point has conflicting"
    table = rows("25.0.7", ("crash", "child process died: SIGSEGV"), "pass", "skip", "skip", zink_validation=report)
    verdict = judge(table)
    assert verdict.component == "llvmpipe", verdict.reason
    assert "where zink passes, another defect: zink/lavapipe (pass)" in verdict.reason


def test_zink_passing_over_lavapipe_and_failing_over_another_driver_is_undecided_for_that_reason():
    table = rows("25.0.7", "pass", "pass", "pass", "pass", other=("crash", "SIGSEGV (5 of 5 runs)"))
    verdict = judge(table)
    assert verdict.component == "undecided"
    assert verdict.reason.endswith("zink over another Vulkan driver fails and zink over lavapipe passes: that "
                                   "driver, or a path zink takes over it only; an intermittent failure needs more --repeats")
