"""The xdist handshake (harness/pytest_adapter/handshake.py): what the controller chose reaches a
worker whole, through the plain values xdist sends, and the plugin's state (state.py) is one
value a process makes once."""
from __future__ import annotations

import json
from types import SimpleNamespace

from harness.pytest_adapter import handshake, state as state_mod
from harness.pytest_adapter.state import PluginState
from harness.run import gating


def test_the_controllers_choices_reach_the_worker_through_plain_values():
    controller = PluginState(targets=["llvmpipe", "zink"], run="run-1", started=12.5,
                             gate=gating.Gate(("baselines/a.csv",), ("a-flakes.txt",), "gated by a.csv"))
    workerinput: dict = {}
    handshake.send(controller, workerinput)
    worker = PluginState()
    handshake.receive(worker, json.loads(json.dumps(workerinput)))      # as execnet sends it: no tuples
    assert (worker.targets, worker.run, worker.started, worker.gate) == \
        (controller.targets, controller.run, controller.started, controller.gate)
    assert PluginState().gate != controller.gate                         # the test can fail


def test_a_process_has_one_state():
    config = SimpleNamespace(stash={})
    made = state_mod.of(config)
    assert state_mod.of(config) is made and made.layout.processes == 1 and made.journal is None
    assert state_mod.of(SimpleNamespace(stash={})) is not made
