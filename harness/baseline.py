"""Expected failures, in Mesa CI's baseline format: `case-id,Status` lines, `#` comments.

A line names a case on every target (`tess/no-tcs/...`) or on one (`tess/no-tcs/...[zink]`).
Status is Fail, Crash or Timeout. A case whose verdict matches its line is an expected failure;
one that passes is an unexpected pass, which fails the run so that the baseline gets updated.
"""
from __future__ import annotations

import re
from pathlib import Path

STATUS_NAMES = {"fail": "Fail", "crash": "Crash", "timeout": "Timeout"}


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


def load(paths) -> dict[str, str]:
    expected = {}
    for path, number, line in _lines(paths, "baseline ", trailing_comments=True):
        key, sep, status = (part.strip() for part in line.rpartition(","))
        if not sep or not key or status not in STATUS_NAMES.values():
            raise BaselineError(f"{path}:{number}: expected 'case-id,Fail|Crash|Timeout', got {line!r}")
        expected[key] = status
    return expected


def lookup(expected: dict[str, str], case_id: str, target: str) -> str | None:
    return expected.get(f"{case_id}[{target}]") or expected.get(case_id)


def failure_line(case_id: str, target: str, status: str) -> str | None:
    """The baseline line for a verdict, or None where the status is not a failure."""
    name = STATUS_NAMES.get(status)
    return f"{case_id}[{target}],{name}" if name else None


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
    name = f"{case_id}[{target}]"
    return next((where for regex, where in patterns if regex.search(name)), None)
