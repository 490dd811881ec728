"""The Vulkan runner's pipeline cache (harness/backends/vk/pipelines.py) against a fake Vulkan: a
pipeline is made once per PipelineSpec and kept, least recently used first, and trimmed between
cases; the spec's key is what makes the pipeline, not the order its stages were listed in; the
rasterization state a draw's GL state asks for (polygon modes, GL's provoking-vertex convention)."""
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


def spec(n: int = 0, order: tuple[str, ...] = ("vs", "fs"), patch: int | None = 3,
         raster: Raster | None = None) -> PipelineSpec:
    stages = (("fs", f"// fs {n}"), ("vs", "// vs"))
    return PipelineSpec(stages, "POINTS", False, patch, (), False, vulkan.VK_FORMAT_R32G32B32A32_SFLOAT,
                        raster or Raster("", "", False), order=order)


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
    state = draw_state(polygon_mode="LINE")
    with pytest.raises(Skip, match="fillModeNonSolid"):
        pipelines.raster_of(state, fill_mode_non_solid=False)
    assert pipelines.raster_of(state, fill_mode_non_solid=True) == Raster("LINE", "", False)


def draw_state(**fields):
    """The DrawState fields raster_of and provoking_mode read, GL's defaults unless given."""
    return SimpleNamespace(**({"polygon_mode": "", "polygon_mode_back": "", "front_face": "", "enable": (),
                               "provoking_vertex": ""} | fields))


def test_the_provoking_mode_is_part_of_the_key_and_chained_into_the_rasterization_state(fake):
    cache = Pipelines("device", vulkan.ffi.NULL)
    made = {mode: cache.get(spec(raster=Raster("", "", False, mode)), vulkan.ffi.NULL) for mode in ("", "FIRST", "LAST")}
    assert len(set(made.values())) == 3 and len(fake.made) == 3        # cached apart
    none, first, last = (info.pRasterizationState.pNext for info in fake.made)
    assert none == vulkan.ffi.NULL                                     # Vulkan's first-vertex convention
    for chained, mode in ((first, vulkan.VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT),
                          (last, vulkan.VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT)):
        pv = vulkan.ffi.cast("VkPipelineRasterizationProvokingVertexStateCreateInfoEXT *", chained)
        assert pv.sType == vulkan.VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT
        assert pv.provokingVertexMode == mode


@pytest.mark.parametrize("convention, provokes, last, faithful, mode", [
    ("", True, True, True, "LAST"),                # GL's initial LAST_VERTEX_CONVENTION
    ("FIRST", True, True, True, "FIRST"),
    ("", False, True, True, "LAST"),               # chained whatever the primitive
    ("FIRST", True, False, True, ""),              # Vulkan's default is GL's FIRST
    ("", False, False, True, ""),                  # points and patches have no provoking vertex to pick
    ("", True, True, False, ""),                   # switched off: Vulkan's FIRST, the wrong vertex
    ("", True, False, False, ""),
])
def test_gls_convention_is_the_pipelines_provoking_mode(convention, provokes, last, faithful, mode):
    state = draw_state(provoking_vertex=convention)
    assert pipelines.provoking_mode(state, provokes, last, faithful) == mode


def test_a_last_vertex_draw_without_provoking_vertex_last_is_a_skip_naming_the_extension():
    with pytest.raises(Skip, match=r"^the Vulkan device lacks VK_EXT_provoking_vertex \(provokingVertexLast\)"):
        pipelines.provoking_mode(draw_state(), provokes=True, provoking_last=False)


def test_the_raster_carries_the_provoking_mode():
    assert pipelines.raster_of(draw_state(), True, "LAST") == Raster("", "", False, "LAST")
    assert pipelines.raster_of(draw_state(), True) != pipelines.raster_of(draw_state(), True, "LAST")


@pytest.mark.parametrize("front, back", [("LINE", "FILL"), ("", "POINT"), ("POINT", "LINE")])
def test_front_and_back_polygon_modes_that_differ_are_a_skip(front, back):
    state = draw_state(polygon_mode=front, polygon_mode_back=back)
    with pytest.raises(Skip, match="^Vulkan has one polygon mode for both faces; GL's front and back differ here"):
        pipelines.raster_of(state, fill_mode_non_solid=True)


def test_one_polygon_mode_serves_where_the_back_mode_cannot_show():
    # the same mode twice ("FILL" is GL's fill, Raster's "")
    assert pipelines.raster_of(draw_state(polygon_mode_back="FILL"), True) == Raster("", "", False)
    assert pipelines.raster_of(draw_state(polygon_mode="LINE", polygon_mode_back="LINE"), True).polygon_mode == "LINE"
    differ = draw_state(polygon_mode="LINE", polygon_mode_back="FILL")
    # back faces culled (GL's default cull face, the layer's), lines and points, a capture
    assert pipelines.raster_of(draw_state(polygon_mode="LINE", polygon_mode_back="FILL", enable=("CULL_FACE",)),
                               True) == Raster("LINE", "", True)
    assert pipelines.raster_of(differ, True, primitive="lines").polygon_mode == "LINE"
    assert pipelines.raster_of(differ, True, discard=True).polygon_mode == "LINE"
    # a state without the field (an older DrawState): both faces take polygon_mode
    assert pipelines.raster_of(draw_state(polygon_mode="POINT"), True).polygon_mode == "POINT"
