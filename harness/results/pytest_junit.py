"""The harness's own self-tests as results: pytest's JUnit (`bin/selftest` writes
results/selftest-junit.xml) read as records of cases `selftest/<module>/<test>[/<parameters>]` on
the target `selftest`, so that the results history rates the harness's own flaky tests as it
rates a driver's (`history ingest --selftest`, `history flakes`).

A pytest node id is not a case id (`::`, brackets, spaces, any character a parameter holds): each
`/`-separated part keeps the characters a case id allows and writes `_` for the others; two tests
that come out the same get `.2`, `.3`... in the order the file lists them, which pytest keeps.
"""
from __future__ import annotations

import re
from pathlib import Path

from harness.model.outcome import Outcome, Record
from harness.model.status import Status
from harness.results import files

TARGET = "selftest"
FAMILY = "selftest"
_PREFIX = "tests.selftest."
_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9_.+-]")


def _part(text: str) -> str:
    part = _NOT_ALLOWED.sub("_", text)
    return part if part[:1].isalnum() else f"p{part}"


def case_id(classname: str, name: str) -> str:
    """The case id of a pytest JUnit test case: its module (less `tests.selftest.`), class, test
    function and parameters, as parts of a path."""
    module = classname[len(_PREFIX):] if classname.startswith(_PREFIX) else classname
    function, bracket, parameters = name.partition("[")
    parts = [*module.split("."), function]
    if bracket:
        parts += parameters[:-1].split("/") if parameters.endswith("]") else parameters.split("/")
    return "/".join([FAMILY, *(_part(p) for p in parts if p)])


def read(path: Path) -> list[Record]:
    """The records of pytest's JUnit file `path`: failure fail, error error, skipped skip, else
    pass; refused in one line if it is not JUnit or declares entities."""
    from junitparser import Error, Failure, Skipped
    xml = files.parse_junit(path)
    records: list[Record] = []
    seen: dict[str, int] = {}
    for suite in xml:
        for case in suite:
            if not case.name:
                continue
            kinds = {type(r) for r in case.result}
            status = (Status.FAIL if Failure in kinds else Status.ERROR if Error in kinds
                      else Status.SKIP if Skipped in kinds else Status.PASS)
            base = case_id(case.classname or "", case.name)
            seen[base] = seen.get(base, 0) + 1
            name = base if seen[base] == 1 else f"{base}.{seen[base]}"
            texts = (f"{r.message or ''}\n{r.text or ''}".strip() for r in case.result)
            message = "\n".join(t for t in texts if t)
            records.append(Record(name, TARGET, Outcome.judge(status, ()), duration=float(case.time or 0),
                                  message=f"{case.classname}::{case.name}" + (f"\n{message}" if message else "")))
    return records


def started(path: Path) -> str:
    """When the self-tests ran: the first suite's timestamp (pytest writes it, with its zone)."""
    for suite in files.parse_junit(path):
        if suite.timestamp:
            return str(suite.timestamp)
    return ""
