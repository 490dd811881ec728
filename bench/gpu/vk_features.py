#!/usr/bin/env python3
"""Dump what a Vulkan device offers of the features and limits zink's choices depend on in the
three hazard areas (docs/vulkan-backend.md, "zink's feature-dependent paths"), and the path zink
25.0.7 takes on it by the rules read there. Run it in a target's environment, so that the loader
finds the driver the target uses:

    python -m harness exec lavapipe [--mesa mesa/26.2.6-1] -- python bench/gpu/vk_features.py
    python -m harness exec system-vk -- python bench/gpu/vk_features.py      # the GPU machine

Prints a JSON object per physical device: its name and driver, each feature (None: the extension
is not offered, so the feature was not queried), each limit, and `zink` (the paths).
"""
from __future__ import annotations

import json
import sys

import vulkan as vk

# (extension, feature struct, sType, fields): each struct is chained only where its extension is
# offered, as the harness's device does (harness/backends/vk/device.py).
OPTIONAL = (
    ("VK_EXT_multi_draw", "VkPhysicalDeviceMultiDrawFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT", ("multiDraw",)),
    ("VK_EXT_extended_dynamic_state2", "VkPhysicalDeviceExtendedDynamicState2FeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT",
     ("extendedDynamicState2", "extendedDynamicState2PatchControlPoints")),
    ("VK_EXT_shader_object", "VkPhysicalDeviceShaderObjectFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT", ("shaderObject",)),
    ("VK_KHR_maintenance5", "VkPhysicalDeviceMaintenance5FeaturesKHR",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR", ("maintenance5",)),
    ("VK_EXT_vertex_input_dynamic_state", "VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT", ("vertexInputDynamicState",)),
    ("VK_EXT_graphics_pipeline_library", "VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT", ("graphicsPipelineLibrary",)),
    ("VK_EXT_attachment_feedback_loop_dynamic_state", "VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_FEATURES_EXT",
     ("attachmentFeedbackLoopDynamicState",)),
    ("VK_EXT_transform_feedback", "VkPhysicalDeviceTransformFeedbackFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT", ("transformFeedback", "geometryStreams")),
)
CORE = ("tessellationShader", "geometryShader", "multiDrawIndirect", "shaderFloat64", "drawIndirectFirstInstance")
V11 = ("shaderDrawParameters",)
V12 = ("drawIndirectCount",)
LIMITS = ("maxVertexOutputComponents", "maxTessellationControlPerVertexInputComponents",
          "maxTessellationControlPerVertexOutputComponents", "maxTessellationEvaluationInputComponents",
          "maxTessellationEvaluationOutputComponents", "maxGeometryInputComponents", "maxGeometryOutputComponents",
          "maxFragmentInputComponents", "maxTessellationPatchSize", "maxDrawIndirectCount")


def device_facts(physical) -> dict:
    props = vk.vkGetPhysicalDeviceProperties(physical)
    extensions = {e.extensionName for e in vk.vkEnumerateDeviceExtensionProperties(physical, None)}
    f11 = vk.VkPhysicalDeviceVulkan11Features(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES)
    f12 = vk.VkPhysicalDeviceVulkan12Features(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, pNext=f11)
    chain, queried = f12, []
    for ext, struct, stype, fields in OPTIONAL:
        if ext in extensions:
            chain = getattr(vk, struct)(sType=getattr(vk, stype), pNext=chain)
            queried.append((chain, fields))
    features2 = vk.VkPhysicalDeviceFeatures2(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, pNext=chain)
    vk.vkGetPhysicalDeviceFeatures2(physical, features2)
    features: dict[str, bool | None] = {name: bool(getattr(features2.features, name)) for name in CORE}
    features |= {name: bool(getattr(f11, name)) for name in V11} | {name: bool(getattr(f12, name)) for name in V12}
    features |= {field: None for _, _, _, fields in OPTIONAL for field in fields}
    features |= {field: bool(getattr(struct, field)) for struct, fields in queried for field in fields}
    limits = {name: int(getattr(props.limits, name)) for name in LIMITS}
    version = props.apiVersion
    return {"device": props.deviceName, "api": f"{version >> 22}.{(version >> 12) & 0x3ff}.{version & 0xfff}",
            "driver_version": props.driverVersion, "features": features, "limits": limits,
            "extensions_of_interest": sorted(ext for ext, *_ in OPTIONAL if ext in extensions)
            + sorted(e for e in ("VK_KHR_draw_indirect_count", "VK_KHR_shader_draw_parameters") if e in extensions),
            "zink": zink_paths(features, limits, extensions)}


def zink_paths(f: dict, limits: dict, extensions: set) -> dict:
    """The path zink 25.0.7 takes, by the rules docs/vulkan-backend.md cites (zink_screen.c etc.)."""
    shader_object = bool(f["shaderObject"] and f["maintenance5"] and f["attachmentFeedbackLoopDynamicState"])
    return {
        "patch size": "dynamic" if f["extendedDynamicState2PatchControlPoints"] else "static",
        "separable TES without TCS": "shader objects, TCS of 32 vertices" if shader_object else
        ("pipeline libraries, patchControlPoints 32" if f["graphicsPipelineLibrary"]
         and f["extendedDynamicState2PatchControlPoints"] else "one pipeline per program"),
        "draw parameters": "native" if f["shaderDrawParameters"] or "VK_KHR_shader_draw_parameters" in extensions
        else "none (GL_ARB_shader_draw_parameters not offered)",
        "gl_DrawID of a direct multi-draw": "native (vkCmdDrawMulti*EXT)" if f["multiDraw"] else "split, pushed",
        "indirect multi-draw": "one vkCmdDraw*Indirect" if f["multiDrawIndirect"] else "state tracker loop",
        "indirect count": "vkCmdDraw*IndirectCount" if f["drawIndirectCount"] else "not offered",
        "vertex input": "dynamic (vkCmdSetVertexInputEXT)" if f["vertexInputDynamicState"]
        and f["extendedDynamicState2"] else "pipeline state",
        "point size": "default (no PointSize store: maintenance5's 1.0)" if f["maintenance5"]
        else "written (gl_PointSize = 1.0 in the last vertex stage)",
        "GL_MAX_VARYING_COMPONENTS": 4 * min(limits["maxVertexOutputComponents"] // 8, 16),
    }


def main() -> int:
    app = vk.VkApplicationInfo(sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO, apiVersion=vk.VK_MAKE_VERSION(1, 3, 0))
    instance = vk.vkCreateInstance(vk.VkInstanceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                                           pApplicationInfo=app), None)
    try:
        found = [device_facts(p) for p in vk.vkEnumeratePhysicalDevices(instance)]
    finally:
        vk.vkDestroyInstance(instance, None)
    json.dump(found, sys.stdout, indent=1)
    print()
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
