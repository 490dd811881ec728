"""The pytest side of a case: its collector, its item and the executor children of one pytest
process. An item runs its case through the run core (harness/run/core.py), appends the record to
this process's journal, and reports it to pytest (pass, skip, failure) for the terminal.

One canonical id per case: the pytest item is named `<case id>[<target>]`, so `-k` filters on
case ids, and JUnit, results.json and the terminal all show the same string.
"""
from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterator

import pytest

from harness.executor import targets as targets_mod
from harness.sources import catalog
from harness.run import core
from harness.model import ids
from harness.backends.vk import paths
from harness.model.case import Case, CaseError
from harness.model.outcome import Record, Report
from harness.base.errors import CaseOutcome
from harness.pytest_adapter import state as state_mod

if TYPE_CHECKING:             # pytest's types of repr_failure, not exported by pytest
    from _pytest._code.code import TerminalRepr, TracebackStyle

OUTCOME = pytest.StashKey[str]()            # a case item's outcome label (Outcome.label), on the item


class CaseFile(pytest.File):
    def collect(self) -> Iterator[CaseItem]:
        try:
            cases = catalog.generate(self.path)
            bad = next((c for c in cases if not isinstance(c, Case)), None)
            if bad is not None:
                raise CaseError(f"generate() returned {type(bad).__name__} {bad!r:.80}, not a Case")
        except Exception as exc:   # a broken case file is one clear line, not a traceback
            raise self.CollectError(f"{self.path}: malformed case file: {type(exc).__name__}: {exc}") from None
        for case in cases:
            yield from case_items(self, case)


def case_items(parent: pytest.Collector, case: Case) -> Iterator[CaseItem]:
    """One item per selected target, named `<case id>[<target>]`: every collector of cases
    (families' cases.py, piglit .shader_test files) makes them here."""
    for target in state_mod.of(parent.config).targets:
        if targets_mod.get(target).path_dependent_only and not paths.depends_on_path(case):
            continue
        item = CaseItem.from_parent(parent, name=ids.key(case.id, target), case=case, target=target)
        item.add_marker(case.family)
        item.add_marker("conformance")
        yield item


class CaseFailure(CaseOutcome):
    pass


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, target: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.target = target
        self.user_properties += [("case_id", case.id), ("target", target)]

    def runtest(self) -> None:
        """Run the case (queued by pytest_runtest_protocol) through the run core, keep its
        record, and report it as its outcome says (harness/model/outcome.py)."""
        config = self.config
        state = state_mod.of(config)
        record = core.run_case(self.case, self.target, state.pipeline.get(self.target), state.rules)
        if state.journal is not None:
            state.journal.append(journal_entry(config, record))
        self.stash[OUTCOME] = record.outcome.label
        # Plain strings: xdist sends the properties to the controller as they are.
        self.user_properties += [("status", record.status.value), ("renderer", record.renderer),
                                 ("mesa", record.mesa), ("case_duration", f"{record.duration:.4f}")]
        if record.expected:
            self.user_properties.append(("expected", record.expected))
        if record.reproducer:
            self.add_report_section("call", "stdout", f"[[ATTACHMENT|{record.reproducer}]]")
        if record.outcome.report is Report.SKIPPED:        # JUnit: skipped, with the reason
            pytest.skip(record.message)
        if record.outcome.report is Report.FAILED:
            raise CaseFailure(record.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.case.id} on {self.target}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[os.PathLike[str] | str, int | None, str]:
        return self.path, 0, f"{self.case.id}[{self.target}]"      # skip reports need a line


def journal_entry(config: pytest.Config, record: Record) -> Record:
    """The record, with when it finished: seconds into the run (start-up, rate)."""
    return replace(record, finished=round(time.time() - (state_mod.of(config).started or 0.0), 3))


def same_target(item: CaseItem, other: pytest.Item | None) -> bool:
    return isinstance(other, CaseItem) and other.target == item.target
