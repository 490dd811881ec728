"""The case id of a .shader_test file (harness/sources/shader_test/ids.py)."""
from __future__ import annotations

from pathlib import Path

from harness.sources.shader_test.ids import FAMILY, case_id


def test_the_id_is_the_path_below_the_nearest_tests_folder():
    assert case_id(Path("/p/tests/a/tests/spec/x y.shader_test")) == f"{FAMILY}/spec/x_y"
    assert case_id(Path("/nowhere/-odd.shader_test")) == "shader_test/x-odd"
