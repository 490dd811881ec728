"""Which findings the fixed lists also find: the fixed cases a baseline lists as failing (for
this family and target) are run once, and a finding counts as found by the fixed list where one
of them fails the way the finding's reduced case does (same status, and its first wrong quantity
among theirs: signature.same_failure). Fixed failures that match no finding are what the
exploration missed in its budget."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from harness.run import baseline
from harness.sources import catalog
from harness.model import ids as case_ids
from harness.explore.signature import reduction_key, same_failure
from harness.model.status import Verdict

if TYPE_CHECKING:
    from harness.explore.findings import Finding
    from harness.model.case import Case


def fixed_failures(paths: baseline.Paths, family: str, target: str) -> list[str]:
    """Ids of the baseline's cases of `family` expected to fail on `target`, in file order."""
    out: list[str] = []
    for key in baseline.load(paths):
        split = case_ids.split(key)
        case_id, on = split if split else (key, None)
        if catalog.prefix(case_id) == family and on in (None, target) and case_id not in out:
            out.append(case_id)
    return out


def compare(findings: list[Finding], fixed: list[str], run: Callable[[Case], Verdict]) -> dict[str, Any]:
    """{"fixed": {id: status}, "matches": [[ids] per finding], "missed": [ids]}; `run` judges a case."""
    outcomes: dict[str, Verdict] = {}
    for case_id in fixed:
        try:
            outcomes[case_id] = run(catalog.find(case_id))
        except catalog.NoSuchCase:
            continue
    matches = []
    for finding in findings:
        key = reduction_key(finding.reduced_outcome)
        matches.append([case_id for case_id, outcome in outcomes.items() if same_failure(key, outcome)])
    claimed = {case_id for found in matches for case_id in found}
    return {"fixed": {case_id: o.status.value for case_id, o in outcomes.items()}, "matches": matches,
            "missed": [case_id for case_id, o in outcomes.items() if o.status.is_failure() and case_id not in claimed]}
