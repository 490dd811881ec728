"""`python -m harness blame`: bad input is one line and a non-zero exit; the fetched validation layer's JSON."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_case_is_one_line_and_exit_2():
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/no/such/case"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "python -m harness blame: no case 'draw_params/no/such/case' in family draw_params"]


def test_a_validation_layer_folder_without_the_layer_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "harness", "blame", "draw_params/DrawArrays/f5c4/glsl450/gs",
                           "--validation-layer-path", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"python -m harness blame: no VkLayer_khronos_validation.json in {tmp_path} "
        "(bin/fetch-validation-layer prints such a folder)"]


def test_the_fetched_layer_json_names_its_library_by_absolute_path(tmp_path):
    from harness.mesa.fetch_layer import layer_json
    package = {"file_format_version": "1.2.0",
               "layer": {"name": "VK_LAYER_KHRONOS_validation", "library_path": "libVkLayer_khronos_validation.so"}}
    library = tmp_path / "root" / "libVkLayer_khronos_validation.so"
    written = layer_json(package, library)
    assert written["layer"] == {"name": "VK_LAYER_KHRONOS_validation", "library_path": str(library)}
    assert package["layer"]["library_path"] == "libVkLayer_khronos_validation.so"    # the input untouched
