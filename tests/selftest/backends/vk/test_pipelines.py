"""The Vulkan runner's pipeline cache (harness/backends/vk/pipelines.py) against a fake Vulkan: a
pipeline is made once per PipelineSpec and kept, least recently used first, and trimmed between
cases; the spec's key is what makes the pipeline, not the order its stages were listed in."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import vulkan

from harness.backends import Skip
from harness.backends.vk import pipelines
from harness.backends.vk.pipelines import CACHED, PipelineSpec, Pipelines, Raster


class FakeVulkan:
    """Constants from the real `vulkan`; pipelines and modules made and destroyed are counted."""

    def __init__(self):
        self.made, self.destroyed = [], []

    def __getattr__(self, name):
        return getattr(vulkan, name)

    def vkCreateGraphicsPipelines(self, device, cache, count, infos, allocator):
        self.made.append(infos[0])
        return [f"pipeline{len(self.made)}"]

    def vkDestroyPipeline(self, device, pipeline, allocator):
        self.destroyed.append(pipeline)

    def vkCreateShaderModule(self, device, info, allocator):
        return vulkan.ffi.NULL

    def vkDestroyShaderModule(self, device, module, allocator):
        self.destroyed.append("module")


@pytest.fixture
def fake(monkeypatch):
    fake = FakeVulkan()
    monkeypatch.setattr(pipelines, "vk", fake)
    monkeypatch.setattr(pipelines.spirv, "compile_glsl", lambda stage, source: b"\x03\x02\x23\x07")
    return fake


def spec(n: int = 0, order: tuple[str, ...] = ("vs", "fs"), patch: int | None = 3) -> PipelineSpec:
    stages = (("fs", f"// fs {n}"), ("vs", "// vs"))
    return PipelineSpec(stages, "POINTS", False, patch, (), False, vulkan.VK_FORMAT_R32G32B32A32_SFLOAT,
                        Raster("", "", False), order=order)


def test_a_pipeline_is_made_once_per_spec_whatever_the_stage_order(fake):
    cache = Pipelines("device", vulkan.ffi.NULL)
    first = cache.get(spec(), vulkan.ffi.NULL)
    assert cache.get(spec(order=("fs", "vs")), vulkan.ffi.NULL) == first
    assert len(fake.made) == 1
    assert cache.get(spec(1), vulkan.ffi.NULL) != first and len(fake.made) == 2


def test_a_dynamic_patch_size_adds_its_dynamic_state(fake):
    cache = Pipelines("device", vulkan.ffi.NULL)
    cache.get(spec(patch=None), vulkan.ffi.NULL)
    info = fake.made[0]
    states = [info.pDynamicState.pDynamicStates[i] for i in range(info.pDynamicState.dynamicStateCount)]
    assert vulkan.VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT in states
    assert vulkan.VK_DYNAMIC_STATE_VERTEX_INPUT_EXT not in states      # the vertex layout () is baked


def test_trim_destroys_the_least_recently_used_over_the_limit(fake):
    cache = Pipelines("device", vulkan.ffi.NULL)
    for n in range(CACHED + 3):
        cache.get(spec(n), vulkan.ffi.NULL)
    cache.get(spec(0), vulkan.ffi.NULL)                  # used again: the most recent now
    cache.trim()
    assert len(cache.pipelines) == CACHED
    assert fake.destroyed[:3] == ["pipeline2", "pipeline3", "pipeline4"]
    assert len(cache.modules) == CACHED and fake.destroyed[3:] == ["module"] * 4      # CACHED + 3 fs, one vs


def test_a_topology_or_polygon_mode_the_layer_lacks_is_a_skip():
    with pytest.raises(Skip, match="GL_QUADS"):
        pipelines.check_topology("QUADS")
    state = SimpleNamespace(polygon_mode="LINE", front_face="", enable=())
    with pytest.raises(Skip, match="fillModeNonSolid"):
        pipelines.raster_of(state, fill_mode_non_solid=False)
    assert pipelines.raster_of(state, fill_mode_non_solid=True) == Raster("LINE", "", False)
