"""The xdist handshake: what an xdist controller hands each worker of what it chose (the targets,
the gate, the run's id and start), so that a worker neither probes nor gates again. Plain lists
and strings: xdist sends `workerinput` to the worker as it is."""
from __future__ import annotations

from typing import Any, MutableMapping

from harness.pytest_adapter.state import PluginState
from harness.run import gating


def send(state: PluginState, workerinput: MutableMapping[str, Any]) -> None:
    """The controller's side: its choices into a worker's `workerinput`."""
    workerinput["harness_targets"] = state.targets
    workerinput["harness_gate"] = [list(state.gate.baselines), list(state.gate.flakes), state.gate.line]
    workerinput["harness_run"] = state.run
    workerinput["harness_started"] = state.started


def receive(state: PluginState, workerinput: MutableMapping[str, Any]) -> None:
    """The worker's side: the controller's choices into this process's state."""
    state.targets = workerinput["harness_targets"]
    baselines, flakes, line = workerinput["harness_gate"]
    state.gate = gating.Gate(tuple(baselines), tuple(flakes), line)
    state.run = workerinput["harness_run"]
    state.started = workerinput["harness_started"]
