"""Expected failures, in Mesa CI's baseline format: `case-id,Status` lines, `#` comments.

A line names a case on every target (`tess/no-tcs/...`) or on one (`tess/no-tcs/...[zink]`).
Status is Fail, Crash or Timeout. A case whose verdict matches its line is an expected failure;
one that passes is an unexpected pass, which fails the run so that the baseline gets updated.
As deqp-runner, a run's results.csv is a baseline as it is: `case-id,Status,duration` lines in
deqp-runner's spelling, where Pass, Skip, Flake (and the like) expect nothing, ExpectedFail
expects a failure of any kind, and UnexpectedImprovement(S) expects S. Baselines are strict: a
case listed twice, in one file or across files, is an error naming both lines.

Skips files hold one regex a line; flakes files one regex and the statuses it forgives (see
load_flakes), both matched against `case-id[target]`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path

from harness.model import ids
from harness.run.policy import Expectation
from harness.model.status import BASELINE_NAMES, Status
from harness.base.errors import UsageError


class BaselineError(UsageError, ValueError):
    pass


Paths = Iterable["str | PathLike[str]"]
Flake = tuple[re.Pattern[str], frozenset[Status], str]      # (regex, statuses it forgives, where written)


def _lines(paths: Paths, what: str, trailing_comments: bool) -> Iterator[tuple[str | PathLike[str], int, str]]:
    """(path, line number, line) of every non-blank, non-comment line of the files. Regex
    files keep a '#' inside a line (it may be part of the pattern)."""
    for path in paths:
        try:
            lines = Path(path).read_text().splitlines()
        except OSError as exc:
            raise BaselineError(f"cannot read {what}{path}: {exc.strerror}") from None
        for number, line in enumerate(lines, 1):
            line = (line.split("#", 1)[0] if trailing_comments else line).strip()
            if line and not line.startswith("#"):
                yield path, number, line


NOTHING_EXPECTED = ("Pass", "Skip", "Flake", "KnownFlake", "Warn")      # results.csv statuses
ANY_FAILURE = "ExpectedFail"
_IMPROVED = re.compile(r"UnexpectedImprovement\((\w+)\)")
_FORMAT = f"'case-id,{'|'.join(BASELINE_NAMES)}' (or a results.csv line: 'case-id,Status,duration')"


def _expectation(name: str, where: str) -> Expectation | None | str:
    """What a status as written expects: an Expectation, None (nothing), or '' (no such status)."""
    improved = _IMPROVED.fullmatch(name)
    name = improved.group(1) if improved else name
    if name in BASELINE_NAMES:
        return Expectation.of(Status.from_baseline(name), where)
    if name == ANY_FAILURE and not improved:
        return Expectation(frozenset(s for s in Status if s.blames_driver()), name, where)
    return None if name in NOTHING_EXPECTED else ""


def _fields(line: str) -> tuple[str, str]:
    """(key, status) of 'key,Status' or 'key,Status,duration' (case ids may hold commas)."""
    head, sep, last = line.rpartition(",")
    try:
        float(last)
        head, sep, last = head.rpartition(",")
    except ValueError:
        pass
    return (head.strip(), last.strip()) if sep else ("", "")


def load(paths: Paths) -> dict[str, Expectation]:
    expected: dict[str, Expectation] = {}
    listed: dict[str, str] = {}
    for path, number, line in _lines(paths, "baseline ", trailing_comments=True):
        where = f"{path}:{number}"
        key, name = _fields(line)
        expectation = _expectation(name, where) if key else ""
        if isinstance(expectation, str):
            raise BaselineError(f"{where}: expected {_FORMAT}, got {line!r}")
        if key in listed:
            raise BaselineError(f"{key} is listed twice: {listed[key]} and {where} (a baseline lists a case once)")
        listed[key] = where
        if expectation is not None:
            expected[key] = expectation
    return expected


def lookup(expected: dict[str, Expectation], case_id: str, target: str) -> Expectation | None:
    return expected.get(ids.key(case_id, target)) or expected.get(case_id)


def failure_line(case_id: str, target: str, status: Status) -> str | None:
    """The baseline line for a verdict, or None where a baseline cannot list the status."""
    name = Status.parse(status).baseline_name
    return f"{ids.key(case_id, target)},{name}" if name else None


def _compile(regex: str, where: str) -> re.Pattern[str]:
    try:
        return re.compile(regex)
    except re.error as exc:
        raise BaselineError(f"{where}: bad regular expression {regex!r}: {exc}") from None


def load_patterns(paths: Paths) -> list[tuple[re.Pattern[str], str]]:
    """Skips files: one regex a line (matched against `case-id[target]`), `#` comments."""
    return [(_compile(line, f"{path}:{number}"), f"{path}:{number}")
            for path, number, line in _lines(paths, "", trailing_comments=False)]


FLAKE_STATUSES = (Status.FAIL, Status.CRASH, Status.TIMEOUT)   # what a flakes entry may forgive
_FLAKE_FORMAT = "'REGEX STATUS[,STATUS...]  # evidence', STATUS one of " + ", ".join(FLAKE_STATUSES)


def load_flakes(paths: Paths) -> list[Flake]:
    """Flakes files: `REGEX STATUS[,STATUS...]  # evidence` lines, `#` comment lines. REGEX (no
    whitespace in it) is matched against `case-id[target]`; the statuses (fail, crash, timeout,
    comma-separated, no spaces) are the only ones the entry forgives; the comment after them gives
    the measured rate. An entry naming no status (the old format, which forgave any) is an error."""
    flakes: list[Flake] = []
    for path, number, line in _lines(paths, "flakes file ", trailing_comments=False):
        where = f"{path}:{number}"
        fields = line.split(None, 2)
        regex = _compile(fields[0], where)
        if len(fields) < 2 or fields[1].startswith("#"):
            raise BaselineError(f"{where}: flakes entry names no status it forgives: expected {_FLAKE_FORMAT}; "
                                f"got {line!r}")
        if len(fields) == 3 and not fields[2].startswith("#"):
            raise BaselineError(f"{where}: expected {_FLAKE_FORMAT} (no spaces in REGEX or between "
                                f"statuses); got {line!r}")
        names = fields[1].split(",")
        bad = next((name for name in names if name not in FLAKE_STATUSES), None)
        if bad is not None:
            raise BaselineError(f"{where}: {bad!r} is no status a flakes entry forgives: expected "
                                f"{_FLAKE_FORMAT}; got {line!r}")
        flakes.append((regex, frozenset(Status(name) for name in names), where))
    return flakes


def matching_flakes(flakes: Iterable[Flake], case_id: str, target: str) -> list[tuple[str, frozenset[Status]]]:
    """(where, statuses) of every flakes entry whose regex matches this case on this target."""
    name = ids.key(case_id, target)
    return [(where, statuses) for regex, statuses, where in flakes if regex.search(name)]


def first_match(patterns: Iterable[tuple[re.Pattern[str], str]], case_id: str, target: str) -> str | None:
    """Where the first pattern matching this case on this target was written, or None."""
    name = ids.key(case_id, target)
    return next((where for regex, where in patterns if regex.search(name)), None)
