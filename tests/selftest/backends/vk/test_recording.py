"""The Vulkan runner's command recording against a fake Vulkan (no driver, as VkRunner's own
tests use a fake): each GL draw becomes the vkCmdDraw* call GL's arguments say, with the push
constants the translated shaders read (LAYER_BLOCK's std430 offsets)."""
from __future__ import annotations

import struct
from types import SimpleNamespace

import pytest
import vulkan

from harness.backends.vk import runner
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
    monkeypatch.setattr(runner, "vk", fake)
    return fake


def case_run(index_type: str = "UNSIGNED_INT", path: str = "split", fake=None) -> runner._CaseRun:
    run = runner._CaseRun.__new__(runner._CaseRun)            # no device: only what recording reads
    run.case = SimpleNamespace(index_type=index_type)
    run.b = SimpleNamespace(layout="layout", path=SimpleNamespace(path=path))
    if fake is not None:                                       # the extension's commands, as vkGetDeviceProcAddr gives them
        run.dev = SimpleNamespace(ext={name: fake.__getattr__(name)
                                       for name in ("vkCmdDrawMultiEXT", "vkCmdDrawMultiIndexedEXT")})
    run.outer, run.inner = (2.0, 3.0, 4.0, 5.0), (6.0, 7.0)
    run._buffer = lambda size, usage, data=b"": SimpleNamespace(handle=f"buffer{len(data)}", size=size)
    return run


def record(run, draw: Draw, flags=None) -> list:
    flags = flags or {"two_side": 0, "clip_enabled": 0, "planes": [(0.0,) * 4] * CLIP_PLANES}
    for call in run._calls(draw):
        run._push("cmd", flags, call["indexed"], call["draw_id"])
        call["record"]("cmd")


def pushed(args) -> tuple[int, int]:
    """(indexed, draw_id) from the push constant bytes: ints at offsets 24 and 28."""
    layout, stages, offset, size, data = args
    assert (offset, size, len(data)) == (0, 48 + 16 * CLIP_PLANES, size)
    return struct.unpack_from("<2i", data, 24)


def test_a_multi_draw_is_single_draws_each_with_its_draw_id(fake):
    """glMultiDrawArrays: draw i has gl_DrawID i, a zero-count entry draws nothing but keeps its index."""
    record(case_run(), Draw("MultiDrawArrays", "POINTS", (DrawEntry(3, first=2), DrawEntry(0), DrawEntry(2, first=5))))
    names = [name for name, _ in fake.calls]
    assert names == ["vkCmdPushConstants", "vkCmdDraw", "vkCmdPushConstants", "vkCmdDraw"]
    assert fake.calls[1][1] == (3, 1, 2, 0) and fake.calls[3][1] == (2, 1, 5, 0)
    assert pushed(fake.calls[0][1]) == (0, 0) and pushed(fake.calls[2][1]) == (0, 2)


def test_the_native_path_is_one_multi_draw_with_every_entry(fake):
    """zink's path where the device has VK_EXT_multi_draw: one vkCmdDrawMultiEXT with every entry,
    the zero-count one included, one instance from 0, gl_DrawID from DrawIndex (0 pushed)."""
    record(case_run(path="native", fake=fake),
           Draw("MultiDrawArrays", "POINTS", (DrawEntry(3, first=2), DrawEntry(0), DrawEntry(2, first=5))))
    assert [name for name, _ in fake.calls] == ["vkCmdPushConstants", "vkCmdDrawMultiEXT"]
    count, infos, instances, first_instance, stride = fake.calls[1][1]
    assert (count, instances, first_instance, stride) == (3, 1, 0, 8)
    assert [(infos[i].firstVertex, infos[i].vertexCount) for i in range(3)] == [(2, 3), (0, 0), (5, 2)]
    assert pushed(fake.calls[0][1]) == (0, 0)


def test_the_native_path_gives_each_indexed_entry_its_base_vertex(fake):
    record(case_run(path="native", fake=fake), Draw("MultiDrawElementsBaseVertex", "POINTS",
                                                     (DrawEntry(0, first=1, base_vertex=4), DrawEntry(2, first=3, base_vertex=-2))))
    name, (count, infos, instances, first_instance, stride, offsets) = fake.calls[1]
    assert name == "vkCmdDrawMultiIndexedEXT" and (count, instances, first_instance, stride) == (2, 1, 0, 12)
    assert [(infos[i].firstIndex, infos[i].indexCount, infos[i].vertexOffset) for i in range(2)] == [(1, 0, 4), (3, 2, -2)]
    assert offsets == vulkan.ffi.NULL and pushed(fake.calls[0][1]) == (1, 0)


def test_an_element_draw_passes_base_vertex_and_base_instance_and_says_indexed(fake):
    record(case_run(), Draw("DrawElementsInstancedBaseVertexBaseInstance", "POINTS",
                            (DrawEntry(4, instance_count=2, first=1, base_vertex=7, base_instance=3),)))
    assert fake.calls[1] == ("vkCmdDrawIndexed", (4, 2, 1, 7, 3))
    assert pushed(fake.calls[0][1]) == (1, 0)


def test_arguments_a_command_does_not_take_are_not_passed(fake):
    """glDrawArrays has no base vertex, instances or base instance."""
    record(case_run(), Draw("DrawArrays", "POINTS", (DrawEntry(4, instance_count=3, first=5, base_vertex=9,
                                                               base_instance=2),)))
    assert fake.calls[1] == ("vkCmdDraw", (4, 1, 5, 0))


def test_an_indirect_multi_draw_is_one_call_with_the_gl_offset_and_stride(fake):
    entries = (DrawEntry(3, first=2), DrawEntry(0), DrawEntry(2, first=5))
    record(case_run(), Draw("MultiDrawElementsIndirect", "POINTS", entries, indirect_offset=8, indirect_stride=32))
    (name, args), = [c for c in fake.calls if c[0] != "vkCmdPushConstants"]
    assert name == "vkCmdDrawIndexedIndirect" and args[1:] == (8, 3, 32)


def test_push_constants_carry_the_levels_and_the_clip_planes(fake):
    """outer at 0, inner at 16, two_side and clip_enabled at 32 and 36, planes from 48."""
    planes = [(float(i), 0.0, 0.0, 1.0) for i in range(CLIP_PLANES)]
    case_run()._push("cmd", {"two_side": 1, "clip_enabled": 0b101, "planes": planes}, False, 0)
    data = fake.calls[0][1][4]
    assert struct.unpack_from("<4f2f", data, 0) == (2.0, 3.0, 4.0, 5.0, 6.0, 7.0)
    assert struct.unpack_from("<2i", data, 32) == (1, 0b101)
    assert struct.unpack_from("<4f", data, 48 + 16 * 2) == planes[2]


def test_the_dynamic_vertex_input_path_records_the_layout_the_static_path_bakes(fake):
    """vkCmdSetVertexInputEXT with one binding per attribute (stride, rate, divisor 1) and its
    attribute (location, format, offset 0): the layout runner.vertex_layout gives both paths."""
    attributes = (Attribute(0, 4, (0.0,) * 8), Attribute(3, 1, (0.0,) * 2, divisor=1))
    layout = runner.vertex_layout(attributes)
    assert [tuple(v) for v in layout] == [
        (0, 16, vulkan.VK_VERTEX_INPUT_RATE_VERTEX, 0, vulkan.VK_FORMAT_R32G32B32A32_SFLOAT),
        (1, 4, vulkan.VK_VERTEX_INPUT_RATE_INSTANCE, 3, vulkan.VK_FORMAT_R32_SFLOAT)]
    run = case_run()
    run.vertex_layout = layout
    run.dev = SimpleNamespace(ext={"vkCmdSetVertexInputEXT": fake.__getattr__("vkCmdSetVertexInputEXT")})
    run._set_vertex_input("cmd")
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
    run = case_run()
    run.vertex_layout = runner.vertex_layout(())
    run.dev = SimpleNamespace(ext={"vkCmdSetVertexInputEXT": fake.__getattr__("vkCmdSetVertexInputEXT")})
    run._set_vertex_input("cmd")
    [(name, (nb, _, na, _))] = fake.calls
    assert (name, nb, na) == ("vkCmdSetVertexInputEXT", 0, 0)
