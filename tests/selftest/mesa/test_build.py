"""bin/build-mesa's choices that can be checked without building Mesa: the meson options of each
era, the meson version a tree asks for, what is a Mesa tree and what is bad input. The real
builds (22.3.6 and 25.0.7 from Debian's source, 24.0.0 and its bisections from git) are
reproduced by bench/mesa_from_source.sh."""
from __future__ import annotations

import subprocess
import sys

import pytest

from harness.mesa import build as mesa_build

from conftest import ROOT

# The declarations that differ between eras, written the way each era's options file has them.
MESA_22 = """
option('platforms', type : 'array', value : ['auto'], choices : ['auto', 'x11', 'wayland', 'haiku', 'android', 'windows'])
option(
  'gallium-drivers',
  type : 'array',
  value : ['auto'],
  choices : ['auto', 'kmsro', 'radeonsi', 'swrast', 'zink', 'iris'],  # swrast: llvmpipe and softpipe
)
option('vulkan-drivers', type : 'array', value : ['auto'], choices : ['auto', 'amd', 'intel', 'swrast'])
option('glvnd', type : 'boolean', value : false, description : 'Enable GLVND support.')
option('glx', type : 'combo', value : 'auto', choices : ['auto', 'disabled', 'dri', 'xlib', 'gallium-xlib'])
option('gbm', type : 'feature', deprecated: {'true': 'enabled', 'false': 'disabled'})
option('shared-glapi', type : 'feature', value : 'auto')
option('osmesa', type : 'boolean', value : false)
option('llvm', type : 'feature')
option('dri3', type : 'feature')
"""
MESA_25 = """
option('platforms', type : 'array', value : ['auto'], choices : ['auto', 'x11', 'wayland'])
option('gallium-drivers', type : 'array', value : ['auto'],
       choices : ['auto', 'swrast', 'zink', 'softpipe', 'llvmpipe'])
option('vulkan-drivers', type : 'array', value : ['auto'], choices : ['auto', 'swrast'])
option('glvnd', type : 'feature', value : 'auto', description : 'Enable GLVND support.')
option('glx', type : 'combo', value : 'auto', choices : ['auto', 'disabled', 'dri', 'xlib'])
option('gbm', type : 'feature')
option('llvm', type : 'feature')
"""


def args_of(text: str, targets=("llvmpipe", "zink", "lavapipe")) -> dict[str, str]:
    args = mesa_build.meson_args(mesa_build.parse_options(text), targets)
    return dict(a[2:].split("=", 1) for a in args)


def test_mesa_22_spells_llvmpipe_swrast_and_glvnd_a_boolean():
    args = args_of(MESA_22)
    assert args["gallium-drivers"] == "swrast,zink"
    assert args["vulkan-drivers"] == "swrast"
    assert args["glvnd"] == "true"
    assert args["glx"] == "disabled" and args["gbm"] == "disabled" and args["platforms"] == ""
    assert args["osmesa"] == "false" and args["shared-glapi"] == "enabled"
    assert "dri3" not in args                          # left at its default: nothing asks for it


def test_mesa_25_spells_llvmpipe_and_glvnd_a_feature_and_leaves_out_what_it_lacks():
    args = args_of(MESA_25)
    assert args["gallium-drivers"] == "llvmpipe,zink"
    assert args["glvnd"] == "enabled"
    assert "osmesa" not in args and "shared-glapi" not in args
    assert args["b_ndebug"] == "true" and args["optimization"] == "1"     # as Debian's builds: no asserts


def test_only_the_drivers_the_targets_need():
    assert args_of(MESA_25, ("llvmpipe",))["vulkan-drivers"] == ""
    assert args_of(MESA_25, ("lavapipe",))["gallium-drivers"] == "llvmpipe"     # lavapipe is built on it
    assert args_of(MESA_22, ("lavapipe",))["gallium-drivers"] == "swrast"
    assert args_of(MESA_22, ("zink", "lavapipe"))["gallium-drivers"] == "swrast,zink"


def test_the_options_file_of_either_name_is_read(tmp_path):
    (tmp_path / "meson_options.txt").write_text(MESA_22)
    assert mesa_build.read_options(tmp_path)["glvnd"].kind == "boolean"
    (tmp_path / "meson.options").write_text(MESA_25)                      # 23.3 on: this name wins
    assert mesa_build.read_options(tmp_path)["glvnd"].kind == "feature"


def test_meson_version_is_the_trees_own_never_below_the_floor(tmp_path):
    (tmp_path / "meson.build").write_text("project(\n  'mesa',\n  meson_version : '>= 0.60',\n)\n")
    assert mesa_build.required_meson(tmp_path) == mesa_build.MESON_FLOOR
    (tmp_path / "meson.build").write_text("project('mesa', meson_version : '>= 1.4.0')\n")
    assert mesa_build.required_meson(tmp_path) == "1.4.0"


def test_a_folder_that_is_not_mesa_is_one_line_and_exit_1(tmp_path):
    (tmp_path / "meson.build").write_text("project('notmesa')\n")
    (tmp_path / "VERSION").write_text("1.0\n")
    proc = subprocess.run([sys.executable, "-m", "harness.mesa.build", str(tmp_path)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [f"build-mesa: {tmp_path}: not a Mesa source tree (no VERSION and "
                                                "meson.build of project 'mesa')"]
    proc = subprocess.run([sys.executable, "-m", "harness.mesa.build", "no-such-thing"], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1
    assert "not a Debian version of Mesa" in proc.stderr


@pytest.mark.skipif(not mesa_build.installed_llvms(),
                    reason="no LLVM installed (/usr/lib/llvm-*/bin/llvm-config): the build stops before meson "
                           "(a fresh Debian 13 root, 2026-11-26); bin/build-mesa installs it")
def test_a_failing_configure_names_its_log(tmp_path):
    """A tree whose meson.build does not configure: one line with the log's path, exit 1."""
    tree = tmp_path / "mesa"
    tree.mkdir()
    (tree / "VERSION").write_text("99.0.0-devel\n")
    (tree / "meson.build").write_text("project('mesa', 'c')\nerror('this tree does not configure')\n")
    (tree / "meson.options").write_text(MESA_25)
    log = tmp_path / "build.log"
    with pytest.raises(mesa_build.BuildError) as caught:
        mesa_build.build(tree, tmp_path / "build", ("llvmpipe",), log, install_packages=False)
    # the line names the cause, read from this command's output in the log
    assert str(caught.value) == (f"meson setup failed (exit 1): meson.build:2:0: ERROR: Problem encountered: "
                                 f"this tree does not configure; log: {log}")
    assert "this tree does not configure" in log.read_text()
