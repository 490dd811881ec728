"""Configuring a pytest run of the harness: its command-line options (the table of
harness/base/options.py) resolved into one RunSettings and one Rules value, its gate, the targets
it runs on (each probed), its shard, what it resumes, and its journal."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from harness.base.errors import UsageError
from harness.base import config as config_mod, options, plugins, provenance
from harness.executor import shader_cache
from harness.executor import targets as targets_mod
from harness.executor.probe import probe
from harness.executor.settings import resolve
from harness.model.status import Reply
from harness.pytest_adapter import handshake, results as results_mod, state as state_mod
from harness.results import files as results
from harness.run import baseline, core, gating, journal, sharding
from harness.scheduler.pipeline import Pipeline
from harness.model.families import FAMILIES


class HarnessUsageError(UsageError):
    """Bad input on the command line: one line on stderr, exit status 2 (see pytest_configure)."""


def configure(config: pytest.Config) -> None:
    for family in FAMILIES:
        config.addinivalue_line("markers", f"{family}: cases of the {family} conformance family")
    config.addinivalue_line("markers", "conformance: every conformance case")
    worker = hasattr(config, "workerinput")
    state = state_mod.of(config)
    state.settings = settings(config, state.layout.children)
    try:
        plugins.load(state.settings.knobs.plugins)     # $HARNESS_PLUGINS: their backends and targets
    except plugins.PluginError as exc:
        raise HarnessUsageError(str(exc)) from None
    state.pool = Pipeline(state.settings)
    try:
        _configure_run(config, state, worker)
    except BaseException:
        state.pool.close()                              # the first target's child, if it was probed
        raise


def _configure_run(config: pytest.Config, state: state_mod.PluginState, worker: bool) -> None:
    if worker:                                          # an xdist worker: the controller chose
        handshake.receive(state, config.workerinput)    # type: ignore[attr-defined]
    elif collects_cases(config):
        state.gate = _gate(config, state, config.getoption("baseline"))
        state.targets = _selected_targets(config, state)
        state.run = journal.new_run()
    else:                                               # the self-tests: gated only where asked
        state.gate = _gate(config, state, config.getoption("baseline") or [gating.NONE])
    if not worker:
        state.started = time.time()
    _rules(config, state)
    state.properties = {**provenance.run_properties(), **gating.mesa_properties(state.settings.mesa),
                        **({"started": results.timestamp(state.started)} if state.started is not None else {})}
    state.done = _resumed(config)
    results_dir = Path(config.getoption("results_dir"))
    state.journal = journal.Journal(results_dir, state.run) if state.targets else None
    if state.targets and not worker:
        _check_writable(results_dir)
        if not config.getoption("resume"):
            results_mod.clear(results_dir)              # an earlier run's records must not mix with these
        config.pluginmanager.register(results_mod.ResultsWriter(results_dir, config), "harness-results")
        results_mod.interrupt_on_sigterm()


def settings(config: pytest.Config, children: int) -> core.RunSettings:
    """The run's settings from pytest's options (harness/executor/settings.py resolve)."""
    try:
        return resolve(options.values(config), children=children)
    except UsageError as exc:               # a --mesa that is no Mesa, an unknown --vk-without name
        raise HarnessUsageError(str(exc)) from None


def _rules(config: pytest.Config, state: state_mod.PluginState) -> None:
    """The run's Rules, skips, manifest and shard from their options."""
    results_dir = Path(config.getoption("results_dir"))
    audit = config.getoption("audit")
    if not 0.0 <= audit <= 1.0:
        raise HarnessUsageError(f"--audit {audit:g}: expected a fraction from 0 to 1")
    gate = state.gate
    try:
        state.rules = core.Rules(baseline=baseline.load(gate.baselines), flakes=tuple(baseline.load_flakes(gate.flakes)),
                                 flake_retries=config.getoption("flake_retries"), triage_dir=results_dir,
                                 audit=audit, audit_seed=config.getoption("shuffle") or 0)
        state.skips = baseline.load_patterns(config.getoption("skips"))
    except baseline.BaselineError as exc:
        raise HarnessUsageError(str(exc)) from None
    limit = config.getoption("junit_limit")
    if limit is not None and limit < 0:
        raise HarnessUsageError(f"--junit-limit {limit}: expected a number of failures, 0 or more")
    state.manifest = results.manifest(gate.baselines, gate.flakes, config.getoption("skips"),
                                      results.JunitOptions(limit, config.getoption("junit_link")))
    try:
        state.shard = sharding.chosen(config.getoption("shard"), state.settings.knobs)
    except sharding.ShardError as exc:
        raise HarnessUsageError(str(exc)) from None
    state.scheduled = bool(config.getoption("in_process") and config.getoption("shard"))


def _selected_targets(config: pytest.Config, state: state_mod.PluginState) -> list[str]:
    names = config.getoption("target")
    if not names and state.settings.knobs.targets:
        names = state.settings.knobs.targets.split(",")
    explicit = bool(names)
    try:
        names = targets_mod.parse_list(",".join(names)) if names else targets_mod.default_names()
    except targets_mod.UnknownTarget as exc:
        raise HarnessUsageError(str(exc)) from None
    names = list(dict.fromkeys(names))
    if any(targets_mod.get(name).shader_cache_slot for name in names):
        shader_cache.seed(state.layout.slots, config_mod.environ())   # before any child claims a slot
    # Each probe starts a child and waits for its driver: all at once. The first target's cases run
    # first: its probe is the run's own first child (forked from the spawner its cases' children
    # fork from), where this process runs cases (not xdist's controller).
    first = names[0] if names and not getattr(config.option, "numprocesses", None) else None
    with ThreadPoolExecutor(max_workers=len(names) or 1) as pool:
        whys = list(pool.map(lambda name: _why_unavailable(state, targets_mod.get(name), name == first), names))
    chosen = []
    for name, why in zip(names, whys):
        if not why:
            chosen.append(name)
            continue
        state.pipeline.close(name)                      # a probed runner's child, if any
        if explicit:
            raise HarnessUsageError(f"target {name} is not available: {why}")
        else:
            config.issue_config_time_warning(
                pytest.PytestConfigWarning(f"default target {name} skipped: {why}"), stacklevel=2)
    return chosen


def _why_unavailable(state: state_mod.PluginState, target: targets_mod.Target, kept: bool) -> str:
    """'' if the target's child made a context, else the first line of why not. `kept`: the child
    is the first of the run's children for the target (state.pipeline), not one started for this."""
    if target.unavailable:
        return target.unavailable
    result = probe(target, state.settings, runner=state.pipeline.get(target.name) if kept else None)
    if result.status is Reply.OK:
        return ""
    return (result.message or result.status).splitlines()[0]


def _gate(config: pytest.Config, state: state_mod.PluginState, words: list[str]) -> gating.Gate:
    """The baseline and flakes files that gate this run (harness/run/gating.py); xdist workers get
    the controller's."""
    try:
        return gating.choose(words, config.getoption("flakes"), state.settings.mesa)
    except gating.GateError as exc:
        raise HarnessUsageError(str(exc)) from None


def _check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe_file = folder / ".writable"
        probe_file.write_text("")
        probe_file.unlink()
    except OSError as exc:
        raise HarnessUsageError(f"results directory {folder} is not writable: {exc.strerror}") from None


def _resumed(config: pytest.Config) -> dict[str, Any]:
    folder = config.getoption("resume")
    if not folder:
        return {}
    try:
        return {e.key: e for e in results.finished(Path(folder))}
    except results.ResultsError as exc:
        raise HarnessUsageError(f"--resume: {exc}") from None


def collects_cases(config: pytest.Config) -> bool:
    """Whether any command-line path reaches a family's cases.py (avoids probing for self-tests)."""
    if config.getoption("shader_tests", None):
        return True
    args = config.args or [str(config.rootpath)]
    for arg in args:
        path = Path(arg.split("::")[0]).resolve()
        for family in FAMILIES:
            cases = (config.rootpath / "tests" / family / "cases.py").resolve()
            if cases == path or path in cases.parents:
                return True
    return False
