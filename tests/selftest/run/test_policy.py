"""Self-tests of the run policy (harness/run/policy.py), without pytest items or drivers: verdict,
baseline line, flakes-file entry and re-runs in, outcome and message out."""
from __future__ import annotations

import pytest

from harness.model.outcome import Judged, Outcome, Report
from harness.run.policy import decide
from harness.model.status import Status
from harness.model.status import Verdict

WRONG = Verdict(Status.FAIL, "draw 0: gl_DrawID = 0, expected 2\n[zink: ...]")
CRASH = Verdict(Status.CRASH, "child process died: SIGSEGV\n--- stderr tail ---\n...")
PASS = Verdict(Status.PASS)


def test_pass_and_plain_failures():
    assert decide(PASS) == (Outcome(Status.PASS), "")
    assert (Outcome(Status.PASS).report, Outcome(Status.PASS).label) == (Report.PASSED, "pass")
    out, message = decide(WRONG)
    assert (out.status, out.report, out.label) == (Status.FAIL, Report.FAILED, "fail")
    assert message == "fail: draw 0: gl_DrawID = 0, expected 2\n[zink: ...]"
    assert decide(CRASH)[0].label == "crash" and decide(CRASH)[0].report is Report.FAILED
    timeout, message = decide(Verdict(Status.TIMEOUT, "no result after 60 s; child killed"))
    assert (timeout.label, message) == ("timeout", "timeout: no result after 60 s; child killed")
    assert decide(Verdict(Status.ERROR, "KeyError: 'x'"))[0].report is Report.FAILED


def test_skip_is_skipped_with_its_reason():
    out, message = decide(Verdict(Status.SKIP, "needs GL 4.6 core [llvmpipe]"))
    assert (out, out.report, out.label, message) == (Outcome(Status.SKIP), Report.SKIPPED, "skip",
                                                     "needs GL 4.6 core [llvmpipe]")


def test_expected_failure():
    out, message = decide(WRONG, expected=Status.FAIL)
    assert out == Outcome(Status.FAIL, Judged.EXPECTED_FAIL)
    assert (out.report, out.label) == (Report.SKIPPED, "expected fail")
    assert message == "expected Fail (baseline): draw 0: gl_DrawID = 0, expected 2"


def test_failure_other_than_the_baseline_fails_naming_the_line():
    out, message = decide(CRASH, expected=Status.FAIL)
    assert out.report is Report.FAILED and out.status is Status.CRASH and out.label == "crash"
    assert message.endswith("\n(the baseline expects Fail)")


def test_unexpected_pass():
    out, message = decide(PASS, expected=Status.TIMEOUT)
    assert out == Outcome(Status.PASS, Judged.UNEXPECTED_PASS)
    assert (out.report, out.label) == (Report.FAILED, "unexpected pass")
    assert message == "unexpected pass: the baseline expects Timeout; update the baseline"


def test_skip_of_a_baseline_case_is_a_skip():
    assert decide(Verdict(Status.SKIP, "needs X"), expected=Status.FAIL)[0].report is Report.SKIPPED


def test_rerun_that_passes_is_a_flake():
    assert decide(WRONG, reruns=[WRONG, PASS, WRONG]) == (
        Outcome(Status.FLAKE), "flake: fail first, passed on re-run 2: draw 0: gl_DrawID = 0, expected 2")
    assert (Outcome(Status.FLAKE).report, Outcome(Status.FLAKE).label) == (Report.SKIPPED, "flake")


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
    assert decide(CRASH, reruns=[WRONG, WRONG])[0].status is Status.CRASH


def test_listed_flake():
    listed = [("flakes.txt:3", {Status.CRASH})]             # the entry forgives crashes only
    assert decide(CRASH, flakes=listed) == (
        Outcome(Status.FLAKE), "flake (listed in flakes.txt:3): crash: child process died: SIGSEGV")
    assert decide(PASS, flakes=listed)[0].status is Status.PASS     # a pass stays a pass
    wrong, _ = decide(WRONG, flakes=listed)                 # a wrong value is not what it forgives
    assert (wrong.status, wrong.report, wrong.label) == (Status.FAIL, Report.FAILED, "fail")


def test_a_flake_of_a_baseline_case_is_a_flake():
    out, _ = decide(WRONG, expected=Status.FAIL, reruns=[PASS])
    assert (out.status, out.report, out.label) == (Status.FLAKE, Report.SKIPPED, "flake")


def test_the_outcome_derives_its_words_in_one_place():
    """Outcome: the terminal's label, pytest's report and deqp-runner's spelling, from status and
    judgement; one that cannot be (an expected pass) is refused."""
    table = [(Outcome(Status.PASS), "pass", Report.PASSED, "Pass"),
             (Outcome(Status.SKIP), "skip", Report.SKIPPED, "Skip"),
             (Outcome(Status.FLAKE), "flake", Report.SKIPPED, "Flake"),
             (Outcome(Status.ORDER_DEPENDENT), "order-dependent", Report.SKIPPED, "Flake"),
             (Outcome(Status.ERROR), "error", Report.FAILED, "Fail"),
             (Outcome(Status.CRASH, Judged.EXPECTED_FAIL), "expected fail", Report.SKIPPED, "ExpectedFail"),
             (Outcome(Status.PASS, Judged.UNEXPECTED_PASS), "unexpected pass", Report.FAILED,
              "UnexpectedImprovement(Pass)"),
             (Outcome(Status.FAIL, Judged.UNEXPECTED_IMPROVEMENT), "unexpected improvement", Report.FAILED,
              "UnexpectedImprovement(Fail)")]
    for outcome, label, report, deqp in table:
        assert (outcome.label, outcome.report, outcome.deqp) == (label, report, deqp)
        assert Outcome.from_label(outcome.status, outcome.label) == outcome
    for status, judged in ((Status.PASS, Judged.EXPECTED_FAIL), (Status.FAIL, Judged.UNEXPECTED_PASS),
                           (Status.ERROR, Judged.UNEXPECTED_IMPROVEMENT)):
        with pytest.raises(ValueError):
            Outcome(status, judged)
