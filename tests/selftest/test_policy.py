"""Self-tests of the run policy (harness/run/policy.py), without pytest items or drivers: verdict,
baseline line, flakes-file entry and re-runs in, outcome and message out."""
from __future__ import annotations

from harness.run.policy import EXPECTED_FAIL, UNEXPECTED_PASS, Outcome, Report, decide
from harness.model.status import Status
from harness.model.status import Verdict

WRONG = Verdict(Status.FAIL, "draw 0: gl_DrawID = 0, expected 2\n[zink: ...]")
CRASH = Verdict(Status.CRASH, "child process died: SIGSEGV\n--- stderr tail ---\n...")
PASS = Verdict(Status.PASS)


def test_pass_and_plain_failures():
    assert decide(PASS) == Outcome(Status.PASS, Report.PASSED, "", "pass")
    out = decide(WRONG)
    assert (out.status, out.report, out.label) == (Status.FAIL, Report.FAILED, "fail")
    assert out.message == "fail: draw 0: gl_DrawID = 0, expected 2\n[zink: ...]"
    assert decide(CRASH).label == "crash" and decide(CRASH).report is Report.FAILED
    timeout = decide(Verdict(Status.TIMEOUT, "no result after 60 s; child killed"))
    assert (timeout.label, timeout.message) == ("timeout", "timeout: no result after 60 s; child killed")
    assert decide(Verdict(Status.ERROR, "KeyError: 'x'")).report is Report.FAILED


def test_skip_is_skipped_with_its_reason():
    out = decide(Verdict(Status.SKIP, "needs GL 4.6 core [llvmpipe]"))
    assert out == Outcome(Status.SKIP, Report.SKIPPED, "needs GL 4.6 core [llvmpipe]", "skip")


def test_expected_failure():
    out = decide(WRONG, expected=Status.FAIL)
    assert out == Outcome(Status.FAIL, Report.SKIPPED, "expected Fail (baseline): draw 0: gl_DrawID = 0, "
                                                       "expected 2", EXPECTED_FAIL)


def test_failure_other_than_the_baseline_fails_naming_the_line():
    out = decide(CRASH, expected=Status.FAIL)
    assert out.report is Report.FAILED and out.status is Status.CRASH and out.label == "crash"
    assert out.message.endswith("\n(the baseline expects Fail)")


def test_unexpected_pass():
    out = decide(PASS, expected=Status.TIMEOUT)
    assert out == Outcome(Status.PASS, Report.FAILED, "unexpected pass: the baseline expects Timeout; "
                                                      "update the baseline", UNEXPECTED_PASS)


def test_skip_of_a_baseline_case_is_a_skip():
    assert decide(Verdict(Status.SKIP, "needs X"), expected=Status.FAIL).report is Report.SKIPPED


def test_rerun_that_passes_is_a_flake():
    out = decide(WRONG, reruns=[WRONG, PASS, WRONG])
    assert out == Outcome(Status.FLAKE, Report.SKIPPED,
                          "flake: fail first, passed on re-run 2: draw 0: gl_DrawID = 0, expected 2", "flake")


def test_reruns_are_taken_lazily_and_only_for_failures():
    taken = []

    def reruns():
        for verdict in (PASS, WRONG):
            taken.append(verdict)
            yield verdict
    decide(PASS, reruns=reruns())
    assert taken == []
    decide(CRASH, reruns=reruns())
    assert taken == [PASS]                         # stops at the first pass


def test_reruns_that_all_fail_keep_the_first_verdict():
    assert decide(CRASH, reruns=[WRONG, WRONG]).status is Status.CRASH


def test_listed_flake():
    listed = [("flakes.txt:3", {Status.CRASH})]             # the entry forgives crashes only
    out = decide(CRASH, flakes=listed)
    assert out == Outcome(Status.FLAKE, Report.SKIPPED,
                          "flake (listed in flakes.txt:3): crash: child process died: SIGSEGV", "flake")
    assert decide(PASS, flakes=listed).status is Status.PASS     # a pass stays a pass
    wrong = decide(WRONG, flakes=listed)                    # a wrong value is not what it forgives
    assert (wrong.status, wrong.report, wrong.label) == (Status.FAIL, Report.FAILED, "fail")


def test_a_flake_of_a_baseline_case_is_a_flake():
    out = decide(WRONG, expected=Status.FAIL, reruns=[PASS])
    assert (out.status, out.report, out.label) == (Status.FLAKE, Report.SKIPPED, "flake")
