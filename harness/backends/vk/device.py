"""One Vulkan instance and device per executor child, and the few resources cases need.

Optional device features (transform feedback, 8-bit indices, list restart, fp64, ...) are
enabled where the device has them; what is missing is recorded, so that a case needing it is
skipped with the reason rather than failing.
"""
from __future__ import annotations

import re
from typing import Any, Callable

import vulkan as vk

from harness.backends import BackendError
from harness.base.errors import UsageError

WANTED_EXTENSIONS = ("VK_EXT_transform_feedback", "VK_EXT_index_type_uint8",
                     "VK_EXT_primitive_topology_list_restart", "VK_KHR_draw_indirect_count",
                     "VK_EXT_primitives_generated_query", "VK_EXT_multi_draw",
                     "VK_EXT_extended_dynamic_state2", "VK_EXT_vertex_input_dynamic_state",
                     "VK_KHR_maintenance5", "VK_EXT_provoking_vertex", "VK_EXT_primitive_restart_index")
# VK_EXT_primitive_restart_index (2026) is newer than the python `vulkan` package: its feature
# struct (sType, pNext, one VkBool32) is laid out as VkPhysicalDeviceIndexTypeUint8FeaturesEXT,
# which stands in for it with the registry's sType; its command is reached by address.
RESTART_INDEX_FEATURES_STYPE = 1000678000
# What a wanted extension needs enabled with it at the instance's Vulkan 1.2 (VK_KHR_maintenance5:
# VK_KHR_dynamic_rendering, core in 1.3); without it the wanted one is left out.
REQUIRED_WITH = {"VK_KHR_maintenance5": ("VK_KHR_dynamic_rendering",)}
# The optional feature structs queried, each where its extension is offered, as (the Device
# attribute that holds it, None without the extension; the extension; the struct; its sType).
OPTIONAL_FEATURES = (
    ("xfb", "VK_EXT_transform_feedback", "VkPhysicalDeviceTransformFeedbackFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT"),
    ("uint8", "VK_EXT_index_type_uint8", "VkPhysicalDeviceIndexTypeUint8FeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT"),
    ("restart", "VK_EXT_primitive_topology_list_restart", "VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT"),
    ("generated", "VK_EXT_primitives_generated_query", "VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT"),
    ("multi_draw", "VK_EXT_multi_draw", "VkPhysicalDeviceMultiDrawFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT"),
    ("eds2", "VK_EXT_extended_dynamic_state2", "VkPhysicalDeviceExtendedDynamicState2FeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT"),
    ("vi", "VK_EXT_vertex_input_dynamic_state", "VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT"),
    ("maintenance5", "VK_KHR_maintenance5", "VkPhysicalDeviceMaintenance5FeaturesKHR",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR"),
    # provokingVertexLast (GL's initial convention) and, with transform feedback,
    # transformFeedbackPreservesProvokingVertex: enabled where offered, like every struct here.
    ("pv", "VK_EXT_provoking_vertex", "VkPhysicalDeviceProvokingVertexFeaturesEXT",
     "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT"),
    # primitiveRestartIndex (the field indexTypeUint8 of the stand-in struct)
    ("restart_index", "VK_EXT_primitive_restart_index", "VkPhysicalDeviceIndexTypeUint8FeaturesEXT",
     RESTART_INDEX_FEATURES_STYPE),
)
# The pipeline VUIDs of an unwritten PointSize in a point topology's last stage (07722 VS, 07723
# TES, 07725 GS), which maintenance5 lifts.
UNWRITTEN_POINT_SIZE = re.compile(r"VUID-VkGraphicsPipelineCreateInfo-\w+-0772[235]")


VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation"


class MissingLayer(UsageError):
    """--vk-validation on a host without the validation layer: the setup's, not the driver's."""


class Device:
    # The optional feature structs (OPTIONAL_FEATURES), None where the extension is not offered.
    xfb: Any
    uint8: Any
    restart: Any
    generated: Any
    multi_draw: Any
    eds2: Any
    vi: Any
    maintenance5: Any
    pv: Any
    restart_index: Any

    def __init__(self, validation: bool = False):
        app = vk.VkApplicationInfo(sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO, pApplicationName="gl-layer-harness",
                                   applicationVersion=1, pEngineName="harness", engineVersion=1,
                                   apiVersion=vk.VK_MAKE_VERSION(1, 2, 0))
        self.validation_messages: list[str] = []
        layers, extensions = [], []
        if validation:
            if VALIDATION_LAYER not in {p.layerName for p in vk.vkEnumerateInstanceLayerProperties()}:
                raise MissingLayer(f"--vk-validation: {VALIDATION_LAYER} is not installed "
                                   "(Debian package vulkan-validationlayers)")
            layers, extensions = [VALIDATION_LAYER], ["VK_EXT_debug_utils"]
        try:
            self.instance = vk.vkCreateInstance(vk.VkInstanceCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, pApplicationInfo=app,
                enabledLayerCount=len(layers), ppEnabledLayerNames=layers,
                enabledExtensionCount=len(extensions), ppEnabledExtensionNames=extensions), None)
            physical = vk.vkEnumeratePhysicalDevices(self.instance)
        except vk.VkError as exc:
            raise BackendError(f"no Vulkan instance or device: {type(exc).__name__}") from None
        if validation:
            self._messenger()
        if not physical:
            raise BackendError("no Vulkan physical device (is the ICD installed? VK_ICD_FILENAMES?)")
        self.physical = physical[0]
        self.properties = vk.vkGetPhysicalDeviceProperties(self.physical)
        self.limits = self.properties.limits
        self.driver_info = self._driver_info()
        available = {e.extensionName for e in vk.vkEnumerateDeviceExtensionProperties(self.physical, None)}
        self.extensions = [e for e in WANTED_EXTENSIONS
                           if e in available and all(r in available for r in REQUIRED_WITH.get(e, ()))]
        self.extensions += sorted({r for e in self.extensions for r in REQUIRED_WITH.get(e, ())})
        self._create_device()
        self.memory = vk.vkGetPhysicalDeviceMemoryProperties(self.physical)
        self.pool = vk.vkCreateCommandPool(self.device, vk.VkCommandPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, queueFamilyIndex=self.queue_family,
            flags=vk.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT), None)
        self.ext = {name: vk.vkGetDeviceProcAddr(self.device, name) for name in (
            "vkCmdBindTransformFeedbackBuffersEXT", "vkCmdBeginTransformFeedbackEXT",
            "vkCmdEndTransformFeedbackEXT") if "VK_EXT_transform_feedback" in self.extensions}
        # The python `vulkan` package wraps the multi-draw commands, reached like every extension's.
        if "VK_EXT_multi_draw" in self.extensions:
            self.ext.update({name: vk.vkGetDeviceProcAddr(self.device, name)
                             for name in ("vkCmdDrawMultiEXT", "vkCmdDrawMultiIndexedEXT")})
        if self.has("vertex_input_dynamic"):
            self.ext["vkCmdSetVertexInputEXT"] = vk.vkGetDeviceProcAddr(self.device, "vkCmdSetVertexInputEXT")
        if self.has("restart_index"):
            address = vk.lib.vkGetDeviceProcAddr(self.device, b"vkCmdSetPrimitiveRestartIndexEXT")
            self.ext["vkCmdSetPrimitiveRestartIndexEXT"] = vk.ffi.cast("void (*)(VkCommandBuffer, uint32_t)", address)
        if self.has("patch_control_points_dynamic"):
            self.ext["vkCmdSetPatchControlPointsEXT"] = vk.vkGetDeviceProcAddr(self.device,
                                                                               "vkCmdSetPatchControlPointsEXT")

    def _driver_info(self) -> str:
        """The driver's name and build ('llvmpipe Mesa 25.0.7 (LLVM 15.0.6)'): Vulkan 1.2's
        driver properties, which name the Mesa a lavapipe comes from."""
        driver = vk.VkPhysicalDeviceDriverProperties(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES)
        vk.vkGetPhysicalDeviceProperties2(self.physical, vk.VkPhysicalDeviceProperties2(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, pNext=driver))
        return f"{vk.ffi.string(driver.driverName).decode()} {vk.ffi.string(driver.driverInfo).decode()}".strip()

    def _messenger(self) -> None:
        """Validation errors are collected; the runner fails the case they happened in."""
        def collect(severity: int, types: int, data: Any, user: Any) -> int:
            text = vk.ffi.string(data.pMessage).decode(errors="replace")
            if not self._unwritten_point_size_allowed(text):
                self.validation_messages.append(text)
            return 0
        create = vk.vkGetInstanceProcAddr(self.instance, "vkCreateDebugUtilsMessengerEXT")
        self._callback = collect                          # keep it alive as long as the device
        self.messenger = create(self.instance, vk.VkDebugUtilsMessengerCreateInfoEXT(
            sType=vk.VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            messageSeverity=vk.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            messageType=vk.VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | vk.VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
            pfnUserCallback=collect), None)

    def _unwritten_point_size_allowed(self, message: str) -> bool:
        """A layer older than VK_KHR_maintenance5 (Debian 12's 1.3.239) still asks every point
        topology's last stage to write PointSize; with maintenance5 enabled an unwritten size is
        1.0 (the point-size path's `default`, docs/vk-paths.md), which newer layers accept. Such a
        report says nothing of the driver or the layer where the device has maintenance5."""
        maintenance5 = getattr(self, "maintenance5", None)
        return bool(maintenance5 is not None and maintenance5.maintenance5
                    and UNWRITTEN_POINT_SIZE.search(message) and "PointSize" in message)

    def _create_device(self) -> None:
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(self.physical)
        self.queue_family = next(i for i, f in enumerate(families) if f.queueFlags & vk.VK_QUEUE_GRAPHICS_BIT)
        # Query the optional features, then enable exactly what the device has.
        self.f11 = vk.VkPhysicalDeviceVulkan11Features(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES)
        self.f12 = vk.VkPhysicalDeviceVulkan12Features(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                       pNext=self.f11)
        chain = self.f12
        for attribute, extension, struct, stype in OPTIONAL_FEATURES:
            found = None
            if extension in self.extensions:
                found = chain = getattr(vk, struct)(sType=stype if isinstance(stype, int) else getattr(vk, stype),
                                                    pNext=chain)
            setattr(self, attribute, found)
        self.features = vk.VkPhysicalDeviceFeatures2(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, pNext=chain)
        vk.vkGetPhysicalDeviceFeatures2(self.physical, self.features)
        queue = vk.VkDeviceQueueCreateInfo(sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                           queueFamilyIndex=self.queue_family, queueCount=1, pQueuePriorities=[1.0])
        self.device = vk.vkCreateDevice(self.physical, vk.VkDeviceCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, pNext=self.features, queueCreateInfoCount=1,
            pQueueCreateInfos=[queue], enabledExtensionCount=len(self.extensions),
            ppEnabledExtensionNames=self.extensions), None)
        self.queue = vk.vkGetDeviceQueue(self.device, self.queue_family, 0)

    def has(self, feature: str) -> bool:
        core = self.features.features
        return bool({
            "transform_feedback": self.xfb is not None and self.xfb.transformFeedback,
            "uint8_indices": self.uint8 is not None and self.uint8.indexTypeUint8,
            "list_restart": self.restart is not None and self.restart.primitiveTopologyListRestart,
            "patch_restart": self.restart is not None and self.restart.primitiveTopologyPatchListRestart,
            "primitives_generated": self.generated is not None and self.generated.primitivesGeneratedQuery,
            "draw_indirect_count": self.f12.drawIndirectCount,
            "multi_draw": self.multi_draw is not None and self.multi_draw.multiDraw,
            "shader_draw_parameters": self.f11.shaderDrawParameters,
            "patch_control_points_dynamic": self.eds2 is not None and self.eds2.extendedDynamicState2PatchControlPoints,
            "extended_dynamic_state2": self.eds2 is not None and self.eds2.extendedDynamicState2,
            "vertex_input_dynamic": self.vi is not None and self.vi.vertexInputDynamicState,
            # maintenance5: an unwritten PointSize is 1.0 (the point-size path, paths.py)
            "maintenance5": self.maintenance5 is not None and self.maintenance5.maintenance5,
            # VK_EXT_provoking_vertex: GL's last-vertex convention (pipelines.provoking_mode)
            "provoking_vertex_last": self.pv is not None and self.pv.provokingVertexLast,
            # VK_EXT_primitive_restart_index: any restart index (assembly.py)
            "restart_index": self.restart_index is not None and self.restart_index.indexTypeUint8,
            "multi_draw_indirect": core.multiDrawIndirect,
            "tessellation": core.tessellationShader,
            "geometry": core.geometryShader,
            "fp64": core.shaderFloat64,
            "clip_distance": core.shaderClipDistance,
        }[feature])

    # -- resources ---------------------------------------------------------------------------
    def _memory_type(self, bits: int, flags: int) -> int:
        for i in range(self.memory.memoryTypeCount):
            if bits & (1 << i) and (self.memory.memoryTypes[i].propertyFlags & flags) == flags:
                return i
        raise BackendError(f"no Vulkan memory type with flags {flags:#x}")

    def buffer(self, size: int, usage: int, data: bytes = b"") -> "Buffer":
        return Buffer(self, max(size, len(data), 4), usage, data)

    def one_shot(self, record: Callable[[Any], object]) -> None:
        """Record with `record(cmd)`, submit, wait."""
        cmd = vk.vkAllocateCommandBuffers(self.device, vk.VkCommandBufferAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, commandPool=self.pool,
            level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1))[0]
        try:
            vk.vkBeginCommandBuffer(cmd, vk.VkCommandBufferBeginInfo(
                sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT))
            record(cmd)
            vk.vkEndCommandBuffer(cmd)
            fence = vk.vkCreateFence(self.device, vk.VkFenceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO), None)
            try:
                vk.vkQueueSubmit(self.queue, 1, [vk.VkSubmitInfo(sType=vk.VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                                                 commandBufferCount=1, pCommandBuffers=[cmd])], fence)
                vk.vkWaitForFences(self.device, 1, [fence], vk.VK_TRUE, 60_000_000_000)
            finally:
                vk.vkDestroyFence(self.device, fence, None)
        finally:
            vk.vkFreeCommandBuffers(self.device, self.pool, 1, [cmd])


class Buffer:
    """A host-visible buffer (simple and plenty fast for conformance cases)."""

    def __init__(self, device: Device, size: int, usage: int, data: bytes = b""):
        self.device, self.size = device, size
        dev = device.device
        self.handle = vk.vkCreateBuffer(dev, vk.VkBufferCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, size=size, usage=usage,
            sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
        req = vk.vkGetBufferMemoryRequirements(dev, self.handle)
        kind = device._memory_type(req.memoryTypeBits, vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                                   | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
        self.memory = vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, allocationSize=req.size, memoryTypeIndex=kind), None)
        vk.vkBindBufferMemory(dev, self.handle, self.memory, 0)
        self.write(data if data else bytes(size))

    def write(self, data: bytes, offset: int = 0) -> None:
        mapped = vk.vkMapMemory(self.device.device, self.memory, 0, self.size, 0)
        mapped[offset:offset + len(data)] = data
        vk.vkUnmapMemory(self.device.device, self.memory)

    def read(self, size: int | None = None) -> bytes:
        mapped = vk.vkMapMemory(self.device.device, self.memory, 0, self.size, 0)
        data = bytes(mapped[:self.size if size is None else size])
        vk.vkUnmapMemory(self.device.device, self.memory)
        return data

    def destroy(self) -> None:
        vk.vkDestroyBuffer(self.device.device, self.handle, None)
        vk.vkFreeMemory(self.device.device, self.memory, None)
