"""A case's outcome and its record: the one type of "how did this case end", and the one reader
and writer of a finished case's record (the journal, results.json, resume, merge, compare, the
report and the release matrix all read and write Records through `to_json` / `from_json`).

An Outcome is a Status (what the case did, after flake re-runs: harness/model/status.py) and how
the run's baseline judged it (Judged). Everything else the harness shows of an outcome is derived
here, in one place:

    status   judged                   label                   report    results.csv (deqp-runner)
    pass     as-is                    pass                    passed    Pass
    skip     as-is                    skip                    skipped   Skip
    flake    as-is                    flake                   skipped   Flake
    order-d. as-is                    order-dependent         skipped   Flake
    fail     as-is                    fail                    failed    Fail  (Crash, Timeout alike)
    error    as-is                    error                   failed    Fail  (deqp-runner's InternalError)
    fail     expected fail            expected fail           skipped   ExpectedFail
    pass     unexpected pass          unexpected pass         failed    UnexpectedImprovement(Pass)
    fail     unexpected improvement   unexpected improvement  failed    UnexpectedImprovement(Fail)

A flake is a status, not a judgement: a failure that passed on a re-run, or that a flakes file
lists, is `flake` with or without a baseline line (its message says which), and compare orders it
among the statuses (harness/model/status.py's Change).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any, Collection

from harness.model import ids
from harness.model.status import BASELINE_NAMES, Status
from harness.base.errors import UsageError


class Judged(enum.StrEnum):
    """How the baseline judged a status. Its value is the label the terminal and results.json use."""
    AS_IS = "as-is"                                    # no baseline line, or one the status does not answer
    EXPECTED_FAIL = "expected fail"                    # fails as its baseline line says: does not fail the run
    UNEXPECTED_PASS = "unexpected pass"                # the baseline lists it and it passes: update the baseline
    UNEXPECTED_IMPROVEMENT = "unexpected improvement"  # fails less badly than listed (fail where it lists Crash)


_LABELS = {judged.value for judged in Judged}


class Report(enum.StrEnum):
    """How pytest, and so JUnit, records an outcome."""
    PASSED = "passed"
    SKIPPED = "skipped"
    FAILED = "failed"


# deqp-runner's spelling of each status in results.csv (a harness error is its InternalError: Fail;
# it has no order-dependent, which like a flake is worth seeing and no failure).
DEQP_NAMES = {Status.PASS: "Pass", Status.SKIP: "Skip", Status.FLAKE: "Flake", Status.ORDER_DEPENDENT: "Flake",
              Status.FAIL: "Fail", Status.CRASH: "Crash", Status.TIMEOUT: "Timeout", Status.ERROR: "Fail"}
EXPECTED_ANY = "ExpectedFail"           # a baseline (results.csv) name that expects any driver failure


def expected_statuses(name: str) -> frozenset[Status]:
    """The statuses a baseline line's status name expects: `Fail`, `Crash`, `Timeout` that one,
    `ExpectedFail` any failure the driver is blamed for, anything else none."""
    if name in BASELINE_NAMES:
        return frozenset({Status.from_baseline(name)})
    if name == EXPECTED_ANY:
        return frozenset(s for s in Status if s.blames_driver())
    return frozenset()


@dataclass(frozen=True)
class Outcome:
    status: Status
    judged: Judged = Judged.AS_IS

    def __post_init__(self) -> None:
        allowed = {Judged.AS_IS: True, Judged.EXPECTED_FAIL: self.status.is_failure(),
                   Judged.UNEXPECTED_PASS: self.status is Status.PASS,
                   Judged.UNEXPECTED_IMPROVEMENT: self.status.blames_driver()}
        if not allowed[self.judged]:
            raise ValueError(f"a {self.status} cannot be judged {self.judged!r}")

    @classmethod
    def judge(cls, status: Status, expected: Collection[Status] | None = None) -> "Outcome":
        """The status judged against the failing statuses its baseline line expects (None or
        empty: no line). The run policy's judgement (harness/run/policy.py), and how a results
        file without labels is read back."""
        if expected:
            if status in expected:
                return cls(status, Judged.EXPECTED_FAIL)
            if status is Status.PASS:
                return cls(status, Judged.UNEXPECTED_PASS)
            if status.blames_driver() and all(status < listed for listed in expected):
                return cls(status, Judged.UNEXPECTED_IMPROVEMENT)
        return cls(status)

    @classmethod
    def from_label(cls, status: Status, label: str | None) -> "Outcome":
        """The outcome a results file writes as its status and label (a status's own name, or a
        Judged value)."""
        judged = Judged(label) if label in _LABELS else Judged.AS_IS     # else a status's own name
        return cls(status, judged)

    @property
    def label(self) -> str:
        """What the terminal, results.json and `harness parallel`'s summary call it."""
        return self.status.value if self.judged is Judged.AS_IS else self.judged.value

    @property
    def report(self) -> Report:
        """pytest's (and so JUnit's) word: an expected failure, a flake and a skip are skipped."""
        if self.judged is Judged.EXPECTED_FAIL:
            return Report.SKIPPED
        if self.judged is not Judged.AS_IS or self.status.is_failure():
            return Report.FAILED
        return Report.PASSED if self.status is Status.PASS else Report.SKIPPED

    @property
    def failed(self) -> bool:
        """Fails the run."""
        return self.report is Report.FAILED

    @property
    def deqp(self) -> str:
        """Its spelling in deqp-runner's results.csv (a --baseline as it is)."""
        if self.judged is Judged.EXPECTED_FAIL:
            return EXPECTED_ANY
        if self.judged is not Judged.AS_IS:
            return f"UnexpectedImprovement({DEQP_NAMES[self.status]})"
        return DEQP_NAMES[self.status]


class RecordError(UsageError, ValueError):
    """A results record that is not one: what is wrong with it."""


@dataclass(frozen=True)
class Record:
    """One case on one target, finished: a line of the run's journal, an entry of results.json."""
    id: str
    target: str
    outcome: Outcome
    message: str = ""                # the skip reason or failure text
    expected: str = ""               # the baseline's status for it (Fail, Crash, Timeout, ExpectedFail) or ''
    duration: float = 0.0            # seconds the case ran in the child
    renderer: str = ""
    gl_version: str = ""
    mesa: str = ""
    platform: str = ""
    reproducer: str = ""             # a failure's exported GLSL reproducer, if one was written
    finished: float | None = None    # when it landed, seconds into the run (None: not recorded)

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def key(self) -> str:
        """`<case id>[<target>]`."""
        return ids.key(self.id, self.target)

    def to_json(self) -> dict[str, Any]:
        """The record as results.json and the journal write it; the outcome as `status`, `label`
        and `report` (the last two derived, written for the tools that read them)."""
        data: dict[str, Any] = {"id": self.id, "target": self.target, "status": self.status.value,
                                "label": self.outcome.label, "report": self.outcome.report.value}
        for name in _FIELDS:
            data[name] = getattr(self, name)
        if self.finished is not None:
            data["finished"] = self.finished
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Record":
        """A record from results.json or a journal line, of this version or an earlier one: `label`
        and `report` may be missing (then the outcome is judged from `status` and `expected`);
        other keys are ignored. RecordError says what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("is not an object")
        for name in ("id", "target", "status"):
            if not isinstance(data.get(name), str) or not data[name]:
                raise RecordError(f"has no {name!r} string")
        try:
            status = Status.parse(data["status"])
        except ValueError as exc:
            raise RecordError(f"has an {exc}") from None
        expected = _text(data, "expected")
        try:
            outcome = Outcome.from_label(status, data["label"]) if data.get("label") \
                else Outcome.judge(status, expected_statuses(expected))
        except ValueError as exc:
            raise RecordError(f"has label {data['label']!r}: {exc}") from None
        duration, finished = data.get("duration", 0.0), data.get("finished")
        if isinstance(duration, bool) or not isinstance(duration, (int, float)):
            raise RecordError(f"has duration {duration!r}, not a number")
        if finished is not None and (isinstance(finished, bool) or not isinstance(finished, (int, float))):
            raise RecordError(f"has finished {finished!r}, not a number")
        return cls(data["id"], data["target"], outcome, duration=duration, finished=finished,
                   **{name: _text(data, name) for name in _FIELDS if name != "duration"})


# The fields after the outcome, in the order results.json writes them.
_FIELDS = ("message", "expected", "duration", "renderer", "gl_version", "mesa", "platform", "reproducer")
assert set(_FIELDS) | {"id", "target", "outcome", "finished"} == {f.name for f in fields(Record)}


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RecordError(f"has {name} {value!r:.80}, not a string")
    return value


# The failures that say more than "failed", in the order a run's summary names them.
FAILURE_KINDS = (Status.CRASH.value, Status.TIMEOUT.value, Status.ERROR.value, Judged.UNEXPECTED_PASS.value,
                 Judged.UNEXPECTED_IMPROVEMENT.value)


def summary(outcomes: Collection["Outcome"]) -> tuple[str, str]:
    """A run's outcomes in pytest's words ('1 failed, 2 passed, 1 expected fail'), and the kinds of
    its failures that say more than "failed" ('2 crash, 1 timeout'; '' if none)."""
    words: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for outcome in outcomes:
        report = outcome.report.value
        word = report if report != Report.SKIPPED or outcome.label == Status.SKIP.value else outcome.label
        words[word] = words.get(word, 0) + 1
        if report == Report.FAILED and outcome.label in FAILURE_KINDS:
            kinds[outcome.label] = kinds.get(outcome.label, 0) + 1
    order = [Report.FAILED.value, Report.PASSED.value, Report.SKIPPED.value]
    ordered = [w for w in order if w in words] + sorted(w for w in words if w not in order)
    return (", ".join(f"{words[w]} {w}" for w in ordered),
            ", ".join(f"{kinds[k]} {k}" for k in FAILURE_KINDS if k in kinds))
