"""Runs a Case through Vulkan with the layer's translations, reading back what the GL runner does.

GL draw calls map to vkCmdDraw*/vkCmdDraw*Indirect(Count) with the same arguments. A GL
multi-draw with direct arguments takes the path zink takes on the device (paths.py): one
vkCmdDrawMulti*EXT call reading native DrawIndex, or single draws each told its index through the
layer's push constant (the `draw-id` translation); an indirect multi-draw stays one call and
gets native DrawIndex. The vertex input (bindings and attributes) is, as zink's on the device,
either recorded per draw (vkCmdSetVertexInputEXT) or baked into the pipeline (paths.py). The viewport is flipped (negative height) so that winding and rows match
GL, and image rows are put back into GL's bottom-up order.
"""
from __future__ import annotations

import struct
import traceback
from collections import OrderedDict
from typing import NamedTuple

import numpy as np
import vulkan as vk

from harness.backends import BackendError, DeviceLost, Skip, check_requirements, indirect_commands, readback_bytes
from harness.backends.vk import paths, spirv
from harness.base.errors import LayerFault
from harness.backends.vk import uniforms as uniform_block
from harness.backends.vk.device import Device
from harness.backends.vk.tcs import passthrough_tcs
from harness.backends.vk.translate import CLIP_PLANES, TRANSLATIONS, Program, locations_used, translate
from harness.model import glfacts
from harness.model.case import (CallList, Case, Clear, DeleteList, Dispatch, Draw, Link, NewList, Read, SetState,
                           step_label, step_state)
from harness.model.glfacts import INDEX_TYPES
from harness.model.observation import encode_records, record_dtype

# patchControlPoints of a pipeline whose patch size is dynamic state (the size it is drawn with is
# recorded), as zink's pipeline libraries write it (zink_pipeline.c): a driver that read it would be wrong.
PATCH_SIZE_IGNORED = 32
STAGE_BITS = {stage.key: getattr(vk, stage.vulkan_bit) for stage in glfacts.STAGES}
TOPOLOGY = {"POINTS": vk.VK_PRIMITIVE_TOPOLOGY_POINT_LIST, "LINES": vk.VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
            "TRIANGLES": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "PATCHES": vk.VK_PRIMITIVE_TOPOLOGY_PATCH_LIST,
            "LINE_STRIP": vk.VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, "TRIANGLE_STRIP": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
            "TRIANGLE_FAN": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
            "LINES_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY,
            "LINE_STRIP_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
            "TRIANGLES_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY,
            "TRIANGLE_STRIP_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY}
POLYGON_MODE = {"": vk.VK_POLYGON_MODE_FILL, "LINE": vk.VK_POLYGON_MODE_LINE, "POINT": vk.VK_POLYGON_MODE_POINT}
INDEX_VK = {"UNSIGNED_BYTE": vk.VK_INDEX_TYPE_UINT8_EXT, "UNSIGNED_SHORT": vk.VK_INDEX_TYPE_UINT16,
            "UNSIGNED_INT": vk.VK_INDEX_TYPE_UINT32}
XFB_VERTICES = {"POINTS": 1, "LINES": 2, "TRIANGLES": 3}
PUSH_SIZE = 48 + 16 * CLIP_PLANES          # the Layer block's std430 layout: planes start at 48
ALL_STAGES = sum(STAGE_BITS.values())
CACHED = 32                                 # pipelines and shader modules kept between cases
COLOR_FORMAT = vk.VK_FORMAT_R32G32B32A32_SFLOAT
KEPT_FORMATS = {"RGBA8": vk.VK_FORMAT_R8G8B8A8_UNORM, "RGBA32F": COLOR_FORMAT}   # Readback.keep_image targets
# An attribute's Vulkan format by its float components (1..4).
ATTRIBUTE_FORMATS = (None, vk.VK_FORMAT_R32_SFLOAT, vk.VK_FORMAT_R32G32_SFLOAT, vk.VK_FORMAT_R32G32B32_SFLOAT,
                     vk.VK_FORMAT_R32G32B32A32_SFLOAT)
# GL_ARB_shader_draw_parameters and GL_ARB_base_instance only where the device has
# shaderDrawParameters, as zink (zink_screen.c: start_instance = draw_parameters =
# shaderDrawParameters || VK_KHR_shader_draw_parameters); the builtins below need its SPIR-V
# capability (gl_InstanceID is translated to gl_InstanceIndex - gl_BaseInstance).
DRAW_PARAMETERS = ("gl_BaseVertex", "gl_BaseInstance", "gl_DrawID", "gl_InstanceID")
GL_EXTENSIONS = ("GL_ARB_draw_indirect",
                 "GL_ARB_multi_draw_indirect", "GL_ARB_enhanced_layouts", "GL_ARB_separate_shader_objects",
                 "GL_ARB_compatibility", "GL_ARB_tessellation_shader")


def uses_draw_parameters(case: Case) -> bool:
    """Whether a stage names a builtin the layer reads through SPIR-V's DrawParameters capability."""
    return any(name in source for shaders in (case.shaders,) + case.programs for _, source in shaders
               for name in DRAW_PARAMETERS)


class VKBackend:
    def __init__(self, without: frozenset[str] = frozenset(), validation: bool = False, path: str = "auto",
                 patch_path: str = "auto", vertex_input: str = "auto", point_size: str = "auto"):
        unknown = set(without) - set(TRANSLATIONS)
        if unknown:
            raise BackendError(f"unknown translation(s) {sorted(unknown)}; known: {', '.join(TRANSLATIONS)}")
        self.without = frozenset(without)
        self.dev = Device(validation)
        try:
            self.path = paths.choose(path, self.dev.has("multi_draw"), self.dev.has("shader_draw_parameters"))
            self.patch_path = paths.choose_patch_size(patch_path, self.dev.has("patch_control_points_dynamic"))
            self.vertex_input = paths.choose_vertex_input(vertex_input, self.dev.has("vertex_input_dynamic"),
                                                          self.dev.has("extended_dynamic_state2"))
            self.point_size = paths.choose_point_size(point_size, self.dev.has("maintenance5"))
        except paths.PathError as exc:
            raise BackendError(str(exc)) from None
        # (stage, source) -> VkShaderModule and pipeline key -> VkPipeline, least recently used
        # first; trimmed between cases (see _trim), as a driver's compiled code adds up.
        self.modules: OrderedDict[tuple[str, str], object] = OrderedDict()
        # Set 0, binding 0: the uniform block (default-block uniforms, projection, clip planes).
        self.set_layout = vk.vkCreateDescriptorSetLayout(self.dev.device, vk.VkDescriptorSetLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, bindingCount=1,
            pBindings=[vk.VkDescriptorSetLayoutBinding(binding=0, descriptorType=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                       descriptorCount=1, stageFlags=ALL_STAGES)]), None)
        self.descriptor_pool = vk.vkCreateDescriptorPool(self.dev.device, vk.VkDescriptorPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
            flags=vk.VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, maxSets=256, poolSizeCount=1,
            pPoolSizes=[vk.VkDescriptorPoolSize(type=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, descriptorCount=256)]),
            None)
        self.layout = vk.vkCreatePipelineLayout(self.dev.device, vk.VkPipelineLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, setLayoutCount=1, pSetLayouts=[self.set_layout],
            pushConstantRangeCount=1,
            pPushConstantRanges=[vk.VkPushConstantRange(stageFlags=ALL_STAGES, offset=0, size=PUSH_SIZE)]), None)
        self.render_pass = _render_pass(self.dev.device)
        # shader_test images keep what draws leave (LOAD) and live in the GENERAL layout.
        self.kept_passes = {name: _render_pass(self.dev.device, fmt, keep=True) for name, fmt in KEPT_FORMATS.items()}
        self.pipelines: OrderedDict[tuple, object] = OrderedDict()
        self.facts = self._facts()

    # -- what this "GL" offers -------------------------------------------------------------

    @classmethod
    def from_options(cls, options) -> "VKBackend":
        chosen = options.vk_paths
        return cls(frozenset(options.vk_without), options.vk_validation, chosen.multi_draw, chosen.patch_size,
                   chosen.vertex_input, chosen.point_size)

    def _facts(self) -> dict:
        d, lim = self.dev, self.dev.limits
        p = d.properties
        api = f"{p.apiVersion >> 22}.{(p.apiVersion >> 12) & 0x3FF}"
        extensions = list(GL_EXTENSIONS)
        if d.has("draw_indirect_count"):
            extensions.append("GL_ARB_indirect_parameters")
        if d.has("fp64"):
            extensions.append("GL_ARB_gpu_shader_fp64")
        if d.has("shader_draw_parameters"):
            extensions += ["GL_ARB_shader_draw_parameters", "GL_ARB_base_instance"]
        # Vulkan counts the gl_PerVertex block (position, point size, clip and cull distance)
        # against the stages' limits; GL does not count builtins, so keep room for them.
        per_vertex = 8
        varying = min(lim.maxVertexOutputComponents - per_vertex, lim.maxFragmentInputComponents)
        limits = {
            "GL_MAX_VARYING_COMPONENTS": varying, "GL_MAX_VERTEX_OUTPUT_COMPONENTS": lim.maxVertexOutputComponents,
            "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS": lim.maxTessellationControlPerVertexInputComponents - per_vertex,
            "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS": lim.maxTessellationControlPerVertexOutputComponents - per_vertex,
            "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS": lim.maxTessellationEvaluationInputComponents - per_vertex,
            "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS": lim.maxTessellationEvaluationOutputComponents,
            "GL_MAX_GEOMETRY_INPUT_COMPONENTS": lim.maxGeometryInputComponents - per_vertex,
            "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS": lim.maxGeometryOutputComponents,
            "GL_MAX_FRAGMENT_INPUT_COMPONENTS": lim.maxFragmentInputComponents,
            "GL_MAX_PATCH_VERTICES": lim.maxTessellationPatchSize,
            "GL_MAX_TESS_GEN_LEVEL": lim.maxTessellationGenerationLevel,
            "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS": 64,
            "GL_MAX_CLIP_DISTANCES": lim.maxClipDistances, "GL_MAX_VERTEX_ATTRIBS": lim.maxVertexInputAttributes,
            "GL_MAX_TEXTURE_COORDS": 8, "GL_MAX_GEOMETRY_OUTPUT_VERTICES": lim.maxGeometryOutputVertices,
        }
        return {"renderer": f"harness Vulkan layer on {p.deviceName} (Vulkan {api})",
                "vendor": "gl-layer-harness", "version": f"4.6 (harness Vulkan layer, Vulkan {api})",
                "driver_info": d.driver_info,
                "version_number": [4, 6], "glsl_version": "4.60", "limits": limits,
                "extensions": sorted(extensions)}

    def info(self) -> dict:
        facts = {k: v for k, v in self.facts.items() if k != "extensions"}
        without = ", ".join(sorted(self.without)) or "none"
        return {"renderer": facts["renderer"], "vendor": facts["vendor"], "version": facts["version"],
                "driver_info": facts["driver_info"], "vk_path": self.path.path, "vk_patch_path": self.patch_path.path,
                "vk_vertex_input": self.vertex_input.path, "vk_point_size": self.point_size.path,
                "platform": f"Vulkan, {self.path.describe()}, {self.patch_path.describe()}, "
                            f"{self.vertex_input.describe()}, {self.point_size.describe()}, "
                            f"translations switched off: {without}",
                "profiles": {"core": facts, "compat": facts}}

    # -- running a case -----------------------------------------------------------------------
    def run(self, case: Case) -> dict:
        check_requirements(case, self.facts)
        self._check_features(case)
        self.dev.validation_messages.clear()
        self._trim()
        when = "before the first step"
        try:
            run = _CaseRun(self, case)
            try:
                observation: dict = {"steps": []}
                for n, step in enumerate(case.steps):
                    when = f"during step {n}: {step_label(case.steps, n)}"
                    observation["steps"].append(run.step(step))
                when = "after the last step"
            except vk.VkErrorDeviceLost:
                raise
            except vk.VkError as exc:
                raise BackendError(f"Vulkan error {type(exc).__name__} while running the case") from None
            finally:
                run.destroy()               # waits for the device: on a lost one, reports it again
        except vk.VkErrorDeviceLost as exc:     # the driver's failure, wherever the device reports it
            raise DeviceLost(f"Vulkan device lost (VK_ERROR_DEVICE_LOST) in {_failed_call(exc)} {when}") from None
        if self.dev.validation_messages:
            raise LayerFault("Vulkan validation error(s) in its own calls:\n" + "\n".join(self.dev.validation_messages[:5]))
        return observation

    def _check_features(self, case: Case) -> None:
        if case.readback.atomic_counters:
            raise Skip("the Vulkan backend does not support atomic counters")
        if case.readback.gl_error:
            raise Skip("the Vulkan backend does not make GL's error checks, so it cannot report a GL error")
        if any(isinstance(s, (NewList, CallList, DeleteList)) for s in case.steps):
            raise Skip("display lists (glNewList/glCallList) are not supported by the Vulkan backend")
        states = [step_state(s) for s in case.steps]
        if any(u.stage or u.name[:1].isdigit() for state in states for u in state.uniforms):
            raise Skip("uniforms set by location or on a separable program through glActiveShaderProgram "
                       "are not supported by the Vulkan backend")
        if any("vs" not in dict(shaders) for shaders in (case.shaders,) + case.programs):
            raise Skip("the Vulkan backend has no fixed-function vertex stage (a program without a vertex shader)")
        if any(a.array for a in case.attributes):
            raise Skip("the Vulkan backend has no fixed-function vertex arrays (texture coordinates "
                       "through glTexCoordPointer)")
        if any(a.divisor > 1 for a in case.attributes):
            raise Skip("the Vulkan backend supports attribute divisors 0 and 1 only")
        if any(t.target != "2D" for state in states for t in state.textures):
            raise Skip("the Vulkan backend makes no 1D or 3D textures")
        needs = []
        stages = dict(case.shaders)
        reads = [s for s in case.steps if isinstance(s, Read)]
        if "cs" in stages or any(isinstance(s, Dispatch) for s in case.steps) or any(r.storage for r in reads) \
                or any(state.storage_buffers for state in states):
            raise Skip("the Vulkan backend runs no compute shaders or shader storage buffers")
        if any(r.queries for r in reads):
            raise Skip("the Vulkan backend has no GL program introspection (active uniform, "
                       "program_interface_query)")
        if case.readback.captures:
            needs.append("transform_feedback")
        if "tes" in stages:
            needs.append("tessellation")
        if uses_draw_parameters(case):
            needs.append("shader_draw_parameters")        # the SPIR-V DrawParameters capability
        if "gs" in stages:
            needs.append("geometry")
        draws = case.draws()
        if case.index_type == "UNSIGNED_BYTE" and any(d.command in glfacts.ELEMENTS_COMMANDS for d in draws):
            needs.append("uint8_indices")
        if any(d.restart_index is not None for d in draws):
            needs.append("patch_restart" if any(d.mode == "PATCHES" for d in draws) else "list_restart")
        if any(d.command.endswith("IndirectCount") for d in draws):
            needs.append("draw_indirect_count")
        if any(d.command.startswith("Multi") and "Indirect" in d.command for d in draws):
            needs.append("multi_draw_indirect")
        missing = [n for n in needs if not self.dev.has(n)]
        if missing:
            raise Skip(f"the Vulkan device lacks {', '.join(missing)}")

    def _trim(self) -> None:
        """Between cases (nothing of an earlier case is in flight): destroy the least recently
        used pipelines and shader modules over CACHED. Cases that share a program come close
        together, so a few dozen keep nearly every hit; unbounded, lavapipe's children grew to
        2 GiB each over the suite."""
        device = self.dev.device
        for cache, destroy in ((self.pipelines, vk.vkDestroyPipeline), (self.modules, vk.vkDestroyShaderModule)):
            while len(cache) > CACHED:
                destroy(device, cache.popitem(last=False)[1], None)

    def module(self, stage: str, source: str):
        key = (stage, source)
        if key in self.modules:
            self.modules.move_to_end(key)
        else:
            code = spirv.compile_glsl(stage, source)        # glslang refusing it: a LayerFault
            self.modules[key] = vk.vkCreateShaderModule(self.dev.device, vk.VkShaderModuleCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, codeSize=len(code), pCode=code), None)
        return self.modules[key]


class _CaseRun:
    """The resources of one case, and its steps in order (GL state carried from step to step)."""

    def __init__(self, backend: VKBackend, case: Case):
        self.b, self.case, self.dev = backend, case, backend.dev
        self.destroyers = []
        # Every program of the case, translated up front (GL links them all before the first
        # draw); deleting one in GL leaves the others, and their pipelines, untouched.
        self.programs = [Program(dict(shaders), backend.without,
                                 captures=tuple((c.varying, c.type) for c in case.readback.captures),
                                 attributes={a.name: a.location for a in case.attributes if a.name},
                                 separable=case.separable, fixed_function_fs=bool(case.readback.image),
                                 native_draw_id=backend.path.path == "native",
                                 point_size_written=backend.point_size.path == "written")
                         for shaders in (case.shaders,) + case.programs]
        self.translated = [translate(program) for program in self.programs]
        for program in self.programs:
            self._check_link(program, backend.facts["limits"])
        self.patch_vertices, self.outer, self.inner = 3, (1.0,) * 4, (1.0, 1.0)
        self.width, self.height = case.readback.image or (1, 1)
        # A kept image (shader_test): its format, cleared once, then only by Clear steps.
        self.keep = case.readback.keep_image
        self.format_name = case.readback.image_format if self.keep else "RGBA32F"
        self.format = KEPT_FORMATS[self.format_name] if self.keep else COLOR_FORMAT
        self.render_pass = self.b.kept_passes[self.format_name] if self.keep else self.b.render_pass
        self.uniform_values: dict[str, tuple] = {}             # glUniform* values set so far
        self._vertex_buffers()
        self._target()
        if self.keep:
            self.dev.one_shot(lambda cmd: self._clear(cmd, (0.0, 0.0, 0.0, 0.0), first=True))

    def _check_link(self, program: Program, limits: dict) -> None:
        """The GL link-time limit: varyings (the layer's legacy slots included) must fit."""
        used = 4 * locations_used(program)
        if used > limits["GL_MAX_VARYING_COMPONENTS"]:
            why = f"{used} varying components, GL_MAX_VARYING_COMPONENTS is {limits['GL_MAX_VARYING_COMPONENTS']}"
            if self.case.requires.link_failure_allowed:
                raise Skip(f"{self.case.requires.link_failure_allowed}; the program did not link: {why}")
            raise BackendError(f"program failed to link: {why}")

    def _keep(self, destroy):
        self.destroyers.append(destroy)

    def destroy(self) -> None:
        vk.vkDeviceWaitIdle(self.dev.device)
        for destroy in reversed(self.destroyers):
            destroy()

    def _buffer(self, size: int, usage: int, data: bytes = b""):
        buf = self.dev.buffer(size, usage, data)
        self._keep(buf.destroy)
        return buf

    def _vertex_buffers(self) -> None:
        case = self.case
        self.vertex_layout = vertex_layout(case.attributes)
        self.attributes = [self._buffer(0, vk.VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                        np.asarray(a.data, dtype="<f4").tobytes()) for a in case.attributes]
        self.indices = None
        if case.indices:
            data = np.asarray(case.indices, dtype=INDEX_TYPES[case.index_type].dtype)
            self.indices = self._buffer(0, vk.VK_BUFFER_USAGE_INDEX_BUFFER_BIT, data.tobytes())

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
        self._keep(lambda: (vk.vkDestroyImage(dev, self.image, None), vk.vkFreeMemory(dev, memory, None)))
        view = vk.vkCreateImageView(dev, vk.VkImageViewCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, image=self.image, viewType=vk.VK_IMAGE_VIEW_TYPE_2D,
            format=self.format, subresourceRange=_color_range()), None)
        self._keep(lambda: vk.vkDestroyImageView(dev, view, None))
        self.framebuffer = vk.vkCreateFramebuffer(dev, vk.VkFramebufferCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, renderPass=self.render_pass, attachmentCount=1,
            pAttachments=[view], width=self.width, height=self.height, layers=1), None)
        self._keep(lambda: vk.vkDestroyFramebuffer(dev, self.framebuffer, None))

    def _clear(self, cmd, color, first: bool = False) -> None:
        """Clear the kept image (GENERAL layout), between barriers that order it after and
        before everything else on the queue."""
        if first:
            vk.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, vk.VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                                    0, None, 0, None, 1, [vk.VkImageMemoryBarrier(
                                        sType=vk.VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, srcAccessMask=0,
                                        dstAccessMask=vk.VK_ACCESS_TRANSFER_WRITE_BIT,
                                        oldLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED, newLayout=vk.VK_IMAGE_LAYOUT_GENERAL,
                                        srcQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED,
                                        dstQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED, image=self.image,
                                        subresourceRange=_color_range())])
        _full_barrier(cmd)
        vk.vkCmdClearColorImage(cmd, self.image, vk.VK_IMAGE_LAYOUT_GENERAL,
                                vk.VkClearColorValue(float32=list(color)), 1, [_color_range()])
        _full_barrier(cmd)

    def _set_state(self, state) -> None:
        """The state a step sets that outlives it: patch parameters and uniform values."""
        self.patch_vertices = state.patch_vertices or self.patch_vertices
        self.outer = state.default_outer or self.outer
        self.inner = state.default_inner or self.inner
        for uniform in state.uniforms:
            self.uniform_values[uniform.name] = (uniform.type, uniform.values)

    def _uniform_set(self, draw: Draw):
        """The uniform block's descriptor set for this draw (None where the program has no block)."""
        program = self.programs[draw.program]
        if not program.uniforms:
            return None
        state = draw.state
        planes = list(state.clip_planes) + [(0.0,) * 4] * uniform_block.CLIP_PLANES
        data = uniform_block.pack(program.uniforms, self.uniform_values, state.projection, planes)
        buf = self._buffer(len(data), vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, data)
        (dset,) = vk.vkAllocateDescriptorSets(self.dev.device, vk.VkDescriptorSetAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, descriptorPool=self.b.descriptor_pool,
            descriptorSetCount=1, pSetLayouts=[self.b.set_layout]))
        self._keep(lambda: vk.vkFreeDescriptorSets(self.dev.device, self.b.descriptor_pool, 1, [dset]))
        vk.vkUpdateDescriptorSets(self.dev.device, 1, [vk.VkWriteDescriptorSet(
            sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=dset, dstBinding=0, descriptorCount=1,
            descriptorType=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
            pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=buf.handle, offset=0, range=len(data))])], 0, None)
        return dset

    # -- pipelines ---------------------------------------------------------------------------
    def _dynamic_vertex_input(self) -> bool:
        return self.b.vertex_input.path == "dynamic"

    def _set_vertex_input(self, cmd) -> None:
        """The dynamic vertex-input path: the case's bindings and attributes, recorded before each
        draw as zink records them (zink_draw.cpp, zink_bind_vertex_buffers): the same strides,
        rates, locations, formats and offsets the static path bakes, each binding's divisor 1."""
        ffi = vk.ffi
        layout = self.vertex_layout
        bindings = ffi.new("VkVertexInputBindingDescription2EXT[]", max(len(layout), 1))
        attributes = ffi.new("VkVertexInputAttributeDescription2EXT[]", max(len(layout), 1))
        for b, a, v in zip(bindings, attributes, layout):
            b.sType, b.binding, b.stride, b.inputRate, b.divisor = (
                vk.VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, v.binding, v.stride, v.rate, 1)
            a.sType, a.location, a.binding, a.format, a.offset = (
                vk.VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, v.location, v.binding, v.format, 0)
        self.dev.ext["vkCmdSetVertexInputEXT"](cmd, len(layout), bindings, len(layout), attributes)

    def _dynamic_patch(self, draw: Draw) -> bool:
        """The draw's patch size is dynamic state (the patch-size path `dynamic`, a program with a TES)."""
        return self.b.patch_path.path == "dynamic" and "tes" in self.translated[draw.program]

    def _pipeline(self, draw: Draw):
        """Pipelines are immutable and kept across cases, keyed by everything that makes them."""
        stages = dict(self.translated[draw.program])
        if "tes" in stages and "tcs" not in stages:
            stages["tcs"] = passthrough_tcs(stages["vs"], self.patch_vertices,
                                            faithful="passthrough-tcs" not in self.b.without)
        if draw.mode not in TOPOLOGY:
            raise Skip(f"the Vulkan backend has no primitive topology for GL_{draw.mode}")
        state = draw.state
        raster = (state.polygon_mode, state.front_face, "CULL_FACE" in state.enable)
        if raster[0] and not self.dev.features.features.fillModeNonSolid:
            raise Skip("the Vulkan device lacks fillModeNonSolid (polygon mode LINE/POINT)")
        # The patch-size path (paths.py): dynamic, the size is recorded per draw and a program with a
        # TCS has one pipeline for every size (a TCS-less one differs in its injected TCS anyway).
        dynamic_patch = self._dynamic_patch(draw)
        # The vertex-input path: dynamic, one pipeline for every vertex layout (recorded per draw).
        dynamic_input = self._dynamic_vertex_input()
        key = (tuple(sorted(stages.items())), draw.mode, draw.restart_index is not None,
               None if dynamic_patch else self.patch_vertices,
               None if dynamic_input else self.vertex_layout,
               bool(self.case.readback.captures), self.format, raster)
        if key in self.b.pipelines:
            self.b.pipelines.move_to_end(key)
            return self.b.pipelines[key]
        infos = [vk.VkPipelineShaderStageCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, stage=STAGE_BITS[s],
            module=self.b.module(s, src), pName="main") for s, src in stages.items()]
        bindings, attributes = [], []
        if not dynamic_input:       # dynamic: an empty vertex input state, as zink's (zink_pipeline.c)
            for v in self.vertex_layout:
                bindings.append(vk.VkVertexInputBindingDescription(binding=v.binding, stride=v.stride,
                                                                   inputRate=v.rate))
                attributes.append(vk.VkVertexInputAttributeDescription(location=v.location, binding=v.binding,
                                                                       format=v.format, offset=0))
        captures = bool(self.case.readback.captures)
        dynamic = [vk.VK_DYNAMIC_STATE_VIEWPORT, vk.VK_DYNAMIC_STATE_SCISSOR]
        if dynamic_input:
            dynamic.append(vk.VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)
        if dynamic_patch:
            dynamic.append(vk.VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT)
        info = vk.VkGraphicsPipelineCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, stageCount=len(infos), pStages=infos,
            pVertexInputState=vk.VkPipelineVertexInputStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                vertexBindingDescriptionCount=len(bindings), pVertexBindingDescriptions=bindings or None,
                vertexAttributeDescriptionCount=len(attributes), pVertexAttributeDescriptions=attributes or None),
            pInputAssemblyState=vk.VkPipelineInputAssemblyStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, topology=TOPOLOGY[draw.mode],
                primitiveRestartEnable=draw.restart_index is not None),
            pTessellationState=vk.VkPipelineTessellationStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
                # GL's tessellation domain has its origin lower-left; Vulkan's default is
                # upper-left, which would swap cw and ccw.
                pNext=vk.VkPipelineTessellationDomainOriginStateCreateInfo(
                    sType=vk.VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO,
                    domainOrigin=vk.VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT),
                # dynamic: ignored; zink's pipeline libraries write 32 there, so does the layer
                patchControlPoints=PATCH_SIZE_IGNORED if dynamic_patch else self.patch_vertices)
            if "tes" in stages else None,
            pViewportState=vk.VkPipelineViewportStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, viewportCount=1, scissorCount=1),
            pRasterizationState=vk.VkPipelineRasterizationStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                rasterizerDiscardEnable=captures, polygonMode=POLYGON_MODE[raster[0]],
                cullMode=vk.VK_CULL_MODE_BACK_BIT if raster[2] else vk.VK_CULL_MODE_NONE,
                frontFace=vk.VK_FRONT_FACE_CLOCKWISE if raster[1] == "CW" else vk.VK_FRONT_FACE_COUNTER_CLOCKWISE,
                lineWidth=1.0),
            pMultisampleState=vk.VkPipelineMultisampleStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                rasterizationSamples=vk.VK_SAMPLE_COUNT_1_BIT),
            pColorBlendState=vk.VkPipelineColorBlendStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, attachmentCount=1,
                pAttachments=[vk.VkPipelineColorBlendAttachmentState(blendEnable=False, colorWriteMask=0xF)]),
            pDynamicState=vk.VkPipelineDynamicStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, dynamicStateCount=len(dynamic),
                pDynamicStates=dynamic),
            layout=self.b.layout, renderPass=self.render_pass, subpass=0)
        try:
            pipeline = vk.vkCreateGraphicsPipelines(self.dev.device, None, 1, [info], None)[0]
        except vk.VkError as exc:
            raise BackendError(f"vkCreateGraphicsPipelines failed: {type(exc).__name__}") from None
        self.b.pipelines[key] = pipeline
        return pipeline

    # -- one step ------------------------------------------------------------------------------
    def step(self, step) -> dict:
        """Run one step (the list, compute and query steps were refused by _check_features)."""
        if isinstance(step, Link):                      # no GL link-time checks here: no link_failed
            return {"counts": {}}
        if isinstance(step, Clear):
            self.dev.one_shot(lambda cmd: self._clear(cmd, step.color))
            return {"counts": {}}
        if isinstance(step, SetState):
            self._enables(step.state)                   # refuses what it cannot set
            self._set_state(step.state)
            return {"counts": {}}
        if isinstance(step, Read) and not step.image:   # the rest of a Read was refused
            return {"counts": {}}
        if isinstance(step, Read):
            copy = self._image_copy()

            def record(cmd):
                _full_barrier(cmd)
                self._copy_image(cmd, copy)
            self.dev.one_shot(record)
            return {"counts": {}, "image": self._decode_image(copy)}
        return self.draw(step)

    def _image_copy(self):
        texel = 4 if self.format_name == "RGBA8" else 16
        return self._buffer(self.width * self.height * texel, vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT)

    def _copy_image(self, cmd, copy) -> None:
        layout = vk.VK_IMAGE_LAYOUT_GENERAL if self.keep else vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
        vk.vkCmdCopyImageToBuffer(cmd, self.image, layout, copy.handle, 1, [vk.VkBufferImageCopy(
            bufferOffset=0, bufferRowLength=0, bufferImageHeight=0,
            imageSubresource=vk.VkImageSubresourceLayers(aspectMask=vk.VK_IMAGE_ASPECT_COLOR_BIT, mipLevel=0,
                                                         baseArrayLayer=0, layerCount=1),
            imageOffset=vk.VkOffset3D(0, 0, 0), imageExtent=vk.VkExtent3D(self.width, self.height, 1))])

    def _decode_image(self, copy) -> str:
        if self.format_name == "RGBA8":              # UNORM bytes -> the floats GL's glReadPixels gives
            rows = (np.frombuffer(copy.read(), dtype=np.uint8).astype("<f4") / 255.0).astype("<f4")
            rows = rows.reshape(self.height, self.width * 4)
        else:
            rows = np.frombuffer(copy.read(), dtype="<f4").reshape(self.height, self.width * 4)
        return encode_records(rows[::-1].tobytes())      # GL reads bottom row first

    def draw(self, draw: Draw) -> dict:
        case, state = self.case, draw.state
        self._set_state(state)
        flags = self._enables(state)
        pipeline = self._pipeline(draw)
        dynamic_patch = self._dynamic_patch(draw)
        uniform_set = self._uniform_set(draw)
        readback = case.readback
        stride = record_dtype(readback.captures).itemsize
        xfb = self._buffer(stride * readback.max_records, vk.VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT) \
            if readback.captures else None
        image_copy = self._image_copy() if readback.image and not self.keep else None
        queries = None
        if xfb is not None or self.dev.has("primitives_generated"):
            # xfb: the stream query gives primitives written and needed (generated); without
            # xfb, VK_EXT_primitives_generated_query gives GL's GL_PRIMITIVES_GENERATED.
            kind = vk.VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT if xfb is not None \
                else vk.VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT
            queries = vk.vkCreateQueryPool(self.dev.device, vk.VkQueryPoolCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, queryType=kind, queryCount=1), None)
            self._keep(lambda: vk.vkDestroyQueryPool(self.dev.device, queries, None))
        calls = self._calls(draw)

        def record(cmd):
            if queries is not None:
                vk.vkCmdResetQueryPool(cmd, queries, 0, 1)
            if self.keep:
                _full_barrier(cmd)
            clear = vk.VkClearValue(color=vk.VkClearColorValue(float32=[readback.clear] * 4))
            vk.vkCmdBeginRenderPass(cmd, vk.VkRenderPassBeginInfo(
                sType=vk.VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, renderPass=self.render_pass,
                framebuffer=self.framebuffer, renderArea=vk.VkRect2D(vk.VkOffset2D(0, 0),
                                                                     vk.VkExtent2D(self.width, self.height)),
                clearValueCount=1, pClearValues=[clear]), vk.VK_SUBPASS_CONTENTS_INLINE)
            vk.vkCmdBindPipeline(cmd, vk.VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline)
            if dynamic_patch:
                self.dev.ext["vkCmdSetPatchControlPointsEXT"](cmd, self.patch_vertices)
            if self._dynamic_vertex_input():
                self._set_vertex_input(cmd)
            if uniform_set is not None:
                vk.vkCmdBindDescriptorSets(cmd, vk.VK_PIPELINE_BIND_POINT_GRAPHICS, self.b.layout, 0, 1,
                                           [uniform_set], 0, None)
            # GL orientation: y up, so that winding (two-sided colour) and rows match GL.
            vk.vkCmdSetViewport(cmd, 0, 1, [vk.VkViewport(0, self.height, self.width, -self.height, 0.0, 1.0)])
            vk.vkCmdSetScissor(cmd, 0, 1, [vk.VkRect2D(vk.VkOffset2D(0, 0), vk.VkExtent2D(self.width, self.height))])
            if self.attributes:
                vk.vkCmdBindVertexBuffers(cmd, 0, len(self.attributes), [b.handle for b in self.attributes],
                                          [0] * len(self.attributes))
            if self.indices is not None:
                vk.vkCmdBindIndexBuffer(cmd, self.indices.handle, 0, INDEX_VK[case.index_type])
            if queries is not None:
                vk.vkCmdBeginQuery(cmd, queries, 0, 0)
            if xfb is not None:
                self.dev.ext["vkCmdBindTransformFeedbackBuffersEXT"](cmd, 0, 1, [xfb.handle], [0], [xfb.size])
                self.dev.ext["vkCmdBeginTransformFeedbackEXT"](cmd, 0, 0, None, None)
            for call in calls:
                self._push(cmd, flags, call["indexed"], call["draw_id"])
                call["record"](cmd)
            if xfb is not None:
                self.dev.ext["vkCmdEndTransformFeedbackEXT"](cmd, 0, 0, None, None)
            if queries is not None:
                vk.vkCmdEndQuery(cmd, queries, 0)
            vk.vkCmdEndRenderPass(cmd)
            if self.keep:
                _full_barrier(cmd)
            if image_copy is not None:
                self._copy_image(cmd, image_copy)

        self.dev.one_shot(record)
        result = {"counts": {}}
        if queries is not None and xfb is None:
            data = vk.ffi.new("uint64_t[1]")
            vk.vkGetQueryPoolResults(self.dev.device, queries, 0, 1, 8, data, 8,
                                     vk.VK_QUERY_RESULT_64_BIT | vk.VK_QUERY_RESULT_WAIT_BIT)
            result["counts"] = {"primitives_generated": int(data[0])}
        if xfb is not None:
            data = vk.ffi.new("uint64_t[2]")
            vk.vkGetQueryPoolResults(self.dev.device, queries, 0, 1, 16, data, 16,
                                     vk.VK_QUERY_RESULT_64_BIT | vk.VK_QUERY_RESULT_WAIT_BIT)
            written, needed = int(data[0]), int(data[1])
            vertices = written * XFB_VERTICES[readback.xfb_primitive]
            result["counts"] = {"primitives_generated": needed, "xfb_primitives_written": written,
                                "xfb_vertices": vertices}
            result["xfb"] = encode_records(xfb.read(readback_bytes(vertices, stride, xfb.size)))
        if image_copy is not None:
            result["image"] = self._decode_image(image_copy)
        return result

    def _enables(self, state) -> dict:
        flags = {"two_side": 0, "clip_enabled": 0, "planes": [(0.0,) * 4] * CLIP_PLANES}
        for cap in state.enable:
            if cap == "VERTEX_PROGRAM_TWO_SIDE":
                flags["two_side"] = 1
            elif cap.startswith(("CLIP_PLANE", "CLIP_DISTANCE")):
                flags["clip_enabled"] |= 1 << int(cap[-1])
            elif cap in ("CULL_FACE", "PROGRAM_POINT_SIZE", "VERTEX_PROGRAM_POINT_SIZE"):
                pass            # culling is pipeline state; Vulkan always takes the shader's point size
            else:
                raise Skip(f"GL capability {cap} is not supported by the Vulkan backend")
        for i, plane in enumerate(state.clip_planes[:CLIP_PLANES]):
            flags["planes"][i] = tuple(plane)
        return flags

    def _push(self, cmd, flags: dict, indexed: bool, draw_id: int) -> None:
        data = struct.pack("<4f2f4i8x", *self.outer, *self.inner, int(indexed), draw_id, flags["two_side"],
                           flags["clip_enabled"])
        data += b"".join(struct.pack("<4f", *p) for p in flags["planes"])
        vk.vkCmdPushConstants(cmd, self.b.layout, ALL_STAGES, 0, len(data), vk.ffi.new("char[]", data))

    def _calls(self, draw: Draw) -> list[dict]:
        """The Vulkan draw calls for one GL draw: (indexed, draw id to push, recorder)."""
        command = draw.command
        indexed = command in glfacts.ELEMENTS_COMMANDS
        takes = glfacts.takes(command)
        restart_max = INDEX_TYPES[self.case.index_type].fixed_restart
        if draw.restart_index is not None and draw.restart_index != restart_max:
            raise Skip(f"Vulkan restarts only at {restart_max:#x}; the case uses {draw.restart_index:#x}")

        def direct(e, draw_id):
            n = e.instance_count if "instance_count" in takes else 1
            bi = e.base_instance if "base_instance" in takes else 0
            bv = e.base_vertex if "base_vertex" in takes else 0
            if indexed:
                rec = lambda cmd: vk.vkCmdDrawIndexed(cmd, e.count, n, e.first, bv, bi)  # noqa: E731
            else:
                rec = lambda cmd: vk.vkCmdDraw(cmd, e.count, n, e.first, bi)  # noqa: E731
            return {"indexed": indexed, "draw_id": draw_id, "record": rec}

        if command in glfacts.MULTI_COMMANDS and command not in glfacts.INDIRECT_COMMANDS \
                and self.b.path.path == "native":
            return [self._multi_draw(draw, indexed, takes)]
        if command not in glfacts.INDIRECT_COMMANDS:
            return [direct(e, i if command in glfacts.MULTI_COMMANDS else 0)
                    for i, e in enumerate(draw.entries) if e.count]
        data, stride = indirect_commands(draw)
        buf = self._buffer(len(data), vk.VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, data)
        n, offset = len(draw.entries), draw.indirect_offset
        if command.endswith("IndirectCount"):
            count = self._buffer(8, vk.VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, struct.pack("<2I", 0, draw.draw_count))
            fn = vk.vkCmdDrawIndexedIndirectCount if indexed else vk.vkCmdDrawIndirectCount
            rec = lambda cmd: fn(cmd, buf.handle, offset, count.handle, 4, n, stride)  # noqa: E731
        else:
            fn = vk.vkCmdDrawIndexedIndirect if indexed else vk.vkCmdDrawIndirect
            n = n if command.startswith("Multi") else 1
            rec = lambda cmd: fn(cmd, buf.handle, offset, n, stride) if n else None  # noqa: E731
        return [{"indexed": indexed, "draw_id": 0, "record": rec}]

    def _multi_draw(self, draw: Draw, indexed: bool, takes: frozenset[str]) -> dict:
        """The native path: one VK_EXT_multi_draw call with every entry as GL got it, zero-count
        ones included (zink hands the driver the whole list); gl_DrawID is DrawIndex. GL's
        direct multi-draws draw one instance from instance 0."""
        n = len(draw.entries)
        if indexed:
            infos = vk.ffi.new("VkMultiDrawIndexedInfoEXT[]", max(n, 1))
            for info, e in zip(infos, draw.entries):
                info.firstIndex, info.indexCount = e.first, e.count
                info.vertexOffset = e.base_vertex if "base_vertex" in takes else 0
            fn, size = self.dev.ext["vkCmdDrawMultiIndexedEXT"], vk.ffi.sizeof("VkMultiDrawIndexedInfoEXT")
            rec = lambda cmd: fn(cmd, n, infos, 1, 0, size, vk.ffi.NULL)  # noqa: E731  (per-entry offsets)
        else:
            infos = vk.ffi.new("VkMultiDrawInfoEXT[]", max(n, 1))
            for info, e in zip(infos, draw.entries):
                info.firstVertex, info.vertexCount = e.first, e.count
            fn, size = self.dev.ext["vkCmdDrawMultiEXT"], vk.ffi.sizeof("VkMultiDrawInfoEXT")
            rec = lambda cmd: fn(cmd, n, infos, 1, 0, size)  # noqa: E731
        return {"indexed": indexed, "draw_id": 0, "record": rec}


class VertexBinding(NamedTuple):
    """One attribute's binding and its attribute (the layer gives each attribute a buffer of its own)."""
    binding: int
    stride: int
    rate: int                       # VK_VERTEX_INPUT_RATE_VERTEX or _INSTANCE (divisor 1)
    location: int
    format: int


def vertex_layout(attributes) -> tuple[VertexBinding, ...]:
    """The vertex input both paths give the driver: binding i, tightly packed floats, offset 0."""
    return tuple(VertexBinding(i, 4 * a.components,
                               vk.VK_VERTEX_INPUT_RATE_INSTANCE if a.divisor else vk.VK_VERTEX_INPUT_RATE_VERTEX,
                               a.location, ATTRIBUTE_FORMATS[a.components]) for i, a in enumerate(attributes))


def _failed_call(exc: BaseException) -> str:
    """The Vulkan call that reported a lost device: the innermost vk* frame of the first report
    (the clean-up's vkDeviceWaitIdle reports it again, with the first as its context)."""
    while isinstance(exc.__context__, vk.VkErrorDeviceLost):
        exc = exc.__context__
    calls = [frame.name for frame in traceback.extract_tb(exc.__traceback__) if frame.name.startswith("vk")]
    return calls[-1] if calls else "a Vulkan call"


def _render_pass(device, fmt=COLOR_FORMAT, keep: bool = False):
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


def _full_barrier(cmd) -> None:
    """Everything before, made available and visible to everything after (kept images)."""
    access = vk.VK_ACCESS_MEMORY_READ_BIT | vk.VK_ACCESS_MEMORY_WRITE_BIT
    vk.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, vk.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                            [vk.VkMemoryBarrier(sType=vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER, srcAccessMask=access,
                                                dstAccessMask=access)], 0, None, 0, None)


def _color_range():
    return vk.VkImageSubresourceRange(aspectMask=vk.VK_IMAGE_ASPECT_COLOR_BIT, baseMipLevel=0, levelCount=1,
                                      baseArrayLayer=0, layerCount=1)
