"""The Mesa under test (--mesa): finding a build, the loader environment it gives a target's
child, the check that the driver which answered came from it, and runs of one target on two
Mesas side by side in the report. The real-driver tests use the system's Mesa, and the
bookworm-backports Mesa where bin/fetch-mesa has put it (CI does)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import mesa, targets
from harness.executor import probe
from harness.report import html as report
from test_report import chromium_dom, parse

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_LIBS = Path("/usr/lib/x86_64-linux-gnu")
BACKPORTS = ROOT / "mesa" / "25.0.7"
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
    assert found.check_loaded({"mesa": "25.0.7", "mesa_libraries": [own]}) == ""
    why = found.check_loaded({"mesa": "22.3.6", "mesa_libraries": [own, "/usr/lib/libvulkan_lvp.so"]})
    assert why.startswith("loaded /usr/lib/libvulkan_lvp.so (Mesa 22.3.6), not only Mesa 25.0.7 from")
    assert "reports Mesa 22.3.6" in found.check_loaded({"mesa": "22.3.6", "mesa_libraries": [own]})
    assert "not Mesa's" in found.check_loaded({"mesa": "", "mesa_libraries": [own]})


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
    for name in ("libEGL_mesa.so.0", "libglapi.so.0"):
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


@pytest.mark.skipif(not BACKPORTS.is_dir(), reason="bin/fetch-mesa has not fetched Mesa 25.0.7")
@pytest.mark.parametrize("name", ["llvmpipe", "zink", "lavapipe"])
def test_the_three_local_targets_run_the_fetched_mesa(name):
    found = mesa.locate(BACKPORTS)
    result = probe(targets.get(name), mesa=found)
    assert result.status == "ok", result.message
    facts = result.observation
    assert facts["mesa"] == found.version != "22.3.6"
    assert facts["mesa_libraries"] and all(lib.startswith(str(BACKPORTS)) for lib in facts["mesa_libraries"])
    if name != "llvmpipe":              # zink on the fetched lavapipe, not Debian 12's
        assert any(lib.endswith("libvulkan_lvp.so") for lib in facts["mesa_libraries"])


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
