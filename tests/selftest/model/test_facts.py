"""harness/model/facts.py: a target's facts, each profile's and a replacement child's, each
with one JSON form, the one the child's `info` reply and `harness targets --json` carry."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from harness.model.facts import Facts, Known, Profile

CORE = Profile("harness Vulkan layer on llvmpipe", "gl-layer-harness", "4.6 (harness Vulkan layer, Vulkan 1.3)",
               (4, 6), "4.60", {"GL_MAX_PATCH_VERTICES": 32}, ("GL_ARB_draw_indirect",), driver_info="Mesa 22.3.6")
FACTS = Facts(CORE.renderer, CORE.vendor, CORE.version, "Vulkan, multi-draw path native",
              {"core": dataclasses.replace(CORE, extensions=None)}, driver_info="Mesa 22.3.6",
              vk_paths={"vk_path": "native", "vk_patch_path": "dynamic"}, mesa="22.3.6",
              mesa_libraries=("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so",))


def test_the_json_forms_are_the_keys_the_child_has_always_answered():
    assert list(FACTS.to_json()) == ["renderer", "vendor", "version", "driver_info", "vk_path", "vk_patch_path",
                                     "platform", "profiles", "mesa", "mesa_libraries"]
    assert list(FACTS.to_json()["profiles"]["core"]) == ["renderer", "vendor", "version", "driver_info",
                                                         "version_number", "glsl_version", "limits"]
    assert CORE.to_json()["extensions"] == ["GL_ARB_draw_indirect"] and CORE.to_json()["version_number"] == [4, 6]
    gl = Profile("llvmpipe", "Mesa", "4.5", (4, 5), "4.50", {})
    assert "driver_info" not in gl.to_json() and "driver_info" not in Facts("llvmpipe").to_json()


@pytest.mark.parametrize("value", [FACTS, Facts(), CORE, Profile(), Known({"core": CORE, "compat": CORE}), Known()])
def test_a_value_comes_back_from_its_json_and_its_pickle(value):
    assert type(value).from_json(value.to_json()) == value
    assert pickle.loads(pickle.dumps(value)) == value


@pytest.mark.parametrize("kind, data", [
    (Facts, []), (Facts, {"renderer": 1}), (Facts, {"profiles": {"core": "4.5"}}),
    (Profile, {"version_number": [4]}), (Profile, {"limits": {"GL_MAX_PATCH_VERTICES": "many"}}),
    (Known, {"facts": {"core": None}}),
])
def test_json_that_is_no_such_value_is_refused(kind, data):
    with pytest.raises((TypeError, ValueError)):
        kind.from_json(data)
