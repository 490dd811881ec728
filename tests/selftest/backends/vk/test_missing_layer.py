"""--vk-validation on a host without the Khronos validation layer is the setup's fault, never the
driver's: the run refuses the target in one line naming the option, the layer and its Debian
package, exit 2 (a usage error) and no results; a case sent to such a child is `error`.
The layer is hidden from the Vulkan loader by $VK_LAYER_PATH naming an empty folder (it then
searches nothing else for explicit layers), on real lavapipe."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT, generated, pinned_args, pinned_mesa

from harness.backends.vk.device import VALIDATION_LAYER
from harness.executor.executor import Executor
from harness.executor.targets import get
from harness.oracle.verdict import judge

CASE_ID = "draw_params/DrawArrays/f5c4/glsl450/vs"
# what the loader would read besides VK_LAYER_PATH: dropped, so that only the empty folder is searched
LAYER_VARIABLES = ("VK_ADD_LAYER_PATH", "VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE")


@pytest.fixture
def no_layer(tmp_path, monkeypatch) -> dict[str, str]:
    """This process's environment (which the children inherit) with no validation layer to find."""
    (tmp_path / "layers").mkdir()
    monkeypatch.setenv("VK_LAYER_PATH", str(tmp_path / "layers"))
    for name in LAYER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return dict(os.environ)


def _says_what_is_missing(line: str) -> None:
    assert "--vk-validation" in line and VALIDATION_LAYER in line and "vulkan-validationlayers" in line, line


def test_a_case_without_the_layer_is_error_never_fail(no_layer):
    case = next(c for c in generated("draw_params") if c.id == CASE_ID)
    executor = Executor(get("lavapipe"), mesa=pinned_mesa(), vk_validation=True)
    try:
        verdict = judge(case, executor.run(case), "lavapipe")
    finally:
        executor.close()
    assert verdict.status == "error", verdict.message
    _says_what_is_missing(verdict.message.splitlines()[0])      # the lines after it name the target


def test_a_run_without_the_layer_is_one_line_and_a_usage_error(no_layer, tmp_path):
    results = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                           "tests/draw_params", "--target", "lavapipe", "--vk-validation", "-k", CASE_ID,
                           "--results-dir", str(results), *pinned_args()],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env=no_layer)
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]   # pytest's usage error
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("Exit: ERROR: target lavapipe is not available: "), line
    _says_what_is_missing(line)
    assert " fail" not in done.stdout and not (results / "results.json").exists(), done.stdout
