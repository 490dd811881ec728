"""The Mesa under test (--mesa): finding a build, the loader environment it gives a target's
child, the check that the driver which answered came from it, and runs of one target on two
Mesas side by side in the report. The real-driver tests use the system's Mesa, and sid's Mesa
26.2.6 with its whole runtime where bin/fetch-mesa has put it (bin/selftest does): its C library
is newer than Debian 12's and 13's, so its processes start under its own loader."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.mesa import runtime as mesa
from harness.executor import targets
from harness.executor.probe import probe
from harness.report import html as report
from conftest import ROOT, generated
from report.test_html import chromium_dom, parse

SYSTEM_LIBS = Path("/usr/lib/x86_64-linux-gnu")
# bin/selftest fetches it; resolved as harness.mesa.runtime.locate resolves it (a checkout whose
# mesa/ is a link, e.g. a worktree sharing another's fetched Mesas, gets the same paths)
FETCHED = (ROOT / "mesa" / "26.2.6-1").resolve()
needs_fetched = pytest.mark.skipif(not (FETCHED / ".fetched").exists(),
                                   reason=f"bin/fetch-mesa could not fetch {FETCHED.name} (sid may have moved on)")
CLEAN_ENV = {k: v for k, v in os.environ.items() if k != "HARNESS_MESA"}


def fake_library(path: Path, version: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x7fELF\0padding\0" + f"Mesa {version}\0".encode() + b"more\0")
    return path


def test_a_meson_build_directory_is_found(tmp_path):
    """Mesa 22's build tree: libgallium_dri.so but no per-driver names; they are made as links."""
    build = tmp_path / "build"
    fake_library(build / "src/gallium/targets/dri/libgallium_dri.so", "23.1.0-devel (git-abc123)")
    fake_library(build / "src/egl/libEGL_mesa.so.0", "23.1.0-devel (git-abc123)")
    fake_library(build / "src/gallium/targets/lavapipe/libvulkan_lvp.so", "23.1.0-devel (git-abc123)")
    found = mesa.locate(build, state=tmp_path / "state")
    assert found.version == "23.1.0-devel"       # what GL_VERSION shows: "Mesa 23.1.0-devel (git-abc123)"
    links = Path(found.dri_dir)
    assert {p.name for p in links.iterdir()} == set(mesa.DRI_NAMES)
    assert all(os.readlink(p) == str(build / "src/gallium/targets/dri/libgallium_dri.so") for p in links.iterdir())
    assert str(build / "src/egl") in found.library_dirs
    vendor = json.loads(Path(found.egl_vendor).read_text())
    assert vendor["ICD"]["library_path"] == str(build / "src/egl/libEGL_mesa.so.0")
    icd = json.loads(Path(found.vulkan_icd).read_text())
    assert icd["ICD"]["library_path"] == str(build / "src/gallium/targets/lavapipe/libvulkan_lvp.so")
    assert mesa.locate(build, state=tmp_path / "state") == found             # again: the same


def test_the_layout_of_mesa_24_3_and_later_is_found(tmp_path):
    """Mesa 24.3+'s build tree (25.0.7's, as bin/build-mesa leaves it): libEGL_mesa links
    libgallium-<version>.so, which holds the drivers; there is no DRI file to point
    LIBGL_DRIVERS_PATH at. Its install prefix adds libdril_dri.so, the stub the DRI names link to."""
    build = tmp_path / "build"
    gallium = fake_library(build / "src/gallium/targets/dri/libgallium-25.0.7.so", "25.0.7")
    fake_library(build / "src/egl/libEGL_mesa.so.0", "25.0.7")
    found = mesa.locate(build, state=tmp_path / "state")
    assert found.version == "25.0.7" and found.gallium == str(gallium) and found.dri_dir == ""
    assert str(gallium.parent) in found.library_dirs                # where libEGL_mesa finds it
    assert found.lacks(gl=True, vulkan=False) == ""
    assert "LIBGL_DRIVERS_PATH" not in targets.get("llvmpipe").environment({}, found)
    dril = fake_library(build / "src/gallium/targets/dril/libdril_dri.so", "25.0.7")
    found = mesa.locate(build, state=tmp_path / "state")
    assert {os.readlink(p) for p in Path(found.dri_dir).iterdir()} == {str(dril)}


def test_a_build_without_glvnd_says_how_to_configure_it(tmp_path):
    """meson's default (-Dglvnd=false before 24.1) builds Mesa's own libEGL.so.1, which the GL
    targets cannot load as glvnd's vendor: the target says so, not 'no EGL and DRI drivers'."""
    build = tmp_path / "build"
    fake_library(build / "src/gallium/targets/dri/libgallium_dri.so", "24.0.0")
    fake_library(build / "src/egl/libEGL.so.1", "24.0.0")
    fake_library(build / "src/gallium/targets/lavapipe/libvulkan_lvp.so", "24.0.0")
    found = mesa.locate(build, state=tmp_path / "state")
    assert "built without glvnd" in found.lacks(gl=True, vulkan=False)
    assert "-Dglvnd=enabled" in found.lacks(gl=True, vulkan=False)
    assert found.lacks(gl=False, vulkan=True) == ""              # lavapipe still runs


def test_environment_loads_only_the_build(tmp_path):
    prefix = tmp_path / "prefix"
    libs = prefix / "usr/lib/x86_64-linux-gnu"
    fake_library(libs / "libgallium-25.0.7.so", "25.0.7")
    fake_library(libs / "dri/swrast_dri.so", "25.0.7")
    fake_library(libs / "dri/zink_dri.so", "25.0.7")
    fake_library(libs / "libEGL_mesa.so.0", "25.0.7")
    fake_library(libs / "libvulkan_lvp.so", "25.0.7")
    found = mesa.locate(prefix, state=tmp_path / "state")
    base = {"LD_LIBRARY_PATH": "/opt/x", "__EGL_VENDOR_LIBRARY_FILENAMES": "/nv/10_nvidia.json",
            "VK_DRIVER_FILES": "/nv/nvidia_icd.json"}
    zink = targets.get("zink").environment(base, found)
    assert zink["LD_LIBRARY_PATH"] == "/opt/x"              # what the child's own children inherit
    # the child itself starts under the host's loader, the build's libraries first
    assert targets.get("zink").command(["python"], base, found) == [
        mesa.host_loader(), "--library-path", f"{libs}:/opt/x", "python"]
    assert targets.get("system-gl").command(["python"], base, found) == ["python"]
    assert zink["LIBGL_DRIVERS_PATH"] == str(libs / "dri")
    assert zink["__EGL_VENDOR_LIBRARY_FILENAMES"] == f"{found.egl_vendor}:/nv/10_nvidia.json"
    assert zink["VK_DRIVER_FILES"] == zink["VK_ICD_FILENAMES"] == found.vulkan_icd     # its own lavapipe
    # zink-system keeps the machine's Vulkan driver; lavapipe (the harness's layer) needs no EGL
    assert targets.get("zink-system").environment(base, found)["VK_DRIVER_FILES"] == "/nv/nvidia_icd.json"
    assert "LIBGL_DRIVERS_PATH" not in targets.get("lavapipe").environment({}, found)
    assert targets.get("system-gl").environment(base, found) == base                  # not a Mesa target


def test_check_loaded_names_what_loaded(tmp_path):
    prefix = tmp_path / "prefix"
    fake_library(prefix / "lib/libvulkan_lvp.so", "25.0.7")
    found = mesa.locate(prefix, state=tmp_path / "state")
    own = str(prefix.resolve() / "lib/libvulkan_lvp.so")
    assert found.check_loaded("25.0.7", [own]) == ""
    why = found.check_loaded("22.3.6", [own, "/usr/lib/libvulkan_lvp.so"])
    assert why.startswith("loaded /usr/lib/libvulkan_lvp.so (Mesa 22.3.6), not only Mesa 25.0.7 from")
    assert "reports Mesa 22.3.6" in found.check_loaded("22.3.6", [own])
    assert "not Mesa's" in found.check_loaded("", [own])


def test_reported_version():
    assert mesa.reported_version("4.5 (Core Profile) Mesa 25.0.7-2~bpo12+1") == "25.0.7-2~bpo12+1"
    assert mesa.reported_version("", "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)") == "22.3.6"
    assert mesa.reported_version("4.6.0 NVIDIA 580.159.04") == ""


@pytest.mark.parametrize("command", [
    [sys.executable, "-m", "harness", "targets", "--mesa", "{empty}"],
    [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/tess", "--mesa", "{empty}"],
])
def test_a_folder_without_mesa_is_one_line_and_exit_2(tmp_path, command):
    (tmp_path / "empty" / "lib").mkdir(parents=True)
    proc = subprocess.run([a.format(empty=tmp_path / "empty") for a in command], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=CLEAN_ENV)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
    assert len(lines) == 1 and "holds no Mesa" in lines[0], lines


def test_a_prefix_whose_egl_loads_another_mesa_is_unavailable(tmp_path):
    """A prefix of links to the system's Mesa: the child maps the system's files, so llvmpipe
    is not available, and the reason names the library that loaded."""
    prefix = tmp_path / "prefix" / "lib"
    (prefix / "dri").mkdir(parents=True)
    # Mesa 24.3 and later (Debian 13's 25.0.7) keep the drivers and their version in libgallium
    for name in ("libEGL_mesa.so.0", "libglapi.so.0", *(p.name for p in SYSTEM_LIBS.glob("libgallium*.so"))):
        if (SYSTEM_LIBS / name).exists():
            (prefix / name).symlink_to(SYSTEM_LIBS / name)
    for name in ("swrast_dri.so", "kms_swrast_dri.so"):
        (prefix / "dri" / name).symlink_to(SYSTEM_LIBS / "dri" / name)
    found = mesa.locate(tmp_path / "prefix", state=tmp_path / "state")
    result = probe(targets.get("llvmpipe"), mesa=found)
    assert result.status == "error"
    assert f"loaded {SYSTEM_LIBS}/" in result.message and f"from {tmp_path / 'prefix'}" in result.message
    # bisect-run calls such a build untestable (125) rather than good or bad
    proc = subprocess.run([sys.executable, "-m", "harness", "bisect-run", "--target", "llvmpipe",
                           "--mesa", str(tmp_path / "prefix"), "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=CLEAN_ENV)
    assert proc.returncode == 125 and "is not the build under test" in proc.stdout, proc.stdout + proc.stderr


@needs_fetched
@pytest.mark.parametrize("name", ["llvmpipe", "zink", "lavapipe"])
def test_the_three_local_targets_run_the_fetched_mesa(name):
    found = mesa.locate(FETCHED)
    assert found.loader.startswith(f"{FETCHED}/libc/") and found.libc == "2.43"
    result = probe(targets.get(name), mesa=found)
    assert result.status == "ok", result.message
    facts = result.info
    assert facts.mesa == found.version == "26.2.6-1"
    assert facts.mesa_libraries and all(lib.startswith(str(FETCHED)) for lib in facts.mesa_libraries)
    if name != "llvmpipe":              # zink on the fetched lavapipe, not Debian 12's
        assert any(lib.endswith("libvulkan_lvp.so") for lib in facts.mesa_libraries)


# -- a Mesa with its runtime: the loader its processes start under -------------------------
def fake_closure(root: Path, libc_version: str, loader: bool = True, version: str = "26.2.6-1") -> Path:
    """A prefix as bin/fetch-mesa leaves it: Mesa's drivers, and glibc apart in libc/."""
    libs = root / mesa.LIBRARY_DIRS[0]
    for name in (f"libgallium-{version}.so", "dri/swrast_dri.so", "libEGL_mesa.so.0", "libvulkan_lvp.so"):
        fake_library(libs / name, version)
    libc = root / mesa.LIBC / mesa.LIBRARY_DIRS[0]
    libc.mkdir(parents=True)
    (libc / "libc.so.6").write_bytes(f"GNU C Library (Debian GLIBC {libc_version}-1) stable release "
                                     f"version {libc_version}.\0".encode())
    if loader:
        (libc / Path(mesa.host_loader()).name).write_bytes(b"\x7fELF")
    return root


def test_a_newer_c_library_brings_its_own_loader(tmp_path):
    root = fake_closure(tmp_path / "sid", "9.99")
    found = mesa.locate(root, state=tmp_path / "state")
    libc = str(root / mesa.LIBC / mesa.LIBRARY_DIRS[0])
    assert found.libc == "9.99" and found.loader == f"{libc}/{Path(mesa.host_loader()).name}"
    assert found.library_dirs[0] == libc                # its C library before everything else
    assert found.command(["/usr/bin/python3"], {"LD_LIBRARY_PATH": "/opt/x"}) == [
        found.loader, "--library-path", ":".join(found.library_dirs) + ":/opt/x", "/usr/bin/python3"]


def test_an_older_or_equal_c_library_runs_under_the_hosts(tmp_path):
    host = ".".join(map(str, mesa.host_libc()))
    for version in ("2.1", host):
        found = mesa.locate(fake_closure(tmp_path / version, version), state=tmp_path / "state")
        assert found.libc == "" and found.loader == mesa.host_loader()
        assert not any("/libc/" in d for d in found.library_dirs), found.library_dirs    # never its libc


def test_a_newer_c_library_without_its_loader_is_one_line_and_exit_2(tmp_path):
    root = fake_closure(tmp_path / "sid", "9.99", loader=False)
    proc = subprocess.run([sys.executable, "-m", "harness", "targets", "--mesa", str(root)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=CLEAN_ENV)
    lines = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stdout + proc.stderr
    assert "glibc 9.99" in lines[0] and "no loader of its own" in lines[0]


@needs_fetched
def test_a_fetched_mesa_missing_a_library_is_one_line_and_exit_2(tmp_path):
    """The fetched closure, less libLLVM (a tree of links to it): the loader cannot resolve it."""
    copy = tmp_path / "mesa"
    subprocess.run(["cp", "-as", str(FETCHED), str(copy)], check=True)
    llvm = [p for p in (copy / mesa.LIBRARY_DIRS[0]).glob("libLLVM*")]
    assert llvm
    for p in llvm:
        p.unlink()
    proc = subprocess.run([sys.executable, "-m", "harness", "targets", "--mesa", str(copy)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=CLEAN_ENV)
    lines = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stdout + proc.stderr
    assert "libLLVM" in lines[0] and ("not found" in lines[0] or "cannot open" in lines[0])


@needs_fetched
def test_host_tools_started_from_a_child_of_the_fetched_mesa_still_run():
    """A child started as the executor starts it (the closure's loader, glibc 2.43, and the
    target's environment) runs /bin/sh and glslang: nothing of the closure reaches them."""
    found = mesa.locate(FETCHED)
    target = targets.get("zink")
    child = ("import os, subprocess; print(os.confstr('CS_GNU_LIBC_VERSION')); "
             "print(subprocess.run(['sh', '-c', 'glslangValidator --version'], capture_output=True, "
             "text=True, check=True).stdout.splitlines()[0])")
    proc = subprocess.run(target.command([sys.executable, "-c", child], CLEAN_ENV, found),
                          env=target.environment(CLEAN_ENV, found), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "glibc 2.43"                       # the child: the closure's
    assert proc.stdout.splitlines()[1].startswith("Glslang Version")         # its children: the host's
    # and so does a program started by `harness exec`, the way shader_runner would be
    proc = subprocess.run([sys.executable, "-m", "harness", "exec", "zink", "--mesa", str(FETCHED), "--",
                           "sh", "-c", "glslangValidator --version"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=CLEAN_ENV)
    assert proc.returncode == 0 and proc.stdout.startswith("Glslang Version"), proc.stderr


def test_each_release_has_a_shader_cache_of_its_own_which_its_folders_share(tmp_path):
    """Releases must not share a cache (the index sizes differ: SIGBUS); two folders of one
    release (a new clone) share one, so a fresh clone does not compile everything again."""
    one = mesa.locate(fake_closure(tmp_path / "one", "2.1"), state=tmp_path / "state")
    two = mesa.locate(fake_closure(tmp_path / "two", "2.1"), state=tmp_path / "state")
    other = mesa.locate(fake_closure(tmp_path / "three", "2.1", version="26.1.6-1"), state=tmp_path / "state")
    caches = [targets.get(t).environment({}, b)["MESA_SHADER_CACHE_DIR"]
              for b in (one, two, other) for t in ("zink", "lavapipe")]
    assert caches[0] == caches[1] == caches[2] == caches[3] != caches[4] == caches[5]
    assert all(c.startswith(str(tmp_path / "state")) for c in caches)


@needs_fetched
def test_a_child_of_the_fetched_mesa_maps_no_shader_cache_but_its_own():
    """Mesa 22.3.6 truncates the default shader cache's index (~/.cache/mesa_shader_cache/index)
    to the size it knows, smaller than the one 26.2.6 maps: a 26.2.6 child sharing it dies of
    SIGBUS when a 22.3.6 process runs beside it (triage/mesa-26.2.6/shader-cache-index-across-
    releases). A child of a --mesa build maps only the index in that build's own folder."""
    from harness.executor.executor import Executor
    build = mesa.locate(FETCHED)
    case = generated("tess")[0]
    executor = Executor(targets.get("llvmpipe"), mesa=build, case_timeout=60)
    try:
        assert executor.run(case).status == "ok"
        with open(f"/proc/{executor._proc.pid}/maps") as maps:
            indexes = {line.split()[-1] for line in maps if line.rstrip().endswith("/index")}
    finally:
        executor.close()
    assert indexes and all(path.startswith(build.shader_cache + "/") for path in indexes), indexes


# -- one target on two Mesas, side by side in the report --------------------------------------
CASES = ("tess/tcs/quads/equal/in1-out1", "tess/no-tcs/quads/equal/pv4/o2_3_4_5-i6_7")


@pytest.fixture
def two_mesas(tmp_path):
    for version, first in (("22.3.6", "pass"), ("25.0.7-2~bpo12+1", "fail")):
        folder = tmp_path / version
        folder.mkdir()
        entries = [{"id": case_id, "target": "llvmpipe", "status": status, "expected": "", "duration": 0.1,
                    "renderer": "llvmpipe (LLVM 15.0.6, 256 bits)", "mesa": version,
                    "message": "" if status == "pass" else "TCS gl_PrimitiveID = 2, expected 0"}
                   for case_id, status in zip(CASES, (first, "pass"))]
        (folder / "results.json").write_text(json.dumps({"results": entries}))
    return report.write_report([tmp_path / "22.3.6", tmp_path / "25.0.7-2~bpo12+1"], tmp_path / "out")


def check_two_columns(dom) -> None:
    head = [th.text() for th in dom.find("table", id="diff").find("tr").find_all("th")]
    assert head == ["case", "llvmpipe · Mesa 22.3.6", "llvmpipe · Mesa 25.0.7-2~bpo12+1"]
    row = dom.find("table", id="diff").find_all("tr")[1]
    assert [td.text().strip() for td in row.find_all("td")][-2:] == ["pass", "fail"]
    assert "appears twice" not in dom.text()


def test_report_shows_two_mesas_side_by_side(two_mesas):
    check_two_columns(parse(two_mesas.read_text()))


def test_report_two_mesas_in_chromium(two_mesas, tmp_path):
    check_two_columns(chromium_dom(two_mesas, tmp_path))
