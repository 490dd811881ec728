"""zink of one Mesa over lavapipe of another, in one process: does a failure follow zink or
lavapipe across releases? (`harness blame` with two Mesas or more; mixing releases by hand
located zink's 26.x draw-parameters regression, triage/mesa-26.2.6/zink-draw-params-pushconst-invalid-spirv.)

The mixed build is the GL Mesa's, with the other's lavapipe as its Vulkan ICD. Its processes need
one C library and runtime that both Mesas' libraries can use: the newer of the two (a fetched
Mesa's own libc/, else the host's), so its loader starts them, and its libraries come first. A
folder of links in the harness's cache holds, for that: the newer Mesa's runtime libraries, the
older one's that the newer lacks (its LLVM, another soname), and the GL Mesa's own libraries
(libEGL_mesa, libgallium-*, libgbm, libglapi), so that they, not the other's, are loaded.
lavapipe is named by its ICD's absolute path. The two releases' shader disk caches do not agree
on their index (triage/mesa-26.2.6/shader-cache-index-across-releases), so the cache is off.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import replace
from pathlib import Path

from harness.base import config
from harness.mesa.runtime import LIBC, Build, MesaError, _multiarch, _unresolved, link_to

GL_OWN = re.compile(r"^(libEGL_mesa\.so|libgallium[-_.]|libglapi\.so|libgbm\.so)")
SHARED_OBJECT = re.compile(r"\.so(\.\d+)*$")


def _libc_key(build: Build) -> tuple[int, ...]:
    return tuple(int(x) for x in build.libc.split(".")) if build.libc else ()     # '': the host's, the oldest


def _runtime_dirs(build: Build) -> list[Path]:
    """Where a build's non-Mesa libraries are (its own C library's folders apart)."""
    libc = {str(d) for d in _multiarch(build.root / LIBC)}
    return [Path(d) for d in build.library_dirs if d not in libc]


def mixed(gl: Build, vulkan: Build, state: Path | None = None) -> Build:
    """`gl`'s zink (its GL libraries) over `vulkan`'s lavapipe. MesaError: one line, where either
    lacks its part, or the loader cannot resolve the mix."""
    if not gl.egl_vendor:
        raise MesaError(f"the Mesa in {gl.root} has no EGL and DRI drivers to mix")
    if not vulkan.vulkan_icd:
        raise MesaError(f"the Mesa in {vulkan.root} has no lavapipe to mix")
    newer, older = (vulkan, gl) if _libc_key(vulkan) > _libc_key(gl) else (gl, vulkan)
    key = hashlib.sha256(f"{gl.root}\n{vulkan.root}".encode()).hexdigest()[:16]
    folder = (state or config.cache_home() / "mesa") / "mixed" / key
    folder.mkdir(parents=True, exist_ok=True)
    links: dict[str, Path] = {}
    for build in (older, newer):                          # the newer's runtime wins a name both have
        for d in _runtime_dirs(build):
            for entry in d.iterdir():
                if SHARED_OBJECT.search(entry.name) and not GL_OWN.match(entry.name) and not entry.is_dir():
                    links[entry.name] = entry
    for own in gl.library_dirs:                           # the GL Mesa's own libraries, whichever is newer
        for entry in Path(own).iterdir():
            if GL_OWN.match(entry.name):
                links[entry.name] = entry
    for name in set(os.listdir(folder)) - set(links):
        (folder / name).unlink()
    for name, target in links.items():
        link_to(folder / name, target)
    libc_dirs = [str(d) for d in _multiarch(newer.root / LIBC)] if newer.libc else []
    build = replace(gl, library_dirs=(*libc_dirs, str(folder)), vulkan_icd=vulkan.vulkan_icd, loader=newer.loader,
                    libc=newer.libc, also=(str(vulkan.root),), disk_cache=False,
                    version=gl.version)
    lvp = Path(_icd_library(vulkan.vulkan_icd))
    missing = _unresolved(build, [p for p in (Path(gl.gallium) if gl.gallium else None, lvp) if p])
    if missing:
        raise MesaError(f"zink of Mesa {gl.version} over lavapipe of Mesa {vulkan.version}: {missing}")
    return build


def _icd_library(icd: str) -> str:
    library: str = json.loads(Path(icd).read_text())["ICD"]["library_path"]
    return library

