"""The comparator: every wrong quantity is named, with observed and expected values and where."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from harness.model.status import Result
from harness.model.observation import decode_records, encode_records, record_dtype
from harness.oracle.verdict import judge

WHERE = "llvmpipe: llvmpipe (LLVM 15.0.6, 256 bits), 4.5 (Core Profile) Mesa 22.3.6"
CASE_ID = "tess/no-tcs/triangles/equal/pv4/o2_3_4-i6/then/o2.5_1.25_3.75-i3.5"


def consistent_observation(case) -> dict:
    """Records that satisfy the case's expectations: the comparator's input, built by hand."""
    dtype = record_dtype(case.readback.captures)
    draws = []
    for exp in case.expect:
        counts = dict(exp.counts)
        per_group = counts["xfb_vertices"] // len(exp.groups)
        parts = []
        for group in exp.groups:
            records = np.zeros(per_group, dtype)
            records[group.key] = group.key_value
            for quantity, value in group.values:
                value = np.atleast_1d(value)
                records[quantity][:, :len(value)] = value
            parts.append(records)
        draws.append({"counts": counts, "xfb": encode_records(np.concatenate(parts).tobytes())})
    return {"steps": draws}


def edit(case, observation, draw, change):
    records = decode_records(case.readback.captures, observation["steps"][draw]["xfb"]).copy()
    records = change(records)
    observation["steps"][draw]["xfb"] = encode_records(records.tobytes())
    return observation


@pytest.fixture
def case(tess_cases):
    return tess_cases[CASE_ID]


def run(case, observation):
    return judge(case, Result("ok", observation=observation), WHERE)


def test_consistent_observation_passes(case):
    assert run(case, consistent_observation(case)).status == "pass"


def test_stale_levels_named_with_draw_patch_and_target(case):
    def stale(records):
        records["gl_TessLevelOuter"][:] = (2, 3, 4, 0)
        return records
    verdict = run(case, edit(case, consistent_observation(case), 1, stale))
    assert verdict.status == "fail"
    lines = verdict.message.splitlines()
    assert lines[0].startswith("draw 1 (glDrawArrays(GL_PATCHES, 9, 8)), patch 0, TES: "
                               "gl_TessLevelOuter = (2, 3, 4), expected (2.5, 1.25, 3.75) (all ")
    assert any(line.startswith("draw 1 (glDrawArrays(GL_PATCHES, 9, 8)), patch 1, TES: "
                               "gl_TessLevelOuter = (2, 3, 4)") for line in lines)
    assert lines[-1] == f"[{WHERE}]"


def test_single_bad_record_is_counted(case):
    def one(records):
        records["gl_PatchVerticesIn"][3] = 3
        return records
    verdict = run(case, edit(case, consistent_observation(case), 0, one))
    assert "patch 0, TES: gl_PatchVerticesIn = 3, expected 4 (1 of " in verdict.message


def test_nan_never_passes(case):
    def nan(records):
        records["gl_TessLevelInner"][:] = np.nan
        return records
    verdict = run(case, edit(case, consistent_observation(case), 0, nan))
    assert "gl_TessLevelInner = nan, expected 6" in verdict.message


def test_missing_patch_and_stray_patch(case):
    def move(records):
        records["gl_PrimitiveID"][records["gl_PrimitiveID"][:, 0] == 1] = 5
        return records
    verdict = run(case, edit(case, consistent_observation(case), 0, move))
    assert "patch 1, TES: no record has gl_PrimitiveID = 1" in verdict.message
    assert "have gl_PrimitiveID in [5], which the draw should not produce" in verdict.message


def test_counts_compared(case):
    observation = consistent_observation(case)
    observation["steps"][0]["counts"]["primitives_generated"] = 3
    verdict = run(case, observation)
    assert "draw 0 (glDrawArrays(GL_PATCHES, 0, 8)): primitives_generated = 3, expected " in verdict.message


def test_missing_draw(case):
    observation = consistent_observation(case)
    del observation["steps"][1]
    assert "no observation" in run(case, observation).message


def test_case_expecting_nothing_cannot_pass(case):
    empty = dataclasses.replace(case, expect=())
    assert run(empty, consistent_observation(case)).status == "fail"


@pytest.mark.parametrize("status", ["crash", "timeout", "error", "skip"])
def test_runner_statuses_pass_through_with_target(case, status):
    verdict = judge(case, Result(status, "child process died: SIGSEGV"), WHERE)
    assert verdict.status == status
    assert "SIGSEGV" in verdict.message and WHERE in verdict.message


def test_backend_failure_is_fail(case):
    verdict = judge(case, Result("fail", "TES failed to compile:\n0:1(1): error"), WHERE)
    assert verdict.status == "fail" and "failed to compile" in verdict.message


def test_value_set_alternative_accepts_the_other_allowed_result_only():
    """gl_PrimitiveIDIn after tessellation: the tessellator's primitives counted (Mesa) or the
    patch number for all of them (NVIDIA) both pass; anything else fails naming both."""
    from harness.model.case import ValueSet
    from harness.oracle.verdict import _check_value_set
    import numpy as np
    counted = ValueSet("id", ((0.0,), (1.0,), (2.0,)), "patch 0", each=1,
                       alternatives=(ValueSet("id", ((0.0,),), "the patch number", each=3),))

    def records(values):
        out = np.zeros(len(values), dtype=[("id", "f8", (1,))])
        out["id"][:, 0] = values
        return out
    assert _check_value_set(counted, records([2, 0, 1]), "draw 0") == []
    assert _check_value_set(counted, records([0, 0, 0]), "draw 0") == []
    problems = _check_value_set(counted, records([0, 0, 1]), "draw 0")
    assert problems and "nor is it the patch number" in problems[-1]
