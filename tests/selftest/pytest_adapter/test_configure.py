"""Configuring a pytest run (harness/pytest_adapter/configure.py) and its files
(harness/pytest_adapter/results.py): bad input is one HarnessUsageError, and a report no item
recorded becomes its record."""
from __future__ import annotations

import os
from dataclasses import replace
from types import SimpleNamespace

import pytest
from conftest import pinned_mesa

from harness.base import options
from harness.model.status import Status
from harness.pytest_adapter import configure, results
from harness.pytest_adapter.state import PluginState
from harness.run import core
from harness.scheduler.pipeline import Pipeline
from harness.sources import catalog


class Config:
    """pytest's config as the configuration reads it: options by field."""

    def __init__(self, **given):
        self.given = {name: option.default if option.action != "store_true" else False
                      for name, option in options.OPTIONS.items()} | given

    def getoption(self, name, default=None):
        return self.given.get(name, default)


def test_the_settings_are_the_resolved_options():
    settings = configure.settings(Config(case_timeout=3.0, vk_without="draw-id", mesa=None), children=2)
    assert (settings.case_timeout, settings.vk_without, settings.children) == (3.0, ("draw-id",), 2)


def test_the_first_targets_probe_is_the_runs_first_child():
    """Probing a run's targets starts the first one's child in the run's own pipeline, where its
    cases then run (no child started only to be probed and ended); the others' probes end theirs."""
    config = Config(target=["llvmpipe", "lavapipe"])
    config.option = SimpleNamespace(numprocesses=None)
    state = PluginState()
    state.settings = replace(configure.settings(config, children=1), mesa=pinned_mesa())
    state.pool = Pipeline(state.settings)
    try:
        assert configure._selected_targets(config, state) == ["llvmpipe", "lavapipe"]
        assert list(state.pool._executors) == ["llvmpipe"]
        runner = state.pool.get("llvmpipe")
        probed = runner._members[0].pid
        assert probed is not None and os.path.exists(f"/proc/{probed}")
        case = next(c for c in catalog.cases("draw_params") if c.id.startswith("draw_params/DrawArrays"))
        assert core.run_case(case, "llvmpipe", runner).status is Status.PASS
        assert runner._members[0].pid == probed
    finally:
        state.pool.close()


def test_a_bad_mesa_is_a_usage_error(tmp_path):
    with pytest.raises(configure.HarnessUsageError, match="not-a-mesa"):
        configure.settings(Config(mesa=str(tmp_path / "not-a-mesa")), children=1)


def test_an_unwritable_results_folder_is_a_usage_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(configure.HarnessUsageError, match="is not writable"):
        configure._check_writable(tmp_path / "file" / "results")
    configure._check_writable(tmp_path / "results")
    assert (tmp_path / "results").is_dir() and not list((tmp_path / "results").iterdir())


def test_a_resume_folder_without_results_is_a_usage_error(tmp_path):
    assert configure._resumed(Config()) == {}
    with pytest.raises(configure.HarnessUsageError, match="--resume"):
        configure._resumed(Config(resume=str(tmp_path / "none")))


def _report(**fields):
    base = dict(failed=False, passed=False, skipped=False, when="setup", user_properties=[], longrepr=None,
                nodeid="tests/tess/cases.py::tess/a[llvmpipe]")
    return SimpleNamespace(**(base | fields))


def test_a_report_no_item_recorded_becomes_its_record():
    props = [("case_id", "tess/a"), ("target", "llvmpipe")]
    skipped = results.unrecorded(_report(skipped=True, user_properties=props,
                                         longrepr=("f", 1, "Skipped: listed in the skips file (s:1)")))
    assert (skipped.id, skipped.target, skipped.status, skipped.message) == \
        ("tess/a", "llvmpipe", Status.SKIP, "listed in the skips file (s:1)")
    error = results.unrecorded(_report(failed=True, user_properties=props, longrepr="fixture broke"))
    assert (error.status, error.message) == (Status.ERROR, "fixture broke")
    crashed = results.unrecorded(_report(failed=True, when="???", longrepr="worker 'gw0' crashed"))
    assert (crashed.id, crashed.target, crashed.status) == ("tess/a", "llvmpipe", Status.CRASH)
    assert results.unrecorded(_report(passed=True, when="call", user_properties=props)) is None
