"""The pytest plugin's state for one pytest process: one value under one StashKey of pytest's
config, filled as the run is set up (the layout when pytest's command line is read, the rest when
it is configured, the order when collection ends), read by the hooks and the items."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from harness.base.config import RunSettings
from harness.executor.settings import DEFAULT
from harness.run import core, gating, journal, sharding
from harness.scheduler.layout import Layout
from harness.scheduler.pipeline import Pipeline


@dataclass
class PluginState:
    layout: Layout = field(default_factory=lambda: Layout(1, 1))   # processes x children (harness/scheduler/layout.py)
    settings: RunSettings = DEFAULT
    targets: list[str] = field(default_factory=list)    # the targets this run's cases run on
    gate: gating.Gate = gating.Gate()                   # the baseline and flakes files that gate the run
    run: str = ""                                       # this run's id: its journal files' prefix
    started: float | None = None                        # when the run started (epoch s, the controller's clock)
    pool: Pipeline | None = None                        # this process's executor children
    rules: core.Rules = core.Rules()
    skips: list[tuple[Any, str]] = field(default_factory=list)   # [(regex, "file:line")] from the skips files
    shard: sharding.Shard = sharding.Shard(1, 1)
    scheduled: bool = False     # one of a scheduler's processes (harness/scheduler/processes.py): --in-process, --shard
    properties: dict[str, str] = field(default_factory=dict)     # harness version, git describe: JUnit properties
    manifest: dict[str, Any] = field(default_factory=dict)       # the expectation files and JUnit options
    done: dict[str, Any] = field(default_factory=dict)           # --resume: "<id>[<target>]" -> the entry there
    journal: journal.Journal | None = None                       # this process's journal, None without cases
    order: dict[Any, int] | None = None                          # without xdist: each item's place in the run order

    @property
    def pipeline(self) -> Pipeline:
        if self.pool is None:
            raise RuntimeError("the harness plugin is not configured: no executor pipeline")
        return self.pool


KEY = pytest.StashKey[PluginState]()


def of(config: pytest.Config) -> PluginState:
    """The state of this pytest process, made on first use."""
    if KEY not in config.stash:
        config.stash[KEY] = PluginState()
    return config.stash[KEY]
