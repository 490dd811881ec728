"""The Vulkan objects a case draws with: those the backend keeps for every case (Shared: the
descriptor set and pipeline layouts, the render passes) and those one case makes and destroys
(CaseResources: its vertex and index buffers, its colour target, uniform descriptor sets, readback
buffers), and the readback of the colour target into GL's floats and row order."""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, cast

import numpy as np
import vulkan as vk

from harness.backends.vk import uniforms as uniform_block
from harness.backends.vk.device import Buffer, Device
from harness.backends.vk.translate import CLIP_PLANES
from harness.model import glfacts
from harness.model.case import Attribute, Case, Draw
from harness.model.glfacts import INDEX_TYPES

STAGE_BITS = {stage.key: getattr(vk, stage.vulkan_bit) for stage in glfacts.STAGES}
ALL_STAGES = sum(STAGE_BITS.values())
PUSH_SIZE = 48 + 16 * CLIP_PLANES          # the Layer block's std430 layout: planes start at 48
COLOR_FORMAT = vk.VK_FORMAT_R32G32B32A32_SFLOAT
KEPT_FORMATS = {"RGBA8": vk.VK_FORMAT_R8G8B8A8_UNORM, "RGBA32F": COLOR_FORMAT}   # Readback.keep_image targets
# An attribute's Vulkan format by its float components (1..4).
ATTRIBUTE_FORMATS = (None, vk.VK_FORMAT_R32_SFLOAT, vk.VK_FORMAT_R32G32_SFLOAT, vk.VK_FORMAT_R32G32B32_SFLOAT,
                     vk.VK_FORMAT_R32G32B32A32_SFLOAT)


class VertexBinding(NamedTuple):
    """One attribute's binding and its attribute (the layer gives each attribute a buffer of its own)."""
    binding: int
    stride: int
    rate: int                       # VK_VERTEX_INPUT_RATE_VERTEX or _INSTANCE (divisor 1)
    location: int
    format: int


def vertex_layout(attributes: tuple[Attribute, ...]) -> tuple[VertexBinding, ...]:
    """The vertex input both paths give the driver: binding i, tightly packed floats, offset 0."""
    return tuple(VertexBinding(i, 4 * a.components,
                               vk.VK_VERTEX_INPUT_RATE_INSTANCE if a.divisor else vk.VK_VERTEX_INPUT_RATE_VERTEX,
                               a.location, cast(int, ATTRIBUTE_FORMATS[a.components]))
                 for i, a in enumerate(attributes))


class Shared:
    """What every case of a backend uses: set 0, binding 0 is the uniform block (default-block
    uniforms, projection, clip planes); the push constants are the layer's block; a render pass
    that clears its target, and for shader_test images ones that keep what draws leave (LOAD) in
    the GENERAL layout."""

    def __init__(self, device: Any):
        self.set_layout = vk.vkCreateDescriptorSetLayout(device, vk.VkDescriptorSetLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, bindingCount=1,
            pBindings=[vk.VkDescriptorSetLayoutBinding(binding=0, descriptorType=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                       descriptorCount=1, stageFlags=ALL_STAGES)]), None)
        self.descriptor_pool = vk.vkCreateDescriptorPool(device, vk.VkDescriptorPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
            flags=vk.VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, maxSets=256, poolSizeCount=1,
            pPoolSizes=[vk.VkDescriptorPoolSize(type=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, descriptorCount=256)]),
            None)
        self.layout = vk.vkCreatePipelineLayout(device, vk.VkPipelineLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, setLayoutCount=1, pSetLayouts=[self.set_layout],
            pushConstantRangeCount=1,
            pPushConstantRanges=[vk.VkPushConstantRange(stageFlags=ALL_STAGES, offset=0, size=PUSH_SIZE)]), None)
        self.render_pass = render_pass(device)
        self.kept_passes = {name: render_pass(device, fmt, keep=True) for name, fmt in KEPT_FORMATS.items()}


class CaseResources:
    """One case's objects, destroyed together (`destroy`, after the device is idle), in reverse
    order of making."""

    def __init__(self, dev: Device, shared: Shared, case: Case):
        self.dev, self.shared = dev, shared
        self.destroyers: list[Callable[[], object]] = []
        self.width, self.height = case.readback.image or (1, 1)
        # A kept image (shader_test): its format, cleared once, then only by Clear steps.
        self.keep = case.readback.keep_image
        self.format_name = case.readback.image_format if self.keep else "RGBA32F"
        self.format = KEPT_FORMATS[self.format_name] if self.keep else COLOR_FORMAT
        self.render_pass = shared.kept_passes[self.format_name] if self.keep else shared.render_pass
        self.vertex_layout = vertex_layout(case.attributes)
        self.attributes = [self.buffer(0, vk.VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                       np.asarray(a.data, dtype="<f4").tobytes()) for a in case.attributes]
        self.indices: Buffer | None = None
        if case.indices:
            data = np.asarray(case.indices, dtype=INDEX_TYPES[case.index_type].dtype)
            self.indices = self.buffer(0, vk.VK_BUFFER_USAGE_INDEX_BUFFER_BIT, data.tobytes())
        self._target()

    def keep_until_done(self, destroy: Callable[[], object]) -> None:
        self.destroyers.append(destroy)

    def destroy(self) -> None:
        vk.vkDeviceWaitIdle(self.dev.device)
        for destroy in reversed(self.destroyers):
            destroy()

    def buffer(self, size: int, usage: int, data: bytes = b"") -> Buffer:
        buf = self.dev.buffer(size, usage, data)
        self.keep_until_done(buf.destroy)
        return buf

    def _target(self) -> None:
        dev = self.dev.device
        self.image = vk.vkCreateImage(dev, vk.VkImageCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, imageType=vk.VK_IMAGE_TYPE_2D, format=self.format,
            extent=vk.VkExtent3D(self.width, self.height, 1), mipLevels=1, arrayLayers=1,
            samples=vk.VK_SAMPLE_COUNT_1_BIT, tiling=vk.VK_IMAGE_TILING_OPTIMAL,
            usage=vk.VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | vk.VK_IMAGE_USAGE_TRANSFER_SRC_BIT
            | vk.VK_IMAGE_USAGE_TRANSFER_DST_BIT,
            sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE, initialLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED), None)
        req = vk.vkGetImageMemoryRequirements(dev, self.image)
        memory = vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, allocationSize=req.size,
            memoryTypeIndex=self.dev._memory_type(req.memoryTypeBits, 0)), None)
        vk.vkBindImageMemory(dev, self.image, memory, 0)
        self.keep_until_done(lambda: (vk.vkDestroyImage(dev, self.image, None), vk.vkFreeMemory(dev, memory, None)))
        view = vk.vkCreateImageView(dev, vk.VkImageViewCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, image=self.image, viewType=vk.VK_IMAGE_VIEW_TYPE_2D,
            format=self.format, subresourceRange=color_range()), None)
        self.keep_until_done(lambda: vk.vkDestroyImageView(dev, view, None))
        self.framebuffer = vk.vkCreateFramebuffer(dev, vk.VkFramebufferCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, renderPass=self.render_pass, attachmentCount=1,
            pAttachments=[view], width=self.width, height=self.height, layers=1), None)
        self.keep_until_done(lambda: vk.vkDestroyFramebuffer(dev, self.framebuffer, None))

    def uniform_set(self, uniforms: Any, values: dict[str, tuple[str, Any]], draw: Draw) -> Any:
        """The uniform block's descriptor set for a draw of a program with these uniforms (None
        where it has no block): the values set so far, the draw's projection and clip planes."""
        if not uniforms:
            return None
        state = draw.state
        planes = list(state.clip_planes) + [(0.0,) * 4] * uniform_block.CLIP_PLANES
        data = uniform_block.pack(uniforms, values, state.projection, planes)
        buf = self.buffer(len(data), vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, data)
        device, pool = self.dev.device, self.shared.descriptor_pool
        (dset,) = vk.vkAllocateDescriptorSets(device, vk.VkDescriptorSetAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, descriptorPool=pool,
            descriptorSetCount=1, pSetLayouts=[self.shared.set_layout]))
        self.keep_until_done(lambda: vk.vkFreeDescriptorSets(device, pool, 1, [dset]))
        vk.vkUpdateDescriptorSets(device, 1, [vk.VkWriteDescriptorSet(
            sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=dset, dstBinding=0, descriptorCount=1,
            descriptorType=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
            pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=buf.handle, offset=0, range=len(data))])], 0, None)
        return dset

    def query_pool(self, kind: int) -> Any:
        pool = vk.vkCreateQueryPool(self.dev.device, vk.VkQueryPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, queryType=kind, queryCount=1), None)
        self.keep_until_done(lambda: vk.vkDestroyQueryPool(self.dev.device, pool, None))
        return pool

    def image_copy(self) -> Buffer:
        """A buffer the colour target is copied into."""
        texel = 4 if self.format_name == "RGBA8" else 16
        return self.buffer(self.width * self.height * texel, vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT)

    def image_bytes(self, copy: Buffer) -> bytes:
        """The copied target as glReadPixels gives it: RGBA32F, bottom row first."""
        if self.format_name == "RGBA8":              # UNORM bytes -> the floats GL's glReadPixels gives
            rows = (np.frombuffer(copy.read(), dtype=np.uint8).astype("<f4") / 255.0).astype("<f4")
            rows = rows.reshape(self.height, self.width * 4)
        else:
            rows = np.frombuffer(copy.read(), dtype="<f4").reshape(self.height, self.width * 4)
        return rows[::-1].tobytes()                  # GL reads bottom row first


def render_pass(device: Any, fmt: int = COLOR_FORMAT, keep: bool = False) -> Any:
    """One colour attachment, copied out after the pass: RGBA32F cleared at the start (compatible
    with every family's case), or (keep) loaded and stored in the GENERAL layout."""
    general = vk.VK_IMAGE_LAYOUT_GENERAL
    attachment = vk.VkAttachmentDescription(
        format=fmt, samples=vk.VK_SAMPLE_COUNT_1_BIT,
        loadOp=vk.VK_ATTACHMENT_LOAD_OP_LOAD if keep else vk.VK_ATTACHMENT_LOAD_OP_CLEAR,
        storeOp=vk.VK_ATTACHMENT_STORE_OP_STORE, stencilLoadOp=vk.VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        stencilStoreOp=vk.VK_ATTACHMENT_STORE_OP_DONT_CARE,
        initialLayout=general if keep else vk.VK_IMAGE_LAYOUT_UNDEFINED,
        finalLayout=general if keep else vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
    subpass = vk.VkSubpassDescription(
        pipelineBindPoint=vk.VK_PIPELINE_BIND_POINT_GRAPHICS, colorAttachmentCount=1,
        pColorAttachments=[vk.VkAttachmentReference(
            attachment=0, layout=general if keep else vk.VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)])
    return vk.vkCreateRenderPass(device, vk.VkRenderPassCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, attachmentCount=1, pAttachments=[attachment],
        subpassCount=1, pSubpasses=[subpass]), None)


def color_range() -> Any:
    return vk.VkImageSubresourceRange(aspectMask=vk.VK_IMAGE_ASPECT_COLOR_BIT, baseMipLevel=0, levelCount=1,
                                      baseArrayLayer=0, layerCount=1)
