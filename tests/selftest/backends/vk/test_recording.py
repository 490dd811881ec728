"""The Vulkan runner's command recording against a fake Vulkan (no driver, as VkRunner's own
tests use a fake): each GL draw becomes the vkCmdDraw* call GL's arguments say, with the push
constants the translated shaders read (LAYER_BLOCK's std430 offsets)."""
from __future__ import annotations

import struct
from types import SimpleNamespace

import pytest
import vulkan

from harness.backends.vk import recording, resources
from harness.backends.vk.translate import CLIP_PLANES
from harness.model.case import Attribute, Draw, DrawEntry


class FakeVulkan:
    """The `vulkan` module as the runner uses it while recording: constants from the real one,
    every vkCmd* call kept in order."""

    def __init__(self):
        self.calls = []
        # push constants as bytes; the multi-draw arrays as the real cffi arrays
        self.ffi = SimpleNamespace(new=lambda type_, data: bytes(data) if type_ == "char[]" else vulkan.ffi.new(type_, data),
                                   sizeof=vulkan.ffi.sizeof, NULL=vulkan.ffi.NULL)

    def __getattr__(self, name):
        if name.startswith("vkCmd"):
            return lambda *args: self.calls.append((name, args[1:]))     # args[0]: the command buffer
        return getattr(vulkan, name)


@pytest.fixture
def fake(monkeypatch):
    fake = FakeVulkan()
    monkeypatch.setattr(recording, "vk", fake)
    return fake


LEVELS = ((2.0, 3.0, 4.0, 5.0), (6.0, 7.0))        # the default outer and inner levels pushed


def buffer(size: int, usage: int, data: bytes = b"") -> SimpleNamespace:
    """A case's buffer as recording sees it: a handle and a size (no device)."""
    return SimpleNamespace(handle=f"buffer{len(data)}", size=size)


def record(draw: Draw, flags=None, index_type: str = "UNSIGNED_INT", native: bool = False, fake=None) -> None:
    """A draw's calls recorded as _CaseRun.draw records them, each after its push constants."""
    ext = {} if fake is None else {name: fake.__getattr__(name)          # as vkGetDeviceProcAddr gives them
                                   for name in ("vkCmdDrawMultiEXT", "vkCmdDrawMultiIndexedEXT")}
    for call in recording.calls(draw, native, buffer, ext):
        recording.push("cmd", "layout", flags or recording.Flags(), LEVELS, call.indexed, call.draw_id)
        call.record("cmd")


def pushed(args) -> tuple[int, int]:
    """(indexed, draw_id) from the push constant bytes: ints at offsets 24 and 28."""
    layout, stages, offset, size, data = args
    assert (offset, size, len(data)) == (0, 48 + 16 * CLIP_PLANES, size)
    return struct.unpack_from("<2i", data, 24)


def test_a_multi_draw_is_single_draws_each_with_its_draw_id(fake):
    """glMultiDrawArrays: draw i has gl_DrawID i, a zero-count entry draws nothing but keeps its index."""
    record(Draw("MultiDrawArrays", "POINTS", (DrawEntry(3, first=2), DrawEntry(0), DrawEntry(2, first=5))))
    names = [name for name, _ in fake.calls]
    assert names == ["vkCmdPushConstants", "vkCmdDraw", "vkCmdPushConstants", "vkCmdDraw"]
    assert fake.calls[1][1] == (3, 1, 2, 0) and fake.calls[3][1] == (2, 1, 5, 0)
    assert pushed(fake.calls[0][1]) == (0, 0) and pushed(fake.calls[2][1]) == (0, 2)


def test_the_native_path_is_one_multi_draw_with_every_entry(fake):
    """zink's path where the device has VK_EXT_multi_draw: one vkCmdDrawMultiEXT with every entry,
    the zero-count one included, one instance from 0, gl_DrawID from DrawIndex (0 pushed)."""
    record(Draw("MultiDrawArrays", "POINTS", (DrawEntry(3, first=2), DrawEntry(0), DrawEntry(2, first=5))),
           native=True, fake=fake)
    assert [name for name, _ in fake.calls] == ["vkCmdPushConstants", "vkCmdDrawMultiEXT"]
    count, infos, instances, first_instance, stride = fake.calls[1][1]
    assert (count, instances, first_instance, stride) == (3, 1, 0, 8)
    assert [(infos[i].firstVertex, infos[i].vertexCount) for i in range(3)] == [(2, 3), (0, 0), (5, 2)]
    assert pushed(fake.calls[0][1]) == (0, 0)


def test_the_native_path_gives_each_indexed_entry_its_base_vertex(fake):
    record(Draw("MultiDrawElementsBaseVertex", "POINTS",
                (DrawEntry(0, first=1, base_vertex=4), DrawEntry(2, first=3, base_vertex=-2))), native=True, fake=fake)
    name, (count, infos, instances, first_instance, stride, offsets) = fake.calls[1]
    assert name == "vkCmdDrawMultiIndexedEXT" and (count, instances, first_instance, stride) == (2, 1, 0, 12)
    assert [(infos[i].firstIndex, infos[i].indexCount, infos[i].vertexOffset) for i in range(2)] == [(1, 0, 4), (3, 2, -2)]
    assert offsets == vulkan.ffi.NULL and pushed(fake.calls[0][1]) == (1, 0)


def test_an_element_draw_passes_base_vertex_and_base_instance_and_says_indexed(fake):
    record(Draw("DrawElementsInstancedBaseVertexBaseInstance", "POINTS",
                            (DrawEntry(4, instance_count=2, first=1, base_vertex=7, base_instance=3),)))
    assert fake.calls[1] == ("vkCmdDrawIndexed", (4, 2, 1, 7, 3))
    assert pushed(fake.calls[0][1]) == (1, 0)


def test_arguments_a_command_does_not_take_are_not_passed(fake):
    """glDrawArrays has no base vertex, instances or base instance."""
    record(Draw("DrawArrays", "POINTS", (DrawEntry(4, instance_count=3, first=5, base_vertex=9,
                                                               base_instance=2),)))
    assert fake.calls[1] == ("vkCmdDraw", (4, 1, 5, 0))


def test_an_indirect_multi_draw_is_one_call_with_the_gl_offset_and_stride(fake):
    entries = (DrawEntry(3, first=2), DrawEntry(0), DrawEntry(2, first=5))
    record(Draw("MultiDrawElementsIndirect", "POINTS", entries, indirect_offset=8, indirect_stride=32))
    (name, args), = [c for c in fake.calls if c[0] != "vkCmdPushConstants"]
    assert name == "vkCmdDrawIndexedIndirect" and args[1:] == (8, 3, 32)


def test_push_constants_carry_the_levels_and_the_clip_planes(fake):
    """outer at 0, inner at 16, two_side and clip_enabled at 32 and 36, planes from 48."""
    planes = [(float(i), 0.0, 0.0, 1.0) for i in range(CLIP_PLANES)]
    recording.push("cmd", "layout", recording.Flags(1, 0b101, planes), LEVELS, False, 0)
    data = fake.calls[0][1][4]
    assert struct.unpack_from("<4f2f", data, 0) == (2.0, 3.0, 4.0, 5.0, 6.0, 7.0)
    assert struct.unpack_from("<2i", data, 32) == (1, 0b101)
    assert struct.unpack_from("<4f", data, 48 + 16 * 2) == planes[2]


def test_the_dynamic_vertex_input_path_records_the_layout_the_static_path_bakes(fake):
    """vkCmdSetVertexInputEXT with one binding per attribute (stride, rate, divisor 1) and its
    attribute (location, format, offset 0): the layout resources.vertex_layout gives both paths."""
    attributes = (Attribute(0, 4, (0.0,) * 8), Attribute(3, 1, (0.0,) * 2, divisor=1))
    layout = resources.vertex_layout(attributes)
    assert [tuple(v) for v in layout] == [
        (0, 16, vulkan.VK_VERTEX_INPUT_RATE_VERTEX, 0, vulkan.VK_FORMAT_R32G32B32A32_SFLOAT),
        (1, 4, vulkan.VK_VERTEX_INPUT_RATE_INSTANCE, 3, vulkan.VK_FORMAT_R32_SFLOAT)]
    recording.set_vertex_input("cmd", {"vkCmdSetVertexInputEXT": fake.__getattr__("vkCmdSetVertexInputEXT")}, layout)
    [(name, (nb, bindings, na, attrs))] = fake.calls
    assert (name, nb, na) == ("vkCmdSetVertexInputEXT", 2, 2)
    assert [(b.sType, b.binding, b.stride, b.inputRate, b.divisor) for b in list(bindings)[:2]] == [
        (vulkan.VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, 0, 16, vulkan.VK_VERTEX_INPUT_RATE_VERTEX, 1),
        (vulkan.VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, 1, 4, vulkan.VK_VERTEX_INPUT_RATE_INSTANCE, 1)]
    assert [(a.sType, a.location, a.binding, a.format, a.offset) for a in list(attrs)[:2]] == [
        (vulkan.VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, 0, 0,
         vulkan.VK_FORMAT_R32G32B32A32_SFLOAT, 0),
        (vulkan.VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, 3, 1, vulkan.VK_FORMAT_R32_SFLOAT, 0)]


def test_a_case_without_attributes_records_an_empty_vertex_input(fake):
    recording.set_vertex_input("cmd", {"vkCmdSetVertexInputEXT": fake.__getattr__("vkCmdSetVertexInputEXT")},
                               resources.vertex_layout(()))
    [(name, (nb, _, na, _))] = fake.calls
    assert (name, nb, na) == ("vkCmdSetVertexInputEXT", 0, 0)


def a_pass(**changes) -> recording.DrawPass:
    draw = Draw("DrawArrays", "POINTS", (DrawEntry(3),))
    fields = dict(render_pass=vulkan.ffi.NULL, framebuffer=vulkan.ffi.NULL, size=(4, 2), clear=-1.0, keep=False, pipeline="pipeline",
                  layout="layout", ext={}, calls=recording.calls(draw, False, buffer, {}),
                  flags=recording.Flags(), levels=LEVELS)
    return recording.DrawPass(**(fields | changes))


def test_a_draw_pass_records_its_state_then_its_calls_inside_the_query(fake):
    """The render pass, the pipeline, GL's flipped viewport, the inputs, then the query around the
    pushed draw; then the copy of the target after the pass."""
    recording.record_draw("cmd", a_pass(vertex_buffers=["a", "b"], indices=("index", "UNSIGNED_SHORT"),
                                        queries="pool", image="image", copy=buffer(32, 0)))
    names = [name for name, _ in fake.calls]
    assert names == ["vkCmdResetQueryPool", "vkCmdBeginRenderPass", "vkCmdBindPipeline", "vkCmdSetViewport",
                     "vkCmdSetScissor", "vkCmdBindVertexBuffers", "vkCmdBindIndexBuffer", "vkCmdBeginQuery",
                     "vkCmdPushConstants", "vkCmdDraw", "vkCmdEndQuery", "vkCmdEndRenderPass",
                     "vkCmdCopyImageToBuffer"]
    (viewport,) = dict(fake.calls)["vkCmdSetViewport"][2]
    assert (viewport.x, viewport.y, viewport.width, viewport.height) == (0, 2, 4, -2)    # y up, as GL
    assert dict(fake.calls)["vkCmdBindIndexBuffer"] == ("index", 0, vulkan.VK_INDEX_TYPE_UINT16)


def test_dynamic_state_is_recorded_only_where_the_pipeline_leaves_it_dynamic(fake):
    ext = {name: fake.__getattr__(name) for name in ("vkCmdSetPatchControlPointsEXT", "vkCmdSetVertexInputEXT")}
    recording.record_draw("cmd", a_pass(ext=ext))
    assert not {"vkCmdSetPatchControlPointsEXT", "vkCmdSetVertexInputEXT"} & {name for name, _ in fake.calls}
    fake.calls.clear()
    recording.record_draw("cmd", a_pass(ext=ext, patch_vertices=7, vertex_input=()))
    assert ("vkCmdSetPatchControlPointsEXT", (7,)) in fake.calls
    assert "vkCmdSetVertexInputEXT" in [name for name, _ in fake.calls]


def test_a_kept_image_is_drawn_between_full_barriers(fake):
    recording.record_draw("cmd", a_pass(keep=True))
    names = [name for name, _ in fake.calls]
    assert names[0] == names[-1] == "vkCmdPipelineBarrier"
    assert names[1] == "vkCmdBeginRenderPass" and names[-2] == "vkCmdEndRenderPass"


def test_an_unsupported_capability_is_refused_and_clip_planes_are_flagged():
    from harness.backends import Skip
    state = SimpleNamespace(enable=("CLIP_DISTANCE2", "VERTEX_PROGRAM_TWO_SIDE", "CULL_FACE"),
                            clip_planes=((1.0, 0.0, 0.0, 0.5),))
    flags = recording.enables(state)
    assert (flags.two_side, flags.clip_enabled, flags.planes[0]) == (1, 0b100, (1.0, 0.0, 0.0, 0.5))
    with pytest.raises(Skip, match="BLEND"):
        recording.enables(SimpleNamespace(enable=("BLEND",), clip_planes=()))
