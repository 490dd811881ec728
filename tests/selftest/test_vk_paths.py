"""The Vulkan layer's multi-draw paths (harness/backends/vk/paths.py): chosen by the device's
features as zink chooses, selectable, and each one really taken on lavapipe."""
from __future__ import annotations

import pytest
from conftest import family, pinned_mesa

from harness.backends.vk import paths
from harness.executor.executor import Executor
from harness.model.status import Reply
from harness.executor.targets import get
from harness.oracle.verdict import judge

MULTI = "draw_params/MultiDrawArrays/f2c3+f0c0+f5c2/glsl450/vs"


@pytest.mark.parametrize("multi_draw, draw_parameters, path, words", [
    (True, True, "native", "offers VK_EXT_multi_draw and shaderDrawParameters"),
    (False, True, "split", "lacks VK_EXT_multi_draw (multiDraw)"),
    (True, False, "split", "lacks shaderDrawParameters"),
    (False, False, "split", "lacks VK_EXT_multi_draw (multiDraw) and shaderDrawParameters"),
])
def test_auto_takes_zinks_path_by_the_devices_features(multi_draw, draw_parameters, path, words):
    choice = paths.choose("auto", multi_draw, draw_parameters)
    assert choice.path == path and words in choice.why
    assert choice.describe().startswith(f"multi-draw path {path} (auto: ")


def test_a_named_path_is_taken_or_refused_in_one_line():
    assert paths.choose("split", True, True).path == "split"
    assert paths.choose("native", True, True).path == "native"
    with pytest.raises(paths.PathError, match=r"^--vk-path native: the Vulkan device lacks VK_EXT_multi_draw"):
        paths.choose("native", False, True)
    with pytest.raises(paths.PathError, match=r"unknown Vulkan path 'fast' \(known: auto, native, split\)"):
        paths.choose("fast", True, True)


def test_only_direct_multi_draws_depend_on_the_path():
    cases = family("draw_params").generate()
    commands = {c.id: {d.command for d in c.draws()} for c in cases}
    dependent = {c.id for c in cases if paths.depends_on_path(c)}
    assert MULTI in dependent
    assert all(commands[i] & {"MultiDrawArrays", "MultiDrawElements", "MultiDrawElementsBaseVertex"}
               for i in dependent)
    assert not any(paths.depends_on_path(c) for c in cases
                   if commands[c.id] <= {"DrawArrays", "MultiDrawArraysIndirect", "MultiDrawElementsIndirectCount"})


@pytest.mark.parametrize("path, draw_id_off", [("native", "pass"), ("split", "fail")])
def test_each_path_runs_on_lavapipe(path, draw_id_off):
    """Both paths pass the multi-draw case; with the draw-id translation off only the split path
    fails, which shows the native one reads DrawIndex from a real vkCmdDrawMultiEXT."""
    case = {c.id: c for c in family("draw_params").generate()}[MULTI]
    for without, expected in (("", "pass"), ("draw-id", draw_id_off)):
        ex = Executor(get("lavapipe"), mesa=pinned_mesa(), vk_without=without, vk_path=path)
        try:
            info = ex.info()
            assert info.status is Reply.OK, info.message
            assert info.observation["vk_path"] == path
            assert f"multi-draw path {path} (--vk-path {path})" in info.observation["platform"]
            verdict = judge(case, ex.run(case), "lavapipe")
        finally:
            ex.close()
        assert verdict.status == expected, (path, without, verdict.message)
        if expected == "fail":
            assert "entry 2, vertex 0, instance 0: gl_DrawID = 0, expected 2" in verdict.message


def test_the_lavapipe_split_target_takes_the_split_path_on_the_cases_that_depend_on_it():
    target = get("lavapipe-split")
    assert target.vk_path == "split" and target.path_dependent_only and target.default
    assert get("lavapipe").vk_path == ""            # the run's --vk-path, auto by default
