"""What a target's child knows of its context (Facts: a backend's `info()`), each GL profile's
part of it (Profile), and what a replacement child adopts instead of querying (Known), with
their JSON forms: the child's `info` reply carries Facts and Known as JSON on the pipe
(harness/executor/protocol.py), and `harness targets --json` prints the Facts' form.

The JSON forms:
- Profile: {"renderer", "vendor", "version", "driver_info" (only where the backend has one),
  "version_number": [major, minor], "glsl_version", "limits": {name: int},
  "extensions": [name, ...] (only where listed: a target's info leaves them out)}.
- Facts: {"renderer", "vendor", "version", "driver_info" (only where the backend has one), each
  of the Vulkan layer's chosen paths by its option's name ("vk_path": "native", ...), "platform",
  "profiles": {profile: Profile}, "mesa", "mesa_libraries": [path, ...]}.
- Known: {"facts": {profile: Profile}}.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from harness.base.options import VK_PATHS


@dataclass(frozen=True)
class Profile:
    """One GL profile's context: its strings, GL version, the limits it reports and (where
    listed) its extensions. `driver_info`: the Vulkan driver's own version line (the Vulkan
    layer's; '' for a GL context)."""
    renderer: str = ""
    vendor: str = ""
    version: str = ""
    version_number: tuple[int, int] = (0, 0)
    glsl_version: str = ""
    limits: Mapping[str, int] = field(default_factory=dict)
    extensions: tuple[str, ...] | None = None       # None: not listed (a target's info leaves them out)
    driver_info: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"renderer": self.renderer, "vendor": self.vendor, "version": self.version}
        if self.driver_info:
            out["driver_info"] = self.driver_info
        out |= {"version_number": list(self.version_number), "glsl_version": self.glsl_version,
                "limits": dict(self.limits)}
        if self.extensions is not None:
            out["extensions"] = list(self.extensions)
        return out

    @classmethod
    def from_json(cls, data: Any) -> "Profile":
        """The profile of its JSON object; TypeError or ValueError where it is not one."""
        if not isinstance(data, dict):
            raise TypeError(f"a profile's facts of type {type(data).__name__}")
        major, minor = data.get("version_number", (0, 0))
        extensions = data.get("extensions")
        return cls(renderer=_text(data, "renderer"), vendor=_text(data, "vendor"), version=_text(data, "version"),
                   version_number=(int(major), int(minor)), glsl_version=_text(data, "glsl_version"),
                   limits={str(name): int(value) for name, value in dict(data.get("limits") or {}).items()},
                   extensions=None if extensions is None else tuple(str(e) for e in extensions),
                   driver_info=_text(data, "driver_info"))


@dataclass(frozen=True)
class Facts:
    """A target's context as its child found it: the core profile's strings, the platform it
    runs on (for the Vulkan layer: its paths and translations), each profile's facts, the
    Vulkan layer's chosen paths (`vk_paths`, by option name: "vk_path" -> "native"), and which
    Mesa answered (`mesa`: the version the driver reports, '' for another vendor's or where the
    child did not say; `mesa_libraries`: the Mesa libraries the child mapped). Facts() is a
    target that told nothing (its child did not start)."""
    renderer: str = ""
    vendor: str = ""
    version: str = ""
    platform: str = ""
    profiles: Mapping[str, Profile] = field(default_factory=dict)
    driver_info: str = ""
    vk_paths: Mapping[str, str] = field(default_factory=dict)
    mesa: str = ""
    mesa_libraries: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"renderer": self.renderer, "vendor": self.vendor, "version": self.version}
        if self.driver_info:
            out["driver_info"] = self.driver_info
        out |= dict(self.vk_paths)
        return out | {"platform": self.platform, "profiles": {name: p.to_json() for name, p in self.profiles.items()},
                      "mesa": self.mesa, "mesa_libraries": list(self.mesa_libraries)}

    @classmethod
    def from_json(cls, data: Any) -> "Facts":
        """The facts of their JSON object; TypeError or ValueError where it is not one."""
        if not isinstance(data, dict):
            raise TypeError(f"a target's facts of type {type(data).__name__}")
        return cls(renderer=_text(data, "renderer"), vendor=_text(data, "vendor"), version=_text(data, "version"),
                   platform=_text(data, "platform"),
                   profiles={str(name): Profile.from_json(p) for name, p in dict(data.get("profiles") or {}).items()},
                   driver_info=_text(data, "driver_info"),
                   vk_paths={name: _text(data, name) for name in VK_PATHS if name in data},
                   mesa=_text(data, "mesa"),
                   mesa_libraries=tuple(str(lib) for lib in data.get("mesa_libraries") or ()))


@dataclass(frozen=True)
class Known:
    """What a child that queried its facts hands a replacement child of the same target, options
    and environment (harness.backends.AdoptingBackend): each profile's facts, extensions listed."""
    profiles: Mapping[str, Profile] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"facts": {name: p.to_json() for name, p in self.profiles.items()}}

    @classmethod
    def from_json(cls, data: Any) -> "Known":
        if not isinstance(data, dict):
            raise TypeError(f"a child's known facts of type {type(data).__name__}")
        return cls({str(name): Profile.from_json(p) for name, p in dict(data.get("facts") or {}).items()})


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name, "")
    if not isinstance(value, str):
        raise TypeError(f"{name} {value!r:.80}, not a string")
    return value
