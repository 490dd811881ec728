"""Build a Mesa from source for the harness's targets (bin/build-mesa): a developer's checkout (at
its HEAD or at --commit), or one of Debian's source packages by version (`25.0.7-2+deb13u1`,
fetched with `apt-get source` through a private sources list, Debian's patches applied).

Only what llvmpipe, zink and lavapipe need is built (EGL surfaceless through glvnd; no X11,
Wayland, GBM or video), through ccache, with meson from PyPI at the version the tree asks for
(Debian 12's meson is too old for Mesa 24+). The meson option names are read from the tree's
own options file, so each era gets its spelling: `swrast` or `llvmpipe` for the gallium driver,
`glvnd` as a boolean or a feature, options that an era lacks left out.

The build directory gets `harness-build.json` (what was built, from which source and commit,
with which options): `--mesa BUILD` reads the Debian version there to find the baseline, and a
rebuild with the same options skips meson. Prints the build directory; a missing tree, a
configure or a build failure is one line on stderr, with the log's path, and exit 1.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from harness.base import config
from harness.mesa import fetch as fetch_mesa
from harness.base.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
STAMP = "harness-build.json"
DEBIAN_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.+~]+)?$")
# The targets and the drivers each needs: (gallium drivers, vulkan drivers). lavapipe is built on
# llvmpipe's gallium driver (meson: "swrast vulkan requires gallium swrast").
TARGET_DRIVERS = {"llvmpipe": ({"llvmpipe"}, set()), "zink": ({"zink"}, set()),
                  "lavapipe": ({"llvmpipe"}, {"swrast"})}
# Debian packages a Mesa 22.x-25.x build of those drivers needs on Debian 12 and 13.
BUILD_PACKAGES = ("ccache", "ninja-build", "bison", "flex", "pkg-config", "dpkg-dev", "glslang-tools",
                  "libdrm-dev", "libelf-dev", "libexpat1-dev", "libzstd-dev",
                  "zlib1g-dev", "libvulkan-dev", "libglvnd-dev", "libx11-dev", "libxext-dev", "libxrandr-dev",
                  "libxcb-randr0-dev", "libx11-xcb-dev", "libxshmfence-dev", "libwayland-dev", "python3-venv")
# An LLVM of version N: what llvmpipe compiles against.
LLVM_PACKAGES = ("llvm-{}-dev", "libclang-{}-dev", "libclang-cpp{}-dev")
LLVM_CONFIG = "/usr/lib/llvm-{}/bin/llvm-config"
# Python packages Mesa's generators import, installed beside meson.
BUILD_PYTHON = ("mako", "pyyaml", "ply", "packaging")
MESON_FLOOR = "1.1.0"
DEBIAN = "debian"                   # -O debian: Debian's own compiler flags (dpkg-buildflags)               # what the oldest supported era (22.x) still configures with


class BuildError(UsageError):
    """One line for the user (with the log's path where there is one)."""


@dataclass(frozen=True)
class Option:
    kind: str                       # boolean, feature, combo, array, string, integer
    choices: tuple[str, ...] = ()


def read_options(tree: Path) -> dict[str, Option]:
    """The options a Mesa tree declares (meson.options, or meson_options.txt before 23.3)."""
    for name in ("meson.options", "meson_options.txt"):
        if (tree / name).exists():
            return parse_options((tree / name).read_text())
    raise BuildError(f"{tree}: no meson.options or meson_options.txt: not a Mesa source tree")


def parse_options(text: str) -> dict[str, Option]:
    text = re.sub(r"#[^\n]*", "", text)
    options = {}
    for block in re.split(r"\boption\s*\(", text)[1:]:
        name = re.match(r"\s*'([^']+)'", block)
        kind = re.search(r"\btype\s*:\s*'(\w+)'", block)
        if not (name and kind):
            continue
        choices = re.search(r"\bchoices\s*:\s*\[([^\]]*)\]", block)
        options[name[1]] = Option(kind[1], tuple(re.findall(r"'([^']*)'", choices[1])) if choices else ())
    return options


def meson_args(options: dict[str, Option], targets: tuple[str, ...], optimization: str = "1") -> list[str]:
    """The `meson setup` arguments for TARGETS in the era whose options are OPTIONS: the drivers the
    targets need, EGL surfaceless through glvnd (the targets load Mesa as an EGL vendor), and
    everything else off that the era lets us turn off. Asserts stay off, as in Debian's builds,
    so a build gives the verdicts of the package of its version; `optimization` 1 and no debug
    information keep a bisection step short."""
    gallium, vulkan = set(), set()
    for target in targets:
        gallium |= TARGET_DRIVERS[target][0]
        vulkan |= TARGET_DRIVERS[target][1]
    if "llvmpipe" in gallium and "llvmpipe" not in options["gallium-drivers"].choices:
        gallium = gallium - {"llvmpipe"} | {"swrast"}       # before 24.1: swrast is llvmpipe and softpipe
    wanted: dict[str, object] = {
        "gallium-drivers": sorted(gallium), "vulkan-drivers": sorted(vulkan), "platforms": [],
        "glx": "disabled", "egl": True, "gbm": False, "glvnd": True, "llvm": True, "shared-glapi": True,
        "gles1": False, "gles2": True, "opengl": True, "osmesa": False, "zstd": True,
        "valgrind": False, "libunwind": False, "lmsensors": False, "build-tests": False,
        "gallium-va": False, "gallium-vdpau": False, "gallium-xa": False, "gallium-omx": "disabled",
        "gallium-nine": False, "gallium-opencl": "disabled", "gallium-rusticl": False,
        "gallium-d3d10umd": False, "microsoft-clc": False, "intel-clc": "disabled", "video-codecs": [],
        "vulkan-layers": [], "tools": [], "android-libbacktrace": False, "perfetto": False,
    }
    # "debian": the compiler flags come from dpkg-buildflags (debian_flags), as in Debian's build
    args = ["-Dbuildtype=plain", "-Db_ndebug=true"] if optimization == DEBIAN else \
        [f"-Doptimization={optimization}", "-Ddebug=false", "-Db_ndebug=true"]
    for name, value in wanted.items():
        option = options.get(name)
        if option is None:
            continue                                     # not in this era
        spelled = _spell(option, value)
        if spelled is not None:
            args.append(f"-D{name}={spelled}")
    return args


def _spell(option: Option, value: object) -> str | None:
    if option.kind == "array":
        return ",".join(value) if isinstance(value, list) else None
    if isinstance(value, bool):
        if option.kind == "boolean":
            return "true" if value else "false"
        if option.kind == "feature":
            return "enabled" if value else "disabled"
        if option.kind == "combo":                        # e.g. glvnd 'auto'/'true'/'false' in some eras
            for spelling in (("enabled", "true") if value else ("disabled", "false")):
                if spelling in option.choices:
                    return spelling
        return None
    if option.kind in ("combo", "feature") and (not option.choices or value in option.choices):
        return str(value)
    return None


def required_meson(tree: Path) -> str:
    """The meson version the tree's meson.build asks for, never below MESON_FLOOR."""
    match = re.search(r"meson_version\s*:\s*'>=\s*([\d.]+)'", (tree / "meson.build").read_text())
    wanted = match[1] if match else MESON_FLOOR
    return max(wanted, MESON_FLOOR, key=lambda v: tuple(int(p) for p in v.split(".")))


def mesa_tree(path: Path) -> Path:
    build = path / "meson.build"
    if not ((path / "VERSION").exists() and build.exists() and re.search(r"project\(\s*'mesa'", build.read_text()[:4000])):
        raise BuildError(f"{path}: not a Mesa source tree (no VERSION and meson.build of project 'mesa')")
    return path.resolve()


# -- the machine: build dependencies and the meson tools ---------------------------------------

def install_build_packages(log: TextIO) -> None:
    """apt-get install what BUILD_PACKAGES lacks (once; later calls find them installed)."""
    missing = [p for p in BUILD_PACKAGES if not installed(p)]
    if not missing:
        return
    print(f"build-mesa: installing Debian packages: {' '.join(missing)}", file=sys.stderr)
    _run(["apt-get", "update", "-qq"], log, "apt-get update")
    if not _apt_install(missing, log):
        raise BuildError(f"installing the build dependencies failed; log: {log.name}")


def dependencies(tree: Path, log: TextIO, install: bool = True) -> tuple[int, str]:
    """What a build of TREE needs from the machine: the build packages (installed when INSTALL)
    and the LLVM to build with (choose_llvm, installed when INSTALL and missing)."""
    if install:
        install_build_packages(log)
    return choose_llvm(tree, log, install=install)


def installed(package: str) -> bool:
    return subprocess.run(["dpkg-query", "-W", "-f=${db:Status-Status}", package], capture_output=True,
                          text=True).stdout == "installed"


def installed_llvms() -> list[int]:
    return sorted(int(p.parts[3].split("-")[1]) for p in Path("/usr/lib").glob("llvm-*/bin/llvm-config")
                  if p.parts[3].split("-")[1].isdigit())


def choose_llvm(tree: Path, log: TextIO, install: bool = True) -> tuple[int, str]:
    """(LLVM version, why): the one Debian's package of this source was built with (its
    debian/rules' LLVM_VERSION) when this machine has or can install it, else the newest one
    installed, else the distribution's default (llvm-dev)."""
    rules = tree / "debian" / "rules"
    match = re.search(r"^LLVM_VERSION\s*[:?]?=\s*(\d+)", rules.read_text(), re.M) if rules.exists() else None
    if match:
        wanted = int(match[1])
        if wanted in installed_llvms() or (install and _apt_install([p.format(wanted) for p in LLVM_PACKAGES], log)):
            return wanted, f"LLVM {wanted}, as Debian's package (debian/rules)"
        why = f"Debian's package uses LLVM {wanted}, {'which this machine cannot install' if install else 'not installed'}; "
    else:
        why = ""
    if not installed_llvms() and install:
        _apt_install(["llvm-dev", "libclang-dev"], log)
    have = installed_llvms()
    if not have:
        raise BuildError("no LLVM installed (/usr/lib/llvm-*/bin/llvm-config) and none could be")
    newest = have[-1]
    for package in (p.format(newest) for p in LLVM_PACKAGES):     # its headers (llvm-config is llvm-N's), and clang's
        if install and not installed(package):
            _apt_install([package], log)
    return newest, why + f"LLVM {newest}, the newest installed"


def _apt_install(packages: list[str], log: TextIO) -> bool:
    env = {**config.environ(), "DEBIAN_FRONTEND": "noninteractive"}
    log.write(f"\n$ apt-get install {' '.join(packages)}\n")
    log.flush()
    proc = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
                          stdout=log, stderr=subprocess.STDOUT, env=env)
    return proc.returncode == 0


def meson_tools(version: str, log: TextIO) -> Path:
    """A venv with meson VERSION and Mesa's generator modules; its bin/ goes first on PATH."""
    venv = config.cache_home() / "mesa-build-tools" / f"meson-{version}"
    if not (venv / ".ready").exists():
        shutil.rmtree(venv, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(venv)], log, "making the meson venv")
        _run([str(venv / "bin/pip"), "install", "-q", "--disable-pip-version-check", f"meson=={version}",
              *BUILD_PYTHON], log, f"installing meson {version} from PyPI")
        (venv / ".ready").touch()
    return venv / "bin"


# -- sources -------------------------------------------------------------------------------------

def debian_source(version: str, dest_root: Path, log: TextIO) -> Path:
    """Debian's source package of Mesa VERSION, unpacked with its patches applied (dpkg-source),
    in dest_root/<version>/mesa-<upstream>/. Kept: a second call finds it."""
    dest = dest_root / fetch_mesa.folder_name(version)
    done = dest / ".unpacked"
    if done.exists():
        return dest / done.read_text().strip()
    for suite in fetch_mesa.SUITES:
        apt = fetch_mesa.Apt(suite, dest_root / ".apt", deb_src=True)
        try:
            apt.update()
            if version in apt.source_versions("mesa"):
                break
        except fetch_mesa.FetchError:
            continue
    else:
        raise BuildError(f"no suite of {fetch_mesa.MIRROR} holds Debian's source of Mesa {version} "
                         f"(suites asked: {', '.join(fetch_mesa.SUITES)})")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    print(f"build-mesa: Debian's source of Mesa {version} from {suite}", file=sys.stderr)
    _run(["apt-get", *apt.options(), "source", "-qq", f"mesa={version}"], log, "apt-get source", cwd=dest)
    trees = [d for d in dest.iterdir() if d.is_dir() and (d / "VERSION").exists()]
    if len(trees) != 1:
        raise BuildError(f"apt-get source mesa={version} left no single source tree in {dest}")
    # as debian/rules does before configuring, where it does (trixie's, not bookworm's): the
    # drivers then report the package's version
    rules = trees[0] / "debian" / "rules"
    if rules.exists() and re.search(r"dpkg-parsechangelog.*> VERSION", rules.read_text()):
        (trees[0] / "VERSION").write_text(fetch_mesa.folder_name(version) + "\n")
    done.write_text(trees[0].name)
    return trees[0]


def checkout(tree: Path, commit: str, log: TextIO) -> str:
    """Check out COMMIT (detached) in a clean tree; returns its full hash."""
    if _git(tree, "status", "--porcelain", "--untracked-files=no"):
        raise BuildError(f"{tree}: has uncommitted changes; commit or stash them before --commit")
    _run(["git", "-C", str(tree), "checkout", "-q", "--detach", commit], log, f"git checkout {commit}")
    return _git(tree, "rev-parse", "HEAD")


def _git(tree: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


# -- the build -----------------------------------------------------------------------------------

def build(tree: Path, build_dir: Path, targets: tuple[str, ...], log_path: Path, debian: str = "",
          optimization: str = "1", install_packages: bool = True) -> dict[str, Any]:
    """Configure (when the meson arguments changed, or the build directory has none yet) and build;
    returns the stamp written into the build directory."""
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(log_path, "a") as log:
        llvm, llvm_why = dependencies(tree, log, install=install_packages)
        options = read_options(tree)
        # meson takes llvm-config from this file, not PATH; outside the build directory, which
        # `meson setup --wipe` empties
        native = config.cache_home() / "mesa-build-tools" / f"llvm-{llvm}.ini"
        native.parent.mkdir(parents=True, exist_ok=True)
        native.write_text(f"[binaries]\nllvm-config = '{LLVM_CONFIG.format(llvm)}'\n")
        args = [*meson_args(options, targets, optimization), f"--native-file={native}"]
        bin_dir = meson_tools(required_meson(tree), log)
        flags = debian_flags(tree) if optimization == DEBIAN else {}
        env = {**config.environ(), "PATH": f"{bin_dir}:{config.environ().get('PATH', '')}", **flags}
        stamp_path = build_dir / STAMP
        old = json.loads(stamp_path.read_text()) if stamp_path.exists() else {}
        started = time.monotonic()
        if old.get("meson_args") != args or not (build_dir / "build.ninja").exists():
            setup = ["meson", "setup", str(build_dir), str(tree), *args]
            if (build_dir / "build.ninja").exists():
                setup.insert(2, "--reconfigure")
            try:
                _run(setup, log, "meson setup", env=env, cwd=tree)
            except BuildError:                   # an option of another era in its cache: start afresh
                _run(["meson", "setup", "--wipe", str(build_dir), str(tree), *args], log, "meson setup", env=env, cwd=tree)
        _run(["ninja", "-C", str(build_dir)], log, "ninja", env=env)
        commit = _git(tree, "rev-parse", "HEAD") if (tree / ".git").exists() else ""
        stamp = {"source": str(tree), "version": (tree / "VERSION").read_text().strip(), "debian": debian,
                 "commit": commit, "targets": list(targets), "meson_args": args, "llvm": llvm_why,
                 "flags": flags,
                 "seconds": round(time.monotonic() - started, 1)}
        stamp_path.write_text(json.dumps(stamp, indent=1) + "\n")
        return stamp


def debian_flags(tree: Path) -> dict[str, str]:
    """CFLAGS, CXXFLAGS, CPPFLAGS and LDFLAGS as Debian's build of this source sets them
    (dpkg-buildflags with debian/rules' DEB_BUILD_MAINT_OPTIONS, where it says; -O2 -g, the
    stack protector, format checks), for meson to read at configure time."""
    rules = tree / "debian" / "rules"
    match = re.search(r"^export DEB_BUILD_MAINT_OPTIONS\s*=\s*(.+)$", rules.read_text(), re.M) if rules.exists() else None
    env = {**config.environ(), **({"DEB_BUILD_MAINT_OPTIONS": match[1].strip()} if match else {}),
           "DEB_CFLAGS_MAINT_APPEND": "-Wall", "DEB_CXXFLAGS_MAINT_APPEND": "-Wall"}
    return {name: subprocess.run(["dpkg-buildflags", "--get", name], capture_output=True, text=True, env=env,
                                 cwd=tree).stdout.strip() for name in ("CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS")}


def _run(argv: list[str], log: TextIO, what: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
    log.write(f"\n$ {' '.join(argv)}\n")
    log.flush()
    start = log.tell()
    proc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if proc.returncode != 0:
        with open(log.name, "rb") as said:        # this command's output only: the log is appended to
            said.seek(start)
            why = failure_line(said.read().decode(errors="replace"))
        raise BuildError(f"{what} failed (exit {proc.returncode}){': ' + why if why else ''}; log: {log.name}")


def failure_line(output: str) -> str:
    """The line of a failed command's output that says why: the first meson `ERROR:` or compiler
    `error:` (the cause; later ones are often its consequences), else the last non-empty line
    (meson's and ninja's last lines only point at logs)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    cause = next((line for line in lines if re.search(r"\bERROR\b|\berror:", line)), lines[-1] if lines else "")
    return cause[:300]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bin/build-mesa", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a Mesa source tree (a git checkout), or a Debian version of Mesa's source package")
    parser.add_argument("--commit", help="check out this commit in the (clean) tree first")
    parser.add_argument("--build-dir", help="default: SOURCE/build-harness")
    parser.add_argument("--src-dir", default=str(ROOT / "mesa-src"),
                        help="where Debian source packages are unpacked (default: mesa-src/)")
    parser.add_argument("--targets", default="llvmpipe,zink,lavapipe",
                        help="the targets to build drivers for (default: llvmpipe,zink,lavapipe)")
    parser.add_argument("-O", "--optimization", default="1", choices=["0", "1", "2", "3", "s", DEBIAN],
                        help="meson's optimization level (default 1: a short bisection step), or 'debian': "
                             "Debian's compiler flags (dpkg-buildflags: -O2 -g, hardening), as its package")
    args = parser.parse_args(argv)
    targets = tuple(t for t in args.targets.split(",") if t)
    unknown = [t for t in targets if t not in TARGET_DRIVERS]
    if unknown or not targets:
        print(f"build-mesa: --targets {args.targets}: choose from {', '.join(TARGET_DRIVERS)}", file=sys.stderr)
        return 2
    path = Path(args.source).expanduser()
    asked_build_dir = Path(args.build_dir).expanduser() if args.build_dir else None
    try:
        debian = ""
        if not path.exists() and DEBIAN_VERSION.match(args.source):
            debian = args.source
            src_root = Path(args.src_dir).expanduser().resolve()
            src_root.mkdir(parents=True, exist_ok=True)
            with open(src_root / f"{fetch_mesa.folder_name(debian)}.log", "a") as log:
                tree = debian_source(debian, src_root, log)
        elif not path.is_dir():
            raise BuildError(f"{args.source}: no such directory, and not a Debian version of Mesa (like 25.0.7-2+deb13u1)")
        else:
            tree = mesa_tree(path)
        build_dir = (asked_build_dir or tree / "build-harness").resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        log_path = build_dir / "harness-build.log"
        if args.commit:
            with open(log_path, "a") as log:
                checkout(tree, args.commit, log)
        stamp = build(tree, build_dir, targets, log_path, debian=debian, optimization=args.optimization)
    except BuildError as exc:
        print(f"build-mesa: {exc}", file=sys.stderr)
        return 1
    what = debian or (stamp["commit"][:12] if stamp["commit"] else stamp["version"])
    print(f"build-mesa: Mesa {stamp['version']} ({what}) built in {stamp['seconds']} s", file=sys.stderr)
    print(build_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
