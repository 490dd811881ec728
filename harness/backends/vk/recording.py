"""Command recording: GL draws as vkCmdDraw* calls with the same arguments, the push constants
the translated shaders read (the layer's block), the render pass of one draw with its queries and
transform feedback, and the clears, barriers and copies of the colour target.

GL draw calls map to vkCmdDraw*/vkCmdDraw*Indirect(Count) with the same arguments. A GL
multi-draw with direct arguments takes the path zink takes on the device (paths.py): one
vkCmdDrawMulti*EXT call reading native DrawIndex, or single draws each told its index through the
layer's push constant (the `draw-id` translation); an indirect multi-draw stays one call and
gets native DrawIndex. The viewport is flipped (negative height) so that winding and rows match GL.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

import vulkan as vk

from harness.backends import Skip, indirect_commands
from harness.backends.vk.device import Buffer
from harness.backends.vk.resources import ALL_STAGES, VertexBinding, color_range
from harness.backends.vk.translate import CLIP_PLANES
from harness.model import glfacts
from harness.model.case import Draw

INDEX_VK = {"UNSIGNED_BYTE": vk.VK_INDEX_TYPE_UINT8_EXT, "UNSIGNED_SHORT": vk.VK_INDEX_TYPE_UINT16,
            "UNSIGNED_INT": vk.VK_INDEX_TYPE_UINT32}

Record = Callable[[Any], object]          # records into a command buffer


@dataclass
class Flags:
    """What a draw's enables push to the layer's block: two-sided colour, the enabled clip planes
    (a bit each) and their equations."""
    two_side: int = 0
    clip_enabled: int = 0
    planes: list[tuple[float, ...]] = field(default_factory=lambda: [(0.0,) * 4] * CLIP_PLANES)


class Call(NamedTuple):
    """One Vulkan draw call of a GL draw: whether it is indexed, the draw id to push, its recorder."""
    indexed: bool
    draw_id: int
    record: Record


def enables(state: Any) -> Flags:
    """The flags of a step's enabled capabilities; Skip for one the layer cannot set."""
    flags = Flags()
    for cap in state.enable:
        if cap == "VERTEX_PROGRAM_TWO_SIDE":
            flags.two_side = 1
        elif cap.startswith(("CLIP_PLANE", "CLIP_DISTANCE")):
            flags.clip_enabled |= 1 << int(cap[-1])
        elif cap in ("CULL_FACE", "PROGRAM_POINT_SIZE", "VERTEX_PROGRAM_POINT_SIZE"):
            pass            # culling is pipeline state; Vulkan always takes the shader's point size
        else:
            raise Skip(f"GL capability {cap} is not supported by the Vulkan backend")
    for i, plane in enumerate(state.clip_planes[:CLIP_PLANES]):
        flags.planes[i] = tuple(plane)
    return flags


def push(cmd: Any, layout: Any, flags: Flags, levels: tuple[tuple[float, ...], tuple[float, ...]],
         indexed: bool, draw_id: int) -> None:
    """The layer's block (LAYER_BLOCK's std430 offsets): outer levels at 0, inner at 16, indexed
    and draw id at 24, two_side and clip_enabled at 32, the planes from 48."""
    outer, inner = levels
    data = struct.pack("<4f2f4i8x", *outer, *inner, int(indexed), draw_id, flags.two_side, flags.clip_enabled)
    data += b"".join(struct.pack("<4f", *p) for p in flags.planes)
    vk.vkCmdPushConstants(cmd, layout, ALL_STAGES, 0, len(data), vk.ffi.new("char[]", data))


def calls(draw: Draw, native: bool, buffer: Callable[[int, int, bytes], Buffer],
          ext: dict[str, Any]) -> list[Call]:
    """The Vulkan draw calls for one GL draw. `native`: the draw-id path `native` (a direct
    multi-draw is one VK_EXT_multi_draw call); `buffer(size, usage, data)` makes the case's
    indirect buffers; `ext` holds the device's extension commands."""
    command = draw.command
    indexed = command in glfacts.ELEMENTS_COMMANDS
    takes = glfacts.takes(command)
    if command in glfacts.MULTI_COMMANDS and command not in glfacts.INDIRECT_COMMANDS and native:
        return [multi_draw(draw, indexed, takes, ext)]
    if command not in glfacts.INDIRECT_COMMANDS:
        return [_direct(e, i if command in glfacts.MULTI_COMMANDS else 0, indexed, takes)
                for i, e in enumerate(draw.entries) if e.count]
    data, stride = indirect_commands(draw)
    buf = buffer(len(data), vk.VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, data)
    n, offset = len(draw.entries), draw.indirect_offset
    rec: Record
    if command.endswith("IndirectCount"):
        count = buffer(8, vk.VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, struct.pack("<2I", 0, draw.draw_count))
        counted = vk.vkCmdDrawIndexedIndirectCount if indexed else vk.vkCmdDrawIndirectCount
        rec = lambda cmd: counted(cmd, buf.handle, offset, count.handle, 4, n, stride)  # noqa: E731
    else:
        fn = vk.vkCmdDrawIndexedIndirect if indexed else vk.vkCmdDrawIndirect
        n = n if command.startswith("Multi") else 1
        rec = lambda cmd: fn(cmd, buf.handle, offset, n, stride) if n else None  # noqa: E731
    return [Call(indexed, 0, rec)]


def _direct(e: Any, draw_id: int, indexed: bool, takes: frozenset[str]) -> Call:
    n = e.instance_count if "instance_count" in takes else 1
    bi = e.base_instance if "base_instance" in takes else 0
    bv = e.base_vertex if "base_vertex" in takes else 0
    rec: Record
    if indexed:
        rec = lambda cmd: vk.vkCmdDrawIndexed(cmd, e.count, n, e.first, bv, bi)  # noqa: E731
    else:
        rec = lambda cmd: vk.vkCmdDraw(cmd, e.count, n, e.first, bi)  # noqa: E731
    return Call(indexed, draw_id, rec)


def multi_draw(draw: Draw, indexed: bool, takes: frozenset[str], ext: dict[str, Any]) -> Call:
    """The native path: one VK_EXT_multi_draw call with every entry as GL got it, zero-count
    ones included (zink hands the driver the whole list); gl_DrawID is DrawIndex. GL's
    direct multi-draws draw one instance from instance 0."""
    n = len(draw.entries)
    rec: Record
    if indexed:
        infos = vk.ffi.new("VkMultiDrawIndexedInfoEXT[]", max(n, 1))
        for info, e in zip(infos, draw.entries):
            info.firstIndex, info.indexCount = e.first, e.count
            info.vertexOffset = e.base_vertex if "base_vertex" in takes else 0
        fn, size = ext["vkCmdDrawMultiIndexedEXT"], vk.ffi.sizeof("VkMultiDrawIndexedInfoEXT")
        rec = lambda cmd: fn(cmd, n, infos, 1, 0, size, vk.ffi.NULL)  # noqa: E731  (per-entry offsets)
    else:
        infos = vk.ffi.new("VkMultiDrawInfoEXT[]", max(n, 1))
        for info, e in zip(infos, draw.entries):
            info.firstVertex, info.vertexCount = e.first, e.count
        fn, size = ext["vkCmdDrawMultiEXT"], vk.ffi.sizeof("VkMultiDrawInfoEXT")
        rec = lambda cmd: fn(cmd, n, infos, 1, 0, size)  # noqa: E731
    return Call(indexed, 0, rec)


def set_vertex_input(cmd: Any, ext: dict[str, Any], layout: tuple[VertexBinding, ...]) -> None:
    """The dynamic vertex-input path: the case's bindings and attributes, recorded before each
    draw as zink records them (zink_draw.cpp, zink_bind_vertex_buffers): the same strides,
    rates, locations, formats and offsets the static path bakes, each binding's divisor 1."""
    ffi = vk.ffi
    bindings = ffi.new("VkVertexInputBindingDescription2EXT[]", max(len(layout), 1))
    attributes = ffi.new("VkVertexInputAttributeDescription2EXT[]", max(len(layout), 1))
    for b, a, v in zip(bindings, attributes, layout):
        b.sType, b.binding, b.stride, b.inputRate, b.divisor = (
            vk.VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, v.binding, v.stride, v.rate, 1)
        a.sType, a.location, a.binding, a.format, a.offset = (
            vk.VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, v.location, v.binding, v.format, 0)
    ext["vkCmdSetVertexInputEXT"](cmd, len(layout), bindings, len(layout), attributes)


@dataclass
class DrawPass:
    """What one GL draw records: its render pass over the case's target, the pipeline and its
    inputs, the queries and transform feedback around its calls, and the copy of the target."""
    render_pass: Any
    framebuffer: Any
    size: tuple[int, int]                       # the target's width and height
    clear: float                                # the value the target is cleared to
    keep: bool                                  # a kept image (GENERAL layout, between barriers)
    pipeline: Any
    layout: Any                                 # the pipeline layout
    ext: dict[str, Any]
    calls: list[Call]
    flags: Flags
    levels: tuple[tuple[float, ...], tuple[float, ...]]    # the default outer and inner levels
    patch_vertices: int | None = None           # recorded: the patch size is dynamic state
    vertex_input: tuple[VertexBinding, ...] | None = None  # recorded: the vertex input is dynamic state
    uniform_set: Any = None
    vertex_buffers: list[Any] = field(default_factory=list)
    indices: tuple[Any, str] | None = None      # the index buffer and the GL type it is read as
    restart_index: int | None = None            # recorded (VK_EXT_primitive_restart_index) after binding it
    queries: Any = None                         # a query pool of one query
    xfb: Buffer | None = None
    image: Any = None                           # the target, copied into `copy` after the pass
    copy: Buffer | None = None


def record_draw(cmd: Any, p: DrawPass) -> None:
    if p.queries is not None:
        vk.vkCmdResetQueryPool(cmd, p.queries, 0, 1)
    if p.keep:
        full_barrier(cmd)
    _begin(cmd, p)
    if p.queries is not None:
        vk.vkCmdBeginQuery(cmd, p.queries, 0, 0)
    if p.xfb is not None:
        p.ext["vkCmdBindTransformFeedbackBuffersEXT"](cmd, 0, 1, [p.xfb.handle], [0], [p.xfb.size])
        p.ext["vkCmdBeginTransformFeedbackEXT"](cmd, 0, 0, None, None)
    for call in p.calls:
        push(cmd, p.layout, p.flags, p.levels, call.indexed, call.draw_id)
        call.record(cmd)
    if p.xfb is not None:
        p.ext["vkCmdEndTransformFeedbackEXT"](cmd, 0, 0, None, None)
    if p.queries is not None:
        vk.vkCmdEndQuery(cmd, p.queries, 0)
    vk.vkCmdEndRenderPass(cmd)
    if p.keep:
        full_barrier(cmd)
    if p.copy is not None:
        copy_image(cmd, p.image, p.keep, p.copy, p.size)


def _begin(cmd: Any, p: DrawPass) -> None:
    """The render pass begun, with the pipeline, its dynamic state and its inputs bound."""
    width, height = p.size
    clear = vk.VkClearValue(color=vk.VkClearColorValue(float32=[p.clear] * 4))
    vk.vkCmdBeginRenderPass(cmd, vk.VkRenderPassBeginInfo(
        sType=vk.VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, renderPass=p.render_pass,
        framebuffer=p.framebuffer, renderArea=vk.VkRect2D(vk.VkOffset2D(0, 0), vk.VkExtent2D(width, height)),
        clearValueCount=1, pClearValues=[clear]), vk.VK_SUBPASS_CONTENTS_INLINE)
    vk.vkCmdBindPipeline(cmd, vk.VK_PIPELINE_BIND_POINT_GRAPHICS, p.pipeline)
    if p.patch_vertices is not None:
        p.ext["vkCmdSetPatchControlPointsEXT"](cmd, p.patch_vertices)
    if p.vertex_input is not None:
        set_vertex_input(cmd, p.ext, p.vertex_input)
    if p.uniform_set is not None:
        vk.vkCmdBindDescriptorSets(cmd, vk.VK_PIPELINE_BIND_POINT_GRAPHICS, p.layout, 0, 1, [p.uniform_set], 0, None)
    # GL orientation: y up, so that winding (two-sided colour) and rows match GL.
    vk.vkCmdSetViewport(cmd, 0, 1, [vk.VkViewport(0, height, width, -height, 0.0, 1.0)])
    vk.vkCmdSetScissor(cmd, 0, 1, [vk.VkRect2D(vk.VkOffset2D(0, 0), vk.VkExtent2D(width, height))])
    if p.vertex_buffers:
        vk.vkCmdBindVertexBuffers(cmd, 0, len(p.vertex_buffers), p.vertex_buffers, [0] * len(p.vertex_buffers))
    if p.indices is not None:
        vk.vkCmdBindIndexBuffer(cmd, p.indices[0], 0, INDEX_VK[p.indices[1]])
        if p.restart_index is not None:     # "Binding an index buffer invalidates the custom index value"
            p.ext["vkCmdSetPrimitiveRestartIndexEXT"](cmd, p.restart_index)


def query_counts(device: Any, pool: Any, xfb: bool) -> tuple[int, int]:
    """(primitives generated, primitives written) of a draw's one query: the transform-feedback
    stream query gives both (written first, then needed); the primitives-generated query the
    first (written 0)."""
    flags = vk.VK_QUERY_RESULT_64_BIT | vk.VK_QUERY_RESULT_WAIT_BIT
    if not xfb:
        data = vk.ffi.new("uint64_t[1]")
        vk.vkGetQueryPoolResults(device, pool, 0, 1, 8, data, 8, flags)
        return int(data[0]), 0
    data = vk.ffi.new("uint64_t[2]")
    vk.vkGetQueryPoolResults(device, pool, 0, 1, 16, data, 16, flags)
    return int(data[1]), int(data[0])


def clear(cmd: Any, image: Any, color: tuple[float, ...], first: bool = False) -> None:
    """Clear the kept image (GENERAL layout), between barriers that order it after and
    before everything else on the queue."""
    if first:
        vk.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, vk.VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                                0, None, 0, None, 1, [vk.VkImageMemoryBarrier(
                                    sType=vk.VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, srcAccessMask=0,
                                    dstAccessMask=vk.VK_ACCESS_TRANSFER_WRITE_BIT,
                                    oldLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED, newLayout=vk.VK_IMAGE_LAYOUT_GENERAL,
                                    srcQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED,
                                    dstQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED, image=image,
                                    subresourceRange=color_range())])
    full_barrier(cmd)
    vk.vkCmdClearColorImage(cmd, image, vk.VK_IMAGE_LAYOUT_GENERAL,
                            vk.VkClearColorValue(float32=list(color)), 1, [color_range()])
    full_barrier(cmd)


def copy_image(cmd: Any, image: Any, keep: bool, copy: Buffer, size: tuple[int, int]) -> None:
    layout = vk.VK_IMAGE_LAYOUT_GENERAL if keep else vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
    vk.vkCmdCopyImageToBuffer(cmd, image, layout, copy.handle, 1, [vk.VkBufferImageCopy(
        bufferOffset=0, bufferRowLength=0, bufferImageHeight=0,
        imageSubresource=vk.VkImageSubresourceLayers(aspectMask=vk.VK_IMAGE_ASPECT_COLOR_BIT, mipLevel=0,
                                                     baseArrayLayer=0, layerCount=1),
        imageOffset=vk.VkOffset3D(0, 0, 0), imageExtent=vk.VkExtent3D(size[0], size[1], 1))])


def full_barrier(cmd: Any) -> None:
    """Everything before, made available and visible to everything after (kept images)."""
    access = vk.VK_ACCESS_MEMORY_READ_BIT | vk.VK_ACCESS_MEMORY_WRITE_BIT
    vk.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, vk.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                            [vk.VkMemoryBarrier(sType=vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER, srcAccessMask=access,
                                                dstAccessMask=access)], 0, None, 0, None)
