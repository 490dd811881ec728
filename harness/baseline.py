"""Expected failures, in Mesa CI's baseline format: `case-id,Status` lines, `#` comments.

A line names a case on every target (`tess/no-tcs/...`) or on one (`tess/no-tcs/...[zink]`).
Status is Fail, Crash or Timeout. A case whose verdict matches its line is an expected failure;
one that passes is an unexpected pass, which fails the run so that the baseline gets updated.
"""
from __future__ import annotations

import re
from pathlib import Path

from harness import ids
from harness.status import BASELINE_NAMES, Status


class BaselineError(ValueError):
    pass


def _lines(paths, what: str, trailing_comments: bool):
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


def load(paths) -> dict[str, Status]:
    expected = {}
    for path, number, line in _lines(paths, "baseline ", trailing_comments=True):
        key, sep, name = (part.strip() for part in line.rpartition(","))
        if not sep or not key or name not in BASELINE_NAMES:
            raise BaselineError(f"{path}:{number}: expected 'case-id,{'|'.join(BASELINE_NAMES)}', got {line!r}")
        expected[key] = Status.from_baseline(name)
    return expected


def lookup(expected: dict[str, Status], case_id: str, target: str) -> Status | None:
    return expected.get(ids.key(case_id, target)) or expected.get(case_id)


def failure_line(case_id: str, target: str, status: Status) -> str | None:
    """The baseline line for a verdict, or None where a baseline cannot list the status."""
    name = Status.parse(status).baseline_name
    return f"{ids.key(case_id, target)},{name}" if name else None


def load_patterns(paths) -> list[tuple[re.Pattern, str]]:
    """Skips/flakes files: one regex a line (matched against `case-id[target]`), `#` comments."""
    patterns = []
    for path, number, line in _lines(paths, "", trailing_comments=False):
        try:
            patterns.append((re.compile(line), f"{path}:{number}"))
        except re.error as exc:
            raise BaselineError(f"{path}:{number}: bad regular expression {line!r}: {exc}") from None
    return patterns


def first_match(patterns, case_id: str, target: str) -> str | None:
    """Where the first pattern matching this case on this target was written, or None."""
    name = ids.key(case_id, target)
    return next((where for regex, where in patterns if regex.search(name)), None)
