"""Graphics pipelines and shader modules, made from what a draw needs (PipelineSpec) and kept
across cases, least recently used first: pipelines are immutable, and cases that share a program
come close together."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import vulkan as vk

from harness.backends import BackendError, Skip
from harness.backends.vk import spirv
from harness.backends.vk.resources import STAGE_BITS, VertexBinding

# patchControlPoints of a pipeline whose patch size is dynamic state (the size it is drawn with is
# recorded), as zink's pipeline libraries write it (zink_pipeline.c): a driver that read it would be wrong.
PATCH_SIZE_IGNORED = 32
TOPOLOGY = {"POINTS": vk.VK_PRIMITIVE_TOPOLOGY_POINT_LIST, "LINES": vk.VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
            "TRIANGLES": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "PATCHES": vk.VK_PRIMITIVE_TOPOLOGY_PATCH_LIST,
            "LINE_STRIP": vk.VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, "TRIANGLE_STRIP": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
            "TRIANGLE_FAN": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
            "LINES_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY,
            "LINE_STRIP_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
            "TRIANGLES_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY,
            "TRIANGLE_STRIP_ADJACENCY": vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY}
POLYGON_MODE = {"": vk.VK_POLYGON_MODE_FILL, "LINE": vk.VK_POLYGON_MODE_LINE, "POINT": vk.VK_POLYGON_MODE_POINT}
PROVOKING = {"FIRST": vk.VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT, "LAST": vk.VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT}
CACHED = 32                                 # pipelines and shader modules kept between cases


@dataclass(frozen=True)
class Raster:
    """The rasterization state a draw's GL state sets."""
    polygon_mode: str               # "" (fill), LINE or POINT
    front_face: str                 # "" (CCW) or CW
    cull: bool
    # The provoking-vertex mode chained into the pipeline (VK_EXT_provoking_vertex): LAST or
    # FIRST; "": none chained, Vulkan's first-vertex convention (provoking_mode)
    provoking: str = ""


@dataclass(frozen=True)
class PipelineSpec:
    """Everything that makes a pipeline, and so its key. `patch_vertices` None: the patch size is
    dynamic state (the patch-size path `dynamic`: one pipeline for every size); `vertex_layout`
    None: the vertex input is dynamic state (one pipeline for every layout)."""
    stages: tuple[tuple[str, str], ...]          # (stage, translated GLSL), sorted
    mode: str
    restart: bool
    patch_vertices: int | None
    vertex_layout: tuple[VertexBinding, ...] | None
    captures: bool                               # transform feedback: rasterizer discard
    format: int
    raster: Raster
    order: tuple[str, ...] = field(default=(), compare=False)    # the stages' order in pStages


def check_topology(mode: str) -> None:
    if mode not in TOPOLOGY:
        raise Skip(f"the Vulkan backend has no primitive topology for GL_{mode}")


def _polygon_mode(mode: str) -> str:
    """A GL polygon mode as Raster spells it: "" for FILL."""
    return "" if mode == "FILL" else mode


def raster_of(state: Any, fill_mode_non_solid: bool, provoking: str = "", primitive: str = "triangles",
              discard: bool = False) -> Raster:
    """The draw's Raster. `provoking`: its provoking_mode; `primitive`: what the last
    pre-rasterization stage emits (paths.primitive_of); `discard`: rasterization discarded (a
    capture), where no polygon is rasterized. Vulkan has one polygon mode for both faces: where
    GL's back faces take another mode than its front faces, and back faces are drawn (no culling;
    the layer culls GL's default, the back faces) as polygons, the draw is a Skip."""
    front = _polygon_mode(state.polygon_mode)
    back = _polygon_mode(state.polygon_mode_back or front)
    cull = "CULL_FACE" in state.enable
    if back != front and primitive == "triangles" and not cull and not discard:
        raise Skip("Vulkan has one polygon mode for both faces; GL's front and back differ here "
                   f"(front {front or 'FILL'}, back {back or 'FILL'})")
    raster = Raster(front, state.front_face, cull, provoking)
    if raster.polygon_mode and not fill_mode_non_solid:
        raise Skip("the Vulkan device lacks fillModeNonSolid (polygon mode LINE/POINT)")
    return raster


def provoking_mode(state: Any, provokes: bool, provoking_last: bool, faithful: bool = True) -> str:
    """The provoking-vertex mode a draw's pipeline chains (Raster.provoking), as zink sets GL's
    convention through VK_EXT_provoking_vertex: LAST for GL's initial LAST_VERTEX_CONVENTION
    (`state.provoking_vertex` ""), FIRST for glProvokingVertex(GL_FIRST_VERTEX_CONVENTION),
    where the device offers provokingVertexLast (`provoking_last`); else nothing (Vulkan's
    first-vertex convention, which is GL's FIRST). A last-vertex draw whose primitives have a
    provoking vertex (`provokes`: they are not points or tessellated patches) is a Skip on a
    device without it: drawn, it would take the wrong vertex's flat values. `faithful` False (the
    `provoking-vertex` translation switched off): nothing, whatever GL's convention, as a layer
    that left Vulkan's default would."""
    if not faithful:
        return ""
    if provoking_last:
        return "FIRST" if state.provoking_vertex == "FIRST" else "LAST"
    if state.provoking_vertex != "FIRST" and provokes:
        raise Skip("the Vulkan device lacks VK_EXT_provoking_vertex (provokingVertexLast) for GL's "
                   "last-vertex convention")
    return ""


class Pipelines:
    """A device's shader modules by (stage, source) and pipelines by PipelineSpec, least recently
    used first; `trim` between cases, as a driver's compiled code adds up."""

    def __init__(self, device: Any, layout: Any):
        self.device, self.layout = device, layout
        self.modules: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self.pipelines: OrderedDict[PipelineSpec, Any] = OrderedDict()

    def trim(self) -> None:
        """Between cases (nothing of an earlier case is in flight): destroy the least recently
        used pipelines and shader modules over CACHED. A few dozen keep nearly every hit;
        unbounded, lavapipe's children grew to 2 GiB each over the suite."""
        for cache, destroy in ((self.pipelines, vk.vkDestroyPipeline), (self.modules, vk.vkDestroyShaderModule)):
            while len(cache) > CACHED:
                destroy(self.device, cache.popitem(last=False)[1], None)

    def module(self, stage: str, source: str) -> Any:
        key = (stage, source)
        if key in self.modules:
            self.modules.move_to_end(key)
        else:
            code = spirv.compile_glsl(stage, source)        # glslang refusing it: a LayerFault
            self.modules[key] = vk.vkCreateShaderModule(self.device, vk.VkShaderModuleCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, codeSize=len(code), pCode=code), None)
        return self.modules[key]

    def get(self, spec: PipelineSpec, render_pass: Any) -> Any:
        """The pipeline of `spec`, made with a render pass compatible with `render_pass`."""
        if spec in self.pipelines:
            self.pipelines.move_to_end(spec)
            return self.pipelines[spec]
        # The stages' structs own their pName strings, which pStages (a copy of the structs) points
        # at: they must live until the pipeline is made.
        sources = dict(spec.stages)
        stages = [vk.VkPipelineShaderStageCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, stage=STAGE_BITS[s],
            module=self.module(s, sources[s]), pName="main") for s in spec.order or sources]
        try:
            pipeline = vk.vkCreateGraphicsPipelines(self.device, None, 1, [self._info(spec, stages, render_pass)],
                                                    None)[0]
        except vk.VkError as exc:
            raise BackendError(f"vkCreateGraphicsPipelines failed: {type(exc).__name__}") from None
        self.pipelines[spec] = pipeline
        return pipeline

    def _info(self, spec: PipelineSpec, stages: list[Any], render_pass: Any) -> Any:
        dynamic = [vk.VK_DYNAMIC_STATE_VIEWPORT, vk.VK_DYNAMIC_STATE_SCISSOR]
        if spec.vertex_layout is None:
            dynamic.append(vk.VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)
        if spec.patch_vertices is None:
            dynamic.append(vk.VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT)
        return vk.VkGraphicsPipelineCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, stageCount=len(stages), pStages=stages,
            pVertexInputState=_vertex_input(spec.vertex_layout),
            pInputAssemblyState=vk.VkPipelineInputAssemblyStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, topology=TOPOLOGY[spec.mode],
                primitiveRestartEnable=spec.restart),
            pTessellationState=_tessellation(spec.patch_vertices) if "tes" in dict(spec.stages) else None,
            pViewportState=vk.VkPipelineViewportStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, viewportCount=1, scissorCount=1),
            pRasterizationState=_rasterization(spec.raster, spec.captures),
            pMultisampleState=vk.VkPipelineMultisampleStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                rasterizationSamples=vk.VK_SAMPLE_COUNT_1_BIT),
            pColorBlendState=vk.VkPipelineColorBlendStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, attachmentCount=1,
                pAttachments=[vk.VkPipelineColorBlendAttachmentState(blendEnable=False, colorWriteMask=0xF)]),
            pDynamicState=vk.VkPipelineDynamicStateCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, dynamicStateCount=len(dynamic),
                pDynamicStates=dynamic),
            layout=self.layout, renderPass=render_pass, subpass=0)


def _vertex_input(layout: tuple[VertexBinding, ...] | None) -> Any:
    """The baked vertex input; dynamic (None): an empty vertex input state, as zink's (zink_pipeline.c)."""
    bindings = [vk.VkVertexInputBindingDescription(binding=v.binding, stride=v.stride, inputRate=v.rate)
                for v in layout or ()]
    attributes = [vk.VkVertexInputAttributeDescription(location=v.location, binding=v.binding, format=v.format,
                                                       offset=0) for v in layout or ()]
    return vk.VkPipelineVertexInputStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        vertexBindingDescriptionCount=len(bindings), pVertexBindingDescriptions=bindings or None,
        vertexAttributeDescriptionCount=len(attributes), pVertexAttributeDescriptions=attributes or None)


def _tessellation(patch_vertices: int | None) -> Any:
    return vk.VkPipelineTessellationStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        # GL's tessellation domain has its origin lower-left; Vulkan's default is
        # upper-left, which would swap cw and ccw.
        pNext=vk.VkPipelineTessellationDomainOriginStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO,
            domainOrigin=vk.VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT),
        # dynamic: ignored; zink's pipeline libraries write 32 there, so does the layer
        patchControlPoints=PATCH_SIZE_IGNORED if patch_vertices is None else patch_vertices)


def _rasterization(raster: Raster, captures: bool) -> Any:
    provoking = None if not raster.provoking else vk.VkPipelineRasterizationProvokingVertexStateCreateInfoEXT(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT,
        provokingVertexMode=PROVOKING[raster.provoking])
    return vk.VkPipelineRasterizationStateCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, pNext=provoking,
        rasterizerDiscardEnable=captures, polygonMode=POLYGON_MODE[raster.polygon_mode],
        cullMode=vk.VK_CULL_MODE_BACK_BIT if raster.cull else vk.VK_CULL_MODE_NONE,
        frontFace=vk.VK_FRONT_FACE_CLOCKWISE if raster.front_face == "CW" else vk.VK_FRONT_FACE_COUNTER_CLOCKWISE,
        lineWidth=1.0)
