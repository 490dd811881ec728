"""A read-back whose size comes from a count the driver reported (the transform-feedback
primitives-written query) reads at most what its buffer holds, so that a wrong count is the
driver's failure, named by the oracle, and not a harness error: NVIDIA answered ~2^31 primitives
written, and the GL read-back's size overflowed PyOpenGL's int32."""
from __future__ import annotations

import pytest
from conftest import generated, pinned_mesa
from faults import FAULT_LAVAPIPE, FAULT_LLVMPIPE, HUGE_COUNT, planted

from harness.backends import readback_bytes
from harness.executor.executor import Executor
from harness.oracle.verdict import judge

CASE = "tess/no-tcs/triangles/equal/pv4/o1_1_1-i1"      # 2 triangles captured, 76 records of room


def test_a_reported_count_is_read_back_up_to_the_buffers_size():
    assert readback_bytes(6, 16, 16 * 76) == 96                   # what the driver wrote
    assert readback_bytes(0, 16, 16 * 76) == 0
    assert readback_bytes(3 * HUGE_COUNT, 16, 16 * 76) == 16 * 76  # not 96 GiB
    assert readback_bytes(-1, 16, 16 * 76) == 0


@pytest.mark.parametrize("target", [FAULT_LLVMPIPE, FAULT_LAVAPIPE], ids=lambda t: t.name)
def test_a_huge_primitives_written_count_is_the_cases_failure_naming_it(target):
    """The query answers 2^31 (faults.py `huge-xfb-count`) on a real run: the case is judged, and
    fails on the count, observed and expected. Without the cap the GL run is an `error`
    (OverflowError: 566935683072 out of bounds for int32); the Vulkan one read its mapped memory
    through a slice, which stopped at the buffer's end anyway."""
    case = {c.id: c for c in generated("tess")}[CASE]
    with planted({CASE: "huge-xfb-count"}):
        ex = Executor(target, mesa=pinned_mesa())
        try:
            verdict = judge(case, ex.run(case), target.name)
        finally:
            ex.close()
    assert verdict.status == "fail", verdict.message
    assert f"xfb_primitives_written = {HUGE_COUNT}, expected 2" in verdict.message, verdict.message
    assert f"xfb_vertices = {3 * HUGE_COUNT}, expected 6" in verdict.message, verdict.message
