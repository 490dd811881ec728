"""Plugins (harness/base/plugins.py): the product's tables hold the product's backends and targets
only, and its types no test switch; a plugin adds its own, the self-tests' fault injection
(faults.py) among them, and a plugin that cannot load stops a front end with one line."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

from harness.base import config, plugins

PRODUCT = f"""
import json, sys
sys.path.insert(0, {str(ROOT)!r})
from harness.backends import registry
from harness.executor import targets
print(json.dumps([sorted(registry.BACKENDS), sorted(targets.TARGETS)]))
"""


def test_the_product_registers_no_test_backend_or_target():
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", PRODUCT], env=env, capture_output=True, text=True, check=True).stdout
    backends, names = json.loads(out)
    assert backends == ["gl", "vk"]
    assert names == sorted(["llvmpipe", "zink", "zink-optimal", "system-gl", "lavapipe", "lavapipe-split", "system-vk",
                            "zink-system"])


def test_the_product_types_carry_no_fault_switch():
    for cls in (config.Knobs, config.ChildOptions, config.RunSettings):
        assert not [f.name for f in dataclasses.fields(cls) if "fault" in f.name], cls


def test_the_self_tests_plugin_is_handed_on_to_children():
    from harness.executor import targets
    import faults
    assert str(ROOT / "tests" / "selftest" / "faults.py") in plugins.loaded()
    assert {"fault", "fault-llvmpipe", "fault-lavapipe"} <= set(targets.TARGETS)
    options = config.RunSettings().child_options(faults.FAULT_LLVMPIPE)
    assert config.ChildOptions.from_arg(options.to_arg()).plugins == plugins.loaded()
    assert plugins.load([faults.PLUGIN]) == [faults]              # loaded once, by path or as imported


def test_a_plugin_by_module_name_or_path(tmp_path, monkeypatch):
    (tmp_path / "harness_plugin_probe.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        [by_name] = plugins.load(["harness_plugin_probe"])
        assert by_name.LOADED and plugins.load([str(tmp_path / "harness_plugin_probe.py")]) == [by_name]
        with pytest.raises(plugins.PluginError, match="no such file"):
            plugins.load([str(tmp_path / "missing.py")])
        with pytest.raises(plugins.PluginError, match="harness_plugin_nowhere"):
            plugins.load(["harness_plugin_nowhere"])
    finally:
        sys.modules.pop("harness_plugin_probe", None)
        for name in [n for n in plugins._loaded if "harness_plugin_probe" in n]:
            del plugins._loaded[name]


def test_a_plugin_that_does_not_load_is_one_line_and_exit_2():
    env = {**os.environ, "HARNESS_PLUGINS": "harness_plugin_nowhere",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-m", "harness", "targets", "--json"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness: plugin harness_plugin_nowhere: ModuleNotFoundError: "
        "No module named 'harness_plugin_nowhere'"]
