"""The one vocabulary of outcomes: what the executor's child answered (Reply), the verdict on a
case (Status), and how a verdict changed between two runs (Change).

Status is ordered by severity, best first, the way piglit's framework/status.py orders its
statuses (a regression is a rise in severity to a failure):

    pass < skip < flake < order-dependent < fail < timeout < crash < error

- skip says nothing about the driver; it sits above pass only so "worst first" lists show it
  before passes. A change to or from skip is never a fix: fail -> skip is a new skip, and
  skip -> fail is a regression (the case did not fail before).
- flake failed and then passed on a re-run (or is listed as flaky): worth seeing, not a failure.
- order-dependent failed (or passed) only after other cases in one context, batched
  (harness/executor/batch.py), and gave the other verdict alone: state one case left reached another.
  Like a flake, it is worth seeing and never the case's own failure.
- fail < timeout < crash: a wrong value still let the case finish; a hang or a dead child did not.
- error is the harness's fault (no verdict on the driver at all), like piglit's "incomplete": it
  fails the run and is the worst, so that a change to it is never shown as an improvement.
  `python -m harness bisect-run` counts it as untestable (exit 125), not as a bad commit: a
  harness fault says nothing about whether the driver commit is good.

Statuses are str enums: they are written to JSON, CSV and JUnit as their plain names.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Literal

from harness.model.facts import Facts, Known
from harness.model.observation import Observation, Pack, Unpack


class Status(enum.StrEnum):
    PASS = "pass"
    SKIP = "skip"
    FLAKE = "flake"
    ORDER_DEPENDENT = "order-dependent"
    FAIL = "fail"
    TIMEOUT = "timeout"
    CRASH = "crash"
    ERROR = "error"

    @classmethod
    def parse(cls, text: str) -> "Status":
        """The status of a name in a results file; ValueError names the bad one."""
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"unknown status {text!r} (one of {', '.join(cls)})") from None

    @classmethod
    def from_baseline(cls, name: str) -> "Status":
        """The status a baseline line names (`Fail`, `Crash`, `Timeout`); ValueError otherwise."""
        for status in cls:
            if status.baseline_name == name:
                return status
        raise ValueError(f"unknown baseline status {name!r} (one of {', '.join(BASELINE_NAMES)})")

    @property
    def severity(self) -> int:
        return _ORDER.index(self)

    def is_failure(self) -> bool:
        """Fails the run (unless a baseline expects it); such a verdict is re-run for flakes."""
        return self in (Status.FAIL, Status.TIMEOUT, Status.CRASH, Status.ERROR)

    def blames_driver(self) -> bool:
        """A failure the driver is answerable for: what a baseline may list and bisect calls bad."""
        return self.baseline_name is not None

    @property
    def baseline_name(self) -> str | None:
        """The name Mesa CI's baseline files use for this status; None: a baseline cannot list it."""
        return _BASELINE.get(self)

    # Ordered by severity, not by name (str's own comparison would order them alphabetically).
    def __lt__(self, other: object) -> bool:
        return self.severity < other.severity if isinstance(other, Status) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self.severity <= other.severity if isinstance(other, Status) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.severity > other.severity if isinstance(other, Status) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self.severity >= other.severity if isinstance(other, Status) else NotImplemented

    def __hash__(self) -> int:
        return str.__hash__(self)


_ORDER = tuple(Status)                      # the declaration order above is the severity order
_BASELINE = {Status.FAIL: "Fail", Status.CRASH: "Crash", Status.TIMEOUT: "Timeout"}
BASELINE_NAMES = tuple(_BASELINE.values())


# How a verdict is shown: its status, or `known` for a failure the baseline expects
# (Judged.EXPECTED_FAIL), shown apart so that a gated run's expected failures and its new ones differ.
KNOWN: Literal["known"] = "known"
Shown = Status | Literal["known"]


@dataclass(frozen=True)
class Look:
    """How a status (or KNOWN) looks: its letter in a terminal (`harness history case`'s strip,
    pytest's progress line) and its colour on the HTML pages (the report's and the dashboard's
    CSS class st-<name>, harness/report/templates/style.css)."""
    glyph: str
    colour: str                     # the background
    ink: str = ""                   # the text's colour, where not the page's


LOOKS: dict[Shown, Look] = {
    Status.PASS: Look(".", "#c9f0c9"), Status.SKIP: Look("s", "#e4e4e4"), Status.FLAKE: Look("f", "#fbeea0"),
    Status.ORDER_DEPENDENT: Look("o", "#bfe3f5"), KNOWN: Look("x", "#c9d4f7"),   # a baselined failure: blue-grey, not red
    Status.FAIL: Look("F", "#f7b3b3"), Status.TIMEOUT: Look("T", "#f9d29c"), Status.CRASH: Look("C", "#d6b3f7"),
    Status.ERROR: Look("E", "#f08080", "#fff")}


class Reply(enum.StrEnum):
    """What the executor got for one request, before any verdict: `ok` carries an observation
    to judge; the others are verdicts already (see `status`)."""
    OK = "ok"
    SKIP = "skip"
    FAIL = "fail"
    ERROR = "error"
    CRASH = "crash"
    TIMEOUT = "timeout"

    @classmethod
    def parse(cls, text: object) -> "Reply":
        """A child's reply status; anything unknown is the harness's error."""
        try:
            return cls(text) if isinstance(text, str) else cls.ERROR
        except ValueError:
            return cls.ERROR

    @property
    def status(self) -> Status | None:
        """The verdict this reply is by itself; None for `ok` (the observation decides)."""
        return None if self is Reply.OK else Status(self.value)


class Change(enum.Enum):
    """How one case's status changed from an old run to a new one."""
    REGRESSION = "regressions"            # now fails, and did not before or failed less badly
    IMPROVEMENT = "improvements"          # still fails, less badly (crash -> fail)
    FIX = "fixes"                         # failed, now passes (or only flakes)
    STILL_FAILING = "still failing"       # the same failure
    NEW_SKIP = "new skips"                # skipped now, not before (fail -> skip is not a fix)
    UNSKIPPED = "no longer skipped"       # skipped before, passes or flakes now
    NEW_FLAKE = "new flakes"              # passed before, flaked now
    UNCHANGED = "unchanged"               # the same, or pass <-> flake the other way

    @classmethod
    def of(cls, old: Status, new: Status) -> "Change":
        if new.is_failure():
            if not old.is_failure() or new > old:
                return cls.REGRESSION
            return cls.STILL_FAILING if new == old else cls.IMPROVEMENT
        if new is Status.SKIP:
            return cls.UNCHANGED if old is Status.SKIP else cls.NEW_SKIP
        if old.is_failure():
            return cls.FIX
        if old is Status.SKIP:
            return cls.UNSKIPPED
        return cls.NEW_FLAKE if old is Status.PASS and new in (Status.FLAKE, Status.ORDER_DEPENDENT) else cls.UNCHANGED


class RateKind(enum.StrEnum):
    """How a case's failures lie over the runs of a window, oldest first (harness/history/queries.py's
    Rate.kind): what a baseline or flakes line for it should say."""
    FLAKY = "flaky"                 # failures and passes interleaved
    REGRESSED = "regressed"         # one streak of failures to the end: a regression, not a flake
    FIXED = "fixed"                 # one streak of failures from the start, then clean
    FAILING = "failing"             # failed in every run
    PASSING = "passing"             # failed in none


FAILING_KINDS = (RateKind.FLAKY, RateKind.REGRESSED, RateKind.FIXED, RateKind.FAILING)      # a failing series'


@dataclass(frozen=True)
class Result:
    """What the executor got for one request: the child's reply, or the executor's own verdict on
    a child that gave none (a hang, a death, a garbled reply). A Reply, the message, the observation
    (for a run that drew), how long the request ran in the child, and for a first request (`info`
    or `adopt`): the target's facts (`info`) and what a replacement child adopts (`known`).

    Its JSON form, the reply on the child's pipe (harness/executor/protocol.py): {"status": name,
    "message": text, "observation": Observation's form, "duration": seconds, "info": Facts' form,
    "known": Known's form, "batch": [case id, ...]}, each key but "status" only where it says
    something (a message not '', a duration not 0, ...). "batch" never crosses the pipe: the
    executor adds it (harness/executor/batch.py)."""
    status: Reply
    message: str = ""
    observation: Observation | None = None
    duration: float = 0.0                   # 0: not measured (a reply without a "duration")
    batch: tuple[str, ...] | None = None    # batched: the cases run before it in its context; None: alone
    info: Facts | None = None               # an `info` reply: renderer, versions, limits
    known: Known | None = None              # an `info` reply: the facts a replacement child adopts

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Reply.parse(self.status))    # a plain name becomes its Reply
        if isinstance(self.observation, dict):          # an observation's JSON becomes its Observation
            object.__setattr__(self, "observation", Observation.from_json(self.observation))

    def to_json(self, pack: Pack | None = None) -> dict[str, Any]:
        """The result's JSON object; an observation's bytes as `pack` makes them (base64 if None)."""
        out: dict[str, Any] = {"status": self.status.value}
        if self.message:
            out["message"] = self.message
        if self.observation is not None:
            out["observation"] = self.observation.to_json(pack)
        if self.duration:
            out["duration"] = self.duration
        if self.info is not None:
            out["info"] = self.info.to_json()
        if self.known is not None:
            out["known"] = self.known.to_json()
        if self.batch is not None:
            out["batch"] = list(self.batch)
        return out

    @classmethod
    def from_json(cls, data: Any, unpack: Unpack | None = None, duration: float = 0.0) -> "Result":
        """The result of its JSON object (a reply's bytes taken by `unpack`, base64 if None);
        `duration`: its duration where it names none. An unknown status is the harness's error;
        TypeError, ValueError or KeyError where the object is not a result."""
        if not isinstance(data, dict):
            raise TypeError(f"a reply of type {type(data).__name__}")
        message = data.get("message", "")
        if not isinstance(message, str):
            raise TypeError(f"a message of type {type(message).__name__}")
        took = data.get("duration", duration)
        if isinstance(took, bool) or not isinstance(took, (int, float)):
            raise TypeError(f"a duration of type {type(took).__name__}")
        observation, info, known, batch = (data.get(key) for key in ("observation", "info", "known", "batch"))
        return cls(Reply.parse(data.get("status")), message,
                   None if observation is None else Observation.from_json(observation, unpack), took,
                   None if batch is None else tuple(str(case_id) for case_id in batch),
                   None if info is None else Facts.from_json(info), None if known is None else Known.from_json(known))


@dataclass(frozen=True)
class Verdict:
    """A case's result judged against its expectations (harness/oracle/verdict.py)."""
    status: Status
    message: str = ""
