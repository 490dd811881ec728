"""Self-tests of the status vocabulary (harness/model/status.py): the order, the baseline names, and
every old -> new transition compare and the report rely on."""
from __future__ import annotations

import pytest

from harness.model.status import BASELINE_NAMES, Change, Reply, Status

P, S, K, O, F, T, C, E = (Status.PASS, Status.SKIP, Status.FLAKE, Status.ORDER_DEPENDENT, Status.FAIL,
                          Status.TIMEOUT, Status.CRASH, Status.ERROR)
R, I, X, SF, NS, US, NF, U = (Change.REGRESSION, Change.IMPROVEMENT, Change.FIX, Change.STILL_FAILING,
                              Change.NEW_SKIP, Change.UNSKIPPED, Change.NEW_FLAKE, Change.UNCHANGED)

# Every transition, written out by hand from the rules in status.py's docstring (a row is the
# old status, a column the new one): a rise to a failure is a regression, a skip is never a
# fix nor a failure, a failure that falls to a lesser failure is an improvement.
TRANSITIONS = {
    #        pass  skip  flake order fail  timeout crash error
    P:      (U,    NS,   NF,   NF,   R,    R,      R,    R),
    S:      (US,   U,    US,   US,   R,    R,      R,    R),
    K:      (U,    NS,   U,    U,    R,    R,      R,    R),
    O:      (U,    NS,   U,    U,    R,    R,      R,    R),
    F:      (X,    NS,   X,    X,    SF,   R,      R,    R),
    T:      (X,    NS,   X,    X,    I,    SF,     R,    R),
    C:      (X,    NS,   X,    X,    I,    I,      SF,   R),
    E:      (X,    NS,   X,    X,    I,    I,      I,    SF),
}
ORDER = (P, S, K, O, F, T, C, E)


@pytest.mark.parametrize("old", ORDER)
@pytest.mark.parametrize("new", ORDER)
def test_every_transition(old, new):
    assert Change.of(old, new) is TRANSITIONS[old][ORDER.index(new)], f"{old} -> {new}"


def test_the_transitions_the_issue_names():
    assert Change.of(S, F) is Change.REGRESSION          # did not fail before: a regression
    assert Change.of(F, S) is Change.NEW_SKIP             # a skip is not a fix
    assert Change.of(C, F) is Change.IMPROVEMENT
    assert Change.of(F, C) is Change.REGRESSION


def test_order_worst_last():
    assert sorted([E, P, C, F, O, S, T, K]) == [P, S, K, O, F, T, C, E]
    assert max(F, C, T) is C and min(F, P) is P
    assert [s.severity for s in ORDER] == sorted(s.severity for s in ORDER)


def test_failures_and_baseline_names():
    assert {s for s in Status if s.is_failure()} == {F, T, C, E}
    assert {s for s in Status if s.blames_driver()} == {F, T, C}      # error is the harness's
    assert (F.baseline_name, C.baseline_name, T.baseline_name) == ("Fail", "Crash", "Timeout")
    assert BASELINE_NAMES == ("Fail", "Crash", "Timeout")
    assert Status.from_baseline("Crash") is C
    for bad in ("fail", "Error", "Pass", "Skip"):
        with pytest.raises(ValueError, match=repr(bad)):
            Status.from_baseline(bad)


def test_plain_names_in_files():
    import json
    assert json.dumps({"status": F}) == '{"status": "fail"}'
    assert f"{C}" == "crash" and Status.parse("timeout") is T
    with pytest.raises(ValueError, match="unknown status 'passed'"):
        Status.parse("passed")


def test_replies():
    assert Reply.OK.status is None
    assert [r.status for r in (Reply.SKIP, Reply.FAIL, Reply.ERROR, Reply.CRASH, Reply.TIMEOUT)] == [S, F, E, C, T]
    assert Reply.parse("ok") is Reply.OK and Reply.parse("garbled") is Reply.ERROR
