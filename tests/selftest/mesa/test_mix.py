"""zink of one Mesa over lavapipe of another (harness/mesa/mix.py), and what blame's rules make of
it (blame_rules.mixed_verdicts). The folder of links over stand-in trees; the real mix over the
pinned Mesa (one release mixed with itself: the mechanism, loader and check included)."""
from __future__ import annotations

import json

from conftest import pinned_mesa
from harness.executor import targets
from harness.executor.probe import probe
from harness.mesa import mix
from harness.mesa.runtime import Build
from harness.model.status import Reply
from harness.triage.blame_rules import Row, judge


def _tree(root, libs, libc=""):
    lib = root / "usr/lib/x86_64-linux-gnu"
    lib.mkdir(parents=True)
    for name in libs:
        (lib / name).write_text("stand-in")
    icd = root / "icd.json"
    icd.write_text(json.dumps({"ICD": {"library_path": str(lib / "libvulkan_lvp.so")}}))
    dirs = (str(lib),)
    if libc:
        (root / "libc/usr/lib/x86_64-linux-gnu").mkdir(parents=True)
        dirs = (str(root / "libc/usr/lib/x86_64-linux-gnu"),) + dirs
    return Build(root=root, version=root.name, library_dirs=dirs, dri_dir="", egl_vendor=str(root / "egl.json"),
                 vulkan_icd=str(icd), gbm_dir="", loader=f"{root}/ld.so", libc=libc)


def test_the_newer_runtime_and_the_gl_mesas_own_libraries_are_linked(tmp_path):
    old = _tree(tmp_path / "24.0.0", ["libEGL_mesa.so.0", "libgallium-24.0.0.so", "libvulkan_lvp.so",
                                      "libstdc++.so.6", "libLLVM-15.so.1"])
    new = _tree(tmp_path / "26.2.6", ["libEGL_mesa.so.0", "libgallium-26.2.6.so", "libvulkan_lvp.so",
                                      "libstdc++.so.6", "libLLVM.so.22.1"], libc="2.43")
    built = mix.mixed(old, new, state=tmp_path / "state")
    folder = built.library_dirs[-1]
    linked = {p.name: p.resolve().parent.parent.parent.parent.name for p in (tmp_path / "state/mixed").glob("*/*")}
    assert linked == {"libEGL_mesa.so.0": "24.0.0", "libgallium-24.0.0.so": "24.0.0",      # zink's own: the GL Mesa's
                      "libstdc++.so.6": "26.2.6",                                          # the newer runtime
                      "libLLVM-15.so.1": "24.0.0", "libLLVM.so.22.1": "26.2.6",             # each LLVM
                      "libvulkan_lvp.so": "26.2.6"}
    assert built.library_dirs == (str(tmp_path / "26.2.6/libc/usr/lib/x86_64-linux-gnu"), folder)
    assert (built.loader, built.libc, built.vulkan_icd, built.version) == \
        (new.loader, "2.43", new.vulkan_icd, "24.0.0")
    assert built.environment({}, gl=True, vulkan=True)["MESA_SHADER_CACHE_DISABLE"] == "true"


def test_a_mesa_mixed_with_itself_runs_zink_over_lavapipe():
    build = pinned_mesa()
    if build is None:
        import pytest
        pytest.skip("the pinned Mesa is not fetched (bin/fetch-mesa bookworm)")
    result = probe(targets.get("zink"), mesa=mix.mixed(build, build))
    assert result.status is Reply.OK, result.message
    assert "llvmpipe" in result.info.renderer and result.info.mesa == build.version


def _rows(mesa, zink, mixed, back=None):
    table = [Row("llvmpipe", mesa, "pass"), Row("zink/lavapipe", mesa, zink), Row("layer/native", mesa, "pass",
                                                                                   zinks_path=True)]
    other = "25.0.7" if mesa == "24.0.0" else "24.0.0"
    return table + [Row(f"zink/lavapipe@{other}", mesa, mixed)]


def test_a_failure_that_follows_zink_across_releases_is_zinks():
    verdict = judge(_rows("24.0.0", "fail", "fail") + _rows("25.0.7", "pass", "pass"))
    assert verdict.component == "zink", verdict.reason
    assert "follows zink 24.0.0: it fails over lavapipe 25.0.7 too, where zink 25.0.7 passes" in verdict.reason


def test_a_failure_that_follows_lavapipe_needs_both_directions():
    both = judge(_rows("24.0.0", "fail", "pass") + _rows("25.0.7", "pass", "fail"))
    assert both.component == "lavapipe", both.reason
    one = judge(_rows("24.0.0", "fail", "pass") + _rows("25.0.7", "pass", "pass"))
    assert one.component == "undecided"      # zink 24.0.0 may take another path over lavapipe 25.0.7


def test_a_mix_that_says_nothing_leaves_rule_6_undecided():
    verdict = judge(_rows("24.0.0", "fail", "error") + _rows("25.0.7", "pass", "pass"))
    assert verdict.component == "undecided" and "no other Vulkan driver" in verdict.reason
