"""The Mesa under test: a build chosen with --mesa PATH (or $HARNESS_MESA), apart from the system's.

PATH is an install prefix (what `dpkg -x` or `meson install --destdir` leaves) or a meson build
directory of a Mesa checkout. `locate` finds its EGL vendor library, DRI drivers and lavapipe,
reads the version compiled into them, and writes what the loaders need with absolute paths (an
EGL vendor file, a Vulkan ICD file) into a folder of its own. `Build.environment` is what a
target's child gets so that it loads that Mesa and nothing of the system's; `check_loaded` then
verifies, from the libraries the child really mapped, that it did.

A folder bin/fetch-mesa made holds the Mesa's whole runtime, its C library apart in libc/. The
processes that load the Mesa start through a dynamic loader with `--library-path`
(`Build.command`): the folder's own loader when its C library is newer than the host's (sid's
Mesa on Debian 12), else the host's. The library path never goes into LD_LIBRARY_PATH: a host
program those processes start (/bin/sh, glslang) inherits the environment, and a newer or older
libc or libstdc++ there breaks it (`/bin/sh: symbol lookup error: ... __tunable_is_initialized`).
"""
from __future__ import annotations

import hashlib
import json
import mmap
import os
import platform
import re
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from harness.base import config
from harness.base.errors import UsageError

# The version string every Mesa driver carries, as GL_VERSION and Vulkan's driverInfo show it.
VERSION = re.compile(rb"Mesa (\d+\.\d+\.\d+[0-9A-Za-z.~+_-]*)")
# Shared objects that are Mesa's own: what must come from the chosen build.
MESA_LIBRARY = re.compile(r"^(libEGL_mesa\.so|libgallium[-_.]|libglapi\.so|libgbm\.so|\w+_dri\.so"
                          r"|dri_gbm\.so|libvulkan_lvp\.so|libVkLayer_MESA_)")
# The DRI drivers the targets load by name through LIBGL_DRIVERS_PATH (EGL surfaceless picks
# swrast or kms_swrast for llvmpipe, zink for zink); a meson build directory has only the
# library they all link to, so a folder of links to it is made for them.
DRI_NAMES = ("swrast_dri.so", "kms_swrast_dri.so", "zink_dri.so")
DRI_LIBRARIES = ("libgallium_dri.so", "libdril_dri.so")
# Where a Debian prefix keeps its libraries; bin/fetch-mesa puts the C library's under libc/.
MULTIARCH = f"{platform.machine()}-linux-gnu"
LIBRARY_DIRS = (f"usr/lib/{MULTIARCH}", f"lib/{MULTIARCH}")
LIBC = "libc"
LIBC_VERSION = re.compile(rb"release version (\d+)\.(\d+)")


class MesaError(UsageError):
    """A PATH that is not a usable Mesa: one line for the user."""


@dataclass(frozen=True)
class Build:
    root: Path                      # as given, resolved
    version: str                    # e.g. "25.0.7-2~bpo12+1", as its drivers report it
    library_dirs: tuple[str, ...]   # for its processes' loader, searched first
    dri_dir: str                    # for LIBGL_DRIVERS_PATH
    egl_vendor: str                 # EGL vendor JSON naming its libEGL_mesa by absolute path
    vulkan_icd: str                 # Vulkan ICD JSON naming its lavapipe, "" without one
    gbm_dir: str                    # its GBM backends (Mesa 24.3+), "" without
    loader: str = ""                # the dynamic loader its processes start under
    libc: str = ""                  # its own C library's version, "" without one (a build tree)
    shader_cache: str = ""          # MESA_SHADER_CACHE_DIR of its processes: a folder of its own
    egl_without_glvnd: str = ""     # Mesa's own libEGL.so.1 (built without glvnd), which GL targets cannot use
    gallium: str = ""               # libgallium-<version>.so (24.3+): EGL loads the drivers from it, no DRI file
    also: tuple[str, ...] = ()      # other folders whose Mesa libraries its processes load (harness/mesa/mix.py)
    disk_cache: bool = True         # False: its processes run with Mesa's shader disk cache off

    def command(self, argv: list[str], base: dict[str, str]) -> list[str]:
        """ARGV (a program of the host: the harness's Python, shader_runner) started so that its
        libraries come from this build first, then from the inherited LD_LIBRARY_PATH (which
        `--library-path` replaces for this process alone), then the host's."""
        return [self.loader, "--library-path", _join(*self.library_dirs, base.get("LD_LIBRARY_PATH", "")), *argv]

    def environment(self, base: dict[str, str], gl: bool, vulkan: bool) -> dict[str, str]:
        """Loader variables for a child that must load this Mesa's GL and/or its lavapipe (its
        libraries come from `command`). An inherited EGL vendor list (NVIDIA's, which
        zink-system's Vulkan driver needs) stays after Mesa's."""
        # the system's device-select layer is Mesa code too, and reorders devices
        env = {"VK_LOADER_LAYERS_DISABLE": "VK_LAYER_MESA_device_select"}
        # Releases share ~/.cache/mesa_shader_cache/index but not its size: 22.3.6 truncates it to
        # 1310728 bytes, 26.2.6 maps 2097160, and a 26.2.6 child dies of SIGBUS when a process of
        # the other release runs beside it. Each build gets a cache of its own.
        if self.shader_cache:
            env["MESA_SHADER_CACHE_DIR"] = self.shader_cache
        if not self.disk_cache:
            env["MESA_SHADER_CACHE_DISABLE"] = "true"
        if gl and self.dri_dir:
            env["LIBGL_DRIVERS_PATH"] = self.dri_dir
        if gl:
            env["__EGL_VENDOR_LIBRARY_FILENAMES"] = _join(self.egl_vendor, base.get("__EGL_VENDOR_LIBRARY_FILENAMES", ""))
            if self.gbm_dir:
                env["GBM_BACKENDS_PATH"] = self.gbm_dir
        if vulkan:
            env["VK_DRIVER_FILES"] = env["VK_ICD_FILENAMES"] = self.vulkan_icd
        return env

    def lacks(self, gl: bool, vulkan: bool) -> str:
        """'' if this build has what a target needs, else what it lacks."""
        if gl and self.egl_without_glvnd and not self.egl_vendor:
            return (f"the Mesa in {self.root} was built without glvnd ({self.egl_without_glvnd}, no libEGL_mesa.so.0): "
                    f"the GL targets load Mesa as glvnd's EGL vendor; configure it with -Dglvnd=enabled "
                    f"(-Dglvnd=true before Mesa 24.1), or build it with bin/build-mesa")
        if gl and not (self.egl_vendor and (self.dri_dir or self.gallium)):
            return f"the Mesa in {self.root} has no EGL and DRI drivers"
        if vulkan and not self.vulkan_icd:
            return f"the Mesa in {self.root} has no lavapipe (libvulkan_lvp.so)"
        return ""

    def check_loaded(self, reported: str, libraries: Sequence[str]) -> str:
        """'' if the child's driver came from this build, else one line naming what loaded: `reported`,
        the Mesa version the driver reports, and `libraries`, the Mesa libraries the child mapped
        (harness.model.facts.Facts' mesa and mesa_libraries)."""
        roots = (self.root, *map(Path, self.also))
        foreign = [lib for lib in libraries if not any(_under(lib, r) for r in roots)]
        if foreign:
            return (f"loaded {', '.join(foreign)} ({_describe(reported)}), not only Mesa {self.version} "
                    f"from {self.root}")
        if reported != self.version:
            return f"the driver reports {_describe(reported)}, not Mesa {self.version} from {self.root}"
        if not libraries:
            return f"no Mesa library from {self.root} was loaded"
        return ""


def chosen(path: str | None) -> Build | None:
    """The build --mesa PATH names, else $HARNESS_MESA's, else None (the system's Mesa)."""
    path = path or config.knobs().mesa
    return locate(path) if path else None


def locate(path: str | os.PathLike[str], state: Path | None = None) -> Build:
    root = Path(path).expanduser()
    if not root.is_dir():
        raise MesaError(f"--mesa {path}: not a directory")
    root = root.resolve()
    found = _find(root)
    egl = found.get("libEGL_mesa.so.0")
    dri = [found[name] for name in DRI_NAMES + DRI_LIBRARIES if name in found]
    gallium = sorted(p for name, p in found.items() if name.startswith("libgallium"))
    lvp = found.get("libvulkan_lvp.so")
    if not ((egl and (dri or gallium)) or lvp or (found.get("libEGL.so.1") and dri)):
        raise MesaError(f"--mesa {path}: holds no Mesa (no libEGL_mesa.so.0 with DRI drivers, "
                        f"and no libvulkan_lvp.so, below it)")
    version = next(filter(None, (read_version(p) for p in gallium + dri + [lvp] if p)), "")
    if not version:
        raise MesaError(f"--mesa {path}: no Mesa version string in its drivers")
    own = (state or config.cache_home() / "mesa") / hashlib.sha256(str(root).encode()).hexdigest()[:16]
    own.mkdir(parents=True, exist_ok=True)
    egl_vendor = icd = ""
    if egl:
        egl_vendor = _write_json(own / "50_mesa.json",
                                 {"file_format_version": "1.0.0", "ICD": {"library_path": str(egl)}})
    if lvp:
        icd = _write_json(own / "lvp_icd.json", {"file_format_version": "1.0.0",
                                                  "ICD": {"api_version": "1.3.0", "library_path": str(lvp)}})
    libs = [egl, lvp, *gallium, *(found[n] for n in ("libgbm.so.1", "libglapi.so.0", "libdrm.so.2") if n in found)]
    library_dirs = [str(p.parent) for p in libs if p] + [str(d) for d in _multiarch(root)]
    libc, loader = _libc(root, path)
    if libc:                                    # newer than the host's: its own C library first
        library_dirs[:0] = [str(d) for d in _multiarch(root / LIBC)]
    build = Build(root=root, version=version, library_dirs=tuple(dict.fromkeys(library_dirs)),
                  dri_dir=_dri_dir(found, own) if dri else "",
                  egl_vendor=egl_vendor, vulkan_icd=icd,
                  gbm_dir=str(found["dri_gbm.so"].parent) if "dri_gbm.so" in found else "",
                  loader=loader, libc=libc, shader_cache=str(_shader_cache(state, version)),
                  egl_without_glvnd=str(found["libEGL.so.1"]) if "libEGL.so.1" in found and not egl else "",
                  gallium=str(gallium[0]) if gallium else "")
    missing = _unresolved(build, [p for p in (egl, lvp, *gallium) if p])
    if missing:
        raise MesaError(f"--mesa {path}: {missing}")
    return build


def _shader_cache(state: Path | None, version: str) -> Path:
    """A Mesa release's shader cache: one per version, wherever its folder is. Releases must not
    share one (see Build.environment), but a new clone, or another folder of the same release,
    finds the cache its last run left (a cold cache made 26.2.6's gate 1.4-1.8x slower) and
    Mesa keys each entry by its driver's build, so builds of one version cannot mix entries."""
    return (state or config.cache_home() / "mesa") / "shader-cache" / re.sub(r"[^\w.+~-]", "_", version)


def host_loader(executable: str = sys.executable) -> str:
    """The dynamic loader a host program names (its ELF PT_INTERP), e.g. /lib64/ld-linux-x86-64.so.2."""
    with open(executable, "rb") as f:
        header = f.read(64)
        if header[:4] != b"\x7fELF" or header[4] != 2:
            raise MesaError(f"{executable}: not a 64-bit ELF program")
        phoff, = struct.unpack_from("<Q", header, 32)
        phentsize, phnum = struct.unpack_from("<HH", header, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
        for i in range(phnum):
            kind, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", table, i * phentsize)
            if kind == 3:                       # PT_INTERP
                f.seek(offset)
                return f.read(size).rstrip(b"\0").decode()
    raise MesaError(f"{executable}: names no dynamic loader")


def host_libc() -> tuple[int, int]:
    """The C library this Python runs on, as (2, 36)."""
    version = os.confstr("CS_GNU_LIBC_VERSION")
    if version is None:
        raise MesaError("this host's C library is not glibc: it names no CS_GNU_LIBC_VERSION")
    major, minor = version.split()[-1].split(".")[:2]
    return int(major), int(minor)


def _libc(root: Path, path: str | os.PathLike[str]) -> tuple[str, str]:
    """(its C library's version, the loader its processes start under): ("", the host's) when it
    has no C library newer than the host's."""
    libcs = [d / "libc.so.6" for d in _multiarch(root / LIBC) if (d / "libc.so.6").exists()]
    match = LIBC_VERSION.search(libcs[0].read_bytes()) if libcs else None
    host = host_loader()
    if not match or (int(match[1]), int(match[2])) <= host_libc():
        return "", host
    libc = f"{int(match[1])}.{int(match[2])}"
    loaders = [d / os.path.basename(host) for d in _multiarch(root / LIBC) if (d / os.path.basename(host)).exists()]
    if not loaders:
        raise MesaError(f"--mesa {path}: its C library is glibc {libc}, newer than this host's "
                        f"{'.'.join(map(str, host_libc()))}, and it has no loader of its own "
                        f"({LIBC}/{LIBRARY_DIRS[0]}/{os.path.basename(host)})")
    return libc, str(loaders[0])


def _unresolved(build: Build, libraries: list[Path]) -> str:
    """'' if the loader finds every library the build's drivers need, else the first it cannot."""
    for library in libraries:
        with open(library, "rb") as f:
            if f.read(5) != b"\x7fELF\x02":         # not a real driver (a self-test's stand-in)
                continue
        proc = subprocess.run(build.command(["--list", str(library)], {}), capture_output=True, text=True)
        lines = (proc.stdout + proc.stderr).splitlines()
        missing = [line.strip() for line in lines if "not found" in line]
        if missing or proc.returncode != 0:
            return f"{(missing or lines or ['the loader failed'])[-1]} (bin/fetch-mesa fetches a Mesa with its whole runtime)"
    return ""


def _multiarch(root: Path) -> list[Path]:
    return [root / d for d in LIBRARY_DIRS if (root / d).is_dir()]


def read_version(library: Path) -> str:
    """The 'Mesa x.y.z...' string compiled into a driver ('' if none)."""
    try:
        with open(library, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            match = VERSION.search(data)
            return match.group(1).decode() if match else ""
    except (OSError, ValueError):
        return ""


def reported_version(*texts: str) -> str:
    """The Mesa version in a GL_VERSION or Vulkan driverInfo string ('' for another vendor)."""
    for text in texts:
        match = VERSION.search(text.encode())
        if match:
            return match.group(1).decode()
    return ""


def mapped_paths(maps: str) -> list[str]:
    """The files a /proc/PID/maps text maps, by path, each once, in the order first mapped."""
    found: dict[str, None] = {}
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)
        path = fields[5].strip() if len(fields) == 6 else ""
        if path.startswith("/"):
            found[path] = None
    return list(found)


def loaded_libraries(maps: str = "/proc/self/maps") -> list[str]:
    """Mesa's shared objects mapped into this process, by the path they were opened from, sorted
    (the order of mappings varies from process to process)."""
    with open(maps) as f:
        return sorted(path for path in mapped_paths(f.read()) if MESA_LIBRARY.match(os.path.basename(path)))


def _find(root: Path) -> dict[str, Path]:
    """The first file of each name below root, shallowest first (a build directory has copies)."""
    wanted = {"libEGL_mesa.so.0", "libEGL.so.1", "libvulkan_lvp.so", "libgbm.so.1", "libglapi.so.0", "libdrm.so.2",
              "dri_gbm.so", *DRI_NAMES, *DRI_LIBRARIES}
    found: dict[str, Path] = {}
    for folder, dirs, files in sorted(os.walk(root), key=lambda entry: entry[0].count(os.sep)):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("include", "share", "doc")]
        for name in files:
            if (name in wanted or re.fullmatch(r"libgallium-.+\.so", name)) and name not in found:
                found[name] = Path(folder) / name
    return found


def _dri_dir(found: dict[str, Path], own: Path) -> str:
    named = [found[n] for n in DRI_NAMES if n in found]
    if named and all(p.parent == named[0].parent for p in named):
        return str(named[0].parent)
    library = next(found[n] for n in DRI_LIBRARIES if n in found) if not named else named[0]
    links = own / "dri"
    links.mkdir(exist_ok=True)
    for name in DRI_NAMES:
        link_to(links / name, found.get(name, library))
    return str(links)


def link_to(link: Path, target: Path) -> None:
    """`link` made a symbolic link to `target`, atomically (processes of a run make it at once)."""
    if not (link.is_symlink() and os.readlink(link) == str(target)):
        tmp = link.with_name(f".{link.name}.{os.getpid()}")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(target)
        tmp.replace(link)


def _write_json(path: Path, data: dict[str, Any]) -> str:
    text = json.dumps(data, indent=1)
    if not (path.exists() and path.read_text() == text):
        tmp = path.with_name(f".{path.name}.{os.getpid()}")       # xdist workers write it too
        tmp.write_text(text)
        tmp.replace(path)
    return str(path)


def _join(*parts: str) -> str:
    return ":".join(p for p in parts if p)


def _under(path: str, root: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(root)


def _describe(version: str) -> str:
    return f"Mesa {version}" if version else "a driver that is not Mesa's"
