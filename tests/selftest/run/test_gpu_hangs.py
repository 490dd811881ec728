"""A hang on a GPU flags the failures after it on the same boot (harness/run/gpu_hangs.py): the
logic, over a cache home of the test's own; no GPU here."""
from __future__ import annotations

from harness.model.status import Status
from harness.run import gpu_hangs

NVIDIA = "zink Vulkan 1.4(NVIDIA H100 80GB HBM3 (NVIDIA_PROPRIETARY))"
HANG = "timeout: hang: no result after 20 s of wall time (--case-timeout); child killed"
WRONG = "fail: draw 0 (glMultiDrawElements), entry 1, vertex 0, instance 0: attributes fetched = (0, 0), expected (7, 0)"


def test_a_failure_after_a_hang_on_a_gpu_names_the_hang(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    before = gpu_hangs.after(Status.FAIL, WRONG, "a", "zink-system", NVIDIA, env, boot="b1")
    assert before == WRONG                                   # no hang yet: the message as it was
    hang = gpu_hangs.after(Status.TIMEOUT, HANG, "hangs", "zink-system", NVIDIA, env, boot="b1", now=0.0)
    assert hang == HANG                                      # the hang itself is not "after a hang"
    flagged = gpu_hangs.after(Status.FAIL, WRONG, "b", "zink-system", NVIDIA, env, boot="b1")
    assert flagged.startswith(WRONG + "\n[after a hang on this machine's GPU: hangs on zink-system at ")
    assert "rerun on a fresh machine" in flagged
    assert gpu_hangs.after(Status.PASS, "", "c", "zink-system", NVIDIA, env, boot="b1") == ""


def test_software_renderers_and_other_boots_are_left_alone(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    gpu_hangs.after(Status.TIMEOUT, HANG, "hangs", "zink", "zink Vulkan 1.3(llvmpipe (LLVM 15.0.6, 256 bits))", env,
                    boot="b1")
    assert gpu_hangs.first_since_boot(env, boot="b1") is None          # lavapipe: a CPU, nothing to poison
    gpu_hangs.after(Status.TIMEOUT, HANG, "hangs", "zink-system", NVIDIA, env, boot="b1")
    assert gpu_hangs.after(Status.FAIL, WRONG, "b", "zink-system", NVIDIA, env, boot="b2") == WRONG
    assert gpu_hangs.after(Status.FAIL, WRONG, "b", "llvmpipe", "llvmpipe (LLVM 15.0.6, 256 bits)", env,
                           boot="b1") == WRONG


def test_a_lost_device_is_a_hang_and_a_harness_error_is_not():
    assert gpu_hangs.poisons(Status.CRASH, "Vulkan device lost (VK_ERROR_DEVICE_LOST) in vkQueueSubmit")
    assert not gpu_hangs.poisons(Status.CRASH, "child process died: SIGSEGV")
    assert not gpu_hangs.poisons(Status.ERROR, "Vulkan device lost (VK_ERROR_DEVICE_LOST)")
    assert gpu_hangs.poisons(Status.TIMEOUT, HANG)


def test_an_exploration_finding_after_a_gpu_hang_says_so(tmp_path):
    import json
    from harness.explore import findings
    size = {"stages": 1, "draws": 1, "entries": 1, "vertices": 1, "glsl_lines": 24}
    found = {"signature": {"status": "fail", "stages": ["vs"], "quantities": ["attributes fetched"]},
             "status": "fail", "reduced_id": "draw_params/explore/v1-x", "reduced_by": "hypothesis shrink (3 runs)",
             "size_before": size, "size_after": size, "fixed_also": None}
    run = {"target": "zink-system", "family": "draw_params", "mesa": "26.2.6-1", "cases_run": 2,
           "statuses": {"fail": 2}, "findings": [dict(found, after_gpu_hang=True), dict(found, after_gpu_hang=False)]}
    (tmp_path / "findings.json").write_text(json.dumps(run))
    lines = [line for line in findings.summary([tmp_path / "findings.json"]).splitlines() if line.startswith("- ")]
    assert "AFTER A GPU HANG" in lines[0] and "AFTER A GPU HANG" not in lines[1]
