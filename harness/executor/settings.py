"""A run's settings, made in one place: `resolve` turns a command's option values (the table of
harness/base/options.py, by field) into the RunSettings every front end hands its executors: the
Mesa choice (--mesa, else $HARNESS_MESA, else the system's: harness/mesa/runtime.py `chosen`),
the Vulkan paths as one value, the timeouts and the platform; each other setting of the table
(options.SETTINGS) fills the field of its name. `settings` makes one from fields
(a triage setup, a test), and `DEFAULT` is what an executor given none runs with."""
from __future__ import annotations

from typing import Any, Mapping

from harness.backends.vk.program import check_translations
from harness.base import config
from harness.base.config import (GlPlatform, RunSettings, VkIndexUint8, VkListRestart, VkPatchPath, VkPath, VkPaths,
                                 VkPointSize, VkRestartIndex, VkVertexInput)
from harness.base.options import OPTIONS, SETTINGS, VK_PATHS
from harness.mesa import runtime as mesa_mod


def settings(**fields: Any) -> RunSettings:
    """RunSettings of these fields, the others their defaults (`vk_without` may be 'a,b')."""
    if isinstance(fields.get("vk_without"), str):
        fields["vk_without"] = config.split_names(fields["vk_without"])
    return RunSettings(**fields)


# An executor's settings where its caller gives none: a child of its own, no spawner, the system's Mesa.
DEFAULT = settings(fork=False)


# The settings whose field is not theirs as given: an enum, a split list, one VkPaths of four
# options, a negation, a Mesa build found by its path. Every other setting fills the RunSettings
# field of its name as it is.
CONVERTED = ("gl_platform", "vk_without", "vk_validation", *VK_PATHS, "no_spawner", "mesa")


def resolve(values: Mapping[str, Any], **fixed: Any) -> RunSettings:
    """The settings of a command's option values by field (harness.base.options.values; an option
    it does not take has the table's default), and `fixed` fields the command sets itself
    (children, a Mesa build already chosen, ...). Raises mesa.MesaError for a --mesa that is
    not a usable Mesa, program.UnknownTranslation for a --vk-without name that is no translation
    (both UsageErrors: checked here, before any child starts, not as a target that did not start)."""
    def get(name: str) -> Any:
        return values[name] if name in values else OPTIONS[name].default
    fields: dict[str, Any] = {name: get(name) for name in SETTINGS if name not in CONVERTED}
    fields |= {"gl_platform": GlPlatform(get("gl_platform")),
               "vk_without": config.split_names(get("vk_without") or ""), "vk_validation": bool(get("vk_validation")),
               "vk_paths": VkPaths(VkPath(get("vk_path")), VkPatchPath(get("vk_patch_path")),
                                   VkVertexInput(get("vk_vertex_input")), VkPointSize(get("vk_point_size")),
                                   VkListRestart(get("vk_list_restart")), VkRestartIndex(get("vk_restart_index")),
                                   VkIndexUint8(get("vk_index_uint8"))),
               "fork": not get("no_spawner")}
    check_translations(fields["vk_without"])
    if "mesa" not in fixed:
        fields["mesa"] = mesa_mod.chosen(get("mesa"))
    return settings(**{**fields, **fixed})
